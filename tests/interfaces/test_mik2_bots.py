"""The bots play the MIK 2 kit (first edition) from their own views: each bot sees its own
hand only, never the stack or another player's hand; the CLI offers the variant."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from india1853.interfaces.bots import Decision, make_bot, reads_prices
from india1853.interfaces.simulate import play_game
from india1853.rules.game import Game, Settings


class Watching:
    """Wraps a bot and records what its views showed of the kit."""

    def __init__(self, name: str, player: str, seen: list[tuple[str, dict[str, Any]]]) -> None:
        self._bot = make_bot(name, player, 7)
        self._seen = seen

    @property
    def player(self) -> str:
        return self._bot.player

    @property
    def priced(self) -> bool:
        # Watching does not change what the bot reads (the random bot: no prices).
        return reads_prices(self._bot)

    def choose(self, decision: Decision) -> dict[str, Any]:
        self._seen.append((self.player, json.loads(json.dumps(decision.view["kit"]))))
        return self._bot.choose(decision)


# The greedy bots finish this game (731 actions); the random bots would not in 3,000 and
# draw their first cards after about 240: 1,200 of their actions hold some twenty draws, plays
# and refusals of cards, each decision's view checked, at 40% of 3,000's CPU.
@pytest.mark.parametrize(("bot", "bound"), [("greedy", 3000), ("random", 1200)])
def test_bots_play_the_kit_from_their_own_views(bot: str, bound: int) -> None:
    players = ("A", "B", "C", "D")
    seen: list[tuple[str, dict[str, Any]]] = []
    bots = {p: Watching(bot, p, seen) for p in players}
    game = play_game(Settings(players, seed=11, edition="first", variants=("mik2",)),
                     bots, max_actions=bound)  # type: ignore[arg-type]
    kinds = {a["type"] for a in game.log}
    assert "draw_card" in kinds
    for player, kit in seen:
        assert kit["deck_cards"] is None and kit["discard_cards"] is None
        for name, cards in kit["hands"].items():
            assert (cards is None) == (name != player), (player, name)


def test_the_cli_simulates_the_kit(capsys: pytest.CaptureFixture[str]) -> None:
    from india1853.interfaces.cli import main

    # The first 150 actions hold the bonds, the bids, the first MIK 2 draws and plays (from
    # action 27) and operating turns; test_bots_play_the_kit_from_their_own_views plays the
    # kit to the end.
    code = main(["simulate", "--games", "1", "--bots", "greedy,greedy,greedy",
                 "--edition", "first", "--variant", "mik2", "--seed", "3",
                 "--max-actions", "150"])
    assert code in (0, None)
    out = capsys.readouterr().out
    assert "finished" in out
    assert "first edition, bots greedy,greedy,greedy" in out and "action_limit: 1" in out


def test_a_kit_game_is_hidden_in_the_public_view() -> None:
    game = Game(Settings(("A", "B", "C"), seed=1, edition="first", variants=("mik2",)))
    assert all(v is None for v in game.view(None)["kit"]["hands"].values())


def test_the_terminal_shows_the_players_own_hand_at_his_card_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from india1853.interfaces.cli import main
    from india1853.rules.game.random_play import random_action

    game = Game(Settings(("Ann", "Bob", "Cat"), seed=2, edition="first", variants=("mik2",)))
    rng = random.Random("terminal")
    while not (game.state.pending and game.state.pending[0].kind == "kit_action"):
        game.process(random_action(game, rng))
    who = game.state.pending[0].entity
    kit = game.state.kit
    assert kit is not None
    mine = kit.hands[who]
    others = [c for n, h in kit.hands.items() if n != who for c in h]
    data = game.to_log()
    data["table"] = {"bots": {p: "greedy" for p in ("Ann", "Bob", "Cat") if p != who}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--load", str(path), "--overwrite"]) == 0
    out = capsys.readouterr().out
    assert "MIK 2 cards (secret)" in out
    assert all(c in out for c in mine)
    assert not any(c in out for c in others if c not in mine)
