"""Text in every language: Fluent messages from locale YAML files, CLDR plurals via Babel.

Pipeline position: beside the engine; reads a compiled Program and events from a state's
log, never the state's hidden parts. A ruleset's `locales/LANG.yaml` holds Fluent patterns
keyed `card-ID`, `card-ID-text`, `location-ID`, `action-ID`, `prompt-ID`, `option-ID`,
`event-ID`, `side-ID`, `end-ID`, ...; the engine's own generic events (turn, act, chose,
passed, game_over) have default text in `interpreter/messages/LANG.yaml` that a ruleset may
override. Numbers in card text come from the card's `params`, so a variant that changes a
number changes the text in every language, with the right plural form.

English (`en.yaml`) is the source language. `check_locales` compares every other locale
with it: missing and extra ids, variables, plural coverage of numeric selects (the CLDR
categories, from Babel, that whole numbers 0..1000 reach in that language: Russian and
Polish one/few/many/other, Portuguese and English one/other), Fluent syntax, and staleness
(a locale file's `source:` map holds, per id, `pattern_hash` of the English pattern it was
translated from). Rendering records in `Text.missing` the ids nobody translated and in
`Text.fallbacks` the ids that fell back to English, so tests can demand a complete log.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import FluentParser, FluentSerializer
from fluent.syntax import ast as FA
from fluent.syntax.visitor import Visitor

from .errors import Loc, Problem
from .load import load_yaml
from .variant_texts import variant_messages

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


# ---- parsing, hashing, plural categories -----------------------------------------------------

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


# ---- rendering ---------------------------------------------------------------------------------

class Text:
    """Renders message ids and log events of one game in one language.

    `missing`: ids no locale (not even English) has; `fallbacks`: ids rendered from English
    in another language; `errors`: Fluent formatting errors (e.g. a variable not passed)."""

    def __init__(self, program, lang: str = "en", ruleset_dir: Path | None = None):
        self.prog = program
        self.lang = lang
        self.missing: set[str] = set()
        self.fallbacks: set[str] = set()
        self.errors: list[str] = []
        self.generic: set[str] = set()      # ids shown with the engine's generic wording
        root = Path(ruleset_dir or program.rs.root)
        self.bundles = []
        self._sources: dict[str, dict] = {}
        for code in ([lang, "en"] if lang != "en" else ["en"]):
            b = FluentBundle([_babel_locale(code)], use_isolating=False)
            eng, _, _ = _engine_messages(code)
            b.add_resource(FluentResource(to_ftl(eng)))
            msgs, _, _ = locale_messages(root, code)
            msgs = {**msgs, **variant_messages(program, code)}  # a variant's own text wins
            b.add_resource(FluentResource(to_ftl(msgs)), allow_overrides=True)
            self.bundles.append((code, b))
            self._sources[code] = {**eng, **msgs}
        self._selectors: dict[str, set] = {}

    def has(self, msg_id: str) -> bool:
        """Whether any of this Text's languages (English included) has the message."""
        return any(b.has_message(msg_id) for _, b in self.bundles)

    def msg(self, msg_id: str, args: dict | None = None, default: str | None = None) -> str:
        """Format a message; falls back to English, then to `default` or the id."""
        for i, (code, b) in enumerate(self.bundles):
            if b.has_message(msg_id):
                m = b.get_message(msg_id)
                if m.value is None:
                    continue
                text, errors = b.format_pattern(m.value, args or {})
                for e in errors:
                    self.errors.append(f"{code}:{msg_id}: {e}")
                if i > 0:
                    self.fallbacks.add(msg_id)
                return text
        self.missing.add(msg_id)
        return default if default is not None else msg_id

    def _scan(self, msg_id: str) -> tuple[set, set]:
        """(variables used, variables selected on by string) of the message, in the first
        language that has it."""
        if msg_id not in self._selectors:
            found: tuple[set, set] = (set(), set())
            for code, _ in self.bundles:
                src = self._sources[code].get(msg_id)
                if src is not None:
                    m, _ = parse_pattern(msg_id, src)
                    sc = scan(m)
                    found = (sc.vars, selector_vars(sc))
                    break
            self._selectors[msg_id] = found
        return self._selectors[msg_id]

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

    def card_params(self, kind: int) -> dict:
        """The numbers of a card's text: its `params` (what its effects use by name); a
        param naming a ruleset param takes that param's value."""
        out = {}
        for k, v in self.prog.kind_params[kind].items():
            if isinstance(v, str) and isinstance(self.prog.params.get(v), (int, float)):
                v = self.prog.params[v]
            if isinstance(v, bool):
                v = int(v)
            if isinstance(v, (int, float, str)):
                out[k] = v
        return out

    def card_text(self, kind: int) -> str:
        cid = self.prog.card_ids[kind]
        mid = "card-" + cid + "-text"
        if not self.has(mid):
            if self.lang != "en":
                self.missing.add(mid)
            return ""
        return self.msg(mid, self.card_params(kind), default="")

    def value(self, st, v, t: str, record: bool = True):
        """A log value as text (ints stay numbers so plural selectors work). A string with no
        side-/option-/end- message is shown as is and, if `record`, noted in `missing`."""
        if v is None:
            if t == "card":  # a card the viewer may not see
                return self.msg("hidden-card", default="a face-down card")
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
        if t in ("int", "bool") or isinstance(v, bool):
            return int(v)
        if isinstance(v, (int, float)):
            return v
        if isinstance(v, str):
            for prefix in ("side-", "option-", "end-"):
                if self.has(prefix + v):
                    return self.msg(prefix + v)
            if record:
                self.missing.add("option-" + v)
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
        if not self.has("prompt-" + pid):
            # a prompt the ruleset gave no text: the engine's generic question, still localized
            # (`grimoire i18n check` warns about it)
            generic = "prompt-act" if pid.startswith("act-") else "prompt-choose"
            self.generic.add("prompt-" + pid)
            return self.msg(generic, {"player": who}, default=pid.replace("_", " "))
        return self.msg("prompt-" + pid, {"player": who}, default=pid.replace("_", " "))

    def event(self, st, e) -> str:
        """One log event as a sentence."""
        ev, args, types, _mask = e[0], e[1], e[2], e[3]
        names = e[4] if len(e) > 4 else []
        mid = "event-" + ev
        used, raw = self._scan(mid)
        vals = {}
        for i, v in enumerate(args):
            t = types[i] if i < len(types) else "any"
            name = names[i] if i < len(names) else f"arg{i + 1}"
            # a variable the message selects on by string key gets the raw string (`[left]`)
            record = name in used and ev not in ("act", "chose", "game_over")
            vals[name] = v if name in raw and isinstance(v, str) else self.value(st, v, t, record)
        if ev == "act":
            aid = args[1]
            a = self.prog.actions.get(aid)
            if a is not None:
                avals = {n: self.value(st, v, t) for n, v, t in zip(a.arg_names, args[2:], a.arg_types)}
                vals["action"] = self.msg("action-" + aid, avals, default=aid)
        if ev == "game_over":
            vals["reason"] = self.msg("end-" + args[0], default=args[0]).rstrip(".")
            vals["sides"] = ", ".join(self.msg("side-" + s, default=s) for s in args[1]) or self.msg(
                "nobody", default="nobody")
        if ev == "chose":
            vals["prompt"] = self.msg("prompt-" + str(args[2]), {"player": vals.get("player", "")},
                                      default=str(args[2]))
        return self.msg(mid, vals, default=ev + " " + " ".join(str(x) for x in vals.values()))


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


def fluent_problems(ruleset_dir: Path) -> list[Problem]:
    """Fluent syntax errors in a ruleset's locale files, each at its file:line."""
    out: list[Problem] = []
    from .languages import languages_of
    for lang in languages_of(ruleset_dir):
        msgs, problems, doc = locale_messages(ruleset_dir, lang)
        out.extend(problems)
        if doc is None:
            continue
        for key, pattern in msgs.items():
            _, errs = parse_pattern(key, pattern)
            for line, col, note in errs:
                out.append(Problem(_pattern_loc(doc, key, line, col), f"Fluent syntax in {key!r}: {note}"))
    return out


def _pattern_loc(doc, key: str, line: int, col: int) -> Loc:
    try:
        return doc.source.text(("messages", key), line, col)
    except Exception:  # a position the source map cannot place: the value itself
        return doc.source.value(("messages", key))


# ---- checking a locale against English -----------------------------------------------------------

def locale_sources(doc) -> dict:
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    src = data.get("source") or {}
    return {str(k): str(v) for k, v in src.items()} if isinstance(src, dict) else {}


def check_locale_set(en: dict, en_doc, loc: dict, loc_doc, lang: str, path: str,
                     numeric_hint: set | None = None) -> list[Problem]:
    """Problems of one locale's messages against English (all located at file:line)."""
    out: list[Problem] = []
    cats = plural_categories(lang)

    def at_key(key):
        return loc_doc.source.key(("messages", key)) if loc_doc is not None else Loc(path, 1, 1)

    def en_line(key):
        return en_doc.source.key(("messages", key)).line if en_doc is not None else 0

    head = loc_doc.source.key(("messages",)) if loc_doc is not None else Loc(path, 1, 1)
    for key in en:
        if key not in loc:
            out.append(Problem(head, f"missing {key!r} (English at line {en_line(key)})", ("missing",)))
    en_parsed = {k: parse_pattern(k, v)[0] for k, v in en.items()}
    sources = locale_sources(loc_doc)
    for key, pattern in loc.items():
        if key not in en:
            out.append(Problem(at_key(key), f"extra {key!r}: English has no such message", ("extra",)))
            continue
        msg, errs = parse_pattern(key, pattern)
        for line, col, note in errs:
            out.append(Problem(_pattern_loc(loc_doc, key, line, col) if loc_doc else Loc(path, 1, 1),
                               f"Fluent syntax in {key!r}: {note}", ("syntax",)))
        if msg is None:
            continue
        sc, esc = scan(msg), scan(en_parsed.get(key))
        if en_parsed.get(key) is not None and sc.vars != esc.vars:
            lost, added = sorted(esc.vars - sc.vars), sorted(sc.vars - esc.vars)
            parts = []
            if lost:
                parts.append("lacks " + ", ".join("$" + v for v in lost))
            if added:
                parts.append("has unknown " + ", ".join("$" + v for v in added))
            out.append(Problem(at_key(key), f"{key!r} variables differ from English: {'; '.join(parts)}",
                               ("variables",)))
        numeric = numeric_vars(esc) | set(numeric_hint or ())
        for var, is_num, keys in sc.selects:
            if not var or not (is_num or var in numeric or any(k in PLURAL_KEYS[:5] for k in keys)):
                continue
            lacking = [c for c in cats if c not in keys]
            if lacking:
                out.append(Problem(at_key(key), f"{key!r}: the select on ${var} lacks the {lang} plural "
                                   f"categor{'y' if len(lacking) == 1 else 'ies'} "
                                   f"{', '.join('[' + c + ']' for c in lacking)} (needs {', '.join(cats)})",
                                   ("plural",)))
            foreign = [k for k in keys if k in PLURAL_KEYS and k not in cats]
            if foreign:
                out.append(Problem(at_key(key), f"{key!r}: {', '.join('[' + k + ']' for k in foreign)} is not "
                                   f"a plural category of {lang} (it has {', '.join(cats)})", ("plural",)))
        if key in sources and key in en and sources[key] != pattern_hash(en[key]):
            out.append(Problem(at_key(key), f"{key!r} is stale: English changed since it was translated "
                               f"(source {sources[key]}, English now {pattern_hash(en[key])})", ("stale",)))
    for key in sources:
        if key not in loc:
            out.append(Problem(loc_doc.source.key(("source", key)), f"source hash for {key!r}, which the file "
                               "does not translate", ("extra",)))
    return out


def program_ids(program) -> dict[str, set | None]:
    """The message ids a compiled ruleset renders (-> the variables it passes, or None)."""
    ids: dict[str, set | None] = {}
    for cid in program.card_ids:
        ids["card-" + cid] = set()
    for lid in program.loc_ids:
        ids["location-" + lid] = set()
    for aid, a in program.actions.items():
        ids["action-" + aid] = set(a.arg_names)
    for pid in program.prompts:
        ids["prompt-" + pid] = {"player"}
    for g in program.groups:
        ids["prompt-act-" + g] = {"player"}
    for ev, names in program.events_logged.items():
        ids["event-" + ev] = set(names)
    for s in program.sides:
        ids["side-" + s] = set()
    for e in program.end_defs:
        eid = getattr(e, "id", None)
        if eid:
            ids["end-" + eid] = set()
    return ids


def check_english(program, en: dict, en_doc, path: str) -> list[Problem]:
    """Warnings about English itself: ids the ruleset renders with no English text, and event
    messages using variables the ruleset's log() call does not pass."""
    out: list[Problem] = []
    engine_en = _engine_messages("en")[0]
    head = en_doc.source.key(("messages",)) if en_doc is not None else Loc(path, 1, 1)
    for mid, names in sorted(program_ids(program).items()):
        if mid not in en and mid not in engine_en:
            out.append(Problem(head, f"the ruleset renders {mid!r} but English has no text for it",
                               ("english",), "warning"))
            continue
        if mid in en and names is not None and mid.startswith(("event-", "action-")):
            msg, _ = parse_pattern(mid, en[mid])
            extra = scan(msg).vars - names
            if extra and msg is not None:
                out.append(Problem(en_doc.source.key(("messages", mid)),
                                   f"{mid!r} uses {', '.join('$' + v for v in sorted(extra))}, which the ruleset "
                                   f"does not pass (it passes {', '.join('$' + v for v in sorted(names)) or 'none'})",
                                   ("english",), "warning"))
    return out


def check_locales(ruleset_dir: Path | None, langs=LANGS, program=None, engine: bool = True) -> list[Problem]:
    """Every problem of a ruleset's locale files (and of the engine's messages), located."""
    from .errors import RulesetError
    from .validate import validate_doc
    out: list[Problem] = []
    sets = []
    if ruleset_dir is not None:
        sets.append(("ruleset", Path(ruleset_dir) / "locales"))
    if engine:
        sets.append(("engine", ENGINE_MESSAGES))
    for kind, folder in sets:
        docs = {}
        for lang in dict.fromkeys(["en", *langs]):  # the languages asked for, English always
            path = folder / f"{lang}.yaml"
            if not path.is_file():
                docs[lang] = (None, {})
                continue
            try:
                doc = load_yaml(path)
            except RulesetError as e:
                out.extend(e.problems)
                docs[lang] = (None, {})
                continue
            probs = validate_doc(doc, "locale")
            out.extend(probs)
            data = doc.data if isinstance(doc.data, dict) else {}
            msgs = data.get("messages") if isinstance(data.get("messages"), dict) else {}
            if data.get("locale") not in (None, lang) and not str(data.get("locale")).startswith(lang):
                out.append(Problem(doc.source.value(("locale",)),
                                   f"locale {data.get('locale')!r} in a file named {lang}.yaml", ("schema",)))
            docs[lang] = (doc, {str(k): v for k, v in (msgs or {}).items()})
        en_doc, en = docs["en"]
        if en_doc is None:
            out.append(Problem(Loc(str(folder / "en.yaml"), 0, 0), "no English locale file (the source language)"))
            continue
        for key, pattern in en.items():
            for line, col, note in parse_pattern(key, pattern)[1]:
                out.append(Problem(_pattern_loc(en_doc, key, line, col), f"Fluent syntax in {key!r}: {note}",
                                   ("syntax",)))
        hint = set()
        if program is not None and kind == "ruleset":
            for k in range(len(program.card_ids)):
                for name, v in program.kind_params[k].items():
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        hint.add(name)
            out.extend(check_english(program, en, en_doc, str(folder / "en.yaml")))
        for lang in langs:
            if lang == "en":
                continue
            doc, msgs = docs[lang]
            path = str(folder / f"{lang}.yaml")
            if doc is None and not (folder / f"{lang}.yaml").is_file():
                # the engine's own messages fall back to English in a language they lack
                out.append(Problem(Loc(path, 0, 0), f"no {lang} locale file", ("missing",),
                                   "warning" if kind == "engine" else "error"))
                continue
            if doc is None:
                continue
            out.extend(check_locale_set(en, en_doc, msgs, doc, lang, path, hint))
    return out
