"""The built-in commands of `grimoire`: one module each, with `register(subparsers)`.

Pipeline position: commands, above everything they run (game, scenarios, bots, i18n) and
below cli.py, which builds the parser and dispatches. Every command is here, the serve
command too (its web table lives in tabletop/web/).
"""
