"""Tile geometry: rotation, fitting a tile to a hex, and promotion geometry.

A tile of the catalogue is described at rotation 0; laid at rotation ``r`` its catalogue side
``s`` lies on map side ``(s + r) % 6``.  Station ids never change with rotation.

Promotion geometry follows rules 4.2.4-4.2.6 and 4.2.12 (second edition) and 31.14-31.16 and
31.22 (first edition): the new tile keeps every existing piece of track with its gauge (dual
gauge keeps both), a small station may become a large one but never the reverse, a plain tile
never gains a station and a station tile never loses one, tiles with two small stations never
promote, and the reserved large-city tiles (labels CD, BM, W) replace only the preprinted
cities or tiles of the same label.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import permutations, product

from india1853.board.hexes import CoordinateError, neighbour, rotate_side
from india1853.data.model import (
    COLOURS,
    Board,
    Gauge,
    PathEnd,
    PathSpec,
    StationSpec,
    TileSpec,
)

ROTATIONS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

# Which gauges of new track keep an existing piece of the given gauge (rules 4.2.6 / 31.16,
# 4.2.8: dual gauge counts as both).
GAUGE_KEPT_BY: dict[Gauge, frozenset[Gauge]] = {
    "broad": frozenset({"broad", "dual"}),
    "metre": frozenset({"metre", "dual"}),
    "dual": frozenset({"dual"}),
}

# Which kinds of new station may replace an old one (rules 4.2.5 / 31.15).
STATION_KIND_KEPT_BY: dict[str, frozenset[str]] = {
    "small": frozenset({"small", "large"}),
    "large": frozenset({"large"}),
}

# An end of a path on the map: a map side or a station id; a path on the map is the unordered
# pair of its ends.
_EndKey = tuple[int, str]


def _check_rotation(rotation: int) -> None:
    if rotation not in ROTATIONS:
        raise ValueError(f"bad rotation {rotation!r}: expected 0..5")


def _map_end(end: PathEnd, rotation: int) -> PathEnd:
    return rotate_side(end, rotation) if isinstance(end, int) else end


# Memos of pure functions of tiles, keyed by the tiles' identities (``id``) and kept with the
# tiles themselves, which keeps the ids from being reused and serves a different tile object
# (another edition's) no stale answer.  Hashing a TileSpec (a frozen dataclass of tuples,
# hashed anew at each call) cost more than the work the memo saves; the move generators and
# the graph ask these questions thousands of times per game.
_MAP_PATHS: dict[tuple[int, int], tuple[TileSpec, tuple[PathSpec, ...]]] = {}
_STATION_MAPS: dict[tuple[int, int, int, int],
                    tuple[TileSpec, TileSpec, tuple[tuple[str, str], ...] | None]] = {}
_DISTINCT: dict[int, tuple[TileSpec, tuple[int, ...]]] = {}


def map_paths(tile: TileSpec, rotation: int) -> tuple[PathSpec, ...]:
    """The tile's paths with side ends turned to map sides (station ends unchanged)."""
    found = _MAP_PATHS.get((id(tile), rotation))
    if found is not None and found[0] is tile:
        return found[1]
    _check_rotation(rotation)
    paths = tuple(
        PathSpec(_map_end(p.a, rotation), _map_end(p.b, rotation), p.gauge) for p in tile.paths
    )
    _MAP_PATHS[(id(tile), rotation)] = (tile, paths)
    return paths


def exits(tile: TileSpec, rotation: int) -> frozenset[int]:
    """The map sides at which the tile laid at ``rotation`` has track."""
    return frozenset(
        end for p in map_paths(tile, rotation) for end in (p.a, p.b) if isinstance(end, int)
    )


def _end_key(end: PathEnd) -> _EndKey:
    return (0, str(end)) if isinstance(end, int) else (1, end)


def _path_key(a: PathEnd, b: PathEnd) -> tuple[_EndKey, _EndKey]:
    ka, kb = _end_key(a), _end_key(b)
    return (ka, kb) if ka <= kb else (kb, ka)


def layout(tile: TileSpec, rotation: int) -> frozenset[tuple[tuple[_EndKey, _EndKey], Gauge]]:
    """What the tile looks like on the map at ``rotation``: its paths as unordered end pairs."""
    return frozenset((_path_key(p.a, p.b), p.gauge) for p in map_paths(tile, rotation))


# A station as the map shows it: kind, value, slots and the (side, gauge) of its direct track.
_StationLook = tuple[str, int, int, tuple[tuple[int, Gauge], ...]]
Picture = tuple[tuple[_StationLook, ...], tuple[tuple[tuple[_EndKey, _EndKey], Gauge], ...]]


def picture(tile: TileSpec, rotation: int) -> Picture:
    """What the tile shows on the map at ``rotation``, whatever its stations are called.

    Two rotations with the same picture are the same move: the same track in the same places
    and the same stations (kind, value, slots) where the track meets them.  Station ids are
    only names in the catalogue, so identical stations are interchangeable: the six one-slot
    stations of Calcutta's tile 500 give one picture at every rotation.  The picture is the
    smallest description over every renaming of identical stations, so it is canonical.
    """
    paths = map_paths(tile, rotation)
    looks = {
        st.id: (st.kind, st.value, st.slots, tuple(sorted(
            (end, p.gauge) for p in paths for end, other in ((p.a, p.b), (p.b, p.a))
            if other == st.id and isinstance(end, int)
        )))
        for st in tile.stations
    }
    order = sorted(looks, key=lambda sid: looks[sid])
    groups = [[sid for sid in order if looks[sid] == look]
              for look in sorted(set(looks.values()))]
    best: tuple[tuple[tuple[_EndKey, _EndKey], Gauge], ...] | None = None
    for names in product(*(permutations(group) for group in groups)):
        rename = {sid: f"s{i}" for i, sid in enumerate(sid for group in names for sid in group)}
        key = tuple(sorted(
            (_path_key(_renamed(p.a, rename), _renamed(p.b, rename)), p.gauge) for p in paths
        ))
        if best is None or key < best:
            best = key
    assert best is not None
    return tuple(sorted(looks.values())), best


def _renamed(end: PathEnd, rename: dict[str, str]) -> PathEnd:
    return rename[end] if isinstance(end, str) else end


def distinct_rotations(tile: TileSpec) -> list[int]:
    """The rotations that give different pictures on the map (the smallest of each kind).

    A straight track has 3, a tile with all six sides joined to one station has 1, and so has
    a tile of six identical stations each with one track (:func:`picture`).
    """
    found = _DISTINCT.get(id(tile))
    if found is None or found[0] is not tile:
        found = (tile, _distinct_rotations(tile))
        _DISTINCT[id(tile)] = found
    return list(found[1])


def _distinct_rotations(tile: TileSpec) -> tuple[int, ...]:
    seen: set[Picture] = set()
    out: list[int] = []
    for rotation in ROTATIONS:
        key = picture(tile, rotation)
        if key not in seen:
            seen.add(key)
            out.append(rotation)
    return tuple(out)


def fitting_rotations(
    tile: TileSpec, coord: str, board: Board, *, distinct: bool = False
) -> list[int]:
    """Rotations at which no track of ``tile`` on ``coord`` runs off the grid (4.1.10 / 31.8).

    Every exit must lead to a playable hex (not into the sea, the grey margin or beyond the
    grid), or off the board at a buff edge (31.8, first edition).  A hex that is not playable
    itself takes no tile.  With ``distinct=True`` only the first of rotations that give the same
    picture is listed.
    """
    spec = board.hexes.get(coord)
    if spec is None:
        raise CoordinateError(f"bad coordinate {coord!r}: not a hex of this board")
    if not spec.playable:
        return []
    candidates = distinct_rotations(tile) if distinct else list(ROTATIONS)
    return [r for r in candidates if _exits_stay_on_board(tile, r, coord, board)]


def _exits_stay_on_board(tile: TileSpec, rotation: int, coord: str, board: Board) -> bool:
    return exits(tile, rotation) <= open_sides(board, coord)


def open_sides(board: Board, coord: str) -> frozenset[int]:
    """The sides of ``coord`` at which track may end (4.1.10 / 31.8): those with a playable hex
    across, and the first edition's buff edges, where "There is no restriction on a line
    running off the board at a buff edge as if it was the start of an international route!"
    (the board data's ``buff_edges``; such a line leads nowhere and earns nothing)."""
    spec = board.hexes.get(coord)
    open_ = {side for side in range(6)
             if (across := neighbour(coord, side)) is not None and board.playable(across)}
    if spec is not None:
        open_.update(spec.buff_edges)
    return frozenset(open_)


# --- station kinds -------------------------------------------------------------------------


def small_stations(tile: TileSpec) -> tuple[StationSpec, ...]:
    return tuple(st for st in tile.stations if st.kind == "small")


def large_stations(tile: TileSpec) -> tuple[StationSpec, ...]:
    return tuple(st for st in tile.stations if st.kind == "large")


def is_plain(tile: TileSpec) -> bool:
    """A tile without stations: open track for plain hexes (rule 4.1.9 / 31.7)."""
    return not tile.stations


def is_two_town(tile: TileSpec) -> bool:
    """A tile with two small stations, laid on a double-town hex (rule 4.1.9 / 31.7)."""
    return len(tile.stations) == 2 and len(small_stations(tile)) == 2


def is_reserved(tile: TileSpec) -> bool:
    """A large-city tile reserved for Calcutta/Delhi, Bombay/Madras or Waltair (4.2.12 / 31.22)."""
    return tile.label is not None


def next_colour(tile: TileSpec) -> str | None:
    """The colour a tile promotes to (rule 4.2.1 / 31.12): yellow->green->brown->grey."""
    index = COLOURS.index(tile.colour)
    return COLOURS[index + 1] if index + 1 < len(COLOURS) else None


# --- promotion geometry --------------------------------------------------------------------


def labels_allow(old: TileSpec, new: TileSpec) -> bool:
    """Rule 4.2.12 / 31.22: large cities promote only with the tiles reserved for them.

    A preprinted city takes any reserved tile whose label matches its own (a preprinted city
    printed without a label, such as the first edition's Madras, takes any reserved tile);
    every other tile takes only a tile of its own label, so unlabelled tiles never become
    reserved ones and reserved tiles stay reserved.
    """
    if old.preprinted:
        return new.label is not None and old.label in (None, new.label)
    return new.label == old.label


def promotion_station_map(
    old: TileSpec, old_rotation: int, new: TileSpec, new_rotation: int
) -> dict[str, str] | None:
    """Map each station of ``old`` to its station on ``new``, or None if the promotion is illegal.

    Rules 4.2.4-4.2.6, 4.2.9, 4.2.12 (second edition) and 31.14-31.16, 31.22 (first edition):

    * every existing piece of track is kept, joining the same ends, with a gauge that keeps
      it (broad by broad or dual, metre by metre or dual, dual by dual); new track may be of
      any gauge;
    * a plain tile never gains a station, a station tile never loses one; small stations may
      become small or large, large stations stay large; tiles with two small stations never
      promote;
    * every old station maps to a different new station, except on a preprinted city, whose
      separate stations the reserved tile may join (4.2.12: the BM tiles "allow through runs
      once upgraded");
    * a new station has room for every base token of the old stations mapped to it (4.2.9:
      promotion may add spaces, never remove them).

    The mapping is what moves base tokens from the old tile to the new one.
    """
    key = (id(old), old_rotation, id(new), new_rotation)
    kept = _STATION_MAPS.get(key)
    if kept is not None and kept[0] is old and kept[1] is new:
        found = kept[2]
    else:
        _check_rotation(old_rotation)
        _check_rotation(new_rotation)
        found = _station_map(old, old_rotation, new, new_rotation)
        _STATION_MAPS[key] = (old, new, found)
    return None if found is None else dict(found)


def _station_map(
    old: TileSpec, old_rotation: int, new: TileSpec, new_rotation: int
) -> tuple[tuple[str, str], ...] | None:
    # Kept by promotion_station_map (_STATION_MAPS) for move generators and routers that ask
    # the same question many times; callers get a fresh dict each time.
    if is_two_town(old) or not labels_allow(old, new):
        return None
    if is_plain(old) != is_plain(new):
        return None
    if not exits(old, old_rotation) <= exits(new, new_rotation):
        return None
    old_paths = map_paths(old, old_rotation)
    new_paths = Counter(
        (_path_key(p.a, p.b), p.gauge) for p in map_paths(new, new_rotation)
    )
    for mapping in _station_mappings(old, old_rotation, new, new_rotation):
        if _keeps_every_track(old_paths, new_paths, mapping):
            return tuple(mapping.items())
    return None


def promotion_rotation_list(old: TileSpec, old_rotation: int, new: TileSpec) -> list[int]:
    """The rotations of :func:`promotion_rotations`, without copying their station maps."""
    out: list[int] = []
    for rotation in ROTATIONS:
        key = (id(old), old_rotation, id(new), rotation)
        kept = _STATION_MAPS.get(key)
        if kept is None or kept[0] is not old or kept[1] is not new:
            promotion_station_map(old, old_rotation, new, rotation)
            kept = _STATION_MAPS[key]
        if kept[2] is not None:
            out.append(rotation)
    return out


def promotion_rotations(
    old: TileSpec, old_rotation: int, new: TileSpec
) -> list[tuple[int, dict[str, str]]]:
    """Every rotation of ``new`` that legally replaces ``old`` at ``old_rotation``, with the
    station mapping for each (rules 4.2.4-4.2.6 / 31.14-31.16)."""
    out: list[tuple[int, dict[str, str]]] = []
    for rotation in ROTATIONS:
        mapping = promotion_station_map(old, old_rotation, new, rotation)
        if mapping is not None:
            out.append((rotation, mapping))
    return out


def _station_sides(tile: TileSpec, rotation: int) -> dict[str, frozenset[int]]:
    """The map sides each station's track leads to directly."""
    out: dict[str, set[int]] = {st.id: set() for st in tile.stations}
    for p in map_paths(tile, rotation):
        if isinstance(p.a, str) and isinstance(p.b, int):
            out[p.a].add(p.b)
        elif isinstance(p.b, str) and isinstance(p.a, int):
            out[p.b].add(p.a)
    return {sid: frozenset(sides) for sid, sides in out.items()}


def _station_mappings(
    old: TileSpec, old_rotation: int, new: TileSpec, new_rotation: int
) -> Iterator[dict[str, str]]:
    """Candidate station mappings that respect station kinds, joining and capacity.

    A station can only go where its track still reaches, so each old station is offered only
    the new stations with track to every side its own track leads to.
    """
    old_sides = _station_sides(old, old_rotation)
    new_sides = _station_sides(new, new_rotation)
    choices: list[Sequence[StationSpec]] = [
        [
            n
            for n in new.stations
            if n.kind in STATION_KIND_KEPT_BY[o.kind] and old_sides[o.id] <= new_sides[n.id]
        ]
        for o in old.stations
    ]
    for combo in product(*choices):
        targets = [n.id for n in combo]
        if not old.preprinted and len(set(targets)) != len(targets):
            continue
        if not _has_room(old.stations, combo):
            continue
        yield {o.id: n.id for o, n in zip(old.stations, combo, strict=True)}


def _has_room(old_stations: Sequence[StationSpec], targets: Sequence[StationSpec]) -> bool:
    needed: Counter[str] = Counter()
    room: dict[str, int] = {}
    for o, n in zip(old_stations, targets, strict=True):
        needed[n.id] += o.slots
        room[n.id] = n.slots
    return all(needed[sid] <= room[sid] for sid in needed)


def _keeps_every_track(
    old_paths: Sequence[PathSpec],
    new_paths: Counter[tuple[tuple[_EndKey, _EndKey], Gauge]],
    mapping: dict[str, str],
) -> bool:
    """Match each old path to its own new path between the mapped ends, keeping its gauge."""
    available = Counter(new_paths)
    # Dual track first: it can only be kept by dual track, so it must not lose that to a
    # broad or metre piece that could have used a dual one as well.
    for path in sorted(old_paths, key=lambda p: p.gauge != "dual"):
        a = mapping.get(path.a, path.a) if isinstance(path.a, str) else path.a
        b = mapping.get(path.b, path.b) if isinstance(path.b, str) else path.b
        key = _path_key(a, b)
        for gauge in _gauge_preference(path.gauge):
            if available[(key, gauge)] > 0:
                available[(key, gauge)] -= 1
                break
        else:
            return False
    return True


def _gauge_preference(gauge: Gauge) -> tuple[Gauge, ...]:
    # Use same-gauge track before dual so that dual stays free for the pieces that need it.
    return (gauge,) if gauge == "dual" else (gauge, "dual")
