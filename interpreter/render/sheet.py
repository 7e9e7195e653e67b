"""The printable sheet: every card of a ruleset, inline SVG, three to a row on A4.

Pipeline position: `interpreter.render` hands it the laid-out cards; it writes the HTML page
(`index.html`) that a browser prints. Sizes are in millimetres so that the print is to scale:
63 x 88 mm cards with 1.5 mm gaps in a 198 mm wide area (A4 less 6 mm margins) give 3 cards
a row and 9 a page.
"""

from __future__ import annotations

import html

PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  @font-face {{ font-family: "Grimoire Serif"; src: url("fonts/DejaVuSerif.ttf"); }}
  @font-face {{ font-family: "Grimoire Serif"; font-weight: bold; src: url("fonts/DejaVuSerif-Bold.ttf"); }}
  @page {{ size: A4; margin: 6mm; }}
  html, body {{ margin: 0; padding: 0; background: #fff; color: #222; font-family: "Grimoire Serif", serif; }}
  h1 {{ font-size: 5mm; margin: 0 0 2mm; }}
  .sheet {{ display: grid; grid-template-columns: repeat(3, 63mm); gap: 1.5mm; width: 198mm; }}
  .sheet svg {{ display: block; break-inside: avoid; page-break-inside: avoid; }}
  @media print {{ h1 {{ display: none; }} }}
</style>
</head>
<body data-cards="{count}">
<h1>{title}</h1>
<div class="sheet">
{cards}
</div>
</body>
</html>
"""


def sheet_html(lang: str, title: str, cards: list[str]) -> str:
    """The page holding every card's inline SVG."""
    return PAGE.format(lang=html.escape(lang), title=html.escape(title), count=len(cards), cards="\n".join(cards))
