"""The hotseat loop in process, at a table of humans and bots: undo (only one's own moves, and
the lines taken back leave the screen), every bot move since a player's last turn on his screen,
``mybid``, and the costs beside the options.

A script answers each prompt: a function of the table and the prompt may type a given line; by
default a human types the command text of the greedy bot's choice for him (through the real
parser), and presses Enter at a "press Enter" prompt.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console as RichConsole

from india1853.errors import India1853Error, RuleError
from india1853.interfaces.bots import ask, make_bot
from india1853.interfaces.logfile import Table, load_game
from india1853.interfaces.narrate import game_log
from india1853.interfaces.simulate import decider as public_decider
from india1853.interfaces.terminal.console import Console, EndOfInput
from india1853.interfaces.terminal.loop import RECENT_LINES, Hotseat
from india1853.interfaces.terminal.screen import cost_text, option_note, option_text
from india1853.rules.game.game import Game, effective_actions
from india1853.rules.game.settings import Settings
from india1853.rules.game.turn import turn_model

# A script step: given the table and the prompt shown, the line to type, or None for the
# default (the greedy choice, or Enter).
Step = Callable[["Sitting", str], str | None]
GAMES = Path(__file__).resolve().parents[1] / "games"
SEPARATOR = "=" * 40  # what Console.clear prints when the output is not a terminal


class Keyboard(io.StringIO):
    def __init__(self, sitting: Sitting) -> None:
        super().__init__()
        self.sitting = sitting

    def readline(self, size: int | None = -1) -> str:
        return self.sitting.answer() + "\n"


class Sitting:
    """A hotseat game driven by a script; ``out`` is everything printed."""

    def __init__(self, tmp_path: Path, players: tuple[str, ...], bots: tuple[str, ...],
                 seed: int, step: Step, limit: int = 400) -> None:
        self.out = io.StringIO()
        self.step = step
        self.limit = limit
        self.answers = 0
        self.typed: list[tuple[str, int, int]] = []  # (line, log length, output position)
        self.minds = {p: make_bot("greedy", p, 1) for p in players if p not in bots}
        self.hotseat = Hotseat(Game(Settings(players, seed=seed)),
                               Table(dict.fromkeys(bots, "greedy")),
                               Console(Keyboard(self), self.out), tmp_path / "game.json")

    @property
    def game(self) -> Game:
        return self.hotseat.game

    def prompt(self) -> str:
        return self.out.getvalue().rsplit("\n", 1)[-1]

    def entity(self) -> tuple[str, str]:
        return self.game.active_entities()[0]

    def player(self) -> str:
        entity, _ = self.entity()
        return public_decider(self.game, entity)

    def greedy_line(self) -> str:
        entity, _ = self.entity()
        player = self.player()
        choice = ask(self.minds[player], self.game, entity)
        return option_text(choice)

    def answer(self) -> str:
        self.answers += 1
        if self.answers > self.limit or self.game.finished:
            return "quit"
        prompt = self.prompt()
        line = self.step(self, prompt)
        if line is None:
            line = "" if "press Enter" in prompt else self.greedy_line()
        self.typed.append((line, len(self.game.log), len(self.out.getvalue())))
        return line

    def run(self) -> str:
        assert self.hotseat.run() == 0
        return self.out.getvalue()


def _decision(prompt: str) -> bool:
    return prompt.endswith("> ") or prompt.endswith("(hidden) ")


def _plain(text: str) -> str:
    """Text without the panels' borders, in single spaces (a long line may wrap)."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


# --- undo -------------------------------------------------------------------------------------


def test_undo_never_takes_back_another_humans_move(tmp_path: Path) -> None:
    """Ann and Bob at the keyboard: when Bob's turn comes in the bids, Ann has claimed since
    Bob's last move, so Bob's undo is refused in plain words and changes nothing."""
    tried: list[int] = []

    def step(s: Sitting, prompt: str) -> str | None:
        if not _decision(prompt):
            return None
        entity, _ = s.entity()
        if s.game.state.round == "claims" and entity == "Bob":
            if tried:
                return "quit"
            tried.append(len(s.game.log))
            return "undo"
        return None

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Cat",), seed=3, step=step)
    out = s.run()
    assert tried, "Bob never had a claims turn"
    claimed = [a for a in s.game.log if a["type"] == "claim_city"]
    assert any(a["entity"] == "Ann" for a in claimed)
    assert re.search(r"error: undo: Ann has acted since your last action, and nobody may take "
                     r"back another player's move", _plain(out))
    assert len(s.game.log) == tried[0]
    assert not any(a["type"] == "undo" for a in s.game.log)
    saved, _ = load_game(tmp_path / "game.json")
    assert saved.log == s.game.log


def test_undo_takes_back_ones_own_move_and_the_bots_and_their_lines_leave_the_screen(
        tmp_path: Path) -> None:
    """Ann buys a share in the first stock round, the bots move, Ann types undo: her buy and
    the bots' moves are taken back, and the next screen shows none of their lines; redo puts
    her buy back."""
    marks: dict[str, Any] = {}

    def step(s: Sitting, prompt: str) -> str | None:
        if not _decision(prompt) or s.game.state.round != "stock" or s.entity()[0] != "Ann":
            return None
        if "buy" not in marks:
            buys = [a for a in s.game.legal_actions("Ann") if a["type"] == "buy_share"]
            marks["buy"] = len(effective_actions(s.game.log))
            return option_text(buys[0])
        if "undo" not in marks:
            marks["undo"] = len(s.out.getvalue())
            marks["undone"] = effective_actions(s.game.log)[marks["buy"]:]
            return "undo"
        if "redo" not in marks:
            marks["screen"] = s.out.getvalue()[marks["undo"]:]
            marks["redo"] = len(s.out.getvalue())
            return "redo"
        return "quit"

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Bob", "Cat"), seed=4, step=step)
    s.run()
    undone = marks["undone"]
    assert undone[0]["entity"] == "Ann" and len(undone) > 1, "no bot moved after Ann's buy"
    # The narration of the moves taken back, as the screen told them before.
    replay = Game.replay(s.game.settings, effective_actions(s.game.log)[:marks["buy"]],
                         check=False)
    renumbered = [{**a, "id": marks["buy"] + i + 1} for i, a in enumerate(undone)]
    told = [line for entry in game_log(replay, renumbered) for line in entry.lines]
    assert told[0].startswith("Ann buys a share of ")
    # The Recent panel is the narration of the moves still in force, and the undo.
    screen = _plain(marks["screen"].rsplit(SEPARATOR, 1)[-1])
    panel = screen.split(" Recent ", 1)[1].split(" Your options", 1)[0]
    kept = effective_actions(s.game.log)[:marks["buy"]]
    lines = [line for entry in game_log(Game(s.game.settings),
                                        [{**a, "id": i + 1} for i, a in enumerate(kept)])
             for line in entry.lines]
    note = (f"Ann's last action is taken back, with the {len(undone) - 1} bot action"
            f"{'s' if len(undone) > 2 else ''} after it (the bots decide again)")
    assert panel == _plain(" ".join([*lines, note][-RECENT_LINES:]))
    assert _plain(told[0]) not in panel
    # Redo puts Ann's buy back (and only hers: the bots decide again).
    assert effective_actions(s.game.log)[marks["buy"]] == undone[0]
    after_redo = _plain(s.out.getvalue()[marks["redo"]:])
    assert _plain(told[0]) in after_redo


def test_the_engines_refusal_to_undo_a_revelation_is_shown_and_changes_nothing(
        tmp_path: Path) -> None:
    """Ann places the last bond, which reveals every bond (2.5.3): at her next turn undo would
    take back that bond, and the engine refuses; the refusal is a one-line error, the bots'
    moves after it are not taken back either."""
    tried: list[int] = []

    def step(s: Sitting, prompt: str) -> str | None:
        if not _decision(prompt) or s.game.state.round != "claims" or s.entity()[0] != "Ann":
            return None
        if tried:
            return "quit"
        tried.append(len(s.game.log))
        return "undo"

    s = Sitting(tmp_path, ("Bob", "Cat", "Ann"), ("Bob", "Cat"), seed=6, step=step)
    out = s.run()
    bonds = [a for a in s.game.log if a["type"] == "place_bond"]
    assert bonds[-1]["entity"] == "Ann"
    assert s.game.log[-1]["type"] == "claim_city"  # a bot claimed after the revelation
    assert tried and len(s.game.log) == tried[0]
    assert not any(a["type"] == "undo" for a in s.game.log)
    errors = [line for line in out.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "revealed secret information" in errors[0], errors


def _after_first_buy(tmp_path: Path) -> tuple[Hotseat, str]:
    """A table of humans at the fixture game's first share bought, its buyer's."""
    data = json.loads((GAMES / "random-3p-seed3.json").read_text())
    actions = data["actions"]
    first = next(i for i, a in enumerate(actions) if a["type"] == "buy_share")
    game = Game.replay(Settings.from_json(data["settings"]), actions[:first + 1], check=False)
    table = Hotseat(game, Table({}), Console(io.StringIO(), io.StringIO()),
                    tmp_path / "game.json")
    return table, str(actions[first]["entity"])


def test_undo_and_redo_take_the_engines_answer(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: the terminal works out no reach of its own; what undo and redo move is the
    engine's answer (``Game.undo_targets``/``Game.why_no_undo``, ``Game.redo_target``).
    Where the engine answers that nothing may be taken back, the terminal refuses with the
    engine's reason and changes nothing."""
    table, buyer = _after_first_buy(tmp_path)
    before = list(table.game.log)
    table.undo(buyer)
    assert table.game.log[-1]["type"] == "undo" and len(table.game.log) == len(before) + 1
    table.redo(buyer)
    assert table.game.log[-1]["type"] == "redo"
    # The terminal's undo asks Game.undo_targets (with the bot seats) and, when it names
    # nothing, says the engine's reason (Game.why_no_undo).
    monkeypatch.setattr(Game, "undo_targets", lambda self, *seats, bots=(): [])
    monkeypatch.setattr(Game, "why_no_undo",
                        lambda self, *seats, bots=(): RuleError("undo", "the engine's reason"))
    monkeypatch.setattr(Game, "redo_target", lambda self, *seats: None)
    refused = list(table.game.log)
    with pytest.raises(India1853Error, match=r"^undo: the engine's reason$"):
        table.undo(buyer)
    table.game.process(table.game.action("undo", buyer))  # the engine itself would take it
    with pytest.raises(India1853Error, match="redo: there is nothing to redo"):
        table.redo(buyer)
    assert table.game.log == [*refused, table.game.log[-1]]


def test_a_players_screen_shows_every_move_since_his_last_turn(tmp_path: Path) -> None:
    """Between two of Ann's decisions the bots may make dozens of moves (a whole operating
    round): the screen she decides on tells every one of them."""
    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Bob", "Cat"), seed=4,
                step=lambda s, p: "quit" if s.game.state.stock_round > 2 else None)
    out = s.run()
    told = {entry.id: entry.lines for entry in game_log(Game(s.game.settings), s.game.log)}
    decisions = [(n, pos) for line, n, pos in s.typed if line]
    longest = 0
    for (before, _), (now, pos) in pairwise(decisions):
        screen = _plain(out[:pos].rsplit(SEPARATOR, 1)[-1])
        lines = [line for i in range(before + 1, now + 1) for line in told[i]]
        longest = max(longest, len(lines))
        for line in lines:
            assert _plain(line) in screen, (line, now)
    assert longest > RECENT_LINES  # a stretch of moves longer than the shortest panel


# --- mybid --------------------------------------------------------------------------------------


def test_mybid_shows_a_players_own_bid_only_after_he_confirms(tmp_path: Path) -> None:
    """In the stock round the public screen hides Ann's bond and cities; mybid asks that the
    others look away, shows them, and clears the screen; anything but Enter goes back."""
    marks: list[str] = []

    def step(s: Sitting, prompt: str) -> str | None:
        if s.game.state.round != "stock":
            return None
        script = ["mybid", "no", "mybid", "", "", "quit"]
        if len(marks) < len(script):
            marks.append(prompt)
            return script[len(marks) - 1]
        return "quit"

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Cat",), seed=3, step=step)
    out = s.run()
    who = s.player()
    me = s.game.view(who)["players"]
    mine = next(p for p in me if p["name"] == who)
    assert mine["cities"]
    panel = f"{who}'s contract bid (secret)"
    first, second = out.split(f"{who}, press Enter to see it")[1:3]
    assert panel not in first  # "no": back to the turn without showing it
    shown = _plain(second.split("Press Enter to hide it")[0])
    assert panel in shown and f"Bond: £{mine['bond']}" in shown
    for city in mine["cities"]:
        assert city in shown
    # The screen is cleared after it is hidden, and the turn comes back.
    after = second.split("Press Enter to hide it")[1]
    assert SEPARATOR in after and panel not in after.split(SEPARATOR, 1)[1]


@pytest.mark.parametrize("stop", ["quit", "ctrl-c", "ctrl-d"])
def test_stopping_at_a_secret_claim_leaves_no_secret_on_screen(tmp_path: Path,
                                                               stop: str) -> None:
    """Two humans: Bob stops the program (quit, Ctrl-C, Ctrl-D) while his claim screen shows
    his bid column; the screen is cleared before the program ends, so Ann, next at the
    keyboard, cannot read his cities."""
    def step(s: Sitting, prompt: str) -> str | None:
        entity, _ = s.entity()
        if s.game.state.round == "claims" and entity == "Bob" and _decision(prompt):
            bob = next(p for p in s.game.view("Bob")["players"] if p["name"] == "Bob")
            if bob["cities"]:
                if stop == "ctrl-c":
                    raise KeyboardInterrupt
                if stop == "ctrl-d":
                    raise EndOfInput
                return "quit"
        return None

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Cat",), seed=3, step=step)
    if stop == "ctrl-c":
        with pytest.raises(KeyboardInterrupt):
            s.hotseat.run()
        out = s.out.getvalue()
    else:
        out = s.run()
    cities = next(p for p in s.game.view("Bob")["players"] if p["name"] == "Bob")["cities"]
    assert cities and s.game.state.round == "claims"
    *_, bobs_screen, after = out.split(SEPARATOR)
    assert all(city in bobs_screen for city in cities)
    assert not any(city in after for city in cities)


def test_ctrl_c_while_mybid_shows_the_bid_clears_it(tmp_path: Path) -> None:
    """Ctrl-C at "Press Enter to hide it" ends the program with the bid erased first."""
    def step(s: Sitting, prompt: str) -> str | None:
        if s.game.state.round != "stock":
            return None
        if "Press Enter to hide it" in prompt:
            raise KeyboardInterrupt
        return "mybid" if _decision(prompt) else ""

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Cat",), seed=3, step=step)
    with pytest.raises(KeyboardInterrupt):
        s.hotseat.run()
    who = s.player()
    cities = next(p for p in s.game.view(who)["players"] if p["name"] == who)["cities"]
    *_, shown, after = s.out.getvalue().split(SEPARATOR)
    assert cities and all(city in shown for city in cities)
    assert not any(city in after for city in cities)


# --- costs beside the options -------------------------------------------------------------------


def _to(game: Game, until: Callable[[Game], bool]) -> None:
    players = game.settings.players
    bots = {p: make_bot("greedy", p, i) for i, p in enumerate(players)}
    while not until(game):
        entity, _ = game.active_entities()[0]
        who = public_decider(game, entity)
        action = ask(bots[who], game, entity)
        game.process({**action, "id": game.next_id(), "created_at": 0})


def _options(game: Game, entity: str, type_: str) -> list[dict[str, Any]]:
    """The options of one type that the turn model gives the player deciding for ``entity``."""
    who = public_decider(game, entity)
    model = turn_model(game, who)
    return [o for d in model["decisions"] for o in d["options"] if o["type"] == type_]


def test_a_claim_shows_the_citys_value_and_the_bond_it_leaves(tmp_path: Path) -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))
    _to(game, lambda g: g.state.round == "claims")
    entity, _ = game.active_entities()[0]
    view = game.view(entity)
    me = next(p for p in view["players"] if p["name"] == entity)
    claim = _options(game, entity, "claim_city")[0]
    value = game.rules.city(claim["action"]["city"]).bond_value
    assert cost_text(claim) == f"£{value}"
    left = me["bond"] - sum(game.rules.city(c).bond_value for c in me["cities"]) - value
    assert option_note(claim) == f"leaves £{left} of the bond uncovered"


def test_a_sale_shows_its_proceeds_before_the_company_has_a_price() -> None:
    """In the first stock round a share sells for par less the discount (2.8.3, 3.1.7), even
    for a company without a market price."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))

    def selling(g: Game) -> bool:
        if g.state.round != "stock" or g.state.stock_round != 1:
            return False
        entity, _ = g.active_entities()[0]
        return any(g.view(None)["companies"][o["action"]["company"]]["price"] is None
                   for o in _options(g, entity, "sell_shares"))

    _to(game, selling)
    entity, _ = game.active_entities()[0]
    view = game.view(None)
    sale = next(o for o in _options(game, entity, "sell_shares")
                if view["companies"][o["action"]["company"]]["price"] is None)
    initials, count = sale["action"]["company"], sale["action"]["count"]
    each = game.rules.company(initials).par - game.rules.first_stock_round_sale_discount
    assert cost_text(sale) == f"+£{count * each}"


def test_the_dividend_options_show_the_amount_per_share_and_the_price_move() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))
    _to(game, lambda g: g.state.round == "operating" and g.state.turn.step == "dividend"
        and g.state.turn.revenue > 0)
    entity, _ = game.active_entities()[0]
    view = game.view(None)
    revenue = view["turn"]["revenue"]
    payout, withhold = (next(o for o in _options(game, entity, "dividend")
                             if o["action"]["kind"] == k) for k in ("payout", "withhold"))
    # The shareholders are paid by the bank: the company pays nothing (4.6.5).
    assert cost_text(payout) == ""
    assert option_note(payout).startswith(
        f"£{revenue // game.rules.shares_per_company} a share to the shareholders; price £")
    assert cost_text(withhold) == f"+£{revenue}"
    price = view["companies"][entity]["price"]
    assert f"£{price}" in option_note(withhold)


def test_the_payment_for_claimed_shares_is_narrated_when_the_bids_end() -> None:
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))
    _to(game, lambda g: g.state.round == "stock")
    lines = [line for entry in game_log(Game(game.settings), game.log) for line in entry.lines]
    bonds = dict(re.findall(r"(\w+) £(\d+)", next(
        line for line in lines if line.startswith("Bonds revealed"))))
    for p in game.view(None)["players"]:
        paid = sum(game.rules.company(c).par for c in p["claims"]) - sum(
            game.rules.company(c).par * n for c, n in p["unredeemed"].items())
        start = game.rules.table.starting_cash - int(bonds[p["name"]])
        assert start - p["cash"] == paid
        assert any(line.startswith(f"{p['name']} pays £{paid} for the ") and "(2.7.2)" in line
                   for line in lines), p["name"]


def test_the_screen_draws_with_the_new_costs(tmp_path: Path) -> None:
    """The whole list renders (rich) with the claim notes in it."""
    from india1853.interfaces.terminal.screen import options_table

    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))
    _to(game, lambda g: g.state.round == "claims")
    entity, _ = game.active_entities()[0]
    console = RichConsole(file=io.StringIO(), width=200, color_system=None)
    options = turn_model(game, entity)["decisions"][0]["options"]
    console.print(options_table(options))
    text = " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]
    # The claims are grouped by city, each with the bond it would leave uncovered.
    assert "the bond the city leaves uncovered (2.5.9)" in text
    first = options[0]
    left = first["note"].removeprefix("leaves ").removesuffix(" of the bond uncovered")
    assert f"{first['ui']['city']} £{first['ui']['bond_value']} ({left} left): 1 " in text


def test_the_lay_options_show_the_fee_and_the_phase() -> None:
    """4.1.3: option 2's note gives the company's fee and option 1's the phase of its free
    double lay, both from the edition's data."""
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=5))

    def choosing(g: Game) -> bool:
        entity, _ = g.active_entities()[0]
        return any(a["type"] == "choose_lay_option" for a in g.legal_actions(entity))

    _to(game, choosing)
    entity, _ = game.active_entities()[0]
    ed = game.rules.ed
    notes = {o["action"]["option"]: option_note(o)
             for o in _options(game, entity, "choose_lay_option")}
    assert notes[1] == (f"Lay two tiles a turn from phase "
                        f"{ed.rules.double_lay_free_from_phase}, free (4.1.3)")
    fee = ed.costs.double_lay_fees[entity]
    assert notes[2] == f"£{fee} each turn it lays two"


def test_a_bids_last_pass_is_a_secret_screen_too(tmp_path: Path) -> None:
    """Two humans: when a bid may only end (the list holds nothing but pass), the screen still
    says which claims it may not make and why (2.5.9 tells of the bond left, hence of the
    secret cities), so it comes after "Pass the keyboard" and takes hidden input."""
    seen: list[str] = []

    def step(s: Sitting, prompt: str) -> str | None:
        entity, kind = s.entity()
        if s.game.state.round != "claims" or not _decision(prompt):
            return "quit" if s.game.state.round == "stock" else None
        if kind == "player" and entity in ("Ann", "Bob"):
            legal = s.game.legal_actions(entity)
            if [a["type"] for a in legal] == ["pass"]:
                seen.append(prompt)
                return "pass"
        return None

    s = Sitting(tmp_path, ("Ann", "Bob", "Cat"), ("Cat",), seed=3, step=step)
    s.run()
    assert seen and all(p.endswith("(hidden) ") for p in seen)
