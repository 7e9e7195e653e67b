"""Attack the doors of issue 25 from the command line, as a user (or a file a user was sent)
would: saves that name code, effects nested past any stack, numbers that never end, and a few
files that used to give tracebacks; count what happens.

Run: python benchmarks/attack_doors.py [--interpreter DIR] [--classes saves,effects,...]
     [--seconds S] [--memory-mb M] [--json OUT]

Every case is one `grimoire` command in a fresh process (cwd: a new temporary folder), with
the interpreter imported from DIR (default: this checkout), under a CPU limit of S seconds.
Verdicts:
  clean      a refusal whose first line is located (`file:line:col: ...` or `error: FILE: ...`),
             or, for the control cases that must work, exit 0
  traceback  a Python traceback was printed
  hang       the CPU limit (or 3x it in wall time) was reached
  memory     the process grew past M MB (peak resident set)
  imported   a module named by a data file was imported (its marker file appeared, or the Zen
             of Python was printed)
  unlocated  refused (or succeeded where it should refuse) without a located first line
bad = every verdict but clean.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HIGH_TIDE = ROOT / "rulesets" / "high_tide"
MARKER = "IMPORTED_BY_DATA"
PLUGIN = f"import pathlib\npathlib.Path({MARKER!r}).write_text('x')\n" \
         "class Bot:\n    def __init__(self, seed, game): pass\n    def choose(self, seat):\n" \
         "        return seat.options[0].id\n"
LOCATED = re.compile(r"^(\S+:\d+:\d+: |error: \S+: )")


def _ruleset(work: Path, edit=None, name="rs") -> Path:
    dst = work / name
    while dst.exists():
        dst = dst.with_name(dst.name + "_")
    shutil.copytree(HIGH_TIDE, dst, ignore=shutil.ignore_patterns("scenarios"))
    if edit:
        p = dst / "ruleset.yaml"
        p.write_text(edit(p.read_text(encoding="utf-8")), encoding="utf-8")
    return dst


def _setup_effect(expr: str):
    return lambda s: s.replace("setup: |\n  shuffle(deck)\n", f"setup: |\n  if {expr}:\n    pass\n  shuffle(deck)\n")


def _save(work: Path, run, **changes) -> Path:
    """A mid-game save of high_tide (4 decisions, no snapshot) with `changes` to its keys."""
    base = work / "base.save.json"
    if not base.exists():
        run(["play", "high_tide", "--players", "2", "--seats", "random", "--seed", "3", "--quiet",
             "--save", str(base)], work)
    data = json.loads(base.read_text(encoding="utf-8"))
    data["decisions"] = data["decisions"][:4]
    data.pop("state", None)
    data.update(changes)
    out = work / f"s{len(list(work.glob('s*.json')))}.json"
    out.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return out


def cases(cls: str, work: Path, run):
    """(name, argv, expect) of one class; expect is 'refuse' or 'ok'. Files go in `work`."""
    (work / "doormark.py").write_text(PLUGIN, encoding="utf-8")
    if cls == "saves":
        for seat in ("doormark:Bot", "this:Bot", "doormark:Missing", "os.path:join", "HUMAN"):
            s = _save(work, run, seats=[seat, "random"])
            yield f"play --load, seat {seat}", ["play", "--load", str(s), "--quiet"], "refuse"
            yield f"serve --load, seat {seat}", ["serve", "--load", str(s), "--port", "0"], "refuse"
        s = _save(work, run, seats=["random", "random"])
        yield "control: play --load, built-in seats", ["play", "--load", str(s), "--quiet"], "ok"
        yield "control: plug-in seat from the command line", ["play", "--load", str(s), "--quiet", "--seats",
                                                              "random,doormark:Bot", "--save", "p.json"], "ok:import"
        yield "control: that save loads, importing nothing", ["play", "--load", "p.json", "--quiet"], "ok"
    elif cls == "effects":
        for label, text in (("5,000 nested parentheses", "(" * 5000 + "1" + ")" * 5000 + " == 1"),
                            ("100,000 chained +", "+".join(["1"] * 100000) + " == 1"),
                            ("20,000 not", "not " * 20000 + "true"),
                            ("3,000 nested calls", "abs(" * 3000 + "1" + ")" * 3000 + " == 1"),
                            ("5,000 nested lists", "size(" + "[" * 5000 + "]" * 5000 + ") == 1"),
                            ("20,000 attributes", "top(deck)" + ".value" * 20000 + " == 1"),
                            ("5,000 negations", "-" * 5000 + "1 == 1"),
                            ("3,000 conditional expressions", "1 if true else " * 3000 + "1 == 1")):
            yield f"validate: {label}", ["validate", str(_ruleset(work, _setup_effect(text), f"e{len(label)}"))], \
                "refuse"
        ifs = "".join("  " * i + "if true:\n" for i in range(500)) + "  " * 500 + "pass\n"
        rs = _ruleset(work, lambda s: s.replace("setup: |\n  shuffle(deck)\n", "setup: |\n" + "".join(
            "  " + ln + "\n" for ln in ifs.splitlines()) + "  shuffle(deck)\n"), "ifs")
        yield "validate: 500 nested if blocks", ["validate", str(rs)], "refuse"
        rs = _ruleset(work, _setup_effect("abs(" * 90 + "1" + ")" * 90 + " + 1 == 1"), "deep_ok")
        yield "control: 90 nested calls validate", ["validate", str(rs)], "ok"
        yield "control: ... and play", ["play", str(rs), "--quiet"], "ok"
    elif cls == "numbers":
        for label, edit in (
                ("players max 100000000000", lambda s: s.replace("max: 4}", "max: 100000000000}")),
                ("players min 100000000000", lambda s: s.replace("{min: 2, max: 4}", "{min: 100000000000, max: 4}")),
                ("card count 100000000", lambda s: s.replace("count: 6,", "count: 100000000,")),
                ("12 cards of 10,000 copies", lambda s: s.replace("cards:\n", "cards:\n" + "".join(
                    f"  extra_{i}: {{set: shells, count: 10000, props: {{value: 1}}}}\n" for i in range(12))))):
            yield f"validate: {label}", ["validate", str(_ruleset(work, edit, f"n{len(label)}"))], "refuse"
        rs = _ruleset(work, lambda s: s.replace("max: 4}", "max: 62}"), "n62")
        yield "control: 62 players validate", ["validate", str(rs)], "ok"
    elif cls == "files":
        rs = _ruleset(work, lambda s: s + "\ninclude: [a.yaml]\n", "loop")
        os.symlink("b.yaml", rs / "a.yaml")
        os.symlink("a.yaml", rs / "b.yaml")
        yield "validate: include symlink loop", ["validate", str(rs)], "refuse"
        rs = _ruleset(work, None, "mainloop")
        (rs / "ruleset.yaml").unlink()
        os.symlink("ruleset.yaml", rs / "ruleset.yaml")
        yield "validate: ruleset.yaml a symlink to itself", ["validate", str(rs)], "refuse"
        po = work / "export"
        run(["i18n", "export", "high_tide", "--lang", "pl", "--format", "po", "--out", str(po)], work)
        text = next(po.rglob("*.po")).read_text(encoding="utf-8")
        body = text[text.index("\n\n") + 2:]
        (work / "big.po").write_text(text + body * (44_000_000 // len(body)), encoding="utf-8")
        yield "i18n import of a 44 MB PO", ["i18n", "import", "high_tide", "big.po", "--lang", "pl"], "refuse"
        for label, change in (("seed 2.0", {"seed": 2.0}), ("players 2.0", {"players": 2.0}),
                              ("seed 1e300", {"seed": 1e300})):
            s = _save(work, run, **change)
            yield f"play --load: {label}", ["play", "--load", str(s), "--quiet"], "refuse"
        (work / "afile").write_text("x")
        yield "render --out under a file", ["render", "high_tide", "--lang", "en", "--out", "afile/sub"], "refuse"
        yield "control: render --out into a missing folder", ["render", "high_tide", "--lang", "en", "--out",
                                                             "new/deep/dir"], "ok"
        big = _save(work, run)
        data = json.loads(big.read_text(encoding="utf-8"))
        data["decisions"] = data["decisions"] + ["draw_card"] * 9_000_000
        (work / "big.save.json").write_text(json.dumps(data), encoding="utf-8")
        yield "play --load of a 118 MB save", ["play", "--load", "big.save.json", "--quiet"], "refuse"
        blob = _save(work, run)
        data = json.loads(blob.read_text(encoding="utf-8"))
        data["lang"] = "x" * 30_000_000
        (work / "blob.save.json").write_text(json.dumps(data), encoding="utf-8")
        yield "play --load of a save with a 30 MB string", ["play", "--load", "blob.save.json", "--quiet"], "refuse"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--interpreter", help="import the interpreter package from this checkout")
    ap.add_argument("--classes", default="saves,effects,numbers,files")
    ap.add_argument("--seconds", type=float, default=20.0, help="CPU limit of one command")
    ap.add_argument("--memory-mb", type=int, default=1000, help="peak resident memory counted as bad")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("-v", action="store_true", help="print each case's first output line")
    args = ap.parse_args()
    interp = str(Path(args.interpreter or ROOT).resolve())
    boot = ("import sys; sys.path.insert(0, sys.argv.pop(1)); from interpreter.cli import main; "
            "sys.exit(main(sys.argv[1:]))")

    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (int(args.seconds), int(args.seconds) + 2))
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # the machine is shared
        os.setsid()

    def run(argv, cwd: Path):
        """(exit code, output, CPU seconds, peak MB) of one command, its own figures (wait4)."""
        env = dict(os.environ, PYTHONPATH=interp, CI="true")
        p = subprocess.Popen([sys.executable, "-c", boot, interp, *argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=limits)
        timer = threading.Timer(3 * args.seconds, lambda: os.killpg(p.pid, signal.SIGKILL))
        timer.start()
        out = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait again
        try:
            os.killpg(p.pid, signal.SIGKILL)  # anything the command left running (a server's threads)
        except ProcessLookupError:
            pass
        return p.returncode, out.decode("utf-8", "replace"), ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024

    rows, t_start = [], time.process_time()
    for cls in args.classes.split(","):
        work = Path(tempfile.mkdtemp(prefix=f"attack-{cls}-"))
        for name, argv, expect in cases(cls, work, run):
            (work / MARKER).unlink(missing_ok=True)
            code, out, cpu, rss_mb = run(argv, work)
            imported = (work / MARKER).exists() or "Beautiful is better than ugly" in out
            first = next((ln for ln in out.splitlines() if ln.strip()), "")
            if code in (-signal.SIGXCPU, -signal.SIGKILL) or cpu >= args.seconds - 0.5:
                verdict = "hang"
            elif imported and expect != "ok:import":
                verdict = "imported"
            elif "Traceback (most recent call last)" in out:
                verdict = "traceback"
            elif rss_mb > args.memory_mb:
                verdict = "memory"
            elif expect.startswith("ok"):
                verdict = "clean" if code == 0 and (imported or expect == "ok") else "unlocated"
            else:
                verdict = "clean" if code not in (0, None) and LOCATED.match(first) else "unlocated"
            rows.append({"class": cls, "case": name, "verdict": verdict, "exit": code, "cpu_s": round(cpu, 2),
                         "peak_mb": round(rss_mb),
                         "first_line": first[:200]})
            if args.v or verdict != "clean":
                print(f"  {verdict:9s} {cls:8s} {name}: cpu {cpu:.1f} s, {rss_mb:.0f} MB, exit {code}: {first[:100]}")
        shutil.rmtree(work, ignore_errors=True)
    print(f"interpreter: {interp}")
    kinds = ("traceback", "hang", "memory", "imported", "unlocated")
    print(f"{'class':10s} {'tried':>5s} {'clean':>5s} {'bad':>5s}   " + " ".join(f"{k:>9s}" for k in kinds))
    for cls in args.classes.split(","):
        mine = [r for r in rows if r["class"] == cls]
        bad = [r for r in mine if r["verdict"] != "clean"]
        print(f"{cls:10s} {len(mine):5d} {len(mine) - len(bad):5d} {len(bad):5d}   "
              + " ".join(f"{sum(r['verdict'] == k for r in mine):9d}" for k in kinds))
    print(f"CPU of this process {time.process_time() - t_start:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
