"""grimoire lsp on every file the project reads, driven by pygls's own client over JSON-RPC on
stdio against the real server process: a variant and its scenario in a house_rules/ folder
outside any ruleset folder (the tutorial's layout), and a locale file (diagnostics, completion,
hover). Positions past the end of the text are answered, not failed."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent

VARIANT = '''variant: pearl_waits
title: The Black Pearl waits a round
description: Nobody may offer the Black Pearl in a trade during the first round.
base: castle_of_the_devil
merge:
  actions:
    trade:
      when: "not (c == black_pearl and turn_number <= player_count)"
'''

SCENARIO = '''name: The Black Pearl cannot be offered in the first round, other items can
ruleset: castle_of_the_devil
setup:
  players: 4
  seed: 1
  names: [marie, gundla, sarah, romana]
  variants: [pearl_waits.yaml]
fixtures: [clear_table]
given:
  - place(hand(marie), [black_pearl, key])
  - place(hand(gundla), [goblet])
when:
  - {player: marie, choose: "trade:gundla,black_pearl", refused: not a legal option}
  - {player: marie, choose: "trade:gundla,key"}
  - {player: gundla, choose: accept}
  - {player: gundla, choose: goblet}
expect:
  - has(hand(marie), black_pearl) and has(hand(marie), goblet)
  - has(hand(gundla), key)
'''


def _at(text: str, needle: str, offset: int = 0) -> types.Position:
    i = text.index(needle) + offset
    return types.Position(line=text.count("\n", 0, i), character=i - (text.rfind("\n", 0, i) + 1))


class Editor:
    """An editor session: open, type (unsaved), wait for the diagnostics of a file."""

    def __init__(self, client, diagnostics, arrived):
        self.client, self.diagnostics, self.arrived = client, diagnostics, arrived
        self.versions: dict[str, int] = {}

    async def show(self, path: Path, text: str) -> list:
        uri = path.as_uri()
        self.arrived.clear()
        self.diagnostics.pop(uri, None)
        if uri not in self.versions:
            self.versions[uri] = 1
            self.client.text_document_did_open(types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        else:
            self.versions[uri] += 1
            self.client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        while uri not in self.diagnostics:
            await asyncio.wait_for(self.arrived.wait(), 180)
            self.arrived.clear()
        return list(self.diagnostics[uri])

    async def complete(self, path: Path, pos) -> list:
        got = await self.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=pos))
        return [] if got is None else (got.items if hasattr(got, "items") else got)

    async def hover(self, path: Path, pos):
        return await self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=pos))


async def _session(work: Path, steps):
    client = LanguageClient("grimoire-test", "1")
    diagnostics: dict[str, list] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams):
        diagnostics[params.uri] = params.diagnostics
        arrived.set()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams):
        diagnostics.setdefault("log", []).append(params.message)
        arrived.set()

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(work), env=env)
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=work.as_uri(), process_id=None))
    client.initialized(types.InitializedParams())
    try:
        return await steps(Editor(client, diagnostics, arrived))
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()


def _where(diags) -> list[tuple[int, int, str, str]]:
    return [(d.range.start.line, d.range.start.character, d.severity.name, d.message) for d in diags]


def test_a_variant_and_its_scenario_in_a_house_rules_folder(tmp_path):
    rules = tmp_path / "house_rules"
    rules.mkdir()
    variant, scenario = rules / "pearl_waits.yaml", rules / "pearl_waits_test.yaml"
    variant.write_text(VARIANT, encoding="utf-8")
    scenario.write_text(SCENARIO, encoding="utf-8")

    async def steps(ed: Editor):
        out = {"variant_clean": await ed.show(variant, VARIANT)}
        out["completion"] = await ed.complete(variant, _at(VARIANT, "black_pearl and", 7))
        typo = VARIANT.replace("c == black_pearl", "c == black_perl")
        out["variant_typo"], out["typo_at"] = await ed.show(variant, typo), _at(typo, "black_perl")
        await ed.show(variant, VARIANT)
        out["scenario_clean"] = await ed.show(scenario, SCENARIO)
        failing = SCENARIO.replace("  - has(hand(gundla), key)", "  - has(hand(gundla), black_pearl)")
        out["scenario_failing"], out["failing_at"] = await ed.show(scenario, failing), _at(failing, "has(hand(gundla)")
        wrong = SCENARIO.replace("  - has(hand(gundla), key)", "  - has(hand(gundla), kee)")
        out["scenario_wrong"], out["wrong_at"] = await ed.show(scenario, wrong), _at(wrong, "kee)")
        other = rules / "notes.yaml"             # no ruleset's file: said so, not silent
        ed.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=other.as_uri(), language_id="yaml", version=1, text="shopping: [milk]\n")))
        while not any("notes.yaml is not a file of a ruleset" in m for m in ed.diagnostics.get("log", [])):
            ed.arrived.clear()
            await asyncio.wait_for(ed.arrived.wait(), 60)
        refused = SCENARIO.replace('choose: "trade:gundla,key"}', 'choose: "trade:gundla,goblet"}')
        out["scenario_when"], out["when_at"] = await ed.show(scenario, refused), _at(refused, "{player: marie, choose: "
                                                                                     '"trade:gundla,goblet"')
        return out

    out = asyncio.run(_session(tmp_path, steps))
    assert out["variant_clean"] == []
    assert "black_pearl" in {i.label for i in out["completion"]}   # the base's names, in the variant
    at = out["typo_at"]
    assert (at.line, at.character, "Error", "undefined name 'black_perl' (did you mean 'black_pearl'?)") \
        in _where(out["variant_typo"]), _where(out["variant_typo"])
    assert out["scenario_clean"] == []
    found = _where(out["scenario_failing"])                          # an expect that does not hold
    at = out["failing_at"]
    assert [(ln, sev) for ln, _, sev, _ in found] == [(at.line, "Warning")], found
    assert "expected has(hand(gundla), black_pearl)" in found[0][3], found
    found = _where(out["scenario_wrong"])                            # a name no ruleset has
    assert any(ln == out["wrong_at"].line and sev == "Error" and "kee" in m for ln, _, sev, m in found), found
    found = _where(out["scenario_when"])                             # a `when` decision that fails
    assert [ln for ln, _, _, _ in found] == [out["when_at"].line], found


def test_a_locale_file_has_diagnostics_completion_and_hover(tmp_path):
    shutil.copytree(ROOT / "rulesets" / "castle_of_the_devil", tmp_path / "castle_of_the_devil",
                    ignore=shutil.ignore_patterns("__pycache__"))
    pl = tmp_path / "castle_of_the_devil" / "locales" / "pl.yaml"
    text = pl.read_text(encoding="utf-8")
    thug = next(line for line in text.splitlines() if line.startswith("  card-thug-text:"))

    async def steps(ed: Editor):
        out = {"clean": await ed.show(pl, text)}
        typo = text.replace(thug, thug.replace("{ $bonus }", "{ $bonsu }"))
        out["typo"], out["typo_at"] = await ed.show(pl, typo), _at(typo, "  card-thug-text:", 2)
        lacking = text.replace(thug + "\n", "  card-thug-te\n")
        await ed.show(pl, lacking)
        out["ids"] = await ed.complete(pl, _at(lacking, "  card-thug-te\n", 14))
        half = text.replace(thug, thug.split("{ $bonus }")[0] + "{ $")
        await ed.show(pl, half)
        out["vars"] = await ed.complete(pl, _at(half, "{ $\n", 3))
        await ed.show(pl, text)
        out["hover"] = await ed.hover(pl, _at(text, "  card-thug-text:", 5))
        # positions past the end of the text: answered, not failed
        out["far_hover"] = await ed.hover(pl, types.Position(line=10**6, character=10**6))
        out["far_completion"] = await ed.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=pl.as_uri()), position=types.Position(line=3,
                                                                                              character=10**6)))
        return out

    out = asyncio.run(_session(tmp_path, steps))
    assert [d for d in out["clean"] if d.severity == types.DiagnosticSeverity.Error] == []
    at = out["typo_at"]
    assert any(ln == at.line and sev == "Error" and "$bonsu" in m for ln, _, sev, m in _where(out["typo"])), \
        _where(out["typo"])
    assert [i.label for i in out["ids"]] == ["card-thug-text"]       # the English id this file lacks
    assert [i.label for i in out["vars"]] == ["bonus"]               # the English message's variable
    hover = out["hover"].contents.value
    assert "card-thug-text" in hover and "en: " in hover and "{ $bonus }" in hover
    # (a handler that raised would have made the client raise JsonRpcInternalError above)
    assert out["far_hover"] is None and isinstance(out["far_completion"], types.CompletionList)
