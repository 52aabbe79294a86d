"""The game log in words, recorded as a reference: every stored game log and a few seeded
simulated games, narrated for each reader the narration knows (the public - every seat and a
spectator read the same log - and the moderator).

``python tools/narration_golden.py`` writes ``tests/interfaces/narration_golden/``: the full
text of a few small games and, for every game, the SHA-256 of each reader's text.  The
narration was recorded so from the narration that compared views before and after each action
(before the engine emitted events, issue 20 item 4); tests/interfaces/test_narration_golden.py
checks that the narration rendered from the engine's events is the same, byte for byte.

``--check`` compares instead of writing, and prints the first difference of each game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from india1853.interfaces.logfile import read_json
from india1853.interfaces.narrate import game_log
from india1853.rules.game.game import Game
from india1853.rules.game.random_play import random_action
from india1853.rules.game.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "interfaces" / "narration_golden"
STORED = ("tests/games", "tests/games/first", "tests/games/stalls")
READERS = ("public", "moderator")
# Whose full text is kept (small games); the others are kept as digests only.
FULL_TEXT = ("stall-3p-seed317612018", "sim-second-3p-seed5", "sim-first-4p-seed6")
# Seeded random games (random_play), each cut at SIMULATED_ACTIONS actions, with an undo (and
# sometimes a redo) every few actions, so that the narration of undo and redo is recorded too.
SIMULATED: tuple[tuple[str, str, tuple[str, ...], int, int], ...] = (
    ("sim-second-3p-seed5", "second", (), 3, 5),
    ("sim-second-4p-seed7-shortened", "second", ("shortened_game",), 4, 7),
    ("sim-first-4p-seed6", "first", (), 4, 6),
    ("sim-first-4p-seed8-mik2", "first", ("mik2",), 4, 8),
    ("sim-first-5p-seed9-alt-start", "first", ("alt_start",), 5, 9),
    ("sim-first-4p-seed10-simplified", "first", ("simplified",), 4, 10),
    ("sim-first-3p-seed11-mik2-regions-alt-start", "first", ("mik2", "mik2_regions",
                                                              "alt_start"), 3, 11),
)
SIMULATED_ACTIONS = 400
UNDO_EVERY = 23


def stored_games() -> Iterator[tuple[str, Settings, list[dict[str, Any]]]]:
    for folder in STORED:
        for path in sorted((ROOT / folder).glob("*.json")):
            data = read_json(path)
            yield path.stem, Settings.from_json(data["settings"]), list(data["actions"])


def simulated_game(edition: str, variants: tuple[str, ...], players: int, seed: int
                   ) -> tuple[Settings, list[dict[str, Any]]]:
    """A seeded random game of SIMULATED_ACTIONS actions (fewer if it ends), with undos."""
    settings = Settings(tuple(f"P{i + 1}" for i in range(players)), seed, edition, variants)
    game = Game(settings)
    rng = random.Random(seed)
    while len(game.log) < SIMULATED_ACTIONS and not game.finished:
        target = game.undo_target(*settings.players)
        if len(game.log) % UNDO_EVERY == UNDO_EVERY - 1 and target is not None:
            game.process(game.action("undo", str(target["entity"])))
            if rng.random() < 0.5:
                game.process(game.action("redo", str(target["entity"])))
            continue
        game.process(random_action(game, rng))
    return settings, list(game.log)


def all_games() -> Iterator[tuple[str, Settings, list[dict[str, Any]]]]:
    yield from stored_games()
    for name, edition, variants, players, seed in SIMULATED:
        settings, actions = simulated_game(edition, variants, players, seed)
        yield name, settings, actions


def narration(settings: Settings, actions: list[dict[str, Any]], reader: str) -> str:
    """The whole log in words as ``reader`` reads it: each action's id, entity and lines."""
    out = []
    for entry in game_log(Game(settings), actions, moderator=reader == "moderator"):
        out.append(f"{entry.id} {entry.entity}\n{entry.text()}\n")
    return "".join(out)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def actions_digest(actions: list[dict[str, Any]]) -> str:
    return digest(json.dumps(actions, sort_keys=True))


def record() -> dict[str, Any]:
    """Narrate every game; write the full texts kept; return the digests."""
    OUT.mkdir(parents=True, exist_ok=True)
    games: dict[str, Any] = {}
    for name, settings, actions in all_games():
        entry: dict[str, Any] = {"settings": settings.to_json(), "actions": len(actions),
                                 "actions_sha256": actions_digest(actions)}
        for reader in READERS:
            text = narration(settings, actions, reader)
            entry[reader] = digest(text)
            if name in FULL_TEXT:
                (OUT / f"{name}.{reader}.txt").write_text(text, encoding="utf-8")
        games[name] = entry
        print(name, len(actions), file=sys.stderr)
    return games


def check() -> int:
    """Compare the narration now with the recorded one; 1 on any difference."""
    recorded = json.loads((OUT / "digests.json").read_text(encoding="utf-8"))["games"]
    bad = 0
    for name, settings, actions in all_games():
        want = recorded[name]
        if actions_digest(actions) != want["actions_sha256"]:
            print(f"{name}: the game's actions differ from the recorded ones", file=sys.stderr)
            bad += 1
            continue
        for reader in READERS:
            text = narration(settings, actions, reader)
            if digest(text) != want[reader]:
                bad += 1
                print(f"{name} ({reader}): the narration differs", file=sys.stderr)
        print(name, "checked", file=sys.stderr)
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        return check()
    games = record()
    (OUT / "digests.json").write_text(
        json.dumps({"readers": list(READERS), "simulated_actions": SIMULATED_ACTIONS,
                    "undo_every": UNDO_EVERY, "games": games}, indent=1, sort_keys=True) + "\n",
        encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
