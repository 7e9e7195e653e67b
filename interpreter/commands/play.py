"""`grimoire play`: a game at the terminal, human seats and bots, saved on quit.

Pipeline position: commands (registered by cli.py). Humans see their own view only; every
mistake (an unknown seat kind, a damaged save file) is a message and an exit code, never a
traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..bots import decide, default_kind, make_bot
from ..engine.state import SPECTATOR
from ..errors import GrimoireError, Loc, Problem, RulesetError
from ..files import write_atomic
from .output import print_problems as _print_problems


def register(sub) -> None:
    """Add the command to the `grimoire` subparsers."""
    p = sub.add_parser("play", help="play a game (all bots unless --seats says human)")
    p.add_argument("ruleset", nargs="?", default=None)
    p.add_argument("--players", type=int)
    p.add_argument("--seats", help="comma-separated: human, random, policy or mcts per seat")
    p.add_argument("--bots", choices=["random", "policy", "mcts"],
                   help="bot for unnamed seats (default: policy where the ruleset has one, else random)")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="policy bots draw options by softmax at this temperature (0: the best)")
    p.add_argument("--seed", type=int)
    p.add_argument("--lang", default="en", choices=["en", "ru", "pl", "pt"])
    p.add_argument("--save")
    p.add_argument("--load")
    p.add_argument("--log")
    p.add_argument("--names", help="comma-separated card ids naming the seats (e.g. characters)")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(fn=cmd_play)


class _Quit(Exception):
    pass


def _make_bot(kind: str, seed: int, game, temperature: float = 0.0):
    return make_bot(kind, seed, game, **({"temperature": temperature} if kind == "policy" else {}))


def cmd_play(args) -> int:
    from ..game import load
    from ..i18n import Text
    try:
        if args.load:
            save = _read_save(args.load)
            game = load(save["ruleset_path"] if Path(save.get("ruleset_path", "")).is_dir() else save["ruleset"],
                        save.get("variants") or [])
            st = game.state_from_json(save["state"], args.load)
            seats = save.get("seats")
            seed = save.get("seed", 0)
        else:
            game = load(args.ruleset, args.variant)
            n = args.players or game.ruleset.min_players
            seed = args.seed if args.seed is not None else 1
            names = args.names.split(",") if args.names else None
            st = game.new_game(seed=seed, players=n, names=names)
            seats = None
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
    if len(seats) != n:
        print(f"error: --seats names {len(seats)} seats but the game has {n} players", file=sys.stderr)
        return 2
    for s in seats:
        if s not in ("human", "random", "policy", "mcts"):
            print(f"error: unknown seat kind {s!r} (human, random, policy or mcts)", file=sys.stderr)
            return 2
        if s == "policy" and game.program.policy is None:
            print(f"error: {game.ruleset.id} has no policy: section, so there is no policy bot", file=sys.stderr)
            return 2
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

    try:
        while not st.is_over():
            flush_log()
            p = st.current_player()
            if seats[p] == "human":
                opt = _ask_human(st, p, text)
            else:
                opt = decide(bots[p], st)
            nxt = st.apply(opt)
            if not nxt:
                print(text.msg("cli-refused", {"message": nxt.message}), file=sys.stderr)
                continue
            st = nxt
        flush_log()
    except (_Quit, KeyboardInterrupt, EOFError):
        print()
        _write_save(save_path, game, st, seats, seed, args.lang)
        print(text.msg("cli-saved", {"file": str(save_path)}))
        return 0
    except GrimoireError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    res = st.result or {}
    sides = ", ".join(text.msg("side-" + s, default=s) for s in res.get("sides", [])) or text.msg(
        "nobody", default="nobody")
    players = ", ".join(text.player(st, w) for w in res.get("winners", []))
    winners = text.msg("winners", {"sides": sides}, default="winners: " + sides) + (
        f" ({players})" if players else "")
    summary = text.msg("cli-summary", {"reason": text.msg("end-" + res.get("reason", ""),
                                                          default=res.get("reason", "")).rstrip("."),
                                       "winners": winners, "decisions": len(st.history), "turns": st.turn})
    print(summary)
    if args.log:
        write_atomic(args.log, "\n".join(log_lines + [summary]) + "\n")
    if args.save:
        _write_save(args.save, game, st, seats, seed, args.lang)
    return 0


def _ask_human(st, p, text):
    from ..engine.views import view
    v = view(st, p)
    print()
    print(f"[{text.player(st, p)}] " + _describe_view(st, p, v, text))
    opts = st.options()
    pend = st.pending
    print(text.prompt(st, pend))
    for i, o in enumerate(opts, 1):
        print(f"  {i:2d}. {text.option(st, o)}  [{o.id}]")
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise _Quit() from None
        if raw in ("q", "quit", "save"):
            raise _Quit()
        if raw.isdigit() and 1 <= int(raw) <= len(opts):
            return opts[int(raw) - 1].id
        if any(o.id == raw for o in opts):
            return raw
        print(text.msg("cli-ask-number", {"n": len(opts)}))


def _describe_view(st, p, v, text) -> str:
    g = st.g
    parts = []
    me_id = v["you"]
    for key, cards in v["zones"].items():
        if key.endswith("@" + me_id) and cards:
            zname = key.split("@")[0]
            names = [text.card_name(g.prog.card_index[c]) if c else "?" for c in cards]
            parts.append(f"{text.msg('zone-' + zname, default=zname)}: {', '.join(names)}")
    ctrs = [f"{text.msg('counter-' + k.split('@')[0], default=k.split('@')[0])} {val}"
            for k, val in v["counters"].items() if k.endswith("@" + me_id) or "@" not in k]
    if ctrs:
        parts.append("; ".join(ctrs))
    if st.at[p] is not None:
        parts.append(f"@ {text.value(st, st.at[p], 'loc')}")
    return " | ".join(parts)


def _write_save(path, game, st, seats, seed, lang) -> None:
    data = {"format": "grimoire-save", "version": 1, "ruleset": game.ruleset.id,
            "ruleset_path": str(game.path), "ruleset_hash": game.ruleset.hash,
            "variants": list(game.variants), "seed": seed, "players": st.n, "seats": seats, "lang": lang,
            "decisions": list(st.history), "state": st.to_json()}
    write_atomic(path, json.dumps(data, ensure_ascii=False))


def _read_save(path) -> dict:
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RulesetError(Problem(Loc(str(path), 0, 0), f"cannot read the save file: {e.strerror}")) from None
    except UnicodeDecodeError:
        raise RulesetError(Problem(Loc(str(path), 1, 1), "the save file is not UTF-8 text")) from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise RulesetError(Problem(Loc(str(path), e.lineno, e.colno),
                                   f"the save file is not valid JSON: {e.msg}")) from None
    if not isinstance(data, dict) or data.get("format") != "grimoire-save" or "state" not in data:
        raise RulesetError(Problem(Loc(str(path), 1, 1), "not a Grimoire save file"))
    return data
