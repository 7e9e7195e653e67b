"""`grimoire render RULESET --lang L --out DIR`: the printable card sheet.

Pipeline position: commands, over `interpreter.render`."""

from __future__ import annotations

import sys
from pathlib import Path

from ..render import render_cards
from .i18n import _ruleset_dir, _ui, cli_text


def cmd_render(args) -> int:
    root = _ruleset_dir(args.ruleset)
    ui = _ui(args)
    try:
        rendered, missing, tight = render_cards(root, args.lang, Path(args.out), args.variant)
    except OSError as e:  # --out under a file, a read-only place, a full disk: one line, no traceback
        where = e.filename or args.out
        print(cli_text(ui, "cli-error", {"message": f"{where}: cannot write there ({e.strerror or e})"}),
              file=sys.stderr)
        return 2
    if missing:
        ids = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        print(cli_text(ui, "cli-render-missing", {"n": len(missing), "lang": args.lang, "ids": ids}), file=sys.stderr)
    if tight:
        print(cli_text(ui, "cli-render-tight", {"n": len(tight), "ids": ", ".join(tight[:8])}), file=sys.stderr)
    print(cli_text(_ui(args), "cli-rendered", {"page": str(Path(args.out) / "index.html"), "n": len(rendered),
                                               "dir": str(Path(args.out) / "cards")}))
    return 0


