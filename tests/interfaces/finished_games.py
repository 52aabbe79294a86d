"""A complete game of greedy bots, saved as a log file, for the tests of the commands that read
finished games (``log``, ``replay``, ``stats``, ``render GAME``)."""

from __future__ import annotations

import json
from pathlib import Path

from india1853.interfaces.bots import make_bot
from india1853.interfaces.simulate import play_game
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings


def greedy_game_file(directory: Path, players: tuple[str, ...], seed: int) -> tuple[Path, Game]:
    """A second-edition game of greedy bots to the end, and its log in ``directory``."""
    settings = Settings(players, seed=seed)
    game = play_game(settings, {p: make_bot("greedy", p, i) for i, p in enumerate(players)})
    path = directory / "game.json"
    path.write_text(json.dumps(game.to_log()), encoding="utf-8")
    return path, game


GAMES = Path(__file__).resolve().parents[1] / "games"


def stored_game_file(directory: Path, name: str) -> tuple[Path, Game]:
    """A finished game of tests/games, and its log in ``directory`` as ``play`` writes it: a
    finished game for the commands that read one, without playing it again (playing a greedy
    game costs several CPU-seconds).  Replayed without checks: tests/game/test_fixtures.py
    replays every stored game checked, and the commands given the file check it again."""
    game = Game.from_log(json.loads((GAMES / f"{name}.json").read_text(encoding="utf-8")),
                         check=False)
    assert game.finished
    path = directory / "game.json"
    path.write_text(json.dumps(game.to_log()), encoding="utf-8")
    return path, game
