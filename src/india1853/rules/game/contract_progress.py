"""A contract bid's progress during play: which of its cities are joined by track (4.3.1 /
31.24, the same test that returns the bond, ``board_port.check_contracts``) and whether the
game's end leaves it reachable (5.1.2, 5.2.1 / 40, 41).

The progress names the bid's cities, so it is as secret as they are (2.5.4, 14.5): only the
bidder's own view carries it until the rules reveal the cities (``secrecy.cities_public``;
``secrecy.STATE_SECRETS``).

"Unreachable" is judged conservatively (docs/rulings.md, "A contract out of reach"): only once
the number of tile lays left is known - the bank has broken, so the game ends with this
operating round (5.1.2 / 40) - and only when even the most lays the companies still to
operate could make (each the largest number a company may lay in a turn, 4.1.2-4.1.3 / 31.2)
is fewer than the fewest track actions the bid's cities need: for some group of cities joined
to one another, the hexes to change (a tile laid, or one promoted, where no track yet crosses
the side the way enters by) on the shortest way to another group's city - every hex of the map
counted as open to track, whatever its terrain, gauge or the tiles left.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from india1853.board import hexes
from india1853.board import tiles as tile_geometry
from india1853.board.state import BoardState
from india1853.rules import construction as con
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import GameState, PlayerState

Json = dict[str, Any]

_UNREACHED = 10**6


def tiles_needed(board: BoardState, groups: list[list[str]]) -> int:
    """A lower bound on the track actions (tile lays or promotions) still needed before the
    groups of cities are one (4.3.1): the largest, over the groups, of the fewest hexes to
    change on a way from one of its cities to a city of another group (0 for one group)."""
    if len(groups) < 2:
        return 0
    # Kept with the (immutable) board: every view of it after an action that left the board
    # as it was (most actions) asks again.
    kept = board._derived.setdefault("contract_needed", {})
    assert isinstance(kept, dict)
    key = tuple(tuple(g) for g in groups)
    found = kept.get(key)
    if isinstance(found, int):
        return found
    city_hex = {name: board.edition.city(name).hex for g in groups for name in g}
    best = 0
    for i, group in enumerate(groups):
        others = {city_hex[c] for j, g in enumerate(groups) if j != i for c in g}
        best = max(best, _fewest_changes(board, [city_hex[c] for c in group], others))
    kept[key] = best
    return best


# A hex's ways out for the search: (neighbour, changes to enter it) per side, by hex.
_Steps = dict[str, tuple[tuple[str, int], ...]]


def _steps(board: BoardState) -> _Steps:
    """Every playable hex's neighbours with the cost of entering each (0 where the entered
    hex's tile already has track at the side crossed, else 1), found once per board state and
    kept with it (``BoardState._derived``): every viewer's progress searches the same board."""
    found = board._derived.get("contract_steps")
    if isinstance(found, dict):
        return found
    spec = board.edition.board.hexes
    exits: dict[str, frozenset[int]] = {}
    for coord, tile, rotation in board.tiles_on_board():
        exits[coord] = tile_geometry.exits(tile, rotation)
    none: frozenset[int] = frozenset()
    steps: _Steps = {}
    for coord in spec:
        out = []
        for side, nxt in hexes.neighbours(coord).items():
            target = spec.get(nxt)
            if target is None or not target.playable:
                continue
            out.append((nxt, 0 if hexes.opposite(side) in exits.get(nxt, none) else 1))
        steps[coord] = tuple(out)
    board._derived["contract_steps"] = steps
    return steps


def _fewest_changes(board: BoardState, starts: Iterable[str], targets: set[str]) -> int:
    """0-1 breadth-first search over the map's playable hexes: crossing a side costs nothing
    where the tiles on both hexes already have track at it, else one change (a tile laid or
    promoted) for each hex that lacks it - counted once per hex, so never more than the
    changes a real connection needs."""
    steps = _steps(board)
    cost: dict[str, int] = {}
    todo: deque[tuple[int, str]] = deque()
    for start in starts:
        cost[start] = 0
        todo.append((0, start))
    while todo:
        spent, hex_ = todo.popleft()
        if spent > cost.get(hex_, _UNREACHED):
            continue
        if hex_ in targets:
            return spent
        # A hex is changed at most once on the way (its one tile laid or promoted), so only
        # the hex entered is charged: the one left was charged when entered, or is a start,
        # whose own change is not counted (the bound stays a bound).
        for nxt, step in steps.get(hex_, ()):
            if spent + step < cost.get(nxt, _UNREACHED):
                cost[nxt] = spent + step
                if step:
                    todo.append((spent + step, nxt))
                else:
                    todo.appendleft((spent, nxt))
    return _UNREACHED


def lays_left(rules: GameRules, st: GameState) -> int | None:
    """The most tile lays (or promotions) the companies may still make before the game ends,
    or None while its end is not known: once the bank has broken, the companies of this
    operating round still to lay (the current one if its track step is not over) - or of the
    next, the last, when it broke before it - each the most a company may lay in a turn
    (4.1.2-4.1.3 / 31.2; 5.1.2 / 40)."""
    if st.round == "finished":
        return 0
    if not st.bank_broken:
        return None
    most = max(con.ConstructionPolicy.of(rules.ed).tile_lays.values())
    if st.round in ("stock", "stock_end", "kit_actions"):
        # Broken before the operating round: the next one is the last; any company may yet
        # form in this stock round.
        return most * len(st.companies)
    if st.round not in ("operating", "kit_draws"):
        return 0
    order, index = st.turn.order, max(0, st.turn.index)
    later = len(order) - index - 1
    current = 1 if st.turn.step in ("lay_option", "track") and index < len(order) else 0
    return most * (later + current)


def progress(rules: GameRules, st: GameState, player: PlayerState) -> Json | None:
    """The bid's progress: per city whether it is ``connected`` (joined by track to another
    city of the bid, 4.3.1) and to which, the ``groups``, ``fulfilled``, and ``warning`` when
    it cannot be fulfilled any more (module docstring), with its ``status`` in words."""
    if player.bond is None or not player.cities:
        return None
    board = st.board
    groups = con.contract_groups(board, player.cities)
    joined = {c: [o for o in g if o != c] for g in groups for c in g}
    cities = [{"name": c, "connected": bool(joined[c]), "joined_to": joined[c]}
              for c in player.cities]
    fulfilled = player.bond_returned
    warning = None
    needed = 0 if fulfilled else tiles_needed(board, groups)
    left = None if fulfilled else lays_left(rules, st)
    if fulfilled:
        status = "fulfilled: the cities are joined and the bond returned (4.3.1, 4.3.2)"
    elif st.round == "finished":
        status = warning = ("not fulfilled: the game is over and the bond is not counted in "
                            "the score (5.2.1)")
    elif left is not None and needed > left:
        status = warning = (
            f"out of reach: the bank has broken, so the game ends with this operating round "
            f"(5.1.2); joining the cities needs at least {needed} more tile lays or "
            f"promotions and at most {left} can still be made (4.1.3); the bond is not "
            "counted in the score (5.2.1)")
    elif len(groups) == 1:
        status = "every city is joined by track (4.3.1): the bond returns at the next tile"
    else:
        status = (f"{len(groups)} groups of cities still to join by track (4.3.1); at least "
                  f"{needed} more tile lays or promotions needed")
    return {"cities": cities, "groups": groups, "fulfilled": fulfilled,
            "tiles_needed": needed, "lays_left": left, "status": status,
            "warning": warning, "rule": "4.3.1"}


__all__ = ["lays_left", "progress", "tiles_needed"]
