"""Card faces for the web table, drawn by the card renderer of `grimoire render`, per language.

Pipeline position: display. A face shows only what the printed card shows (name, text, set,
copies), never where a card is, so any face may be served to anyone; a card a seat cannot
see is drawn as the common back (`hidden`).
"""

from __future__ import annotations

from functools import lru_cache

from ...render import SET_COLOURS, game_title_of
from ...render.svg import card_svg, layout

BACK = ('<svg xmlns="http://www.w3.org/2000/svg" width="250" height="350" viewBox="0 0 250 350">'
        '<rect x="2" y="2" width="246" height="346" rx="12" fill="#3b3552" stroke="#201c30" stroke-width="4"/>'
        '<rect x="22" y="22" width="206" height="306" rx="8" fill="none" stroke="#8f86b5" stroke-width="3"/>'
        '<circle cx="125" cy="175" r="40" fill="none" stroke="#8f86b5" stroke-width="3"/></svg>\n')


def card_face(room, cid: str, lang: str) -> str:
    """The SVG face of card kind `cid` in `lang` (or the back, for `hidden`)."""
    if cid == "hidden":
        return BACK
    return _face(room.game, room.text(lang), cid)


@lru_cache(maxsize=4096)
def _face(game, text, cid: str) -> str:
    prog = game.program
    k = prog.card_index[cid]
    sets = sorted(set(prog.kind_sets))
    set_id = prog.kind_sets[k]
    kind = text.msg("set-" + set_id, default=set_id.replace("_", " "))
    n = len(prog.kind_instances[k])
    copies = text.msg("render-copies", {"n": n}, default=f"×{n}")
    lay = layout(text.card_name(k), text.card_text(k), kind, text.lang)
    return card_svg(lay, copies, game_title_of(text, game), SET_COLOURS[sets.index(set_id) % len(SET_COLOURS)],
                    cid, fonts=None)
