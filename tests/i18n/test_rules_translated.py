"""The rules page in each language decides the same points: every D-number of docs/rules.md (the reference) is in
the Russian and the Bulgarian text, and no other. (D18 was once added to the English text alone.)"""

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def decisions(path: Path) -> set[str]:
    return set(re.findall(r"\bD\d+\b", path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("language", ["ru", "bg"])
def test_every_decided_point_of_the_rules_is_in_each_translation(language):
    reference = decisions(DOCS / "rules.md")
    assert "D18" in reference
    assert decisions(DOCS / f"rules.{language}.md") == reference
