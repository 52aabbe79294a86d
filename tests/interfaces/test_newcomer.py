"""A game a newcomer can follow (terminal): rule help, why options are missing, the contract
panel, the market moves, the board around the company's options and in the board file, the
director to be, and ``export-position`` for ``moves`` and ``routes``."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from india1853.interfaces.cli import main
from india1853.interfaces.game_render import game_board_svg
from india1853.interfaces.logfile import load_game
from india1853.interfaces.terminal import screen
from india1853.interfaces.terminal.board_text import local_board
from india1853.rules.game import Game, Settings
from india1853.rules.game.turn import turn_model

GAMES = Path(__file__).resolve().parents[1] / "games"
FULL = GAMES / "random-5p-seed2-shortened.json"


def _text(renderable: Any, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def _command(typed: str, argv: list[str], capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> str:
    """``india1853 ARGV`` with ``typed`` at its keyboard, in process (what is checked here is
    the game's screens, not the process: a new one costs a second or two of imports)."""
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(argv) == 0, capsys.readouterr().err
    return " ".join(capsys.readouterr().out.split())


def _play(tmp_path: Path, typed: str, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> str:
    return _command(typed, ["play", "--players", "Ann,Bob,Cat", "--bots", "Bob,Cat", "--seed",
                            "1", "--save", str(tmp_path / "g.json")], capsys, monkeypatch)


def _moments(path: Path = FULL) -> tuple[Settings, list[dict[str, Any]]]:
    data = json.loads(path.read_text())
    return Settings.from_json(data["settings"]), data["actions"]


class _Walk:
    """The moments of the stored game, each worked out once for the file's tests (a checked
    replay with a turn model at every action costs seconds): the game before each action (a
    fork: the tests only read it), the deciding player's model and the entity."""

    def __init__(self, path: Path) -> None:
        settings, self.actions = _moments(path)
        self.game = Game(settings)
        self.seen: list[tuple[Game, dict[str, Any], str]] = []

    def moment(self, i: int) -> tuple[Game, dict[str, Any], str]:
        while len(self.seen) <= i:
            if self.seen:
                self.game.process(self.actions[len(self.seen) - 1])
            entity, _ = self.game.active_entities()[0]
            model = turn_model(self.game, self.game.decider(entity))
            self.seen.append((self.game.fork(), model, entity))
        return self.seen[i]


@functools.cache
def _walk(path: Path) -> _Walk:
    return _Walk(path)


def _model_before(pred: Any, path: Path = FULL) -> tuple[Game, dict[str, Any], str]:
    """The game at the first moment ``pred(game, model, entity)`` holds, the deciding
    player's model and the entity."""
    walk = _walk(path)
    for i in range(len(walk.actions)):
        game, model, entity = walk.moment(i)
        if pred(game, model, entity):
            return game, model, entity
    raise AssertionError("no such moment")


def test_help_rule_explains_a_rule_in_the_game(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(tmp_path, "help 2.5.7\nhelp 4.8.16\nhelp 31.4\nhelp 99\nhelp\nquit\n", capsys,
                monkeypatch)
    # A first-edition number (as the construction errors cite them beside ours) is explained.
    assert "Rule 31.4 of the first edition: A new tile must extend a railhead" in out
    assert "Rule 2.5.7: A bid may hold at most two Ganges valley cities" in out
    # A rule without its own summary is explained by its section.
    assert "Rule 4.8.16 (see 4.8): Trains:" in out
    assert "No summary for rule '99'" in out
    assert "help RULE" in out  # plain help still lists the commands


def test_every_rule_the_turn_model_cites_is_explained() -> None:
    """Across a whole game, each decision's rule and each option's rule has a summary."""
    settings, actions = _moments()
    missing: set[str] = set()
    # The stored game, walked without checks (tests/game/test_fixtures.py replays it checked).
    for i, (game, _) in enumerate(Game.positions(settings, actions)):
        if i % 7 == 0:
            entity, _ = game.active_entities()[0]
            model = turn_model(game, game.decider(entity))
            for d in model["decisions"]:
                items = [d, *d["options"], *d["unavailable"]]
                missing |= {str(x["rule"]) for x in items if x["rule"] and not x["rule_summary"]}
    assert not missing


def test_a_missing_claim_or_pass_is_explained_in_one_line() -> None:
    """2.5.7: the Ganges valley cities a bid may no longer name leave the list, and the
    screen says why in one line; so does a pass the bid may not make yet (2.5.4)."""
    game, model, _ = _model_before(lambda g, m, e: g.state.round == "claims" and any(
        u["rule"] == "2.5.7" for d in m["decisions"] for u in d["unavailable"]))
    decision = model["decisions"][0]
    offered = {(o["action"]["city"], o["action"]["company"]) for o in decision["options"]
               if o["type"] == "claim_city"}
    ganges = next(u for u in decision["unavailable"] if u["rule"] == "2.5.7")
    for item in ganges["items"]:
        city, company = item.split(" ")
        assert (city, company) not in offered
        assert game.rules.city(city).ganges_valley
    lines = [line.plain for line in screen.disabled_lines(decision)]
    line = next(t for t in lines if "2.5.7" in t)
    assert line.startswith("Not possible now: ") and "\n" not in line and "Ganges" in line
    game, model, _ = _model_before(lambda g, m, e: g.state.round == "claims" and not any(
        o["type"] == "pass" for d in m["decisions"] for o in d["options"]))
    reasons = [u for d in model["decisions"] for u in d["unavailable"]]
    assert any(u["items"] == ["pass (ending the bid)"] for u in reasons)


def test_the_contract_panel_tells_which_cities_are_joined() -> None:
    """4.3.1: the viewer's cities fall into groups joined by track; a bid not yet fulfilled
    has two groups or more, and the panel names the joined ones."""
    def partly(g: Game, m: dict[str, Any], e: str) -> bool:
        return g.state.round == "operating" and any(
            not p.bond_returned and len(p.cities) > 2
            and len(turn_model(g, p.name)["tables"]["contract"]["groups"]) < len(p.cities)
            for p in g.state.players)

    game, _, _ = _model_before(partly)
    player = next(p for p in game.state.players if not p.bond_returned and len(p.cities) > 2
                  and len(turn_model(game, p.name)["tables"]["contract"]["groups"])
                  < len(p.cities))
    model = turn_model(game, player.name)
    contract = model["tables"]["contract"]
    groups = contract["groups"]
    assert sorted(c for g in groups for c in g) == sorted(player.cities)
    assert len(groups) >= 2  # else the bond would have come back (4.3.2)
    joined = next(g for g in groups if len(g) > 1)
    text = _text(screen.contract_panel(model))
    assert " = ".join(joined) in text and "Connected (4.3.1)" in text
    # Nobody else's model holds the groups.
    for other in game.settings.players:
        if other != player.name:
            mine = turn_model(game, other)["tables"]["contract"]
            assert mine is None or mine["player"] == other


def test_the_market_shows_where_a_dividend_or_withheld_run_moves_the_marker() -> None:
    game, model, entity = _model_before(
        lambda g, m, e: g.state.round == "operating" and g.state.turn.step == "dividend"
        and g.state.turn.revenue > 0 and g.state.companies[e].pool > 0)
    moves = model["tables"]["market"]["moves"][entity]
    options = {o["action"]["kind"]: o for o in model["decisions"][0]["options"]}
    assert moves["withhold_index"] == options["withhold"]["ui"]["market_index_after"]
    revenue = game.state.turn.revenue
    reached = [m for m in moves["payout"] if m["from"] <= revenue][-1]
    assert reached["market_index"] == options["payout"]["ui"]["market_index_after"]
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(screen.companies_table(model))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    row = next(line for line in lines if line.split(" ")[0] == entity)
    paid = " ".join(str(m["price"]) for m in moves["payout"])
    assert row.rstrip().endswith(f"{moves['withhold']} | {paid}")
    # The heading tells the dividend steps: any, then 2, 3, 4, 5 times the price (4.7.1).
    assert "next £: withheld | paid any,2×,3×,4×,5× price" in lines[0]
    price_now = game.rules.market[game.state.companies[entity].price_index or 0]
    assert [m["from"] for m in moves["payout"]][1:] == [k * price_now for k in (2, 3, 4, 5)]
    price = game.state.companies[entity].price_index
    assert price is not None
    spot = next(part for part in screen.market_line(model).plain.split(" · ")
                if entity in part)
    assert f"£{game.rules.market[price]} " in spot


def test_the_director_to_be_is_shown_in_the_first_stock_round() -> None:
    """2.9.1: in the first stock round directors are appointed at its end; the table shows
    who it would be now, and at the round's last action that is who is appointed."""
    settings, actions = _moments()
    game = Game(settings)
    shown: dict[str, str] = {}
    for action in actions:
        if game.state.round == "stock" and game.state.stock_round == 1:
            for c in turn_model(game, None)["tables"]["companies"]:
                if c["director_to_be"]:
                    shown[c["initials"]] = c["director_to_be"]
                    assert c["director"] is None
        elif shown:
            break
        game.process(action)
    assert shown
    table = _text(screen.companies_table(turn_model(game, None)), 200)
    for initials, who in shown.items():
        assert game.state.companies[initials].director == who
        assert who in table


def test_the_board_around_the_company_shows_its_options() -> None:
    game, model, entity = _model_before(
        lambda g, m, e: g.state.round == "operating" and g.state.turn.step == "track"
        and sum(o["type"] == "lay_tile" for d in m["decisions"] for o in d["options"]) > 3)
    board = local_board(model, game.rules.ed, entity)
    assert board is not None
    text = _text(board)
    assert "*" in text and "rotation r turns a tile r×60° clockwise" in text
    lay = next(o for o in model["decisions"][0]["options"] if o["type"] == "lay_tile")
    note = screen.option_note(lay)
    sides = note[note.index("[") + 1:note.index("]")].split(" ")
    assert sides == [["SW", "W", "NW", "NE", "E", "SE"][s] for s in lay["ui"]["exits"]]
    # Outside a track or base step there is no local board.
    game, model, entity = _model_before(lambda g, m, e: g.state.round == "stock")
    assert local_board(model, game.rules.ed, entity) is None


def test_the_board_file_follows_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The board is drawn beside the save file at the start, before each human decision after
    a change, and at the end, without the `board` command."""
    _play(tmp_path, "quit\n", capsys, monkeypatch)
    first = (tmp_path / "g.board.svg").read_text()
    assert first == game_board_svg(load_game(tmp_path / "g.json")[0])
    # A game well under way, resumed: at the human's first screen the board is drawn again.
    data = json.loads((GAMES / "random-3p-seed3.json").read_text())
    data["actions"] = data["actions"][:400]
    data["table"] = {"bots": {"Bob": "greedy", "Cat": "greedy"}}
    save = tmp_path / "resumed.json"
    save.write_text(json.dumps(data))
    _command("quit\n", ["play", "--load", str(save)], capsys, monkeypatch)
    game = load_game(save)[0]
    assert game.state.board.tiles
    assert (tmp_path / "resumed.board.svg").read_text() == game_board_svg(game) != first


def test_export_position_feeds_moves_and_routes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    settings, actions = _moments()
    game = Game(settings)
    to = None
    for action in actions:
        game.process(action)
        st = game.state
        if (st.round == "operating" and st.turn.step == "track"
                and game.state.companies[st.turn.order[st.turn.index]].cash > 0
                and any(t.where == "company" for t in st.trains)):
            to = action["id"]
            break
    assert to is not None
    company = game.state.turn.order[game.state.turn.index]
    out = tmp_path / "pos.json"
    assert main(["export-position", str(FULL), "--to", str(to), "-o", str(out)]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text())
    assert data["phase"] == game.state.phase and data["game"]["operating"] == company
    assert {c["company"] for c in data["companies"]} == {
        i for i, c in game.state.companies.items() if c.formed}
    assert main(["moves", str(out), "--company", company, "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    legal = {(a["hex"], a["tile"], a["rotation"]) for a in game.legal_actions(company)
             if a["type"] == "lay_tile"}
    exported = {(m["hex"], m["tile"], m["rotation"]) for m in moves["lays"]}
    assert legal <= exported
    runner = next(i for i, c in game.state.companies.items() if c.formed and any(
        t.owner == i for t in game.state.trains))
    assert main(["routes", str(out), "--company", runner]) == 0
    assert "revenue" in capsys.readouterr().out
    # Without -o the position goes to stdout; a bad --to is one clear error.
    assert main(["export-position", str(FULL), "--to", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["edition"] == "second"
    assert main(["export-position", str(FULL), "--to", "999999"]) == 2
    assert "--to 999999" in capsys.readouterr().err
