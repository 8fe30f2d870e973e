"""Provably fair deals through the door on PostgreSQL (docs/fair.md, tracker issue 13): a long random run of both
families, svaras included, where `verify_deal` passes on every deal; each kind of tampering (server seed, a
player's seed, a dealt card, the commitment) caught by the command and by the standalone docs/verify_deal.py;
the seeds players add; the stacked test decks, which still work in tests and are never taken for fair ones."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tables import services
from tables.engine import fair
from tables.engine.actions import MOVE_KINDS
from tables.engine.cards import ALL_CARDS, format_hand
from tables.fair_record import fair_lines
from tables.models import Deal

from .conftest import state_of

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "verify_deal.py"


def verify(deal_id, *extra) -> tuple[int, str]:
    """verify_deal's exit code and what it said."""
    from io import StringIO

    out = StringIO()
    try:
        call_command("verify_deal", str(deal_id), *extra, stdout=out)
    except CommandError as error:
        return error.returncode, str(error)
    return 0, out.getvalue()


def run_script(tmp_path, text: str) -> tuple[int, str]:
    path = tmp_path / "deal.txt"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr


def export_of(deal: Deal) -> str:
    """A text export as the hand history page will serve it: other lines around the fairness block, verbatim."""
    return "\n".join([f"Hand history: deal {deal.number} at table {deal.table_id}", "Pot: 40",
                      *fair_lines(deal), "Winner: seat 1", ""])  # fmt: skip


def random_run(table, users, deals: int, rng: random.Random, want_svaras: int = 1, cap: int = 600) -> None:
    """Random legal play through the door until `deals` deals (and `want_svaras` svara decks) were played. Players
    add a seed to most of their New deals; the first player plays with "Deal me in" and a seed given ahead."""
    for index, user in enumerate(users):
        services.sit(table.pk, user, 1000, seat=index)
    services.act(table.pk, users[0], {"kind": "standing", "choice": "deal_me_in", "seed": "d0"})
    by_player = {str(user.pk): user for user in users}
    for _ in range(cap * 40):
        state = state_of(table.pk)
        played = Deal.objects.filter(table=table, svara=0, ended_at__isnull=False)  # a svara: a row of its own
        if state.phase == "waiting" and played.count() >= deals and sum(
                len(d.decks) > 1 for d in played) >= want_svaras:
            return
        if state.phase == "waiting":
            for i, s in enumerate(state.seats):
                if s.player is None:
                    continue
                user = by_player[s.player]
                if s.stack < 20 * state.ante:
                    services.act(table.pk, user, {"kind": "add_chips", "amount": 100 * state.ante - s.stack})
                if i == 0 and s.seed is None:  # the page sends his next seed ahead (docs/fair.md)
                    seed = rng.randbytes(8).hex()
                    services.act(table.pk, user, {"kind": "standing", "choice": "deal_me_in", "seed": seed})
                now = state_of(table.pk)
                if now.phase != "waiting":
                    break
                s = now.seats[i]
                if not s.ready or s.sitting_out:
                    command = {"kind": "new_deal"}
                    if rng.random() < 0.8:
                        command["seed"] = rng.randbytes(rng.randint(1, 32)).hex()
                    services.act(table.pk, user, command)
            continue
        clock = state.clock
        seat = clock.seats[0]
        legal = [lg for lg in state.legal_actions(seat) if lg.kind in MOVE_KINDS and lg.kind != "open"]
        kinds = {lg.kind: lg for lg in legal}
        # Ties need showdowns: call and check more than bet, show, and play on.
        for wanted in ("play_on", "show", "buy_in", "call", "check"):
            if wanted in kinds and rng.random() < 0.85:
                choice = kinds[wanted]
                break
        else:
            choice = rng.choice(legal)
        command = {"kind": choice.kind}
        if choice.min is not None and choice.kind in ("bet", "raise", "dark"):
            command["amount"] = rng.randint(choice.min, min(choice.max, choice.min * 2))
        services.act(table.pk, by_player[state.seats[seat].player], command)
    raise AssertionError("the random run did not reach its deals")


@pytest.mark.django_db
@pytest.mark.parametrize("family", ["classic", "bulgarian"])
def test_verify_deal_passes_on_every_deal_of_a_long_random_run_with_svaras(family, players, tmp_path):
    table = services.create_table(players[0], family, 10, 6 if family == "classic" else 8, False)
    random_run(table, players, deals=250, rng=random.Random(family), want_svaras=3)
    rows = list(Deal.objects.filter(table=table).select_related("table"))
    deals = [deal for deal in rows if deal.svara == 0]  # a svara is a row of its own; its chain's record is here
    assert len(deals) >= 250
    for svara in (deal for deal in rows if deal.svara):
        code, said = verify(svara.pk)  # a svara's id checks its chain
        assert code == 0 and "verified" in said, (svara.pk, said)
    svara_decks = contributed = 0
    for deal in deals:
        code, said = verify(deal.pk)
        assert code == 0 and "verified" in said, (deal.pk, said)
        assert deal.verifiable and [d["svara"] for d in deal.decks] == list(range(len(deal.decks)))
        svara_decks += len(deal.decks) - 1
        contributed += len(deal.seeds)
    assert svara_decks >= 3 and contributed > len(deals)
    # The first player's seed given ahead with "Deal me in" counted in the deals pressed for him.
    assert sum(any(seat == 0 for seat, _ in deal.seeds) for deal in deals) >= len(deals) // 2
    # The standalone script agrees on a deal with a svara, from the text export alone.
    with_svara = next(deal for deal in deals if len(deal.decks) > 1)
    code, said = run_script(tmp_path, export_of(with_svara))
    assert code == 0 and "verified" in said, said
    assert any(line.startswith("Svara 1 dealt seat ") for line in fair_lines(with_svara))


@pytest.fixture
def finished(players):
    """A fair deal of three players, over (everyone but the last folds), with seeds from two of them."""
    table = services.create_table(players[0], "classic", 10, 6, False)
    for index, user in enumerate(players):
        services.sit(table.pk, user, 400, seat=index)
    services.act(table.pk, players[0], {"kind": "new_deal", "seed": "abc123"})
    services.act(table.pk, players[1], {"kind": "new_deal"})
    services.act(table.pk, players[2], {"kind": "new_deal", "seed": "ff"})
    deal = Deal.objects.get(table=table)
    assert deal.commitment == fair.commitment(state_of(table.pk).server_seed) and deal.server_seed == ""
    assert deal.decks == [] and deal.seeds == []  # nothing but the commitment while the deal runs
    while state_of(table.pk).phase != "waiting":
        state = state_of(table.pk)
        user = next(u for u in players if str(u.pk) == state.seats[state.turn].player)
        services.act(table.pk, user, {"kind": "fold"})
    deal.refresh_from_db()
    assert deal.seeds == [[0, "abc123"], [2, "ff"]] and len(deal.decks) == 1
    return deal


TAMPERINGS = {
    "server seed": lambda d: setattr(d, "server_seed", "%064x" % (int(d.server_seed, 16) ^ 1)),
    "a player's seed": lambda d: setattr(d, "seeds", [[0, "abc124"], [2, "ff"]]),
    "a contribution left out": lambda d: setattr(d, "seeds", [[0, "abc123"]]),
    "a dealt card": lambda d: d.decks[0]["dealt"][0].__setitem__(1, "Ah" if d.decks[0]["dealt"][0][1] != "Ah" else "Kh"),
    "the commitment": lambda d: setattr(d, "commitment", "0" * 64),
}


def test_a_finished_deal_verifies_with_the_command_and_the_script(finished, tmp_path):
    code, said = verify(finished.pk)
    assert code == 0 and "all 9 cards of 1 deck match" in said
    code, said = verify(finished.pk, "--server-seed", finished.server_seed.upper())
    assert code == 0
    code, said = run_script(tmp_path, export_of(finished))
    assert code == 0, said


@pytest.mark.parametrize("kind", TAMPERINGS)
def test_each_kind_of_tampering_is_detected_by_the_command_and_the_script(finished, kind, tmp_path):
    TAMPERINGS[kind](finished)
    finished.save()
    code, said = verify(finished.pk)
    assert code == 1 and "does NOT match" in said, said
    expected = "the commitment" if kind in ("server seed", "the commitment") else "the deal, seat"
    assert expected in said, said
    code, said = run_script(tmp_path, export_of(finished))
    assert code == 1 and "does NOT match" in said and expected in said, said


def test_a_tampered_text_export_fails_the_script(finished, tmp_path):
    text = export_of(finished)
    seed_line = next(line for line in text.splitlines() if line.startswith("Seed seat 2: "))
    assert run_script(tmp_path, text.replace(seed_line, "Seed seat 2: fe"))[0] == 1
    dealt = next(line for line in text.splitlines() if line.startswith("Dealt seat "))
    cards = dealt.split(": ")[1].split()
    swapped = dealt.replace(" ".join(cards), " ".join([cards[1], cards[0], cards[2]]))
    assert run_script(tmp_path, text.replace(dealt, swapped))[0] == 1
    code, said = run_script(tmp_path, "no fairness block here\n")
    assert code == 2 and "no complete fairness block" in said


def test_a_wrong_server_seed_fails_and_bad_arguments_are_clear_errors(finished, players):
    code, said = verify(finished.pk, "--server-seed", "ab" * 32)
    assert code == 1 and "the commitment" in said
    code, said = verify(finished.pk, "--server-seed", "xyz")
    assert code == 2 and "64 lowercase hex" in said
    assert verify(10**9)[0] == 2 and "no deal" in verify(10**9)[1]
    assert verify("twelve")[0] == 2
    table = services.create_table(players[1], "classic", 10, 6, False)
    for index, user in enumerate(players[:2]):
        services.sit(table.pk, user, 400, seat=index)
        services.act(table.pk, user, {"kind": "new_deal"})
    running = Deal.objects.get(table=table)
    code, said = verify(running.pk)
    assert code == 2 and "not over" in said
    assert fair_lines(running) == [
        "Fair deal: svara-fair/1, not verifiable: the deal is not over: its server seed is revealed when it is",
        f"Commitment: {running.commitment}",
    ]


def test_the_fairness_block_spells_out_the_record(finished):
    lines = fair_lines(finished)
    assert lines[:5] == ["Fair deal: svara-fair/1", "Family: classic", f"Deal number: {finished.number}",
                         f"Commitment: {finished.commitment}", f"Server seed: {finished.server_seed}"]
    assert lines[5:7] == ["Seed seat 0: abc123", "Seed seat 2: ff"]
    dealt = lines[7:]
    assert len(dealt) == 3 and all(line.startswith("Dealt seat ") for line in dealt)
    assert all(len(line.split(": ")[1].split()) == 3 for line in dealt)


def test_stacked_test_decks_still_work_in_tests_and_never_pass_for_fair(players):
    table = services.create_table(players[0], "classic", 10, 6, False)
    for index, user in enumerate(players[:2]):
        services.sit(table.pk, user, 400, seat=index)
    services.queue_test_deck(table.pk, ["Ah Kh Qh", "6c 6h 6s"])
    for user in players[:2]:
        services.act(table.pk, user, {"kind": "new_deal"})
    state = state_of(table.pk)
    assert [format_hand(ALL_CARDS[c] for c in state.seats[i].cards) for i in state.order] == ["A♥ K♥ Q♥", "6♣ 6♥ 6♠"]
    assert state.view(0)["fair"]["stacked"] is True
    while state_of(table.pk).phase != "waiting":
        s = state_of(table.pk)
        user = next(u for u in players if str(u.pk) == s.seats[s.turn].player)
        services.act(table.pk, user, {"kind": "fold"})
    stacked = Deal.objects.get(table=table)
    assert not stacked.verifiable
    code, said = verify(stacked.pk)
    assert code == 2 and "stacked" in said
    assert fair_lines(stacked)[0].startswith("Fair deal: svara-fair/1, not verifiable: a deck of the deal was stacked")
    # With the queue used up, the next deal is the fair one.
    for user in players[:2]:
        services.act(table.pk, user, {"kind": "new_deal"})
    assert not state_of(table.pk).fair.stacked


@pytest.mark.parametrize("command, why", [
    ({"kind": "new_deal", "seed": "XYZ"}, "lowercase hex"),
    ({"kind": "new_deal", "seed": "a" * 65}, "lowercase hex"),
    ({"kind": "new_deal", "seed": 12}, "lowercase hex"),
    ({"kind": "fold", "seed": "ab"}, "Only new_deal, back and standing deal_me_in carry a seed"),
    ({"kind": "standing", "choice": "fold_if_losing", "seed": "ab"}, "carry a seed"),
])
def test_a_bad_seed_is_a_clear_error_and_changes_nothing(players, command, why):
    table = services.create_table(players[0], "classic", 10, 6, False)
    services.sit(table.pk, players[0], 400, seat=0)
    before = state_of(table.pk).dumps()
    with pytest.raises(services.DoorError) as refused:
        services.act(table.pk, players[0], command)
    assert refused.value.code == "bad_field" and why in refused.value.message
    assert state_of(table.pk).dumps() == before


def test_the_example_block_of_docs_fair_md_checks(tmp_path):
    text = (SCRIPT.parent / "fair.md").read_text(encoding="utf-8")
    example = text.split("The text form", 1)[1].split("```", 2)[1]
    assert run_script(tmp_path, example) == (0, "deal 17 verified: the commitment and all 15 dealt cards match the "
                                                "seeds\n")


def test_a_socket_frame_carries_the_seed_to_the_door_command():
    from tables.protocol import BadMessage, parse_frame

    assert parse_frame('{"type": "new_deal", "seed": "ab09"}', 1).command.seed == "ab09"
    assert parse_frame('{"type": "back", "seed": "f"}', 1).command.seed == "f"
    assert parse_frame('{"type": "standing", "choice": "deal_me_in", "seed": "00"}', 1).command.seed == "00"
    for frame in ('{"type": "new_deal", "seed": "AB"}', '{"type": "new_deal", "seed": ""}',
                  '{"type": "new_deal", "seed": ["ab"]}', '{"type": "call", "seed": "ab"}'):
        with pytest.raises(BadMessage) as refused:
            parse_frame(frame, 1)
        assert refused.value.code == "bad_field"
