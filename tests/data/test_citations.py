"""Rule citations in the edition's own numbering (data/rule_citations.json)."""

from __future__ import annotations

import pytest

from india1853.data.citations import cite, cite_text
from india1853.errors import DataError


@pytest.mark.parametrize(("rule", "first"), [
    ("3.1", "20"), ("3.1.4", "21.4"), ("4.8.10", "35.9"), ("5.2", "41"), ("3", "20"),
    ("4.1.10 / 31.8", "31.8"), ("2.5.4, 2.7", "14.1, 16.4"), ("18.1, 21.8", "18.1, 21.8"),
    ("Alternative Rules 4.0", "Alternative Rules 4.0"), ("", ""),
])
def test_a_first_edition_citation(rule: str, first: str) -> None:
    assert cite("first", rule) == first
    assert cite("second", rule) == rule


def test_citations_in_a_sentence_and_other_numbers_left_alone() -> None:
    text = "rule 3.1.2: at most 6 shares; pay for it (3.4.3, 4.8.10), Operating Round 3.1 (£2)"
    assert cite_text("first", text) == (
        "rule 21.2: at most 6 shares; pay for it (24.3, 35.9), Operating Round 3.1 (£2)")
    assert cite_text("second", text) == text


def test_an_unknown_edition_is_a_data_error() -> None:
    with pytest.raises(DataError, match="no edition 'third'"):
        cite("third", "3.1")
