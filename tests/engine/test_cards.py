"""Cards and decks of the two families (RULES.md, the table at the top, and §1)."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine.cards import (
    ALL_CARDS,
    FAMILIES,
    Card,
    CardError,
    deck,
    format_hand,
    parse_card,
    parse_hand,
    wild_card,
)


def test_families_are_classic_and_bulgarian():
    assert FAMILIES == ("classic", "bulgarian")


def test_classic_deck_is_36_cards_six_to_ace():
    cards = deck("classic")
    assert len(cards) == 36
    assert len(set(cards)) == 36
    assert {card.rank for card in cards} == set(range(6, 15))
    assert {card.suit for card in cards} == set("♠♥♦♣")


def test_bulgarian_deck_is_32_cards_seven_to_ace():
    cards = deck("bulgarian")
    assert len(cards) == 32
    assert len(set(cards)) == 32
    assert {card.rank for card in cards} == set(range(7, 15))
    assert Card(6, "♠") not in cards


def test_deck_is_a_fresh_list_each_time():
    cards = deck("classic")
    cards.pop()
    cards.reverse()
    assert len(deck("classic")) == 36
    assert deck("classic")[0] == Card(6, "♠")


def test_wild_card_is_six_of_clubs_shakha_in_classic_and_seven_of_clubs_in_bulgarian():
    assert wild_card("classic") == Card(6, "♣")
    assert str(wild_card("classic")) == "6♣"
    assert wild_card("bulgarian") == Card(7, "♣")
    assert wild_card("bulgarian") in deck("bulgarian")


@pytest.mark.parametrize("family", ["poker", "", "Classic", None])
def test_unknown_family_is_a_card_error(family):
    with pytest.raises(CardError, match="no such family"):
        deck(family)
    with pytest.raises(CardError, match="no such family"):
        wild_card(family)


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("A♥", 14, "♥"),
        ("Ah", 14, "♥"),
        ("ah", 14, "♥"),
        ("AH", 14, "♥"),
        ("10h", 10, "♥"),
        ("Th", 10, "♥"),
        ("t♥", 10, "♥"),
        ("10♥", 10, "♥"),
        ("6c", 6, "♣"),
        ("6♣", 6, "♣"),
        ("Js", 11, "♠"),
        ("Qd", 12, "♦"),
        ("K♠", 13, "♠"),
        (" 9♦ ", 9, "♦"),
        ("A♡", 14, "♥"),
        ("A♥\ufe0f", 14, "♥"),
    ],
)
def test_parse_card_reads_symbol_and_ascii_forms(text, rank, suit):
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize(
    "text", ["", " ", "A", "♥", "1h", "11h", "5h", "2♠", "Ax", "A♥♥", "Ahh", "ZZ", "10", "1 0h"]
)
def test_parse_card_refuses_what_is_not_a_card(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_parse_card_refuses_non_text():
    with pytest.raises(CardError):
        parse_card(14)


def test_card_error_message_says_what_was_wrong():
    with pytest.raises(CardError, match="'Xh'.*rank"):
        parse_card("Xh")
    with pytest.raises(CardError, match="'Ax'.*suit"):
        parse_card("Ax")


def test_parse_hand_splits_on_spaces_and_commas():
    assert parse_hand("A♥ K♥ 6♣") == [Card(14, "♥"), Card(13, "♥"), Card(6, "♣")]
    assert parse_hand("Ah,Kh,6c") == parse_hand("A♥ K♥ 6♣")
    assert parse_hand("  Ah ,  Kh\t6c\n") == parse_hand("A♥ K♥ 6♣")
    assert parse_hand("10h Th") == [Card(10, "♥"), Card(10, "♥")]  # parse does not judge the hand


def test_parse_hand_of_nothing_is_an_error():
    with pytest.raises(CardError):
        parse_hand(" , ")


def test_card_writes_symbol_and_ascii_forms():
    assert str(Card(14, "♥")) == "A♥"
    assert Card(14, "♥").ascii == "Ah"
    assert str(Card(10, "♣")) == "10♣"
    assert Card(10, "♣").ascii == "Tc"
    assert format_hand(parse_hand("Ah Kh 6c")) == "A♥ K♥ 6♣"
    assert format_hand(parse_hand("A♥ K♥ 10♣"), ascii=True) == "Ah Kh Tc"


def test_card_values_rule_1():
    values = {str(card): card.value for card in deck("classic") if card.suit == "♠"}
    assert values == {"6♠": 6, "7♠": 7, "8♠": 8, "9♠": 9, "10♠": 10, "J♠": 10, "Q♠": 10, "K♠": 10, "A♠": 11}


def test_card_is_frozen_hashable_and_ordered():
    card = Card(14, "♥")
    with pytest.raises(AttributeError):
        card.rank = 6
    assert card == parse_card("Ah")
    assert hash(card) == hash(parse_card("Ah"))
    assert len({Card(14, "♥"), parse_card("A♥"), parse_card("Ah")}) == 1
    assert Card(6, "♣") < Card(7, "♠") < Card(14, "♥")
    assert sorted(parse_hand("A♥ 6♣ K♥")) == parse_hand("6♣ K♥ A♥")
    assert card != "A♥"


def test_card_survives_pickle():
    card = Card(12, "♦")
    assert pickle.loads(pickle.dumps(card)) == card


@pytest.mark.parametrize(
    ("rank", "suit"), [(5, "♥"), (15, "♥"), (True, "♥"), ("A", "♥"), (14, "h"), (14, "♥♥")]
)
def test_card_constructor_refuses_bad_rank_or_suit(rank, suit):
    with pytest.raises(CardError):
        Card(rank, suit)


def test_every_card_has_its_own_index_and_bit():
    assert [card.index for card in ALL_CARDS] == list(range(36))
    assert sorted(card.bit for card in ALL_CARDS) == [1 << i for i in range(36)]
    assert {card.index for card in deck("bulgarian")} < set(range(36))


@given(st.sampled_from(ALL_CARDS))
def test_symbol_and_ascii_forms_round_trip(card):
    assert parse_card(str(card)) == card
    assert parse_card(card.ascii) == card
    assert parse_card(card.ascii.lower()) == card


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=8), st.booleans())
def test_hand_text_round_trips(cards, ascii):
    assert parse_hand(format_hand(cards, ascii=ascii)) == cards
