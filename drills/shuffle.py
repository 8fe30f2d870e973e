"""The shuffle drill: are the engine's decks uniform, and is every deal's shuffle its own?

`python -m drills.shuffle [--decks N] [--seed-space N]`

For each rule family it deals N deals through the engine itself (`TableState.apply`, the path every table takes),
with the engine's own shuffle: the fair procedure (tables/engine/fair.py, docs/fair.md) from a fresh server seed a
deal and a player's seed. Each deal's whole deck is recomputed from its fairness record (`fair.deck_for`), and
every dealt hand is checked against it. Then:

- positions: a chi-square test of how often each card lands at each position of the deck (cards × positions
  cells, (cards - 1)² degrees of freedom), and one per position (Bonferroni-corrected): a uniform shuffle passes,
  a biased one fails. A family whose first sample fails deals a second, independent one, and fails only if that
  fails too: a real bias fails both, while a fair shuffle's false alarm drops from about 1 run in 250 to about 1
  in 100,000;
- dealt hands: every seat got exactly the three cards at its place in the recorded deck;
- no two deals share a shuffle: every deck order is distinct.

The same tests run on two broken shufflers as controls, and the drill fails unless both are caught: the
"swap with any position" shuffle (known biased) must fail the positions test, and a shuffle seeded from a small
space (Planet Poker's clock seed, FIELD-NOTES) must repeat decks. So a pass means the tests had the power to fail.
Exit status 0 only when every check passes.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass

ALPHA = 0.001  # a check fails below this p-value


# --- the chi-square distribution, without scipy ---------------------------------------------------------------


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X ~ chi-square(df): the regularised upper incomplete gamma Q(df/2, statistic/2)."""
    a, x = df / 2.0, statistic / 2.0
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # Lentz's continued fraction for Q
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return math.exp(log_front) * h


# --- shufflers: the engine's, and two broken ones ---------------------------------------------------------------


class Recorder:
    """The rng the engine is given: it shuffles with `real` and keeps every deck it shuffled."""

    def __init__(self, real):
        self.real = real
        self.decks: list[tuple[int, ...]] = []

    def shuffle(self, cards: list[int]) -> None:
        self.real.shuffle(cards)
        self.decks.append(tuple(cards))


class SwapWithAny:
    """The classic mistake: swap each position with any position (n^n paths onto n! orders: biased)."""

    def __init__(self):
        self.rng = random.SystemRandom()

    def shuffle(self, cards: list[int]) -> None:
        n = len(cards)
        for i in range(n):
            j = self.rng.randrange(n)
            cards[i], cards[j] = cards[j], cards[i]


class SmallSeedSpace:
    """A shuffle seeded from a small space (a clock in seconds, say): decks repeat."""

    def __init__(self, seeds: int):
        self.seeds, self.count = seeds, 0

    def shuffle(self, cards: list[int]) -> None:
        random.Random(self.count % self.seeds).shuffle(cards)
        self.count += 1


# --- dealing through the engine ---------------------------------------------------------------------------------


def deal_through_the_engine(family: str, decks: int, rng=None) -> tuple[list[tuple[int, ...]], int]:
    """Deal `decks` deals at a two-seat table through `TableState.apply`; returns the recorded decks and how many
    dealt hands differed from their place in the recorded deck. With no `rng` the engine deals its fair decks, each
    recomputed from the deal's record; with one, the engine deals from it through a recorder."""
    import secrets

    from tables.engine.actions import Action
    from tables.engine.fair import deck_for
    from tables.engine.play import TableState

    recorder = Recorder(rng)
    fair = rng is None
    wrong_hands = 0
    state = None
    while len(recorder.decks) < decks:
        if state is None or any(seat.player is not None and seat.stack < 10 for seat in state.seats):
            state = TableState.new(family, 1, 2)  # a fresh table before a stack runs dry
            state.apply(Action("sit", seat=0, player="1", name="a", amount=100))
            state.apply(Action("sit", seat=1, player="2", name="b", amount=100))
        for seat in (0, 1):
            if any(legal.kind == "new_deal" for legal in state.legal_actions(seat)):
                seed = secrets.token_hex(8) if seat == 0 else None
                state.apply(Action("new_deal", seat=seat, seed=seed), rng=None if fair else recorder)
        if fair:
            record = state.fair
            recorder.decks.append(tuple(card.index for card in deck_for(
                record.server_seed, family, record.deal_no, 0, record.seeds)))
        deck = recorder.decks[-1]
        for place, seat in enumerate(state.order):
            if list(state.seats[seat].cards) != list(deck[3 * place: 3 * place + 3]):
                wrong_hands += 1
        state.apply(Action("fold", seat=state.clock.seats[0]), rng=None if fair else recorder)
    return recorder.decks, wrong_hands


def shuffled_directly(family: str, decks: int, shuffler) -> list[tuple[int, ...]]:
    from tables.engine.dealing import deck_indexes

    out = []
    for _ in range(decks):
        cards = deck_indexes(family)
        shuffler.shuffle(cards)
        out.append(tuple(cards))
    return out


# --- the tests --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Positions:
    statistic: float
    df: int
    p: float
    worst_position: int
    worst_p: float  # Bonferroni-corrected: the smallest per-position p-value times the number of positions

    @property
    def passed(self) -> bool:
        return self.p >= ALPHA and self.worst_p >= ALPHA


def positions_test(decks: list[tuple[int, ...]]) -> Positions:
    cards = sorted(decks[0])
    n = len(cards)
    column = {card: i for i, card in enumerate(cards)}
    counts = [[0] * n for _ in range(n)]  # counts[position][card]
    for deck in decks:
        for position, card in enumerate(deck):
            counts[position][column[card]] += 1
    expected = len(decks) / n
    per_position = [sum((o - expected) ** 2 for o in row) / expected for row in counts]
    # A deck is a permutation: each puts one card in every row and every column, so the cells move together and
    # Pearson's sum over the whole table is n/(n-1) times a chi-square on (n-1)² df (its mean is n(n-1), not
    # (n-1)²). Scaled back, the p-value is exact; unscaled, a fair shuffle failed this 0.001 test 0.9 % of the time.
    # Each row alone is a plain multinomial (the card at one position is uniform), so its own test needs no scale.
    statistic = sum(per_position) * (n - 1) / n
    df = (n - 1) ** 2
    p_values = [chi2_sf(s, n - 1) for s in per_position]
    worst = min(range(n), key=lambda i: p_values[i])
    return Positions(statistic, df, chi2_sf(statistic, df), worst, min(1.0, p_values[worst] * n))


def repeated(decks: list[tuple[int, ...]]) -> int:
    return len(decks) - len({bytes(deck) for deck in decks})


def check_family(family: str, decks: int, deal=deal_through_the_engine) -> list[str]:
    """Deal a sample through `deal` and test it; a borderline positions test (and only that) deals a second,
    independent sample that must fail too. Prints each sample's figures; returns the failures."""
    failures = []
    for sample in (1, 2):
        t0 = time.monotonic()
        dealt, wrong_hands = deal(family, decks)
        positions = positions_test(dealt)
        twice = repeated(dealt)
        print(f"  {family}{'' if sample == 1 else ', a second sample'}: {len(dealt):,} decks of {len(dealt[0])} "
              f"in {time.monotonic() - t0:.1f} s; positions chi2 = {positions.statistic:,.1f} on {positions.df:,} "
              f"df, p = {positions.p:.4f}; worst position {positions.worst_position} p (x{len(dealt[0])}) = "
              f"{positions.worst_p:.4f}; hands not as the deck = {wrong_hands}; decks dealt twice = {twice}")  # fmt: skip
        if positions.passed or wrong_hands or twice:
            break  # the other checks have no false alarms: they fail at once
    if not positions.passed:
        failures.append(f"{family}: card positions are not uniform in {sample} sample(s) (p = {positions.p:.2g}, "
                        f"worst position p = {positions.worst_p:.2g})")  # fmt: skip
    if wrong_hands:
        failures.append(f"{family}: {wrong_hands} hands were not the cards at their place in the deck")
    if twice:
        failures.append(f"{family}: {twice} deals shared a shuffle")
    return failures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drills.shuffle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--decks", type=int, default=1_000_000, help="deals per rule family (default 1,000,000)")
    parser.add_argument("--seed-space", type=int, default=None,
                        help="seeds of the small-seed control (default: a tenth of --decks)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.decks < 1000:
        parser.error("--decks must be at least 1000 (a chi-square test needs about 30 per cell)")
    failures = []
    started = time.monotonic()
    print(f"shuffle drill: {args.decks:,} deals per family through the engine, with its own fair shuffle "
          f"(tables.engine.fair.FairShuffle)")  # fmt: skip
    for family in ("classic", "bulgarian"):
        failures += check_family(family, args.decks)
    # The controls: the same tests must catch a biased shuffle and a small seed space.
    control = positions_test(shuffled_directly("classic", args.decks, SwapWithAny()))
    print(f"  control, swap-with-any shuffle: p = {control.p:.3g}, worst position p = {control.worst_p:.3g} "
          f"({'caught' if not control.passed else 'NOT caught'})")  # fmt: skip
    if control.passed:
        failures.append("the positions test did not catch the biased control shuffle: too few decks to tell")
    seeds = args.seed_space or max(1, args.decks // 10)
    control_twice = repeated(shuffled_directly("classic", args.decks, SmallSeedSpace(seeds)))
    print(f"  control, {seeds:,} seeds: decks dealt twice = {control_twice:,} "
          f"({'caught' if control_twice else 'NOT caught'})")  # fmt: skip
    if not control_twice:
        failures.append("the repeat check did not catch the small-seed control")
    print(f"  {time.monotonic() - started:.1f} s in all")
    for failure in failures:
        print(f"FAILED: {failure}")
    print("shuffle drill: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
