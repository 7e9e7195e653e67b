"""Locale YAML files read and written round-trip (ruamel): comments, order and quoting kept, so an
import or a stamp changes only what it must; written atomically.

Pipeline position: beside `interpreter.i18n.locales` (which reads them for the game)."""

from __future__ import annotations

import io
from pathlib import Path

from ..files import write_atomic


def _rt_yaml():
    from ruamel.yaml import YAML
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _scalar(text: str):
    from ruamel.yaml.scalarstring import LiteralScalarString
    if "\n" in text:
        return LiteralScalarString(text)
    return text


def _read_locale_rt(path: Path, lang: str):
    y = _rt_yaml()
    if path.is_file():
        data = y.load(path.read_text(encoding="utf-8"))
    else:
        from ruamel.yaml.comments import CommentedMap
        data = CommentedMap()
        data["locale"] = lang
        data["messages"] = CommentedMap()
    if data.get("messages") is None:
        from ruamel.yaml.comments import CommentedMap
        data["messages"] = CommentedMap()
    return y, data


def _write_locale_rt(path: Path, y, data) -> None:
    buf = io.StringIO()
    y.dump(data, buf)
    text = buf.getvalue()
    if not text.startswith("# yaml-language-server"):
        text = "# yaml-language-server: $schema=../../../schemas/locale.schema.json\n" + text
    write_atomic(path, text)


def _set_sources(data, sources: dict, order: list[str]) -> None:
    from ruamel.yaml.comments import CommentedMap
    if not sources:
        if "source" in data:
            del data["source"]
        return
    m = CommentedMap()
    for k in order:
        if k in sources:
            m[k] = sources[k]
    for k in sources:
        if k not in m:
            m[k] = sources[k]
    data["source"] = m
