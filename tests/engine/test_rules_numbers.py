"""The rules' numbers (tables/engine/rules.py) are the ones docs/rules.md (RULES.md) states, and the engine plays
them: each test reads the rule's own sentence and checks the constant against it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tables.engine import rules
from tables.engine.play import Action, IllegalAction, TableState

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


def rule_line(pattern: str) -> re.Match:
    match = re.search(pattern, RULES)
    assert match, f"RULES.md no longer says {pattern!r}"
    return match


@pytest.mark.parametrize("family", ["classic", "bulgarian"])
def test_seats_per_family_as_the_table_at_the_top_says(family):
    match = rule_line(rf"\| `{family}` \|[^\n]*\| (\d+)–(\d+) \|")
    assert rules.SEATS_BY_FAMILY[family] == (int(match[1]), int(match[2]))
    low, high = rules.SEATS_BY_FAMILY[family]
    TableState.new(family, 10, low)
    TableState.new(family, 10, high)
    for seats in (low - 1, high + 1):
        with pytest.raises(ValueError):
            TableState.new(family, 10, seats)


def test_the_table_buy_in_is_20_to_100_antes_and_a_stack_at_most_100_D15():
    match = rule_line(r"table buy-in of (\d+) to (\d+) antes")
    assert (rules.MIN_BUY_IN_ANTES, rules.MAX_STACK_ANTES) == (int(match[1]), int(match[2]))
    assert int(rule_line(r"add\s+chips up to (\d+) antes \(D15\)")[1]) == rules.MAX_STACK_ANTES
    state = TableState.new("classic", 10, 2)
    with pytest.raises(IllegalAction):
        state.apply(Action("sit", seat=0, player="a", amount=rules.MIN_BUY_IN_ANTES * 10 - 1))
    with pytest.raises(IllegalAction):
        state.apply(Action("sit", seat=0, player="a", amount=rules.MAX_STACK_ANTES * 10 + 1))
    state.apply(Action("sit", seat=0, player="a", amount=rules.MIN_BUY_IN_ANTES * 10))
    with pytest.raises(IllegalAction):
        state.apply(Action("add_chips", seat=0, amount=(rules.MAX_STACK_ANTES - rules.MIN_BUY_IN_ANTES) * 10 + 1))


@pytest.mark.parametrize("kind, what", [
    ("move", "a move"), ("show", "Show or Fold at the showdown"), ("split", "Split or Play on"),
    ("svara_buy_in", "a svara buy-in offer"), ("new_deal", '"New deal" after a deal'),
])
def test_each_clock_runs_as_long_as_the_time_table_says_section_9(kind, what):
    seconds = int(rule_line(rf"\| {re.escape(what)} \| (\d+) s \|")[1])
    assert rules.CLOCK_SECONDS[kind] == seconds


def test_offline_for_two_minutes_stands_up_section_9():
    assert rules.OFFLINE_SECONDS == 60 * int(rule_line(r"\| offline \(no connection\) \| (\d+) min \|")[1])


def test_the_rake_is_3_percent_at_most_10_antes_section_8():
    match = rule_line(r"(\d+) % of the pot that is awarded, rounded down, at most (\d+) antes")
    assert (rules.RAKE_PERCENT, rules.RAKE_MAX_ANTES) == (int(match[1]), int(match[2]))


def test_after_10_svaras_in_a_row_the_pot_is_split_D13():
    assert rules.MAX_SVARAS == int(rule_line(r"after (\d+) svaras in a row, the pot is split")[1])


def test_a_classic_svara_buy_in_leaves_more_than_two_pots_D11():
    assert rule_line(r"only if more than (\w+) such pots")[1] == "two" and rules.SVARA_BUY_IN_POTS_LEFT == 2
