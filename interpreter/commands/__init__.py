"""The built-in commands of `grimoire`: one module each, with `register(subparsers)`.

Pipeline position: commands, above everything they run (game, scenarios, bots, i18n) and
below cli.py, which builds the parser and dispatches. Other commands plug in the same way
(overlay_commands.py, i18n_commands.py, sim/commands.py).
"""
