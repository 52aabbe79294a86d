"""``india1853 moves POSITION.json --company EIR [--json] [--check MOVE]``.

Lists the company's legal tile lays, promotions and base placements with their costs (and the
hex a train must run through, where a move outside the company's area creates that duty), or
with ``--check`` says whether one move is legal and, if not, which rule it breaks.

A move for ``--check`` is JSON: ``{"lay": {"hex": "H24", "tile": "5", "rotation": 1}}``,
``{"promote": {...the same...}}`` or ``{"base": {"hex": "J28", "station": "NW"}}`` (a station
by the side its track reaches, or by its id).  Hexes are written ``J28`` or ``Jab``.
``--lays-done`` gives the lays already made this turn (a JSON list of lays, in order) to list or
check a second lay: each lay not yet on the position's board is checked and laid, its cost
taken from the company's cash; a lay the board already shows (same tile and rotation) is taken
as made.  ``--promoted`` says a promotion was made.  Bad input gets one line naming the field.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from india1853.board.hexes import side_name
from india1853.board.state import BoardState
from india1853.data.jsonfile import parse_json
from india1853.errors import India1853Error, InputError, RuleError
from india1853.rules.construction import (
    CompanyContext,
    Lay,
    LegalMove,
    Move,
    PlaceBase,
    Promotion,
    apply_lay,
    check_move,
    legal_moves,
)
from india1853.rules.position import context_from_position, load_position, parse_hex


def register(sub: Any) -> None:
    parser = sub.add_parser("moves", help="a company's legal lays, promotions and bases")
    parser.add_argument("position", help="position file (docs/positions.md)")
    parser.add_argument("--company", required=True, help="initials or number, e.g. EIR")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--check", metavar="MOVE", help='e.g. \'{"lay": {"hex": "H24", '
                        '"tile": "5", "rotation": 1}}\'')
    parser.add_argument("--lays-done", metavar="LAYS", default="[]",
                        help="JSON list of this turn's lays so far, e.g. '[{\"hex\": \"I27\", "
                        "\"tile\": \"4\", \"rotation\": 5}]'; a lay not on the position's "
                        "board is checked, laid and paid for first")
    parser.add_argument("--promoted", action="store_true", help="a tile was promoted this turn")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    position = load_position(args.position)
    board = position.board
    lays = tuple(_lay(board, item, f"--lays-done[{i}]")
                 for i, item in enumerate(_json_list(args.lays_done, "--lays-done")))
    ctx = context_from_position(position, args.company, promoted=args.promoted)
    board, ctx = _made(board, ctx, lays)
    if args.check is not None:
        return _check(board, ctx, args.check, args.json)
    moves = legal_moves(board, ctx)
    if args.json:
        print(json.dumps(_document(board, ctx, moves), indent=1))
    else:
        print(_text(board, ctx, moves))
    return 0


def _made(
    board: BoardState, ctx: CompanyContext, lays: tuple[Lay, ...]
) -> tuple[BoardState, CompanyContext]:
    """The board and company after this turn's lays so far (``--lays-done``): a lay already on
    the board is taken as made (and paid); any other is checked as the turn's next lay, laid
    and paid for (4.1.12 / 31.10: paid before laying)."""
    for i, lay in enumerate(lays):
        name = f"--lays-done[{i}]"
        placed = board.tiles.get(lay.hex)
        if placed is not None and (placed.tile, placed.rotation) == (lay.tile, lay.rotation):
            ctx = replace(ctx, lays_done=(*ctx.lays_done, lay))
            continue
        if placed is not None:
            raise InputError(f"{name}: {lay.hex} holds tile {placed.tile} at rotation "
                             f"{placed.rotation}, not this lay")
        try:
            board, cost = apply_lay(board, ctx, lay)
        except RuleError as exc:
            raise InputError(f"{name}: not a legal lay: {exc}") from None
        ctx = replace(ctx, cash=ctx.cash - cost, lays_done=(*ctx.lays_done, lay))
    return board, ctx


def _json(text: str, name: str) -> Any:
    return parse_json(text, name)


def _json_list(text: str, name: str) -> list[Any]:
    value = _json(text, name)
    if not isinstance(value, list):
        raise InputError(f"{name}: expected a JSON list")
    return value


def _fields(value: Any, name: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected an object with {', '.join(keys)}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise InputError(f"{name}.{missing[0]}: missing")
    return value


def _tile_fields(board: BoardState, value: Any, name: str) -> tuple[str, str, int]:
    fields = _fields(value, name, ("hex", "tile", "rotation"))
    hex = parse_hex(fields["hex"], f"{name}.hex", board.edition)
    tile = fields["tile"]
    if isinstance(tile, int) and not isinstance(tile, bool):
        tile = str(tile)
    if not isinstance(tile, str) or tile not in board.edition.tiles:
        raise InputError(f"{name}.tile: {tile!r} is not a tile of the {board.edition.name} "
                         "edition")
    rotation = fields["rotation"]
    if not isinstance(rotation, int) or isinstance(rotation, bool) or rotation not in range(6):
        raise InputError(f"{name}.rotation: must be 0..5, got {rotation!r}")
    return hex, tile, rotation


def _lay(board: BoardState, value: Any, name: str) -> Lay:
    return Lay(*_tile_fields(board, value, name))


def _station(board: BoardState, hex: str, value: Any, name: str) -> str:
    """A station of the tile on ``hex``: its id, or the side its track reaches (``NW``, 2)."""
    found = board.tile_at(hex)
    ids = {s.id for s in found[0].stations} if found is not None else set()
    if isinstance(value, str) and value in ids:
        return value
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise InputError(f"{name}: expected a side such as \"NW\" or a station id")
    try:
        return board.station_by_side(hex, value)
    except India1853Error as exc:
        raise InputError(f"{name}: {exc}") from None


def parse_move(board: BoardState, text: str) -> Move:
    """A move from the JSON of ``--check``."""
    value = _json(text, "--check")
    if not isinstance(value, dict) or len(value) != 1:
        raise InputError('--check: expected one of {"lay": ...}, {"promote": ...}, {"base": ...}')
    kind, body = next(iter(value.items()))
    if kind == "lay":
        return _lay(board, body, "--check.lay")
    if kind in ("promote", "promotion"):
        return Promotion(*_tile_fields(board, body, f"--check.{kind}"))
    if kind == "base":
        fields = _fields(body, "--check.base", ("hex", "station"))
        hex = parse_hex(fields["hex"], "--check.base.hex", board.edition)
        return PlaceBase(hex, _station(board, hex, fields["station"], "--check.base.station"))
    raise InputError(f"--check: unknown move {kind!r}: expected lay, promote or base")


def _check(board: BoardState, ctx: CompanyContext, text: str, as_json: bool) -> int:
    move = parse_move(board, text)
    try:
        outcome = check_move(board, ctx, move)
    except RuleError as exc:
        if as_json:
            print(json.dumps({"legal": False, "rule": exc.rule, "message": str(exc)}))
        else:
            print(f"illegal: {exc}")
        return 1
    if as_json:
        print(json.dumps({"legal": True, "move": _move_doc(board, move),
                          "cost": outcome.cost, "duty": outcome.duty}))
    else:
        duty = f"; a train must run through {outcome.duty} this turn" if outcome.duty else ""
        print(f"legal: {_describe(board, move)}, cost £{outcome.cost}{duty}")
    return 0


def _station_side(board: BoardState, hex: str, station: str) -> str | None:
    for side in range(6):
        try:
            if board.station_by_side(hex, side) == station:
                return side_name(side)
        except India1853Error:
            continue
    return None


def _move_doc(board: BoardState, move: Move) -> dict[str, Any]:
    if isinstance(move, PlaceBase):
        return {"type": "base", "hex": move.hex, "station": move.station,
                "side": _station_side(board, move.hex, move.station)}
    kind = "lay" if isinstance(move, Lay) else "promote"
    return {"type": kind, "hex": move.hex, "tile": move.tile, "rotation": move.rotation}


def _describe(board: BoardState, move: Move) -> str:
    if isinstance(move, PlaceBase):
        # Name the station by a side only where the hex has several to choose from.
        found = board.tile_at(move.hex)
        several = found is not None and sum(s.kind == "large" for s in found[0].stations) > 1
        side = _station_side(board, move.hex, move.station) if several else None
        where = f" ({side} station)" if side else ""
        return f"base on {move.hex} {move.station}{where}"
    verb = "lay" if isinstance(move, Lay) else "promote to"
    return f"{verb} tile {move.tile} on {move.hex} at rotation {move.rotation}"


def _document(board: BoardState, ctx: CompanyContext, moves: list[LegalMove]) -> dict[str, Any]:
    def rows(kind: type) -> list[dict[str, Any]]:
        return [{**_move_doc(board, m.move), "cost": m.cost, "duty": m.duty}
                for m in moves if isinstance(m.move, kind)]

    return {"company": ctx.company, "phase": ctx.phase, "cash": ctx.cash,
            "lays": rows(Lay), "promotions": rows(Promotion), "bases": rows(PlaceBase)}


def _text(board: BoardState, ctx: CompanyContext, moves: list[LegalMove]) -> str:
    lines = [f"{ctx.company}: Phase {ctx.phase}, cash £{ctx.cash}"]
    for title, kind in (("Lays", Lay), ("Promotions", Promotion), ("Bases", PlaceBase)):
        chosen = [m for m in moves if isinstance(m.move, kind)]
        lines.append(f"{title} ({len(chosen)}):")
        for m in chosen:
            duty = f"  run through {m.duty}" if m.duty else ""
            lines.append(f"  {_describe(board, m.move)}  £{m.cost}{duty}")
    return "\n".join(lines)
