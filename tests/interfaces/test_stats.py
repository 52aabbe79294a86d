"""`india1853 stats`: worth per round and share prices, charted from a replayed log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from finished_games import stored_game_file

from india1853.interfaces.charts import history
from india1853.interfaces.cli import main
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

PLAYERS = ("Ann", "Bob", "Cat")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    # The greedy bots' game of Ann, Bob and Cat, seed 3 (tests/games/greedy-3p-seed3.json).
    return stored_game_file(tmp_path_factory.mktemp("stats"), "greedy-3p-seed3")


def test_history_samples_every_round(finished: tuple[Path, Game]) -> None:
    _, game = finished
    h = history(game)
    assert h.rounds[0] == "start" and h.rounds[-1] == "Game over"
    stock_rounds = [r for r in h.rounds if r.startswith("SR")]
    assert len(stock_rounds) == game.state.stock_round
    assert len(h.rounds) == len(set(h.rounds))
    for name in PLAYERS:
        assert len(h.worth[name]) == len(h.rounds)
        assert h.worth[name][0] == game.rules.table.starting_cash
        assert h.worth[name][-1] == game.scores()[name]
    view = game.view(None)
    for initials, prices in h.prices.items():
        assert len(prices) == len(h.rounds)
        assert prices[-1] == view["companies"][initials]["price"]


def test_writes_a_png(finished: tuple[Path, Game], tmp_path: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "charts" / "stats.png"
    assert main(["stats", str(finished[0]), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_bad_output_name_is_one_line(finished: tuple[Path, Game], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(finished[0]), "--out", str(tmp_path / "stats.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected a file name ending in .png, .svg or .pdf" in err


def test_share_prices_are_drawn_in_the_companies_board_colours(
        finished: tuple[Path, Game], tmp_path: Path) -> None:
    from matplotlib.colors import to_hex

    path, game = finished
    out = tmp_path / "stats.svg"
    assert main(["stats", str(path), "--out", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    priced = [c for c, v in game.view(None)["companies"].items() if v["price"] is not None]
    assert priced
    for initials in priced:
        colour = to_hex(game.rules.ed.company(initials).colour)
        assert f"stroke: {colour}" in svg, initials


def test_an_unfinished_game_keeps_a_secret_bond_secret(tmp_path: Path) -> None:
    """While bonds are written (2.5.2) a player's cash would tell his bond: the chart leaves
    that point out instead of charting the secret (the public view hides it)."""
    game = Game(Settings(PLAYERS, seed=13))
    game.process(game.action("place_bond", "Ann", amount=130))
    assert game.view(None)["players"][0]["cash"] is None
    h = history(game)
    start = game.rules.table.starting_cash
    assert h.worth["Ann"] == [start, None]
    assert h.worth["Bob"] == [start, start]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_log()), encoding="utf-8")
    assert main(["stats", str(path), "--out", str(tmp_path / "stats.svg")]) == 0


def test_shares_claimed_in_the_bids_count_only_once_paid_for(tmp_path: Path) -> None:
    """During the bids a claimed share is not paid for yet (2.7.2): a player's worth is his
    cash (after the bond) until the payment at the end of the bids."""
    game = Game(Settings(PLAYERS, seed=13))
    for name in PLAYERS:
        game.process(game.action("place_bond", name, amount=100))
    entity, _ = game.active_entities()[0]
    claim = next(a for a in game.legal_actions(entity) if a["type"] == "claim_city")
    game.process({**claim, "id": game.next_id(), "created_at": 0})
    me = next(p for p in game.view(None)["players"] if p["name"] == entity)
    assert me["shares"] and game.state.round == "claims"
    assert history(game).worth[entity][-1] == me["cash"]
