"""`python -m tables.engine count`: points of hands from the command line, one JSON object a line."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_count(*args, stdin=None):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-m", "tables.engine", "count", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
    )


def records(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def test_count_prints_one_json_object_per_hand_given_as_arguments():
    result = run_count("--family", "classic", "A♥ K♥ 6♣", "Ah Kh Qh")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == '{"hand": "A♥ K♥ 6♣", "points": 32, "name": null}'
    assert records(result.stdout) == [
        {"hand": "A♥ K♥ 6♣", "points": 32, "name": None},
        {"hand": "A♥ K♥ Q♥", "points": 31, "name": "top trynki"},
    ]
    assert result.stderr == ""


def test_count_keeps_32_5_and_prints_hands_in_symbol_form():
    result = run_count("K♥ K♠ K♦", "Th,Jh,Qh")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        '{"hand": "K♥ K♠ K♦", "points": 32.5, "name": null}',
        '{"hand": "10♥ J♥ Q♥", "points": 30, "name": null}',
    ]


def test_count_reads_one_hand_a_line_from_standard_input():
    result = run_count("--family", "bulgarian", stdin="7c 9s Js\n\n7♣ A♥ A♦\n7h 7d 8c\n")
    assert result.returncode == 0, result.stderr
    assert records(result.stdout) == [
        {"hand": "7♣ 9♠ J♠", "points": 30, "name": None},
        {"hand": "7♣ A♥ A♦", "points": 33, "name": "three aces"},
        {"hand": "7♥ 7♦ 8♣", "points": 23, "name": "two sevens"},
    ]


def test_family_defaults_to_classic():
    result = run_count("6♥ 6♠ 6♣")
    assert records(result.stdout) == [{"hand": "6♥ 6♠ 6♣", "points": 34, "name": "three shakhas"}]


def test_bad_hands_are_reported_on_stderr_and_the_others_still_counted():
    result = run_count(
        "--family",
        "bulgarian",
        stdin="A♥ K♥ Q♥\n6♠ 7♥ 8♥\nA♥ A♥ K♥\nA♥ K♥\nA♥ K♥ Z♥\n8♠ A♦ 7♣\n",
    )
    assert result.returncode != 0
    assert records(result.stdout) == [
        {"hand": "A♥ K♥ Q♥", "points": 31, "name": None},
        {"hand": "8♠ A♦ 7♣", "points": 22, "name": None},
    ]
    errors = result.stderr.splitlines()
    assert len(errors) == 4
    assert "line 2" in errors[0] and "6♠ is not in the bulgarian deck" in errors[0]
    assert "line 3" in errors[1] and "A♥ is in the hand twice" in errors[1]
    assert "line 4" in errors[2] and "three cards, not 2" in errors[2]
    assert "line 5" in errors[3] and "not a card" in errors[3]


def test_a_bad_hand_given_as_an_argument_fails_the_run():
    result = run_count("A♥ K♥ 6♣", "6♣ 6♣ 7♥")
    assert result.returncode != 0
    assert records(result.stdout) == [{"hand": "A♥ K♥ 6♣", "points": 32, "name": None}]
    assert "argument 2" in result.stderr and "6♣ is in the hand twice" in result.stderr


def test_unknown_family_is_an_argparse_error():
    result = run_count("--family", "poker", "A♥ K♥ 6♣")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "invalid choice: 'poker'" in result.stderr
