"""Locale texts that cannot be what the author meant: a card's text naming a number the card
does not have (it would be blamed on the translations at run time), a term no locale can
define, an event the rules log with no English text.

Pipeline position: beside the locale checks of `validate`, after the ruleset compiled: it
compares each locale's messages with what the compiled rules pass them, and reports each
mistake in the file to edit (the locale, or the rule's `log` call). As
docs/translators.md says, an event with no English text, or one naming a variable its log
call does not pass, is a warning (an error with `validate --strict`); the rest are errors.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Problem
from ..program.lint import log_calls
from ..variants.texts import overlays
from . import LANGS, locale_messages, parse_pattern, scan


def locale_problems(prog, root: str | Path) -> list[Problem]:
    """Every mismatch of a ruleset's locale files (under `root`) with its compiled rules."""
    root = Path(root)
    out: list[Problem] = []
    supplied: dict[str, tuple[set, str]] = {}
    for k, cid in enumerate(prog.card_ids):
        supplied["card-" + cid + "-text"] = (set(prog.kind_params[k]), f"card {cid!r} has params")
    for aid, a in prog.actions.items():
        supplied["action-" + aid] = (set(a.arg_names), f"action {aid!r} has args")
    for ev, names in prog.events_logged.items():
        supplied["event-" + ev] = (set(names), f"log({ev}, ...) passes")
    for lang in LANGS:
        msgs, _, doc = locale_messages(root, lang)
        if doc is None:
            continue
        if lang == "en":
            given = overlays(prog.rs).get("en", {})  # a variant's own text for what it adds
            base_files = {str(d.path) for d in prog.rs.docs}
            for ev, loc in log_calls(prog):
                if "event-" + ev not in msgs and "event-" + ev not in given:
                    where = "locales/en.yaml" if str(loc.file) in base_files else \
                        "the variant's locales: en: (or to locales/en.yaml)"
                    out.append(Problem(loc, f"event {ev!r} has no text: add 'event-{ev}' to "
                                            f"{where} (the log would show its id)",
                                       severity="warning"))
        for key, pattern in msgs.items():
            msg, _ = parse_pattern(key, pattern)
            if msg is None:
                continue  # a Fluent syntax error: reported by the locale check
            at = doc.source.key(("messages", key))
            for term in sorted(_term_refs(msg)):
                out.append(Problem(at, f"{key!r} uses the term -{term}, but a locale file defines no "
                                       f"terms (write the words themselves, or pass a $variable)"))
            if key in supplied:
                names, who = supplied[key]
                # every message is also given the ruleset's params, and with each name it is given
                # that name's grammatical forms and gender ($t_acc, $t_gender: interpreter/i18n)
                extra = {v for v in scan(msg).vars - names
                         if v not in prog.params and v.rsplit("_", 1)[0] not in names}
                if extra:
                    has = ", ".join("$" + v for v in sorted(names)) or "nothing"
                    # an event's text naming what the log call does not pass is a warning
                    # (docs/translators.md); a card's or an action's is an error
                    out.append(Problem(at, f"{key!r} uses {', '.join('$' + v for v in sorted(extra))}, "
                                           f"but {who} {has}",
                                       severity="warning" if key.startswith("event-") else "error"))
    return out


def _term_refs(msg) -> set:
    from fluent.syntax.visitor import Visitor

    class _Terms(Visitor):
        def __init__(self):
            super().__init__()
            self.ids: set = set()

        def visit_TermReference(self, node):
            self.ids.add(node.id.name)
            self.generic_visit(node)

    v = _Terms()
    v.visit(msg)
    return v.ids
