"""Text measured with the font the cards are printed in, and wrapped to fit.

Pipeline position: used by `interpreter.render` to lay out card text before writing SVG. The
font is DejaVu Serif as matplotlib ships it (matplotlib is a dependency already); the same files
are copied beside the sheet and named in its @font-face, so the browser that prints the sheet
draws the very glyphs measured here. Widths come from FreeType's advances with kerning.

Line breaks follow each language's typography: a non-breaking space ties a number to the word
after it (all languages) and a one-letter word to the next (Polish «w», «z», «i»; Russian «в»,
«с», «и»; Portuguese «e», «a», «o»), as the language's `grammar: no_break_after:` lists them.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

NBSP = "\u00a0"
FONTS = {"regular": "DejaVuSerif.ttf", "bold": "DejaVuSerif-Bold.ttf"}
SAFETY = 1.01          # room for a renderer that rounds each advance up


def font_dir() -> Path:
    """Where matplotlib keeps its DejaVu fonts."""
    import matplotlib
    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


@cache
def _font(weight: str):
    from matplotlib.ft2font import FT2Font
    return FT2Font(str(font_dir() / FONTS[weight]))


@cache
def text_width(text: str, size: float, weight: str = "regular") -> float:
    """The advance width of one line of text, in px at `size` px."""
    if not text:
        return 0.0
    from matplotlib.ft2font import LoadFlags
    f = _font(weight)
    f.set_size(size, 72)               # 72 dpi: one point is one px
    # unhinted advances, as a browser lays text out (hinting narrows small sizes by 1-2%)
    f.set_text(text.replace(NBSP, " "), 0.0, flags=LoadFlags.NO_HINTING)
    return f.get_width_height()[0] / 64.0 * SAFETY


@cache
def _no_break_after(lang: str) -> re.Pattern | None:
    from ..i18n.locales import _engine_messages
    _, _, doc = _engine_messages(lang)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    words = [str(w) for w in ((data.get("grammar") or {}).get("no_break_after") or [])]
    if not words:
        return None
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r") (?=\S)", re.I)


def tie(text: str, lang: str) -> str:
    """Put non-breaking spaces where the language keeps two words on one line."""
    text = re.sub(r"(?<![\w.,])([+−-]?\d+[.,]?\d*) (?=\S)", lambda m: m.group(1) + NBSP, text)
    text = re.sub(r" ([—–]) ", NBSP + r"\1 ", text)        # a dash never starts a line
    pat = _no_break_after(lang)
    if pat is not None:
        # twice: «i w lesie» ties both «i» and «w»
        text = pat.sub(lambda m: m.group(1) + NBSP, pat.sub(lambda m: m.group(1) + NBSP, text))
    return text


def wrap(text: str, width: float, size: float, weight: str = "regular") -> list[str]:
    """Greedy line breaking at spaces (never at non-breaking ones) within `width` px."""
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split(" "):
            if not word:
                continue
            cand = f"{cur} {word}" if cur else word
            if cur and text_width(cand, size, weight) > width:
                lines.append(cur)
                cur = word
            else:
                cur = cand
        lines.append(cur)
    return lines


def widest(lines: list[str], size: float, weight: str = "regular") -> float:
    """The width of the widest line."""
    return max((text_width(ln, size, weight) for ln in lines), default=0.0)


def fit(text: str, width: float, height: float, sizes, line_height: float, weight: str = "regular"):
    """The largest size of `sizes` at which the text wraps within width x height:
    (size, lines); the smallest size if none fits (the caller reports it)."""
    for size in sizes:
        lines = wrap(text, width, size, weight)
        if widest(lines, size, weight) <= width and len(lines) * size * line_height <= height:
            return size, lines
    size = sizes[-1]
    return size, wrap(text, width, size, weight)
