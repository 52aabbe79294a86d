"""`india1853 render GAME.json`: a game's board at any action, with a company's optimal run."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from finished_games import stored_game_file

from india1853.interfaces.cli import main
from india1853.interfaces.game_render import optimal_run
from india1853.interfaces.logfile import load_game
from india1853.interfaces.render.svg import ROUTE_COLOURS
from india1853.rules.game.game import Game

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    # The greedy bots' game of Ann, Bob and Cat, seed 3 (tests/games/greedy-3p-seed3.json).
    return stored_game_file(tmp_path_factory.mktemp("render"), "greedy-3p-seed3")


def _svg(path: Path) -> ET.Element:
    return ET.fromstring(path.read_bytes())


def _route_lines(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}path") if el.get("stroke") in ROUTE_COLOURS]


def test_the_board_changes_with_to(finished: tuple[Path, Game], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    first_lay = next(a for a in game.log if a["type"] == "lay_tile")
    before, after = tmp_path / "before.svg", tmp_path / "after.svg"
    assert main(["render", str(path), "--out", str(before), "--to",
                 str(first_lay["id"] - 1)]) == 0
    assert main(["render", str(path), "--out", str(after), "--to", str(first_lay["id"])]) == 0
    assert capsys.readouterr().out.split() == [str(before), str(after)]
    assert _svg(before) is not None and before.read_text() != after.read_text()
    # The laid tile's number is drawn on the board only after the lay.
    def numbers(p: Path) -> list[str]:
        return [el.text or "" for el in _svg(p).iter(f"{SVG}text")]
    assert numbers(after).count(first_lay["tile"]) > numbers(before).count(first_lay["tile"])


def test_routes_are_highlighted_one_colour_per_train(
        finished: tuple[Path, Game], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path, game = finished
    company = max(game.state.companies, key=lambda c: len(game.state.company_trains(c)))
    run = optimal_run(game, company)
    assert run.routes and run.total > 0
    out = tmp_path / "routes.svg"
    assert main(["render", str(path), "--out", str(out), "--routes", company.lower()]) == 0
    text = capsys.readouterr().out
    assert f"{company}: optimal run £{run.total}" in text
    lines = _route_lines(_svg(out))
    assert len(lines) == len(run.routes)
    assert len({el.get("stroke") for el in lines}) == len(run.routes)
    # Each line follows its track: a curve (Q) wherever a route crosses a tile side to side.
    crossings = sum(1 for r in run.routes for a, b in zip(r.nodes, r.nodes[1:], strict=False)
                    if a[0] == b[0] == "E")
    assert sum(el.get("d", "").count("Q") for el in lines) == crossings
    plain = tmp_path / "plain.svg"
    assert main(["render", str(path), "--out", str(plain)]) == 0
    assert _route_lines(_svg(plain)) == []


def test_png_of_a_game(finished: tuple[Path, Game], tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert main(["render", str(finished[0]), "--out", str(out), "--to", "40"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    game, _ = load_game(finished[0], 40)
    assert len(game.log) == 40


@pytest.mark.parametrize(("args", "message"), [
    (["--routes", "XYZ"], "--routes: unknown company 'XYZ'"),
    (["--to", "0"], "--to 0: no action with that id"),
    (["--tile", "K17:14:1"], "--tile/--base: draw a game's own board"),
    (["--edition", "first"], "--edition first: "),
])
def test_errors_are_one_line(finished: tuple[Path, Game], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str], args: list[str],
                             message: str) -> None:
    assert main(["render", str(finished[0]), "--out", str(tmp_path / "b.svg"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "b.svg").exists()


def test_the_edition_of_the_game_may_be_named(finished: tuple[Path, Game], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.svg"
    assert main(["render", str(finished[0]), "--out", str(out), "--edition", "second"]) == 0
    assert out.exists()
    assert "is a game of the second edition" not in capsys.readouterr().err


def test_routes_without_a_game_is_an_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "--out", str(tmp_path / "b.svg"), "--routes", "EIR"]) == 2
    assert "need a game log" in capsys.readouterr().err
