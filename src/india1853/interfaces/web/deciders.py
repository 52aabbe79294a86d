"""Who decided each action of an imported log, found in one pass (issue 19, item 4).

The server records beside every action the seat that decided it (undo is offered to that
seat's token).  For ``undo`` and ``redo`` that is whoever decided the action they move: the last
action in force, or the last undone one.  Asking the engine's ``effective_actions`` /
``redo_stack`` of the whole log for each of them made an import of N undo/redo pairs cost N²;
here the two stacks are kept as the log is read, in step with the engine's own (rules/game/
game.py: the actions in force and the redo stack), so each action costs O(1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from india1853.errors import InputError
from india1853.rules.game.game import Game


@dataclass
class Deciders:
    """The deciding seat of each action read so far (``seats``), and the seats of the
    actions in force and of the undone ones (the next to redo last)."""

    seats: list[str | None] = field(default_factory=list)
    _in_force: list[str | None] = field(default_factory=list)
    _undone: list[str | None] = field(default_factory=list)

    def of(self, game: Game, action: object) -> str | None:
        """Who decides ``action`` as the next action of ``game`` (None if nobody can: the
        engine then refuses it)."""
        if not isinstance(action, dict):
            return None
        kind = action.get("type")
        if kind in ("undo", "redo"):
            stack = self._in_force if kind == "undo" else self._undone
            return stack[-1] if stack else None
        entity = action.get("entity")
        if not isinstance(entity, str):
            return None
        try:
            return game.decider(entity)  # the engine's one answer (3.4.1)
        except InputError:
            return None  # an unknown entity: processing the action refuses it

    def accepted(self, action: dict[str, object], seat: str | None) -> None:
        """``action``, decided by ``seat``, was accepted by the engine: the stacks follow it."""
        self.seats.append(seat)
        if action.get("type") == "undo":
            self._undone.append(self._in_force.pop())
        elif action.get("type") == "redo":
            self._in_force.append(self._undone.pop())
        else:
            self._in_force.append(seat)
            self._undone.clear()
