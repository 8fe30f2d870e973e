"""Every number RULES.md fixes, in one place: the engine and the rest of the platform read them from here.

Each is cited by its rule (§ for a section of /work/shared/RULES.md, D for a point it decides); tests/engine/
test_rules_numbers.py checks them against RULES.md's own text. Pure Python, like the whole engine.
"""

from __future__ import annotations

# The table at the top of RULES.md: how many seats a table of each family has.
SEATS_BY_FAMILY = {"classic": (2, 6), "bulgarian": (2, 8)}
MIN_SEATS = min(low for low, _ in SEATS_BY_FAMILY.values())  # 2
MAX_SEATS = {family: high for family, (_, high) in SEATS_BY_FAMILY.items()}  # classic 6, bulgarian 8

# §10: sitting down costs a table buy-in of 20 to 100 antes; adding chips may bring a stack up to 100 antes (D15).
MIN_BUY_IN_ANTES = 20
MAX_STACK_ANTES = 100

# §9: how long each clock of the engine runs, in seconds (the engine never reads the time; the server does).
CLOCK_SECONDS = {
    "move": 20,  # a move; with no answer: check if he owes nothing, else fold (the blind / dark round: fold)
    "show": 3,  # Show or Fold at the showdown (§6); with no answer: folded unseen
    "split": 10,  # Split or Play on (§7); with no answer: split
    "svara_buy_in": 10,  # a svara buy-in offer (§7); with no answer: declined
    "new_deal": 30,  # "New deal" after a deal (§10); with no answer: sit out
}
OFFLINE_SECONDS = 120  # §9: offline (no connection) for 2 minutes: stand up, the chips return to the balance

# §8: the rake, 3 % of the awarded pot rounded down, at most 10 antes; none at a bot's table or on antes alone.
RAKE_PERCENT = 3
RAKE_MAX_ANTES = 10

# §7: after 10 svaras in a row the pot is split (D13).
MAX_SVARAS = 10
# §7, D11 (classic): a player may buy into a svara only if more than two such pots remain in his stack after paying.
SVARA_BUY_IN_POTS_LEFT = 2

# Not a rule (RULES.md leaves the ante to the table's creator): the platform's highest ante, so that every chip count
# stays far inside a JSON integer (a stack is at most MAX_STACK_ANTES antes).
MAX_ANTE = 1_000_000
