"""Equity: the share of possible opponent hands a hand beats, checked against brute force."""

import random
from itertools import combinations

import pytest

from tables.engine.cards import CardError, deck, parse_hand
from tables.engine.equity import Share, expected_equity, hand_share, win_probability
from tables.engine.points import hand_points


def brute_force(family, hand, excluded):
    mine = hand_points(family, hand).points
    gone = set(hand) | set(excluded)
    beats = ties = total = 0
    for other in combinations([card for card in deck(family) if card not in gone], 3):
        points = hand_points(family, other).points
        total += 1
        beats += points < mine
        ties += points == mine
    return Share(beats, ties, total)


@pytest.mark.parametrize("family", ["classic", "bulgarian"])
def test_share_matches_brute_force_with_and_without_shown_cards(family):
    rng = random.Random(7)
    for _ in range(25):
        cards = rng.sample(deck(family), 3 + rng.randint(0, 12))  # up to 12 shown cards: both code paths
        assert hand_share(family, cards[:3], cards[3:]) == brute_force(family, cards[:3], cards[3:])


def test_opponent_hands_come_from_the_deck_that_remains():
    # classic: 36 - 3 = 33 cards → C(33, 3) = 5,456 hands; bulgarian: C(29, 3) = 3,654
    assert hand_share("classic", parse_hand("Ah Kh 6c")).total == 5456
    assert hand_share("bulgarian", parse_hand("Ah Kh 7c")).total == 3654
    assert hand_share("classic", parse_hand("Ah Kh 6c"), parse_hand("9s 9d 9h")).total == 4060  # C(30, 3)


def test_three_shakhas_beat_every_other_hand_classic():
    share = hand_share("classic", parse_hand("6h 6s 6c"))
    assert share.beats == share.total and share.equity == 1.0


def test_ties_count_half():
    # Two ten-valued cards of a suit plus an ace is 31 points; another top trynki ties it.
    share = hand_share("classic", parse_hand("Ah Kh Qh"))
    assert share.ties > 0
    assert share.equity == pytest.approx((share.beats + share.ties / 2) / share.total)


def test_equity_grows_with_points_classic():
    weak, middling, strong = (hand_share("classic", parse_hand(text)).equity for text in ("7h 8s 9d", "Kh 9h 7s", "Ah Kh 6c"))
    assert weak < middling < strong


def test_unseen_hand_is_even_and_partial_hand_averages_its_completions():
    assert expected_equity("classic", []) == 0.5
    ace = parse_hand("Ah")
    rest = [card for card in deck("classic") if card not in ace]
    average = sum(hand_share("classic", ace + list(pair)).equity for pair in combinations(rest, 2)) / 595
    assert expected_equity("classic", ace) == pytest.approx(average)


def test_more_opponents_make_winning_less_likely():
    assert win_probability(0.8, 1) == pytest.approx(0.8)
    assert win_probability(0.8, 3) == pytest.approx(0.512)


def test_bad_hands_are_refused():
    with pytest.raises(CardError):
        hand_share("classic", parse_hand("Ah Kh"))
    with pytest.raises(CardError):
        hand_share("bulgarian", parse_hand("6h Kh Qh"))  # no sixes in the bulgarian deck
    with pytest.raises(CardError):
        hand_share("poker", parse_hand("Ah Kh Qh"))
