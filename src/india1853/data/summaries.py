"""Short explanations of the rules the game cites, in our own words (``rule_summaries.json``).

For players: ``help 2.5.7`` in the terminal, and the ``rule_summary`` beside every rule number in
the turn model.  A citation such as "4.2.3 / 4.4.2" or "4.1.12-4.1.13" is explained by its first
rule, or failing that by the nearest section that has a summary ("4.8.16" -> "4.8").
"""

from __future__ import annotations

import json
import re
from functools import cache

from india1853.data.loader import DATA_DIR, EDITIONS
from india1853.errors import DataError

FILE = DATA_DIR / "rule_summaries.json"
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


@cache
def summaries(edition: str) -> dict[str, str]:
    """Every summary of ``edition``, by rule number."""
    data = json.loads(FILE.read_text(encoding="utf-8"))
    table = data.get(edition)
    if not isinstance(table, dict):
        raise DataError(f"rule_summaries.json: no edition {edition!r}")
    return {str(k): str(v) for k, v in table.items()}


def rule_summary(edition: str, rule: str) -> str:
    """The summary explaining the citation ``rule`` ("" when none applies)."""
    table = summaries(edition)
    match = _NUMBER.search(rule or "")
    if match is None:
        return ""
    number = match.group(0)
    while number:
        if number in table:
            return table[number]
        number = number.rpartition(".")[0]
    return ""


def rule_help(edition: str, rule: str) -> tuple[str, str, str] | None:
    """``(rule number, summary, edition)`` for ``help RULE``: the rule itself or its nearest
    section, in ``edition`` or else in the other edition (first edition numbers 11-41)."""
    number = rule.strip().removeprefix("rule").strip()
    if not _NUMBER.fullmatch(number):
        return None
    for name in (edition, *(e for e in EDITIONS if e != edition)):
        table = summaries(name)
        key = number
        while key:
            if key in table:
                return key, table[key], name
            key = key.rpartition(".")[0]
    return None
