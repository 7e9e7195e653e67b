"""Locale files to and from .ftl and .po, the ruleset's and the engine's own
(`interpreter/messages/`, written to `OUT/engine/`): what `grimoire i18n export` and
`grimoire i18n import` (interpreter/commands/exchange.py) do.

Export writes standard Fluent and complete PO headers; a stale translation is `fuzzy` with the
English it was made from as `#| msgid` (found in the git history of `en.yaml`). Import merges
into the locale YAML (comments and order kept, written atomically), honours the file's own
language and ruleset (PO `Language:` / `X-Grimoire-Ruleset:`, FTL `### Locale:` / `### Ruleset:`),
and refuses, at file:line, a message with a variable the English does not have.

Pipeline position: over the locale files, below the commands.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from ..errors import Loc, Problem
from .fluent import parse_pattern, pattern_hash, scan
from .ftl import ftl_header, parse_ftl_file
from .gender import allowed_extra_vars
from .locales import ENGINE_MESSAGES, _engine_cache
from .po import parse_po
from .roundtrip import _read_locale_rt, _scalar, _set_sources, _write_locale_rt

ENGINE = "engine"


def _read(folder: Path, lang: str):
    """(messages, doc) of folder/LANG.yaml, read afresh (no cache)."""
    from ..frontend.yaml_source import load_yaml
    path = folder / f"{lang}.yaml"
    if not path.is_file():
        return {}, None
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    return {str(k): v for k, v in (data.get("messages") or {}).items()}, doc


def engine_folder() -> Path:
    """Where the engine's own locale files are (a test points it at a copy)."""
    return ENGINE_MESSAGES


def _targets(root: Path, with_engine: bool) -> list[tuple[str, Path]]:
    out = [(root.name, root / "locales")]
    if with_engine:
        out.append((ENGINE, engine_folder()))
    return out


def previous_english(en_path: Path, wanted: dict[str, str], most: int = 60) -> dict[str, str]:
    """The English each stale translation was made from: {id: text} for ids whose source hash
    (`wanted`) matches: in the folder's history file (history.py), then in an earlier commit of
    en.yaml (for hashes stamped before the history existed; nothing more outside git)."""
    from ruamel.yaml import YAML

    from .history import read_history
    hist = read_history(en_path.parent)
    known = {k: hist[h] for k, h in wanted.items() if h in hist}
    wanted = {k: h for k, h in wanted.items() if k not in known}
    if not wanted:
        return known
    return {**_previous_from_git(en_path, wanted, most, YAML), **known}


def _previous_from_git(en_path: Path, wanted: dict[str, str], most: int, YAML) -> dict[str, str]:
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=en_path.parent, capture_output=True,
                             text=True, timeout=20)
        if top.returncode != 0:
            return {}
        top_dir = Path(top.stdout.strip()).resolve()
        rel = en_path.resolve().relative_to(top_dir)
        log = subprocess.run(["git", "log", f"-n{most}", "--format=%H", "--", str(rel)], cwd=top_dir,
                             capture_output=True, text=True, timeout=20)
    except (OSError, ValueError, subprocess.SubprocessError):
        return {}
    found: dict[str, str] = {}
    for commit in log.stdout.split():
        shown = subprocess.run(["git", "show", f"{commit}:{rel}"], cwd=top_dir, capture_output=True,
                               text=True, timeout=20)
        if shown.returncode != 0:
            continue
        try:
            old = (YAML(typ="safe").load(shown.stdout) or {}).get("messages") or {}
        except Exception:  # an old version that no longer parses: skip it
            continue
        for key, h in wanted.items():
            if key not in found and key in old and pattern_hash(old[key]) == h:
                found[key] = str(old[key])
        if len(found) == len(wanted):
            break
    return found


def _entry_problems(name: str, en: dict, msgs: dict, lines: dict, forms: dict, form_names: set) -> list[Problem]:
    """Fluent syntax and variables of imported messages against the English, at file:line."""
    out = []
    en_vars = {k: scan(parse_pattern(k, v)[0]).vars for k, v in en.items()}
    for key, value in msgs.items():
        at = Loc(name, lines.get(key, 1), 1)
        msg, errs = parse_pattern(key, value)
        for line, col, note in errs:
            out.append(Problem(Loc(name, lines.get(key, 1) + line - 1, col), f"Fluent syntax in {key!r}: {note}"))
        if msg is None or key not in en_vars:
            continue
        used = scan(msg).vars
        extra = used - en_vars[key] - allowed_extra_vars(en_vars[key], used, form_names)
        if extra:
            has = ", ".join("$" + v for v in sorted(en_vars[key])) or "no variables"
            out.append(Problem(at, f"{key!r} uses {', '.join('$' + v for v in sorted(extra))}, which the English "
                                   f"does not have (it has {has}): a misspelling would print as {{$...}} in the game"))
    for key in forms:
        if key not in en:
            out.append(Problem(Loc(name, lines.get(key, 1), 1), f"forms for {key!r}, which English does not have"))
    return out


def import_messages(root: Path, lang: str, msgs: dict, sources_in: dict, fuzzy: set, from_po: bool,
                    po_ids: dict | None = None, prune: bool = False, forms: dict | None = None,
                    folder: Path | None = None) -> tuple[int, int]:
    """Merge translated messages (and forms) into FOLDER/LANG.yaml (default: the ruleset's
    locales), comments and order kept; return (changed, added)."""
    folder = folder or root / "locales"
    en, _ = _read(folder, "en")
    path = folder / f"{lang}.yaml"
    y, data = _read_locale_rt(path, lang)
    data["locale"] = data.get("locale") or lang
    old = {str(k): str(v) for k, v in data["messages"].items()}
    sources = {str(k): str(v) for k, v in (data.get("source") or {}).items()}
    changed = added = 0
    order = list(en) + [k for k in msgs if k not in en]
    for key in order:
        if key not in msgs:
            continue
        value = msgs[key]
        if key in old:
            if old[key] != value:
                data["messages"][key] = _scalar(value)
                changed += 1
        else:
            keys = list(data["messages"].keys())          # insert in English order
            pos = len(keys)
            if key in en:
                later = [k for k in list(en)[list(en).index(key) + 1:] if k in data["messages"]]
                if later:
                    pos = keys.index(later[0])
            data["messages"].insert(pos, key, _scalar(value))
            added += 1
        if lang == "en":
            continue
        if key in sources_in:
            sources[key] = sources_in[key]
        elif from_po and key not in fuzzy and po_ids is not None and key in po_ids:
            sources[key] = pattern_hash(po_ids[key])
        elif old.get(key) == value:
            pass                                    # unchanged: keep whatever hash it had
        elif key in en and key not in fuzzy:
            sources[key] = pattern_hash(en[key])     # newly translated against today's English
    changed += _merge_forms(data, forms or {})
    if prune:
        for key in [k for k in data["messages"] if k not in msgs]:
            del data["messages"][key]
            sources.pop(key, None)
    if lang != "en":
        _set_sources(data, {k: v for k, v in sources.items() if k in data["messages"]}, list(data["messages"]))
    _write_locale_rt(path, y, data)
    if folder == engine_folder():
        _engine_cache.clear()
    return changed, added


def _merge_forms(data, forms: dict) -> int:
    """Write imported forms into the file's `forms:` map; return how many changed."""
    from ruamel.yaml.comments import CommentedMap
    if not forms:
        return 0
    if data.get("forms") is None:
        data.insert(list(data.keys()).index("messages"), "forms", CommentedMap())
    n = 0
    for key, fs in forms.items():
        cur = data["forms"].get(key)
        if cur is None:
            cur = CommentedMap()
            cur.fa.set_flow_style()
            data["forms"][key] = cur
        for form, text in fs.items():
            if str(cur.get(form)) != text:
                cur[form] = text
                n += 1
    return n


def _read_exchange_file(fp: Path, text: str, args):
    """(target name, lang, msgs, sources, fuzzy, ids, forms, lines, problems) of one .po/.ftl file."""
    if fp.suffix == ".po":
        entries, header, probs = parse_po(text, str(fp))
        name = header.get("X-Grimoire-Ruleset")
        lang = args.lang or header.get("Language") or fp.stem
        msgs, fuzzy, ids, forms, lines = {}, set(), {}, {}, {}
        for e in entries:
            ctx = e["ctx"]
            if e["obsolete"] or not ctx:
                if e["obsolete"] and ctx and e["str"]:
                    msgs[ctx] = e["str"]
                    fuzzy.add(ctx)
                continue
            if e["str"] == "":
                continue
            if "." in ctx:                               # ID.FORM: a grammatical form of a name
                key, form = ctx.rsplit(".", 1)
                forms.setdefault(key, {})[form] = e["str"]
                lines.setdefault(key, e["line"])
                continue
            msgs[ctx], ids[ctx], lines[ctx] = e["str"], e["id"], e["line"]
            if e["fuzzy"]:
                fuzzy.add(ctx)
        return name, lang, msgs, {}, fuzzy, ids, forms, lines, probs, True
    msgs, sources, probs, forms, lines = parse_ftl_file(text, str(fp))
    head = ftl_header(text)
    return (head.get("ruleset"), args.lang or head.get("locale") or fp.stem, msgs, sources, set(), None,
            forms, lines, probs, False)
