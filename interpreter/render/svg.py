"""One card as SVG: a coloured title band, the card's kind, its text measured and wrapped to
fit, and a footer with the game's title and the number of copies.

Pipeline position: `interpreter.render` lays out each card with `measure` and writes this
markup twice: as `cards/ID.svg` (with its own @font-face) and inline in the printable sheet.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from .measure import fit, text_width, tie, widest, wrap

# 63 x 88 mm, the poker-card size the sheet prints, in CSS px (96 per inch)
CARD_W, CARD_H = 238, 333
PAD = 14                               # the text's margin from the card's edge
TITLE_SIZES = (15, 14, 13, 12, 11)
BODY_SIZES = (13, 12.5, 12, 11.5, 11, 10.5, 10, 9.5, 9, 8.5, 8)
LINE = 1.3
FAMILY = "Grimoire Serif, DejaVu Serif, serif"


@dataclass
class Layout:
    """Where every line of a card goes, and whether it all fits."""
    title_size: float
    title: list[str]
    kind: str
    body_size: float
    body: list[str]
    body_top: float
    body_bottom: float
    fits: bool


def layout(name: str, text: str, kind: str, lang: str) -> Layout:
    """Measure and wrap a card's title and text for its box."""
    width = CARD_W - 2 * PAD
    name, text = tie(name, lang), tie(text, lang)
    title_size, title = TITLE_SIZES[-1], wrap(name, width - 8, TITLE_SIZES[-1], "bold")
    for size in TITLE_SIZES:
        lines = wrap(name, width - 8, size, "bold")
        if len(lines) <= 2 and widest(lines, size, "bold") <= width - 8:
            title_size, title = size, lines
            break
    band = 12 + len(title) * title_size * 1.2 + 8
    body_top = 12 + band + 18                  # the kind label sits between band and text
    body_bottom = CARD_H - 30
    size, body = fit(text, width, body_bottom - body_top, BODY_SIZES, LINE)
    fits = (widest(body, size) <= width and len(body) * size * LINE <= body_bottom - body_top
            and widest(title, title_size, "bold") <= width - 8)
    return Layout(title_size, title, tie(kind, lang), size, body, body_top, body_bottom, fits)


FONT_FACE = ('<style>@font-face {{ font-family: "Grimoire Serif"; src: url("{d}DejaVuSerif.ttf"); }} '
             '@font-face {{ font-family: "Grimoire Serif"; font-weight: bold; src: url("{d}DejaVuSerif-Bold.ttf"); }}'
             '</style>')


def card_svg(lay: Layout, copies: str, game_title: str, colour: str, card_id: str = "",
             fonts: str | None = "../fonts/") -> str:
    """The SVG of one card; `fonts`: where the font files are, relative to the SVG (None: the
    page that holds it declares them)."""
    e = html.escape
    band_h = 8 + len(lay.title) * lay.title_size * 1.2 + 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="card" data-card="{e(card_id)}" '
           f'width="63mm" height="88mm" viewBox="0 0 {CARD_W} {CARD_H}" font-family="{FAMILY}">']
    if fonts is not None:
        out.append(FONT_FACE.format(d=fonts))
    out.append(f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="12" fill="#fffdf6" '
               f'stroke="{colour}" stroke-width="4"/>')
    out.append(f'<rect x="10" y="10" width="{CARD_W - 20}" height="{band_h:.1f}" rx="6" fill="{colour}"/>')
    for i, ln in enumerate(lay.title):
        y = 10 + 8 + lay.title_size * (0.95 + 1.2 * i)
        out.append(f'<text class="title" x="{CARD_W / 2}" y="{y:.1f}" text-anchor="middle" '
                   f'font-size="{lay.title_size}" font-weight="bold" fill="#fff">{e(ln)}</text>')
    out.append(f'<text class="kind" x="{CARD_W / 2}" y="{lay.body_top - 8:.1f}" text-anchor="middle" '
               f'font-size="10" font-style="italic" fill="{colour}">{e(lay.kind)}</text>')
    out.append(f'<text class="body" x="{PAD}" y="{lay.body_top + lay.body_size:.1f}" '
               f'font-size="{lay.body_size}" fill="#222">')
    for i, ln in enumerate(lay.body):
        out.append(f'<tspan x="{PAD}" dy="{0 if i == 0 else round(lay.body_size * LINE, 2)}">{e(ln)}</tspan>')
    out.append("</text>")
    foot = 9.0
    while foot > 6 and text_width(game_title, foot) + text_width(copies, foot) + 12 > CARD_W - 2 * PAD:
        foot -= 0.5
    out.append(f'<text class="foot" x="{PAD}" y="{CARD_H - 14}" font-size="{foot}" fill="#666">{e(game_title)}</text>')
    out.append(f'<text class="foot" x="{CARD_W - PAD}" y="{CARD_H - 14}" font-size="{foot}" fill="#666" '
               f'text-anchor="end">{e(copies)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
