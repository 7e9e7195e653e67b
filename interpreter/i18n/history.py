"""The English each translation was stamped from, kept beside the locale files.

`FOLDER/history/en.yaml` (FOLDER: a ruleset's `locales/`, or the engine's `interpreter/messages/`)
maps a source hash (`pattern_hash`) to the English pattern it hashes. `grimoire i18n stamp`
and `import` add today's English to it, so when English changes later, `export --format po`
can show a stale entry's previous English (`#| msgid`) from the files alone, without a git
checkout (an installed package, a tarball). Git history is still searched for hashes stamped
before the file existed.

Pipeline position: beside the locale files; used by the i18n commands."""

from __future__ import annotations

from pathlib import Path

from ..files import write_atomic
from .fluent import pattern_hash

HEADER = ("# The English each translation was stamped from: source hash -> English pattern.\n"
          "# Written by `grimoire i18n stamp` and `import`; `export --format po` reads it for `#| msgid`.\n")
SCHEMA_LINE = "# yaml-language-server: $schema={}\n"


def _schema_line(path: Path) -> str:
    """The editor's schema line: a path from the file to schemas/locale-history.schema.json."""
    import os

    from ..frontend.validate import SCHEMA_DIR
    return SCHEMA_LINE.format(Path(os.path.relpath(Path(SCHEMA_DIR) / "locale-history.schema.json",
                                                   path.parent)).as_posix())


def history_path(folder: Path) -> Path:
    return Path(folder) / "history" / "en.yaml"


def read_history(folder: Path) -> dict[str, str]:
    """{hash: English pattern} of a locale folder (empty if it has no history yet)."""
    from ruamel.yaml import YAML
    path = history_path(folder)
    if not path.is_file():
        return {}
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def record_history(folder: Path, english: dict) -> int:
    """Add every pattern of `english` (id -> pattern) under its hash; return how many were new.
    Old entries are kept: a translation stamped from them may still be stale."""
    import io

    from ruamel.yaml import YAML
    have = read_history(folder)
    new = {pattern_hash(v): str(v) for v in english.values() if pattern_hash(v) not in have}
    path = history_path(folder)
    if not new and (not path.is_file() or path.read_text(encoding="utf-8").startswith(_schema_line(path))):
        return 0
    y = YAML()
    y.width = 4096
    y.allow_unicode = True
    buf = io.StringIO()
    y.dump(dict(sorted({**have, **new}.items())), buf)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, _schema_line(path) + HEADER + buf.getvalue())
    return len(new)
