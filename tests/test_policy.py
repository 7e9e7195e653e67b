"""The ruleset `policy:` section: compiled once, checked for what the decider may see, played
by the policy bot, read by search bots, and documented with an example the tests run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from interpreter.bots import Seat, default_kind, make_bot
from interpreter.bots.mcts import MctsBot
from interpreter.bots.policy import PolicyBot, pick, softmax
from interpreter.engine.rng import Rng
from interpreter.errors import RulesetError
from interpreter.frontend.yaml_source import load_yaml
from interpreter.game import RULESETS, load

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "bots.md"


def variant(tmp_path, body: str, name: str = "v", base: str = "high_tide") -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"variant: {name}\ntitle: a test variant\nbase: {base}\nmerge:\n  policy:\n{body}",
                 encoding="utf-8")
    return str(p)


def test_the_worked_example_of_the_docs_runs():
    res = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted >= 8 and res.failed == 0


def test_the_docs_show_high_tides_policy_as_shipped():
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(policy:\n.*?)```", text, re.S).group(1)
    shown = load_yaml("<doc>", display="<doc>", text=block).data["policy"]
    shipped = load_yaml(str(RULESETS / "high_tide" / "ruleset.yaml")).data["policy"]
    assert shown == shipped


@pytest.mark.parametrize("body,message", [
    ("    act: {fly: 3}\n", "policy scores action 'fly', which is no action"),
    ("    act: {plya: 3}\n", "did you mean 'play'"),
    ("    choose: {nothing: 1}\n", "policy scores prompt 'nothing', which no choose() of this ruleset asks"),
    ("    weights: {goal: 1}\n", "policy weight 'goal' has the name of a param"),
    ("    act: {play: \"draw(deck, hand(me), 1)\"}\n", "draw() changes the game"),
    ("    act: {play: \"cards(hand(me))\"}\n", "a policy score is a number"),
    ("    act: {play: \"c.colour\"}\n", "no card has a property 'colour'"),
    ("    sides: {winnr: {weights: {x: 1}}}\n", "did you mean 'winner'"),
])
def test_policy_mistakes_are_reported_with_their_line(tmp_path, body, message):
    with pytest.raises(RulesetError) as e:
        load(RULESETS / "high_tide", [variant(tmp_path, body)])
    text = str(e.value)
    assert message in text
    assert re.search(r"v\.yaml:\d+:\d+", text), text


CASTLE_READS = [
    # (expression of an action trade(t, c), reads only what me sees)
    ("count(cards(hand(me)))", True),
    ("size(hand(t)) + size(item_deck)", True),
    ("count([x for x in cards(hand(me)) if x.victory == \"key\"])", True),
    ("c.victory == \"key\" and c != black_pearl", True),
    ("has(hand(me), black_pearl)", True),
    ("side(me) == order", True),
    ("count([x for x in cards(hand(t)) if knows(me, x) and x.victory == \"key\"])", True),
    ("count([s for s in cards(society(t)) if knows(me, s) and s.society == side(me)])", True),
    ("1 if knows(me, top(profession(t))) and top(profession(t)) == thug else 0", False),
    ("count([x for x in cards(hand(t)) if x.victory == \"key\"])", False),
    ("has(hand(t), black_pearl)", False),
    ("side(t) == order", False),
    ("top(item_deck) == key", False),
    ("holder(top(item_deck)) == me", False),
    ("count([k for k in copies(key) if holder(k) == t])", False),
    ("1 if knows(t, c) else 0", False),
]


@pytest.mark.parametrize("expr,safe", CASTLE_READS)
def test_what_a_score_may_read_follows_visibility(tmp_path, expr, safe):
    v = variant(tmp_path, f"    act: {{trade: {expr!r}}}\n".replace("'", '"') if "'" not in expr and '"' not in expr
                else "    act:\n      trade: >-\n        " + expr + "\n", base="castle_of_the_devil")
    g = load(RULESETS / "castle_of_the_devil", [v])
    sc = g.program.policy.base.act["trade"]
    assert bool(sc.safe) is safe, sc.why
    assert sc.safe in (frozenset(), frozenset(range(3, 11)))  # the same at every player count


def test_every_shipped_policy_reads_only_what_its_player_sees():
    for name in ("high_tide", "castle_of_the_devil"):
        pol = load(RULESETS / name).program.policy
        assert pol is not None and pol.hidden_reads() == [], name


def test_face_down_moves_make_a_zone_unsafe(tmp_path):
    # Camelot's black_slots receive cards face down: their identities are not all known
    v = variant(tmp_path, "    act:\n      walk: \"count([c for c in cards(black_slots(l)) if c.value == 3])\"\n",
                base="shadows_over_camelot")
    sc = load(RULESETS / "shadows_over_camelot", [v]).program.policy.base.act["walk"]
    assert not sc.safe and "hidden" in " ".join(sc.why)


def test_a_face_down_deal_that_depends_on_the_player_count(tmp_path):
    # Camelot deals the Loyalty cards face down at 3 players only (blind_loyalty): there a
    # Knight does not know his own side; at 4 to 7 he does
    v = variant(tmp_path, "    act:\n      walk: \"1 if side(me) == loyal else 0\"\n", base="shadows_over_camelot")
    pol = load(RULESETS / "shadows_over_camelot", [v]).program.policy
    assert pol.base.act["walk"].safe == frozenset(range(4, 8))
    assert pol.side_safe == frozenset(range(4, 8))


def test_sides_and_overrides_change_the_weights(tmp_path):
    v = variant(tmp_path, "    sides:\n      loser: {weights: {card_value: -10}}\n")
    g = load(RULESETS / "high_tide", [v])
    pol = g.program.policy
    st = g.new_game(seed=3, players=3)
    seat = Seat(st)
    assert pol.weights_of("loser")["card_value"] == -10 and pol.weights_of(None)["card_value"] == 10
    # everyone is a loser before the goal: -10 per point, minus 3 per unseen card of the value
    assert seat.evaluate(pol, Rng(1)) == [-12.0, -32.0, -36.0]
    assert seat.evaluate(pol, Rng(1), {"loser": {"card_value": 1}}) == [-12.0, -10.0, -3.0]
    assert PolicyBot(1, g).choose(seat) == "draw_card"


def test_softmax_and_argmax():
    rng = Rng(5)
    assert pick([1.0, 3.0, 2.0], 0.0, rng) == 1
    assert {pick([1.0, 1.0], 0.0, Rng(s)) for s in range(20)} == {0, 1}  # ties at random
    draws = [pick([0.0, 1.0], 1.0, rng) for _ in range(2000)]
    p1 = softmax([0.0, 1.0], 1.0)[1]
    assert abs(sum(draws) / 2000 - p1) < 0.04
    assert abs(sum(softmax([5.0, 1.0, -3.0], 2.0)) - 1) < 1e-9


def test_a_policy_bot_needs_a_policy(tmp_path):
    p = tmp_path / "none.yaml"
    p.write_text("variant: none\ntitle: no policy\nbase: high_tide\nmerge:\n  policy: null\n", encoding="utf-8")
    g = load(RULESETS / "high_tide", [str(p)])
    assert g.program.policy is None and default_kind(g) == "random"
    with pytest.raises(ValueError, match="has no policy"):
        make_bot("policy", 1, g)
    assert default_kind(load(RULESETS / "high_tide")) == "policy"


def test_search_bots_play_out_with_the_policy():
    g = load(RULESETS / "high_tide")
    st = g.new_game(seed=3, players=3)
    bot = MctsBot(2, g, iterations=30)
    assert bot.policy is g.program.policy and bot.guided
    a = bot.choose(Seat(st))
    assert a == MctsBot(2, g, iterations=30).choose(Seat(st))
    assert a in {o.id for o in st.options()}
    assert MctsBot(2, g, policy=False).policy is None


def test_policy_games_replay_and_end(tmp_path):
    from interpreter.sim.runner import run_one
    for name, n in (("high_tide", 3), ("castle_of_the_devil", 4)):
        a = run_one(str(RULESETS / name), 11, n, ("policy",))
        b = run_one(str(RULESETS / name), 11, n, ("policy",))
        assert a["reason"] not in ("error", "decision_limit") and a["winners"]
        assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}


def test_play_seats_policy_bots_where_the_ruleset_has_a_policy(tmp_path, capsys):
    import json

    from interpreter.cli import main
    save = tmp_path / "s.json"
    assert main(["play", "high_tide", "--players", "3", "--seed", "2", "--quiet", "--save", str(save)]) == 0
    assert json.loads(save.read_text())["seats"] == ["policy"] * 3
    assert main(["play", "high_tide", "--players", "3", "--seats", "policy,random,mcts", "--quiet"]) == 0
    p = tmp_path / "none.yaml"
    p.write_text("variant: none\ntitle: no policy\nbase: high_tide\nmerge:\n  policy: null\n", encoding="utf-8")
    assert main(["play", "high_tide", "--variant", str(p), "--seats", "policy", "--quiet"]) == 2
    assert "has no policy" in capsys.readouterr().err
    assert main(["simulate", "high_tide", "--variant", str(p), "--bots", "policy", "--games", "2",
                 "--quiet", "--out", str(tmp_path / "sim")]) == 2


def test_explain_and_diff_know_the_policy(tmp_path, capsys):
    from interpreter.cli import main
    castle = str(RULESETS / "castle_of_the_devil")
    assert main(["explain", castle, "policy.weights.trade_info"]) == 0
    out = capsys.readouterr().out
    assert "policy.weights.trade_info = 3" in out and "policy.yaml:" in out
    v = variant(tmp_path, "    weights: {trade_info: 5}\n", base="castle_of_the_devil")
    assert main(["explain", castle, "--variant", v, "policy.weights.trade_info"]) == 0
    assert "v.yaml" in capsys.readouterr().out
    assert main(["diff", castle, "--variant", v]) == 0
    assert "policy: weights.trade_info 3 -> 5" in capsys.readouterr().out
    assert load(castle, [v]).program.policy.base.weights["trade_info"] == 5


def test_a_choose_score_reads_the_asking_effects_player_locals_on_a_drawn_world(tmp_path):
    # Castle's trade answer is asked inside an effect that names the trading partner `t`: a
    # score may read him (the player a card goes to, the one who offers), but a player local
    # may have been computed from hidden cards, so the score is a hidden read and runs on a
    # world drawn from the decider's view; the bot still plays whole games with it
    v = variant(tmp_path, "    choose:\n      trade_answer: \"1 if u == me else 0\"\n", base="castle_of_the_devil")
    with pytest.raises(RulesetError, match="undefined name 'u'"):  # only the asking effect's names
        load(RULESETS / "castle_of_the_devil", [v])
    v = variant(tmp_path, "    choose:\n      trade_answer: \"(1 if t == me else 0) + (2 if choice == none else 0)\"\n",
                base="castle_of_the_devil")
    g = load(RULESETS / "castle_of_the_devil", [v])
    sc = next(s for (prompt, _), s in g.program.policy.base.choose.items() if prompt == "trade_answer")
    assert sc.frame and "t" in sc.frame and not sc.safe
    assert sc.why and all("may be hidden" in w for w in sc.why), sc.why
    st = g.new_game(seed=3, players=4, record=False)
    bots = [make_bot("policy", p, g) for p in range(4)]
    asked = 0
    while not st.over and asked < 3:
        seat = Seat(st)
        asked += seat.prompt == "trade_answer"
        st.apply_in_place(bots[st.current_player()].choose(seat))
    assert asked


def test_a_score_split_at_its_conditions_scores_every_option_as_the_whole_expression():
    # Scorer.plan evaluates a condition no option changes once a decision; the scores must be
    # those of the whole expression, decision by decision, in seeded games
    g = load(RULESETS / "shadows_over_camelot", ["first_game"])
    pol = g.program.policy
    scorers = [sc for sec in [pol.base, *pol.sides.values()]
               for sc in [*sec.act.values(), *sec.choose.values()]]
    planned = [sc for sc in scorers if sc.plan is not None]
    assert any(sc.plan[0] == "if" for sc in planned)  # travel: `stay if <at a quest> else ...`
    checked = 0
    for seed in range(3):
        st = g.new_game(seed=seed, players=4, record=False)
        while not st.over:
            opts = st.options()
            p = st.current_player()
            fast = pol.scores(st, p, opts)
            saved = [sc.plan for sc in planned]
            for sc in planned:
                sc.plan = None
            try:
                whole = pol.scores(st, p, opts)
            finally:
                for sc, pl in zip(planned, saved):
                    sc.plan = pl
            assert fast == whole
            checked += len(opts) > 1
            st.apply_in_place(opts[fast.index(max(fast))].id)
    assert checked > 100
