"""Hostile input files and names (issue 13, items 1 and 3): every command that reads a file
answers deeply nested JSON and oversized files with one ``error:`` line, never a traceback
nor the input echoed back, and control characters never reach the terminal raw."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from india1853.data.jsonfile import MAX_DEPTH, MAX_FILE_BYTES
from india1853.errors import InputError
from india1853.interfaces.cli import main
from india1853.rules.game import Game, Settings

ROOT = Path(__file__).resolve().parents[2]
POSITION = str(ROOT / "tests" / "positions" / "second_early.json")


def _commands(bad: str, out: Path) -> list[list[str]]:
    return [
        ["replay", bad], ["replay", bad, "--json"], ["log", bad], ["play", "--load", bad],
        ["stats", bad, "--out", str(out / "stats")], ["render", bad, "--out", str(out / "m.svg")],
        ["moves", bad, "--company", "EIR"], ["routes", bad, "--company", "EIR"],
        ["routes", POSITION, "--company", "EIR", "--check", bad],
    ]


def _one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2, argv
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (argv, captured.err[:300])
    assert "Traceback" not in captured.err and captured.out == ""
    return lines[0]


def test_deeply_nested_json_is_one_error_line_in_every_reader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 2000 + "]" * 2000)
    for argv in _commands(str(deep), tmp_path):
        line = _one_error_line(capsys, argv)
        assert f"nested more than {MAX_DEPTH} levels deep" in line, line
        assert "[[" not in line


def test_nesting_just_under_the_interpreter_limit_is_refused_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Parsed by json, then refused before any reader walks it recursively.
    deep = tmp_path / "deep.json"
    deep.write_text('{"settings": ' + "[" * 500 + "]" * 500 + "}")
    line = _one_error_line(capsys, ["replay", str(deep)])
    assert "nested more than" in line


def test_nested_arguments_are_one_error_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = "[" * 2000 + "]" * 2000
    for argv in (["moves", POSITION, "--company", "EIR", "--lays-done", deep],
                 ["moves", POSITION, "--company", "EIR", "--check", deep]):
        line = _one_error_line(capsys, argv)
        assert "nested more than" in line and "[[" not in line


def test_an_oversized_file_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    for argv in _commands(str(big), tmp_path):
        line = _one_error_line(capsys, argv)
        assert f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB" in line
        assert len(line) < 200


def test_a_huge_value_in_a_file_is_not_echoed_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "pos.json"
    bad.write_text(json.dumps({"edition": "second", "phase": ["x" * 100_000]}))
    line = _one_error_line(capsys, ["routes", str(bad), "--company", "EIR"])
    assert line.startswith("error: phase:") and len(line) < 700


@pytest.mark.parametrize("name", ["Ann\x1b[2J", "Ann\x1b]0;pwned\x07", "A\u202en", "A\tB"])
def test_control_characters_in_names_are_refused_by_the_settings(name: str) -> None:
    with pytest.raises(InputError, match=r"settings\.players: .* holds a control character"):
        Settings((name, "Bob", "Cat"))


def test_names_with_accents_and_spaces_are_fine() -> None:
    assert Game(Settings(("Éva Ős", "Ravi Kumar", "李"))).state.players[0].name == "Éva Ős"


# The first actions of a stored game: the bonds, the contract bids, the first stock round and
# operating rounds (tiles, runs, dividends, trains), each naming Ann somewhere. Reading a file
# costs a replay of it; the whole game's 1,097 actions cost the test 15 CPU-seconds more and
# checked nothing about names that these do not.
OLD_ACTIONS = 250


def _old_file(tmp_path: Path) -> tuple[Path, Path]:
    """A game's log as a file written before names were checked: Ann's name holds a
    screen-clearing escape and a title-setting sequence, in the settings, the actions and the
    table's seats. With it the same game with Ann's clean name (the file the reports of the old
    one are compared with)."""
    bad = "Ann\x1b[2J\x1b]0;title\x07"
    stored = json.loads((ROOT / "tests" / "games" / "greedy-3p-seed3.json").read_text())
    log = {"engine_version": stored["engine_version"], "settings": stored["settings"],
           "actions": stored["actions"][:OLD_ACTIONS]}
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(log))
    text = json.dumps({**log, "table": {"bots": {"Ann": "greedy"}}})
    path = tmp_path / "old.json"
    path.write_text(text.replace('"Ann"', json.dumps(bad)))
    assert "\\u001b" in path.read_text() and '"Ann"' not in path.read_text()
    return path, clean


def _words(text: str) -> list[str]:
    """The words of a report, without the rules under headings (as wide as the table)."""
    return [w for w in text.split() if set(w) != {"─"}]


def test_an_old_file_with_an_escape_in_a_name_replays_with_the_name_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path, clean_file = _old_file(tmp_path)
    shown = "Ann\\x1b[2J\\x1b]0;title\\x07"  # the escapes as printable characters
    original = str(clean_file)
    for argv in (["replay", str(path)], ["log", str(path)],
                 ["stats", str(path), "--out", str(tmp_path / "stats.svg")]):
        assert main(argv) == 0, argv
        old = capsys.readouterr()
        assert "\x1b" not in old.out + old.err and "\x07" not in old.out + old.err
        # The same report as the clean game's, with the escaped name where Ann's was (the
        # columns of tables are wider: compared word by word).
        assert main([argv[0], original, *argv[2:]]) == 0
        clean = capsys.readouterr().out.replace("Ann", shown)
        assert _words(old.out) == _words(clean), argv
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--load", str(path)]) == 0
    out = capsys.readouterr().out
    assert shown in out and "\x1b" not in out
    # Continued, the game is saved with the escaped name (the file upgraded).
    saved = json.loads(path.read_text())
    assert saved["settings"]["players"][0] == shown
    assert saved["table"]["bots"] == {shown: "greedy"}


def test_an_old_name_whose_escape_is_taken_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = Game(Settings(("Ann\\x1b", "Bob", "Cat"))).to_log()
    log["settings"]["players"][1] = "Ann\x1b"
    path = tmp_path / "old.json"
    path.write_text(json.dumps(log))
    line = _one_error_line(capsys, ["replay", str(path)])
    assert "settings.players: player names must differ" in line and "\x1b" not in line


def test_players_option_with_an_escape_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_error_line(capsys, ["play", "--players", "Ann\x1b[2J,Bob,Cat",
                                    "--save", str(tmp_path / "s.json")])
    assert "\x1b" not in line and "control character" in line


def test_routes_and_moves_given_a_game_log_say_it_is_a_game_log(
        capsys: pytest.CaptureFixture[str]) -> None:
    log = str(ROOT / "tests" / "games" / "greedy-3p-seed3.json")
    for command in ("routes", "moves"):
        line = _one_error_line(capsys, [command, log, "--company", "EIR"])
        assert f"position file {log!r}: this is a game log" in line
        assert "not a position file" in line
