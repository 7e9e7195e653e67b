"""The whole pipeline in one call: `load(path)` -> Game; `game.new_game(seed, players)` -> State.

load -> (overlay variants) -> validate -> build -> compile, each stage reporting every
problem it finds, located; the first stage with problems ends the load with a RulesetError
holding all of them.
"""

from __future__ import annotations

import time
from pathlib import Path

from .engine.persist import state_from_json
from .engine.state import State
from .engine.table import Table
from .errors import Collector, Loc, Problem, RulesetError
from .files import shipped_data
from .frontend.includes import load_ruleset_files
from .frontend.model import Ruleset, build_ruleset
from .frontend.validate import validate_ruleset_docs
from .program import Program
from .tabletop.spec import table_problems
from .variants.blame import headlines
from .variants.overlay import apply_variants, load_variant

RULESETS = shipped_data("rulesets")


def resolve_ruleset(name_or_path: str | Path) -> Path:
    """A path to a ruleset directory, or the name of a shipped ruleset."""
    p = Path(name_or_path)
    if (p / "ruleset.yaml").is_file():
        return p
    if p.name == "ruleset.yaml" and p.is_file():
        return p.parent
    shipped = RULESETS / str(name_or_path)
    if (shipped / "ruleset.yaml").is_file():
        return shipped
    names = sorted(d.name for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file()) if RULESETS.is_dir() else []
    raise RulesetError(Problem(Loc(str(name_or_path), 0, 0),
                               f"no ruleset here and no shipped ruleset of that name "
                               f"(shipped: {', '.join(names) or 'none'})"))


class Game:
    """A compiled ruleset, ready to start games."""

    def __init__(self, ruleset: Ruleset, program: Program, path: Path, variants: list[str],
                 timings: dict):
        self.ruleset = ruleset
        self.program = program
        self.path = path
        self.variants = variants
        self.timings = timings
        self.warnings: list[Problem] = []  # well-formed mistakes the docs allow (validate --strict)
        self._tables: dict[int, Table] = {}

    def table(self, n: int) -> Table:
        """The layout of an n-player game (built once per player count)."""
        t = self._tables.get(n)
        if t is None:
            t = self._tables[n] = Table(self.program, n)
        return t

    def new_game(self, seed: int = 0, players: int | None = None, names: list[str] | None = None,
                 record: bool = True) -> State:
        """Start a game: run the setup up to the first decision."""
        rs = self.ruleset
        n = players if players is not None else rs.min_players
        if not rs.min_players <= n <= rs.max_players:
            raise RulesetError(Problem(Loc(str(self.path), 0, 0),
                                       f"{rs.id} is for {rs.min_players} to {rs.max_players} players, not {n}"))
        kinds = None
        if names:
            kinds = []
            for nm in names:
                if nm is None:
                    kinds.append(None)
                    continue
                if nm not in self.program.card_index:
                    raise RulesetError(Problem(Loc(str(self.path), 0, 0), f"unknown player name {nm!r}"))
                kinds.append(self.program.card_index[nm])
        return State.new(self.table(n), seed, kinds, record)

    def state_from_json(self, data, file: str = "<save>") -> State:
        return state_from_json(self, data, file)


def load(path: str | Path, variants: list | None = None) -> Game:
    """Load, validate and compile a ruleset (with variant files applied in order)."""
    t0 = time.perf_counter()
    root = resolve_ruleset(path)
    docs = load_ruleset_files(root)
    t1 = time.perf_counter()
    errs = Collector()
    variant_docs = []
    for v in variants or []:
        try:
            variant_docs.append(load_variant(v, root))
        except RulesetError as e:
            errs.extend(e.problems)
    schema = validate_ruleset_docs(docs)
    errs.extend(schema)
    if schema:  # the effect errors too, where the documents can still be compiled
        from .program.recovery import effect_problems
        errs.extend(effect_problems(docs, str(root), schema))
    errs.raise_if_any()
    t2 = time.perf_counter()
    rs, problems = build_ruleset(docs, str(root))
    errs.extend(problems)
    errs.raise_if_any()
    if variant_docs:
        errs.extend(apply_variants(rs, variant_docs))
        errs.raise_if_any()
    prog = Program(rs)
    errs.extend(prog.compile())
    _check_start_zones(prog, errs)
    errs.extend(table_problems(prog))
    errs.problems[:0] = headlines(errs.problems, variant_docs, root)
    errs.raise_if_any()
    from .program.lint import lint_problems
    lint = lint_problems(prog)
    errs.extend([p for p in lint if p.severity != "warning"])
    errs.problems[:0] = headlines(errs.problems, variant_docs, root)
    errs.raise_if_any()
    t3 = time.perf_counter()
    game = Game(rs, prog, root, [str(v) for v in variants or []],
                {"load": t1 - t0, "validate": t2 - t1, "compile": t3 - t2, "total": t3 - t0})
    game.warnings = [p for p in lint if p.severity == "warning"]  # validate shows them
    return game


def compile_problems(docs, root: str = "") -> list[Problem]:
    """Build and compile already-validated documents; return every problem found."""
    rs, problems = build_ruleset(docs, root)
    if problems:
        return problems
    prog = Program(rs)
    errs = Collector()
    errs.extend(prog.compile())
    _check_start_zones(prog, errs)
    errs.extend(table_problems(prog))
    return errs.problems


def _check_start_zones(prog: Program, errs: Collector) -> None:
    holders: dict[str, str] = {}
    for zd in prog.zone_defs.values():
        for s in zd.item.get("holds") or []:
            if zd.per != "none":
                errs.add(zd.item.loc("holds"), f"only a global zone can hold cards at the start; "
                         f"{zd.name!r} is per {zd.per}")
            holders.setdefault(str(s), zd.name)
    for k, cid in enumerate(prog.card_ids):
        s = prog.kind_sets[k]
        if s not in holders:
            item = prog.rs.cards[cid]
            errs.add(item.key_loc(), f"no zone holds card set {s!r} at the start: add "
                     f"`holds: [{s}]` to the zone where these cards begin")
            holders[s] = "?"
