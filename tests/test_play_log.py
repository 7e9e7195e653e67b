"""The game log as `grimoire play` prints it: every line a viewer may see, once, in order.

The CLI prints a viewer's new entries at each decision. An action whose readers are settled
only after a question (a Castle trade: the target answers first) used to insert the others'
line before lines already printed: printed twice, or never."""

from __future__ import annotations

import json
import random

import pytest

from interpreter.engine.state import SPECTATOR
from interpreter.game import RULESETS, load


@pytest.fixture(scope="module")
def castle():
    return load(RULESETS / "castle_of_the_devil")


def printed_as_play_prints(game, n, seed, bit):
    st = game.new_game(seed=seed, players=n)
    rng = random.Random(seed)
    printed, out = 0, []
    while True:
        out += [e for e in st.log[printed:] if e[3] & bit]
        printed = len(st.log)
        if st.over:
            return st, out
        opts = st.options()
        st.apply_in_place(opts[rng.randrange(len(opts))].id)


@pytest.mark.parametrize("n,seed", [(4, 1), (5, 2), (7, 3)])
def test_each_viewer_reads_every_line_once_in_order(castle, n, seed):
    settled_late = 0
    for bit in [1 << p for p in range(n)] + [SPECTATOR]:
        st, out = printed_as_play_prints(castle, n, seed, bit)
        assert out == [e for e in st.log if e[3] & bit]
        settled_late += sum(1 for e in st.log if e[0] == "act" and e[1][1] == "trade" and e[3] & SPECTATOR)
    assert settled_late > 0, "the games must hold trades whose line was settled after the answer"


def test_the_printed_log_file_is_the_spectators_log(tmp_path, capsys):
    from interpreter.cli import main
    from interpreter.i18n import Text
    log, save = tmp_path / "game.log", tmp_path / "game.save.json"
    assert main(["play", "castle_of_the_devil", "--players", "5", "--seed", "4", "--quiet",
                 "--log", str(log), "--save", str(save)]) == 0
    capsys.readouterr()
    game = load(RULESETS / "castle_of_the_devil")
    st = game.state_from_json(json.loads(save.read_text(encoding="utf-8"))["state"], str(save))
    text = Text(game.program, "en")
    want = [text.event(st, e) for e in st.log if e[3] & SPECTATOR]
    assert log.read_text(encoding="utf-8").splitlines()[:-1] == want
