"""Fluent patterns as the locale files write them: one-line selects expanded, parsing with
positions, hashes of English patterns, variable scans, and CLDR plural categories (Babel).

Pipeline position: the lowest layer of `interpreter.i18n`; it knows no ruleset."""

from __future__ import annotations

import hashlib
from functools import cache

from fluent.syntax import FluentParser, FluentSerializer
from fluent.syntax import ast as FA
from fluent.syntax.visitor import Visitor


def expand_selects(text: str) -> str:
    """Allow one-line selects: `{ $n -> [one] a card *[other] { $n } cards }` becomes the
    multi-line form Fluent requires (variants on their own lines). Other text is unchanged."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch != "{":
            out.append(ch)
            i += 1
            continue
        j, depth = i, 0
        while j < n:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inner = text[i + 1:j]
        arrow = _top_level_find(inner, "->")
        if j >= n or arrow < 0 or "\n" in inner:
            out.append(text[i:j + 1])
            i = j + 1
            continue
        selector, rest = inner[:arrow].strip(), inner[arrow + 2:]
        variants, k, depth, start = [], 0, 0, None
        while k < len(rest):
            c = rest[k]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif depth == 0 and (c == "[" or (c == "*" and rest[k + 1:k + 2] == "[")):
                if start is not None:
                    variants.append(rest[start:k].strip())
                start = k
                k = rest.index("]", k) + 1
                continue
            k += 1
        if start is not None:
            variants.append(rest[start:].strip())
        lines = [f"{{ {selector} ->"]
        for v in variants:
            lines.append(("   " if v.startswith("*") else "    ") + expand_selects(v))
        lines.append("}")
        out.append("\n".join(lines))
        i = j + 1
    return "".join(out)


def _top_level_find(s: str, needle: str) -> int:
    depth = 0
    for i in range(len(s)):
        if s[i] == "{":
            depth += 1
        elif s[i] == "}":
            depth -= 1
        elif depth == 0 and s.startswith(needle, i):
            return i
    return -1


def to_ftl(messages: dict) -> str:
    """Turn {id: pattern} into Fluent source (continuation lines indented)."""
    out = []
    for key, pattern in messages.items():
        text = expand_selects(str(pattern).rstrip("\n"))
        lines = text.split("\n")
        if len(lines) == 1:
            out.append(f"{key} = {lines[0]}")
        else:
            out.append(f"{key} =\n" + "\n".join("    " + ln if ln.strip() else "" for ln in lines))
    return "\n".join(out) + "\n"




PLURAL_KEYS = ("zero", "one", "two", "few", "many", "other")


def _babel_locale(code: str) -> str:
    """The CLDR locale behind a file's language code. Portuguese follows the European
    norm of the seed rules (pt-PT: 0 takes the plural, `0 cartas`)."""
    return {"en": "en-US", "ru": "ru", "pl": "pl", "pt": "pt-PT"}.get(code, code)


@cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories (Babel) that whole numbers 0..1000 reach in `lang`, plus
    `other` (Fluent's required default). Categories only reached by fractions or by
    millions (Portuguese `many`) are not demanded: the default variant covers them."""
    from babel import Locale
    rule = Locale.parse(_babel_locale(lang).replace("-", "_")).plural_form
    cats = {rule(n) for n in range(1001)} | {"other"}
    return tuple(c for c in PLURAL_KEYS if c in cats)


def plural_category(lang: str, n: int) -> str:
    from babel import Locale
    return Locale.parse(_babel_locale(lang).replace("-", "_")).plural_form(n)


_parser = FluentParser(with_spans=True)


def parse_pattern(key: str, pattern) -> tuple[FA.Message | None, list[tuple[int, int, str]]]:
    """Parse one message; return (Message or None, [(line, col, error)]) where line/col are
    1-based positions in the pattern text (line 1 is the pattern's first line)."""
    text = str(pattern).rstrip("\n")
    ftl = to_ftl({key: text})
    res = _parser.parse(ftl)
    msg, errs = None, []
    multi = "\n" in expand_selects(text)
    for entry in res.body:
        if isinstance(entry, FA.Message) and msg is None:
            msg = entry
        elif isinstance(entry, FA.Junk):
            for a in entry.annotations or [None]:
                off = a.span.start if a is not None and a.span else entry.span.start
                line = ftl.count("\n", 0, off) + 1
                col = off - (ftl.rfind("\n", 0, off) + 1) + 1
                if multi:
                    line, col = max(line - 1, 1), max(col - 4, 1)
                else:
                    col = max(col - len(f"{key} = "), 1)
                errs.append((line, col, a.message if a is not None else "invalid Fluent syntax"))
    if msg is None and not errs:
        errs.append((1, 1, "not a Fluent message"))
    if errs:
        msg = None
    return msg, errs


def pattern_hash(pattern) -> str:
    """A short hash of an English pattern, insensitive to how a select is laid out."""
    msg, errs = parse_pattern("x", pattern)
    canon = FluentSerializer().serialize_entry(msg) if msg is not None else str(pattern).strip()
    return hashlib.sha1(canon.encode("utf-8")).hexdigest()[:8]


class _Scan(Visitor):
    def __init__(self):
        super().__init__()
        self.vars: set[str] = set()
        self.selects: list[tuple[str | None, bool, list]] = []   # (variable, NUMBER(), keys)

    def visit_VariableReference(self, node):
        self.vars.add(node.id.name)

    def visit_SelectExpression(self, node):
        sel, number = node.selector, False
        if isinstance(sel, FA.FunctionReference) and sel.id.name == "NUMBER" and sel.arguments.positional:
            sel, number = sel.arguments.positional[0], True
        var = sel.id.name if isinstance(sel, FA.VariableReference) else None
        keys = [v.key.name if isinstance(v.key, FA.Identifier) else v.key.value for v in node.variants]
        keys = [k if isinstance(k, str) else str(k) for k in keys]
        numeric = number or any(isinstance(v.key, FA.NumberLiteral) for v in node.variants)
        self.selects.append((var, numeric, keys))
        self.generic_visit(node)


def scan(msg: FA.Message | None) -> _Scan:
    sc = _Scan()
    if msg is not None:
        sc.visit(msg)
    return sc


def numeric_vars(sc: _Scan) -> set[str]:
    """Variables a message selects on by plural category (or by number)."""
    return {v for v, numeric, keys in sc.selects
            if v and (numeric or any(k in PLURAL_KEYS[:5] for k in keys))}


def selector_vars(sc: _Scan) -> set[str]:
    """Variables a message selects on by string key (e.g. `[left]`, `[order]`)."""
    return {v for v, numeric, keys in sc.selects
            if v and not numeric and not any(k in PLURAL_KEYS for k in keys if k != "other")}
