"""The hotseat loop in process: a "player" types the command text of each listed option.

A greedy bot decides for Ann, but its choice reaches the game only as the words Ann would type
(``lay H24 5 1``, ``buy GIP ipo``, ``run``, ``payout``), through the real parser and loop; every
other listed option must read back as itself too.  Bad lines are mixed in and must leave the
game alone.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from india1853.errors import India1853Error
from india1853.interfaces.bots import ask, make_bot
from india1853.interfaces.logfile import Table, load_game
from india1853.interfaces.terminal.console import Console
from india1853.interfaces.terminal.loop import Hotseat
from india1853.interfaces.terminal.parse import (
    Choice,
    CommandError,
    Meta,
    Request,
    in_command_words,
    parse,
    resolve,
)
from india1853.interfaces.terminal.screen import legal_actions, option_text
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings
from india1853.rules.game.turn import turn_model


class Keyboard(io.StringIO):
    """Ann's keyboard: each line read is the command text of the greedy bot's choice, after a
    garbage line every few decisions (which must be refused without effect)."""

    def __init__(self, hotseat_ref: list[Hotseat], limit: int) -> None:
        super().__init__()
        self.ref = hotseat_ref
        self.bot = make_bot("greedy", "Ann", 1)
        self.limit = limit
        self.decisions = 0
        self.garbage_sent = 0
        self.pending_garbage = False
        self.checked_options = 0
        self.meta_sent = 0

    def readline(self, size: int | None = -1) -> str:
        game = self.ref[0].game
        if game.finished or self.decisions >= self.limit:
            return "quit\n"
        entity, entity_type = game.active_entities()[0]
        if entity_type == "company" and self.meta_sent < 2 and not self.pending_garbage:
            # Table commands answer and give the same prompt back.
            self.pending_garbage = True
            self.meta_sent += 1
            return ["routes", "show board"][self.meta_sent - 1] + "\n"
        if self.decisions % 7 == 3 and not self.pending_garbage:
            self.pending_garbage = True
            self.garbage_sent += 1
            return ["xyzzy", "0", "lay Z99 1 1", "sell", "bond -3"][self.garbage_sent % 5] + "\n"
        self.pending_garbage = False
        # The listed options are the screen's (the turn model's, which asked the engine for
        # the legal actions once): each must read back as itself.
        legal = legal_actions(self.ref[0].model, entity)
        for action in legal[:60]:
            text = option_text(action)
            command = parse(text, company_turn=entity_type == "company")
            assert isinstance(command, Request), text
            assert resolve(command, legal, entity, entity_type) == action, text
            self.checked_options += 1
        choice = ask(self.bot, game, entity)
        self.decisions += 1
        return option_text(choice) + "\n"


def _play(tmp_path: Path, limit: int) -> tuple[Hotseat, Keyboard, str]:
    ref: list[Hotseat] = []
    keyboard = Keyboard(ref, limit)
    out = io.StringIO()
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=4))
    hotseat = Hotseat(game, Table({"Bob": "greedy", "Cat": "greedy"}),
                      Console(keyboard, out), tmp_path / "game.json")
    ref.append(hotseat)
    assert hotseat.run() == 0
    return hotseat, keyboard, out.getvalue()


def test_a_human_typing_commands_plays_to_the_end(tmp_path: Path) -> None:
    hotseat, keyboard, screen = _play(tmp_path, limit=10_000)
    game = hotseat.game
    assert game.finished
    assert keyboard.decisions > 50
    assert keyboard.garbage_sent > 5
    assert screen.count("error: ") >= keyboard.garbage_sent
    kinds = {a["type"] for a in game.log if a["entity"] == "Ann" or a["entity_type"] ==
             "company"}
    assert {"place_bond", "claim_city", "buy_share", "lay_tile", "run_routes", "dividend",
            "buy_train"} <= kinds
    assert "Final scores (5.2)" in screen
    assert keyboard.meta_sent == 2
    assert re.search(r"[A-Z]+: (optimal run £\d+|no train can run)", screen)
    assert (tmp_path / "game.board.svg").read_text(encoding="utf-8").startswith("<")
    # The save file is the game, action for action.
    saved, table = load_game(tmp_path / "game.json")
    assert saved.log == game.log and saved.finished
    assert table.bots == {"Bob": "greedy", "Cat": "greedy"}


def test_quitting_saves_and_loading_resumes(tmp_path: Path) -> None:
    hotseat, _, screen = _play(tmp_path, limit=6)
    assert "resume it with india1853 play --load" in " ".join(screen.split())
    saved, _ = load_game(tmp_path / "game.json")
    assert saved.log == hotseat.game.log and not saved.finished


@pytest.mark.parametrize(("line", "expected"), [
    ("lay H24 5 1", Request("lay_tile", {"hex": "H24", "tile": "5", "rotation": 1})),
    ("promote g17 14 0", Request("promote_tile", {"hex": "G17", "tile": "14", "rotation": 0})),
    ("buy GIP", Request("buy_share", {"company": "GIP"})),
    ("buy gip pool", Request("buy_share", {"company": "GIP", "source": "pool"})),
    ("sell NWR 2", Request("sell_shares", {"company": "NWR", "count": 2})),
    ("sell NWR", Request("sell_shares", {"company": "NWR", "count": 1})),
    ("pass", Request("pass")),
    ("bond £120", Request("place_bond", {"amount": 120})),
    ("claim Calcutta EIR", Request("claim_city", {"city": "Calcutta", "company": "EIR"})),
    ("train 2M from EIR 10", Request("buy_train", {"train": "2M", "source": "EIR",
                                                   "price": 10})),
    ("offer Bob 30", Request("offer_elephant", {"buyer": "Bob", "price": 30})),
    ("12", Choice(12)),
    ("show board", Meta("board")),
    ("routes", Meta("routes")),
    ("undo", Meta("undo")),
    ("help", Meta("help")),
    ("list lay", Meta("list", "lay")),
])
def test_commands_parse(line: str, expected: Any) -> None:
    assert parse(line) == expected


def test_buy_on_a_company_turn_buys_a_train() -> None:
    assert parse("buy 3", company_turn=True) == Request("buy_train", {"train": "3"})


@pytest.mark.parametrize(("line", "message"), [
    ("", "type a number from the list"),
    ("fly EIR", "unknown command 'fly'"),
    ("lay H24 5", "usage: lay HEX TILE ROTATION"),
    ("sell NWR two", "count: 'two' is not a whole number"),
    # Only ASCII digits (issue 13, item 6): other scripts' digits would be taken unseen at a
    # hidden prompt.
    ("sell NWR \uff15", "count: '\uff15' is not a whole number \\(digits 0-9\\)"),
    ("bond \u0661\u0660\u0660", "bond: '\u0661\u0660\u0660' is not a whole number"),
    ("bond 1_00", "bond: '1_00' is not a whole number"),
    ("\u0661\u0660", "type numbers with the digits 0-9"),
    ("\uff15", "type numbers with the digits 0-9"),
    ("\u00b2", "type numbers with the digits 0-9"),
    ("lay H24 5 \u0661", "rotation: '\u0661' is not a whole number"),
    ("buy GIP shop", "buy: source 'shop' is not ipo or pool"),
    ("3 4", "a number stands alone"),
    ("bond -5", "bond: must not be negative"),
    # Words left over after a complete command are refused, never dropped.
    ("sell EIR 1 2", "sell: '2' left over"),
    ("buy GIP ipo now", "buy: 'now' left over"),
    ("pass please", "pass: 'please' left over"),
    ("run fast", "run: 'fast' left over"),
    ("payout all of it", "payout: 'all of it' left over"),
    ("bond 100 200", "bond: '200' left over"),
    ("option 1 2", "option: '2' left over"),
    ("redeem GIP 2", "redeem: '2' left over"),
    ("offer Bob 30 40", "offer: '40' left over"),
    ("base H24 A B", "base: 'B' left over"),
    ("discard 3 4", "discard: '4' left over"),
    ("undo 2", "undo: '2' left over"),
    ("show board now", "board: 'now' left over"),
    ("list lay tile", "list: 'tile' left over"),
    ("mybid Ann", "mybid: 'Ann' left over"),
    ("train 3 from EIR 10 20", "usage: train NAME"),
])
def test_bad_lines_raise_one_line_errors(line: str, message: str) -> None:
    with pytest.raises(CommandError, match=message) as info:
        parse(line)
    assert "\n" not in str(info.value)


def test_an_illegal_request_goes_to_the_engine_which_names_the_rule(tmp_path: Path) -> None:
    game = Game(Settings(("Ann", "Bob", "Cat")))
    legal = game.legal_actions("Ann")
    action = resolve(parse("bond 10"), legal, "Ann", "player")  # type: ignore[arg-type]
    with pytest.raises(India1853Error, match=r"rule 2\.5\.2"):
        game.process({**action, "id": 1, "created_at": 0})
    assert game.log == []
    assert json.dumps(game.to_log())


@pytest.mark.parametrize(("line", "entity", "entity_type", "message"), [
    ("lay H24 5 1", "Ann", "player", "lay: only a company does that, and it is Ann's turn"),
    ("run", "Ann", "player", "run: only a company does that"),
    ("bond 100", "EIR", "company", "bond: only a player does that, and it is EIR's turn"),
])
def test_a_command_for_the_other_kind_of_entity_is_explained(
        line: str, entity: str, entity_type: str, message: str) -> None:
    command = parse(line, company_turn=entity_type == "company")
    assert isinstance(command, Request)
    with pytest.raises(CommandError, match=message):
        resolve(command, [], entity, entity_type)


def test_claim_with_words_left_over_after_the_company_is_refused() -> None:
    """Issue 13, item 7: ``claim calcutta eir extra`` is not the city "calcutta eir"."""
    game = Game(Settings(("Ann", "Bob", "Cat")))
    game.process(game.action("place_bond", "Ann", amount=100))
    game.process(game.action("place_bond", "Bob", amount=100))
    game.process(game.action("place_bond", "Cat", amount=100))
    entity = game.active_entities()[0][0]
    legal = game.legal_actions(entity)
    with pytest.raises(CommandError, match=r"claim: 'extra' left over \(usage: claim CITY "
                       r"COMPANY\)"):
        resolve(parse("claim calcutta eir extra"), legal, entity, "player")  # type: ignore[arg-type]
    with pytest.raises(CommandError, match=r"claim: 'and more' left over"):
        resolve(parse("claim Calcutta EIR and more"), legal, entity, "player")  # type: ignore[arg-type]
    action = resolve(parse("claim delhi eir"), legal, entity, "player")  # type: ignore[arg-type]
    assert (action["city"], action["company"]) == ("Delhi", "EIR")


@pytest.mark.parametrize(("message", "words"), [
    ("rule 2.5.4: place_bond is not possible now; expected claim_city or pass",
     "rule 2.5.4: 'bond' is not possible now; expected 'claim' or 'pass'"),
    ("action sell_shares.count: must be at least 1", "sell, the count: must be at least 1"),
    ("rule 4.1: dividend is not possible now; expected lay_tile or promote_tile or pass",
     "rule 4.1: 'payout/withhold' is not possible now; expected 'lay' or 'promote' or 'pass'"),
    # Elsewhere "dividend" and "pass" are words, not commands.
    ("rule 3.4.2: EIR is run by a manager, who must not declare a dividend; its run was "
     "withheld", "rule 3.4.2: EIR is run by a manager, who must not declare a dividend; its run "
     "was withheld"),
    ("rule 4.8.9: a train may pass to another company", "rule 4.8.9: a train may pass to "
     "another company"),
    ("rule 2.7.4: buy_share refused", "rule 2.7.4: 'buy' refused"),
])
def test_engine_messages_are_put_in_the_words_of_the_commands(message: str, words: str) -> None:
    assert in_command_words(message) == words


def test_help_shows_every_command_with_its_optional_words() -> None:
    from rich.console import Console as RichConsole

    from india1853.interfaces.terminal.parse import HELP
    from india1853.interfaces.terminal.screen import help_table

    console = RichConsole(file=io.StringIO(), width=200, color_system=None)
    console.print(help_table())
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "buy COMPANY [ipo|pool]" in text
    assert "train NAME [token] [credit] [from COMPANY PRICE]" in text
    assert all(cmd in text for cmd, _ in HELP)


def test_the_train_market_lists_dual_option_cards_with_both_prices() -> None:
    from india1853.interfaces.terminal.screen import train_market

    players = ("Ann", "Bob", "Cat")
    game = Game(Settings(players, seed=5))
    bots = {p: make_bot("greedy", p, i) for i, p in enumerate(players)}
    # Greedy play reaches the first operating round, where the 3-player game's '2' cards are
    # '2/1M' cards (4.8.16), within a few dozen actions.
    while game.state.round != "operating":
        entity, kind = game.active_entities()[0]
        view = game.view(None)
        who = entity if kind == "player" else str(view["companies"][entity]["director"])
        action = ask(bots[who], game, entity)
        game.process({**action, "id": game.next_id(), "created_at": 0})
    cards = {t["card"] for t in game.view(None)["trains"] if t["where"] == "bank"}
    assert "2/1M" in cards
    text = train_market(turn_model(game, None)).plain
    assert all(f"'{card}' ×" in text for card in cards)
    assert text.startswith("Trains: '2/1M' ×7 £300/£180, '3' ×5 £440")


def test_the_run_option_says_what_the_optimal_run_earns() -> None:
    from india1853.interfaces.game_render import optimal_run
    from india1853.interfaces.terminal.screen import option_note

    players = ("Ann", "Bob", "Cat")
    game = Game(Settings(players, seed=5))
    bots = {p: make_bot("greedy", p, i) for i, p in enumerate(players)}
    while True:
        entity, kind = game.active_entities()[0]
        legal = game.legal_actions(entity)
        runs = [a for a in legal if a["type"] == "run_routes" and a.get("routes")]
        if runs:
            break
        view = game.view(None)
        who = entity if kind == "player" else str(view["companies"][entity]["director"])
        action = ask(bots[who], game, entity)
        game.process({**action, "id": game.next_id(), "created_at": 0})
    best = optimal_run(game, entity)
    model = turn_model(game, str(game.view(None)["companies"][entity]["director"]))
    run = next(o for o in model["decisions"][0]["options"] if o["type"] == "run_routes")
    note = option_note(run)
    assert best.total > 0 and note.startswith(f"optimal run £{best.total}: '")
    assert "-".join(best.routes[0].hexes) in note


def test_bytes_not_in_the_terminals_encoding_are_an_unknown_command(tmp_path: Path) -> None:
    """A Latin-1 "£" or a stray byte typed at a UTF-8 prompt gets one error line and the same
    prompt, never a decoding traceback (stdin decoded strictly, as in a UTF-8 locale)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "india1853.interfaces.cli", "play", "--players", "Ann,Bob,Cat",
         "--bots", "Bob,Cat", "--seed", "1", "--save", str(tmp_path / "g.json")],
        input=b"bond \xa3100\n\xff\xfe\nbond 100\nquit\n", capture_output=True, env=env,
        timeout=120, check=False)
    out = done.stdout.decode("utf-8", "replace")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in done.stderr.decode("utf-8", "replace")
    assert "error: bond: '\ufffd100' is not a whole number" in out
    assert "error: unknown command '\ufffd\ufffd'" in out
    assert [a["type"] for a in json.loads((tmp_path / "g.json").read_text())["actions"]][:1] == [
        "place_bond"]
