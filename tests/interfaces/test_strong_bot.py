"""The strong bot (issue 23): it is a bot like the others (make_bot, simulate), plays whole games
in both editions and with the MIK 2 kit, and decides from its own player's view only: the same
public history with another seat's different secret gives the same decisions."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest

from india1853.data.loader import load_edition
from india1853.errors import InputError, RuleError
from india1853.interfaces.bots import BOT_NAMES, Bot, Decision, ask, decision_for, make_bot
from india1853.interfaces.bots.strong import StrongBot
from india1853.interfaces.simulate import play_game
from india1853.interfaces.terminal.console import Console
from india1853.interfaces.terminal.loop import Hotseat, Seating
from india1853.interfaces.terminal.screen import option_text
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

PLAYERS = ("P1", "P2", "P3", "P4")


def quick(player: str, seed: int) -> StrongBot:
    """A strong bot with a small search (a few router calls a decision), for short tests; the
    generous CPU budget leaves the number of calls, not the machine's load, to decide."""
    return StrongBot(player, seed, budget=30.0, max_evals=4)


def test_strong_is_a_known_bot() -> None:
    assert "strong" in BOT_NAMES
    bot = make_bot("strong", "Ann", 3)
    assert isinstance(bot, StrongBot) and bot.player == "Ann"


def test_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        StrongBot("Ann", 1, budget=0)


class Recorder:
    """Wraps a bot and checks each choice is one of the legal actions it was shown."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.choices = 0

    @property
    def player(self) -> str:
        return self.inner.player

    def choose(self, decision: Decision) -> dict[str, Any]:
        choice = self.inner.choose(decision)
        assert choice in decision.legal
        self.choices += 1
        return choice


@functools.cache
def second_edition_game() -> tuple[Game, Recorder]:
    """A whole second-edition game, seed 2, of a quick strong bot (P1) and three greedy ones:
    played once per file, read by the tests below (none changes it)."""
    strong = Recorder(quick("P1", 2))
    bots: dict[str, Bot] = {p: make_bot("greedy", p, 2) for p in PLAYERS}
    bots["P1"] = strong
    return play_game(Settings(PLAYERS, seed=2), bots, max_actions=5000), strong


def test_a_second_edition_game_with_a_strong_bot_ends() -> None:
    game, strong = second_edition_game()
    assert game.finished
    assert game.view(None)["end_reason"] in ("bank_broken", "share_price")
    assert strong.choices > 50


def test_a_first_edition_game_with_mik2_and_strong_bots_ends() -> None:
    bots: dict[str, Bot] = {p: make_bot("greedy", p, 5) for p in PLAYERS}
    bots["P1"] = Recorder(quick("P1", 5))
    bots["P3"] = Recorder(quick("P3", 5))
    game = play_game(Settings(PLAYERS, seed=5, edition="first", variants=("mik2",)), bots,
                     max_actions=5000)
    assert game.finished
    kinds = {a["type"] for a in game.log}
    assert "draw_card" in kinds
    strong_players = {"P1", "P3"}
    # The card decisions are the strong bots' own: they draw cards and action them.
    card_moves = {a["type"] for a in game.log if a["entity"] in strong_players}
    assert {"draw_card", "play_card"} <= card_moves, card_moves


def test_simulate_offers_the_strong_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """The command seats the strong bot (its default budget) and plays with it: the bonds,
    the contract bids, stock rounds and operating rounds (its lays, runs and trains) of the
    first 300 actions; whole games with it end in the tests above (a whole game here cost
    three times as much and the summary showed no more)."""
    from india1853.interfaces.cli import main

    code = main(["simulate", "--games", "1", "--bots", "strong,greedy,greedy", "--seed", "4",
                 "--max-actions", "300"])
    assert code in (0, None)
    out = capsys.readouterr().out
    assert "finished" in out
    assert "bots strong,greedy,greedy" in out and "1 (strong)" in out
    assert "action_limit: 1" in out



@pytest.mark.soak
def test_simulate_plays_a_whole_game_with_the_strong_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The whole game the test above stops at 300 actions (make soak): the command's strong bot
    with its default budget plays to an end of the game, not to the action limit."""
    from india1853.interfaces.cli import main

    code = main(["simulate", "--games", "1", "--bots", "strong,greedy,greedy", "--seed", "4"])
    assert code in (0, None)
    out = capsys.readouterr().out
    assert "finished" in out and "1 (strong)" in out
    assert "action_limit" not in out


# --- secrecy: the decision depends on the public history only ---------------------------------


def _forced_replay(settings: Settings, actions: list[dict[str, Any]], bot: Bot
                   ) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Replays ``actions``, except that each decision of ``bot``'s player is the bot's own
    (asked with that player's view); the list of (index, that player's view, decision)."""
    game = Game(settings)
    out: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    for i, action in enumerate(actions):
        entity, _ = game.active_entities()[0]
        if game.decider(entity) == bot.player:
            decision = decision_for(game, bot.player, entity)
            view = decision.view
            choice = bot.choose(decision)
            out.append((i, view, choice))
            if choice["type"] != action["type"] or {**choice, "id": 0} != {**action, "id": 0}:
                break  # diverged: the rest of the log is not this game's
            game.process({**choice, "id": game.next_id(), "created_at": 0})
        else:
            game.process({**action, "id": game.next_id(), "created_at": 0})
    return out


def _legal_prefix(settings: Settings, actions: list[dict[str, Any]]) -> int:
    """How many of ``actions`` replay legally from the start."""
    game = Game(settings)
    for n, action in enumerate(actions):
        try:
            game.process({**action, "id": game.next_id(), "created_at": 0})
        except (InputError, RuleError):
            return n
    return len(actions)


def _other_city(settings: Settings, actions: list[dict[str, Any]], player: str
                ) -> tuple[list[dict[str, Any]], int]:
    """The log with ``player``'s first city claim replaced by another legal claim of the same
    company (its cities are secret, 2.5.4, 4.3.2; the shares claimed are public), the rest
    unchanged as far as it stays legal (a contract fulfilled at another time pays at another
    time); and the index of the change."""
    game = Game(settings)
    for i, action in enumerate(actions):
        if action["type"] == "claim_city" and action["entity"] == player:
            value = {c.name: c.bond_value for c in load_edition(settings.edition).cities}
            others = sorted((a for a in game.legal_actions(player) if a["type"] == "claim_city"
                             and a["company"] == action["company"]
                             and a["city"] != action["city"]),
                            key=lambda a: abs(value[a["city"]] - value[action["city"]]))
            for other in others:
                changed = [*actions[:i], {**action, "city": other["city"]}, *actions[i + 1:]]
                legal = _legal_prefix(settings, changed)
                if legal > i + 40:
                    return changed[:legal], i
            break
        game.process({**action, "id": game.next_id(), "created_at": 0})
    raise AssertionError(f"{player} made no claim with an alternative city")


def test_the_strong_bot_never_reads_another_seats_secret() -> None:
    # The first 220 actions of the file's strong-bot game (the same bots, seed 2).
    whole, _ = second_edition_game()
    settings = whole.settings
    actions = [dict(a) for a in whole.log[:220]]
    changed, at = _other_city(settings, actions, "P2")
    first = _forced_replay(settings, actions[:len(changed)], quick("P1", 2))
    second = _forced_replay(settings, changed, quick("P1", 2))
    # The moderator sees the difference; P1's views are the same, and so are its decisions.
    a = Game(settings, [{**x, "id": n + 1} for n, x in enumerate(actions[:at + 1])])
    b = Game(settings, [{**x, "id": n + 1} for n, x in enumerate(changed[:at + 1])])
    assert a.moderator_view() != b.moderator_view()
    assert a.view("P1") == b.view("P1")
    compared = 0
    for (i, view_a, choice_a), (j, view_b, choice_b) in zip(first, second, strict=False):
        assert i == j
        if view_a != view_b:
            break  # a secret was revealed (a fulfilled contract): the histories differ now
        assert choice_a == choice_b, f"decision at action {i} depends on P2's cities"
        compared += 1
    assert compared >= 20
    assert any(i > at for i, _, _ in first[:compared])


class Typist(io.StringIO):
    """A human at the terminal: types the command text of a greedy bot's choice for Ann, then
    ``quit`` after ``limit`` decisions."""

    def __init__(self, ref: list[Hotseat], limit: int) -> None:
        super().__init__()
        self.ref = ref
        self.bot = make_bot("greedy", "Ann", 1)
        self.limit = limit
        self.decisions = 0

    def readline(self, size: int | None = -1) -> str:
        game = self.ref[0].game
        if game.finished or self.decisions >= self.limit:
            return "quit\n"
        entity, _ = game.active_entities()[0]
        choice = ask(self.bot, game, entity)
        self.decisions += 1
        return option_text(choice) + "\n"


def test_the_terminal_seats_strong_bots(tmp_path: Path) -> None:
    ref: list[Hotseat] = []
    typist = Typist(ref, limit=30)
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=6))
    hotseat = Hotseat(game, Seating({"Bob": "strong", "Cat": "strong"}),
                      Console(typist, io.StringIO()), tmp_path / "game.json")
    ref.append(hotseat)
    assert hotseat.run() == 0
    assert all(isinstance(bot, StrongBot) for bot in hotseat.bots.values())
    assert typist.decisions == 30
    by_bots = [a for a in hotseat.game.log if a["entity"] in ("Bob", "Cat")]
    assert {"place_bond", "claim_city", "buy_share"} <= {a["type"] for a in by_bots}
    saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved["table"]["bots"] == {"Bob": "strong", "Cat": "strong"}


def test_play_bot_strong_on_the_command_line(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from india1853.interfaces.cli import main

    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--players", "Ann,Bob,Cat", "--bots", "Bob,Cat", "--bot", "strong",
                 "--seed", "4", "--save", str(save)]) == 0
    saved = json.loads(save.read_text(encoding="utf-8"))
    # The seats the strong bot plays (test_the_terminal_seats_strong_bots plays them).
    assert saved["table"]["bots"] == {"Bob": "strong", "Cat": "strong"}
