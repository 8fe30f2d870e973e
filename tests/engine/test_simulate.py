"""`python -m tables.engine simulate`: random legal deals with the invariants checked, JSON out."""

import json
import subprocess
import sys

from tables.engine.simulate import main


def test_simulate_prints_figures_and_no_invariant_violation(capsys):
    for family, players in (("classic", 6), ("bulgarian", 8)):
        assert main(["--family", family, "--players", str(players), "--deals", "300", "--seed", "1"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["deals"] == 300 and result["invariant_violations"] == 0
        assert result["deals_per_second"] > 0
        assert result["svaras"] >= 0 and result["splits"] >= 0 and result["longest_svara_chain"] >= 1


def test_simulate_is_repeatable_with_a_seed(capsys):
    outputs = []
    for _ in range(2):
        main(["--deals", "100", "--seed", "7"])
        result = json.loads(capsys.readouterr().out)
        result.pop("deals_per_second")
        outputs.append(result)
    assert outputs[0] == outputs[1]


def test_simulate_refuses_too_many_players(capsys):
    assert main(["--family", "classic", "--players", "7", "--deals", "1"]) == 2


def test_simulate_runs_from_the_engine_command_line():
    out = subprocess.run(
        [sys.executable, "-m", "tables.engine", "simulate", "--deals", "50", "--seed", "3"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out)["invariant_violations"] == 0
