"""Undo and redo read from the log alone: which actions are in force and which an undo has
set aside for ``redo`` (the game is event-sourced: ``undo`` and ``redo`` are actions too).

Below ``game.py`` so that the secrecy declaration (``secrecy.py``) can tell the actions in force
without importing the game."""

from __future__ import annotations

from typing import Any


def undo_stacks(
    log: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The actions in force and the undone ones ``redo`` would restore (the next one last)."""
    done: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for action in log:
        if action["type"] == "undo":
            undone.append(done.pop())
        elif action["type"] == "redo":
            done.append(undone.pop())
        else:
            done.append(action)
            undone = []
    return done, undone


def effective_actions(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions in force: the log with undone actions removed and redone ones restored."""
    return undo_stacks(log)[0]


def redo_stack(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The undone actions that ``redo`` would restore, the next one last."""
    return undo_stacks(log)[1]


__all__ = ["effective_actions", "redo_stack", "undo_stacks"]
