"""Board and tile pictures: content, well-formed SVG, PNG output and one-line errors."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest

from india1853.board.state import Base, BoardState, PlacedTile
from india1853.data.loader import load_edition
from india1853.data.model import Edition
from india1853.errors import InputError
from india1853.interfaces.cli import main
from india1853.interfaces.commands.render import sketch_bases, sketch_board
from india1853.interfaces.render import (
    Layout,
    render_board_svg,
    render_tiles_svg,
    svg_to_png_bytes,
)
from india1853.interfaces.render.svg import FONT, escape, quoteattr
from india1853.interfaces.render.tiles import station_positions

SVG_NS = "{http://www.w3.org/2000/svg}"


def _drawn(ed: Edition, tiles: dict[str, tuple[str, int]] | None = None,
           bases: Sequence[tuple[str, str, str | None]] = (), **kwargs: object) -> str:
    """The board of a state with ``tiles`` laid over the printed board and ``bases`` placed
    (as a game's state holds them: no check of the renderer's own)."""
    laid = {**BoardState.initial(ed).tiles,
            **{coord: PlacedTile(tile, rotation)
               for coord, (tile, rotation) in (tiles or {}).items()}}
    return render_board_svg(BoardState(ed, laid, tuple(Base(*b) for b in bases)),
                            **kwargs)  # type: ignore[arg-type]


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter(f"{SVG_NS}text")]


@pytest.fixture(scope="module", params=["first", "second"])
def board(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param, _drawn(load_edition(request.param))


def test_board_names_every_city_hex_and_frontier_post(board: tuple[str, str]) -> None:
    edition, svg = board
    ed = load_edition(edition)
    texts = set(_texts(svg))
    assert {c.name for c in ed.cities} <= texts
    assert set(ed.board.hexes) <= texts
    frontier = {f"({h.frontier_post})" for h in ed.board.hexes.values() if h.frontier_post}
    assert frontier and frontier <= texts


def _texts_at(svg: str) -> list[tuple[str, tuple[float, float]]]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [(el.text or "", (float(el.get("x", 0)), float(el.get("y", 0))))
            for el in root.iter(f"{SVG_NS}text")]


def _assert_every_city_note(edition: str, svg: str, layout: Layout) -> None:
    """Each city's company numbers and bond value are printed on its own hex (2.5.5, 2.5.9)."""
    texts = _texts_at(svg)
    for city in load_edition(edition).cities:
        cx, cy = layout.center(city.hex)
        here = {t for t, (x, y) in texts if abs(x - cx) < layout.radius
                and abs(y - cy) < layout.radius}
        assert " ".join(map(str, city.companies)) in here, city.name
        assert f"£{city.bond_value}" in here, city.name


def test_board_shows_bid_companies_bond_values_and_terrain_costs(board: tuple[str, str]) -> None:
    edition, svg = board
    ed = load_edition(edition)
    # Every city, the preprinted large cities included (Delhi's 1 2 3 5, £40).
    assert ed.board.hexes[ed.city("Delhi").hex].preprinted
    _assert_every_city_note(edition, svg, Layout(columns=36 if edition == "first" else 30))
    texts = set(_texts(svg))
    for terrain, cost in ed.costs.terrain.items():
        assert any(f"£{cost.broad}/{cost.metre}" in t for t in texts), terrain


@pytest.mark.parametrize("edition", ["first", "second"])
def test_cities_under_laid_tiles_keep_their_numbers_and_bond_value(edition: str) -> None:
    ed = load_edition(edition)
    layout = Layout(columns=36 if edition == "first" else 30)
    cd = ed.promotions["Calcutta"][0]  # 104 (first) / 500 (second) on Calcutta
    tiles = {"K17": ("14", 1), "H24": ("5", 0), "J28": (cd, 0), "M9": ("105", 1)}
    svg = _drawn(ed, tiles=tiles, bases=[("BNR", "K17", "st1")], layout=layout)
    _assert_every_city_note(edition, svg, layout)


def _ring_numbers_near(svg: str, coord: str, layout: Layout) -> list[str]:
    cx, cy = layout.center(coord)
    return [n for n, (x, y) in _home_rings_all(svg)
            if abs(x - cx) < layout.radius and abs(y - cy) < layout.radius]


def test_a_home_of_an_optional_rule_is_not_on_the_standard_board() -> None:
    # The first edition's BBCI home in Bombay exists only with Alternative Rules 3.0.
    first, layout = load_edition("first"), Layout(columns=36)
    assert "5" not in _ring_numbers_near(_drawn(first, layout=layout), "M9", layout)
    chosen = _drawn(first, layout=layout, variants=("alternative_rule_3",))
    assert "5" in _ring_numbers_near(chosen, "M9", layout)
    # The 2009 board shows it as a conditional home (2.6.2), dashed.
    second = _drawn(load_edition("second"), layout=Layout(columns=30))
    assert "5" in _ring_numbers_near(second, "M9", Layout(columns=30))
    assert second.count('stroke-dasharray="4,3"') == 1


def test_board_shades_ganges_valley_and_greys_the_margin() -> None:
    svg = _drawn(load_edition("first"))
    assert svg.count('fill="#f7d2a4"') >= 11  # the Ganges valley hexes (and the key)
    assert 'fill="#a8a8a8"' in svg


def test_placed_tiles_draw_each_gauge_differently() -> None:
    ed = load_edition("first")
    plain = _drawn(ed)
    broad = _drawn(ed, tiles={"K11": ("9", 0)})
    metre = _drawn(ed, tiles={"K11": ("79", 0)})
    dual = _drawn(ed, tiles={"K11": ("233", 0)} if "233" in ed.tiles else {
        "K17": ("102", 0)})
    assert broad.count("stroke-dasharray") == plain.count("stroke-dasharray")
    assert metre.count("stroke-dasharray") > plain.count("stroke-dasharray")
    assert len({broad, metre, dual}) == 3
    assert "79" in _texts(metre)


def test_bases_and_routes_are_drawn() -> None:
    ed = load_edition("second")
    svg = _drawn(
        ed,
        tiles={"K17": ("14", 1)},
        bases=[("BNR", "K17", "st1"), ("EIR", "F14", "st2")],
        highlight_routes=[[("S", "F14", "st2"), ("E", "F14", 4), ("E", "F16", 4)]],
    )
    texts = _texts(svg)
    assert "BNR" in texts and "EIR" in texts
    # A tile's only large station takes a base named without its station id.
    two = _texts(render_board_svg(sketch_board(ed, ["K17:14:1"], ["BNR:K17", "GIP:K17"])))
    assert "BNR" in two and "GIP" in two
    assert "NWR" in _texts(_drawn(ed, bases=[("NWR", "C11", None)]))
    root = ET.fromstring(svg.encode("utf-8"))
    assert [el for el in root.iter(f"{SVG_NS}path") if el.get("stroke") == "#e6194b"]


@pytest.mark.parametrize(
    ("tiles", "bases", "message"),
    [
        ({}, ["XYZ:K17"], "unknown company 'XYZ'"),
        ({}, ["BNR:Z99"], "bad coordinate 'Z99'"),
        ({}, ["BNR:J32"], "not on the second edition board"),
        ({}, ["BNR:K17:st9"], "no station 'st9' on K17"),
        ({}, ["BNR:K11"], "K11 has no city to hold a base"),
        ({"K11": ("9", 0)}, ["BNR:K11"], "tile 9 on K11 has no large station"),
        ({"K11": ("3", 0)}, ["BNR:K11:st1"], "is a town"),
        ({}, ["BNR:F14"], r"name the station on F14 \(one of st1, st2, st3\)"),
        ({}, ["BNR:K17", "GIP:K17"], r"no free slot for GIP on K17 \(1 slot\)"),
        ({"K17": ("14", 0)}, ["BNR:K17", "GIP:K17", "EIR:K17:st1"],
         "no free slot for EIR on K17/st1"),
    ],
)
def test_a_sketched_base_that_cannot_stand_is_an_input_error(
        tiles: dict[str, tuple[str, int]], bases: list[str], message: str) -> None:
    """``render --base``: a token never disappears silently from a sketch (4.4, 4.2.9)."""
    ed = load_edition("second")
    laid = {**BoardState.initial(ed).tiles,
            **{coord: PlacedTile(tile, rotation) for coord, (tile, rotation) in tiles.items()}}
    with pytest.raises(InputError, match=message):
        sketch_bases(BoardState(ed, laid), bases)


def test_a_bad_route_node_is_an_input_error() -> None:
    with pytest.raises(InputError, match="bad node"):
        _drawn(load_edition("second"), highlight_routes=[[("Q", "K17", 1)]])


def test_tile_sheet_lists_every_manifest_tile_with_its_count() -> None:
    ed = load_edition("first")
    svg = render_tiles_svg(ed)
    texts = set(_texts(svg))
    for tile_id, count in ed.manifest.items():
        assert f"#{tile_id}  ×{count}" in texts
    assert {"Delhi*", "Calcutta*", "Bombay*", "Madras*"} <= texts
    only = _texts(render_tiles_svg(ed, only=["3", "104"]))
    assert "#3  ×10" in only and "#104  ×2" in only and "#4  ×14" not in only
    with pytest.raises(InputError, match="unknown tile '999'"):
        render_tiles_svg(ed, only=["999"])


def test_render_command_writes_svg_and_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg_path = tmp_path / "out" / "board.svg"
    assert main(["render", "--edition", "first", "--out", str(svg_path),
                 "--tile", "K17:14:1", "--base", "BNR:K17:st1"]) == 0
    assert capsys.readouterr().out.strip() == str(svg_path)
    ET.parse(svg_path)
    png_path = tmp_path / "board.png"
    assert main(["render", "--edition", "second", "--out", str(png_path)]) == 0
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().out.strip() == str(png_path)


def test_render_tiles_command_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "tiles.svg"
    assert main(["render-tiles", "--edition", "second", "--out", str(out)]) == 0
    assert "#716  ×4" in _texts(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "--edition", "third", "--out", "{tmp}/a.svg"], "unknown edition 'third'"),
        (["render", "--out", "{tmp}/a.txt"], "expected a file name ending in .svg or .png"),
        (["render", "--out", "{tmp}/file/a.svg"], "cannot write"),
        (["render", "--out", "{tmp}/file/a.png"], "cannot write"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "Q99:9:0"], "bad coordinate 'Q99'"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17:999:0"], "unknown tile '999'"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "J32:9:0"],
         "not on the second edition board"),
        (["render", "--out", "{tmp}/a.svg", "--base", "XYZ:K17"], "unknown company 'XYZ'"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17-14"], "expected HEX:TILE:ROTATION"),
        (["render", "--out", "{tmp}/a.svg", "--base", "BNR"], "expected COMPANY:HEX"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17:14:1", "--tile", "k17:5:0"],
         "--tile 'k17:5:0': a second tile for K17"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17:3:0"],
         "--tile 'K17:3:0': tile 3 (1 town) does not fit K17 (city)"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K11:14:0"],
         "--tile 'K11:14:0': tile 14 (1 large station) does not fit K11 (plain)"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "E15:3:0"], "does not fit E15 (double town)"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "F14:7:0"],
         "--tile 'F14:7:0': F14 (large city) takes only the tiles reserved for it"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "M9:500:1"], "takes only the tiles reserved"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17:105:0"],
         "--tile 'K17:105:0': tile 105 (BM) is reserved for the large cities"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "F14:Delhi:0"], "printed on the board"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "I1:9:0"],
         "--tile 'I1:9:0': I1 is a grey margin hex"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "A1:9:0"], "bad coordinate 'A1'"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "M9:105:0"],
         "--tile 'M9:105:0': track runs off the board at rotation 0 (4.1.10 / 31.8); "
         "it fits at rotation 1"),
        (["render", "--out", "{tmp}/a.svg", "--tile", "K17:14:7"], "bad rotation 7"),
        (["render-tiles", "--out", "{tmp}/a.svg", "--only", "999"], "unknown tile '999'"),
        (["render-tiles", "--edition", "x", "--out", "{tmp}/a.svg"], "unknown edition 'x'"),
    ],
)
def test_command_errors_are_one_line_and_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (tmp_path / "file").write_text("not a directory", encoding="utf-8")
    status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert status != 0
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1
    assert not (tmp_path / "a.svg").exists()


def test_a_game_state_with_more_tokens_than_slots_shows_every_token() -> None:
    ed = load_edition("second")
    svg = _drawn(ed, tiles={"K17": ("5", 0)},
                 bases=[("BNR", "K17", "st1"), ("GIP", "K17", "st1"),
                        ("EIR", "C11", None), ("NWR", "C11", None)])
    assert {"BNR", "GIP", "EIR", "NWR"} <= set(_texts(svg))


def _home_rings_all(svg: str) -> list[tuple[str, tuple[float, float]]]:
    """Home-base rings (white circles stroked in a company colour) with the number inside."""
    root = ET.fromstring(svg.encode("utf-8"))
    colours = {c.colour for c in load_edition("second").companies}
    rings = [(float(el.get("cx", 0)), float(el.get("cy", 0)))
             for el in root.iter(f"{SVG_NS}circle")
             if el.get("fill") == "white" and el.get("stroke") in colours]
    texts = [(el.text or "", (float(el.get("x", 0)), float(el.get("y", 0))))
             for el in root.iter(f"{SVG_NS}text")]
    return [(n, xy) for n, xy in texts
            if any(abs(xy[0] - x) < 1 and abs(xy[1] - y) < 12 for x, y in rings)]


def _home_rings(svg: str) -> dict[str, tuple[float, float]]:
    return dict(_home_rings_all(svg))


def test_home_rings_follow_a_promoted_large_city_and_a_laid_city_tile() -> None:
    ed = load_edition("second")
    layout = Layout(columns=30)
    svg = _drawn(ed, tiles={"J28": ("500", 0), "H24": ("5", 0)}, layout=layout)
    rings = _home_rings(svg)
    # BNR (4) has its home at Calcutta's SW station: preprinted st3, tile 500's st1 at rotation 0.
    at = station_positions(ed.tiles["500"], 0, layout.center("J28"), layout.radius)
    assert abs(rings["4"][0] - at["st1"][0]) < 1 and abs(rings["4"][1] - at["st1"][1]) < 12
    # EIR (1): Patna's ring moves onto the laid tile's station (its centre).
    patna = layout.center("H24")
    assert any(abs(x - patna[0]) < 1 and abs(y - patna[1]) < 12
               for n, (x, y) in _home_rings_all(svg) if n == "1")
    # Once EIR's token is on its Calcutta station the ring there is gone; on a tile that is no
    # legal promotion of Calcutta no ring is drawn at all (and nothing fails).
    token = _drawn(ed, tiles={"J28": ("500", 0)}, bases=[("EIR", "J28", "st3")],
                             layout=layout)
    assert "1" not in [n for n, (x, y) in _home_rings_all(token)
                       if abs(y - layout.center("J28")[1]) < layout.radius]
    wrong = _drawn(ed, tiles={"J28": ("5", 0)}, layout=layout)
    assert not [n for n, (x, y) in _home_rings_all(wrong)
                if abs(x - layout.center("J28")[0]) < layout.radius
                and abs(y - layout.center("J28")[1]) < layout.radius]


def test_an_unwritable_png_names_the_cause(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert main(["render", "--out", str(tmp_path / "file" / "a.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot write") and "directory" in err.lower()


def test_png_text_is_drawn_with_the_bundled_fonts() -> None:
    # Without a usable font resvg draws no text at all: the two pictures would be the same.
    frame = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">'
             '<rect width="120" height="40" fill="white"/>{}</svg>')
    text = f'<text x="5" y="28" font-family="{FONT}" font-size="20">Delhi</text>'
    blank, written = svg_to_png_bytes(frame.format("")), svg_to_png_bytes(frame.format(text))
    assert blank[:8] == written[:8] == b"\x89PNG\r\n\x1a\n"
    assert blank != written
    bold = svg_to_png_bytes(frame.format(text.replace("<text ", '<text font-weight="bold" ')))
    assert bold != written


def test_a_missing_rasteriser_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import resvg_py now fails
    assert main(["render", "--out", str(tmp_path / "a.png")]) == 2
    err = capsys.readouterr().err
    assert err == ("error: PNG output needs the resvg-py package (pip install resvg-py); "
                   "write .svg instead\n")
    assert not (tmp_path / "a.png").exists()


def test_a_failing_rasteriser_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import resvg_py

    def broken(**_: object) -> bytes:
        raise ValueError("the document does not have a root node\nmore detail")

    monkeypatch.setattr(resvg_py, "svg_to_bytes", broken)
    assert main(["render-tiles", "--out", str(tmp_path / "a.png")]) == 2
    err = capsys.readouterr().err
    assert err == ("error: PNG output: the rasteriser failed: the document does not have a "
                   "root node\n")


def test_every_hex_has_a_named_titled_click_target(board: tuple[str, str]) -> None:
    """The web page's hooks: one invisible polygon per hex with ``data-hex`` and a <title>."""
    edition, svg = board
    ed = load_edition(edition)
    root = ET.fromstring(svg.encode("utf-8"))
    targets = {el.get("data-hex"): el for el in root.iter(f"{SVG_NS}polygon")
               if el.get("class") == "hex-target"}
    assert set(targets) == set(ed.board.hexes)
    for coord, el in targets.items():
        assert el.get("fill-opacity") == "0"
        title = el.find(f"{SVG_NS}title")
        assert title is not None and title.text is not None
        assert title.text.startswith(coord)
        name = ed.board.hexes[coord].name
        assert name is None or name in title.text


def test_pale_grey_hexes_are_drawn_pale_grey_and_playable() -> None:
    """First edition map notes: E1, G1 and I1 are pale grey, "used in the normal way"."""
    ed = load_edition("first")
    pale = sorted(h.coord for h in ed.board.hexes.values() if h.pale_grey)
    assert pale == ["E1", "G1", "I1"]
    assert all(h.playable for h in ed.board.hexes.values() if h.pale_grey)
    svg = _drawn(ed)
    assert svg.count('fill="#dcdcd8"') == 3
    assert 'fill="#dcdcd8"' not in _drawn(load_edition("second"))


def test_a_painter_that_kept_earlier_boards_draws_each_as_drawn_from_scratch() -> None:
    """Issue 21 item 9: the web server's painter keeps each hex's drawing by content (tile,
    rotation, tokens); a board drawn after others - tiles laid, promoted, bases placed, then
    an earlier board again (an undo) - is the same picture, element for element, as a new
    painter's."""
    import json

    from india1853.interfaces.render.board import BoardPainter
    from india1853.rules.game import Game, Settings

    log = json.loads((Path(__file__).parents[1] / "games" / "random-4p-seed12.json")
                     .read_text())
    settings = Settings.from_json(log["settings"])
    game = Game.replay(settings, log["actions"][:803], check=False)
    painter = BoardPainter(game.rules.ed)
    first = game.at(750).state.board
    painter.svg(first)
    boards = []
    for n in range(751, 804):  # 11 tiles laid or promoted, a base
        boards.append(game.at(n).state.board)
        painter.svg(boards[-1])
    assert any(a["type"] == "place_base" for a in log["actions"][750:803])
    for board in (boards[20], boards[-1], first):
        assert painter.svg(board) == BoardPainter(board.edition).svg(board)
    assert painter.svg(first) != painter.svg(boards[-1])


@pytest.mark.parametrize("text", ["", "Ann", "a&b<c>d", 'say "hi"', "it's", """both ' and \"""",
                                  "line\nend\r\ttab", "&amp; already", "é 🐘"])
def test_the_xml_escaping_is_the_standard_librarys(text: str) -> None:
    """The SVG writer's own escape and quoteattr (xml.sax is not imported: it would import
    urllib, http, email and ssl into every command that draws) give saxutils's text."""
    from xml.sax.saxutils import escape as sax_escape
    from xml.sax.saxutils import quoteattr as sax_quoteattr

    assert escape(text) == sax_escape(text)
    assert quoteattr(text) == sax_quoteattr(text)
