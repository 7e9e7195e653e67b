"""`grimoire serve RULESET [--variant V]... [--seats human,random,...] [--port P] [--lang L]`.

Pipeline position: the CLI layer of the web table (plugged into `cli.py` by `register`). It
starts the game (or resumes a save of `play` or `serve`), prints one secret link per human
seat, a spectator link and the host's link, and serves them on 127.0.0.1 unless --host
says otherwise. Stopping the server (Ctrl-C) saves the game, like `grimoire play`. Without
a ruleset it serves the lobby, whose tables are kept in --tables after every change and
resume when the lobby starts again.
"""

from __future__ import annotations

import signal
import socket
import sys

from ..errors import GrimoireError, RulesetError
from ..i18n.languages import lang_code, require_language


def parse_seats(spec: str | None, n: int, default: str = "random") -> list[str]:
    """The kind of every seat from `human,random,...` (one name: every seat)."""
    if not spec:
        return ["human"] + [default] * (n - 1)
    seats = [s.strip() for s in spec.split(",")]
    if len(seats) == 1:
        seats = seats * n
    if len(seats) != n:
        raise ValueError(f"--seats names {len(seats)} seats but the game has {n} players")
    return seats


def build_room(args):
    """The room of a `serve` command line: a new game, or the game of --load."""
    from ..game import load
    from ..saves import read_save
    from ..tabletop.web.room import Room
    if args.load:  # replayed from its decisions: a save that does not replay is refused
        loaded = read_save(args.load)
        game, st = loaded.game, loaded.state
        seed = st.seed
        seats = parse_seats(args.seats, st.n) if args.seats else [
            s or "random" for s in loaded.seats or parse_seats(None, st.n)]  # null: a plug-in seat
        lang = args.lang or loaded.lang or "en"
    else:
        game = load(args.ruleset, args.variant)
        seed = args.seed if args.seed is not None else 1
        players = args.players or (len(args.seats.split(",")) if args.seats and "," in args.seats
                                   else game.ruleset.min_players)
        st = game.new_game(seed=seed, players=players)
        seats = parse_seats(args.seats, st.n)
        lang = args.lang or "en"
    require_language(game.path, lang)
    return Room(game, st, seats, seed, lang, args.save or args.load or f"{game.ruleset.id}.save.json",
                autopass=getattr(args, "autopass", True), autoone=getattr(args, "autoone", True))


def cmd_serve(args) -> int:
    import uvicorn

    from ..tabletop.web.app import create_app
    try:
        with socket.socket() as probe:  # a busy port is said plainly, before the game starts
            probe.bind((args.host, args.port))
    except OSError as e:
        print(f"error: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 1
    if not args.ruleset and not args.load:  # the lobby: tables are made from the browser
        from ..tabletop.web.lobby import create_lobby
        app = create_lobby(args.lang or "en", args.tables)
        for line in app.state.problems:
            print(line, file=sys.stderr)
        kept = app.state.tables
        print(f"lobby: http://{args.host}:{args.port}/  (choose a game and make a table there)")
        print(f"  tables are kept in {args.tables}/" + (f"; {len(kept)} resumed" if kept else ""))
        sys.stdout.flush()
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
        return 0
    try:
        room = build_room(args)
    except RulesetError as e:  # located problems, in the command line's language (as validate prints them)
        from .output import print_problems
        print_problems(e.problems)
        return 1
    except (ValueError, GrimoireError) as e:
        from ..i18n.problems import localize
        from .cli_text import cli_text
        from .output import language
        print(cli_text(language(), "cli-error", {"message": localize(str(e), language())}), file=sys.stderr)
        return 2
    base = f"http://{args.host}:{args.port}"
    print(f"{room.game.ruleset.title}: {room.state.n} seats ({', '.join(room.seats)}), language {room.lang}")
    for i, kind in enumerate(room.seats):
        if kind == "human":
            print(f"  seat {i + 1}: {base}/seat/{room.player_token(i)}")
    print(f"  spectator: {base}/watch/{room.spectator_token}")
    print(f"  host (links, save, replay): {base}/host/{room.host_token}")
    sys.stdout.flush()
    # uvicorn stops on SIGINT or SIGTERM, then raises the signal again for the handler it found:
    # ours lets the game be saved (the default one would end the process first)
    stops = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.signal(s, lambda *_: None) for s in stops}
    try:
        uvicorn.run(create_app(room), host=args.host, port=args.port, log_level="warning")
    finally:
        for s, h in before.items():
            signal.signal(s, h)
    path = room.save()
    print(f"game saved to {path}; continue with: grimoire serve --load {path}")
    return 0


def register(sub) -> None:
    """Add `grimoire serve` to the command line."""
    s = sub.add_parser("serve", help="play at a web table: one secret link per human seat, bots in the others")
    s.add_argument("ruleset", nargs="?", default=None, help="the ruleset folder (none: tables are made in the browser)")
    s.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    s.add_argument("--seats", help="comma-separated: human or a bot kind (random, mcts, ...) per seat")
    s.add_argument("--players", type=int,
                   help="players at the table (default: one per --seats entry, else the ruleset's minimum)")
    s.add_argument("--seed", type=int, help="the game's seed (default 1)")
    s.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--lang", type=lang_code, help="any language the ruleset has text in (default: the save's, or en)")
    s.add_argument("--load", help="resume a save of grimoire play or serve")
    s.add_argument("--save", help="where Save and stopping write the game (default: RULESET.save.json)")
    s.add_argument("--tables", default="grimoire-tables",
                   help="the lobby's folder: every table is kept there and resumes when the lobby starts again "
                        "(default: grimoire-tables in the current directory)")
    s.add_argument("--no-autopass", dest="autopass", action="store_false",
                   help="seats start with their lone-Pass answer off (each page can turn it on)")
    s.add_argument("--no-autoone", dest="autoone", action="store_false",
                   help="seats start with their only-option answer off (each page can turn it on)")
    s.set_defaults(fn=cmd_serve)
