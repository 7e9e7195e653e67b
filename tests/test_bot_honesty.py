"""Bots are honest: a bot's choice does not change when the hidden information of the other
players is re-dealt consistently with its own view.

At many decisions of every ruleset, the real state and a world drawn from the deciding seat's
view (`Seat.determinize`, the re-deal a search bot itself would sample) are shown to two twins
of the bot (same seed, same generator state); they must choose the same option. A bot that
peeks at the real state fails this test (checked below), so it would catch a leak in the
protocol, in `determinize`, or in the policy's visibility check.
"""

from __future__ import annotations

import copy

import pytest

from interpreter.bots import RandomBot, Seat, make_bot
from interpreter.bots.policy import PolicyBot
from interpreter.engine.rng import Rng
from interpreter.game import RULESETS, load

GAMES = [("high_tide", 3), ("castle_of_the_devil", 4), ("shadows_over_camelot", 3),
         ("shadows_over_camelot", 5)]
_loaded: dict = {}


def game(name: str, variants: tuple = ()):
    key = (name, variants)
    if key not in _loaded:
        _loaded[key] = load(RULESETS / name, list(variants))
    return _loaded[key]


def twin(bot):
    """A copy of bot that will choose exactly as bot would (same generator state)."""
    t = copy.copy(bot)
    t.rng = Rng(bot.rng.s)
    return t


def hidden_from(st, p) -> tuple:
    """What p cannot see: the card kinds in every place p sees only as a count."""
    bit = 1 << p
    return tuple(tuple(st.g.card_def[c] for c in z if not st.seen[c] & bit) for z in st.zones)


def audit(g, players: int, bots: list, seed: int, decisions: int) -> tuple[int, int, int]:
    """Play a game with `bots`; at each decision with a choice, ask twins of the deciding bot
    on the real state and on a re-dealt world. Return (decisions checked, decisions whose
    re-dealt world differs from the real one in hidden cards, disagreements)."""
    st = g.new_game(seed=seed, players=players)
    rng = Rng(seed * 7919 + 1)
    checked = redealt = differ = 0
    while not st.over and checked < decisions:
        p = st.current_player()
        bot = bots[p]
        if len(st.options()) > 1:
            world = Seat(st).determinize(rng)
            assert [o.id for o in world.options()] == [o.id for o in st.options()]
            assert world.view(p)["zones"] == st.view(p)["zones"]
            redealt += hidden_from(world, p) != hidden_from(st, p)
            a = twin(bot).choose(Seat(st))
            b = twin(bot).choose(Seat(world))
            differ += a != b
            checked += 1
        st.apply_in_place(bot.choose(Seat(st)))
    return checked, redealt, differ


def kinds_for(g) -> list[str]:
    return ["random", "mcts"] + (["policy", "rollout"] if g.program.policy is not None else [])


OPTIONS = {"mcts": {"iterations": 12, "depth": 6}, "rollout": {"worlds": 4, "horizon": 1.0}}


@pytest.mark.parametrize("name,players", GAMES)
def test_bots_choose_the_same_in_every_world_they_cannot_tell_apart(name, players):
    g = game(name)
    for kind in kinds_for(g):
        opts = OPTIONS.get(kind, {})
        search = kind in OPTIONS
        total = redealt = 0
        for seed in range(2 if search else 4):
            bots = [make_bot(kind, seed * 100 + p, g, **opts) for p in range(players)]
            n, r, d = audit(g, players, bots, seed, 40 if search else 150)
            assert d == 0, f"{kind} bot on {name}: {d} of {n} choices changed with the hidden cards"
            total += n
            redealt += r
        assert total >= 40, f"{kind} on {name}: only {total} decisions checked"
        assert redealt >= total // 2, f"{name}: the re-dealt worlds rarely differ ({redealt} of {total})"


class PeekingBot(RandomBot):
    """A cheat: picks by the kinds of the cards its player cannot see."""

    def choose(self, seat) -> str:
        st = seat._state  # what no bot may read
        key = sum(hash(z) for z in hidden_from(st, seat.player))
        return seat.options[key % len(seat.options)].id


@pytest.mark.parametrize("name,players", GAMES)
def test_a_bot_that_peeks_is_caught(name, players):
    g = game(name)
    bots = [PeekingBot(p) for p in range(players)]
    checked, _, differ = audit(g, players, bots, 1, 60)
    assert differ >= checked // 10 > 0


def test_a_policy_that_reads_hidden_cards_is_evaluated_on_a_sampled_world(tmp_path):
    # the top card of the deck is hidden: the check finds it, and the bot stays honest
    v = tmp_path / "peek.yaml"
    v.write_text("variant: peek\ntitle: peek at the deck\nbase: high_tide\nmerge:\n  policy:\n    act:\n"
                 "      play: \"(top(deck).value if size(deck) > 0 else 0) * c.value\n"
                 "        + count([x for x in cards(hand(next(me))) if x.value == c.value])\"\n", encoding="utf-8")
    g = game("high_tide", (str(v),))
    pol = g.program.policy
    reads = pol.hidden_reads()
    assert any("top" in r or "value" in r for r in reads) and len(reads) >= 2, reads
    assert not pol.base.act["play"].safe and pol.base.act["draw_card"].safe
    bots = [PolicyBot(p, g) for p in range(3)]
    total = 0
    for seed in range(4):
        n, _, d = audit(g, 3, bots, seed, 80)
        assert d == 0
        total += n
    assert total >= 100
    # the same expression wrongly trusted as view-safe reads the real hidden cards: caught
    sc = copy.copy(pol.base.act["play"])
    sc.safe = frozenset(range(2, 5))
    cheat = copy.copy(pol)
    cheat.base = copy.copy(pol.base)
    cheat.base.act = {**pol.base.act, "play": sc}
    cheat.base.safe = frozenset(range(2, 5))
    bots = [PolicyBot(p, g) for p in range(3)]
    for b in bots:
        b.policy = cheat
    differ = sum(audit(g, 3, bots, seed, 80)[2] for seed in range(4))
    assert differ > 0
