"""Seat views shaped like `TableState.view(seat)` (docs/engine.md, "The view"), built by hand for unit tests."""


def seat_entry(seat, *, stack=500, level=0, status="playing", cards=(None, None, None), shown=False, points=None):
    return {
        "seat": seat, "player": str(seat + 1), "name": f"p{seat}", "stack": stack, "level": level,
        "status": status, "in_deal": True, "ready": False, "is_dealer": seat == 0,
        "opened": sum(card is not None for card in cards), "has_looked": any(cards), "blind": False,
        "cards": list(cards), "shown": shown, "points": points, "hand_name": None,
    }  # fmt: skip


def make_view(
    *, family="classic", you=1, cards=("Ah", "Kh", "6c"), legal, pot=40, bet_level=0, level=0, stack=500,
    opponents=1, phase="betting", others=None, svara=None, dealer=0,
):  # fmt: skip
    seats = []
    for seat in range(opponents + 1):
        if seat == you:
            seats.append(seat_entry(seat, stack=stack, level=level, cards=cards))
        else:
            seats.append((others or {}).get(seat) or seat_entry(seat, level=bet_level))
    return {
        "version": 7, "family": family, "ante": 10, "deal_no": 1, "phase": phase, "you": you, "turn": you,
        "dealer": dealer, "pot": pot, "bet_level": bet_level, "svara_chain": 0, "clock": None, "seats": seats,
        "legal": [{"kind": kind, "min": low, "max": high} for kind, low, high in legal],
        "svara": svara, "last_result": None,
    }  # fmt: skip
