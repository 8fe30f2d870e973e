"""Who may see a stored deal: staff, or a player dealt into it (a DealSeat of his); anyone else gets the same
404 as for a deal that does not exist, so a refusal tells nothing about the deal.

A deal still running is shown to nobody, staff included: the live table is where it is seen, under the live
rules (a card opened is its player's alone until the deal is over, D1), and a staff member may sit at that table.
A deal of a svara chain ends at its `svara` event, so it is viewable while the svara after it runs: the svara
is dealt from a fresh deck, and its own deal stays closed until it ends."""

from __future__ import annotations

from django.http import Http404

from .models import Deal, DealSeat


def may_view_deal(user, deal: Deal) -> bool:
    if deal.ended_at is None or user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return DealSeat.objects.filter(deal=deal, user_id=user.pk).exists()


def deal_for(user, deal_id) -> Deal:
    """The deal `user` may view, or Http404 (no such deal, not his, not over: the same answer)."""
    deal = Deal.objects.select_related("table", "previous").filter(pk=deal_id).first()
    if deal is None or not may_view_deal(user, deal):
        raise Http404("No such deal in your history.")
    return deal
