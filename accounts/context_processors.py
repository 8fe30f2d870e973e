"""Template context every page gets: the signed-in player's chip balance, shown in the top bar."""

from __future__ import annotations


def balance(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    try:
        from wallet.selectors import balance_of
    except ImportError:
        # The wallet is built alongside; until its selectors exist the bar shows no figure rather than failing.
        return {"user_balance": None}
    try:
        return {"user_balance": balance_of(user)}
    except AttributeError:
        return {"user_balance": None}
