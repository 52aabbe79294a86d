"""`india1853 log`: the game in words, one entry per action, secrets kept until revealed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from finished_games import stored_game_file

from india1853.data.loader import load_edition
from india1853.interfaces.bots import ask, make_bot
from india1853.interfaces.cli import main
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

ENTRY = re.compile(r"^ {0,4}(\d+)  (.*)$")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    # A stored greedy game (replayed checked): playing one costs several CPU-seconds more.
    return stored_game_file(tmp_path_factory.mktemp("log"), "greedy-3p-seed3")


# What `log` printed for each command line, once per file: the command tells a game the same
# each time (a file is never changed once written here), and telling a whole game costs a
# replay and its narration (about 2 CPU-seconds) that a second reading would not check more.
_TOLD: dict[tuple[str, ...], str] = {}


def _entries(capsys: pytest.CaptureFixture[str], *args: str) -> dict[int, list[str]]:
    if args not in _TOLD:
        assert main(["log", *args]) == 0
        _TOLD[args] = capsys.readouterr().out
    out: dict[int, list[str]] = {}
    current = 0
    for line in _TOLD[args].splitlines():
        m = ENTRY.match(line)
        if m:
            current = int(m.group(1))
            assert current not in out
            out[current] = [m.group(2)]
        else:
            assert line.startswith("       "), line
            out[current].append(line.strip())
    return out


def _cash(path: Path, capsys: pytest.CaptureFixture[str], to: int, company: str) -> int:
    assert main(["replay", str(path), "--to", str(to), "--json"]) == 0
    cash = json.loads(capsys.readouterr().out)["companies"][company]["cash"]
    assert isinstance(cash, int)
    return cash


def _cash_around(game: Game, ids: set[int]) -> dict[int, tuple[int, int]]:
    """The acting company's cash just before and just after each action of ``ids``, as
    ``replay --to ID --json`` reports it (the public view's), from one walk through the game
    (replaying the file through each id cost two replays per lay)."""
    entity = {a["id"]: a["entity"] for a in game.log if a["id"] in ids}
    before: dict[int, int] = {}
    after: dict[int, int] = {}

    def cash(position: Game, action_id: int) -> int:
        value = position.view(None)["companies"][entity[action_id]]["cash"]
        assert isinstance(value, int)
        return value

    for position, action in Game.positions(game.settings, game.log):
        if action["id"] - 1 in ids:
            after[action["id"] - 1] = cash(position, action["id"] - 1)
        if action["id"] in ids:
            before[action["id"]] = cash(position, action["id"])
    for action_id in ids - set(after):
        after[action_id] = cash(game, action_id)
    return {i: (before[i], after[i]) for i in ids}


def test_one_entry_per_action_in_order(finished: tuple[Path, Game],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    entries = _entries(capsys, str(path))
    assert list(entries) == [a["id"] for a in game.log]
    assert any(line.startswith("Final scores") for line in entries[len(game.log)])


def test_tile_lays_say_where_and_what_they_cost(finished: tuple[Path, Game],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    entries = _entries(capsys, str(path))
    cities = {c.hex: c.name for c in load_edition("second").cities}
    lays = [a for a in game.log if a["type"] == "lay_tile"]
    assert lays
    named = 0
    cash = _cash_around(game, {a["id"] for a in lays[:25]})
    for a in lays[:25]:
        where = a["hex"] + (f" ({cities[a['hex']]})" if a["hex"] in cities else "")
        named += a["hex"] in cities
        paid = cash[a["id"]][0] - cash[a["id"]][1]
        expected = f"{a['entity']} lays tile {a['tile']} on {where}"
        assert entries[a["id"]][0] == expected + (f", pays £{paid}" if paid > 0 else "")
    assert named, "no lay on a named city among the first lays"


def test_secrets_stay_hidden_until_revealed(finished: tuple[Path, Game],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    public = _entries(capsys, str(path))
    moderator = _entries(capsys, str(path), "--moderator")
    for a in game.log:
        if a["type"] == "place_bond":
            assert public[a["id"]][0] == f"{a['entity']} places a secret bond"
            assert moderator[a["id"]][0] == f"{a['entity']} places a bond of £{a['amount']}"
        if a["type"] == "claim_city":
            assert a["city"] not in public[a["id"]][0]
            assert public[a["id"]][0].endswith(f"claims a share of {a['company']}")
            assert moderator[a["id"]][0] == (f"{a['entity']} names {a['city']} and claims a "
                                             f"share of {a['company']}")
    revealed = [line for lines in public.values() for line in lines
                if line.startswith("Bonds revealed")]
    assert len(revealed) == 1
    for a in game.log[:len(game.settings.players)]:
        assert f"{a['entity']} £{a['amount']}" in revealed[0]
    # A contract's cities are told when it is fulfilled (4.3), and only then.
    fulfilled = [line for lines in public.values() for line in lines if "is fulfilled" in line]
    for line in fulfilled:
        name = line.split("'")[0]
        cities = [a["city"] for a in game.log if a["type"] == "claim_city"
                  and a["entity"] == name]
        assert line.endswith("the cities were " + ", ".join(cities))


def test_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", str(tmp_path / "none.json")]) == 2
    assert capsys.readouterr().err.strip().endswith("no such file")


def test_undo_and_redo_are_told_as_taken_back_and_put_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Settings(("Ann", "Bob", "Cat")))
    game.process(game.action("place_bond", "Ann", amount=100))
    game.process(game.action("undo", "Ann"))
    game.process(game.action("redo", "Ann"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_log()), encoding="utf-8")
    entries = _entries(capsys, str(path))
    assert entries[2] == ["Ann's last action is taken back"]
    assert entries[3] == ["Ann's last action is put back (redo)"]


def test_a_pass_on_a_pending_question_says_what_is_declined(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players = ("Ann", "Bob", "Cat")
    game = Game(Settings(players, seed=5))
    bots = {p: make_bot("greedy", p, i) for i, p in enumerate(players)}
    # Greedy play from this seed declines both questions within the first operating round.
    while len(game.log) < 45:
        entity, kind = game.active_entities()[0]
        view = game.view(None)
        who = entity if kind == "player" else str(view["companies"][entity]["director"])
        action = ask(bots[who], game, entity)
        game.process({**action, "id": game.next_id(), "created_at": 0})
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_log()), encoding="utf-8")
    lines = [line for lines in _entries(capsys, str(path)).values() for line in lines]
    assert not [line for line in lines if line.endswith(" declines")]
    assert any(line.endswith("keeps the Elephant (no sale offered, 3.1.11)") for line in lines)
    assert any(line.endswith("does not call an extra operating round (4.9)") for line in lines)


def test_a_run_tells_the_mail_paid_to_the_company(finished: tuple[Path, Game],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    entries = _entries(capsys, str(path))
    runs = [a for a in game.log if a["type"] == "run_routes"
            and any(r.get("mail") for r in a["routes"])]
    assert runs
    for a in runs[:3]:
        mail = (_cash(path, capsys, a["id"], a["entity"])
                - _cash(path, capsys, a["id"] - 1, a["entity"]))
        assert mail > 0
        assert "with the mail" in entries[a["id"]][0]
        assert entries[a["id"]][0].endswith(f"; the mail pays {a['entity']} £{mail}")


def test_operating_rounds_are_numbered_by_their_stock_round(
        finished: tuple[Path, Game], capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = finished
    titles = [line.strip("— ") for lines in _entries(capsys, str(path)).values()
              for line in lines if line.startswith("— Operating round")]
    stock = 0
    seen = []
    for lines in _entries(capsys, str(path)).values():
        for line in lines:
            if line.startswith("— Stock round"):
                stock = int(line.strip("— ").split()[-1])
            elif line.startswith("— Operating round"):
                number = line.strip("— ").split()[-1]
                assert number.split(".")[0] == str(stock), line
                seen.append(number)
    assert titles and len(seen) == len(titles)
    assert any("." in n for n in seen)


@pytest.mark.parametrize(("change", "message"), [
    ("entity", r"^error: '[^']*bad\.json': actions\[5\] \(id 6, \w+ by Nobody\): "),
    ("version", r"^error: '[^']*bad\.json': log\.engine_version: '0' is not "),
])
def test_a_refused_action_or_file_is_named_in_one_line(
        finished: tuple[Path, Game], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        change: str, message: str) -> None:
    """The narration's replay is the check: an action it refuses (or a frame) is named as
    every command that loads a log names it, and nothing is told before the error."""
    data = json.loads(finished[0].read_text(encoding="utf-8"))
    if change == "entity":
        data["actions"][5]["entity"] = "Nobody"
    else:
        data["engine_version"] = "0"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["log", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and re.search(message, captured.err), captured.err
