"""Properties of the bots' play over many engine states: always a legal action, never a peek at a hidden card."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.cards import ALL_CARDS
from tables.engine.play import Action, TableState
from tables.engine.strategy import SEAT_KINDS, decide

GAME_KINDS = ("open", "check", "bet", "call", "raise", "fold", "blind", "dark", "show", "fold_hand", "split",
              "play_on", "buy_in", "decline")  # fmt: skip


def states_of_random_play(family, seats, seed, steps):
    """Deal and play `steps` random legal moves (people's moves: any legal one); yield (state, seat to act)."""
    rng = random.Random(seed)
    state = TableState.new(family, 10, seats)
    for seat in range(seats):
        state.apply(Action("sit", seat=seat, player=str(seat + 1), name=f"p{seat}", amount=rng.randint(200, 1000),
                           bot=seat != 0))  # a person at seat 0: bots never deal among themselves
    for seat in range(seats):
        state.apply(Action("new_deal", seat=seat), rng=rng)
    for _ in range(steps):
        if state.phase == "waiting" or state.clock is None:
            return
        seat = state.clock.seats[0]
        yield state, seat
        legal = [item for item in state.legal_actions(seat) if item.kind in GAME_KINDS]
        item = rng.choice(legal)
        amount = rng.randint(item.min, item.max) if item.kind in ("bet", "raise", "dark") else None
        card = item.min if item.kind == "open" else None
        state.apply(Action(item.kind, seat=seat, amount=amount, card=card), rng=rng)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    family=st.sampled_from(["classic", "bulgarian"]),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    level=st.sampled_from(["easy", "strong"]),
)
def test_the_bot_always_answers_with_a_legal_action(family, seats, seed, level):
    for state, seat in states_of_random_play(family, seats, seed, 40):
        view = state.view(seat)
        action = decide(view, state.legal_actions(seat), random.Random(seed), level)
        assert action["kind"] not in SEAT_KINDS
        trial = TableState.from_json(state.to_json())
        trial.apply(Action(action["kind"], seat=seat, amount=action["amount"], card=action["card"]))  # no raise


@settings(max_examples=80, deadline=None)
@given(family=st.sampled_from(["classic", "bulgarian"]), seats=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_a_seat_view_never_holds_the_hidden_cards_of_others_D1(family, seats, seed):
    for state, seat in states_of_random_play(family, seats, seed, 40):
        view = state.view(seat)
        text = json.dumps(view, ensure_ascii=False)
        shown_seats = {entry["seat"] for entry in view["seats"] if entry is not None and entry.get("shown")}
        for other, entry in enumerate(state.seats):
            if entry is None or entry.cards is None:
                continue
            for index, card_index in enumerate(entry.cards):
                card = str(ALL_CARDS[card_index])
                may_see = other in shown_seats or (other == seat and entry.opened >> index & 1)
                if not may_see:
                    # A card this seat may not see appears nowhere in what the bot is given.
                    assert card not in text or _in_last_result(view, card), (seat, other, card)
        # The bot decides from this view alone: the same view and rng give the same action.
        legal = view["legal"]
        if any(item["kind"] not in SEAT_KINDS for item in legal):
            assert decide(view, None, random.Random(1)) == decide(json.loads(text), None, random.Random(1))


def _in_last_result(view, card_text):
    """The previous deal's shown hands may hold the same card text; nothing else may."""
    result = view.get("last_result") or {}
    return any(card_text in shown.get("cards", []) for shown in result.get("shown", []))


def test_card_texts_are_unambiguous():
    # The check above searches card texts in the JSON; no card's text is part of another's ("10♥" vs "0♥").
    texts = [str(card) for card in ALL_CARDS]
    assert not any(a != b and a in b for a in texts for b in texts)
