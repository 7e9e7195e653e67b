"""The terminal table: one screen of 100x40 drawn with rich from the seat's table model.

Pipeline position: display, used by `grimoire play` for human seats. `render(model, decision)`
lays out the board, the seat's own cards and status, the other players' public status, the
last events and the numbered options; `screen_lines` gives the text of one screen (tests and
screenshots read it). Everything shown comes from `tabletop.table_model` (the seat's view)
and `tabletop.decision_model` (its own options), so the terminal shows what the web shows,
in the same words, in every language.
"""

from __future__ import annotations

import io
import sys

from rich.columns import Columns
from rich.console import Console, Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text as RText

from . import decision_model, table_model
from .history import add_history

WIDTH, HEIGHT = 100, 40


def at_hand(raw: str, st, p: int, text, model: dict, decision: dict | None, console: Console) -> bool:
    """Answer `?`/`help` (the rules of what the seat sees), `h` (the whole history) or `n` (notes)."""
    from .terminal_help import answer
    return answer(raw, st, p, text, model, decision, console)


def _cards(cards) -> str:
    """Card names, copies of one card written once with their number ("Fight 1 ×3")."""
    counts: dict[str, int] = {}
    for c in cards:
        name = c["name"] if c["id"] else "?"  # a face-down card (its sentence form reads oddly alone)
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(n if k == 1 else f"{n} ×{k}" for n, k in counts.items()) or "—"


def _track(t) -> str:
    """A track as its number first ("Life 4/6 ■■■■□□"): a bar alone does not read as a number."""
    lo, hi, v = t["min"], t["max"], t["value"]
    if hi - lo > 12 or not lo <= v <= hi:
        return f"{t['label']} {v} ({lo}…{hi})"
    if lo == 0:  # a quantity: how many of how many
        return f"{t['label']} {v}/{hi} {'■' * v}{'□' * (hi - v)}"
    return f"{t['label']} {v} ({lo}…{hi}) {'·' * (v - lo)}●{'·' * (hi - v)}"  # a position between two ends


def _box_line(box: dict, label: str | None = None) -> RText:
    """One box (a location, a player, the seat) as one line of styled text."""
    out = RText()
    if label:
        out.append(label, style="bold")
        out.append("  ")
    bits: list[tuple[str, str]] = []
    bits += [(f"{c['label']} {c['value']}", "cyan") for c in box.get("counters", [])]
    bits += [(_track(t), "cyan") for t in box.get("tracks", [])]
    bits += [(f"{f['label']}", "bold red") for f in box.get("flags", [])]
    bits += [(f"{z['label']}: {_cards(z['cards'])}", "") for z in box.get("zones", []) if z["cards"]]
    bits += [(f"{s['label']} {s['value']}", "dim") for s in box.get("sizes", [])]
    for i, (s, style) in enumerate(bits):
        if i:
            out.append(" · ", style="dim")
        out.append(s, style=style)
    return out


def _board(model: dict) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(overflow="fold", max_width=WIDTH)
    for g in model["board"]:
        for box in g["boxes"]:
            line = _box_line(box, box["label"])
            if box["here"]:
                line.append(f"  ({', '.join(box['here'])})", style="green")
            grid.add_row(line)
    return grid


def _players(model: dict) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(overflow="fold", max_width=WIDTH)
    for p in model["players"]:
        mark = "▶ " if p["deciding"] else "  "
        name = p["label"] + (f" ({model['labels']['you']})" if p["you"] else "")
        line = RText(mark, style="yellow")
        line.append_text(_box_line(p, name))
        if p.get("at_label"):
            line.append(f"  @ {p['at_label']}", style="green")
        grid.add_row(line)
    return grid


def _private(model: dict) -> RText:
    priv = model["private"] or {}
    out = RText()
    for i, z in enumerate(priv.get("zones", [])):
        if i and not z["cards"]:
            continue  # an empty pile beside the hand says nothing
        if out:
            out.append("\n")
        out.append(f"{z['label']}: ", style="bold")
        out.append(_cards(z["cards"]))
    rest = _box_line({k: priv.get(k, []) for k in ("counters", "tracks", "flags")})
    if rest:
        out.append("\n")
        out.append_text(rest)
    return out


def _options(decision: dict) -> Columns:
    items = [RText.assemble((f"{i:2d}. ", "bold yellow"), o["label"])
             for i, o in enumerate(decision["options"], 1)]
    return Columns(items, padding=(0, 2), column_first=True)


def _rule(title: str, style: str = "bold") -> Rule:
    return Rule(RText(title, style=style), align="left", style="dim")


def render(model: dict, decision: dict | None, events: int | None = None) -> Group:
    """The whole screen for one seat: board, players, own cards, events, options."""
    lab = model["labels"]
    head = RText.assemble((model["title"], "bold"), f" · {lab['turn']} {model['turn']} · ",
                          ((model["you_label"] or lab["spectator"]), "bold green"))
    if model["over"]:
        head.append(f" · {lab['over']}: {model['result']}", style="bold red")
    elif model["waiting_label"] and not decision:
        head.append(f" · {lab['waiting']} {model['waiting_label']}")
    log = model["log"] if events is None else model["log"][-events:] if events else []
    parts = [head, _rule(lab["board"]), _board(model), _rule(lab["players"]), _players(model)]
    if model["private"] is not None:
        parts += [_rule(lab["hand"]), _private(model)]
    if log:
        parts += [_rule(lab["events"])]
        first = model["log_total"] - len(log)  # the index of the first event shown
        since = model.get("since") or 0
        for i, x in enumerate(log):
            if since and first + i == since and i:  # what happened since this seat last decided
                parts.append(RText(f"  — {lab['since']} —", style="dim yellow"))
            parts.append(RText(x))
    if decision:
        parts += [_rule(decision["prompt"], "bold yellow"), _options(decision), RText(lab["keys"], style="dim")]
    return Group(*parts)


def _lines(model: dict, decision: dict | None, width: int, events: int) -> list[str]:
    con = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    con.print(render(model, decision, events))
    return con.file.getvalue().rstrip("\n").split("\n")


def fit_events(model: dict, decision: dict | None, width: int = WIDTH, height: int = HEIGHT) -> int:
    """How many of the last events fit on a screen of width x height."""
    n = len(model["log"])
    while n > 0 and len(_lines(model, decision, width, n)) > height:
        n -= 1
    return n


def screen_lines(model: dict, decision: dict | None, width: int = WIDTH, height: int = HEIGHT) -> list[str]:
    """The screen as plain text lines, with fewer events when it would not fit the height."""
    return _lines(model, decision, width, fit_events(model, decision, width, height))


def seat_screen(st, p: int, text) -> tuple[dict, dict | None]:
    """The table model and the decision of seat p (p decides, or watches)."""
    view = st.view(p)
    model = add_history(table_model(st.g.prog, view, text), view, text, st.g.prog)
    return model, decision_model(st, p, text)


def ask(st, p: int, text, quit_exc: type[Exception], console: Console | None = None) -> str:
    """Draw seat p's table and read its choice: a number, an option id, or q to save and quit."""
    console = console or Console(width=min(WIDTH, Console().width))
    model, decision = seat_screen(st, p, text)
    height = HEIGHT
    if console.is_terminal:
        console.clear()
        height = min(HEIGHT, console.height - 1)  # (a line is left for the answer)
    console.print(render(model, decision, fit_events(model, decision, console.width, height)))
    opts = decision["options"]
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise quit_exc() from None
        if raw in ("q", "quit", "save"):
            raise quit_exc()
        if raw.isdigit() and 1 <= int(raw) <= len(opts):
            return opts[int(raw) - 1]["id"]
        if any(o["id"] == raw for o in opts):
            return raw
        if at_hand(raw, st, p, text, model, decision, console):  # rules, history, notes: then ask again
            continue
        starts = [o["id"] for o in opts if raw and o["id"].startswith(raw)]
        if len(starts) == 1:  # for people, a unique prefix will do (the API takes exact ids)
            return starts[0]
        print(text.msg("cli-ask-number", {"n": len(opts)}), file=sys.stdout)
