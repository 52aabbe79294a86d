"""The enumerations agree with the one-by-one checks, on early and crowded late positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from india1853.board.tiles import picture
from india1853.errors import RuleError
from india1853.rules.construction import (
    Lay,
    Network,
    Promotion,
    check_lay,
    check_move,
    check_promotion,
    legal_lays,
    legal_moves,
    legal_promotions,
)
from india1853.rules.position import context_from_position, load_position

POSITIONS = Path(__file__).parent.parent / "positions"
FILES = ["second_early.json", "late_game_first.json", "late_game_second.json"]


@pytest.mark.parametrize("name", FILES)
def test_every_listed_move_checks_legal_with_the_same_cost(name: str) -> None:
    position = load_position(POSITIONS / name)
    for company in position.companies:
        ctx = context_from_position(position, company)
        for m in legal_moves(position.board, ctx):
            outcome = check_move(position.board, ctx, m.move)
            assert (outcome.cost, outcome.duty) == (m.cost, m.duty)


def _picture(board_tiles: dict[str, object], hex: str, tile: str, rotation: int) -> object:
    spec = board_tiles[tile]
    return (hex, tile, picture(spec, rotation))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["late_game_first.json", "late_game_second.json"])
def test_legal_lays_and_promotions_are_complete(name: str) -> None:
    position = load_position(POSITIONS / name)
    board = position.board
    tiles = board.edition.tiles
    for company in ("BNR", "BBCI"):
        ctx = context_from_position(position, company)
        net = Network(board, ctx.company)
        lays = legal_lays(board, ctx)
        listed = {_picture(tiles, m.move.hex, m.move.tile, m.move.rotation)  # type: ignore[union-attr]
                  for m in lays}
        assert len(listed) == len(lays)  # each distinct result once
        brute: set[object] = set()
        for hex in board.edition.board.hexes:
            if hex in board.tiles:
                continue
            for tile in (t for t in tiles.values() if t.colour == "yellow"):
                for rotation in range(6):
                    try:
                        check_lay(board, ctx, Lay(hex, tile.id, rotation), network=net)
                    except RuleError:
                        continue
                    brute.add(_picture(tiles, hex, tile.id, rotation))
        assert listed == brute
        promotions = legal_promotions(board, ctx)
        listed = {_picture(tiles, m.move.hex, m.move.tile, m.move.rotation)  # type: ignore[union-attr]
                  for m in promotions}
        assert len(listed) == len(promotions)
        brute = set()
        for hex, old, _ in board.tiles_on_board():
            for new in board.edition.promotions.get(old.id, ()):
                for rotation in range(6):
                    try:
                        check_promotion(board, ctx, Promotion(hex, new, rotation), network=net)
                    except RuleError:
                        continue
                    brute.add(_picture(tiles, hex, new, rotation))
        assert listed == brute and brute
