"""Rendering a game's text in one language: message ids, decision options, prompts and log events.

Pipeline position: beside the engine; reads a compiled Program and events from a state's log,
never the state's hidden parts."""

from __future__ import annotations

from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource

from .fluent import _babel_locale, parse_pattern, scan, selector_vars, to_ftl
from .locales import _engine_messages, locale_messages


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
