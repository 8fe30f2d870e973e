"""What one seat (or a spectator) may see of a table: the JSON the browser, the bots and the server's hand
histories read. Shape documented in docs/engine.md ("The view").

Never in a view: an unopened card of anyone else, a hand folded unseen, or a player's own card before he opened
it (D1, RULES §3 and §6). Cards shown at the showdown are everybody's.
"""

from __future__ import annotations

from .cards import ALL_CARDS
from .fair import commitment
from .seat import ALL_OPENED


def _status(s) -> str:
    if s.leaving:
        return "leaving"
    if s.in_deal:
        if s.folded:
            return "folded"
        if s.all_in:
            return "all_in"
        return "playing"
    if s.sitting_out:
        return "sitting_out"
    return "waiting"


def view_of(state, seat: int | None) -> dict:
    seats = state.seats
    viewer = seat if isinstance(seat, int) and 0 <= seat < len(seats) and seats[seat].player is not None else None
    in_play = state.phase != "waiting"
    out_seats = []
    for i, s in enumerate(seats):
        if s.player is None:
            out_seats.append(None)
            continue
        dealt = in_play and s.in_deal and s.cards is not None
        cards = []
        points = hand_name = None
        if dealt:
            public = s.shown and not s.unseen
            mine = i == viewer
            cards = [
                str(ALL_CARDS[c]) if public or (mine and s.opened >> k & 1) else None
                for k, c in enumerate(s.cards)
            ]
            if public or (mine and s.opened == ALL_OPENED):
                p = state._points(i)
                points, hand_name = p.points, p.name
        out_seats.append(
            {
                "seat": i, "player": s.player, "name": s.name, "bot": s.bot, "stack": s.stack,
                "level": s.level if dealt else 0, "status": _status(s) if in_play else (
                    "leaving" if s.leaving else "sitting_out" if s.sitting_out else "waiting"),
                "in_deal": dealt, "ready": s.ready, "is_dealer": in_play and i == state.dealer,
                "opened": s.opened.bit_count() if dealt else 0, "has_looked": dealt and s.opened != 0,
                "blind": dealt and s.blind, "cards": cards, "shown": dealt and s.shown and not s.unseen,
                "points": points, "hand_name": hand_name,
            }
        )
    clock = state.clock
    svara = None
    if state.phase == "svara_buy_in":
        svara = {
            "tied": list(state.tied), "price": state.price, "offer_to": state.turn if state.turn >= 0 else None,
            "buyers": list(state.buyers), "pot": state.svara_pot,
        }
    legal = []
    standing = None
    if viewer is not None:
        legal = [{"kind": lg.kind, "min": lg.min, "max": lg.max} for lg in state.legal_actions(viewer)]
        own = seats[viewer]
        standing = {"deal_me_in": own.deal_me_in, "if_losing": own.if_losing, "on_tie": own.on_tie,
                    "seed": own.seed}  # his own only
    return {
        "version": state.version, "family": state.family, "ante": state.ante, "deal_no": state.deal_no,
        "phase": state.phase, "you": viewer, "turn": state.turn if state.turn >= 0 else None,
        "dealer": state.dealer if state.dealer >= 0 else None, "button": state.button if state.button >= 0 else None,
        "pot": state.pot, "bet_level": state.bet_level, "svara_chain": state.svara_chain,
        "clock": {"kind": clock.kind, "seats": list(clock.seats), "seconds": clock.seconds} if clock else None,
        "seats": out_seats, "legal": legal, "standing": standing, "svara": svara, "last_result": state.last_result,
        "fair": _fair(state, in_play),
    }


def _fair(state, in_play: bool) -> dict:
    """The commitment of the running deal (or, between deals, of the coming one): never its seed (docs/fair.md).
    `stacked`: a test deck was dealt in the running deal, which therefore proves nothing."""
    record = state.fair
    return {"deal_no": state.deal_no if in_play else state.deal_no + 1, "commitment": commitment(state.server_seed),
            "stacked": in_play and record is not None and record.stacked}
