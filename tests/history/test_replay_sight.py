"""The replay never shows a card its viewer could not see at that moment (RULES §3 D1, §6), checked over many
random deals played through the door (hypothesis draws the table and the seed of a random legal player).

The truth is the engine's, not the replay's: after every action the test keeps the stored state and asks the
engine's own view rule (tables/engine/views.py) what each seat sees then. A card in a replay step at version v
(its frame or its line) must be one the viewer's live view showed at some version <= v of that deal, or one shown
at the showdown by then (a tie's shown hands can be re-dealt for the svara within the same action, so no stored
state holds them); it must be the very card dealt at that seat and place; and a hand folded unseen never appears.
Staff see any card some seat's view showed."""

import itertools
import json
import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.deals import random_action
from tables import replay, services
from tables.engine.cards import ALL_CARDS
from tables.engine.play import TableState
from tables.models import Deal, Table
from tests.tables.conftest import make_user
from wallet import services as wallet

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile("|".join(sorted((re.escape(str(c)) for c in ALL_CARDS), key=len, reverse=True)))
_people = itertools.count()
DEALS = 3


def new_players(staff, n):
    users = []
    for _ in range(n):
        k = next(_people)
        user = make_user(f"sight{k}@example.com", display_name=f"P{k}")
        wallet.credit(user, 10_000, reason="welcome chips", staff=staff)
        users.append(user)
    return users


def state_of(table_id) -> TableState:
    return TableState.loads(Table.objects.get(pk=table_id).state)


class Truth:
    """What each seat's live view showed, version by version, and every card dealt, by deal segment."""

    def __init__(self):
        self.seen: dict[tuple, set] = {}  # (deal_no, svara, viewer seat) -> {(version, seat, index, card)}
        self.dealt: dict[tuple, str] = {}  # (deal_no, svara, seat, index) -> card

    def keep(self, state: TableState) -> None:
        if state.phase in ("waiting", "svara_buy_in"):  # between deals; a svara's buy-ins show the tie's old cards
            result = state.last_result
            if state.phase == "waiting" and result and result.get("deal_no") == state.deal_no:
                for shown in result.get("shown", []):
                    for seat_seen in range(len(state.seats)):
                        key = (state.deal_no, -1, seat_seen)  # the last segment's shown hands: public
                        for k, card in enumerate(shown["cards"]):
                            self.seen.setdefault(key, set()).add((state.version, shown["seat"], k, card))
            return
        segment = (state.deal_no, state.svara_chain)
        for i, s in enumerate(state.seats):
            if s.in_deal and s.cards is not None:
                for k, c in enumerate(s.cards):
                    self.dealt[(*segment, i, k)] = str(ALL_CARDS[c])
        for viewer, s in enumerate(state.seats):
            if s.player is None:
                continue
            view = state.view(viewer)
            for seat in view["seats"]:
                if seat is None:
                    continue
                for k, card in enumerate(seat["cards"] or []):
                    if card is not None:
                        self.seen.setdefault((*segment, viewer), set()).add((state.version, seat["seat"], k, card))


def play(table, users, staff, rng: random.Random, truth: Truth) -> None:
    """Random legal play (bench/deals.py's player) through the door, a clock run out now and then (§9)."""
    by_seat = dict(enumerate(users))
    for seat, user in by_seat.items():
        if state_of(table.pk).seats[seat].player is None:
            services.sit(table.pk, user, 400, seat=seat)
    for _ in range(400):
        state = state_of(table.pk)
        truth.keep(state)
        if state.deal_no >= DEALS and state.phase == "waiting":
            return
        if state.phase != "waiting" and rng.random() < 0.08:
            Table.objects.filter(pk=table.pk).update(clock_deadline=timezone.now() - timedelta(seconds=1))
            services.run_out_clock(table.pk)
            continue
        action = random_action(state, rng, table.ante)
        command = {"kind": action.kind}
        if action.amount is None and action.kind not in ("open", "add_chips"):  # one amount allowed: it is needed
            move = next((m for m in state.legal_moves(action.seat) if m.kind == action.kind), None)
            if move is not None and move.min is not None:
                command["amount"] = move.min
        if action.amount is not None:
            command["amount"] = action.amount
        if action.card is not None:
            command["card"] = action.card
        services.act(table.pk, by_seat[action.seat], command)
    raise AssertionError("the deals did not end in 400 actions")


def allowed(truth: Truth, deal: Deal, viewer) -> dict[int, set]:
    """Per version, the (seat, index, card) the viewer could have seen by then in this deal segment."""
    keys = [k for k in truth.seen if k[0] == deal.number and k[1] in (deal.svara, -1)]
    if viewer != replay.STAFF:
        keys = [k for k in keys if k[2] == viewer or k[1] == -1]
    return [place for k in keys for place in truth.seen[k]]


def check_deal(truth: Truth, deal: Deal, viewers) -> int:
    checked = 0
    for viewer in viewers:
        shown = replay.build(deal, viewer)
        seen = allowed(truth, deal, viewer)
        public = set()  # cards shown at the showdown by this step (seat, index, card)
        for step in shown.steps:
            if step.kind == "showdown_shown":
                public |= {(step.seat, k, c) for k, c in enumerate(step.frame.seats[
                    [s.seat for s in step.frame.seats].index(step.seat)].cards)}
            by_then = {(s, k, c) for v, s, k, c in seen if v <= step.version} | public
            for seat in step.frame.seats:
                for k, card in enumerate(seat.cards):
                    if card is None:
                        continue
                    assert (seat.seat, k, card) in by_then, (deal.pk, viewer, step.line, seat.seat, k, card)
                    dealt = truth.dealt.get((deal.number, deal.svara, seat.seat, k))
                    assert dealt is None or dealt == card, (deal.pk, seat.seat, k, card, dealt)
                    checked += 1
            cards_by_then = {c for _, _, c in by_then}
            for card in CARD.findall(step.line):
                assert card in cards_by_then, (deal.pk, viewer, step.line)
        text = json.dumps(shown.to_json(), ensure_ascii=False)
        everything = {c for _, _, _, c in seen} | {c for _, _, c in public}
        assert set(CARD.findall(text)) <= everything, (deal.pk, viewer)
    return checked


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 4), family=st.sampled_from(["classic", "bulgarian"]))
def test_no_replay_step_shows_a_card_its_viewer_could_not_see_then_D1(staff, seed, seats, family):
    rng = random.Random(seed)
    table = services.create_table(staff, family, 10, seats, False)  # every seat taken (random_action tops up all)
    users = new_players(staff, seats)
    truth = Truth()
    play(table, users, staff, rng, truth)
    deals = list(Deal.objects.filter(table=table, ended_at__isnull=False).prefetch_related("players"))
    assert len(deals) >= DEALS
    for deal in deals:
        viewers = [s.seat for s in deal.players.all()] + [replay.STAFF]
        check_deal(truth, deal, viewers)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_svara_chains_replay_within_sight_too_S7(staff, seed):
    """Ties dealt on purpose (21 each, then a svara's fresh hands): the chain's every deal within sight."""
    rng = random.Random(seed)
    table = services.create_table(staff, "classic", 10, 3, False)
    users = new_players(staff, 3)
    for seat, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=seat)
    services.queue_test_deck(table.pk, ["Ah Kh 7d", "As Ks 8d", "Ad Kd 9c"])
    truth = Truth()
    for user in users:
        services.act(table.pk, user, {"kind": "new_deal"})
    while (state := state_of(table.pk)).phase == "betting":  # everybody checks: three tied, a svara at once
        truth.keep(state)
        seat = state.clock.seats[0]
        if rng.random() < 0.5:
            services.act(table.pk, users[seat], {"kind": "open", "card": rng.randint(0, 2)})
            truth.keep(state_of(table.pk))
        services.act(table.pk, users[seat], {"kind": "check"})
    play(table, users, staff, rng, truth)
    deals = list(Deal.objects.filter(table=table, ended_at__isnull=False).prefetch_related("players"))
    for deal in deals:
        check_deal(truth, deal, [s.seat for s in deal.players.all()] + [replay.STAFF])
    assert any(deal.svara for deal in deals), "no svara was played"
