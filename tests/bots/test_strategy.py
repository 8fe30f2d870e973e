"""The bots' decisions (tables.engine.strategy): from a seat's view and its legal actions only."""

import inspect
import random

import pytest

from tables.engine import strategy
from tables.engine.strategy import PROFILES, StrategyError, decide

from .views import make_view, seat_entry

FACING_BET = [("call", 40, 40), ("raise", 80, 490), ("fold", None, None)]
NO_BET = [("check", None, None), ("bet", 10, 40), ("fold", None, None)]
MONSTERS = {"classic": ("6h", "6s", "6c"), "bulgarian": ("7h", "7s", "7c")}


@pytest.mark.parametrize("family", ["classic", "bulgarian"])
@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_monster_is_never_folded(family, level):
    for seed in range(300):
        view = make_view(family=family, cards=MONSTERS[family], legal=FACING_BET, pot=120, bet_level=40, opponents=3)
        assert decide(view, rng=random.Random(seed), level=level)["kind"] != "fold"


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_never_folds_when_it_can_check(level):
    for seed in range(300):
        view = make_view(cards=("7h", "8s", "9d"), legal=NO_BET, opponents=5)
        assert decide(view, rng=random.Random(seed), level=level)["kind"] != "fold"


def test_weak_hand_folds_to_a_big_bet_and_strong_hand_calls_or_raises():
    weak = make_view(cards=("7h", "8s", "9d"), legal=FACING_BET, pot=120, bet_level=40)
    assert {decide(weak, rng=random.Random(seed))["kind"] for seed in range(50)} <= {"fold", "raise"}
    assert decide(weak, rng=random.Random(1))["kind"] == "fold"
    good = make_view(cards=("Ah", "Kh", "Qh"), legal=FACING_BET, pot=120, bet_level=40)  # 31: top trynki
    assert {decide(good, rng=random.Random(seed))["kind"] for seed in range(50)} <= {"call", "raise"}


def test_pot_odds_decide_a_middling_call():
    # A♥ 8♠ 7♦ = 11 points (beats about a third of the hands): calls a small bet into a big pot, folds to a
    # pot-sized one.
    cheap = make_view(cards=("Ah", "8s", "7d"), legal=[("call", 10, 10), ("raise", 20, 490), ("fold", None, None)],
                      pot=200, bet_level=10)  # fmt: skip
    dear = make_view(cards=("Ah", "8s", "7d"), legal=[("call", 200, 200), ("raise", 400, 490), ("fold", None, None)],
                     pot=400, bet_level=200)  # fmt: skip
    assert decide(cheap, rng=random.Random(3))["kind"] == "call"
    assert decide(dear, rng=random.Random(3))["kind"] == "fold"


def test_more_opponents_need_a_better_hand():
    # The strong bot weighs its chance against each opponent (equity ** n): 25 points call heads-up, not 5-way.
    legal = [("call", 40, 40), ("raise", 80, 490), ("fold", None, None)]
    heads_up = make_view(cards=("Kh", "Qh", "9s"), legal=legal, pot=120, bet_level=40, opponents=1)
    five_way = make_view(cards=("Kh", "Qh", "9s"), legal=legal, pot=120, bet_level=40, opponents=5)
    assert strategy.chance_to_win(strategy.read_view(five_way), PROFILES["strong"]) < strategy.chance_to_win(
        strategy.read_view(heads_up), PROFILES["strong"]
    )


def test_unopened_cards_are_opened_one_at_a_time_D1():
    view = make_view(cards=("Ah", None, None), legal=[("open", 1, 2), *FACING_BET], bet_level=40, pot=120)
    assert decide(view, rng=random.Random(0), level="strong") == {"kind": "open", "amount": None, "card": 1}


def test_easy_and_strong_play_differently():
    differ = 0
    for seed in range(200):
        rng = random.Random(seed)
        cards = rng.sample(["Ah", "Kh", "Qh", "Js", "10s", "9d", "8c", "7d", "9h", "Ks"], 3)
        view = make_view(cards=tuple(cards), legal=FACING_BET, pot=120, bet_level=40, opponents=2)
        easy = decide(view, rng=random.Random(seed), level="easy")
        strong = decide(view, rng=random.Random(seed), level="strong")
        differ += easy != strong
    assert differ >= 20


def test_mixed_strategy_draws_from_the_injected_rng():
    view = make_view(cards=("7h", "8s", "9d"), legal=NO_BET, pot=40, opponents=1)
    choices = [decide(view, rng=random.Random(seed))["kind"] for seed in range(400)]
    assert "bet" in choices and "check" in choices  # a bluff now and then, so the bot cannot be read
    assert choices == [decide(view, rng=random.Random(seed))["kind"] for seed in range(400)]  # replayable


def test_show_when_it_can_win_or_tie_else_fold_unseen():
    shower = seat_entry(0, cards=("Ah", "Kh", "Qh"), shown=True, points=31)
    legal = [("show", None, None), ("fold_hand", None, None)]
    loses = make_view(cards=("Kh", "9h", "7s"), legal=legal, phase="showdown", others={0: shower})
    ties = make_view(cards=("As", "Ks", "Qs"), legal=legal, phase="showdown", others={0: shower})
    assert decide(loses, rng=random.Random(0))["kind"] == "fold_hand"
    assert decide(ties, rng=random.Random(0))["kind"] == "show"


def test_split_when_short_and_play_on_only_when_deep():
    legal = [("split", None, None), ("play_on", None, None)]
    short = make_view(cards=("Ah", "Kh", "Qh"), legal=legal, phase="split_choice", pot=400, stack=100)
    deep = make_view(cards=("Ah", "Kh", "Qh"), legal=legal, phase="split_choice", pot=100, stack=900)
    assert {decide(short, rng=random.Random(s))["kind"] for s in range(50)} == {"split"}
    assert "play_on" in {decide(deep, rng=random.Random(s))["kind"] for s in range(50)}


def test_svara_buy_in_weighs_the_price_D11():
    legal = [("buy_in", None, None), ("decline", None, None)]
    svara = {"tied": [0, 2], "price": 150, "offer_to": 1, "buyers": []}
    view = make_view(cards=(None, None, None), legal=legal, phase="svara_buy_in", pot=300, stack=2000, svara=svara)
    situation = strategy.read_view(view)
    assert strategy.svara_buy_in_ev(situation) == pytest.approx((300 + 150) / 3 - 150)  # = 0: a fair price
    overpriced = dict(view, svara=dict(svara, price=250))
    assert {decide(overpriced, rng=random.Random(s))["kind"] for s in range(50)} == {"decline"}
    assert "buy_in" in {decide(view, rng=random.Random(s))["kind"] for s in range(50)}


def test_classic_blind_round_starts_blind_sometimes_then_looks_when_dear():
    start = make_view(cards=(None, None, None), legal=[("open", 0, 2), ("blind", 10, 10), ("check", None, None),
                                                       ("bet", 10, 20), ("fold", None, None)], pot=20)  # fmt: skip
    kinds = {decide(start, rng=random.Random(s))["kind"] for s in range(100)}
    assert kinds == {"blind", "open"}
    dear = make_view(cards=(None, None, None), legal=[("open", 0, 2), ("blind", 320, 320), ("fold", None, None)],
                     pot=500, bet_level=160, phase="blind_round")  # fmt: skip
    assert {decide(dear, rng=random.Random(s))["kind"] for s in range(50)} == {"open"}


def test_bulgarian_dark_bet_within_its_bounds_D7():
    view = make_view(family="bulgarian", cards=(None, None, None), pot=20,
                     legal=[("open", 0, 2), ("dark", 10, 20), ("check", None, None), ("bet", 10, 20)])  # fmt: skip
    darks = [a for a in (decide(view, rng=random.Random(s)) for s in range(200)) if a["kind"] == "dark"]
    assert darks and all(10 <= a["amount"] <= 20 for a in darks)


def test_the_decision_takes_the_view_never_the_state():
    assert list(inspect.signature(decide).parameters) == ["view", "legal", "rng", "level"]
    with pytest.raises(StrategyError):
        decide(make_view(legal=NO_BET), rng=random.Random(0), level="grandmaster")
    spectator = make_view(legal=NO_BET)
    spectator["you"] = None
    with pytest.raises(StrategyError):
        decide(spectator, rng=random.Random(0))


def test_the_strategy_cannot_reach_a_table_state():
    # It imports cards, points and equity only: nothing that holds or loads a TableState (no peeking).
    import ast
    from pathlib import Path

    tree = ast.parse(Path(strategy.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported <= {"__future__", "random", "dataclasses", "cards", "equity", "points"}, imported
