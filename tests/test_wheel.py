"""The built wheel works like a package: built from the checkout, installed (not editable) into
a folder of its own and run from a directory outside the checkout, it validates, plays and
simulates every shipped ruleset with the schemas and rulesets it carries, reading nothing from
the source tree, and runs its hot modules compiled (interpreter/runtime/native.py). (This was
.ci/wheel-smoke; it is part of the README's test command now.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(cmd, cwd, env, timeout=600):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def test_the_wheel_runs_every_shipped_ruleset_outside_the_checkout(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp_path / "dist", ROOT],
         tmp_path, env)
    wheel, = (tmp_path / "dist").glob("grimoire-*.whl")
    site = tmp_path / "site"
    # the dependencies are this environment's; the package itself only from the wheel
    _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", site, wheel], tmp_path, env)
    env["PYTHONPATH"] = str(site)       # ahead of the editable install of the checkout
    work = tmp_path / "elsewhere"
    work.mkdir()
    out = _run([sys.executable, "-c", "import json, interpreter\n"
                "from interpreter.game import RULESETS\nfrom interpreter.frontend.validate import SCHEMA_DIR\n"
                "from interpreter.runtime import native\n"
                "print(json.dumps([interpreter.__file__, str(RULESETS), str(SCHEMA_DIR),"
                " sorted(d.name for d in RULESETS.iterdir() if (d / 'ruleset.yaml').is_file()),"
                " native.status()]))"], work, env)
    module, rulesets, schemas, names, native = json.loads(out)
    # the wheel carries the compiled hot modules and the manifest they load by (setup.py)
    assert native and set(native.values()) == {"compiled"}, native
    for p in (module, rulesets, schemas):
        assert Path(p).is_relative_to(site), f"{p} is not inside the installed package"
    assert {"high_tide", "shadows_over_camelot", "castle_of_the_devil"} <= set(names)
    grimoire = [sys.executable, "-c", "import sys; from interpreter.cli import main; sys.exit(main())"]
    for name in names:
        _run(grimoire + ["validate", name], work, env)
        played = _run(grimoire + ["play", name, "--seed", "1", "--quiet"], work, env)
        assert played.strip(), f"play {name} printed nothing"
        _run(grimoire + ["simulate", name, "--games", "4", "--jobs", "2", "--out", f"sim-{name}", "--quiet"], work, env)
        games = json.loads((work / f"sim-{name}" / "results.json").read_text())["games"]
        assert sum(len(g) for g in games.values()) == 4, f"simulate {name} lost games"
