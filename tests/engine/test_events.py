"""The typed events `apply` returns (docs/engine.md "Events"): frozen, one class per type, and their JSON is the
protocol's and the hand histories' dict, read back by `event_from_json`."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tables.engine.events import EVENT_TYPES, Bet, CardOpened, Event, Fold, LevelsReturned, event_from_json
from tables.engine.simulate import RandomTable

DOCUMENTED_TYPES = {
    "seated", "stood", "seat_vacated", "chips_added", "sat_out", "back", "ready", "deal_started", "ante",
    "card_opened", "opened", "check", "bet", "call", "raise", "blind", "dark", "fold", "all_in", "levels_returned",
    "showdown_shown", "folded_unseen", "split_chosen", "play_on_chosen", "svara", "buy_in", "declined",
    "svara_dealt", "pot_awarded", "split", "deal_ended", "timeout",
}


def played_events(family: str, players: int, seed: int, deals: int = 60) -> list[Event]:
    table = RandomTable(family, players, seed=seed, leaving=0.01)
    seen = []
    apply = table.apply

    def recording(action):
        events = apply(action)
        seen.extend(events)
        return events

    table.apply = recording
    table.play_deals(deals)
    return seen


def test_every_documented_event_type_has_its_class():
    assert set(EVENT_TYPES) == DOCUMENTED_TYPES
    for name, cls in EVENT_TYPES.items():
        assert cls.type == name and dataclasses.is_dataclass(cls)


def test_every_event_of_random_play_comes_back_from_its_json():
    events = played_events("classic", 6, seed=3, deals=150) + played_events("bulgarian", 8, seed=3, deals=150)
    assert {e.type for e in events} == DOCUMENTED_TYPES
    for event in events:
        data = json.loads(json.dumps(event.to_json(), ensure_ascii=False))
        assert data["type"] == event.type
        again = event_from_json(data)
        assert again == event and again.to_json() == data


def test_an_event_is_frozen():
    event = Bet(seat=1, level=20, added=20, stack=480, pot=50)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.level = 40  # type: ignore[misc]


def test_only_an_opened_card_is_private_and_to_its_own_seat_D1():
    events = played_events("classic", 4, seed=5, deals=20)
    private = [e for e in events if e.private_to is not None]
    assert private and all(type(e) is CardOpened and e.private_to == e.seat for e in private)
    assert all("card" not in e.to_json() for e in events if e.private_to is None)


def test_defaults_are_left_out_of_the_json_as_before():
    assert Fold(seat=2).to_json() == {"seat": 2, "type": "fold"}
    assert Fold(seat=2, leaving=True).to_json() == {"seat": 2, "leaving": True, "type": "fold"}
    assert LevelsReturned(level=290, returned={0: 310}, pot=900).to_json() == {
        "level": 290, "returned": {"0": 310}, "pot": 900, "type": "levels_returned"}


@pytest.mark.parametrize("data", [
    None, [], {}, {"type": "teleport"}, {"type": ["bet"]}, {"type": "fold"}, {"type": "fold", "seat": 1, "x": 2},
    {"type": "pot_awarded", "winners": 3, "rake": 0, "pot": 0, "reason": "split"},
    {"type": "pot_awarded", "winners": [{"seat": 1}], "rake": 0, "pot": 0, "reason": "split"},
])
def test_a_dict_that_is_no_event_is_refused(data):
    with pytest.raises(ValueError):
        event_from_json(data)
