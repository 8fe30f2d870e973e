#!/usr/bin/env python3
"""Check a svara deal from its hand history's text export, with nothing but Python's standard library.

    python3 verify_deal.py deal-1234.txt        (or: ... < deal-1234.txt)

It reads the fairness block (docs/fair.md, "The text form") from any text holding it, recomputes SHA-256 of the
server seed against the commitment and every deck of the deal and its svaras from the seeds, and exits 0 when
everything matches, 1 with the first difference when not, 2 when the text holds no complete block.
This file restates the procedure on purpose: it imports nothing of the platform.
"""

import hashlib
import hmac
import re
import sys

SUITS = "♠♥♦♣"
RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
LOWEST = {"classic": "6", "bulgarian": "7"}
HEX = re.compile(r"[0-9a-f]+")


def start_deck(family):
    """Suit by suit (♠ ♥ ♦ ♣), each from its lowest card to the ace."""
    ranks = RANKS[RANKS.index(LOWEST[family]):]
    return [rank + suit for suit in SUITS for rank in ranks]


def deck(server_seed, family, deal_no, svara, seeds):
    key = bytes.fromhex(server_seed)
    pairs = ",".join(f"{seat}:{seed}" for seat, seed in seeds)
    message = f"svara-fair/1\nfamily={family}\ndeal={deal_no}\nsvara={svara}\nseeds={pairs}".encode()
    stream = bytearray()
    block = 0

    def below(m):
        nonlocal block
        limit = 2**32 - 2**32 % m
        while True:
            while len(stream) < 4:
                stream.extend(hmac.new(key, message + f"\nblock={block}".encode(), hashlib.sha256).digest())
                block += 1
            x = int.from_bytes(stream[:4], "big")
            del stream[:4]
            if x < limit:
                return x % m

    cards = start_deck(family)
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def read_block(text):
    fields, seeds, decks = {}, [], {}
    for raw in text.splitlines():
        line = raw.strip()
        if match := re.fullmatch(r"(Family|Deal number|Commitment|Server seed): (\S+)", line):
            fields[match[1]] = match[2]
        elif match := re.fullmatch(r"Seed seat (\d+): (\S+)", line):
            seeds.append((int(match[1]), match[2]))
        elif match := re.fullmatch(r"(?:Svara (\d+) dealt|Dealt) seat (\d+): (\S+) (\S+) (\S+)", line):
            decks.setdefault(int(match[1] or 0), []).append((int(match[2]), [match[3], match[4], match[5]]))
    missing = [name for name in ("Family", "Deal number", "Commitment", "Server seed") if name not in fields]
    if missing or not decks:
        raise ValueError("no complete fairness block: missing " + ", ".join(missing or ["the dealt cards"]))
    return fields, seeds, decks


def first_difference(fields, seeds, decks):
    seed, family = fields["Server seed"], fields["Family"]
    if family not in LOWEST:
        return f"no such family: {family}"
    if len(seed) != 64 or not HEX.fullmatch(seed):
        return "the server seed is not 64 lowercase hex characters"
    committed = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    if committed != fields["Commitment"]:
        return f"the commitment: SHA-256 of the server seed is {committed}, the deal published {fields['Commitment']}"
    if any(not HEX.fullmatch(own) or len(own) > 64 for _, own in seeds):
        return "a player's seed is not 1 to 64 lowercase hex characters"
    for svara, dealt in sorted(decks.items()):
        cards = deck(seed, family, int(fields["Deal number"]), svara, sorted(seeds))
        for k, (seat, hand) in enumerate(dealt):
            expected = cards[3 * k: 3 * k + 3]
            if hand != expected:
                where = "the deal" if svara == 0 else f"svara {svara}"
                return f"{where}, seat {seat}: dealt {' '.join(hand)}, the seeds give {' '.join(expected)}"
    return None


def main(argv):
    text = open(argv[1], encoding="utf-8").read() if len(argv) > 1 else sys.stdin.read()
    try:
        fields, seeds, decks = read_block(text)
    except ValueError as error:
        print(f"cannot check: {error}", file=sys.stderr)
        return 2
    difference = first_difference(fields, seeds, decks)
    if difference:
        print(f"deal {fields['Deal number']} does NOT match: {difference}", file=sys.stderr)
        return 1
    hands = sum(len(d) for d in decks.values())
    print(f"deal {fields['Deal number']} verified: the commitment and all {3 * hands} dealt cards match the seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
