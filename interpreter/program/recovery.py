"""Effect errors beside schema errors: compile what a schema-broken ruleset still allows.

Pipeline position: after validate (stage 3), only when it found problems. A schema error used
to hide every effect error until it was fixed, so an author fixed one kind of mistake per run.
Here the documents are built and compiled anyway, and the effect-code problems found are
reported beside the schema's, except where the schema already points (a broken value cannot
be judged further) and when the broken documents cannot be built at all (then only the
schema's problems are sure, and only they are said).
"""

from __future__ import annotations

from ..errors import Problem


def effect_problems(docs, root: str, schema_problems: list[Problem]) -> list[Problem]:
    """Effect-code problems of documents the schema found mistakes in; [] if they cannot be built."""
    from ..frontend.model import build_ruleset
    from . import Program
    try:
        rs, problems = build_ruleset(docs, root)
        if problems:
            return []
        found = Program(rs).compile()
    except Exception:  # noqa: BLE001 - a schema-broken document may break the builder: say only the schema's
        return []
    broken = {(p.loc.file, p.loc.line) for p in schema_problems}
    return [p for p in found if (p.loc.file, p.loc.line) not in broken]
