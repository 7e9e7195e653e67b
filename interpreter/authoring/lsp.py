"""`grimoire lsp`: a language server for rulesets, on pygls (extra: `lsp`).

Pipeline position: the outermost layer, like the CLI; it speaks the Language Server Protocol
over stdio to an editor. For a YAML file of a ruleset (its own files, a variant, a scenario,
a locale) it publishes the problems `grimoire validate` finds, effect code included, as the
author types (the unsaved text is checked); inside effect code it completes zones, counters,
params, cards, locations, procedures, actions and built-ins (with signatures), shows a
built-in's documentation on hover, and goes to the definition of a procedure, card, param,
zone, counter, location or action. It runs beside yaml-language-server, which completes and
checks the YAML keys from `schemas/`: this server only answers for names and effect code.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from ..errors import Loc

_KIND = {"zone": 6, "counter": 6, "param": 21, "card": 12, "location": 12, "procedure": 3,
         "action": 3, "built-in": 3}  # lsprotocol CompletionItemKind: Variable, Constant, Value, Function


def _path(uri: str) -> Path:
    from pygls.uris import to_fs_path
    return Path(to_fs_path(uri))


def _range(types, loc: Loc, lines: list[str]):
    """A problem's range: from its column to the end of the word written there."""
    line = max(loc.line - 1, 0)
    col = max(loc.col - 1, 0)
    text = lines[line] if line < len(lines) else ""
    end = col
    while end < len(text) and (text[end].isalnum() or text[end] in "_."):
        end += 1
    return types.Range(start=types.Position(line=line, character=col),
                       end=types.Position(line=line, character=max(end, col + 1)))


def _in_code(lines: list[str], row: int, col: int) -> bool:
    """Is column `col` of line `row` in a value (where effect code is written), not in a key?"""
    row = min(max(row, 0), len(lines))
    line = lines[row] if row < len(lines) else ""
    indent = len(line) - len(line.lstrip())
    for above in reversed(lines[:row]):  # inside a block scalar (key: |) every column is code
        if above.strip() and len(above) - len(above.lstrip()) < indent:
            if above.split(" #")[0].rstrip().endswith(("|", "|-", "|+", ">", ">-")):
                return True
            break
    head = line[:col].strip()
    if head.startswith("- ") or ":" in head:
        return True
    return ":" not in line[col:]  # a word before the key's colon is a key


def build_server():
    """The pygls LanguageServer with every feature registered."""
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from .lsp_index import check, ruleset_root, target, word_at

    server = LanguageServer("grimoire-lsp", "0.1.0")
    names: dict[Path, object] = {}       # ruleset folder (or file outside one) -> its last Names that compiled
    published: dict[Path, set] = {}      # the same keys -> files given diagnostics last time
    told: set[Path] = set()              # YAML files said to be no ruleset's

    def buffers() -> dict[Path, str]:
        return {_path(uri): doc.source for uri, doc in server.workspace.text_documents.items()}

    def key_of(file: Path):
        """Whose names a file sees: its ruleset folder's, or (a variant or scenario anywhere
        else) its own, since it is checked applied to its base."""
        open_doc = server.workspace.text_documents.get(file.as_uri())
        found = target(file, open_doc.source if open_doc is not None else None)
        if found is None:
            return None
        return found[1] if ruleset_root(file) is not None else file

    def diagnose(uri: str) -> None:
        file = _path(uri)
        root = key_of(file)
        if root is None:
            if file.suffix in (".yaml", ".yml") and file not in told:   # say so, once, not silently
                told.add(file)
                server.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message=(
                    f"grimoire lsp: {file.name} is not a file of a ruleset (not in a folder with ruleset.yaml, "
                    "and no variant: with base:, nor a scenario's ruleset: it can find): nothing to check")))
            return
        problems, found = check(file, buffers())
        if found is not None:
            names[root] = found
        by_file: dict[str, list] = {}
        for p in problems:
            by_file.setdefault(str(Path(p.loc.file).resolve()), []).append(p)
        by_file.setdefault(str(file.resolve()), [])
        for f in published.get(root, set()) - set(by_file):
            by_file[f] = []  # fixed since the last check: clear it
        published[root] = {f for f, ps in by_file.items() if ps}
        for f, ps in by_file.items():
            try:
                lines = Path(f).read_text(encoding="utf-8").splitlines()
            except OSError:
                lines = []
            open_doc = server.workspace.text_documents.get(Path(f).as_uri())
            if open_doc is not None:
                lines = open_doc.source.splitlines()
            diags = [types.Diagnostic(range=_range(types, p.loc, lines), message=p.message,
                                      severity=types.DiagnosticSeverity.Warning if p.severity == "warning"
                                      else types.DiagnosticSeverity.Error, source="grimoire")
                     for p in ps]
            server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=Path(f).as_uri(), diagnostics=diags))

    def guarded(default=None):
        """A handler that answers `default` (and tells the editor why) instead of raising: a
        request the server cannot answer must not cost the ones after it."""
        def wrap(fn):
            @functools.wraps(fn)
            def handler(ls, params):
                try:
                    return fn(ls, params)
                except Exception as e:  # noqa: BLE001 - logged to the editor, answered
                    server.window_log_message(types.LogMessageParams(
                        type=types.MessageType.Error, message=f"grimoire lsp: {fn.__name__}: {type(e).__name__}: {e}"))
                    return default() if callable(default) else default
            return handler
        return wrap

    def locale_of(uri: str):
        """(ruleset folder, language) when the file is a locale file of a ruleset, else None."""
        file = _path(uri)
        found = target(file, None)
        return (found[1], file.stem) if found is not None and found[0] == "locale" else None

    def index_for(uri: str):
        root = key_of(_path(uri))
        if root is None:
            return None
        if root not in names:
            diagnose(uri)
        return names.get(root)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        diagnose(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls, params: types.DidChangeTextDocumentParams):
        diagnose(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded()
    def did_save(ls, params: types.DidSaveTextDocumentParams):
        diagnose(params.text_document.uri)

    def word(params):
        """The line and the word at the position; a position past the text (an editor may send
        one) is read as the nearest place in it, never an IndexError."""
        doc = server.workspace.get_text_document(params.text_document.uri)
        lines = doc.source.splitlines()
        row = params.position.line
        line = lines[row] if 0 <= row < len(lines) else ""
        return line, word_at(line, min(max(params.position.character, 0), len(line)))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["(", " ", "[", "$"]))
    @guarded(lambda: types.CompletionList(is_incomplete=False, items=[]))
    def completion(ls, params: types.CompletionParams):
        loc = locale_of(params.text_document.uri)
        if loc is not None:                 # a locale file: ids, variables, references
            from .lsp_locale import complete
            lines = server.workspace.get_text_document(params.text_document.uri).source.splitlines()
            found = complete(loc[0], loc[1], lines, params.position.line, params.position.character)
            return types.CompletionList(is_incomplete=False, items=[types.CompletionItem(
                label=i.label, kind=types.CompletionItemKind.Text, detail=i.detail,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=i.doc)) for i in found])
        line, (w, start, _) = word(params)
        idx = index_for(params.text_document.uri)
        lines = server.workspace.get_text_document(params.text_document.uri).source.splitlines()
        if idx is None or not _in_code(lines, params.position.line, start):
            return types.CompletionList(is_incomplete=False, items=[])
        prefix = line[start:max(start, params.position.character)]
        items = [types.CompletionItem(label=n.name, kind=types.CompletionItemKind(_KIND.get(n.kind, 6)),
                                      detail=n.detail, sort_text=f"{int(n.kind == 'built-in')}{n.name}",
                                      documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=n.doc))
                 for n in idx.complete(prefix)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    def hover(ls, params: types.HoverParams):
        loc = locale_of(params.text_document.uri)
        if loc is not None:                 # a locale file: an id's English and translations
            from .lsp_locale import hover as locale_hover
            lines = server.workspace.get_text_document(params.text_document.uri).source.splitlines()
            found = locale_hover(loc[0], loc[1], lines, params.position.line, params.position.character)
            if found is not None:
                text, start, end = found
                row = params.position.line
                return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
                                   range=types.Range(start=types.Position(line=row, character=start),
                                                     end=types.Position(line=row, character=end)))
        line, (w, start, end) = word(params)
        idx = index_for(params.text_document.uri)
        n = idx.get(w) if idx is not None and w else None
        if n is None:
            return None
        rng = types.Range(start=types.Position(line=params.position.line, character=start),
                          end=types.Position(line=params.position.line, character=end))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=n.doc), range=rng)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded()
    def definition(ls, params: types.DefinitionParams):
        line, (w, _, _) = word(params)
        idx = index_for(params.text_document.uri)
        n = idx.get(w) if idx is not None and w else None
        if n is None or n.loc is None:
            return None
        p = types.Position(line=max(n.loc.line - 1, 0), character=max(n.loc.col - 1, 0))
        return types.Location(uri=Path(n.loc.file).resolve().as_uri(), range=types.Range(start=p, end=p))

    return server


def cmd_lsp(args) -> int:
    """Serve the Language Server Protocol on stdin/stdout until the editor says exit."""
    try:
        server = build_server()
    except ModuleNotFoundError as e:
        print(f"error: grimoire lsp needs {e.name}: pip install -e \".[lsp]\"", file=sys.stderr)
        return 1
    from .lsp_frames import serve_io
    serve_io(server)           # pygls's loop, with frames that survive a malformed one
    return 0


def register(sub) -> None:
    """Add the `lsp` subcommand."""
    p = sub.add_parser("lsp", help="a language server for rulesets (diagnostics, completion, hover, "
                       "definition) over stdio, for VS Code, Neovim, ...")
    p.set_defaults(fn=cmd_lsp)
