"""The drills' own instruments: the shuffle drill's statistics can fail, and the fuzz drill's expected answers are
the protocol's (every frame it calls refused by the protocol is refused with the code it expects)."""

import random

import pytest

from drills.hostile import Generator
from drills.shuffle import SmallSeedSpace, SwapWithAny, chi2_sf, positions_test, repeated, shuffled_directly
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
