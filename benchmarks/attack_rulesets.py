"""Run the broken-ruleset corpus (tests/broken/) as a user would and count the outcomes
(the figures of issue 14's closing note): validate, then, if it passes, a game of bots.

Run: python benchmarks/attack_rulesets.py [--interpreter DIR] [--seconds S]

With `--interpreter DIR` the interpreter package is imported from DIR (a checkout of another
version), so two versions meet the same cases. Categories:
  silent      validate and play both passed: the mistake went unnoticed
  warned      both passed, with a located warning (where the docs allow the mistake)
  traceback   a Python exception escaped the command
  hang        a command ran longer than --seconds
  python      a non-zero exit whose message is Python's (TypeError, NoneType, ...)
  located     a non-zero exit with a file:line:col message in the ruleset's terms
  unlocated   a non-zero exit with a message naming no place
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Hang(Exception):
    pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--interpreter", help="import the interpreter package from this checkout")
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    sys.path.insert(0, args.interpreter or str(ROOT))
    from interpreter import cli

    def run(argv) -> tuple[str, int, str]:
        out = io.StringIO()

        def alarm(signum, frame):
            raise Hang

        signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, args.seconds)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = cli.main(argv)
        except Hang:
            return "hang", -1, out.getvalue()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 2
        except Exception:  # noqa: BLE001 - what we count
            return "traceback", -1, out.getvalue()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return "ok", code, out.getvalue()

    t0 = time.process_time()
    counts: collections.Counter = collections.Counter()
    rows = []
    here = os.getcwd()
    for case in sorted(p for p in (ROOT / "tests" / "broken").iterdir() if p.is_dir()):
        work = Path(tempfile.mkdtemp()) / case.name
        shutil.copytree(case, work, symlinks=True)
        os.chdir(work)
        variant = ["--variant", "variant.yaml"] if (work / "variant.yaml").exists() else []
        extra = (work / "args").read_text().split() if (work / "args").exists() else []
        verdict = "silent"
        for argv in (["validate", ".", *variant, *extra], ["play", ".", *variant, "--quiet", "--seed", "1"]):
            how, code, text = run(argv)
            if how != "ok":
                verdict = how
                break
            if code != 0:
                verdict = "located" if re.search(r"\S+:\d+:\d+: ", text) else "unlocated"
                if re.search(r"\b(TypeError|NoneType|RuntimeError|IndexError|KeyError|ValueError)\b", text):
                    verdict = "python"
                break
            if ": warning: " in text and verdict == "silent":
                verdict = "warned"
        os.chdir(here)
        counts[verdict] += 1
        rows.append((case.name, verdict))
    print(f"interpreter: {args.interpreter or ROOT}")
    for name, verdict in rows:
        if verdict != "located":
            print(f"  {verdict:10s} {name}")
    kinds = ("silent", "traceback", "hang", "python", "unlocated", "warned", "located")
    print(f"{sum(counts.values())} cases: " + ", ".join(f"{k} {counts[k]}" for k in kinds))
    print(f"CPU {time.process_time() - t0:.1f} s")


if __name__ == "__main__":
    main()
