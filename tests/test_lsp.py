"""grimoire lsp, driven as an editor drives it: pygls's own client over JSON-RPC on stdio,
against the real server process, on the real Castle of the Devil files (edits stay unsaved)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
FLOW = ROOT / "rulesets" / "castle_of_the_devil" / "flow.yaml"


def _at(text: str, needle: str, offset: int = 0) -> types.Position:
    """The position of `needle` (plus `offset` characters) in `text`."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return types.Position(line=line, character=i - (text.rfind("\n", 0, i) + 1))


async def _session():
    client = LanguageClient("grimoire-test", "1")
    diagnostics: dict[str, list] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams):
        diagnostics[params.uri] = params.diagnostics
        arrived.set()

    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri(), process_id=None))
    client.initialized(types.InitializedParams())
    uri = FLOW.as_uri()
    text = FLOW.read_text(encoding="utf-8")
    doc = types.TextDocumentIdentifier(uri=uri)
    out = {}
    try:
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        await asyncio.wait_for(arrived.wait(), 120)
        out["clean"] = list(diagnostics[uri])
        # the author types two mistakes into one expression (not saved)
        broken = text.replace('when: "has(profession(me), diplomat) and prof_used(me) == 0"',
                              'when: "has(profesion(me), diplomat) and prof_usd(me) == 0"')
        arrived.clear()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=broken)]))
        await asyncio.wait_for(arrived.wait(), 120)
        out["broken"] = list(diagnostics[uri])
        out["broken_at"] = _at(broken, "profesion(me), diplomat")
        # completion inside effect code, after "prof"
        pos = _at(broken, "prof_usd(me) == 0", 4)
        out["completion"] = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=pos))
        pos = _at(broken, "  act(me, main)", 2)  # a built-in
        out["hover"] = await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
        pos = _at(broken, "  enforce_hand_limits()\n", 4)  # a procedure
        out["definition"] = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc, position=pos))
        pos = _at(broken, "size(hand(p)) > hand_limit", 18)  # a param, defined in components.yaml
        out["param"] = await client.text_document_definition_async(
            types.DefinitionParams(text_document=doc, position=pos))
        pos = _at(broken, "has(profesion(me), diplomat)", 22)  # a card kind, "dipl|omat"
        out["card"] = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc, position=pos))
        out["text"] = broken
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return out


def test_the_language_server_as_an_editor_uses_it():
    out = asyncio.run(_session())
    assert out["clean"] == []
    msgs = [(d.range.start.line, d.range.start.character, d.message) for d in out["broken"]]
    at = out["broken_at"]
    assert (at.line, at.character, "unknown function 'profesion' (did you mean 'profession'?)") in msgs, msgs
    assert any("prof_usd" in m for _, _, m in msgs), msgs  # both mistakes of the expression at once
    assert all(d.source == "grimoire" for d in out["broken"])
    items = {i.label: i for i in out["completion"].items}
    assert {"prof_used", "prof_open", "profession"} <= set(items)
    assert items["profession"].kind == types.CompletionItemKind.Variable  # a zone
    assert not [n for n in items if not n.startswith("prof")]
    hover = out["hover"].contents.value
    assert "act(p: player, group: ident, optional: bool = false)" in hover and "picks one legal action" in hover
    loc = out["definition"][0] if isinstance(out["definition"], list) else out["definition"]
    assert loc.uri == FLOW.as_uri()
    line = out["text"].splitlines()[loc.range.start.line]
    assert line.strip().startswith("enforce_hand_limits():")
    loc = out["param"][0] if isinstance(out["param"], list) else out["param"]
    components = ROOT / "rulesets" / "castle_of_the_devil" / "components.yaml"
    assert loc.uri == components.as_uri()
    assert components.read_text(encoding="utf-8").splitlines()[loc.range.start.line].strip().startswith("hand_limit:")
    cards = {i.label: i for i in out["card"].items}
    assert "diplomat" in cards and cards["diplomat"].detail == "card diplomat"
