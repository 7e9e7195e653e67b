"""Effect text -> syntax tree (ast.py), with friendly, located syntax errors.

Pipeline position: called by the compiler for every code string of a ruleset. Lark LALR with
`cache=True` and propagated positions; a Python-style indenter turns indentation into
INDENT/DEDENT tokens. Syntax errors become `EffectSyntaxError(line, col, message)` with a
message a rules author can act on, never a raw token dump.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from . import ast as A

GRAMMAR = Path(__file__).with_name("grammar.lark")


class EffectSyntaxError(Exception):
    """A syntax error at (line, col) of an effect text."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line, self.col, self.message = line, col, message


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", start=["block", "expression"],
                postlex=_Indenter(), propagate_positions=True, maybe_placeholders=True,
                cache=True)


def _pos(meta_or_tok) -> dict:
    return {"line": getattr(meta_or_tok, "line", 0) or 0, "col": getattr(meta_or_tok, "column", 0) or 0}


@v_args(meta=True)
class _Build(Transformer):
    """Lark tree -> ast dataclasses, bottom-up."""

    def block(self, meta, stmts):
        return _flatten(stmts)

    def expression(self, meta, items):
        return items[0]

    def simple_stmts(self, meta, items):
        return list(items)

    def suite(self, meta, items):
        return _flatten(items)

    def name_target(self, meta, items):
        return A.Name(str(items[0]), **_pos(items[0]))

    def call_target(self, meta, items):
        return self.call(meta, items)

    def assign(self, meta, items):
        return A.Assign(items[0], "=", items[1], **_pos(meta))

    def augassign(self, meta, items):
        return A.Assign(items[0], str(items[1]), items[2], **_pos(meta))

    def expr_stmt(self, meta, items):
        return A.ExprStmt(items[0], **_pos(meta))

    def pass_stmt(self, meta, items):
        return A.Pass(**_pos(meta))

    def return_stmt(self, meta, items):
        return A.Return(items[0] if items else None, **_pos(meta))

    def if_stmt(self, meta, items):
        cond, body, *rest = items
        orelse = None
        branches = [(cond, body)]
        for r in rest:
            if r is None:
                continue
            if isinstance(r, tuple):
                branches.append(r)
            else:
                orelse = r
        return A.If(branches, orelse, **_pos(meta))

    def elif_clause(self, meta, items):
        return (items[0], items[1])

    def else_clause(self, meta, items):
        return items[0]

    def for_stmt(self, meta, items):
        return A.For(str(items[0]), items[1], items[2], **_pos(meta))

    def repeat_stmt(self, meta, items):
        return A.Repeat(items[0], items[1], **_pos(meta))

    def while_stmt(self, meta, items):
        return A.While(items[0], items[1], **_pos(meta))

    def cond_expr(self, meta, items):
        return A.IfExpr(items[1], items[0], items[2], **_pos(meta))

    def or_expr(self, meta, items):
        return items[0] if len(items) == 1 else A.BoolOp("or", list(items), **_pos(meta))

    def and_expr(self, meta, items):
        return items[0] if len(items) == 1 else A.BoolOp("and", list(items), **_pos(meta))

    def not_expr(self, meta, items):
        return A.Not(items[0], **_pos(meta))

    def comparison(self, meta, items):
        if len(items) == 1 or items[1] is None:
            return items[0]
        left, op, right = items
        return A.Compare(op, left, right, **_pos(meta))

    def comp_op(self, meta, items):
        return " ".join(str(t) for t in items)

    def arith(self, meta, items):
        return items[0] if len(items) == 1 else _binops(items, meta)

    term = arith

    def neg(self, meta, items):
        return A.Neg(items[0], **_pos(meta))

    def attr(self, meta, items):
        return A.Attr(items[0], str(items[1]), **_pos(items[1]))

    def index(self, meta, items):
        return A.Index(items[0], items[1], **_pos(meta))

    def call(self, meta, items):
        name, arglist = items[0], items[1]
        args, kwargs, kwpos = [], {}, {}
        for a in arglist or []:
            if isinstance(a, tuple) and a and a[0] == "kw":
                kwargs[a[1]] = a[2]
                kwpos[a[1]] = a[3]
            else:
                args.append(a)
        return A.Call(str(name), args, kwargs, kwpos, **_pos(name))

    def args(self, meta, items):
        return list(items)

    def kwarg(self, meta, items):
        return ("kw", str(items[0]), items[1], (items[0].line, items[0].column))

    def name(self, meta, items):
        return A.Name(str(items[0]), **_pos(items[0]))

    def number(self, meta, items):
        return A.Num(int(items[0]), **_pos(items[0]))

    def string(self, meta, items):
        return A.Str(str(items[0])[1:-1], **_pos(items[0]))

    def true(self, meta, items):
        return A.Const(True, **_pos(meta))

    def false(self, meta, items):
        return A.Const(False, **_pos(meta))

    def none(self, meta, items):
        return A.Const(None, **_pos(meta))

    def list_expr(self, meta, items):
        return A.ListExpr([i for i in items if i is not None], **_pos(meta))

    def comprehension(self, meta, items):
        elt, var, it, cond = items
        return A.Comprehension(elt, str(var), it, cond, **_pos(meta))


def _binops(items, meta):
    node = items[0]
    for i in range(1, len(items), 2):
        op = str(items[i])
        node = A.BinOp(op, node, items[i + 1], line=node.line, col=node.col)
    return node


def _flatten(items):
    out = []
    for it in items:
        if isinstance(it, list):
            out.extend(it)
        elif it is not None:
            out.append(it)
    return out


_TOKEN_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COLON": "':'", "COMMA": "','",
    "_NL": "end of line", "$END": "end of text", "_INDENT": "an indented block",
    "_DEDENT": "end of block", "NAME": "a name", "NUMBER": "a number", "STRING": "a string",
    "EQUAL": "'='", "DOT": "'.'",
}


def _describe(tok: Token | None) -> str:
    if tok is None:
        return "end of text"
    if tok.type in ("_NL",):
        return "end of line"
    if tok.type == "$END":
        return "end of text"
    if tok.type == "_DEDENT":
        return "end of block"
    if tok.type == "_INDENT":
        return "unexpected indentation"
    return repr(str(tok))


def _unclosed(text: str, pos: int) -> str | None:
    """The innermost bracket still open at offset pos (strings and comments skipped)."""
    stack: list[str] = []
    i = 0
    while i < min(pos, len(text)):
        ch = text[i]
        if ch in "\"'":
            j = text.find(ch, i + 1)
            i = j + 1 if j > 0 else len(text)
            continue
        if ch == "#":
            j = text.find("\n", i)
            i = j if j > 0 else len(text)
            continue
        if ch in "([":
            stack.append(ch)
        elif ch in ")]" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else None


def _end_of_previous(text: str, pos) -> tuple[int, int]:
    """(line, col) just after the last non-blank character before offset pos."""
    if pos is None:
        pos = len(text)
    i = min(pos, len(text)) - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i < 0:
        return 0, 0
    line = text.count("\n", 0, i + 1) + 1
    col = i - (text.rfind("\n", 0, i + 1) + 1) + 2
    return line, col


def _friendly(e: UnexpectedInput, text: str) -> EffectSyntaxError:
    line = getattr(e, "line", 0) or 0
    col = getattr(e, "column", 0) or 0
    if isinstance(e, UnexpectedCharacters):
        ch = text.splitlines()[line - 1][col - 1] if 0 < line <= len(text.splitlines()) else "?"
        return EffectSyntaxError(line, col, f"unexpected character {ch!r}")
    if isinstance(e, UnexpectedToken):
        tok = e.token
        exp = set(e.expected)
        got = _describe(tok)
        if tok.type == "$END" or line == 0:
            lines = text.rstrip("\n").splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        pos = getattr(tok, "start_pos", None)
        if tok.type in ("$END", "_DEDENT", "_INDENT") or pos is None:
            pos = len(text)
        opener = _unclosed(text, pos)
        if opener and tok.type not in ("COMMA", "RPAR", "RSQB"):
            # the closer belongs right after the last thing written before this token
            pl, pc = _end_of_previous(text, pos)
            if pl:
                line, col = pl, pc
            return EffectSyntaxError(line, col, f"missing {')' if opener == '(' else ']'!r}")
        if "COLON" in exp and len(exp) <= 3:
            return EffectSyntaxError(line, col, f"missing ':' at the end of the line (found {got})")
        if tok.type == "_INDENT":
            return EffectSyntaxError(line, col, "unexpected indentation")
        if "_INDENT" in exp:
            return EffectSyntaxError(line, col, "expected an indented block after ':'")
        if tok.type in ("_NL", "$END", "_DEDENT") and ("_INDENT" in exp or "_NL" in exp):
            return EffectSyntaxError(line, col, "expected an indented block after ':'")
        if tok.type == "EQUAL":
            return EffectSyntaxError(line, col, "'=' is assignment; to compare, write '=='")
        words = sorted(_TOKEN_WORDS.get(x, repr(x.lower())) for x in exp if not x.startswith("__"))
        hint = f"; expected {', '.join(words[:6])}" if words and len(words) <= 6 else ""
        return EffectSyntaxError(line, col, f"unexpected {got}{hint}")
    if isinstance(e, UnexpectedEOF):
        lines = text.rstrip("\n").splitlines() or [""]
        return EffectSyntaxError(len(lines), len(lines[-1]) + 1, "unexpected end of text")
    return EffectSyntaxError(line, col, "syntax error")


def parse(text: str, start: str = "block"):
    """Parse effect text; return a list of statements ("block") or one expression.

    Results are cached by text: the same effect in a reloaded ruleset (or a variant of it)
    is not parsed again. Syntax trees are never changed after parsing, so sharing is safe.
    """
    return _parse_cached(text, start)


@lru_cache(maxsize=8192)
def _parse_cached(text: str, start: str):
    from . import depth
    if len(text) > depth.MAX_TEXT:
        raise EffectSyntaxError(1, 1, f"the text is {len(text)} characters, over the limit of "
                                      f"{depth.MAX_TEXT} for one effect; split it into procedures")
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as e:
        raise _friendly(e, text) from None
    except LarkError as e:  # indentation errors from the indenter, etc.
        msg = str(e).splitlines()[0] if str(e) else "syntax error"
        if "dedent" in msg.lower() or "indent" in msg.lower():
            msg = "indentation does not match any outer block"
        raise EffectSyntaxError(1, 1, msg) from None
    where = depth.too_deep_lark(tree)
    nodes = depth.deep_call(_Build().transform, tree) if where is None else None
    where = where or depth.too_deep_ast(nodes)
    if where is not None:
        raise EffectSyntaxError(*where, depth.message())
    return nodes
