"""The table model: what one seat sees, computed from `view(seat)` only, with every label localized.

Pipeline position: display, shared by the terminal (`interpreter/tabletop/terminal.py`) and the web server
(`interpreter/tabletop/web/`). `table_model(program, view, text)` turns the engine's view (zones keyed
`name@owner`, counters, the log entries the seat may read) and the ruleset's TableSpec into
plain JSON-ready data: board groups with boxes, each player's public status, the seat's own
private zones, the last events as sentences. It never reads a State, so it cannot show what
the seat may not know. `decision_model` adds the prompt and labelled options of the seat
that decides (its own options, which it may know).
"""

from __future__ import annotations

from .spec import KINDS, Part, table_spec


class _ViewNames:
    """Stands in for a state where Text only asks who player p is: answered from the view."""

    def __init__(self, players: list[str]):
        self.g = self
        self._players = players

    def player_id(self, _st, p) -> str:
        return "none" if p is None else self._players[p]


def label(text, msg_id: str, default: str) -> str:
    """A message without arguments (a zone's, a card's name), formatted once per Text."""
    cache = text.__dict__.setdefault("_table_labels", {})
    out = cache.get(msg_id)
    if out is None:
        out = cache[msg_id] = text.msg(msg_id, default=default)
    return out


def _event(text, names: _ViewNames, e) -> str:
    """One log entry as a sentence, rendered once per Text (every seat's page shows the last few)."""
    cache = text.__dict__.setdefault("_table_events", {})
    key = (repr(e), tuple(names._players))
    out = cache.get(key)
    if out is None:
        if len(cache) > 50_000:
            cache.clear()
        out = cache[key] = text.event(names, e)
    return out


def player_label(text, pid: str, index: int) -> str:
    """A player's name: its naming card's, or "Player N"."""
    if pid in text.prog.card_index:
        return label(text, "card-" + pid, pid)
    return text.msg("player-seat", {"n": index + 1}, default=f"Player {index + 1}")


def _card(text, cid):
    if cid is None:
        return {"id": None, "name": label(text, "hidden-card", "a face-down card")}
    return {"id": cid, "name": label(text, "card-" + cid, cid)}


def _fill(box: dict, part: Part, view: dict, text, prog, at: str | None, cards: bool = True) -> dict:
    """Read the part's zones and counters at one owner (`@at`, or global) out of the view."""
    zones, counters = view["zones"], view["counters"]

    def key(name, defs):
        d = defs[name]
        return name if d.per == "none" else f"{name}@{at}"

    if cards:
        box["zones"] = [{"id": z, "label": label(text, "zone-" + z, z),
                         "cards": [_card(text, c) for c in zones.get(key(z, prog.zone_defs), [])]}
                        for z in part.zones]
    box["sizes"] = [{"id": z, "label": label(text, "zone-" + z, z),
                     "value": len(zones.get(key(z, prog.zone_defs), []))} for z in part.sizes]
    box["counters"], box["tracks"], box["flags"] = [], [], []
    for kind in ("counters", "tracks", "flags"):
        for c in getattr(part, kind):
            k = key(c, prog.counter_defs)
            if k not in counters:
                continue  # not visible to this seat
            entry = {"id": c, "label": label(text, "counter-" + c, c) if kind != "flags" else
                     flag_label(text, c, view, part, at, prog), "value": counters[k]}
            if kind == "tracks":
                cd = prog.counter_defs[c]
                entry["min"], entry["max"] = cd.min, cd.max
            if kind != "flags" or counters[k]:
                box[kind].append(entry)
    return box


def flag_label(text, c: str, view: dict, part: Part, at: str | None, prog) -> str:
    """A flag's label, told the values of the box's other visible counters (so a locale can say
    which of two things a raised flag means: `{ $other_flag -> [yes] ... *[other] ... }`; a flag
    is told as "yes" or "no", a counter as its number)."""
    counters = view["counters"]
    args = {}
    for name in part.counters + part.tracks + part.flags:
        d = prog.counter_defs[name]
        k = name if d.per == "none" else f"{name}@{at}"
        if k in counters:
            args[name] = ("yes" if counters[k] else "no") if name in part.flags else counters[k]
    cache = text.__dict__.setdefault("_table_flags", {})
    key = (c, tuple(sorted(args.items())))
    out = cache.get(key)
    if out is None:
        out = cache[key] = text.msg("counter-" + c, args, default=c)
    return out


def _merged(a: Part, b: Part) -> Part:
    return Part(**{k: getattr(a, k) + [x for x in getattr(b, k) if x not in getattr(a, k)] for k in KINDS})


def table_model(program, view: dict, text, events: int | None = None) -> dict:
    """Everything one seat sees, as localized plain data (from its view alone); `events`: how many
    of the last events (default: the ruleset's `log`, what a terminal screen holds)."""
    spec = table_spec(program)
    events = spec.log if events is None else events
    pids = view["players"]
    you = view.get("you")
    seat = pids.index(you) if you in pids else None
    labels = {pid: player_label(text, pid, i) for i, pid in enumerate(pids)}
    board = []
    for g in spec.board:
        group = {"id": g.id, "label": label(text, "table-" + g.id, g.id.replace("_", " ")), "boxes": []}
        for lid in g.locations or [None]:
            box = {"location": lid,
                   "label": label(text, "location-" + lid, lid) if lid else group["label"],
                   "here": [labels[p] for p in pids if lid is not None and view["at"].get(p) == lid]}
            extra = g.extra.get(lid)
            group["boxes"].append(_fill(box, _merged(g, extra) if extra else g, view, text, program, lid))
        board.append(group)
    players = []
    for i, pid in enumerate(pids):
        at = view["at"].get(pid)
        entry = {"id": pid, "label": labels[pid], "you": i == seat, "current": pid == view.get("current"),
                 "deciding": pid == view.get("waiting_for"),
                 "at": at if spec.players.location else None,
                 "at_label": label(text, "location-" + at, at) if at and spec.players.location else None}
        players.append(_fill(entry, spec.players, view, text, program, pid))
    private = None
    if seat is not None:
        private = _fill({"label": labels[you]}, spec.private, view, text, program, you)
    names = _ViewNames(pids)
    entries = view["log"]
    log = [_event(text, names, e) for e in (entries[-events:] if events else [])]  # only what is shown
    out = {"lang": text.lang, "title": program.rs.title, "turn": view["turn"], "you": you,
           "you_label": labels.get(you), "current": view.get("current"),
           "current_label": labels.get(view.get("current")), "waiting_for": view.get("waiting_for"),
           "waiting_label": labels.get(view.get("waiting_for")),
           "board": board, "players": players, "private": private,
           "log": log, "log_total": len(entries), "over": bool(view["over"]),
           "result": result_text(text, view, labels) if view["over"] else None,
           "labels": {k: label(text, "table-ui-" + k, k) for k in UI_LABELS}}
    return out


UI_LABELS = ("board", "players", "you", "hand", "events", "options", "turn", "waiting", "spectator",
             "over", "here", "cards", "since", "keys")


def result_text(text, view: dict, labels: dict) -> str:
    """The end of the game in one sentence: why, and who won."""
    res = view.get("result") or {}
    sides = ", ".join(text.msg("side-" + s, default=s) for s in res.get("sides", [])) or text.msg(
        "nobody", default="nobody")
    pids = view["players"]
    who = ", ".join(labels[pids[w]] for w in res.get("winners", []))
    winners = text.msg("winners", {"sides": sides}, default="winners: " + sides) + (f" ({who})" if who else "")
    reason = text.end_reason(res.get("reason", ""))  # its numbers from the ruleset's params
    return f"{reason} — {winners}"


def decision_model(st, p: int, text) -> dict | None:
    """The prompt and the labelled options of seat p, if p decides now (else None), and the
    plan of a question asked again and again (see `plan_of`)."""
    if st.pending is None or st.pending["p"] != p:
        return None
    opts = st.options()
    out = {"prompt": text.prompt(st, st.pending), "options": [{"id": o.id, "label": text.option(st, o)} for o in opts]}
    plan = plan_of(st, opts, text)
    if plan:
        out["plan"] = plan
    return out


def waiting_prompt(st, p: int | None, text) -> str | None:
    """The question the table waits on, for a seat that is not asked it (the prompt is public:
    the leak check compares it in every world); None when p decides or nobody does."""
    if st.pending is None or st.pending["p"] == p:
        return None
    return text.prompt(st, st.pending)


def plan_of(st, opts, text) -> dict | None:
    """One dialog for a run of the same two-argument action (a hand-out: which card to whom).

    When every option is one action `a:x,y` and the options are every pair of some xs and
    some ys, the seat may write down several steps `x -> y` at once (one row per x to begin
    with; rows may be added, for copies of a card); the table then takes them in turn while
    the same question is asked again, and asks again at the first that is not an option
    (web/room.py `choose_plan`). Built from the seat's own options only."""
    if len(opts) < 2 or any(not o.label.startswith("action-") for o in opts):
        return None
    aids = {o.value[0] for o in opts}
    if len(aids) != 1 or any(len(o.value[1]) != 2 for o in opts):
        return None
    aid = next(iter(aids))
    a = st.g.prog.actions[aid]
    xs, ys = {}, {}
    for o in opts:
        ix, iy = o.id.split(":", 1)[1].split(",")
        (x, y), (tx, ty) = o.value[1], a.arg_types[:2]
        xs.setdefault(ix, str(text.value(st, x, tx, record=False)))
        ys.setdefault(iy, str(text.value(st, y, ty, record=False)))
    if len(opts) != len(xs) * len(ys):
        return None
    return {"action": aid, "rows": [{"id": k, "label": v} for k, v in xs.items()],
            "choices": [{"id": k, "label": v} for k, v in ys.items()]}
