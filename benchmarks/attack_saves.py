"""Attack the save loader: real mid-game saves of every ruleset, damaged, loaded as `play
--load` does; count what happens (the figures of issue 14's closing note).

Run: python benchmarks/attack_saves.py [--mutants N] [--interpreter DIR]

With `--interpreter DIR` the interpreter package is imported from DIR (a checkout of another
version, e.g. `git worktree add /tmp/old main`), while the saves and mutations come from this
repository's tests/savefuzz.py, so two versions meet the same attacks. Categories:
  traceback     loading raised something other than a located RulesetError
  lie           a game other than the one saved was loaded (a damaged or impossible state)
  quoted        refused, but the message printed lines of the save file
  refused       refused in located lines that do not quote the file
  same          loaded the very game that was saved (a harmless edit)
With --cli, a loaded mutant is also played to its end by `grimoire play --load` (random bots),
and a traceback there counts as a traceback (the issue counted tracebacks this way).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERBOSE = False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mutants", type=int, default=40, help="random mutants per save")
    ap.add_argument("--interpreter", help="import the interpreter package from this checkout")
    ap.add_argument("--cli", action="store_true", help="also run `grimoire play --load` on each loaded "
                    "mutant to the end (random bots), counting tracebacks there")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, args.interpreter or str(ROOT))
    import savefuzz

    import interpreter
    from interpreter.errors import RulesetError, format_problems
    from interpreter.game import RULESETS, load
    if (Path(interpreter.__file__).parent / "saves.py").is_file():
        from interpreter.saves import read_save, save_text
    else:  # an older version: the CLI's own reader and writer
        from interpreter import cli

        def save_text(game, st, seats, lang):
            path = Path(tempfile.mkdtemp()) / "s.json"
            cli._write_save(path, game, st, seats, st.seed, lang)
            return path.read_text(encoding="utf-8")

        def read_save(path, load=load):
            data = cli._read_save(path)
            game = load(data["ruleset_path"] if Path(data.get("ruleset_path", "")).is_dir()
                        else data["ruleset"], data.get("variants") or [])
            return type("Loaded", (), {"game": game, "state": game.state_from_json(data["state"], str(path))})

    games = {}

    def cached(src, variants=()):
        key = (str(src), tuple(variants))
        if key not in games:
            games[key] = load(src, list(variants))
        return games[key]

    def outcome(raw: bytes, original: dict, text: str) -> str:
        f = Path(tempfile.mkdtemp()) / "game.save.json"
        f.write_bytes(raw)
        try:
            loaded = read_save(f, cached)
        except RulesetError as e:
            shown = format_problems(e.problems)
            lines = [ln.strip() for ln in text.splitlines() if len(ln.strip()) > 8]
            return "quoted" if any(ln in shown for ln in lines) or len(shown) > 2000 else "refused"
        except Exception:  # noqa: BLE001 - what we count
            if VERBOSE:
                traceback.print_exc()
            return "traceback"
        got = json.loads(json.dumps(loaded.state.to_json()))
        verdict = "same" if got == original else "lie"
        if args.cli:  # as a user would: play the loaded game on to its end
            import contextlib
            import io

            from interpreter import cli
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    cli.main(["play", "--load", str(f), "--quiet"])
            except Exception:  # noqa: BLE001 - what we count
                return "traceback"
        return verdict

    t0 = time.process_time()
    rng = random.Random(2026)
    totals: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    named: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for name, n in (("high_tide", 2), ("shadows_over_camelot", 4), ("castle_of_the_devil", 5)):
        game = cached(RULESETS / name)
        for st in savefuzz.mid_game_states(game, n, seed=11):
            text = save_text(game, st, ["random"] * n, "en")
            original = json.loads(json.dumps(st.to_json()))
            for what, doc in savefuzz.named_attacks(json.loads(text), st.g).items():
                named[what][outcome(json.dumps(doc).encode(), original, text)] += 1
            for _, raw in savefuzz.random_mutants(text, rng, args.mutants):
                totals[name][outcome(raw, original, text)] += 1
    cats = ["traceback", "lie", "quoted", "refused", "same"]
    print(f"interpreter: {args.interpreter or ROOT}")
    print(f"{'random mutants':40s} " + " ".join(f"{c:>9s}" for c in cats))
    for name, c in totals.items():
        print(f"{name:40s} " + " ".join(f"{c[k]:9d}" for k in cats))
    allc = sum(totals.values(), collections.Counter())
    print(f"{'all (' + str(sum(allc.values())) + ')':40s} " + " ".join(f"{allc[k]:9d}" for k in cats))
    print(f"\n{'named attacks (every save of every ruleset)':40s}")
    for what, c in named.items():
        print(f"  {what:46s} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    print(f"\nCPU {time.process_time() - t0:.1f} s")


if __name__ == "__main__":
    main()
