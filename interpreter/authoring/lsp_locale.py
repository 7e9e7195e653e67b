"""What the language server answers in a locale file (`locales/LANG.yaml`): the ids to write
and the English they translate.

Pipeline position: authoring (used by lsp.py). Completion on a key offers the English ids this
file lacks (with their English text); inside a value, after `{ $`, the variables the English
message uses, and after `{ `, the ids and terms a message may reference. Hover on an id (its
key, or a reference `{ other-id }`) shows its English text and its text in the other languages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_KEY = re.compile(r"^(\s+)([A-Za-z][\w.-]*)\s*:")
_VAR = re.compile(r"\{\s*\$([A-Za-z][\w-]*)")
_ID = re.compile(r"[A-Za-z0-9_.-]")


@dataclass
class Item:
    """One completion: the text to insert, a one-line detail, markdown for the documentation."""

    label: str
    detail: str
    doc: str


def _messages(root: Path, lang: str) -> dict:
    from ..i18n.locales import locale_messages
    return locale_messages(root, lang)[0]


def _text(value) -> str:
    if isinstance(value, dict):     # a name with grammatical forms, or a message with attributes
        return str(value.get("value", next(iter(value.values()), "")) if value else "")
    return str(value)


def _key_of(lines: list[str], row: int) -> str | None:
    """The message id whose value holds line `row` (its own key line, or the nearest above)."""
    for r in range(min(row, len(lines) - 1), -1, -1):
        m = _KEY.match(lines[r])
        if m and len(m.group(1)) <= 4:
            return m.group(2)
    return None


def _ids_written(lines: list[str], row: int) -> set[str]:
    """The ids under `messages:` in the editor's text now (not those of `sources:`), but row's."""
    out, section = set(), None
    for r, text in enumerate(lines):
        top = re.match(r"^([A-Za-z_]\w*)\s*:", text)
        if top:
            section = top.group(1)
        elif section == "messages" and r != row and (m := re.match(r"^  ([A-Za-z][\w.-]*)\s*:", text)):
            out.add(m.group(1))
    return out


def _word(line: str, col: int) -> tuple[str, int]:
    start = col
    while start > 0 and _ID.match(line[start - 1]):
        start -= 1
    end = col
    while end < len(line) and _ID.match(line[end]):
        end += 1
    return line[start:end], start


def complete(root: Path, lang: str, lines: list[str], row: int, col: int) -> list[Item]:
    """The completions at 0-based (row, col) of a locale file of the ruleset at `root`."""
    line = lines[row] if 0 <= row < len(lines) else ""
    col = min(max(col, 0), len(line))
    en = _messages(root, "en")
    before = line[:col]
    if ":" not in before and (before.strip() == "" or _ID.fullmatch(before.strip()[-1:] or "x")) \
            and before.startswith("  "):
        have = _ids_written(lines, row) if lang != "en" else set()
        prefix = before.strip()
        return [Item(k, "English: " + _text(v)[:80], _text(v)) for k, v in sorted(en.items())
                if k.startswith(prefix) and k not in have]
    m = re.search(r"\{\s*\$([\w-]*)$", before)
    if m:
        key = _key_of(lines, row)
        used = sorted(set(_VAR.findall(_text(en.get(key, ""))))) if key else []
        return [Item(v, f"a variable of {key}", f"`{{ ${v} }}` in the English: {_text(en[key])}")
                for v in used if v.startswith(m.group(1))]
    m = re.search(r"\{\s*(-?[\w.-]*)$", before)
    if m:
        return [Item(k, "English: " + _text(v)[:80], _text(v)) for k, v in sorted(en.items())
                if k.startswith(m.group(1))]
    return []


def hover(root: Path, lang: str, lines: list[str], row: int, col: int) -> tuple[str, int, int] | None:
    """Markdown for the id under 0-based (row, col), and the columns it spans; None elsewhere."""
    line = lines[row] if 0 <= row < len(lines) else ""
    word, start = _word(line, min(max(col, 0), len(line)))
    en = _messages(root, "en")
    if word not in en:
        return None
    parts = [f"**{word}**", "", f"en: {_text(en[word])}"]
    for f in sorted((root / "locales").glob("*.yaml")):
        if f.stem not in ("en",):
            text = _messages(root, f.stem).get(word)
            parts.append(f"{f.stem}: {_text(text)}" if text is not None else f"{f.stem}: (not translated)")
    return "\n\n".join(parts[:3]) + "\n\n" + "\n\n".join(parts[3:]), start, start + len(word)
