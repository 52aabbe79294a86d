"""The engine's answers for a newcomer (issue 21 items 1 and 5): what floats a company (2.7.5 /
16.7), the warning on an option that would leave the player no company to direct (2.9.2,
3.2.1), and a contract's progress with the warning when the game's end puts it out of reach
(4.3.1, 5.1.2).  Positions come from the fixture games, replayed through the public API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from india1853.rules.game import Game, Settings
from india1853.rules.game.turn import turn_model

GAMES = Path(__file__).resolve().parents[1] / "games"


def _at(fixture: str, actions: int) -> Game:
    data = json.loads((GAMES / fixture).read_text())
    # A trusted log (test_fixtures.py replays every one checked): replayed without checks.
    return Game.replay(Settings.from_json(data["settings"]), data["actions"][:actions],
                       check=False)


def _options(model: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for d in model["decisions"] for o in d["options"]]


def test_the_share_table_says_what_floats_a_company_in_each_edition() -> None:
    second = turn_model(_at("greedy-3p-seed3.json", 41), None)
    ecr = next(c for c in second["tables"]["companies"] if c["initials"] == "ECR")
    assert ecr["float"] == {
        "qualifying": 6, "issued": 0, "needed": 6, "floated": False, "rule": "2.7.5",
        "text": "ECR floats when 6 of its shares are issued, TABLE 3's qualifying number "
                "(2.7.5): 0 issued, 6 more needed; its director is the largest holder of at "
                "least 2 shares (2.9.2, 3.2.1)"}
    gip = next(c for c in second["tables"]["companies"] if c["initials"] == "GIP")
    assert gip["float"]["floated"] and gip["float"]["needed"] == 0
    first = turn_model(_at("first/greedy-4p-seed5.json", 8), None)
    texts = [c["float"]["text"] for c in first["tables"]["companies"]]
    assert all("(16.7)" in t and "(22.1)" in t and "2.7.5" not in t for t in texts)
    assert {c["float"]["rule"] for c in first["tables"]["companies"]} == {"16.7"}


def test_a_purchase_that_leaves_no_company_to_direct_carries_the_engines_warning() -> None:
    # Ann (£166) holds 4 GIP under Bob's 5 and 1 MSM under Cat's 6: only a company nobody
    # holds is left to her, the cheapest ECR at £70 a share.
    model = turn_model(_at("greedy-3p-seed3.json", 41), "Ann")
    by_label = {o["label"]: o for o in _options(model)}
    warning = by_label["Buy GIP from the offering"]["warning"]
    assert warning == ("after this you could not become the director of any company with your "
                       "cash alone (2.9.2, 3.2.1): the nearest, ECR, needs 2 more shares (£140) "
                       "and you would have £70, not counting shares you might sell")
    assert "£86" in by_label["Buy MSM from the offering"]["warning"]
    # Passing or selling leaves her cash as it is: no warning.
    assert "warning" not in by_label["Pass"]
    assert not any("warning" in o for o in _options(model) if o["type"] == "sell_shares")
    # Nobody else's model carries it.
    assert "could not become the director" not in json.dumps(turn_model(
        _at("greedy-3p-seed3.json", 41), "Bob"))


def test_a_claim_that_leaves_no_company_to_direct_is_warned_and_a_safe_one_is_not() -> None:
    # Ann's bid has one city left and £0 beyond its shares; she holds one share each of EIR,
    # ECR, BBCI, NWR and BNR (the claims spread, as in the issue): a second share of one of
    # them makes her its director to be, a share of a company she does not hold leaves her none.
    model = turn_model(_at("random-3p-seed3.json", 18), "Ann")
    claims = [o for o in _options(model) if o["type"] == "claim_city"]
    warned = {o["ui"]["company"] for o in claims if "warning" in o}
    safe = {o["ui"]["company"] for o in claims if "warning" not in o}
    assert warned == {"GIP", "MSM", "SIR"}
    assert safe == {"EIR", "ECR", "BBCI", "NWR", "BNR"}
    assert all(o["warning"].startswith("after this you could not become the director of any "
                                       "company with your cash alone (2.9.2, 3.2.1)")
               for o in claims if "warning" in o)


def test_a_first_edition_warning_cites_the_1989_rules() -> None:
    game = _at("first/greedy-4p-seed11-long-game.json", 34)
    model = turn_model(game, "C")
    warned = [o for o in _options(model) if "warning" in o]
    assert warned and all("(22.1)" in o["warning"] for o in warned)


def _progress(game: Game, player: str) -> dict[str, Any]:
    contract = turn_model(game, player)["tables"]["contract"]
    assert contract is not None and contract["player"] == player
    progress: dict[str, Any] = contract["progress"]
    return progress


@pytest.fixture(scope="module")
def late() -> dict[int, Game]:
    """random-5p-seed2-shortened's end, replayed once: the game after 2300, 2367, 2405 and
    2409 actions.  Dan's bid names Mysore, which nobody joins."""
    data = json.loads((GAMES / "random-5p-seed2-shortened.json").read_text())
    game = Game.replay(Settings.from_json(data["settings"]), data["actions"][:2300],
                       check=False)
    out = {2300: game.fork()}
    for n in (2367, 2405, 2409):
        for action in data["actions"][len(game.log):n]:
            game.process(action)
        out[n] = game.fork()
    return out


def test_contract_progress_per_city_and_the_warning_when_the_end_puts_it_out_of_reach(
        late: dict[int, Game]) -> None:
    # The bank broke in the stock round: this operating round is the last (5.1.2); EIR, the
    # first of its eight companies, is laying track (two lays each at most, 4.1.3).
    progress = _progress(late[2367], "Dan")
    connected = {c["name"]: c["connected"] for c in progress["cities"]}
    assert connected == {"Mysore": False, "Lucknow": True, "Allahabad": True,
                         "Ajmer": True, "Karachi": True}
    assert progress["tiles_needed"] == 1 and progress["lays_left"] == 16
    assert progress["warning"] is None and progress["status"].startswith("3 groups")
    # ECR, the last company, has laid its track: nothing can join Mysore any more.
    progress = _progress(late[2405], "Dan")
    assert progress["lays_left"] == 0
    assert progress["warning"] == (
        "out of reach: the bank has broken, so the game ends with this operating round "
        "(5.1.2); joining the cities needs at least 1 more tile lays or promotions and at most "
        "0 can still be made (4.1.3); the bond is not counted in the score (5.2.1)")
    assert late[2409].finished
    assert _progress(late[2409], "Dan")["warning"].startswith("not fulfilled: the game is over")


def test_contract_progress_before_the_end_is_known_gives_no_warning(
        late: dict[int, Game]) -> None:
    progress = _progress(late[2300], "Dan")
    assert progress["lays_left"] is None and progress["warning"] is None


def test_another_players_contract_progress_is_never_in_the_model(
        late: dict[int, Game]) -> None:
    for viewer in ("Ann", "Bob", None):
        model = turn_model(late[2405], viewer)
        contract = model["tables"]["contract"]
        assert contract is None or contract["player"] == viewer
        assert "Mysore" not in json.dumps(model["tables"]["contract"])
