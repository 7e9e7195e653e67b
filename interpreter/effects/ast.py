"""The effect language's syntax tree: small dataclasses that keep their position.

Pipeline position: parse.py builds these from Lark's tree (a Transformer, bottom-up);
compile.py checks them against the ruleset and turns them into closures. Positions are
(line, col) inside the effect text, 1-based; the compiler maps them into the YAML file.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    line: int = field(default=0, kw_only=True)
    col: int = field(default=0, kw_only=True)


# ---- expressions -------------------------------------------------------------------------

@dataclass
class Num(Node):
    value: int


@dataclass
class Str(Node):
    value: str


@dataclass
class Const(Node):
    value: object  # True, False or None


@dataclass
class Name(Node):
    id: str


@dataclass
class Call(Node):
    func: str
    args: list
    kwargs: dict  # name -> expr
    kwpos: dict = field(default_factory=dict)  # name -> (line, col)


@dataclass
class Attr(Node):
    obj: Node
    name: str


@dataclass
class Index(Node):
    obj: Node
    index: Node


@dataclass
class ListExpr(Node):
    items: list


@dataclass
class Comprehension(Node):
    elt: Node
    var: str
    iterable: Node
    cond: Node | None


@dataclass
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass
class BoolOp(Node):
    op: str  # "and" | "or"
    values: list


@dataclass
class Not(Node):
    operand: Node


@dataclass
class Neg(Node):
    operand: Node


@dataclass
class Compare(Node):
    op: str
    left: Node
    right: Node


@dataclass
class IfExpr(Node):
    cond: Node
    then: Node
    other: Node


# ---- statements --------------------------------------------------------------------------

@dataclass
class Assign(Node):
    target: Node  # Name or Call (a counter)
    op: str  # "=", "+=", "-="
    value: Node


@dataclass
class ExprStmt(Node):
    expr: Node


@dataclass
class Pass(Node):
    pass


@dataclass
class Return(Node):
    value: Node | None


@dataclass
class If(Node):
    branches: list  # [(cond, body)]
    orelse: list | None


@dataclass
class For(Node):
    var: str
    iterable: Node
    body: list


@dataclass
class Repeat(Node):
    count: Node
    body: list


@dataclass
class While(Node):
    cond: Node
    body: list


def walk_nodes(node):
    """Every node of a syntax tree (statements, expressions, their lists)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            stack.extend(v for v in vars(n).values() if isinstance(v, (Node, list, tuple, dict)))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())


def names_in(node) -> set:
    """Every bare name an expression reads (for deciding when a test can run)."""
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Name):
            out.add(n.id)
        elif isinstance(n, Node):
            for v in vars(n).values():
                if isinstance(v, (Node, list, tuple, dict)):
                    stack.append(v)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
    return out
