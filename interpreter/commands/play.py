"""`grimoire play`: a game at the terminal, human seats and bots, saved on quit.

Pipeline position: commands (registered by cli.py). Humans see their own view only; every
mistake (an unknown seat kind, a damaged save file, a path that cannot be written) is a message
and an exit code, never a traceback, and no game is lost: `--save` and `--log` are checked
before the first move, and a rules error mid-game saves the game as it was before the
failing move. A save is read back by replaying its decisions (`saves.py`).
"""

from __future__ import annotations

import sys

from ..bots import KINDS, NEED_POLICY, Seat, default_kind, make_bot
from ..bots.beliefs import beliefs_for
from ..engine.faults import EffectRuntimeError
from ..engine.state import SPECTATOR
from ..errors import GrimoireError, RulesetError
from ..files import OutputError, check_writable, write_atomic
from ..i18n.languages import lang_code
from ..saves import read_save, write_save
from ..tabletop.auto import auto_answer
from ..tabletop.terminal import ask
from .output import print_problems as _print_problems


def register(sub) -> None:
    """Add the command to the `grimoire` subparsers."""
    p = sub.add_parser("play", help="play a game (all bots unless --seats says human)")
    p.add_argument("ruleset", nargs="?", default=None, help="a shipped ruleset's name or a ruleset folder")
    p.add_argument("--players", type=int,
                   help="how many players (default: as many as --seats names, else the ruleset's fewest)")
    p.add_argument("--seats", help="comma-separated: human, random, policy, mcts, rollout or "
                   "package.module:Class per seat")
    p.add_argument("--bots", help="bot for unnamed seats: random, policy, mcts, rollout or package.module:Class "
                   "(default: policy where the ruleset has one, else random)")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="policy bots draw options by softmax at this temperature (0: the best)")
    p.add_argument("--seed", type=int, help="the game's seed (default: 1); a seed and the decisions give the game")
    p.add_argument("--lang", default=None, type=lang_code,
                   help="the game's language: any the ruleset has text in (default: the command line's)")
    p.add_argument("--save", help="save the game to this file when it ends or you quit "
                   "(quitting saves to RULESET.save.json without it)")
    p.add_argument("--load", help="continue a game saved by --save or by quitting")
    p.add_argument("--log", help="write what was shown of the game, and its result, to this file")
    p.add_argument("--names", help="comma-separated card ids naming the seats (e.g. characters)")
    p.add_argument("--variant", action="append", default=[],
                   help="a house rule: a variant of the ruleset by name, or a variant file (repeatable)")
    p.add_argument("--quiet", action="store_true", help="print the result only, not the game as it is played")
    p.add_argument("--no-autopass", dest="autopass", action="store_false",
                   help="ask a human seat even when Pass is its only option (by default it passes by itself)")
    p.add_argument("--no-autoone", dest="autoone", action="store_false",
                   help="ask a human seat even when it has one option only (by default it takes it by itself)")
    p.add_argument("--bell", action="store_true",
                   help="ring the terminal's bell when a human seat's turn comes (after another seat decided)")
    p.set_defaults(fn=cmd_play)


class _Quit(Exception):
    pass



def text_of(args, msg_id: str, values: dict) -> str:
    """A message of the command line in the game's language."""
    from .cli_text import cli_text
    return cli_text(args.lang or "en", msg_id, values)


def _seat_count(seats: str | None) -> int | None:
    """The players `--seats` names, when it names more than one seat (one seat is for every player)."""
    n = len(seats.split(",")) if seats else 0
    return n if n > 1 else None


def _make_bot(kind: str, seed: int, game, temperature: float = 0.0):
    return make_bot(kind, seed, game, **({"temperature": temperature} if kind == "policy" else {}))


def cmd_play(args) -> int:
    from ..game import load
    from ..i18n import Text
    try:
        for out in (args.save, args.log):  # refused before a move is played, not after the game
            if out:
                check_writable(out)
        if args.load:
            loaded = read_save(args.load)
            game, st, seats, names = loaded.game, loaded.state, loaded.seats, loaded.names
            seed = st.seed
        else:
            game = load(args.ruleset, args.variant)
            n = args.players or _seat_count(args.seats) or game.ruleset.min_players
            seed = args.seed if args.seed is not None else 1
            names = args.names.split(",") if args.names else None
            st = game.new_game(seed=seed, players=n, names=names)
            seats = None
    except OutputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except EffectRuntimeError as e:  # the setup itself fails
        _print_problems([e.problem()])
        return 1
    except RulesetError as e:
        _print_problems(e.problems)
        return 1
    n = st.n
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
        if len(seats) == 1:
            seats = seats * n
    if not seats:
        seats = [args.bots or default_kind(game)] * n
    seats = [args.bots or default_kind(game) if s is None else s for s in seats]  # a save's plug-in seat
    if len(seats) != n:
        print(text_of(args, "cli-seats-count", {"seats": len(seats), "players": n}), file=sys.stderr)
        return 2
    for s in seats:
        if ":" in s:  # a bot class of one's own: refused here, before the game, if unusable
            from ..bots.plugin import load_bot_class
            load_bot_class(s)
            continue
        if s != "human" and s not in KINDS:
            print(text_of(args, "cli-seat-kind", {"kind": s}), file=sys.stderr)
            return 2
        if s in NEED_POLICY and game.program.policy is None:
            print(f"error: {game.ruleset.id} has no policy: section, so there is no {s} bot", file=sys.stderr)
            return 2
    if args.lang != "en":
        from ..i18n.languages import require_language
        require_language(game.path, args.lang)
    text = Text(game.program, args.lang)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    bots = {i: _make_bot(s, seed * 1000 + i, game, args.temperature) for i, s in enumerate(seats) if s != "human"}
    printed = len(st.log) if args.load else 0
    log_lines: list[str] = []
    save_path = args.save or f"{game.ruleset.id}.save.json"

    def flush_log():
        nonlocal printed
        for e in st.log[printed:]:
            visible = bool(e[3] & (SPECTATOR if viewer is None else 1 << viewer))
            if visible:
                line = text.event(st, e)
                log_lines.append(line)
                if not args.quiet:
                    print(line)
        printed = len(st.log)

    table = beliefs_for(game, st)  # the public evidence the bots' beliefs read (from here on)
    asked = None  # the human seat asked last: its turn "comes" when another seat decided since
    try:
        while not st.is_over():
            flush_log()
            p = st.current_player()
            if seats[p] == "human":
                # a lone Pass is answered as a click on it would be (the window still asks this seat)
                # (and, unless --no-autoone, an only option is taken as a click on it would be)
                opt = auto_answer(st, p, getattr(args, "autopass", True), getattr(args, "autoone", True))
                if not opt:
                    if getattr(args, "bell", False) and asked != p:
                        sys.stdout.write("\a")  # (BEL: the terminal rings or flashes, as it is set up)
                        sys.stdout.flush()
                    asked = p
                    opt = _ask_human(st, p, text)
            else:
                asked = None
                opt = bots[p].choose(Seat(st, table))
            if table is not None and isinstance(opt, str):
                table.before(st, opt)
            nxt = st.apply(opt)
            if not nxt:
                print(text.msg("cli-refused", {"message": nxt.message}), file=sys.stderr)
                continue
            st = nxt
            if table is not None:
                table.after(st)
        flush_log()
    except (_Quit, KeyboardInterrupt, EOFError):
        print()
        return 0 if _save(save_path, game, st, seats, names, args.lang, text) else 1
    except EffectRuntimeError as e:  # a bug in the rules: where, in the author's words
        _print_problems([e.problem()])
        if args.save:  # the game as it was before the failing move is kept
            _save(args.save, game, st, seats, names, args.lang, text)
        return 1
    except GrimoireError as e:
        print(text_of(args, "cli-error", {"message": str(e)}), file=sys.stderr)
        if args.save:
            _save(args.save, game, st, seats, names, args.lang, text)
        return 1
    res = st.result or {}
    sides = ", ".join(text.msg("side-" + s, default=s) for s in res.get("sides", [])) or text.msg(
        "nobody", default="nobody")
    players = ", ".join(text.player(st, w) for w in res.get("winners", []))
    winners = text.msg("winners", {"sides": sides}, default="winners: " + sides) + (
        f" ({players})" if players else "")
    reason = text.end_reason(res.get("reason", ""))       # its numbers from the ruleset's params
    reason = reason[:1].upper() + reason[1:]              # it starts the line (after a colon it does not)
    summary = text.msg("cli-summary", {"reason": reason, "winners": winners, "decisions": len(st.history),
                                       "turns": st.turn})
    print(summary)
    ok = True
    if args.log:
        try:
            write_atomic(args.log, "\n".join(log_lines + [summary]) + "\n")
        except OutputError as e:
            print(f"error: {e}", file=sys.stderr)
            ok = False
    if args.save:
        ok = _save(args.save, game, st, seats, names, args.lang, text) and ok
    return 0 if ok else 1


def _ask_human(st, p, text):
    return ask(st, p, text, _Quit)  # the table drawn from p's view, then the numbered options


def _save(path, game, st, seats, names, lang, text) -> bool:
    """Save the game at path and say so; if path cannot be written, save it in the current
    directory instead, so the game is never lost. False if neither could be written."""
    fallback = f"{game.ruleset.id}.save.json"
    for where in dict.fromkeys([str(path), fallback]):
        try:
            write_save(where, game, st, seats, lang, names)
        except OutputError as e:
            print(f"error: {e}", file=sys.stderr)
            continue
        print(text.msg("cli-saved", {"file": where}))
        return where == str(path)
    return False
