"""The rules text of everything a seat sees at the table: cards, locations, counters, zones, actions.

Pipeline position: display, after the table model (`board.table_model`). Every entry is printed
text of the ruleset's locale (what the box and the rulebook say), looked up by the ids the
model already holds, so it tells the seat nothing the model did not: a card's text for a card
the seat sees (`card-ID-text`), a location's (`location-ID-text`), a counter's or flag's
(`counter-ID-text`), a zone's (`zone-ID-text`), an action the seat may take (`action-ID-text`).
Keys are `kind:id` ("card:ID", "location:ID", "counter:ID"); an item without text has "".
"""

from __future__ import annotations


def _walk_cards(x, out: set) -> None:
    if isinstance(x, dict):
        if set(x) == {"id", "name"}:
            if x["id"]:
                out.add(x["id"])
            return
        for y in x.values():
            _walk_cards(y, out)
    elif isinstance(x, list):
        for y in x:
            _walk_cards(y, out)


def _box_items(box: dict, out: list) -> None:
    for kind, key in (("counters", "counter"), ("tracks", "counter"), ("flags", "counter"),
                      ("zones", "zone"), ("sizes", "zone")):
        for c in box.get(kind) or []:
            out.append((key, c["id"], c["label"]))


def entry(text, kind: str, ident: str, name: str) -> dict:
    """One item's name and rules text, in the Text's language (cached per Text)."""
    cache = text.__dict__.setdefault("_table_rules", {})
    key = (kind, ident, name)
    out = cache.get(key)
    if out is None:
        prog = text.prog
        if kind == "card":
            body = text.card_text(prog.card_index[ident]) if ident in prog.card_index else ""
        else:
            mid = f"{kind}-{ident}-text"
            body = text.msg(mid, text.rule_params, default="") if text.has(mid) else ""
        out = cache[key] = {"name": name, "text": body}
    return out


def rules_of(text, model: dict, decision: dict | None = None) -> dict:
    """Every item of the model (and of the seat's options) with its rules text, by `kind:id`."""
    prog = text.prog
    items: list[tuple[str, str, str]] = []
    for g in model["board"]:
        for b in g["boxes"]:
            if b.get("location"):
                items.append(("location", b["location"], b["label"]))
            _box_items(b, items)
    for p in model["players"]:
        if p["id"] in prog.card_index:  # a player named by a card (a character): its text
            items.append(("card", p["id"], p["label"]))
        if p.get("at"):
            items.append(("location", p["at"], p["at_label"]))
        _box_items(p, items)
    if model.get("private"):
        _box_items(model["private"], items)
    cards: set = set()
    _walk_cards([model["board"], model["players"], model.get("private")], cards)
    for cid in sorted(cards):
        items.append(("card", cid, text.msg("card-" + cid, default=cid)))
    for o in (decision or {}).get("options") or []:
        aid = o["id"].split(":", 1)[0]
        if aid in prog.actions:
            items.append(("action", aid, o["label"]))
    out: dict = {}
    for kind, ident, name in items:
        k = f"{kind}:{ident}"
        if k not in out:
            out[k] = entry(text, kind, ident, name)
    return out
