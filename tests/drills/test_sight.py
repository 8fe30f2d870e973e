"""The frame audit's checker (drills/sight.py) on random play of the pure engine: every honest frame passes, and
every kind of planted leak is caught (D1: own card only after opening; §6: others' only when shown, a hand folded
unseen never; spectators nothing hidden)."""

from datetime import UTC, datetime

import pytest

from drills import sight
from drills.truth import TableTruth, Version
from tables.engine.simulate import RandomTable
from tables.state_io import events_for


class RecordedTable(RandomTable):
    """Random play that keeps every version's stored text and the events of each change, as the drill does."""

    def __init__(self, *args, **kwargs):
        self.kept: list[Version] = []
        self.changes: list[tuple[int, list[dict]]] = []
        super().__init__(*args, **kwargs)

    def apply(self, action):
        events = super().apply(action)
        version = self.state.version
        self.kept.append(Version(version, self.state.dumps(), None, datetime.now(UTC), 0))
        self.changes.append((version, [event.to_json() for event in events]))
        return events


def frames_of(table: RecordedTable):
    """(viewer, frame) as the consumer sends them: each change's snapshot for each viewer, with its visible events."""
    truth = TableTruth(1, table.kept)
    for version, events in table.changes:
        state = truth.state(version)
        viewers = [s.player for s in state.seats if s.player is not None] + [None]
        for viewer in viewers:
            seat = sight.seat_of(state, viewer)
            view = state.view(seat)
            yield viewer, {"type": "snapshot", "version": version, "seat": seat, "table": {"id": 1}, "clock": None,
                           "legal": view["legal"], "state": view, "events": events_for(events, seat)}


@pytest.fixture(scope="module", params=["classic", "bulgarian"])
def played(request):
    table = RecordedTable(request.param, 4, seed=11, timeouts=0.2)
    table.play_deals(150)
    return table


def test_honest_frames_pass_the_checker_D1(played):
    checker = sight.Checker(TableTruth(1, played.kept))
    leaks = []
    for viewer, frame in frames_of(played):
        leaks += checker.check(frame, viewer)
    assert leaks == []
    assert checker.cards_seen > 1000


def test_every_kind_of_planted_leak_is_caught_D1(played):
    truth = TableTruth(1, played.kept)
    planted = dict.fromkeys(sight.LEAK_KINDS, 0)
    missed = []
    for viewer, frame in frames_of(played):
        for kind in sight.LEAK_KINDS:
            forged = sight.plant(kind, frame, viewer, truth)
            if forged is None:
                continue
            planted[kind] += 1
            if not sight.Checker(truth).check(forged, viewer):
                missed.append((kind, viewer, frame["version"]))
    assert missed == []
    assert all(planted.values()), planted


def test_a_frame_of_a_version_never_stored_is_a_failure_not_a_pass(played):
    checker = sight.Checker(TableTruth(1, played.kept))
    leaks = checker.check({"type": "snapshot", "version": 10**6, "seat": None, "state": {}}, None)
    assert [leak.where for leak in leaks] == ["version"]


def test_a_card_anywhere_else_in_a_frame_is_a_leak(played):
    checker = sight.Checker(TableTruth(1, played.kept))
    leaks = checker.check({"type": "chat", "user": "x", "hint": {"deck": ["A♠"]}}, None)
    assert len(leaks) == 1 and "A♠" in leaks[0].what


def _own_unopened_card(played):
    """A version, a player and a card of his he has not opened yet (nor earlier in this deal)."""
    truth = TableTruth(1, played.kept)
    for version, _events in played.changes:
        state = truth.state(version)
        for i, s in enumerate(state.seats):
            if sight.dealt(state, i) and not s.folded and s.opened == 0 and s.player is not None:
                past = sight.Checker(truth)._deal_states(version)
                if all(p.seats[i].opened == 0 for p in past if p.seats[i].cards is not None):
                    return truth, version, s.player, i, sight.card_text(s.cards[0])
    raise AssertionError("no unopened own card in the recorded play")


def test_an_own_card_named_before_he_opened_it_is_a_leak_D1(played):
    """D1: a player learns his own card when he opens it; an event or a reloaded page's log that names his card
    with his own seat before that is a leak (the checker used to accept any card his seat held)."""
    truth, version, viewer, seat, card = _own_unopened_card(played)
    opened = {"type": "card_opened", "seat": seat, "index": 0, "card": card, "private_to": seat}
    state = truth.state(version)
    view = state.view(seat)
    with_event = {"type": "snapshot", "version": version, "seat": seat, "table": {"id": 1}, "clock": None,
                  "legal": view["legal"], "state": view, "events": [opened]}
    assert [leak.where for leak in sight.Checker(truth).check(with_event, viewer)][0] == "event 0 card_opened"
    snapshot = {**with_event, "events": [], "history": {"log": [opened]}}
    assert [leak.where for leak in sight.Checker(truth).check(snapshot, viewer)][0] == "history log 0 card_opened"


def test_the_server_seed_of_the_running_deal_anywhere_in_a_frame_is_a_leak(played):
    """docs/fair.md: only the commitment of the running (or coming) deal's server seed leaves the server; its seed
    would give away every card. The seed of a deal that is over is revealed and no leak."""
    truth = TableTruth(1, played.kept)
    checker = sight.Checker(truth)
    running = next(v.version for v in played.kept if truth.state(v.version).phase == "betting")
    secret = truth.state(running).server_seed
    leaks = checker.check({"type": "event", "version": running, "events": [{"type": "x", "hint": secret.upper()}]}, None)
    assert [leak.what for leak in leaks] == ["the server seed of the running deal"]
    ended = next(v.version for v in played.kept if v.version > running and truth.state(v.version).phase == "waiting")
    revealed = truth.state(ended).fair.server_seed
    assert revealed == secret != truth.state(ended).server_seed
    assert sight.Checker(truth).check({"type": "event", "version": ended, "events": [{"type": "x", "s": secret}]},
                                      None) == []


def test_honest_frames_of_runs_of_changes_pass_the_checker_D1(played):
    """A door call commits a run of changes (an action and its standing answers) and every viewer gets one snapshot
    of the last, with the events of the whole run (tables/services/notify.py `coalesced`): shown hands and own
    cards from the run's earlier changes are not leaks."""
    truth = TableTruth(1, played.kept)
    checker = sight.Checker(truth)
    leaks = []
    for start in range(0, len(played.changes), 3):
        run = played.changes[start:start + 3]
        version = run[-1][0]
        state = truth.state(version)
        for viewer in [s.player for s in state.seats if s.player is not None] + [None]:
            seat = sight.seat_of(state, viewer)
            view = state.view(seat)
            events = events_for([event for _, events in run for event in events], seat)
            frame = {"type": "snapshot", "version": version, "seat": seat, "table": {"id": 1}, "clock": None,
                     "legal": view["legal"], "state": view, "events": events}  # fmt: skip
            leaks += checker.check(frame, viewer)
    assert leaks == []
    assert checker.cards_seen > 500
