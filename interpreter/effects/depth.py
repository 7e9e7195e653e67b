"""The nesting bound of effect text: how deep an expression or a block may nest.

Pipeline position: inside parse.py, between Lark and the syntax tree. The later stages (the
checks, the type pass, code generation) walk a syntax tree recursively, so a tree as deep as
Python's stack (5,000 parentheses, 100,000 chained `+`, 500 nested `if` blocks) would end in a
RecursionError. Both measures here are iterative: the Lark tree is measured before it is
turned into a syntax tree (that step recurses too), the syntax tree after (a chain of `+` is
flat in Lark and deep once built). Past the bound, one located syntax error states it.
"""

from __future__ import annotations

import sys

from lark import Token, Tree

MAX_NESTING = 100  # levels of an expression or of blocks; the shipped rulesets use under 15
LARK_PER_LEVEL = 7  # Lark nodes a level may take (a call takes 6), so the two bounds agree
MAX_TEXT = 20_000  # characters of one effect (the shipped rulesets' longest has 3,103): parse time


def message() -> str:
    """The refusal, naming the limit."""
    return (f"nested too deeply: more than {MAX_NESTING} levels of expressions or blocks (the limit); "
            f"split it into procedures or name a part with a param")


def _pos(node) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 0, node.column or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        return meta.line, meta.column
    for child in getattr(node, "children", ()):  # a node without a position: its first token's
        line, col = _pos(child) if isinstance(child, Token) else (0, 0)
        if line:
            return line, col
    return 0, 0


def too_deep_lark(tree: Tree) -> tuple[int, int] | None:
    """(line, col) of a Lark node past the bound, or None when the tree is within it."""
    limit = MAX_NESTING * LARK_PER_LEVEL
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return _pos(node)
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree | Token))
    return None


def too_deep_ast(nodes) -> tuple[int, int] | None:
    """(line, col) of a syntax-tree node nested past the bound, or None."""
    stack = [(nodes, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, list | tuple):
            stack.extend((c, depth) for c in node)
            continue
        fields = getattr(node, "__dataclass_fields__", None)
        if fields is None:
            continue
        if depth > MAX_NESTING:
            return getattr(node, "line", 0) or 0, getattr(node, "col", 0) or 0
        for name in fields:
            value = getattr(node, name)
            if isinstance(value, list | tuple) or hasattr(value, "__dataclass_fields__"):
                stack.append((value, depth + 1))
    return None


def deep_call(fn, *args):
    """fn(*args) with room on the stack for a tree within the bound (Lark's transform recurses
    about twice per node)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * MAX_NESTING * LARK_PER_LEVEL + 1000))
    try:
        return fn(*args)
    finally:
        sys.setrecursionlimit(old)
