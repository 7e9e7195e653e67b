"""What the language server knows about a ruleset: its problems, its names and where they are.

Pipeline position: a command-level user of stages 1-6 (load -> validate -> model -> overlay ->
program). `check` runs exactly the pipeline `grimoire validate` runs, on a copy of the ruleset
folder holding the editor's unsaved text, so the diagnostics are the same located errors,
effect code included. `Names` is built from the last ruleset that compiled: every zone,
counter, param, card, location, procedure and action with where it is defined, and every
built-in with its signature and its line of `docs/effect-language.md`.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import GrimoireError, Loc, Problem, RulesetError

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "effect-language.md"
_SECTION_KIND = {"zones": "zone", "counters": "counter", "params": "param", "cards": "card",
                 "locations": "location", "procedures": "procedure", "actions": "action"}


def ruleset_root(path: Path) -> Path | None:
    """The ruleset folder a file belongs to (the nearest folder with ruleset.yaml)."""
    for parent in [path.parent, *path.parents]:
        if (parent / "ruleset.yaml").is_file():
            return parent
    return None


_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.MULTILINE)
_SCENARIO_KEYS = {"setup", "given", "when", "expect", "expect_error", "fixtures"}


def _top_keys(text: str) -> set[str]:
    return set(_TOP_KEY.findall(text or ""))


def _base_root(file: Path, name: str | None) -> Path | None:
    """The ruleset a file outside any ruleset folder names (`base:` of a variant, `ruleset:` of a
    scenario): a folder next to the file, or a shipped ruleset's name."""
    from ..game import resolve_ruleset
    if not name:
        return None
    near = file.parent / name
    if (near / "ruleset.yaml").is_file():
        return near
    try:
        return resolve_ruleset(name).resolve()
    except RulesetError:
        return None


def target(file: Path, text: str | None) -> tuple[str, Path] | None:
    """What a YAML file is to the server, and the ruleset folder it is checked against:
    ("ruleset" | "variant" | "scenario" | "fixture" | "locale", root), or None for a file no
    ruleset reads. In a ruleset folder its place says it (variants/, scenarios/, locales/);
    anywhere else (a house_rules/ folder) its keys do: a variant has `variant:` and `base:`, a
    scenario `ruleset:` and a setup, given, when or expect."""
    if file.suffix not in (".yaml", ".yml"):
        return None
    root = ruleset_root(file)
    if root is not None:
        rel = file.resolve().relative_to(root.resolve())
        first = rel.parts[0] if len(rel.parts) > 1 else ""
        if first == "scenarios":
            return ("fixture" if "fixtures" in rel.parts else "scenario"), root
        return {"variants": "variant", "locales": "locale"}.get(first, "ruleset"), root
    if text is None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    keys = _top_keys(text)
    field = "base" if {"variant", "base"} <= keys else "ruleset" if "ruleset" in keys and keys & _SCENARIO_KEYS \
        else None
    if field is None:
        return None
    m = re.search(rf"^{field}\s*:\s*['\"]?([^'\"#\n]+?)['\"]?\s*(?:#.*)?$", text, re.MULTILINE)
    root = _base_root(file, m.group(1).strip() if m else None)
    return (("variant" if field == "base" else "scenario"), root) if root is not None else None


def _copy(root: Path, buffers: dict[Path, str], into: Path) -> Path:
    """The folder `root` copied into `into`, with the editor's unsaved text in place."""
    dst = into / root.name
    shutil.copytree(root, dst, ignore=shutil.ignore_patterns(".*", "__pycache__", "*.png", "*.svg"))
    for path, text in buffers.items():
        try:
            rel = path.resolve().relative_to(root.resolve())
        except ValueError:
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        (dst / rel).write_text(text, encoding="utf-8")
    return dst


def _copy_folder(folder: Path, buffers: dict[Path, str], into: Path) -> Path:
    """The YAML files of one folder (a house_rules/ folder: not recursive) copied into `into`,
    with the editor's unsaved text in place."""
    dst = into / "here"
    dst.mkdir()
    for f in folder.glob("*.y*ml"):
        if f.is_file():
            shutil.copyfile(f, dst / f.name)
    for path, text in buffers.items():
        if path.resolve().parent == folder.resolve() and path.suffix in (".yaml", ".yml"):
            (dst / path.name).write_text(text, encoding="utf-8")
    return dst


def _scenario_problems(here: Path):
    """A scenario compiled and run: its located mistakes (RulesetError), then each failure of a
    `when` decision or an `expect` (a warning: the file is well formed, the rules disagree)."""
    from ..scenarios import run as scenario
    known = set(scenario._games)
    try:
        game = scenario.position(here).game
        out = scenario.run_scenario(here)
    finally:
        for key in set(scenario._games) - known:   # copies of the editor's text: not kept
            del scenario._games[key]
    problems = []
    for text in out.failures:
        m = re.match(r"^(.*?):(\d+):(\d+): (.*)$", text, re.DOTALL)
        loc, msg = (Loc(m.group(1), int(m.group(2)), int(m.group(3))), m.group(4)) if m else (Loc(str(here), 1, 1),
                                                                                               text)
        problems.append(Problem(loc, f"the scenario fails: {msg}", severity="warning"))
    return game, problems


def check(file: Path, buffers: dict[Path, str]):
    """Problems of the file as `validate` (a ruleset file, a variant applied to its ruleset),
    `test` (a scenario, compiled and run) and `i18n check` (a locale file) find them; and the
    Names of its ruleset when it compiled."""
    from ..game import load
    found = target(file, buffers.get(file))
    if found is None:
        return [], None
    kind, root = found
    inside = ruleset_root(file) is not None
    with tempfile.TemporaryDirectory(prefix="grimoire-lsp-") as tmp:
        copy = _copy(root, buffers, Path(tmp))
        here = copy / file.resolve().relative_to(root.resolve()) if inside else \
            _copy_folder(file.parent, buffers, Path(tmp)) / file.name
        game, problems = None, []
        try:
            if kind == "variant":
                game = load(copy, [str(here)])
            elif kind == "scenario":
                game, problems = _scenario_problems(here)
            else:
                game = load(copy)
                if kind == "locale":
                    from ..frontend.validate import validate_doc
                    from ..frontend.yaml_source import load_yaml
                    from ..i18n.check import check_locales
                    problems = validate_doc(load_yaml(here), "locale") or [
                        p for p in check_locales(copy, [here.stem], game.program, engine=False)
                        if Path(p.loc.file).resolve() == here.resolve()]
        except RulesetError as e:
            problems = list(e.problems)
        except GrimoireError as e:  # a scenario that cannot start, a file that cannot be read
            problems = [Problem(Loc(str(here), 1, 1), str(e))]
        pairs = [(str(copy), str(root))] + ([] if inside else [(str(here.parent), str(file.parent))])

        def back(loc: Loc) -> Loc:  # the copies' paths are the real files' paths
            for prefix, real in pairs:
                if loc.file.startswith(prefix):
                    return Loc(real + loc.file[len(prefix):], loc.line, loc.col)
            return loc

        out = [Problem(back(p.loc), p.message, p.path, p.severity) for p in problems]
        names = Names(game, back) if game is not None else None
    return out, names


@dataclass
class Name:
    """One name an author may write in effect code."""

    name: str
    kind: str        # zone, counter, param, card, location, procedure, action, built-in
    detail: str      # a signature or a one-line summary
    doc: str = ""    # markdown for hover
    loc: Loc | None = None


def _builtin_docs() -> dict[str, str]:
    """Each built-in's row of the effect language reference: name -> 'call — text'."""
    out: dict[str, str] = {}
    if not DOCS.is_file():
        return out
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*(`[^|]+`)\s*\|\s*(.+?)\s*\|\s*$", line)
        if not m:
            continue
        calls, text = m.groups()
        for name in re.findall(r"(?:^|[`,= ])([a-z_]+)\(", calls):
            out.setdefault(name, f"{calls} — {text}")
    return out


def _signature(b) -> str:
    """A built-in's signature as an author reads it: draw(z1: zone, z2: zone, n: int, facedown: bool = false)."""
    from ..effects.builtins import REQ
    args = []
    for n, t, d in b.params:
        if d is REQ:
            args.append(f"{n}: {t}")
        else:
            shown = "false" if d is False else "true" if d is True else "none" if d is None else repr(d)
            args.append(f"{n}: {t} = {shown}")
    ret = b.ret if isinstance(b.ret, str) else "any"
    return f"{b.name}({', '.join(args)}) -> {ret}"


class Names:
    """Every name of one compiled ruleset, for completion, hover and go to definition."""

    def __init__(self, game, where=lambda loc: loc):
        from ..effects.builtins import TABLE
        self.items: dict[str, Name] = {}
        rs = game.ruleset
        for sec, kind in _SECTION_KIND.items():
            for key, item in (getattr(rs, sec, None) or {}).items():
                label = item.path[-1] if sec == "procedures" and isinstance(item.path[-1], str) else key
                detail = f"{kind} {label}"
                if sec == "params":
                    detail += f" = {item.value}"
                elif isinstance(item.value, dict) and sec in ("zones", "counters"):
                    simple = [f"{k}: {v}" for k, v in item.value.items() if not isinstance(v, dict | list)]
                    detail += f" ({', '.join(simple)})"
                loc = where(item.doc.source.key(item.path))
                here = f"defined at {Path(loc.file).name}:{loc.line}"
                self.items[key] = Name(key, kind, detail, f"**{detail}**\n\n{here}", loc)
        docs = _builtin_docs()
        for name, b in TABLE.items():
            if name in self.items:
                continue
            sig = _signature(b)
            self.items[name] = Name(name, "built-in", sig, f"```\n{sig}\n```\n\n{docs.get(name, '')}".rstrip())

    def complete(self, prefix: str) -> list[Name]:
        """The names starting with `prefix`, built-ins last."""
        found = [n for k, n in self.items.items() if k.startswith(prefix)]
        return sorted(found, key=lambda n: (n.kind == "built-in", n.name))

    def get(self, name: str) -> Name | None:
        """The name, if the ruleset or the language has it."""
        return self.items.get(name)


def word_at(line: str, col: int) -> tuple[str, int, int]:
    """The identifier around 0-based column `col` of `line`: (word, start, end)."""
    start = col
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
        start -= 1
    end = col
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line[start:end], start, end
