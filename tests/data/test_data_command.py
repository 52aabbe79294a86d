"""``india1853 data``: the summary, the JSON document and its keys (issue 2, items 6 and 8)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from india1853.interfaces.cli import main

DOCUMENTED_KEYS = [
    "board", "cities", "tiles", "manifest", "promotions", "companies", "trains", "phases",
    "market", "costs", "tables",
]  # fmt: skip


@pytest.mark.parametrize("edition", ["first", "second"])
def test_json_document_has_exactly_the_documented_keys(
    edition: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["data", "--edition", edition, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == DOCUMENTED_KEYS
    assert len(doc["cities"]) == (24 if edition == "first" else 23)
    assert doc["trains"]["total_with_extras"] == (27 if edition == "first" else 37)
    assert sum(1 for h in doc["board"]["hexes"] if h["playable"]) == (
        174 if edition == "first" else 158
    )
    assert doc["promotions"]["Calcutta"] == (["104"] if edition == "first" else ["500"])
    assert doc["tables"]["players"]["4"]["starting_capital"] == 570
    assert doc["tables"]["rules"]["first_stock_round_sale_discount"] == 5
    assert len(doc["market"]["values"]) == 35


def test_default_edition_is_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "--json"]) == 0
    assert "Waltair" in json.loads(capsys.readouterr().out)["tiles"]


def test_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "--edition", "first"]) == 0
    out = capsys.readouterr().out
    assert "first edition" in out
    # The breakdown adds up to the playable count; the pale grey E1, G1 and I1 are plain hexes
    # of the first edition (docs/rulings.md, the board's edges).
    assert ("Board: 174 playable hexes (city 20, double_town 6, large_city 4, plain 89, "
            "town 55)\n") in out
    assert "yellow 112, green 56, brown 16, grey 7" in out
    assert "BAR" in out and "ECR" not in out


def test_unknown_edition_is_one_line_and_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["data", "--edition", "third"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "third" in err and "Traceback" not in err


def test_unknown_edition_from_the_installed_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "india1853.interfaces.cli", "data", "--edition", "third"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "third" in proc.stderr


def test_a_reader_that_stops_early_is_no_error() -> None:
    # `india1853 data --json | head -1`: the document is far larger than a pipe's buffer, so
    # the command writes into a closed pipe; that ends it quietly, with no traceback.
    proc = subprocess.Popen([sys.executable, "-m", "india1853.interfaces.cli", "data",
                             "--edition", "first", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert first.startswith(b"{")
    assert err == ""


@pytest.mark.parametrize("argv", [["data", "--edition", "first", "--json"], ["data"]])
def test_a_failed_write_to_stdout_is_one_line_and_non_zero(argv: list[str]) -> None:
    # `india1853 data --json > /dev/full`: the output cannot be written (no space left).
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "india1853.interfaces.cli", *argv],
                              stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert proc.returncode != 0
    assert proc.stderr == "error: cannot write the output: No space left on device\n"
