"""Save files and the command line around `play`: the `table` key, the blame for a bad seating,
overwriting a save, and the first edition in play and simulate."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from india1853.interfaces.bots import make_bot
from india1853.interfaces.cli import main
from india1853.interfaces.simulate import play_game
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

PLAYERS = ("Ann", "Bob", "Cat")


def _short_game() -> Game:
    bots = {p: make_bot("greedy", p, i) for i, p in enumerate(PLAYERS)}
    return play_game(Settings(PLAYERS, seed=2), bots, max_actions=12)


def _save(path: Path, table: object) -> Path:
    data = _short_game().to_log()
    data["table"] = table
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


@pytest.mark.parametrize("table", ["garbage", 5, {"bots": ["Bob"]}, {"bots": {"Bob": 3}}])
@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["log"]])
def test_commands_other_than_play_ignore_the_table(
        tmp_path: Path, table: object, command: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path / "game.json", table)
    assert main([command[0], str(path), *command[1:]]) == 0
    assert capsys.readouterr().err == ""


def test_stats_and_render_ignore_the_table(tmp_path: Path) -> None:
    path = _save(tmp_path / "game.json", "garbage")
    assert main(["stats", str(path), "--out", str(tmp_path / "s.svg")]) == 0
    assert main(["render", str(path), "--out", str(tmp_path / "b.svg")]) == 0


@pytest.mark.parametrize(("table", "message"), [
    ("garbage", "table.bots: must be an object mapping player names to bot names"),
    ({"bots": {"Quentin": "greedy"}}, "table.bots: 'Quentin' is not a player (Ann, Bob, Cat)"),
    ({"bots": {"Bob": "clever"}}, "table.bots.Bob: unknown bot 'clever' (known: random, "
                                  "greedy, strong)"),
])
def test_play_load_blames_the_files_table(tmp_path: Path, table: object, message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path / "game.json", table)
    assert main(["play", "--load", str(path)]) == 2
    err = _error(capsys)
    assert err == f"error: {str(path)!r}: {message}"
    assert "--bots" not in err


def test_play_load_with_bots_blames_bots(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path / "game.json", {"bots": {}})
    assert main(["play", "--load", str(path), "--bots", "Quentin"]) == 2
    assert _error(capsys) == "error: --bots: 'Quentin' is not a player (Ann, Bob, Cat)"


def test_play_load_refuses_to_overwrite_another_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As for a new game: an existing --save file is replaced only with --overwrite."""
    source = _save(tmp_path / "a.json", {"bots": {"Bob": "greedy", "Cat": "greedy"}})
    other = tmp_path / "b.json"
    other.write_text("precious", encoding="utf-8")
    assert main(["play", "--load", str(source), "--save", str(other)]) == 2
    assert _error(capsys) == (f"error: --save {str(other)!r}: the file exists (the game is "
                              f"loaded from {str(source)!r}); pass --overwrite to replace it")
    assert other.read_text(encoding="utf-8") == "precious"
    # The same file as --load, and a new file, need no --overwrite; with it, b.json is replaced.
    for args in (["--save", str(source)], ["--save", str(tmp_path / "new.json")],
                 ["--save", str(other), "--overwrite"]):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["play", "--load", str(source), *args]) == 0
    saved = json.loads(other.read_text(encoding="utf-8"))
    assert saved["actions"] == json.loads(source.read_text(encoding="utf-8"))["actions"]


def test_simulate_plays_the_first_edition_to_the_end(tmp_path: Path) -> None:
    out = tmp_path / "results.csv"
    assert main(["simulate", "--edition", "first", "--games", "1", "--bots",
                 "greedy,greedy,greedy,greedy", "--seed", "5", "--out", str(out)]) == 0
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and ",first," in rows[1] and "bank_broken" in rows[1]


def test_play_starts_a_first_edition_game_with_its_secret_bids(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--edition", "first", "--players", "Ann,Bob,Cat", "--bots", "Bob,Cat",
                 "--seed", "4", "--save", str(save)]) == 0
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["settings"]["edition"] == "first"
    assert all(a["type"] == "submit_bid" for a in saved["actions"])


def test_an_unknown_first_edition_variant_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--edition", "first", "--players", "Ann,Bob,Cat", "--variant", "nope",
                 "--save", str(tmp_path / "g.json")]) == 2
    assert "--variant: unknown variant 'nope' in the first edition" in _error(capsys)
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize(("args", "option"), [
    (["--seed", "3"], "--seed"),
    (["--variant", "shortened_game"], "--variant"),
    (["--edition", "second"], "--edition"),
])
def test_play_load_refuses_to_change_the_games_settings(
        tmp_path: Path, args: list[str], option: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The loaded file's settings are the game's: an option that would change them is an
    error naming it, never silently dropped, and the file is left as it was."""
    path = _save(tmp_path / "game.json", {"bots": {}})
    before = path.read_text(encoding="utf-8")
    assert main(["play", "--load", str(path), *args]) == 2
    assert _error(capsys) == (f"error: {option}: a loaded game keeps its own settings "
                              f"(drop {option})")
    assert path.read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "Ann,Bob"], "error: --players: 3 to 6 players needed, got 2"),
    (["--players", "Ann,Ann,Bob"], "error: --players: player names must differ"),
    (["--players", "Ann,Bob,Cat", "--variant", "nope"],
     "error: --variant: unknown variant 'nope' in the second edition"),
])
def test_a_bad_new_game_names_the_option(tmp_path: Path, args: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *args, "--save", str(tmp_path / "g.json")]) == 2
    assert _error(capsys) == message
    assert not (tmp_path / "g.json").exists()


def test_a_name_longer_than_the_limit_is_refused_by_play_and_load(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from india1853.rules.game.settings import MAX_NAME_LENGTH

    long = "N" * (MAX_NAME_LENGTH + 1)
    assert main(["play", "--players", f"Ann,{long},Cat", "--save", str(tmp_path / "g.json")]) == 2
    assert _error(capsys).startswith("error: --players: a name of 65 characters ('NNNNNNNNNNNN")
    assert not (tmp_path / "g.json").exists()
    log = tmp_path / "long.json"
    log.write_text(json.dumps({"engine_version": "1", "actions": [], "settings": {
        "edition": "second", "players": ["Ann", long, "Cat"], "seed": 3, "variants": []}}))
    assert main(["play", "--load", str(log)]) == 2
    assert f"a name has at most {MAX_NAME_LENGTH}" in _error(capsys)
