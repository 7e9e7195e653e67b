"""`grimoire render RULESET --lang L --out DIR`: a printable card sheet (`index.html`) and one SVG
per card (`cards/ID.svg`), in one language.

Pipeline position: over a loaded game and `interpreter.i18n.Text`; writes files only."""

from __future__ import annotations

import shutil
from pathlib import Path

from .svg import card_svg

SET_COLOURS = ["#7a1f1f", "#1f3f7a", "#2f6a2f", "#6a4f1f", "#4f2f6a", "#1f6a66", "#555555", "#8a5a00"]


def render_cards(root: Path, lang: str, out: Path, variants=()) -> tuple[dict, list[str], list[str]]:
    """Write index.html, cards/*.svg and the fonts they use; return ({card id: (name, text)},
    the message ids the language lacks, the cards that do not fit even at the smallest size)."""
    from ..files import write_atomic
    from ..game import load
    from ..i18n import Text
    from .measure import font_dir
    from .sheet import sheet_html
    from .svg import layout
    game = load(root, list(variants))
    prog = game.program
    text = Text(prog, lang)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cards").mkdir(exist_ok=True)
    (out / "fonts").mkdir(exist_ok=True)
    for name in ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"):      # DejaVu fonts: free to copy
        shutil.copyfile(font_dir() / name, out / "fonts" / name)
    sets = sorted(set(prog.kind_sets))
    counts = [len(x) for x in prog.kind_instances]
    game_title = game_title_of(text, game)
    rendered, inline, tight = {}, [], []
    for k, cid in enumerate(prog.card_ids):
        name, body = text.card_name(k), text.card_text(k)
        set_id = prog.kind_sets[k]
        kind = text.msg("set-" + set_id, default=set_id.replace("_", " "))
        copies = text.msg("render-copies", {"n": counts[k]}, default=f"×{counts[k]}")
        colour = SET_COLOURS[sets.index(set_id) % len(SET_COLOURS)]
        lay = layout(name, body, kind, lang)
        if not lay.fits:
            tight.append(cid)
        write_atomic(out / "cards" / f"{cid}.svg", card_svg(lay, copies, game_title, colour, cid))
        inline.append(card_svg(lay, copies, game_title, colour, cid, fonts=None))
        rendered[cid] = (name, body)
    title = text.msg("render-title", {"ruleset": game_title}, default=game_title)
    write_atomic(out / "index.html", sheet_html(lang, title, inline))
    return rendered, sorted(text.missing | text.fallbacks), tight


def game_title_of(text, game) -> str:
    """The game's own title in the language (`title` in its locale), else the ruleset's."""
    return text.msg("title", default=game.ruleset.title) if text.has("title") else game.ruleset.title
