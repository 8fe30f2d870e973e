"""A deal's fairness record as text, and its check (docs/fair.md).

`fair_lines(deal)` gives the fairness block of the hand history's text export, to be included verbatim: every line
is `Name: value`, so it can sit among the export's other lines; docs/verify_deal.py and the /fair/ page read it
back from any text holding it. `first_difference` recomputes a record (the one stored, or one read back) and says
what first differs, or None when the commitment and every dealt card match.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import fair
from .engine.cards import format_hand, parse_card
from .models import Deal

HEADER = f"Fair deal: {fair.VERSION}"  # the block's first line; docs/fair.md spells out the rest


@dataclass(frozen=True, slots=True)
class DealtDeck:
    svara: int  # 0: the deal itself; k: its k-th svara
    dealt: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, three cards as "A♥") in the order of dealing


@dataclass(frozen=True, slots=True)
class Fairness:
    family: str
    deal_no: int
    commitment: str
    server_seed: str
    seeds: tuple[tuple[int, str], ...]  # (seat, seed) in ascending seat order
    decks: tuple[DealtDeck, ...]


class NotVerifiable(Exception):
    """This deal cannot be checked (yet): the message says why."""


def chain_first(deal: Deal) -> Deal:
    """The deal a svara came out of (its chain's first row): one seed deals the whole chain, its record is there."""
    if not deal.svara:
        return deal
    return Deal.objects.select_related("table").get(table_id=deal.table_id, number=deal.number, svara=0)


def fairness_of(deal: Deal) -> Fairness:
    """The stored record of a finished, fair deal (a svara's: its chain's), or NotVerifiable."""
    deal = chain_first(deal)
    if deal.ended_at is None:
        raise NotVerifiable("the deal is not over: its server seed is revealed when it is")
    if deal.commitment and not deal.server_seed:
        raise NotVerifiable("its svara is still being played: the server seed is revealed when the chain is over")
    if not deal.commitment or not deal.server_seed or not deal.decks:
        raise NotVerifiable("the deal has no fairness record (it was dealt before fair deals)")
    if any(deck["stacked"] for deck in deal.decks):
        raise NotVerifiable("a deck of the deal was stacked by a test: it proves nothing")
    decks = tuple(
        DealtDeck(deck["svara"], tuple((row[0], tuple(str(parse_card(c)) for c in row[1:])) for row in deck["dealt"]))
        for deck in deal.decks
    )
    return Fairness(deal.table.family, deal.number, deal.commitment, deal.server_seed,
                    tuple((seat, seed) for seat, seed in deal.seeds), decks)  # fmt: skip


def fair_lines(deal: Deal) -> list[str]:
    """The fairness block of the deal's text export (docs/fair.md "The text form")."""
    try:
        record = fairness_of(deal)
    except NotVerifiable as why:
        lines = [f"{HEADER}, not verifiable: {why}"]
        if chain_first(deal).commitment:
            lines.append(f"Commitment: {chain_first(deal).commitment}")
        return lines
    lines = [HEADER, f"Family: {record.family}", f"Deal number: {record.deal_no}", f"Commitment: {record.commitment}",
             f"Server seed: {record.server_seed}"]  # fmt: skip
    lines += [f"Seed seat {seat}: {seed}" for seat, seed in record.seeds]
    for deck in record.decks:
        prefix = "Dealt" if deck.svara == 0 else f"Svara {deck.svara} dealt"
        lines += [f"{prefix} seat {seat}: {' '.join(cards)}" for seat, cards in deck.dealt]
    return lines


def first_difference(record: Fairness, server_seed: str | None = None) -> str | None:
    """What first differs when the deal is recomputed from its seeds (with `server_seed` instead of the stored one,
    if given), or None: the commitment and every dealt card match."""
    seed = record.server_seed if server_seed is None else server_seed
    try:
        committed = fair.commitment(seed)
    except fair.SeedError as error:
        return f"the server seed: {error}"
    if committed != record.commitment:
        return f"the commitment: SHA-256 of the server seed is {committed}, the deal published {record.commitment}"
    for seat, own in record.seeds:
        try:
            fair.check_player_seed(own)
        except fair.SeedError as error:
            return f"the seed of seat {seat}: {error}"
    for deck in record.decks:
        cards = fair.deck_for(seed, record.family, record.deal_no, deck.svara, list(record.seeds))
        order = [seat for seat, _ in deck.dealt]
        for (seat, dealt), (_, computed) in zip(deck.dealt, fair.hands_for(cards, order), strict=True):
            expected = format_hand(computed)
            if " ".join(dealt) != expected:
                where = "the deal" if deck.svara == 0 else f"svara {deck.svara}"
                return f"{where}, seat {seat}: dealt {' '.join(dealt)}, the seeds give {expected}"
    return None


def describe(record: Fairness) -> str:
    decks = len(record.decks)
    hands = sum(len(deck.dealt) for deck in record.decks)
    return (f"deal {record.deal_no} ({record.family}): the commitment and all {3 * hands} cards of {decks} "
            f"deck{'s' if decks != 1 else ''} match the seeds")

