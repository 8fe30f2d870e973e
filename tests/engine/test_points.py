"""Points and names of every hand (RULES.md §2).

Every hand of both decks is checked against `reference_points` below: a second way of counting, written apart
from the engine and shaped differently (it lists every score the rules would give the hand and keeps the best),
so a slip in one is not repeated in the other.
"""

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.cards import Card, CardError, deck, parse_hand, wild_card
from tables.engine.points import HandError, Points, hand_mask, hand_points, points_table

# --- the second way of counting -----------------------------------------------------------------------------

SUIT_SYMBOLS = "♠♥♦♣"
RANK_VALUE = {6: 6, 7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10, 13: 10, 14: 11}
LOWEST = {"classic": 6, "bulgarian": 7}


def reference_points(family, hand):
    """hand: three (rank, suit) pairs. Returns (points, name)."""
    wild = (LOWEST[family], "♣")
    has_wild = wild in hand
    plain = [card for card in hand if card != wild]
    ranks = Counter(rank for rank, _ in hand)
    candidates = []

    # Every suit is a candidate (an empty suit scores 0); the wild card is in no suit but adds 11 to each.
    for suit in SUIT_SYMBOLS:
        in_suit = sum(RANK_VALUE[rank] for rank, s in plain if s == suit)
        if has_wild:
            candidates.append((in_suit + 11, None))
        elif family == "classic" and in_suit == 31:
            candidates.append((31, "top trynki"))
        else:
            candidates.append((in_suit, None))

    if family == "classic":
        if ranks[6] == 3:
            candidates.append((34, "three shakhas"))
        elif ranks[14] == 3:
            candidates.append((33, "three foreheads"))
        elif 3 in ranks.values():
            candidates.append((32.5, None))
        if ranks[14] == 2:
            candidates.append((22, "two foreheads"))
    else:
        for rank, count in ranks.items():
            if count == 3:
                candidates.append(
                    {7: (34, "three sevens"), 14: (33, "three aces")}.get(rank, (3 * RANK_VALUE[rank], None))
                )
        if has_wild:
            plain_ranks = Counter(rank for rank, _ in plain)
            for rank, count in plain_ranks.items():
                if count == 2:
                    candidates.append(
                        {7: (34, "three sevens"), 14: (33, "three aces")}.get(
                            rank, (11 + 2 * RANK_VALUE[rank], None)
                        )
                    )
        if ranks[7] == 2:
            candidates.append((23, "two sevens"))
        if ranks[14] == 2:
            candidates.append((22, "two aces"))

    best = max(points for points, _ in candidates)
    names = {name for points, name in candidates if points == best and name is not None}
    assert len(names) <= 1, (hand, names)
    return best, (names.pop() if names else None)


def all_hands(family):
    cards = [(rank, suit) for suit in SUIT_SYMBOLS for rank in range(LOWEST[family], 15)]
    return list(itertools.combinations(cards, 3))


def as_cards(hand):
    return [Card(rank, suit) for rank, suit in hand]


# --- every hand ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("family", "count"), [("classic", 7140), ("bulgarian", 4960)])
def test_every_hand_scores_as_the_second_count_section_2(family, count):
    hands = all_hands(family)
    assert len(hands) == count
    wrong = []
    for hand in hands:
        expected = reference_points(family, hand)
        for order in itertools.permutations(
            as_cards(hand)
        ):  # the lookup is by ordered triple: try each order
            got = hand_points(family, order)
            if (got.points, got.name) != expected:
                wrong.append((order, got, expected))
    assert wrong == []


@pytest.mark.parametrize(("family", "count"), [("classic", 7140), ("bulgarian", 4960)])
def test_points_table_holds_exactly_the_hands_of_the_deck(family, count):
    table = points_table(family)
    assert len(table) == count
    assert all(mask.bit_count() == 3 for mask in table)
    deck_bits = 0
    for card in deck(family):
        deck_bits |= card.bit
    assert all(mask & ~deck_bits == 0 for mask in table)


@pytest.mark.parametrize("family", ["classic", "bulgarian"])
def test_points_are_ints_except_classic_triples_so_json_prints_32_not_32_0(family):
    for points in points_table(family).values():
        assert isinstance(points, Points)
        if points.points == 32.5:
            assert family == "classic"
        else:
            assert type(points.points) is int, points
    assert json.dumps(hand_points("classic", "A♥ K♥ 6♣").points) == "32"
    assert json.dumps(hand_points("classic", "K♥ K♠ K♦").points) == "32.5"


# How many hands carry each name, counted by hand from the rules.
CLASSIC_NAME_COUNTS = {
    "three shakhas": 4,  # choose 3 of the 4 sixes
    "three foreheads": 4,  # choose 3 of the 4 aces
    "top trynki": 4 * 6,  # per suit: its ace and 2 of its 4 ten-valued cards
    "two foreheads": 6 * 32,  # 2 of 4 aces, and any of the 32 cards that is not an ace
}
BULGARIAN_NAME_COUNTS = {
    "three sevens": 4,
    # 3 of the 4 aces, or the wild seven with 2 of the 4 aces
    "three aces": 4 + 6,
    # 2 of the 4 sevens and a card that is not a seven (6 * 28), less the pairs holding the wild seven (3) with a card
    # of the other seven's suit (7 each): those score 7 + card + 11 >= 26 in that suit.
    "two sevens": 6 * 28 - 3 * 7,
    # 2 of the 4 aces and a card that is not an ace (6 * 28), less the wild seven with them (6): that is three aces.
    "two aces": 6 * 28 - 6,
}


@pytest.mark.parametrize(
    ("family", "expected"), [("classic", CLASSIC_NAME_COUNTS), ("bulgarian", BULGARIAN_NAME_COUNTS)]
)
def test_how_many_hands_carry_each_name(family, expected):
    names = Counter(points.name for points in points_table(family).values() if points.name)
    assert dict(names) == expected


def test_classic_scores_run_from_7_to_34_with_the_triples_counted():
    scores = Counter(points.points for points in points_table("classic").values())
    assert min(scores) == 7  # 6 6 7 or 6 7 7 of three suits: the highest card
    assert max(scores) == 34
    assert scores[34] == 4
    assert scores[33] == 4
    assert scores[32.5] == 7 * 4  # seven other ranks, 4 triples each


# --- RULES.md §2 examples, classic --------------------------------------------------------------------------


def points_of(family, text):
    return tuple(hand_points(family, parse_hand(text)))


def test_three_sixes_are_three_shakhas_34_classic_rule_1():
    assert points_of("classic", "6♥ 6♠ 6♣") == (34, "three shakhas")
    # the shakha counts as a plain six: three sixes without it are the same hand
    assert points_of("classic", "6♥ 6♠ 6♦") == (34, "three shakhas")


def test_three_aces_are_three_foreheads_33_classic_rule_2():
    assert points_of("classic", "A♥ A♠ A♦") == (33, "three foreheads")


def test_other_triples_are_32_5_and_all_equal_classic_rule_3():
    assert points_of("classic", "K♥ K♠ K♦") == (32.5, None)
    assert points_of("classic", "7♥ 7♠ 7♣") == points_of("classic", "K♥ K♠ K♦")


def test_three_suits_count_the_highest_card_classic_rule_4():
    assert points_of("classic", "K♠ 9♥ 7♦") == (10, None)


def test_best_suit_is_summed_classic_rule_4():
    assert points_of("classic", "9♥ 8♥ A♠") == (17, None)
    assert points_of("classic", "6♥ 7♥ A♠") == (13, None)


def test_shakha_adds_11_to_the_highest_of_two_suits_classic_rule_5():
    assert points_of("classic", "7♥ 9♠ 6♣") == (20, None)


def test_shakha_adds_11_to_the_suit_of_the_other_two_classic_rule_5():
    assert points_of("classic", "A♥ K♥ 6♣") == (32, None)
    # a club beside the shakha is still a suit of its own
    assert points_of("classic", "A♣ K♣ 6♣") == (32, None)


def test_two_aces_are_two_foreheads_22_classic_rule_6():
    assert points_of("classic", "A♠ A♥ 7♦") == (22, "two foreheads")
    assert points_of("classic", "A♠ A♥ K♠") == (22, "two foreheads")  # 21 in spades is less


def test_shakha_does_not_make_a_pair_into_three_of_a_kind_classic_rule_7():
    assert points_of("classic", "K♥ K♦ 6♣") == (21, None)
    assert points_of("classic", "A♥ A♦ 6♣") == (22, "two foreheads")


def test_31_in_one_suit_without_the_shakha_is_top_trynki_classic_rule_8():
    assert points_of("classic", "A♥ K♥ Q♥") == (31, "top trynki")
    assert points_of("classic", "A♣ 10♣ J♣") == (31, "top trynki")
    # 31 with the shakha is not top trynki
    assert points_of("classic", "K♥ Q♥ 6♣") == (31, None)


# --- RULES.md §2 examples, bulgarian ------------------------------------------------------------------------


def test_three_sevens_34_three_aces_33_bulgarian_rule_1():
    assert points_of("bulgarian", "7♥ 7♠ 7♦") == (34, "three sevens")
    assert points_of("bulgarian", "7♥ 7♠ 7♣") == (34, "three sevens")
    assert points_of("bulgarian", "A♥ A♠ A♦") == (33, "three aces")


def test_other_triples_are_three_times_the_value_bulgarian_rule_1():
    assert points_of("bulgarian", "8♥ 8♠ 8♦") == (24, None)
    assert points_of("bulgarian", "Q♥ Q♠ Q♦") == (30, None)
    assert points_of("bulgarian", "10♥ 10♠ 10♦") == (30, None)


def test_wild_seven_with_a_pair_is_11_plus_the_pair_bulgarian_rule_2():
    assert points_of("bulgarian", "7♣ K♥ K♦") == (31, None)
    assert points_of("bulgarian", "7♣ A♥ A♦") == (33, "three aces")
    assert points_of("bulgarian", "7♣ 7♥ 7♦") == (34, "three sevens")


def test_two_sevens_23_two_aces_22_bulgarian_rule_3():
    assert points_of("bulgarian", "7♥ 7♦ 8♣") == (23, "two sevens")
    assert points_of("bulgarian", "7♣ 7♦ K♠") == (23, "two sevens")  # the wild seven is a seven
    assert points_of("bulgarian", "A♥ A♦ 9♣") == (22, "two aces")


def test_two_sevens_give_way_to_a_better_suit_with_the_wild_seven_bulgarian_rules_3_and_4():
    assert points_of("bulgarian", "7♣ 7♥ A♥") == (29, None)


def test_wild_seven_adds_11_to_the_best_suit_of_the_other_two_bulgarian_rule_4():
    assert points_of("bulgarian", "7♣ 9♠ J♠") == (30, None)
    assert points_of("bulgarian", "7♣ 8♠ 10♦") == (21, None)
    assert points_of("bulgarian", "8♠ A♦ 7♣") == (22, None)


def test_other_pairs_count_nothing_bulgarian_rule_5():
    assert points_of("bulgarian", "Q♣ Q♥ 9♦") == (10, None)
    assert points_of("bulgarian", "7♥ 9♦ 9♣") == (9, None)


def test_31_in_one_suit_beats_ten_valued_triples_bulgarian():
    assert points_of("bulgarian", "A♥ K♥ Q♥") == (31, None)


# --- the public call --------------------------------------------------------------------------------------------


def test_hand_points_takes_cards_or_text():
    cards = parse_hand("Ah Kh 6c")
    assert (
        hand_points("classic", cards)
        == hand_points("classic", tuple(cards))
        == hand_points("classic", "A♥ K♥ 6♣")
    )
    assert hand_points("classic", ["Ah", "Kh", "6c"]) == Points(32, None)


@pytest.mark.parametrize(
    ("family", "hand", "message"),
    [
        ("classic", "A♥ A♥ K♥", "A♥ is in the hand twice"),
        ("classic", "A♥ K♥", "three cards, not 2"),
        ("classic", "A♥ K♥ Q♥ J♥", "three cards, not 4"),
        ("bulgarian", "6♠ 7♥ 8♥", "6♠ is not in the bulgarian deck"),
        ("bulgarian", "6♣ 7♥ 8♥", "6♣ is not in the bulgarian deck"),
        ("classic", "A♥ K♥ Z♥", "not a card"),
        ("classic", "", "no cards"),
    ],
)
def test_a_bad_hand_is_a_hand_error_with_the_reason(family, hand, message):
    with pytest.raises(HandError, match=message):
        hand_points(family, hand)
    if hand:
        with pytest.raises(HandError, match=message.split(" (")[0]):
            hand_points(family, [part for part in hand.split()])


def test_a_hand_of_not_cards_is_a_hand_error():
    with pytest.raises(HandError):
        hand_points("classic", [1, 2, 3])
    with pytest.raises(HandError):
        hand_points("classic", None)


def test_unknown_family_is_a_card_error():
    with pytest.raises(CardError, match="no such family"):
        hand_points("poker", "A♥ K♥ Q♥")


def test_hand_mask_is_the_or_of_the_card_bits():
    cards = parse_hand("A♥ K♥ 6♣")
    assert hand_mask("classic", cards) == cards[0].bit | cards[1].bit | cards[2].bit
    assert points_table("classic")[hand_mask("classic", cards)] == Points(32, None)


# --- properties ---------------------------------------------------------------------------------------------


def hands_of(family):
    return st.lists(st.sampled_from(deck(family)), min_size=3, max_size=3, unique=True)


families = st.sampled_from(["classic", "bulgarian"])


@given(st.data())
def test_order_of_the_cards_does_not_matter(data):
    family = data.draw(families)
    hand = data.draw(hands_of(family))
    results = {hand_points(family, order) for order in itertools.permutations(hand)}
    assert len(results) == 1


@given(st.data())
def test_ascii_and_symbol_text_score_the_same(data):
    family = data.draw(families)
    hand = data.draw(hands_of(family))
    symbols = " ".join(str(card) for card in hand)
    ascii_text = ",".join(card.ascii for card in hand)
    assert hand_points(family, symbols) == hand_points(family, ascii_text) == hand_points(family, hand)


@given(st.data())
def test_points_are_at_least_the_best_plain_card_and_at_most_34(data):
    family = data.draw(families)
    hand = data.draw(hands_of(family))
    points = hand_points(family, hand).points
    highest_plain = max(card.value for card in hand if card != wild_card(family))
    assert highest_plain <= points <= 34


@given(st.data())
def test_the_wild_card_never_scores_less_than_another_lowest_card_would(data):
    # Swapping the wild card for a plain card of the same rank never helps (it would lose the 11).
    family = data.draw(families)
    wild = wild_card(family)
    others = data.draw(
        st.lists(st.sampled_from([c for c in deck(family) if c != wild]), min_size=2, max_size=2, unique=True)
    )
    plain = data.draw(
        st.sampled_from([c for c in deck(family) if c.rank == wild.rank and c != wild and c not in others])
    )
    assert hand_points(family, [*others, wild]).points >= hand_points(family, [*others, plain]).points


def test_the_wild_card_never_scores_less_than_another_lowest_card_would_every_hand():
    for family in ("classic", "bulgarian"):
        wild = wild_card(family)
        plain_cards = [c for c in deck(family) if c != wild]
        for pair in itertools.combinations(plain_cards, 2):
            with_wild = hand_points(family, [*pair, wild]).points
            for plain in plain_cards:
                if plain.rank == wild.rank and plain not in pair:
                    assert with_wild >= hand_points(family, [*pair, plain]).points, (pair, plain)


def test_the_examples_in_docs_engine_cards_and_points_hold():
    import doctest
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
    section = re.search(r"^## Cards and points\n(.*?)(?=^## |\Z)", text, re.S | re.M).group(1)
    test = doctest.DocTestParser().get_doctest(
        section, {}, "docs/engine.md#cards-and-points", "docs/engine.md", 0
    )
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
