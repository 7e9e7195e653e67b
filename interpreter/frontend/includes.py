"""Stage 1 of the pipeline, a ruleset directory: `ruleset.yaml` and the files its `include:` names.

`load_ruleset_files` returns one `Doc` per file, in include order, each read by
`yaml_source.load_yaml`; includes stay inside the ruleset's directory and are read once.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Collector, Loc, Problem, RulesetError
from .yaml_source import Doc, _resolved, load_yaml, require_mapping


def load_ruleset_files(root: str | Path) -> list[Doc]:
    """Load `ruleset.yaml` of a ruleset directory and every file it includes, in order."""
    root = Path(root)
    main = root / "ruleset.yaml"
    if _resolved(main) is None:
        raise RulesetError(Problem(Loc(str(main), 0, 0), "ruleset.yaml is a symlink loop"))
    if not main.is_file():
        raise RulesetError(Problem(Loc(_display(main), 0, 0),
                                   "no ruleset.yaml here: a ruleset is a directory with a "
                                   "ruleset.yaml"))
    errs = Collector()
    docs: list[Doc] = []
    _load_with_includes(main, root, docs, errs, stack=[], seen=set())
    errs.raise_if_any()
    return docs


def _load_with_includes(path: Path, root: Path, docs, errs: Collector, stack, seen) -> None:
    key = path.resolve()
    try:
        doc = load_yaml(path, display=_display(path))
    except RulesetError as e:
        errs.extend(e.problems)
        return
    seen.add(key)
    docs.append(doc)
    not_mapping = require_mapping(doc)
    if not_mapping:
        errs.extend(not_mapping)
        return
    incl = doc.data.get("include")
    if incl is None:
        return
    if not isinstance(incl, list):
        errs.add(doc.source.value(("include",)), "include must be a list of file paths")
        return
    for i, rel in enumerate(incl):
        loc = doc.source.value(("include", i))
        if not isinstance(rel, str):
            errs.add(loc, "include entries must be file paths (strings)")
            continue
        target = path.parent / rel
        rkey = _resolved(target)
        if rkey is None:
            errs.add(loc, f"included file {rel!r} is a symlink loop")
            continue
        if Path(rel).is_absolute() or not rkey.is_relative_to(root.resolve()):
            errs.add(loc, f"included file {rel!r} is outside the ruleset directory")
            continue
        if rkey in stack or rkey == key:
            chain = " -> ".join(_display(Path(s)) for s in stack + [key, rkey])
            errs.add(loc, f"circular include: {chain}")
            continue
        if rkey in seen:
            errs.add(loc, f"{rel!r} is included twice")
            continue
        if not target.is_file():
            errs.add(loc, f"included file {rel!r} not found")
            continue
        _load_with_includes(target, root, docs, errs, stack + [key], seen)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError, OSError):
        return str(path)
