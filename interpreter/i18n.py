"""Text in every language: Fluent messages from locale YAML files, CLDR plurals via Babel.

Pipeline position: beside the engine; reads a compiled Program and events from a state's
log, never the state's hidden parts. A ruleset's `locales/LANG.yaml` holds Fluent patterns
keyed `card-ID`, `card-ID-text`, `location-ID`, `action-ID`, `prompt-ID`, `option-ID`,
`event-ID`, `side-ID`, `end-ID`, ...; the engine's own generic events (turn, act, chose,
passed, game_over) have default text in `interpreter/messages/LANG.yaml` that a ruleset may
override. Numbers in card text come from the card's `params`, so a variant that changes a
number changes the text in every language, with the right plural form.
"""

from __future__ import annotations

from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource

from .errors import Loc, Problem
from .load import load_yaml

LANGS = ("en", "ru", "pl", "pt")
ENGINE_MESSAGES = Path(__file__).with_name("messages")


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


def locale_messages(ruleset_dir: Path, lang: str) -> tuple[dict, list[Problem], object]:
    """The messages of one locale file (empty if absent), with load problems and the Doc."""
    path = Path(ruleset_dir) / "locales" / f"{lang}.yaml"
    if not path.is_file():
        return {}, [], None
    from .errors import RulesetError
    try:
        doc = load_yaml(path)
    except RulesetError as e:
        return {}, e.problems, None
    data = doc.data if isinstance(doc.data, dict) else {}
    msgs = data.get("messages") or {}
    if not isinstance(msgs, dict):
        return {}, [Problem(doc.source.value(("messages",)), "messages must be a mapping")], doc
    return {str(k): v for k, v in msgs.items()}, [], doc


class Text:
    """Renders message ids and log events of one game in one language."""

    def __init__(self, program, lang: str = "en", ruleset_dir: Path | None = None):
        self.prog = program
        self.lang = lang
        self.missing: set[str] = set()
        self.fallbacks: set[str] = set()
        root = Path(ruleset_dir or program.rs.root)
        self.bundles = []
        for code in ([lang, "en"] if lang != "en" else ["en"]):
            b = FluentBundle([_babel_locale(code)], use_isolating=False)
            eng, _, _ = _engine_messages(code)
            b.add_resource(FluentResource(to_ftl(eng)))
            msgs, _, _ = locale_messages(root, code)
            b.add_resource(FluentResource(to_ftl(msgs)), allow_overrides=True)
            self.bundles.append((code, b))

    def has(self, msg_id: str) -> bool:
        return self.bundles[0][1].has_message(msg_id)

    def msg(self, msg_id: str, args: dict | None = None, default: str | None = None) -> str:
        """Format a message; falls back to English, then to `default` or the id."""
        for i, (code, b) in enumerate(self.bundles):
            if b.has_message(msg_id):
                m = b.get_message(msg_id)
                if m.value is None:
                    continue
                text, errors = b.format_pattern(m.value, args or {})
                if i > 0:
                    self.fallbacks.add(msg_id)
                return text
        self.missing.add(msg_id)
        return default if default is not None else msg_id

    # ---- values ---------------------------------------------------------------------------

    def player(self, st, p) -> str:
        from .engine.decisions import player_id
        if p is None:
            return self.msg("nobody", default="nobody")
        pid = player_id(st, p)
        if pid in self.prog.card_index:
            return self.msg("card-" + pid)
        return self.msg("player-seat", {"n": p + 1}, default=f"Player {p + 1}")

    def card_name(self, kind: int) -> str:
        cid = self.prog.card_ids[kind]
        return self.msg("card-" + cid, default=cid)

    def card_text(self, kind: int) -> str:
        cid = self.prog.card_ids[kind]
        params = {k: v for k, v in self.prog.kind_params[kind].items() if isinstance(v, (int, str))}
        mid = "card-" + cid + "-text"
        return self.msg(mid, params, default="") if self.has(mid) or self.lang != "en" else ""

    def value(self, st, v, t: str):
        """A log value as text (ints stay numbers so plural selectors work)."""
        if v is None:
            return self.msg("nothing", default="—")
        if t.startswith("list:"):
            return ", ".join(str(self.value(st, x, t[5:])) for x in v) if v else self.msg("nothing", default="—")
        if t == "player":
            return self.player(st, v)
        if t == "card":
            if v < len(self.prog.card_def):
                return self.card_name(self.prog.card_def[v])
            return "?"
        if t == "kind":
            return self.card_name(v)
        if t == "loc":
            lid = self.prog.loc_ids[v]
            return self.msg("location-" + lid, default=lid)
        if t in ("int", "bool"):
            return int(v)
        if isinstance(v, str):
            for prefix in ("side-", "option-", "end-"):
                if self.has(prefix + v):
                    return self.msg(prefix + v)
        return str(v)

    def option(self, st, opt) -> str:
        """The label of a decision option."""
        if opt.value is None and opt.id == "pass":
            return self.msg("option-pass", default="Pass")
        if opt.label.startswith("action-"):
            aid, args = opt.value
            a = self.prog.actions[aid]
            vals = {n: self.value(st, v, t) for n, v, t in zip(a.arg_names, args, a.arg_types)}
            return self.msg(opt.label, vals, default=aid)
        t = opt.args[0] if opt.args else "str"
        if t == "str":
            return self.msg("option-" + opt.id, default=opt.id)
        return str(self.value(st, opt.value, t))

    def prompt(self, st, pend) -> str:
        pid = pend.get("prompt") or ("act-" + pend["g"] if pend["k"] == "act" else "choose")
        who = self.player(st, pend["p"])
        return self.msg("prompt-" + pid, {"player": who}, default=pid.replace("_", " "))

    def event(self, st, e) -> str:
        """One log event as a sentence."""
        ev, args, types, _mask = e[0], e[1], e[2], e[3]
        names = e[4] if len(e) > 4 else []
        vals = {}
        for i, v in enumerate(args):
            t = types[i] if i < len(types) else "any"
            name = names[i] if i < len(names) else f"arg{i + 1}"
            vals[name] = self.value(st, v, t)
        if ev == "act":
            aid = args[1]
            a = self.prog.actions.get(aid)
            if a is not None:
                avals = {n: self.value(st, v, t) for n, v, t in zip(a.arg_names, args[2:], a.arg_types)}
                vals["action"] = self.msg("action-" + aid, avals, default=aid)
        if ev == "game_over":
            vals["reason"] = self.msg("end-" + args[0], default=args[0])
            vals["sides"] = ", ".join(self.msg("side-" + s, default=s) for s in args[1]) or self.msg(
                "nobody", default="nobody")
        if ev == "chose":
            vals["prompt"] = self.msg("prompt-" + str(args[2]), {"player": vals.get("player", "")},
                                      default=str(args[2]))
        return self.msg("event-" + ev, vals, default=ev + " " + " ".join(str(x) for x in vals.values()))


def _babel_locale(code: str) -> str:
    return {"en": "en-US", "ru": "ru", "pl": "pl", "pt": "pt-BR"}.get(code, code)


_engine_cache: dict = {}


def _engine_messages(lang: str):
    if lang not in _engine_cache:
        path = ENGINE_MESSAGES / f"{lang}.yaml"
        if path.is_file():
            doc = load_yaml(path)
            _engine_cache[lang] = (dict((doc.data or {}).get("messages") or {}), [], doc)
        else:
            _engine_cache[lang] = ({}, [], None)
    return _engine_cache[lang]


def unused(_: Loc) -> None:  # pragma: no cover - keeps Loc imported for type readers
    return None


def fluent_problems(ruleset_dir: Path) -> list[Problem]:
    """Fluent syntax errors in a ruleset's locale files, each at its file:line."""
    from fluent.syntax import FluentParser
    from fluent.syntax import ast as FA
    out: list[Problem] = []
    for lang in LANGS:
        msgs, problems, doc = locale_messages(ruleset_dir, lang)
        out.extend(problems)
        if doc is None:
            continue
        parser = FluentParser(with_spans=False)
        for key, pattern in msgs.items():
            res = parser.parse(to_ftl({key: pattern}))
            for entry in res.body:
                if isinstance(entry, FA.Junk):
                    note = entry.annotations[0].message if entry.annotations else "invalid Fluent syntax"
                    out.append(Problem(doc.source.value(("messages", key)), f"Fluent syntax in {key!r}: {note}"))
    return out
