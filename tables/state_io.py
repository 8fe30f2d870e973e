"""Reading what the server needs out of the engine's TableState: who sits where with how many chips, which events a
viewer may receive, where deals start and end. Everything here only reads the state."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Chips:
    """Where every chip at a table lies, by player id: the ledger follows the changes of these."""

    stacks: dict[str, int]
    seats: dict[str, int]
    pot: int
    rake_taken: int

    @property
    def total(self) -> int:
        return sum(self.stacks.values()) + self.pot + self.rake_taken


def chips_of(state) -> Chips:
    stacks, seats = {}, {}
    for index, seat in enumerate(state.seats):
        if seat is not None and getattr(seat, "player", None) is not None:
            stacks[str(seat.player)] = int(seat.stack)
            seats[str(seat.player)] = index
    return Chips(stacks=stacks, seats=seats, pot=int(state.pot), rake_taken=int(state.rake_taken))


def seat_of(state, user_id) -> int | None:
    """The seat the user holds in the engine state, or None."""
    if user_id is None:
        return None
    player = str(user_id)
    for index, seat in enumerate(state.seats):
        if seat is not None and str(getattr(seat, "player", None)) == player:
            return index
    return None


def bot_players(state) -> set[str]:
    """The player ids of the bots seated in the state (a leaving bot keeps its seat to the deal's end)."""
    return {str(seat.player) for seat in state.seats if seat.player is not None and seat.bot}


def free_seats(state) -> list[int]:
    return [index for index, seat in enumerate(state.seats) if seat is None or getattr(seat, "player", None) is None]


def between_deals(state) -> bool:
    return getattr(state, "phase", "waiting") == "waiting"


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """Events a viewer may receive (their JSON, as a change carries them): public ones, and private ones only for
    their own seat (D1)."""
    visible = []
    for event in events:
        private_to = event.get("private_to")
        if private_to is None or (seat is not None and private_to == seat):
            visible.append(event)
    return visible


def public_events(events: list[dict]) -> list[dict]:
    """What a hand history keeps for everyone: private events (a card a player opened) are left out."""
    return [event for event in events if event.get("private_to") is None]
