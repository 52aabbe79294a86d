"""The hint (issue 23 item 4): the strong bot's decision for the asking player, in one line with
the options it valued, built from that player's view only - two games differing only in another
seat's secret (its contract city) give the same hints."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from india1853.data.loader import load_edition
from india1853.interfaces.bots import decision_for, make_bot
from india1853.interfaces.bots.hint import hint
from india1853.interfaces.logfile import Table
from india1853.interfaces.terminal.console import Console
from india1853.interfaces.terminal.loop import Hotseat
from india1853.rules.game.game import Game
from india1853.rules.game.settings import Settings

LOG = Path(__file__).resolve().parents[1] / "games" / "greedy-3p-seed3.json"


def _other_city(settings: Settings, actions: list[dict[str, Any]], player: str
                ) -> tuple[list[dict[str, Any]], int]:
    """The log with ``player``'s first city claim replaced by another city of the same company
    (the city is secret, 2.5.4; the company is public) and the index of the change."""
    game = Game(settings)
    value = {c.name: c.bond_value for c in load_edition(settings.edition).cities}
    for i, action in enumerate(actions):
        if action["type"] == "claim_city" and action["entity"] == player:
            others = sorted((a for a in game.legal_actions(player) if a["type"] == "claim_city"
                             and a["company"] == action["company"]
                             and a["city"] != action["city"]),
                            key=lambda a: abs(value[a["city"]] - value[action["city"]]))
            return [*actions[:i], {**action, "city": others[0]["city"]}, *actions[i + 1:]], i
        game.process({**action, "id": game.next_id(), "created_at": 0})
    raise AssertionError(f"{player} made no claim")


def test_the_hint_is_built_from_the_askers_view_only() -> None:
    data = json.loads(LOG.read_text())
    settings = Settings.from_json(data["settings"])
    actions = [dict(a) for a in data["actions"]][:260]
    changed, at = _other_city(settings, actions, "Bob")
    a, b = Game(settings), Game(settings)
    lines: list[str] = []
    kinds: set[str] = set()
    for n, (x, y) in enumerate(zip(actions, changed, strict=True)):
        if n > at:
            entity, _ = a.active_entities()[0]
            if a.decider(entity) == "Ann" and len(lines) < 12:
                assert a.view("Ann") == b.view("Ann")
                if n == at + 1:
                    assert a.moderator_view() != b.moderator_view()  # the secret differs
                legal = a.legal_actions(entity)
                da, db = decision_for(a, "Ann", entity), decision_for(b, "Ann", entity)
                assert da == db  # everything the bot is given, equal
                ha = hint("Ann", da, budget=30.0)
                hb = hint("Ann", db, budget=30.0)
                assert ha == hb, f"the hint at action {n} depends on Bob's city"
                assert ha.choice in legal and "\n" not in ha.line()
                # The words are the turn model's labels of the options, as the player sees them.
                labels = {json.dumps(o["action"], sort_keys=True): o["label"] for o in da.options}
                assert ha.label == labels[json.dumps(ha.choice, sort_keys=True)]
                assert ha.line().startswith(f"Hint for {ha.entity}: {ha.label}")
                for value, action, label in ha.weighed:
                    assert label == labels[json.dumps(action, sort_keys=True)]
                    assert f"{label} {value:+.1f}" in ha.line()
                lines.append(ha.line())
                kinds.add(ha.choice["type"])
        a.process({**x, "id": a.next_id(), "created_at": 0})
        b.process({**y, "id": b.next_id(), "created_at": 0})
    assert len(lines) == 12, lines
    # Some of those decisions weighed several options, and the line shows their values.
    assert any("Weighed:" in line for line in lines), lines


def _terminal(tmp_path: Path, table: Table, typed: str) -> tuple[str, Game]:
    """A terminal game of Ann, Bob and Cat (a fresh one: the bonds first) after ``typed``."""
    out = io.StringIO()
    game = Game(Settings(("Ann", "Bob", "Cat"), seed=4))
    hotseat = Hotseat(game, table, Console(io.StringIO(typed), out), tmp_path / "game.json")
    assert hotseat.run() == 0
    return " ".join(out.getvalue().split()), hotseat.game


def test_the_terminal_hint_command(tmp_path: Path) -> None:
    # Between humans only with --hints (the save file's table keeps it).
    shown, game = _terminal(tmp_path, Table(), "\nhint\nquit\n")
    assert "hint: hints are off in this game (start it with --hints" in shown
    shown, game = _terminal(tmp_path, Table(hints=True), "\nhint\nquit\n")
    assert "Hint for Ann: Bond £" in shown and not game.log
    assert json.loads((tmp_path / "game.json").read_text())["table"]["hints"] is True
    # Always with a bot; the line is about Ann's decision, and asking changes nothing.
    shown, game = _terminal(tmp_path, Table({"Bob": "greedy", "Cat": "greedy"}), "\nhint\nquit\n")
    assert "Hint for Ann: Bond £" in shown
    assert all(a["entity"] != "Ann" for a in game.log)


def test_make_bot_passes_the_servers_cpu_budget_to_the_strong_bot() -> None:
    # serve --bot-cpu-seconds reaches the bot through make_bot (a bad one is the bot's error).
    with pytest.raises(ValueError, match="budget must be positive"):
        make_bot("strong", "Ann", 1, budget=0.0)
    assert make_bot("greedy", "Ann", 1, budget=0.0).player == "Ann"  # no search, no budget
