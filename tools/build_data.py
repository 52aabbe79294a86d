"""One-off generator: read ``../shared/reference`` and write the project's own data files.

The committed JSON under ``src/india1853/data/`` is the source of truth; this script only records
how its board, tile, city and company facts were first derived from the reference facts, so that
a correction to the reference can be re-applied.  It writes ``tiles.json`` and, per edition,
``board.json``, ``cities.json``, ``companies.json`` and ``tiles.json``.  The rule tables
(``market.json``, ``trains.json``, ``rules.json``) are transcribed from the rulebooks by hand and
are not touched here.

Run: ``python tools/build_data.py [--reference ../shared/reference] [--out src/india1853/data]``.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIDES = {"SW": 0, "W": 1, "NW": 2, "NE": 3, "E": 4, "SE": 5}
KINDS = {"offboard_grey": "offboard"}
# Board facts the second edition drops: "cut off in the East at the River Ganges".
SECOND_EDITION_MAX_COL = 30
WALTAIR = "O21"
SPELLING = {"Hyderbad": "Hyderabad", "Trichniopoly": "Trichinopoly"}

Json = dict[str, Any]


def _letters(col_letters: str) -> int:
    if len(col_letters) == 1:
        return ord(col_letters) - 96
    return 26 * (ord(col_letters[0]) - 96) + ord(col_letters[1]) - 96


# ---------------------------------------------------------------------------------------------
# Companies: TABLE 1, TABLE 2 (first edition map references), TABLE 7 (tokens, colours)
# ---------------------------------------------------------------------------------------------

FIRST_AREAS: dict[str, tuple[tuple[str, str] | None, tuple[int, int] | None]] = {
    # TABLE 2 "Map Reference" of the first edition, columns as the rulebook's letters.
    "EIR": (("C", "J"), (_letters("n"), _letters("ab"))),
    "GIP": (("F", "O"), (_letters("i"), _letters("t"))),
    "NWR": (("B", "I"), (_letters("b"), _letters("n"))),
    "BNR": (("H", "R"), (_letters("o"), _letters("ab"))),
    "BBCI": (("F", "M"), (_letters("b"), _letters("q"))),
    "MSM": (("M", "R"), None),
    "SIR": (("R", "V"), None),
    "BAR": (None, (_letters("ab"), _letters("ak"))),
}
# second-edition.md: "south of Calcutta, north of Madras, east of Nagpur = rows J..R, columns 17
# and above"; 36 is the last grid column.
ECR_AREA = (("J", "R"), (17, 36))

COLOURS = {  # TABLE 7 of the first edition; text colours are our choice for legibility.
    "EIR": ("red", "white"),
    "GIP": ("orange", "white"),
    "NWR": ("black", "white"),
    "BNR": ("green", "white"),
    "BBCI": ("blue", "white"),
    "MSM": ("purple", "white"),
    "SIR": ("yellow", "black"),
    "BAR": ("lightblue", "black"),
    "ECR": ("lightblue", "black"),
}
NAMES = {
    "EIR": "East Indian Railway",
    "GIP": "Great Indian Peninsula Railway",
    "NWR": "North Western Railway",
    "BNR": "Bengal Nagpur Railway",
    "BBCI": "Bombay, Baroda and Central India Railway",
    "MSM": "Madras and South Mahratta Railway",
    "SIR": "South Indian Railway",
    "BAR": "Bengal Assam Railway",
    "ECR": "East Coast Railway",
}

PREPRINTED_IDS = {"F14": "Delhi", "J28": "Calcutta", "M9": "Bombay", "R18": "Madras"}


def preprinted_tile(hex_fact: Json) -> Json:
    """A large city as a catalogue tile at rotation 0: one stub per station, stations not joined."""
    lc = hex_fact["large_city"]
    stations = []
    paths = []
    for i, st in enumerate(lc["stations"], start=1):
        sid = f"st{i}"
        stations.append({"id": sid, "kind": "large", "value": lc["value"], "slots": st["slots"]})
        paths.append([sid, SIDES[st["connects_to_side"]], "dual"])
    tile: Json = {"colour": "green", "stations": stations, "paths": paths}
    if lc["label"] is not None:
        tile["label"] = lc["label"]
    tile["preprinted"] = True
    tile["provenance"] = "ps18xx"
    where = ", ".join(
        f"st{i} {st['connects_to_side']}" for i, st in enumerate(lc["stations"], start=1)
    )
    tile["note"] = f"preprinted {lc['name']} ({hex_fact['coord']}): stations {where}"
    return tile


WALTAIR_TILE: Json = {
    "colour": "green",
    "stations": [{"id": "st1", "kind": "large", "value": 30, "slots": 1}],
    "paths": [["st1", 1, "dual"], ["st1", 2, "dual"], ["st1", 3, "dual"]],
    "label": "W",
    "preprinted": True,
    "provenance": "derived",
    "note": "preprinted Waltair (O21), second edition only: one station joined to W, NW, NE",
}


# Why each reconstructed tile is what it is (the files' uniform ``derived`` marker, see
# docs/data-format.md); every tile whose provenance is "derived" must be listed.
TILE_DERIVED = {
    "tiles.Waltair": "REF-2nd: green, label W, value 30, one slot, dual track to W, NW, NE; no "
    "public picture of the 2009 board",
    "tiles.500": "REF-tiles derived: the 2009 number of the brown CD tile, layout of the first "
    "edition's 104",
    "tiles.900": "REF-tiles derived: the 2009 number of the grey CD tile, layout of the first "
    "edition's 110",
    "tiles.720": "REF-tiles derived: brown W tile reconstructed from the 2009 chart (Waltair -> "
    "720); value and slots are guesses",
}
DERIVED_TILE_GROUP = (
    "REF-tiles derived: layout reconstructed from the 2009 promotion chart (every listed "
    "promotion keeps its track) and the players' guide"
)
DERIVED_LARGE_STATION_GROUP = DERIVED_TILE_GROUP + "; values and slots are guesses"


def catalogue_derived(tiles: Json) -> Json:
    """The catalogue's ``derived`` marker: Madras's missing label and every tile whose
    provenance is "derived"."""
    out: Json = {"tiles.Madras": "label: none (ps18xx prints none; REF-board conflict 7); it "
                 "promotes with the BM tiles (R1 31.22, R2 4.2.12)"}
    for tid, tile in tiles.items():
        if tile["provenance"] != "derived":
            continue
        why = TILE_DERIVED.get(f"tiles.{tid}")
        if why is None:
            large = any(st["kind"] == "large" for st in tile["stations"])
            why = DERIVED_LARGE_STATION_GROUP if large else DERIVED_TILE_GROUP
        out[f"tiles.{tid}"] = why
    return out


def build_catalogue(tiles_ref: Json, board_ref: Json) -> Json:
    out: Json = {}
    hexes = {h["coord"]: h for h in board_ref["hexes"]}
    for coord, tid in PREPRINTED_IDS.items():
        out[tid] = preprinted_tile(hexes[coord])
    out["Waltair"] = WALTAIR_TILE
    for tid, t in tiles_ref["tiles"].items():
        entry: Json = {"colour": t["colour"], "stations": t["stations"], "paths": t["paths"]}
        if t.get("label"):
            entry["label"] = t["label"]
        entry["provenance"] = t["provenance"]
        if t.get("note"):
            entry["note"] = t["note"]
        out[tid] = entry
    return out


def build_promotions(tiles_ref: Json, edition: str) -> Json:
    promos: Json = {k: list(v) for k, v in tiles_ref["promotions"][edition].items()}
    if edition == "first":
        # 31.22 / TABLE 8: CD tiles for Calcutta and Delhi, BM tiles for Bombay and Madras.
        promos.update({"Delhi": ["104"], "Calcutta": ["104"], "Bombay": ["105"], "Madras": ["105"]})
    else:
        # 4.2.12: CD (500) for Calcutta and Delhi, BM (105) for Bombay and Madras, W (720).
        promos.update(
            {
                "Delhi": ["500"],
                "Calcutta": ["500"],
                "Bombay": ["105"],
                "Madras": ["105"],
                "Waltair": ["720"],
            }
        )
    return promos


# ---------------------------------------------------------------------------------------------
# Board
# ---------------------------------------------------------------------------------------------

HEX_NOTES = {
    "I23": "Ganges valley: ps18xx unshaded (used), Krazick 'Delta'; open conflict",
    "J28": "Ganges valley flag: ps18xx cannot show it on the preprinted tile, Krazick 'Delta'; "
    "the bid rule (2.5.7/14.3) names Calcutta explicitly",
    "J8": "slots: ps18xx draws one circle (used), Krazick's map says 2; open conflict",
    "K17": "slots: ps18xx draws one circle (used), Krazick's map says 2; open conflict",
    "R18": "label: ps18xx prints none (used); promotes with the BM tiles (31.22/4.2.12)",
    "G19": "name: Krazick says Rawalpindi (a duplicate id); Lucknow per the reference",
    "N22": "town: ps18xx shows a town, Krazick none; town per the reference",
    "I1": "grey off-board hex; ps18xx draws a river symbol, ignored",
}
# The field each note is about, where the hex states it (a flag left out means false).
HEX_NOTE_FIELDS = {"G19": "name", "N22": "kind", "I1": "kind"}


def build_board(board_ref: Json, edition: str) -> Json:
    hexes = []
    for h in board_ref["hexes"]:
        coord = h["coord"]
        if edition == "second" and h["col"] > SECOND_EDITION_MAX_COL:
            continue
        entry: Json = {"coord": coord, "kind": KINDS.get(h["kind"], h["kind"])}
        name = h.get("name")
        if name:
            entry["name"] = SPELLING.get(name, name)
        if h["terrain"]:
            entry["terrain"] = h["terrain"]
        if h["frontier_post"] is not None:
            entry["frontier_post"] = h["frontier_post"]
        if h["ganges_valley"]:
            entry["ganges_valley"] = True
        if coord in PREPRINTED_IDS:
            entry["preprinted"] = PREPRINTED_IDS[coord]
        if not h["playable"]:
            entry["playable"] = False
        if edition == "second" and coord == WALTAIR:
            entry.update({"kind": "large_city", "name": "Waltair", "preprinted": "Waltair"})
            entry["note"] = "derived: a town hex in the first edition; Waltair in the second"
        elif coord in HEX_NOTES:
            entry["note"] = HEX_NOTES[coord]
        hexes.append(entry)
    about = "every hex of the 1989 board from the reference (ps18xx and Krazick data sets)"
    if edition == "second":
        about = (
            "derived from the first-edition board: columns > 30 dropped (the eastern cut), "
            "Waltair added at O21 (second-edition.md)"
        )
    return {"about": about, "derived": board_derived(hexes, edition), "hexes": hexes}


def board_derived(hexes: list[Json], edition: str) -> Json:
    """The board's ``derived`` marker: every hex whose value is a choice between the sources
    (its note says which), and the second edition's cut and Waltair."""
    out: Json = {}
    if edition == "second":
        out["hexes"] = (
            "REF-2nd: the first-edition board less every hex east of column 30 (R2 'cut off in "
            "the East at the River Ganges'); the exact 2009 map is not public"
        )
    for h in hexes:
        if "note" in h:
            field = HEX_NOTE_FIELDS.get(h["coord"], "")
            path = f"hexes[coord={h['coord']}]" + (f".{field}" if field else "")
            out[path] = h["note"]
    return out


# ---------------------------------------------------------------------------------------------
# Cities: company numbers (derived from TABLE 2 areas) and bond values (2.5.9 / 14.4)
# ---------------------------------------------------------------------------------------------

BOND_VALUES = {"Calcutta": 50, "Bombay": 40, "Delhi": 40, "Madras": 30, "Waltair": 30}
GANGES_BID_CITIES = {"Cawnpore", "Lucknow", "Allahabad", "Benares", "Patna", "Calcutta"}


def _in_area(area: tuple[tuple[str, str] | None, tuple[int, int] | None], coord: str) -> bool:
    rows, cols = area
    row, col = coord[0], int(coord[1:])
    if rows is not None and not rows[0] <= row <= rows[1]:
        return False
    return cols is None or cols[0] <= col <= cols[1]


def _areas(edition: str) -> list[tuple[int, str, Any]]:
    out = []
    initials = ["EIR", "GIP", "NWR", "BNR", "BBCI", "MSM", "SIR"]
    for i, ini in enumerate(initials, start=1):
        out.append((i, ini, FIRST_AREAS[ini]))
    out.append((8, "BAR", FIRST_AREAS["BAR"]) if edition == "first" else (8, "ECR", ECR_AREA))
    return out


def build_cities(board: Json, edition: str) -> Json:
    cities = []
    for h in board["hexes"]:
        if h["kind"] not in ("city", "large_city"):
            continue
        numbers = [n for n, _, area in _areas(edition) if _in_area(area, h["coord"])]
        cities.append(
            {
                "name": h["name"],
                "hex": h["coord"],
                "companies": numbers,
                "bond_value": BOND_VALUES.get(h["name"], 20),
                "ganges_valley": h["name"] in GANGES_BID_CITIES,
            }
        )
    about = (
        "derived: company numbers are the companies whose TABLE 2 area holds the city "
        "(reproduces Delhi 1, 2, 3, 5); bond values from 2.5.9 / 14.4; Ganges bid cities "
        "2.5.7 / 14.3"
    )
    derived = {
        "cities[*].companies": "REF-2nd: the companies whose TABLE 2 area holds the city "
        "(no source prints them; reproduces the one printed set, Delhi 1 2 3 5)",
    }
    return {"about": about, "derived": derived, "cities": cities}


def check_cities_against_reference(cities: Json, md_text: str, edition: str) -> None:
    """second-edition.md prints the derived number sets; ours must reproduce them."""
    col = 2 if edition == "first" else 3
    expected: dict[str, list[int]] = {}
    for line in md_text.splitlines():
        m = re.match(r"^\|\s*([A-Z][a-z]+)\s*\|\s*([A-Z]\d+)\s*\|(.*)\|(.*)\|\s*$", line)
        if not m:
            continue
        cell = (m.group(3) if col == 2 else m.group(4)).strip()
        if cell == "-":
            continue
        expected[m.group(1)] = [int(x) for x in cell.split()]
    got = {c["name"]: c["companies"] for c in cities["cities"]}
    if got != expected:
        raise SystemExit(f"{edition}: city company numbers differ from second-edition.md")


def build_companies(board_ref: Json, edition: str) -> Json:
    ref = {c["abbrev"]: c for c in board_ref["companies"]}
    out = []
    for number, ini, area in _areas(edition):
        entry: Json = {"number": number, "initials": ini, "name": NAMES[ini]}
        if ini == "ECR":
            homes: list[Json] = [{"hex": WALTAIR, "station": "st1"}]
            par, tokens = ref["BAR"]["par"], ref["BAR"]["tokens"]
        else:
            c = ref[ini]
            par, tokens = c["par"], c["tokens"]
            homes = []
            for hh in c["home_hexes"]:
                home: Json = {"hex": hh["coord"]}
                if "station_connects_to_side" in hh:
                    home["station"] = _station_towards(board_ref, hh)
                homes.append(home)
            if ini == "BBCI":
                # 2.6.2 (second) / alternative rule 3.0 (first): the north Bombay station; the
                # first edition's exists only with that optional rule.
                if edition == "second":
                    homes.append({"hex": "M9", "station": "st1", "condition": "bbci_major"})
                else:
                    homes.append({"hex": "M9", "station": "st1",
                                  "condition": "alternative_rule_3",
                                  "variant": "alternative_rule_3"})
        entry["homes"] = homes
        entry["area"] = {
            "rows": list(area[0]) if area[0] else None,
            "cols": list(area[1]) if area[1] else None,
        }
        entry["par"] = par
        entry["base_tokens"] = tokens
        entry["colour"], entry["text_colour"] = COLOURS[ini]
        if edition == "second":
            entry["type"] = "major" if number <= 4 else ("either" if number == 5 else "minor")
        else:
            entry["type"] = "major" if number <= 4 else "minor"
        out.append(entry)
    about = (
        "TABLE 1, TABLE 2 (first-edition map references), TABLE 7; homes and pars from the "
        "reference" + ("; ECR derived (second-edition.md)" if edition == "second" else "")
    )
    return {"about": about, "derived": COMPANIES_DERIVED[edition], "companies": out}


COMPANIES_DERIVED: dict[str, Json] = {
    "first": {
        "companies[*].type": "R1 names no Majors or Minors: 31.2 gives companies 1-4 two tile "
        "lays and 5-8 one, recorded as major / minor",
        "companies[*].text_colour": "ours, for legibility on the R1 TABLE 7 colours",
    },
    "second": {
        "companies[*].area": "R2 TABLE 2 is prose only: companies 1-7 take R1's map references "
        "(the prose is the same); the ECR's rows J..R, columns 17..36 are REF-2nd's reading of "
        "'S of Calcutta, N of Madras, E of Nagpur'",
        "companies[initials=ECR]": "REF-2nd: the ECR replaces the BAR, with its par (70) and "
        "base tokens (3); home Waltair",
        "companies[initials=ECR].colour": "ours: R2 prints no colours; the BAR's light blue",
        "companies[*].text_colour": "ours, for legibility on the company colours",
    },
}


def _station_towards(board_ref: Json, home: Json) -> str:
    lc = next(h for h in board_ref["hexes"] if h["coord"] == home["coord"])["large_city"]
    for i, st in enumerate(lc["stations"], start=1):
        if st["connects_to_side"] == home["station_connects_to_side"]:
            return f"st{i}"
    raise SystemExit(f"no station of {home['coord']} towards {home['station_connects_to_side']}")


def build_tiles_file(tiles_ref: Json, edition: str) -> Json:
    about = {
        "first": "manifest: 1853 TILE MANIFEST; promotions: TABLE 8 and 31.22",
        "second": "manifest and promotions: the 2009 promotion chart; large cities: 4.2.12",
    }[edition]
    return {
        "about": about,
        "manifest": tiles_ref["manifests"][edition],
        "promotions": build_promotions(tiles_ref, edition),
    }


def _fmt(obj: Any, depth: int) -> str:
    """JSON with one record per line: readable diffs without thousands of lines."""
    pad = " " * (depth + 1)
    if depth >= 2 or not isinstance(obj, dict | list) or not obj:
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, list):
        if all(not isinstance(x, dict | list) for x in obj):
            return json.dumps(obj, ensure_ascii=False)
        items = [pad + _fmt(x, depth + 1) for x in obj]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    items = [f"{pad}{json.dumps(k)}: {_fmt(v, depth + 1)}" for k, v in obj.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def write(path: Path, data: Json) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_fmt(data, 0) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reference", type=Path, default=ROOT.parent / "shared" / "reference")
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "india1853" / "data")
    args = parser.parse_args()
    board_ref = json.loads((args.reference / "board-1853-first-edition.json").read_text())
    tiles_ref = json.loads((args.reference / "tiles-1853.json").read_text())
    md_text = (args.reference / "second-edition.md").read_text()
    about = "tile catalogue of both editions (tiles-1853.json) plus the preprinted large cities"
    tiles = build_catalogue(tiles_ref, board_ref)
    write(args.out / "tiles.json",
          {"about": about, "derived": catalogue_derived(tiles), "tiles": tiles})
    for edition in ("first", "second"):
        board = build_board(board_ref, edition)
        cities = build_cities(board, edition)
        check_cities_against_reference(cities, md_text, edition)
        write(args.out / edition / "board.json", board)
        write(args.out / edition / "cities.json", cities)
        write(args.out / edition / "companies.json", build_companies(board_ref, edition))
        write(args.out / edition / "tiles.json", build_tiles_file(tiles_ref, edition))


if __name__ == "__main__":
    main()
