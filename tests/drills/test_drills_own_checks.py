"""The drills' own instruments: the shuffle drill's statistics can fail, and the fuzz drill's expected answers are
the protocol's (every frame it calls refused by the protocol is refused with the code it expects)."""

import random

import pytest

from drills.hostile import Generator
from drills.shuffle import (
    SmallSeedSpace,
    SwapWithAny,
    check_family,
    chi2_sf,
    positions_test,
    repeated,
    shuffled_directly,
)
from tables.protocol import BadMessage, parse_frame


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [(3.841459, 1, 0.05), (11.0705, 5, 0.05), (0.5, 3, 0.918891), (1225, 1225, 0.494627), (1400, 1225, 0.000345)],
)
def test_the_chi_square_tail_matches_the_tables(statistic, df, p):
    assert chi2_sf(statistic, df) == pytest.approx(p, rel=2e-3)


def test_the_positions_test_passes_a_fair_shuffle_and_fails_a_biased_one():
    fair = positions_test(shuffled_directly("classic", 20_000, random.Random(7)))
    biased = positions_test(shuffled_directly("classic", 20_000, SwapWithAny()))
    assert fair.passed and not biased.passed


def test_the_positions_statistic_of_a_fair_shuffle_has_the_chi_square_mean_and_false_alarm_rate():
    # 400 fair samples of 600 six-card decks: the whole-table statistic's mean must be its (n-1)² = 25 df (it was
    # n(n-1) = 30 before the permutation scale, which failed a fair 32-card shuffle in CI), and p < 0.05 about 5 %
    # of the time (it was about 18 %).
    rng = random.Random(19)
    samples = [positions_test([tuple(rng.sample(range(6), 6)) for _ in range(600)]) for _ in range(400)]
    mean = sum(sample.statistic for sample in samples) / len(samples)
    below_5_percent = sum(sample.p < 0.05 for sample in samples) / len(samples)
    assert samples[0].df == 25
    assert mean == pytest.approx(25, abs=1.5)
    assert below_5_percent < 0.09


def test_a_borderline_family_deals_a_second_sample_which_must_fail_too():
    def dealer(*shufflers):
        samples = iter(shufflers)

        def deal(family, decks):
            return shuffled_directly(family, decks, next(samples)), 0

        return deal

    once = check_family("classic", 3_000, dealer(SwapWithAny(), random.Random(5)))
    twice = check_family("classic", 3_000, dealer(SwapWithAny(), SwapWithAny()))
    fair = check_family("classic", 3_000, dealer(random.Random(6)))  # a second sample would raise StopIteration
    assert once == [] and fair == []
    assert twice == [twice[0]] and "not uniform in 2 sample(s)" in twice[0]


def test_the_repeat_check_catches_a_small_seed_space():
    assert repeated(shuffled_directly("bulgarian", 2_000, SmallSeedSpace(500))) == 1_500
    assert repeated(shuffled_directly("bulgarian", 2_000, random.Random(3))) == 0


def test_every_frame_the_fuzz_drill_calls_refused_is_refused_by_the_protocol_with_its_code():
    generator = Generator(random.Random(11), 5, 6)
    checked = 0
    for _ in range(5_000):
        hostile = generator.parse_level()
        if hostile.category != "parse":
            continue
        with pytest.raises(BadMessage) as refused:
            parse_frame(hostile.frame, 5)
        assert refused.value.code in hostile.codes, (hostile.what, hostile.frame[:80])
        assert refused.value.id == hostile.id, (hostile.what, hostile.frame[:80])
        checked += 1
    assert checked > 3_000


def test_every_frame_the_fuzz_drill_sends_to_the_door_passes_the_protocol():
    generator = Generator(random.Random(12), 5, 6)
    for _ in range(2_000):
        for hostile in (generator.door_level(None), generator.parse_level()):
            if hostile.category == "door":
                assert parse_frame(hostile.frame, 5).id == hostile.id


def test_a_drill_player_presses_again_on_a_new_connection_after_his_press_was_refused_unavailable(tmp_path):
    """The fault drill's players: a New deal press refused `unavailable` (Redis restarting) is pressed again on the
    new connection's snapshot of the same version, as a person would, not left to the New deal clock (CI's fault
    drill once saw a table's four presses refused and the table idle until its clock sat everyone out)."""
    from collections import Counter

    from bench.live_client import Run, choose
    from drills.client import DrillPlayer, Recorder

    recorder = Recorder(str(tmp_path / "frames"))
    spec = {"urls": ["ws://x/"], "table": 1, "user": 5, "ante": 10, "origin": "http://x"}
    player = DrillPlayer(Run(10), spec, {"mode": "full"}, 0, recorder, Counter(), [])
    waiting = {"type": "snapshot", "version": 7, "seat": 0, "table": 1, "clock": None, "state": {
        "phase": "waiting", "seats": [{"stack": 1000}]}, "legal": [{"kind": "new_deal"}]}
    player.connection = 1
    player.heard("", waiting)
    player.version, player.snapshot = 7, waiting
    player.outstanding = ("a-0-1", 0.0, "new_deal")
    player.answer({"type": "error", "id": "a-0-1", "code": "unavailable"}, 0.0)
    assert player.wait_above == 7  # nothing changed: on this connection he waits for news

    player.connection, player.fresh = 2, True  # the socket closed (4503) and another opened
    player.heard("", dict(waiting))
    recorder.close()
    assert player.snapshot["version"] > player.wait_above
    assert choose(player.snapshot, player.rng, False, 10) == ("new_deal", {})


def test_the_fuzz_drills_hostile_socket_paths_never_name_a_table():
    """A junk path of digits ("2", or "%32" once decoded) names a real table, whose snapshot a spectator rightly
    gets: the drill failed on it (seed 641306346). Every path it sends must name none."""
    from urllib.parse import unquote

    from drills.hostile import hostile_paths
    from tables.protocol import table_id_of

    for seed in range(300):
        for path in hostile_paths(random.Random(seed), 40):
            if path.startswith("/ws/tables/") and path.count("/") == 4:
                assert table_id_of(unquote(path.removeprefix("/ws/tables/").removesuffix("/"))) is None, (seed, path)
