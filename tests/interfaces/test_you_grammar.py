"""A player named "You" (``make play`` seats one): the narration, the turn model's headlines
and the terminal's lines read "You pass", "You are offered", "Your contract" — never
"You passes" nor "You's" (issue 13)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from india1853.interfaces.cli import main
from india1853.rules.game import Game, Settings
from india1853.rules.game.turn import turn_model

GAMES = Path(__file__).resolve().parents[1] / "games"
# Third-person forms that must not follow "You" (any verb ending in s, and the possessive).
WRONG = re.compile(r"\bYou(?:'s| (?:is|has|does|[a-z]+[^s ]s)\b)")


def _renamed(name: str, old: str, tmp_path: Path) -> Path:
    """The fixture game ``name`` with the player ``old`` renamed "You" everywhere."""
    data = json.loads((GAMES / name).read_text())
    path = tmp_path / "you.json"
    path.write_text(json.dumps(data).replace(f'"{old}"', '"You"'))
    return path


def test_the_game_log_narrates_you_in_the_second_person(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _renamed("greedy-3p-seed3.json", "Ann", tmp_path)
    assert main(["log", str(path), "--moderator"]) == 0
    out = capsys.readouterr().out
    assert WRONG.search(out) is None, WRONG.search(out)
    for sentence in ("You pass", "You buy a share of", "You place a bond of",
                     "You hold the Elephant", "You keep the Elephant",
                     "You do not call an extra operating round",
                     "You name ", " and claim a share of", "Your contract"):
        assert sentence in out, sentence
    # The other players keep the third person.
    assert "Bob passes" in out and "Bob buys a share of" in out


def test_replay_names_you_in_the_second_person(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _renamed("random-5p-seed2-shortened.json", "Eve", tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "You" in out and WRONG.search(out) is None, WRONG.search(out)


def _first(game: Game, actions: list[dict[str, Any]], pred: Any) -> Game:
    for action in actions:
        if pred(game):
            return game
        game.process(action)
    raise AssertionError("no such moment in the log")


def test_the_turn_models_headlines_agree_with_you(tmp_path: Path) -> None:
    data = json.loads(_renamed("random-5p-seed2-shortened.json", "Eve", tmp_path).read_text())
    settings = Settings.from_json(data["settings"])
    # The others' bonds first: You the last to write one down.
    bonds = [a for a in data["actions"] if a["type"] == "place_bond" and a["entity"] != "You"]
    last_bond = Game(settings, [{**a, "id": i} for i, a in enumerate(bonds, 1)])
    assert [e for e, _ in last_bond.active_entities()] == ["You"]
    assert turn_model(last_bond, "You")["headline"] == (
        "You write down a bond, secretly (2.5.2)")
    offered = _first(Game(settings), data["actions"], lambda g: (
        bool(g.state.pending) and g.state.pending[0].kind == "elephant_offer"))
    model = turn_model(offered, "You")
    assert model["headline"] == "You are offered the Elephant (3.1.11)"
    assert model["active"][0]["what"] == "You are offered the Elephant"


def test_the_terminal_game_says_you_in_the_second_person(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``make play``: You against two bots; You pass at once and quit."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3 + "quit\n"))
    assert main(["play", "--players", "You,Greedy1,Greedy2", "--bots", "Greedy1,Greedy2",
                 "--seed", "3", "--save", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    assert "You" in out and WRONG.search(out) is None, WRONG.search(out)
