"""`grimoire render RULESET --lang L --out DIR`: a printable card sheet (`index.html`) and one SVG
per card (`cards/ID.svg`), in one language.

Pipeline position: over a loaded game and `interpreter.i18n.Text`; writes files only."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from ..i18n.commands import _ruleset_dir, _ui, cli_text
from .svg import card_svg

SET_COLOURS = ["#7a1f1f", "#1f3f7a", "#2f6a2f", "#6a4f1f", "#4f2f6a", "#1f6a66", "#555555", "#8a5a00"]


def render_cards(root: Path, lang: str, out: Path, variants=(), ui: str = "en") -> dict:
    """Write index.html, cards/*.svg and the fonts they use; return {card id: (name, text)}."""
    from ..cli import write_atomic
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
    if text.missing or text.fallbacks:
        missing = sorted(text.missing | text.fallbacks)
        ids = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        print(cli_text(ui, "cli-render-missing", {"n": len(missing), "lang": lang, "ids": ids}), file=sys.stderr)
    if tight:
        print(cli_text(ui, "cli-render-tight", {"n": len(tight), "ids": ", ".join(tight[:8])}), file=sys.stderr)
    return rendered


def game_title_of(text, game) -> str:
    """The game's own title in the language (`title` in its locale), else the ruleset's."""
    return text.msg("title", default=game.ruleset.title) if text.has("title") else game.ruleset.title


def cmd_render(args) -> int:
    root = _ruleset_dir(args.ruleset)
    rendered = render_cards(root, args.lang, Path(args.out), args.variant, _ui(args))
    print(cli_text(_ui(args), "cli-rendered", {"page": str(Path(args.out) / "index.html"), "n": len(rendered),
                                               "dir": str(Path(args.out) / "cards")}))
    return 0


