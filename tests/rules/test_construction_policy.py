"""The construction policy comes from the edition data (4.1.14 / 31.11 frontier bonus)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from india1853.data.loader import DATA_DIR, load_edition, load_edition_from
from india1853.errors import DataError
from india1853.rules.construction import ConstructionPolicy


@pytest.mark.parametrize(("edition", "rule"), [("second", "first_company"),
                                              ("first", "each_company")])
def test_the_frontier_bonus_rule_is_read_from_the_edition_data(edition: str, rule: str) -> None:
    ed = load_edition(edition)
    assert ed.rules.frontier_bonus == rule
    assert ConstructionPolicy.of(ed).frontier == rule


def test_a_frontier_bonus_rule_the_loader_does_not_know_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DATA_DIR, root, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    path = root / "second" / "rules.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["rules"]["frontier_bonus"] = "everyone"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=r"^second/rules\.json:.*rules\.frontier_bonus"):
        load_edition_from(root, "second")
    # Each edition's file must say it: a missing value is refused as well.
    del doc["rules"]["frontier_bonus"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(DataError, match=r"frontier_bonus"):
        load_edition_from(root, "second")
