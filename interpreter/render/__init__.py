"""`grimoire render RULESET --lang L --out DIR`: a printable card sheet (`index.html`) and one SVG
per card (`cards/ID.svg`), in one language.

Pipeline position: over a loaded game and `interpreter.i18n.Text`; writes files only."""

from __future__ import annotations

import html
import sys
from pathlib import Path

from ..i18n.commands import _ruleset_dir

CARD_W, CARD_H = 250, 350          # SVG units (= CSS px at 96 dpi): 63.5 x 88.9 mm is 240 x 336


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split():
            if cur and len(cur) + 1 + len(word) > width:
                lines.append(cur)
                cur = word
            else:
                cur = f"{cur} {word}" if cur else word
        lines.append(cur)
    return lines


def card_svg(name: str, text: str, set_label: str, copies: str, colour: str) -> str:
    e = html.escape
    title_lines = _wrap(name, 22)
    size = 13 if len(text) < 160 else 11 if len(text) < 260 else 9.5
    width = int(34 * 13 / size)
    body = _wrap(text, width)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W}" height="{CARD_H}" '
           f'viewBox="0 0 {CARD_W} {CARD_H}" font-family="DejaVu Serif, Georgia, serif">',
           f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="12" fill="#fffdf6" '
           f'stroke="{colour}" stroke-width="4"/>',
           f'<rect x="12" y="12" width="{CARD_W - 24}" height="{28 + 18 * (len(title_lines) - 1)}" rx="6" '
           f'fill="{colour}"/>']
    for i, ln in enumerate(title_lines):
        out.append(f'<text x="{CARD_W // 2}" y="{32 + 18 * i}" text-anchor="middle" font-size="16" '
                   f'font-weight="bold" fill="#fff">{e(ln)}</text>')
    y0 = 70 + 18 * (len(title_lines) - 1)
    out.append(f'<text x="18" y="{y0}" font-size="{size}" fill="#222">')
    for i, ln in enumerate(body):
        out.append(f'<tspan x="18" dy="{0 if i == 0 else round(size * 1.3, 1)}">{e(ln)}</tspan>')
    out.append("</text>")
    out.append(f'<text x="18" y="{CARD_H - 16}" font-size="10" fill="#666">{e(set_label)}</text>')
    out.append(f'<text x="{CARD_W - 18}" y="{CARD_H - 16}" font-size="10" fill="#666" '
               f'text-anchor="end">{e(copies)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


_SET_COLOURS = ["#7a1f1f", "#1f3f7a", "#2f6a2f", "#6a4f1f", "#4f2f6a", "#1f6a66", "#555555", "#8a5a00"]

_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  @page {{ size: A4; margin: 8mm; }}
  body {{ margin: 0; padding: 8px; background: #fff; color: #222;
         font-family: "DejaVu Serif", Georgia, serif; }}
  h1 {{ font-size: 18px; margin: 4px 4px 10px; }}
  .sheet {{ display: flex; flex-wrap: wrap; gap: 6px; }}
  .card {{ box-sizing: border-box; width: 63mm; height: 88mm; border: 3px solid var(--c);
          border-radius: 10px; padding: 0; display: flex; flex-direction: column;
          break-inside: avoid; page-break-inside: avoid; background: #fffdf6; overflow: hidden; }}
  .card h2 {{ margin: 0; padding: 6px 8px; font-size: 15px; color: #fff; background: var(--c);
             text-align: center; }}
  .card .text {{ flex: 1; padding: 8px 10px; font-size: 12.5px; line-height: 1.3; overflow: hidden; }}
  .card footer {{ display: flex; justify-content: space-between; padding: 4px 10px 6px;
                 font-size: 10px; color: #666; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="sheet">
{cards}
</div>
<script>
  // Shrink the text of a card until it fits; mark what still overflows (tests read this).
  var over = 0;
  document.querySelectorAll('.card .text').forEach(function (t) {{
    var size = 12.5;
    while (t.scrollHeight > t.clientHeight + 1 && size > 7) {{ size -= 0.5; t.style.fontSize = size + 'px'; }}
    if (t.scrollHeight > t.clientHeight + 1) {{ t.parentNode.classList.add('overflow'); over++; }}
  }});
  document.body.setAttribute('data-overflow', String(over));
  document.body.setAttribute('data-cards', String(document.querySelectorAll('.card').length));
</script>
</body>
</html>
"""


def render_cards(root: Path, lang: str, out: Path, variants=()) -> dict:
    """Write index.html and cards/*.svg; return {card id: (name, text)}."""
    from ..cli import write_atomic
    from ..game import load
    from ..i18n import Text
    game = load(root, list(variants))
    prog = game.program
    text = Text(prog, lang)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cards").mkdir(exist_ok=True)
    sets = sorted(set(prog.kind_sets))
    counts = [len(x) for x in prog.kind_instances]
    rendered, blocks = {}, []
    for k, cid in enumerate(prog.card_ids):
        name, body = text.card_name(k), text.card_text(k)
        set_id = prog.kind_sets[k]
        set_label = text.msg("set-" + set_id, default="") if text.has("set-" + set_id) else ""
        copies = text.msg("render-copies", {"n": counts[k]}, default=f"×{counts[k]}")
        colour = _SET_COLOURS[sets.index(set_id) % len(_SET_COLOURS)]
        write_atomic(out / "cards" / f"{cid}.svg", card_svg(name, body, set_label, copies, colour))
        e = html.escape
        blocks.append(f'<div class="card" id="card-{e(cid)}" style="--c: {colour}">'
                      f'<h2>{e(name)}</h2><div class="text">{e(body)}</div>'
                      f'<footer><span>{e(set_label)}</span><span>{e(copies)}</span></footer></div>')
        rendered[cid] = (name, body)
    title = text.msg("render-title", {"ruleset": game.ruleset.title}, default=game.ruleset.title)
    write_atomic(out / "index.html", _PAGE.format(lang=lang, title=html.escape(title), cards="\n".join(blocks)))
    if text.missing or text.fallbacks:
        missing = sorted(text.missing | text.fallbacks)
        print(f"warning: {len(missing)} message(s) not in {lang}: {', '.join(missing[:8])}"
              + (" ..." if len(missing) > 8 else ""), file=sys.stderr)
    return rendered


def cmd_render(args) -> int:
    root = _ruleset_dir(args.ruleset)
    rendered = render_cards(root, args.lang, Path(args.out), args.variant)
    print(f"wrote {Path(args.out) / 'index.html'} and {len(rendered)} SVG cards in {Path(args.out) / 'cards'}")
    return 0


