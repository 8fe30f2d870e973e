"""Properties of random play, both families, 2-8 players (2-6 classic), checked after every action:
chips are conserved, no stack goes negative, amounts outside the legal range are refused, nobody raises after an
all-in, no view leaks a card, the JSON round trip is lossless, and an illegal action changes nothing."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.cards import ALL_CARDS
from tables.engine.play import Action, IllegalAction, TableState
from tables.engine.simulate import RandomTable

tables = st.sampled_from(["classic", "bulgarian"]).flatmap(
    lambda family: st.tuples(
        st.just(family), st.integers(2, 6 if family == "classic" else 8), st.integers(0, 2**32 - 1)
    )
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = ["check", "bet", "call", "raise", "fold", "blind", "dark", "show", "fold_hand", "split", "play_on",
         "buy_in", "decline", "open", "new_deal", "back", "add_chips", "timeout"]


def hidden_from(state: TableState, viewer) -> set[str]:
    """Texts of the cards `viewer` may not know right now."""
    hidden = set()
    if state.phase == "waiting":
        return hidden
    for i, s in enumerate(state.seats):
        if s.player is None or not s.in_deal or s.cards is None:
            continue
        if s.shown and not s.unseen:
            continue
        for k, c in enumerate(s.cards):
            if not (i == viewer and s.opened >> k & 1):
                hidden.add(str(ALL_CARDS[c]))
    return hidden


def assert_no_leak(state: TableState) -> None:
    for viewer in [None, *range(len(state.seats))]:
        text = json.dumps(state.view(viewer), ensure_ascii=False)
        for card in hidden_from(state, viewer):
            assert f'"{card}"' not in text, (viewer, card)


def run(family, players, seed, steps, check):
    table = RandomTable(family, players, 10, seed=seed, timeouts=0.1, leaving=0.01)
    for _ in range(steps):
        before = table.state.to_json()
        table.step()
        assert not table.violations, table.violations
        check(table, before)


@SETTINGS
@given(tables)
def test_chips_are_conserved_and_no_stack_goes_negative(spec):
    def check(table, before):
        assert all(s.stack >= 0 for s in table.state.seats) and table.state.pot >= 0

    run(*spec, 400, check)


class CheckedTable(RandomTable):
    """Checks every event: hidden information only in events marked private."""

    def apply(self, action):
        events = super().apply(action)
        for event in events:
            data = event.to_json()
            assert data.get("private_to") == event.private_to, event
            if event.private_to is None:
                assert "card" not in data, event
                if "cards" in data:
                    assert event.type == "showdown_shown", event
        return events


@SETTINGS
@given(tables)
def test_views_never_leak_a_card_and_events_mark_hidden_ones_private(spec):
    family, players, seed = spec
    table = CheckedTable(family, players, 10, seed=seed, timeouts=0.1, leaving=0.01)
    for _ in range(300):
        version = table.state.version
        table.step()
        assert table.state.version == version + 1
        assert_no_leak(table.state)


@SETTINGS
@given(tables)
def test_json_round_trip_is_lossless_after_every_action(spec):
    def check(table, before):
        data = json.loads(json.dumps(table.state.to_json()))
        again = TableState.from_json(data)
        assert again == table.state and again.to_json() == table.state.to_json()
        stored = table.state.dumps()
        assert TableState.loads(stored).dumps() == stored
        assert again.legal_actions(max(again.turn, 0)) == table.state.legal_actions(max(table.state.turn, 0))
        assert again.view(None) == table.state.view(None)

    run(*spec, 300, check)


TABLE_KINDS = frozenset(("new_deal", "back", "sit_out", "stand", "add_chips"))


@SETTINGS
@given(tables)
def test_legal_moves_are_the_legal_actions_without_the_table_actions(spec):
    def check(table, before):
        state = table.state
        for seat in range(len(state.seats)):
            moves = state.legal_moves(seat)
            assert moves == [lg for lg in state.legal_actions(seat) if lg.kind not in TABLE_KINDS]
            assert not any(lg.kind in TABLE_KINDS for lg in moves)
            if state.phase == "waiting":
                assert moves == []

    run(*spec, 200, check)


@SETTINGS
@given(tables, st.randoms(use_true_random=False))
def test_illegal_actions_change_nothing_and_amounts_outside_the_range_are_refused(spec, chooser):
    def check(table, before):
        state = table.state
        snapshot = json.dumps(state.to_json(), sort_keys=True)
        # Amounts just outside each legal range are refused.
        for seat in range(len(state.seats)):
            for legal in state.legal_actions(seat):
                if legal.kind in ("bet", "raise", "dark") and legal.min is not None:
                    for amount in (legal.min - 1, legal.max + 1):
                        copy = TableState.from_json(json.loads(snapshot))
                        try:
                            copy.apply(Action(legal.kind, seat=seat, amount=amount), random.Random(0))
                        except IllegalAction:
                            assert json.dumps(copy.to_json(), sort_keys=True) == snapshot
                        else:
                            raise AssertionError(f"{legal.kind} {amount} accepted outside {legal}")
        # A random action: applied to a copy; if refused, the copy is unchanged.
        kind = chooser.choice(KINDS)
        seat = None if kind == "timeout" else chooser.randrange(len(state.seats) + 1)
        amount = chooser.choice([None, 0, 10, 25, 10**6, -5])
        copy = TableState.from_json(json.loads(snapshot))
        try:
            copy.apply(Action(kind, seat=seat, amount=amount, card=chooser.choice([0, 1, 2, 5])), random.Random(0))
        except IllegalAction:
            assert json.dumps(copy.to_json(), sort_keys=True) == snapshot

    run(*spec, 150, check)
