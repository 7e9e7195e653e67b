"""Locale files on disk: a ruleset's `locales/LANG.yaml`, the engine's own
`interpreter/messages/LANG.yaml`, and a file's `source:` hashes.

Pipeline position: reads YAML through `interpreter.frontend`; used by the renderer and the checks."""

from __future__ import annotations

from pathlib import Path

from ..errors import Problem
from ..frontend.yaml_source import load_yaml

LANGS = ("en", "ru", "pl", "pt")
ENGINE_MESSAGES = Path(__file__).resolve().parent.parent / "messages"


def locale_messages(ruleset_dir: Path, lang: str) -> tuple[dict, list[Problem], object]:
    """The messages of one locale file (empty if absent), with load problems and the Doc."""
    path = Path(ruleset_dir) / "locales" / f"{lang}.yaml"
    if not path.is_file():
        return {}, [], None
    from ..errors import RulesetError
    try:
        doc = load_yaml(path)
    except RulesetError as e:
        return {}, e.problems, None
    data = doc.data if isinstance(doc.data, dict) else {}
    msgs = data.get("messages") or {}
    if not isinstance(msgs, dict):
        return {}, [Problem(doc.source.value(("messages",)), "messages must be a mapping")], doc
    return {str(k): v for k, v in msgs.items()}, [], doc


_engine_cache: dict = {}


def _engine_messages(lang: str):
    if lang not in _engine_cache:
        path = ENGINE_MESSAGES / f"{lang}.yaml"
        if path.is_file():
            doc = load_yaml(path)
            _engine_cache[lang] = (dict((doc.data or {}).get("messages") or {}), [], doc)
        else:
            _engine_cache[lang] = ({}, [], None)
    return _engine_cache[lang]


def locale_sources(doc) -> dict:
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    src = data.get("source") or {}
    return {str(k): str(v) for k, v in src.items()} if isinstance(src, dict) else {}


def locale_genders(doc) -> dict[str, str]:
    """A locale file's `genders:` map: message id -> grammatical gender of what it names."""
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    g = data.get("genders") or {}
    return {str(k): str(v) for k, v in g.items()} if isinstance(g, dict) else {}


def locale_forms(doc) -> dict[str, dict[str, str]]:
    """A locale file's `forms:` map: message id -> {form: pattern}, the grammatical forms (cases)
    of what that message names, e.g. `location-ID: {in: ..., to: ...}`."""
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    f = data.get("forms") or {}
    if not isinstance(f, dict):
        return {}
    return {str(k): {str(a): str(b) for a, b in v.items()} for k, v in f.items() if isinstance(v, dict)}
