"""What a terminal seat may ask for between two decisions: the rules, the whole history, its notes.

Pipeline position: display, beside `tui.py` (which asks `answer` before reading a choice).
`?` or `help` prints the rules text of everything on the seat's table and of its options
(`? WORD`: only the items whose name holds WORD); `h` or `history` prints every event the seat
may read, with a line where it last decided; `n` or `notes` prints what it has learned of the
others. All of it comes from the seat's table model and view (`tabletop.rules`, `tabletop.history`).
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text as RText

from . import rules_of
from .history import history

RULES, HISTORY, NOTES = ("?", "help"), ("h", "history"), ("n", "notes")


def answer(raw: str, st, p: int, text, model: dict, decision: dict | None, console: Console) -> bool:
    word, _, rest = raw.partition(" ")
    if word in RULES:
        print_rules(console, text, model, decision, rest.strip())
    elif raw in HISTORY:
        print_history(console, st.view(p), text, model["labels"]["since"])
    elif raw in NOTES:
        print_notes(console, model, text)
    else:
        return False
    return True


def print_rules(console: Console, text, model: dict, decision: dict | None, word: str = "") -> None:
    entries = rules_of(text, model, decision)
    shown = [r for r in entries.values() if not word or word.casefold() in r["name"].casefold()]
    if not shown:
        console.print(text.msg("cli-table-nothing", {"word": word}))
    seen = set()
    for r in shown:
        if (r["name"], r["text"]) in seen:
            continue
        seen.add((r["name"], r["text"]))
        line = RText(r["name"], style="bold")
        if r["text"]:
            line.append(": " + r["text"].replace("\n", " "))
        console.print(line)


def print_history(console: Console, view: dict, text, since_label: str) -> None:
    h = history(view, text)
    for i, line in enumerate(h["log"]):
        if h["since"] and i == h["since"] and i:
            console.print(RText(f"  — {since_label} —", style="dim yellow"))
        console.print(f"{i + 1:4d}. {line}")


def print_notes(console: Console, model: dict, text) -> None:
    if not model.get("notes"):
        console.print(text.msg("cli-table-no-notes"))
    for n in model.get("notes") or []:
        console.print(RText(n["label"], style="bold"))
        for z in n["zones"]:
            console.print(f"  {z['label']}: " + ", ".join(c["name"] for c in z["cards"]))
        for line in n["log"]:
            console.print(f"  · {line}")
