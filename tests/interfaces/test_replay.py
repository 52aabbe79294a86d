"""`india1853 replay`: the state of a game log at any action, as tables or JSON; one-line
errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finished_games import stored_game_file

from india1853.interfaces.cli import main
from india1853.interfaces.commands.replay import JSON_KEYS
from india1853.rules.game.game import Game

PLAYERS = ("Ann", "Bob", "Cat")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    # The greedy bots' game of Ann, Bob and Cat, seed 3 (tests/games/greedy-3p-seed3.json).
    return stored_game_file(tmp_path_factory.mktemp("replay"), "greedy-3p-seed3")


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["replay", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_json_of_a_finished_game(finished: tuple[Path, Game],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    data = _json(capsys, str(path))
    assert tuple(data) == JSON_KEYS
    assert data["finished"] is True and data["round"] == "finished"
    assert data["scores"] == game.scores()
    assert data["actions"] == len(game.log)
    view = game.view(None)
    assert [(p["name"], p["cash"], p["shares"]) for p in data["players"]] == [  # type: ignore[union-attr, index]
        (p["name"], p["cash"], p["shares"]) for p in view["players"]]
    companies = data["companies"]
    assert isinstance(companies, dict)
    for initials, c in view["companies"].items():
        assert companies[initials]["cash"] == c["cash"]
        assert companies[initials]["share_price"] == c["price"]
        assert len(companies[initials]["trains"]) == len(c["trains"])
    bases = sum(len(c["bases"]) for c in companies.values())
    assert bases == len(view["board"]["bases"])
    assert data["board"]["tiles"] == {  # type: ignore[index]
        h: {"tile": t, "rotation": r} for h, (t, r) in sorted(view["board"]["tiles"].items())}


def test_to_stops_at_an_action_and_hides_unrevealed_secrets(
        finished: tuple[Path, Game], capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    data = _json(capsys, str(path), "--to", "2")
    assert data["actions"] == 2 and data["round"] == "bonds"
    assert data["scores"] is None and data["finished"] is False
    assert all(p["bond"] is None for p in data["players"])  # type: ignore[index, union-attr]
    moderator = _json(capsys, str(path), "--to", "2", "--moderator")
    bonds = [p["bond"] for p in moderator["players"]]  # type: ignore[index, union-attr]
    assert bonds[:2] == [game.log[0]["amount"], game.log[1]["amount"]]
    claims = _json(capsys, str(path), "--to", "4")
    assert claims["round"] == "claims"
    assert all(isinstance(p["bond"], int) for p in claims["players"])  # type: ignore[index, union-attr]


def test_text_output(finished: tuple[Path, Game], capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for word in ("Players", "Companies", "Board", "Final scores", f"{len(game.log)} actions"):
        assert word in out
    # Into a pipe (as here) no cell is cut short: every revealed city is there in full.
    assert "…" not in out
    for p in game.view(None)["players"]:
        assert p["cities"] is None or ", ".join(p["cities"]) in out


@pytest.mark.parametrize(("content", "args", "message"), [
    (None, [], r"no such file"),
    ("{not json", [], r"not JSON \(line 1"),
    ("[1, 2]", [], r"must hold a JSON object"),
    ('{"engine_version": "0", "actions": []}', [], r"log\.engine_version"),
    ("GAME", ["--to", "0"], r"--to 0: no action with that id \(the log has 1\.\.\d+\)"),
    ("GAME", ["--to", "99999"], r"--to 99999: no action with that id"),
    ("CORRUPT", [], r"^error: '[^']*bad\.json': actions\[5\] \(id 6, \w+ by Nobody\): "),
    ("BAD_ID", ["--to", "20"], r"actions\[8\] \(id x, \w+ by \w+\): .*\.id: must be"),
])
def test_errors_are_one_line(tmp_path: Path, finished: tuple[Path, Game],
                             capsys: pytest.CaptureFixture[str], content: str | None,
                             args: list[str], message: str) -> None:
    path = tmp_path / "bad.json"
    if content == "GAME":
        path.write_text(finished[0].read_text(encoding="utf-8"), encoding="utf-8")
    elif content == "CORRUPT":
        data = json.loads(finished[0].read_text(encoding="utf-8"))
        data["actions"][5]["entity"] = "Nobody"
        path.write_text(json.dumps(data), encoding="utf-8")
    elif content == "BAD_ID":
        data = json.loads(finished[0].read_text(encoding="utf-8"))
        data["actions"][8]["id"] = "x"
        path.write_text(json.dumps(data), encoding="utf-8")
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    import re

    assert re.search(message, err), err


def test_to_reads_no_further_than_its_action(tmp_path: Path, finished: tuple[Path, Game],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed action after ``--to`` is not read (and never a traceback)."""
    data = json.loads(finished[0].read_text(encoding="utf-8"))
    data["actions"][30]["id"] = "x"
    path = tmp_path / "late.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _json(capsys, str(path), "--to", "5")["actions"] == 5


def test_moderator_tables_show_the_cash_a_bond_left(finished: tuple[Path, Game],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """In the bonds stage the public table hides the cash of a player who has written his bond
    (it would betray the bond, 2.5.2); the moderator's shows it, as his JSON does."""
    path, game = finished
    first = game.log[0]
    cash = game.rules.table.starting_cash - first["amount"]
    assert main(["replay", str(path), "--to", "1"]) == 0
    public = capsys.readouterr().out
    assert f"£{cash}" not in public and "?" in public
    assert main(["replay", str(path), "--to", "1", "--moderator"]) == 0
    moderator = capsys.readouterr().out
    assert f"£{cash}" in moderator and f"£{first['amount']}" in moderator


FIRST_CREDIT = Path(__file__).parents[1] / "games" / "first" / \
    "random-4p-seed1-alt-bbci-train-sales.json"


def test_json_names_the_train_bought_on_credit(capsys: pytest.CaptureFixture[str]) -> None:
    """4.8.10 / 35.9, first edition: action 208 buys EIR a '2' on credit, action 233 repays it;
    the JSON says so, as the text replay's "(credit)" does."""
    before = _json(capsys, str(FIRST_CREDIT), "--to", "207")["companies"]
    bought = _json(capsys, str(FIRST_CREDIT), "--to", "208")["companies"]
    repaid = _json(capsys, str(FIRST_CREDIT), "--to", "233")["companies"]
    assert isinstance(before, dict) and isinstance(bought, dict) and isinstance(repaid, dict)
    assert bought["EIR"]["credit_train"] == "2" and "2" in bought["EIR"]["trains"]
    assert before["EIR"]["credit_train"] is None and repaid["EIR"]["credit_train"] is None
    assert all(c["credit_train"] is None for i, c in bought.items() if i != "EIR")
    assert main(["replay", str(FIRST_CREDIT), "--to", "208"]) == 0
    assert "2 (credit)" in capsys.readouterr().out
