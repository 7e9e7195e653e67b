"""Answers a seat gives by itself: a lone Pass (the formality of a window that asks everyone),
and, when the seat lets it, its only option (a question the seat has no choice in).

Pipeline position: display, beside the table model; used by both clients (`grimoire play`
and `grimoire serve`) and by `benchmarks/bench_table_prompts.py`. A window with `ask_all`
asks every seat in turn, so that whether a seat is asked tells nobody about its hand; a seat
that may only pass is still asked, and its client answers for it. The answer is the same
decision a click would be (same id, same log entry, same messages to every seat): only the
seat that decides knows it did not click. The rule is public and the same for every seat
(one option: it is taken), so being answered says nothing a click on it would not.
"""

from __future__ import annotations

from ..runtime.options import PASS


def lone_pass(st, p: int | None) -> str | None:
    """The option id a seat answers by itself now: "pass" when seat p decides and Pass is its only option."""
    if p is None or st.pending is None or st.pending["p"] != p:
        return None
    opts = st.options()
    if len(opts) == 1 and opts[0].id == PASS.id and opts[0].value is None:
        return PASS.id
    return None


def only_option(st, p: int | None) -> str | None:
    """The id of seat p's one option when it decides and has exactly one that is not Pass."""
    if p is None or st.pending is None or st.pending["p"] != p:
        return None
    opts = st.options()
    if len(opts) == 1 and not (opts[0].id == PASS.id and opts[0].value is None):
        return opts[0].id
    return None


def auto_answer(st, p: int | None, autopass: bool = True, autoone: bool = False) -> str | None:
    """What seat p answers by itself now, by its two settings (None: it is asked)."""
    return (autopass and lone_pass(st, p)) or (autoone and only_option(st, p)) or None


def same_question(a, b) -> bool:
    """Do two pending decisions ask the same question (same seat, kind, prompt and group)?"""
    return (a is not None and b is not None and a["p"] == b["p"] and a["k"] == b["k"]
            and a.get("prompt") == b.get("prompt") and a.get("g") == b.get("g"))
