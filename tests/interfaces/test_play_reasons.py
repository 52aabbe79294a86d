"""The terminal refuses a command for an option that is not possible now with the engine's
reason (the turn model's ``disabled``: the rule and the numbers), and lists such options with
their reasons (issue 20 item 1): the 60% share limit (3.1.2), a train the company cannot pay
for (4.8.8), a claim 2.5.7 forbids (at once, or by its look-ahead: the bid could not be
completed), a MIK 2 Director's Share that cannot be played now, an un-redeemed share the player
cannot pay for (2.7.4).  The loop is driven in process, as test_play.py does, from positions of
the fixture games (or a few bids written here); a refused command changes nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path

from india1853.interfaces.logfile import Table
from india1853.interfaces.terminal.console import Console
from india1853.interfaces.terminal.loop import Hotseat
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

GAMES = Path(__file__).resolve().parents[1] / "games"


def _at(fixture: str, actions: int) -> Game:
    data = json.loads((GAMES / fixture).read_text())
    return Game(Settings.from_json(data["settings"]), data["actions"][:actions])


def look_ahead_bids() -> Game:
    """Four players' bonds and a round of claims: Ann (bond £70) has named Patna.  Lucknow
    is not over the Ganges limit of two (2.5.7) but its £20 would leave £10, too little for a
    fourth city, and a bid of three cities may hold only one Ganges city besides Calcutta."""
    game = Game(Settings(players=("Ann", "Bob", "Cat", "Dan"), seed=1, edition="second"))
    for name, bond in (("Ann", 70), ("Bob", 60), ("Cat", 60), ("Dan", 60)):
        game.process(game.action("place_bond", name, amount=bond))
    for name, city, company in (("Ann", "Patna", "EIR"), ("Bob", "Lahore", "NWR"),
                                ("Dan", "Lahore", "NWR"), ("Cat", "Lahore", "NWR")):
        game.process(game.action("claim_city", name, city=city, company=company))
    return game


def _type(tmp_path: Path, game: Game, *lines: str) -> str:
    """Every seat human; ``lines`` typed at the prompts (Enter at a "pass the keyboard"
    screen first where the step is secret), then quit.  The output as one line of words."""
    log = list(game.log)
    keyboard = io.StringIO("\n".join([*lines, "quit"]) + "\n")
    out = io.StringIO()
    hotseat = Hotseat(game, Table({}), Console(keyboard, out), tmp_path / "game.json")
    assert hotseat.run() == 0
    assert game.log == log  # every command here was refused
    return " ".join(out.getvalue().split())


def test_buying_above_the_share_limit_is_refused_with_the_limit_and_the_holding(
        tmp_path: Path) -> None:
    game = _at("greedy-3p-seed3.json", 25)  # Cat holds 6 MSM shares (TABLE 3: 60%)
    out = _type(tmp_path, game, "buy MSM", "list buy")
    reason = "rule 3.1.2: at most 6 shares (60%) of one company; Cat holds 6 shares of MSM"
    assert f"error: {reason}" in out
    assert f"Not possible now: buy MSM ipo — {reason}" in out  # the full listing
    # The screen's own listing names the rule too.
    assert "Not possible now: " in out and "buy MSM ipo" in out


def test_a_train_the_company_cannot_pay_for_is_refused_with_the_money(tmp_path: Path) -> None:
    game = _at("greedy-3p-seed3.json", 69)  # GIP £180, its director Bob £70; a '2' is £300
    out = _type(tmp_path, game, "train 2")
    reason = ("rule 4.8.8: the '2' train costs £300, GIP has £180 and its director Bob £70 "
              "(£120 short)")
    assert f"error: {reason}" in out
    assert f"Not possible now: train 2 — {reason}" in out


def test_a_claim_the_ganges_rule_forbids_is_refused_with_the_rule(tmp_path: Path) -> None:
    game = _at("random-6p-seed13.json", 27)  # Bob's bid names two Ganges valley cities
    out = _type(tmp_path, game, "", "claim Calcutta EIR", "list claim")
    assert ("error: rule 2.5.7: a bid may include at most 2 Ganges valley cities; with "
            "Calcutta it would name 3") in out
    assert "Not possible now: claim Calcutta EIR — rule 2.5.7" in out


def test_a_directors_share_that_cannot_be_played_is_refused_with_the_mik2_rule(
        tmp_path: Path) -> None:
    game = _at("first/random-4p-seed2-mik2.json", 154)  # B: DS:BBCI:3, no ordinary BBCI share
    out = _type(tmp_path, game, "", "play DS:BBCI:3")
    reason = ("rule MIK 2, DIRECTOR'S SHARES: B holds no ordinary BBCI share to put in the "
              "bank pool")
    assert f"error: {reason}" in out
    assert f"Not possible now: play DS:BBCI:3 — {reason}" in out


def test_a_claim_the_ganges_look_ahead_forbids_is_refused_with_the_rule(tmp_path: Path) -> None:
    game = look_ahead_bids()
    assert any(a.get("city") == "Lahore" for a in game.legal_actions("Ann"))  # claims remain
    out = _type(tmp_path, game, "", "claim Lucknow EIR", "list claim")
    reason = ("rule 2.5.7: with Lucknow a bid of 3 cities may include only 1 of the Ganges "
              "valley cities besides Calcutta")
    assert f"error: {reason}" in out
    # Lucknow, with both its companies, is listed as not possible now rather than left out.
    assert f"Not possible now: claim Lucknow EIR — {reason}" in out
    assert f"Not possible now: claim Lucknow GIP — {reason}" in out


def test_redeeming_a_share_the_player_cannot_pay_for_is_refused_with_the_money(
        tmp_path: Path) -> None:
    game = _at("random-6p-seed13.json", 36)  # Dan: £10, an un-redeemed ECR share (par £70)
    out = _type(tmp_path, game, "redeem ECR", "list redeem")
    reason = "rule 2.7.4: redeeming one ECR share costs £70 (its par); Dan has £10"
    assert f"error: {reason}" in out
    assert f"Not possible now: redeem ECR — {reason}" in out


def test_a_purchase_that_leaves_no_company_to_direct_is_warned_at_the_prompt(
        tmp_path: Path) -> None:
    # Issue 21 item 1: Ann (£166) holds 4 GIP under Bob's 5 and 1 MSM under Cat's 6; buying
    # either leaves her too little cash for two shares of any company nobody holds.
    game = _at("greedy-3p-seed3.json", 41)
    out = _type(tmp_path, game, "list buy")
    warning = ("after this you could not become the director of any company with your cash "
               "alone (2.9.2, 3.2.1): the nearest, ECR, needs 2 more shares (£140) and you "
               "would have £70, not counting shares you might sell")
    assert f"Warning: buy GIP ipo — {warning}" in out
    assert out.count("Warning: buy GIP ipo") == 2  # on the screen and in the listing
    # What floats a company, where shares are bought (2.7.5).
    assert ("To float: EIR floats when 6 of its shares are issued, TABLE 3's qualifying "
            "number (2.7.5)") in out
