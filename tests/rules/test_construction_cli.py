"""The ``moves`` command: listing and checking a company's construction moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from india1853.interfaces.cli import main

EARLY = str(Path(__file__).parent.parent / "positions" / "second_early.json")


def test_lists_lays_promotions_and_bases(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "EIR"]) == 0
    out = capsys.readouterr().out
    assert "Lays (5):" in out and "lay tile 7 on I25 at rotation 5  £0" in out


def test_json_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "EIR", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["company"] == "EIR" and doc["promotions"] == [] and doc["bases"] == []
    assert {"type": "lay", "hex": "I25", "tile": "9", "rotation": 2, "cost": 0,
            "duty": None} in doc["lays"]


def test_check_says_legal_or_the_rule_broken(capsys: pytest.CaptureFixture[str]) -> None:
    legal = '{"lay": {"hex": "I25", "tile": "9", "rotation": 2}}'
    assert main(["moves", EARLY, "--company", "EIR", "--check", legal]) == 0
    assert capsys.readouterr().out.startswith("legal: lay tile 9 on I25")
    illegal = '{"lay": {"hex": "I25", "tile": "7", "rotation": 1}}'
    assert main(["moves", EARLY, "--company", "EIR", "--check", illegal]) == 1
    assert "rule 4.1.6 / 31.4" in capsys.readouterr().out


def test_check_a_base_by_side_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    move = '{"base": {"hex": "J28", "station": "E"}}'
    assert main(["moves", EARLY, "--company", "BNR", "--check", move, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is False and doc["rule"] == "4.4.5 / 32.4"


def test_check_a_second_lay(capsys: pytest.CaptureFixture[str]) -> None:
    first = '[{"hex": "I25", "tile": "9", "rotation": 2}]'
    second = '{"lay": {"hex": "I23", "tile": "4", "rotation": 0}}'
    code = main(["moves", EARLY, "--company", "EIR", "--lays-done", first, "--check", second])
    assert code == 1
    assert "4.1.6" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "{"], "--check: not JSON"),
        (["--check", '{"fly": {}}'], "unknown move 'fly'"),
        (["--check", '{"lay": {"hex": "I25"}}'], "--check.lay.tile: missing"),
        (["--lays-done", "{}"], "--lays-done: expected a JSON list"),
    ],
)
def test_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", EARLY, "--company", "EIR", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_unknown_company(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", EARLY, "--company", "XYZ"]) == 2
    assert "unknown company" in capsys.readouterr().err


def _two_bases(tmp_path: Path) -> str:
    """EIR at Calcutta NW and at Patna (tile 5), nothing laid between them; it pays for two
    lays (4.1.3 option 2, £50 a time)."""
    doc = {"edition": "second", "phase": 2,
           "tiles": [{"hex": "H24", "tile": "5", "rotation": 3}],
           "bases": [{"company": "EIR", "hex": "J28", "station": "NW"},
                     {"company": "EIR", "hex": "H24"}],
           "companies": [{"company": "EIR", "cash": 600, "double_lay": "paid"}]}
    path = tmp_path / "two_bases.json"
    path.write_text(json.dumps(doc))
    return str(path)


FIRST_LAY = '[{"hex": "H26", "tile": "7", "rotation": 3}]'  # from Patna, river: £40


def test_lays_done_not_yet_on_the_board_are_laid_and_paid_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = _two_bases(tmp_path)
    # From the Calcutta base, on a line apart from the first lay's (4.1.7): legal, fee £50.
    second = '{"lay": {"hex": "I27", "tile": "4", "rotation": 5}}'
    assert main(["moves", pos, "--company", "EIR", "--lays-done", FIRST_LAY,
                 "--check", second]) == 0
    assert capsys.readouterr().out.startswith("legal: lay tile 4 on I27 at rotation 5, cost £50")
    # From Patna again, like the first lay: illegal (4.1.7 / 31.5).
    again = '{"lay": {"hex": "I25", "tile": "7", "rotation": 5}}'
    assert main(["moves", pos, "--company", "EIR", "--lays-done", FIRST_LAY,
                 "--check", again]) == 1
    assert "rule 4.1.7 / 31.5" in capsys.readouterr().out
    # The listing: the first lay is on the board and paid for (£600 - £40).
    assert main(["moves", pos, "--company", "EIR", "--lays-done", FIRST_LAY, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cash"] == 560
    assert {(row["hex"], row["cost"]) for row in doc["lays"]} == {("I27", 50)}
    # Without --lays-done the same lay is a first lay, free.
    assert main(["moves", pos, "--company", "EIR", "--check", second]) == 0
    assert "cost £0" in capsys.readouterr().out


def test_lays_done_already_on_the_board_are_taken_as_made(
    capsys: pytest.CaptureFixture[str]
) -> None:
    made = '[{"hex": "I27", "tile": "4", "rotation": 5}]'  # on second_early's board
    assert main(["moves", EARLY, "--company", "EIR", "--lays-done", made, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # Nothing more is paid; a second lay from Patna carries EIR's fee (4.1.3).
    assert doc["cash"] == 600 and doc["lays"]
    assert all(row["hex"] == "I25" and row["cost"] == 50 for row in doc["lays"])


@pytest.mark.parametrize(
    ("lays", "message"),
    [
        ('[{"hex": "I25", "tile": "7", "rotation": 1}]',
         "--lays-done[0]: not a legal lay: rule 4.1.6 / 31.4"),
        ('[{"hex": "H24", "tile": "5", "rotation": 2}]',
         "--lays-done[0]: H24 holds tile 5 at rotation 3, not this lay"),
        ('[{"hex": "I25", "tile": "9", "rotation": 6}]', "--lays-done[0].rotation: must be 0..5"),
    ],
)
def test_a_bad_lay_done_is_named(
    lays: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", EARLY, "--company", "EIR", "--lays-done", lays]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_base_hex_in_the_rulebooks_notation(capsys: pytest.CaptureFixture[str]) -> None:
    move = '{"base": {"hex": "Jab", "station": "E"}}'
    assert main(["moves", EARLY, "--company", "BNR", "--check", move, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["rule"] == "4.4.5 / 32.4"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ('{"base": {"hex": "J28", "station": "XX"}}', "--check.base.station: bad side 'XX'"),
        ('{"base": {"hex": "K19", "station": "NW"}}', "--check.base.station: hex K19: no tile"),
        ('{"base": {"hex": "Z99", "station": "NW"}}', "--check.base.hex: bad coordinate"),
        ('{"lay": {"hex": "I25", "tile": "9", "rotation": 9}}',
         "--check.lay.rotation: must be 0..5, got 9"),
        ('{"promote": {"hex": "H24", "tile": "12", "rotation": true}}',
         "--check.promote.rotation: must be 0..5"),
        ('{"lay": {"hex": "I25", "tile": "999", "rotation": 1}}', "--check.lay.tile: '999'"),
        ('{"lay": {"hex": 25, "tile": "9", "rotation": 1}}', "--check.lay.hex: expected a hex"),
    ],
)
def test_every_bad_move_field_is_named(
    move: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["moves", EARLY, "--company", "BNR", "--check", move]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_single_station_is_not_named_by_a_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads(Path(EARLY).read_text())
    doc["bases"] = [b for b in doc["bases"] if b["hex"] != "H24"]  # Patna's slot is free
    path = tmp_path / "patna_free.json"
    path.write_text(json.dumps(doc))
    assert main(["moves", str(path), "--company", "EIR"]) == 0
    out = capsys.readouterr().out
    assert "  base on H24 st1  £40" in out and "station)" not in out
