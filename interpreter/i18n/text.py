"""Rendering a game's text in one language: message ids, decision options, prompts and log events.

Pipeline position: beside the engine; reads a compiled Program and events from a state's log,
never the state's hidden parts."""

from __future__ import annotations

from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource

from ..variants.texts import variant_messages
from .fluent import _babel_locale, parse_pattern, scan, selector_vars, to_ftl
from .gender import GENDER_SUFFIX
from .locales import _engine_messages, locale_forms, locale_genders, locale_messages

QUOTES = (("«", "»"), ("„", "”"), ("“", "”"), ('"', '"'), ("‘", "’"), ("‚", "’"))


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
        self._genders: dict[str, str] = {}
        self._forms: dict[str, dict[str, str]] = {}
        for code in ([lang, "en"] if lang != "en" else ["en"]):
            b = FluentBundle([_babel_locale(code)], use_isolating=False)
            eng, _, eng_doc = _engine_messages(code)
            eng = {k: v for k, v in eng.items() if not k.startswith("problem-")}  # the checks' words, not the game's
            b.add_resource(FluentResource(to_ftl(eng)))
            msgs, _, doc = locale_messages(root, code)
            msgs = {**msgs, **variant_messages(program, code)}  # a variant's own text wins
            if code == lang:
                self._genders = {**locale_genders(eng_doc), **locale_genders(doc)}
                self._forms = {**locale_forms(eng_doc), **locale_forms(doc)}
                forms = {f"{mid}--{f}": pat for mid, fs in self._forms.items() for f, pat in fs.items()}
                b.add_resource(FluentResource(to_ftl(forms)), allow_overrides=True)
            b.add_resource(FluentResource(to_ftl(msgs)), allow_overrides=True)
            self.bundles.append((code, b))
            self._sources[code] = {**eng, **msgs}
        self._selectors: dict[str, set] = {}
        self._form_names = sorted({f for fs in self._forms.values() for f in fs})
        # a ruleset's numbers ($limit, ...), so no text writes in a number a variant can change
        self.rule_params = {k: (v if isinstance(v, int) else v[1]) for k, v in program.params.items()
                            if isinstance(v, int) or (isinstance(v, tuple) and isinstance(v[1], int))}
        self._hidden = self.msg("hidden-card", default="a face-down card")
        self.missing.discard("hidden-card")

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
                return self._unquote_hidden(text)
        self.missing.add(msg_id)
        return default if default is not None else msg_id

    def _unquote_hidden(self, text: str) -> str:
        """A face-down card is no title: drop the quotation marks a message puts around card names."""
        hidden = getattr(self, "_hidden", None)
        if hidden and hidden in text:
            for o, c in QUOTES:
                text = text.replace(o + hidden + c, hidden)
        return text

    def end_reason(self, reason: str) -> str:
        """The text of an end condition (its numbers from the ruleset's params), no final stop."""
        return self.msg("end-" + reason, dict(self.rule_params), default=reason).rstrip(".")

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

    def naming_id(self, st, v, t: str) -> str | None:
        """The message id that names a player, card, kind or location value (None: no name)."""
        if t == "player":
            from ..engine.decisions import player_id
            if v is None:
                return "nobody"
            pid = player_id(st, v)
            return "card-" + pid if pid in self.prog.card_index else "player-seat"
        if t == "card":
            if v is None:
                return "hidden-card"
            return "card-" + self.prog.card_ids[self.prog.card_def[v]] if v < len(self.prog.card_def) else None
        if t == "kind":
            return "card-" + self.prog.card_ids[v]
        if t == "loc":
            return "location-" + self.prog.loc_ids[v]
        return None

    def gender(self, st, v, t: str) -> str:
        """The grammatical gender, in this language, of what a value names: the locale's
        `genders:` entry for its name, else the card's `gender` in the ruleset, else `other`."""
        mid = self.naming_id(st, v, t)
        if mid is None:
            return "other"
        if mid in self._genders:
            return self._genders[mid]
        if mid.startswith("card-"):
            item = self.prog.rs.cards.get(mid[5:])
            g = item.get("gender") if item is not None else None
            if g:
                return str(g)
        return "other"

    def _with_grammar(self, st, vals: dict, named) -> dict:
        """Add $NAME_gender beside every player, card or location argument $NAME, and
        $NAME_FORM for every grammatical form (case) the language's `forms:` define."""
        for name, v, t in named:
            if t not in ("player", "card", "kind", "loc"):
                continue
            vals[name + GENDER_SUFFIX] = self.gender(st, v, t)
            if not self._form_names:
                continue
            mid = self.naming_id(st, v, t)
            own = self._forms.get(mid or "", {})
            args = {"n": v + 1} if mid == "player-seat" else {}
            for form in self._form_names:
                if form in own:
                    vals[name + "_" + form] = self.msg(f"{mid}--{form}", args)
                elif name in vals:
                    vals[name + "_" + form] = vals[name]      # no such form: the plain name
        return vals

    def player(self, st, p) -> str:
        from ..engine.decisions import player_id
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
        return self.msg(mid, {**self.rule_params, **self.card_params(kind)}, default="")

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
                    return self.msg(prefix + v, dict(self.rule_params))
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
            vals = {**self.rule_params, **{n: self.value(st, v, t) for n, v, t in zip(a.arg_names, args, a.arg_types)}}
            self._with_grammar(st, vals, zip(a.arg_names, args, a.arg_types))
            return self.msg(opt.label, vals, default=aid)
        t = opt.args[0] if opt.args else "str"
        if t == "str":
            return self.msg("option-" + opt.id, default=opt.id)
        return str(self.value(st, opt.value, t))

    def prompt(self, st, pend) -> str:
        pid = pend.get("prompt") or ("act-" + pend["g"] if pend["k"] == "act" else "choose")
        who = self.player(st, pend["p"])
        args = self._with_grammar(st, {**self.rule_params, "player": who}, [("player", pend["p"], "player")])
        if not self.has("prompt-" + pid):
            # a prompt the ruleset gave no text: the engine's generic question, still localized
            # (`grimoire i18n check` warns about it)
            generic = "prompt-act" if pid.startswith("act-") else "prompt-choose"
            self.generic.add("prompt-" + pid)
            return self.msg(generic, args, default=pid.replace("_", " "))
        return self.msg("prompt-" + pid, args, default=pid.replace("_", " "))

    def event(self, st, e) -> str:
        """One log event as a sentence."""
        ev, args, types, _mask = e[0], e[1], e[2], e[3]
        names = e[4] if len(e) > 4 else []
        mid = "event-" + ev
        used, raw = self._scan(mid)
        vals: dict = dict(self.rule_params)
        named = []
        for i, v in enumerate(args):
            t = types[i] if i < len(types) else "any"
            name = names[i] if i < len(names) else f"arg{i + 1}"
            named.append((name, v, t))
            # a variable the message selects on by string key gets the raw string (`[left]`)
            record = name in used and ev not in ("act", "chose", "game_over")
            vals[name] = v if name in raw and isinstance(v, str) else self.value(st, v, t, record)
        if ev == "act":
            aid = args[1]
            a = self.prog.actions.get(aid)
            if a is not None:
                avals = {**self.rule_params,
                         **{n: self.value(st, v, t) for n, v, t in zip(a.arg_names, args[2:], a.arg_types)}}
                self._with_grammar(st, avals, zip(a.arg_names, args[2:], a.arg_types))
                vals["action"] = self.msg("action-" + aid, avals, default=aid)
        self._with_grammar(st, vals, named)
        if ev == "game_over":
            vals["reason"] = self.end_reason(args[0])
            vals["sides"] = ", ".join(self.msg("side-" + s, default=s) for s in args[1]) or self.msg(
                "nobody", default="nobody")
        if ev == "chose":
            vals["prompt"] = self.msg("prompt-" + str(args[2]), {**self.rule_params, "player": vals.get("player", ""),
                                      "player" + GENDER_SUFFIX: vals.get("player" + GENDER_SUFFIX, "other")},
                                      default=str(args[2]))
        return self.msg(mid, vals, default=ev + " " + " ".join(str(x) for x in vals.values()))
