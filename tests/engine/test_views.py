"""What each seat may see (D1, RULES §3 and §6): views never show a card the viewer may not know."""

import json

from tables.engine.cards import ALL_CARDS
from tables.engine.fair import commitment

from .play_helpers import TEN_A, TEN_B, TRYNKI, act, deal, table


def card_texts(state, seat):
    return {str(ALL_CARDS[c]) for c in state.seats[seat].cards}


def test_spectator_and_other_seats_see_no_card_before_the_showdown():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    for seat in (0, 1, 2):
        for k in range(3):
            act(state, "open", seat, card=k)
    spectator = json.dumps(state.view(None), ensure_ascii=False)
    for seat in (0, 1, 2):
        assert not any(card in spectator for card in card_texts(state, seat))
        mine = state.view(seat)
        assert set(mine["seats"][seat]["cards"]) == card_texts(state, seat)
        others = json.dumps([s for i, s in enumerate(mine["seats"]) if i != seat], ensure_ascii=False)
        assert not any(card in others for other in (0, 1, 2) if other != seat for card in card_texts(state, other))


def test_the_view_has_the_documented_shape():
    state = table(players=3)
    deal(state, TEN_A, TEN_B, TRYNKI)
    view = state.view(1)
    assert set(view) == {
        "version", "family", "ante", "deal_no", "phase", "you", "turn", "dealer", "button", "pot", "bet_level",
        "svara_chain", "clock", "seats", "legal", "standing", "svara", "last_result", "fair",
    }
    # The running deal's commitment, never its seed; this deck was stacked by the test (docs/fair.md).
    assert view["fair"] == {"deal_no": 1, "commitment": commitment(state.server_seed), "stacked": True}
    assert state.server_seed not in json.dumps(view)
    assert view["you"] == 1 and view["turn"] == 1 and view["phase"] == "betting"
    assert view["clock"] == {"kind": "move", "seats": [1], "seconds": 20}
    seat = view["seats"][1]
    assert set(seat) == {
        "seat", "player", "name", "bot", "stack", "level", "status", "in_deal", "ready", "is_dealer", "opened",
        "has_looked", "blind", "cards", "shown", "points", "hand_name",
    }
    assert view["seats"][0]["is_dealer"] and seat["status"] == "playing"
    assert {"kind": "bet", "min": 10, "max": 30} in view["legal"]
    assert state.view(None)["legal"] == [] and state.view(None)["you"] is None
    assert view["standing"] == {"deal_me_in": False, "if_losing": None, "on_tie": None, "seed": None}
    assert state.view(None)["standing"] is None and seat["bot"] is False
    json.dumps(view)


def test_own_points_show_once_all_three_cards_are_open():
    state = table(players=2)
    deal(state, TRYNKI, TEN_A)
    for k in range(3):
        assert state.view(1)["seats"][1]["points"] is None
        act(state, "open", 1, card=k)
    assert state.view(1)["seats"][1]["points"] == 31
    assert state.view(1)["seats"][1]["hand_name"] == "top trynki"
    assert state.view(0)["seats"][1]["points"] is None


def test_shown_cards_are_visible_to_all_and_folded_unseen_to_none():
    state = table(players=3)
    deal(state, TRYNKI, TEN_A, TEN_B)
    for seat in (1, 2, 0):
        act(state, "check", seat)
    act(state, "show", 2)  # seat 2 shows his weaker hand
    act(state, "fold_hand", 0)  # seat 0 folds unseen
    for viewer in (None, 0, 1, 2):
        text = json.dumps(state.view(viewer)["last_result"], ensure_ascii=False)
        assert "A♥" in text and "K♠" in text
        assert "J♠" not in text
