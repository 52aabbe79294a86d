"""Rule citations in an edition's own numbering (``rule_citations.json``).

The engine and the turn model name rules by the second edition's numbers (2.x-5.x) where both
editions share a rule's code; a first-edition game must cite the 1989 rules (11-41).  The data
file maps each such number to the first edition's paragraph; an edition without a map (the
second) cites the numbers as they are.  A citation that already names both editions ("4.1.10 /
31.8") keeps the part in the edition's own numbering.
"""

from __future__ import annotations

import json
import re
from functools import cache

from india1853.data.loader import DATA_DIR, EDITIONS
from india1853.errors import DataError

FILE = DATA_DIR / "rule_citations.json"
# A second-edition rule number (2.x-5.x) standing on its own, not part of a larger number, a
# table's number ("TABLE 3"), the MIK 2 kit's name, nor one of the first edition's Alternative
# Rules ("Alternative Rules 4.0").
_SECOND = re.compile(r"(?<![\d.])(?<!TABLE )(?<!Rules )(?<!MIK )[2-5](?:\.\d+)*(?![\d.])")
# A citation: "rule N" or a parenthesised list of numbers ("(2.5.4, 2.7)").
_IN_TEXT = re.compile(r"(rule )([^:;()]+)|(\()([^()]*)(\))")
# A parenthesised citation: rule numbers, at least one of them with a paragraph ("(4.8.10)",
# "(2.5.4, 2.7)"), or one section number ("(3)"); not a train card ("(3-2)"), a range of player
# counts ("(3-6)") or a list of trains ("(5, 6)").
_PAREN_CITATION = re.compile(r"[\d.,/ \-]*\d\.\d[\d.,/ \-]*|\d+")


@cache
def citation_map(edition: str) -> dict[str, str]:
    """Second-edition number -> the edition's own (empty: cite as is)."""
    if edition not in EDITIONS:
        raise DataError(f"rule_citations.json: no edition {edition!r}")
    data = json.loads(FILE.read_text(encoding="utf-8"))
    table = data.get(edition, {})
    if not isinstance(table, dict):
        raise DataError(f"rule_citations.json: {edition} is not a table")
    return {str(k): str(v) for k, v in table.items()}


def cite(edition: str, rule: str) -> str:
    """``rule`` (one citation, e.g. "3.1.4" or "4.1.10 / 31.8") in the edition's numbering."""
    table = citation_map(edition)
    if not table or not rule:
        return rule
    parts = rule.split(" / ")
    if len(parts) > 1:
        own = [p for p in parts if not _SECOND.search(p)]
        if own:
            return own[0]
    cited = _SECOND.sub(lambda m: table.get(m.group(0), m.group(0)), rule)
    # Two 2009 rules may share one 1989 paragraph ("2.9.2, 3.2.1" -> "22.1"): named once.
    return ", ".join(dict.fromkeys(cited.split(", ")))


def cite_text(edition: str, text: str) -> str:
    """The citations in a sentence ("... (4.8.10)", "rule 3.1.2: ...") in the edition's
    numbering; other numbers (prices, "Operating Round 3.1") are left alone."""
    if not citation_map(edition) or not text:
        return text

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1) + cite(edition, m.group(2))
        inner = m.group(4)
        if not _PAREN_CITATION.fullmatch(inner):
            return m.group(0)
        return m.group(3) + cite(edition, inner) + m.group(5)

    return _IN_TEXT.sub(one, text)


def second_only() -> frozenset[str]:
    """The second-edition rule numbers cited by code that a first-edition game never reaches,
    so left out of the first edition's map (``second_only`` in the data file)."""
    data = json.loads(FILE.read_text(encoding="utf-8"))
    listed = data.get("second_only", [])
    if not isinstance(listed, list):
        raise DataError("rule_citations.json: second_only is not a list")
    return frozenset(str(n) for n in listed)
