"""Provably fair deals (docs/fair.md, tracker issue 13): the procedure of tables/engine/fair.py is deterministic,
a permutation, uniform-looking, sensitive to every bit of its inputs, and it is what the engine deals from:
every deck of a deal and of its svaras recomputes from the deal's record."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import fair
from tables.engine.cards import ALL_CARDS, deck, format_hand
from tables.engine.events import DealEnded, SvaraDealt
from tables.engine.play import Action, IllegalAction, TableState
from tables.engine.simulate import RandomTable

from .play_helpers import TEN_A, TRYNKI, deal, table

server_seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
player_seeds = st.text(alphabet="0123456789abcdef", min_size=1, max_size=64)
families = st.sampled_from(["classic", "bulgarian"])
contributions = st.lists(st.tuples(st.integers(0, 7), player_seeds), max_size=8, unique_by=lambda p: p[0]).map(
    sorted)


def test_a_known_deck_pins_the_procedure():
    """The test vector of docs/fair.md: any restatement of the procedure (docs/verify_deal.py, static/js/fair.js)
    must give this deck."""
    seed = "00" * 32
    assert fair.commitment(seed) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    cards = fair.deck_for(seed, "classic", 1, 0, [(0, "ab"), (2, "0123")])
    assert format_hand(cards[:9]) == VECTOR_FIRST_NINE


VECTOR_FIRST_NINE = "A♣ 10♣ Q♣ Q♥ 6♣ 9♥ 7♣ 10♥ 7♦"


@settings(max_examples=60, deadline=None)
@given(server_seeds, families, st.integers(1, 10**6), st.integers(0, 10), contributions)
def test_the_deck_is_a_deterministic_permutation_of_the_family(seed, family, deal_no, svara, seeds):
    first = fair.deck_for(seed, family, deal_no, svara, seeds)
    assert first == fair.deck_for(seed, family, deal_no, svara, seeds)
    assert sorted(first, key=lambda c: c.index) == deck(family)


@settings(max_examples=60, deadline=None)
@given(server_seeds, families, st.integers(1, 10**6), st.integers(0, 10), contributions, st.data())
def test_every_input_bit_matters(seed, family, deal_no, svara, seeds, data):
    """Flip one bit of the server seed, change one character of a player's seed, add or drop a contribution, move
    it to another seat, change the deal number or the svara index: another deck (a collision is 1 in 36!)."""
    base = fair.deck_for(seed, family, deal_no, svara, seeds)
    bit = data.draw(st.integers(0, 255))
    flipped = (int(seed, 16) ^ (1 << bit)).to_bytes(32, "big").hex()
    assert fair.deck_for(flipped, family, deal_no, svara, seeds) != base
    assert fair.deck_for(seed, family, deal_no + 1, svara, seeds) != base
    assert fair.deck_for(seed, family, deal_no, svara + 1, seeds) != base
    assert fair.deck_for(seed, family, deal_no, svara, [*seeds, (9, "0")]) != base
    if seeds:
        k = data.draw(st.integers(0, len(seeds) - 1))
        seat, own = seeds[k]
        pos = data.draw(st.integers(0, len(own) - 1))
        other = "0123456789abcdef".replace(own[pos], "")[data.draw(st.integers(0, 14))]
        changed = [*seeds[:k], (seat, own[:pos] + other + own[pos + 1:]), *seeds[k + 1:]]
        assert fair.deck_for(seed, family, deal_no, svara, changed) != base
        assert fair.deck_for(seed, family, deal_no, svara, seeds[:k] + seeds[k + 1:]) != base
        moved = [*seeds[:k], (seat + 10, own), *seeds[k + 1:]]
        assert fair.deck_for(seed, family, deal_no, svara, moved) != base


def test_every_card_is_as_likely_at_every_position():
    """A chi-square over the 36 x 36 (card, position) counts of 7,200 decks from independent seeds: df = 1,260, the
    statistic of a uniform shuffle is 1,260 ± 50; a biased index (e.g. x mod m without rejection, or a Fisher-Yates
    off by one) gives far more."""
    decks = 7200
    counts = [[0] * 36 for _ in range(36)]
    for n in range(decks):
        seed = hashlib.sha256(b"chi %d" % n).hexdigest()
        for position, card in enumerate(fair.deck_for(seed, "classic", n, 0, [])):
            counts[card.index][position] += 1
    expected = decks / 36
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    assert 1260 - 300 < chi2 < 1260 + 300, chi2


@settings(max_examples=200, deadline=None)
@given(server_seeds, st.integers(1, 36))
def test_an_index_is_always_below_its_bound(seed, m):
    shuffle = fair.FairShuffle(seed, "classic", 1, 0, [])
    assert all(0 <= shuffle.below(m) < m for _ in range(20))


def test_a_draw_in_the_biased_tail_is_thrown_away():
    """Rejection sampling: a 4-byte draw at or above 2^32 - (2^32 mod m) is skipped, not folded into an index."""
    shuffle = fair.FairShuffle("11" * 32, "classic", 1, 0, [])
    m = 3  # 2^32 mod 3 = 1: only 0xffffffff is rejected
    shuffle._buffer = (0xFFFFFFFF).to_bytes(4, "big") + (7).to_bytes(4, "big")
    assert shuffle.below(m) == 7 % 3


@pytest.mark.parametrize("bad", ["", "ABC", "xyz", "a" * 65, " ab", "ab\n", 12, None])
def test_a_bad_player_seed_is_refused(bad):
    with pytest.raises(fair.SeedError):
        fair.check_player_seed(bad)


# --- the engine deals from it -----------------------------------------------------------------------------------


class FairChoices(random.Random):
    """RandomTable's random players, whose rng the engine does not deal from (`stacks_next` False): every deck is
    the fair procedure's."""

    stacks_next = False


class FairTable(RandomTable):
    def __init__(self, *args, **kwargs):
        self.records: list[fair.FairRecord] = []
        self.svara_decks = 0
        super().__init__(*args, **kwargs)
        self.rng = FairChoices(kwargs.get("seed"))

    def apply(self, action):
        if action.kind == "new_deal" and self.rng.random() < 0.7:
            action = action._replace(seed=self.rng.randbytes(self.rng.randint(1, 32)).hex()[: self.rng.randint(1, 64)])
        events = super().apply(action)
        self.svara_decks += sum(isinstance(e, SvaraDealt) for e in events)
        if any(isinstance(e, DealEnded) for e in events):
            self.records.append(fair.FairRecord.from_json(self.state.fair.to_json()))
        return events


@pytest.mark.parametrize("family", ["classic", "bulgarian"])
def test_every_deck_of_random_play_recomputes_from_its_record(family):
    played = FairTable(family, 5, seed=3, timeouts=0.1)
    played.play_deals(400)
    assert played.violations == []
    assert len(played.records) >= 400 and played.svara_decks > 0
    contributed = 0
    for record in played.records:
        assert not record.stacked
        svaras = [d.svara for d in record.decks]
        assert svaras == list(range(len(svaras)))  # the deal, then its svaras in order
        contributed += len(record.seeds)
        assert [seat for seat, _ in record.seeds] == sorted(seat for seat, _ in record.seeds)
        for dealt_deck in record.decks:
            cards = fair.deck_for(record.server_seed, family, record.deal_no, dealt_deck.svara, record.seeds)
            order = [seat for seat, _ in dealt_deck.dealt]
            assert [(seat, [c.index for c in hand]) for seat, hand in fair.hands_for(cards, order)] == dealt_deck.dealt
    assert contributed > 0
    assert len({r.server_seed for r in played.records}) == len(played.records)  # a fresh seed every deal


def test_the_commitment_is_published_before_the_deal_and_the_seed_changes_after_it():
    state = table(players=2)
    coming = state.view(0)["fair"]
    assert coming == {"deal_no": 1, "commitment": fair.commitment(state.server_seed), "stacked": False}
    seed = state.server_seed
    state.apply(Action("new_deal", seat=0, seed="beef"))
    state.apply(Action("new_deal", seat=1))
    assert state.fair.server_seed == seed and state.fair.seeds == [(0, "beef")]
    assert state.view(1)["fair"]["commitment"] == coming["commitment"]
    assert state.seats[0].seed is None  # used up by this deal
    while state.phase != "waiting":
        state.apply(Action("fold", seat=state.turn))
    assert state.server_seed != seed and state.fair.server_seed == seed  # revealed to the record, not the view
    assert state.view(0)["fair"]["deal_no"] == 2 and seed not in str(state.view(0))


@pytest.mark.parametrize("kind", ["new_deal", "back"])
def test_a_bad_seed_is_refused_and_changes_nothing(kind):
    state = table(players=2)
    if kind == "back":
        state.apply(Action("sit_out", seat=0))
    before = state.dumps()
    with pytest.raises(IllegalAction, match="lowercase hex"):
        state.apply(Action(kind, seat=0, seed="NOT-HEX"))
    assert state.dumps() == before


def test_deal_me_in_carries_the_seed_of_the_deal_pressed_for_him():
    state = table(players=2)
    state.apply(Action("standing", seat=1, choice="deal_me_in", seed="c0ffee"))
    assert state.view(1)["standing"]["seed"] == "c0ffee" and state.view(0)["standing"]["seed"] is None
    with pytest.raises(IllegalAction, match="only deal_me_in"):
        state.apply(Action("standing", seat=1, choice="fold_if_losing", seed="aa"))
    state.apply(Action("new_deal", seat=1))
    state.apply(Action("new_deal", seat=0, seed="01"))
    assert state.fair.seeds == [(0, "01"), (1, "c0ffee")]


def test_a_stacked_deck_is_dealt_in_tests_and_marked_as_proving_nothing():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    first = state.order[0]
    assert format_hand(ALL_CARDS[c] for c in state.seats[first].cards) == "A♥ K♥ Q♥"
    assert state.fair.stacked and state.view(0)["fair"]["stacked"]


def test_a_state_without_a_test_rng_deals_the_fair_deck():
    state = TableState.new("bulgarian", 10, 3)
    for i in range(3):
        state.apply(Action("sit", seat=i, player=f"u{i}", name=f"P{i}", amount=1000))
    for i in range(3):
        state.apply(Action("new_deal", seat=i, seed=f"{i:02x}"))
    cards = fair.deck_for(state.server_seed, "bulgarian", 1, 0, [(0, "00"), (1, "01"), (2, "02")])
    for seat, hand in fair.hands_for(cards, state.order):
        assert [c.index for c in hand] == state.seats[seat].cards
