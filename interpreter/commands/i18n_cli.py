"""The `grimoire i18n` commands (check, stamp, export, import) and `grimoire render`, plugged into
`interpreter/cli.py` by `register`.

Pipeline position: commands; they live in `interpreter/commands/` (i18n, exchange, render)."""

from __future__ import annotations

from ..i18n.exchange import import_messages
from ..i18n.ftl import parse_ftl_file, to_ftl_file
from ..i18n.languages import lang_code
from ..i18n.po import parse_po, to_po
from ..render import card_svg, render_cards
from .exchange import cmd_export, cmd_import
from .i18n import cmd_check, cmd_stamp
from .render import cmd_render

__all__ = ["card_svg", "cmd_check", "cmd_export", "cmd_import", "cmd_render", "cmd_stamp", "import_messages",
           "parse_ftl_file", "parse_po", "register", "render_cards", "to_ftl_file", "to_po"]


def register(sub) -> None:
    i = sub.add_parser("i18n", help="check, stamp, export and import translations")
    isub = i.add_subparsers(dest="i18n_cmd", required=True)
    from .i18n_init import add_init
    add_init(isub)
    c = isub.add_parser("check", help="compare every locale with English; exit 1 on any problem")
    c.add_argument("ruleset", help="the ruleset folder")
    c.add_argument("--lang", action="append", type=lang_code,
                   help="only this language (repeatable; default: every locale)")
    c.add_argument("--variant", action="append", default=[], help="a variant whose texts are checked too (repeatable)")
    c.add_argument("--no-engine", action="store_true", help="skip the engine's own messages")
    c.add_argument("--format", choices=["text", "json"], default="text",
                   help="text for people, json for editors and tools")
    c.set_defaults(fn=cmd_check)
    s = isub.add_parser("stamp", help="record the English each translation was made from")
    s.add_argument("ruleset", help="the ruleset folder")
    s.add_argument("--lang", action="append", type=lang_code,
                   help="only this language (repeatable; default: every locale)")
    s.add_argument("--id", dest="ids", action="append", default=[],
                   help="only this id (repeatable; default: every id with no hash yet)")
    s.add_argument("--all", action="store_true", help="re-stamp every translated id")
    s.add_argument("--engine", action="store_true",
                   help="also stamp the engine's own messages (interpreter/messages/)")
    s.set_defaults(fn=cmd_stamp)
    e = isub.add_parser("export", help="write .ftl (Pontoon, Weblate) or .po files")
    e.add_argument("ruleset", help="the ruleset folder")
    e.add_argument("--format", choices=["ftl", "po"], default="po",
                   help="po for translation tools (Weblate, Poedit), ftl for Fluent")
    e.add_argument("--lang", action="append", type=lang_code,
                   help="only this language (repeatable; default: every locale)")
    e.add_argument("--out", required=True, help="a folder (a file per language, the engine's messages in "
                   "OUT/engine/), or one file, pl.po or pl.ftl, of one --lang of the ruleset")
    e.add_argument("--no-engine", action="store_true", help="leave out the engine's own messages (OUT/engine/)")
    e.set_defaults(fn=cmd_export)
    m = isub.add_parser("import", help="merge .ftl or .po files into locales/LANG.yaml")
    m.add_argument("ruleset", help="the ruleset folder")
    m.add_argument("files", nargs="+", help="the translated .po or .ftl files")
    m.add_argument("--lang", type=lang_code, help="default: the PO Language header or the file name")
    m.add_argument("--prune", action="store_true", help="drop messages the file does not have")
    m.set_defaults(fn=cmd_import)
    r = sub.add_parser("render", help="write a printable HTML card sheet and an SVG per card")
    r.add_argument("ruleset", help="the ruleset folder")
    r.add_argument("--lang", default=None, type=lang_code,
                   help="the language of the cards (default: the command line's)")
    r.add_argument("--out", required=True, help="the folder the sheet is written to")
    r.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    r.set_defaults(fn=cmd_render)
