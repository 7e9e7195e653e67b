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

from ..errors import Loc, Problem, RulesetError

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "effect-language.md"
_SECTION_KIND = {"zones": "zone", "counters": "counter", "params": "param", "cards": "card",
                 "locations": "location", "procedures": "procedure", "actions": "action"}


def ruleset_root(path: Path) -> Path | None:
    """The ruleset folder a file belongs to (the nearest folder with ruleset.yaml)."""
    for parent in [path.parent, *path.parents]:
        if (parent / "ruleset.yaml").is_file():
            return parent
    return None


def _copy(root: Path, buffers: dict[Path, str], into: Path) -> Path:
    """The ruleset folder copied into `into`, with the editor's unsaved text in place."""
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


def check(file: Path, buffers: dict[Path, str]):
    """Problems of the ruleset `file` belongs to, as `validate` finds them (with the variant or
    scenario `file` is, applied or compiled); and its Names when it compiled."""
    from ..game import load
    root = ruleset_root(file)
    if root is None:
        return [], None
    rel = file.resolve().relative_to(root.resolve())
    with tempfile.TemporaryDirectory(prefix="grimoire-lsp-") as tmp:
        copy = _copy(root, buffers, Path(tmp))
        here = copy / rel
        game, problems = None, []
        try:
            if rel.parts[0] == "variants":
                game = load(copy, [str(here)])
            elif rel.parts[0] == "scenarios" and "fixtures" not in rel.parts:
                from ..scenario import position
                game = position(here).game
            else:
                game = load(copy)
                if rel.parts[0] == "locales":
                    from ..load import load_yaml
                    from ..validate import validate_doc
                    problems = validate_doc(load_yaml(here), "locale")
        except RulesetError as e:
            problems = list(e.problems)
        prefix, real = str(copy), str(root)

        def back(loc: Loc) -> Loc:  # the copy's paths are the real files' paths
            return Loc(loc.file.replace(prefix, real, 1), loc.line, loc.col)

        out = [Problem(back(p.loc), p.message, p.path) for p in problems]
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
