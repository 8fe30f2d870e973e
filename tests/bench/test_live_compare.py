"""`python -m bench live --compare`: one daphne runs another checkout's code; the round trips split by daphne."""

from collections import Counter

import pytest

from bench.live import SEATS, parse_args, web_of


def test_each_daphne_plays_every_seat_alike():
    seats = Counter((web_of(table, seat, 2), seat) for table in range(100) for seat in range(SEATS))
    assert set(seats.values()) == {50}  # each of the two daphnes holds each seat at half the tables
    for table in range(100):  # and every table has players on both
        assert {web_of(table, seat, 2) for seat in range(SEATS)} == {0, 1}


def test_a_compare_path_that_is_no_checkout_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit):
        parse_args(["--compare", str(tmp_path)])
    assert "not a checkout of this project" in capsys.readouterr().err


def test_compare_names_a_daphne_and_a_checkout(tmp_path, capsys):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "web.py").write_text("")
    args = parse_args(["--compare", str(tmp_path), "--compare-web", "1"])
    assert (args.compare, args.compare_web) == (tmp_path.resolve(), 1)
    with pytest.raises(SystemExit):
        parse_args(["--compare", str(tmp_path), "--target", "http://127.0.0.1:8001", "--database-url", "postgres://x"])
    assert "--compare starts its own daphnes: not with --target" in capsys.readouterr().err
