"""Answers a seat gives by itself: a lone Pass (the formality of a window that asks everyone).

Pipeline position: display, beside the table model; used by both clients (`grimoire play`
and `grimoire serve`) and by `benchmarks/bench_table_prompts.py`. A window with `ask_all`
asks every seat in turn, so that whether a seat is asked tells nobody about its hand; a seat
that may only pass is still asked, and its client answers for it. The answer is the same
decision a click on Pass would be (same id, same log entry, same messages to every seat):
only the seat that decides knows it did not click.
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
