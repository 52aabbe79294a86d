"""Takebacks by consent (issue 22 item 6): the game taken back to an earlier action when every
other human seat accepts - beyond the plain undo, which takes back only one's own last
decision (``Game.undo_targets`` / ``Game.why_no_undo``).

A takeback is written as the engine's own ``undo`` actions, one per action in force after
action N, the last first, each recorded for the seat that decided the action it takes back
(``Game.decided_by``): the game is rebuilt by replay as every undo is, and the actions taken
back stay in the log, the branch the history shows.  Whether they may be taken back is the
engine's to say: the undos are tried on a fork of the game first, and the engine refuses one
that would cross an action that revealed a secret (the undo barrier, ``Game._check_barrier``)
with its rule - nothing is worked out here.  An undone secret stays secret: the log and the
history show undone actions as the secrecy declaration says (rules/game/secrecy.py).
"""

from __future__ import annotations

from typing import Any

from india1853.errors import InputError, RuleError
from india1853.interfaces.web.entry import ApiError
from india1853.rules.game.game import Game, effective_actions

Batch = list[tuple[dict[str, Any], str | None]]


def undos_to(game: Game, to: int, created_at: int) -> tuple[Batch, list[int]]:
    """The undos that take the game back to just after action ``to`` (0: the start), each
    with the seat it is recorded for, and the ids of the actions they take back; 422 naming
    ``to`` when there is nothing to take back or the engine refuses (its reason: the undo
    barrier)."""
    in_force = effective_actions(game.log)
    if to != 0 and to not in {a["id"] for a in in_force}:
        raise ApiError(422, f"to: action {to} is not an action in force (0, or the id of an "
                            "action in force: not an undo, redo or undone action)")
    targets = [a for a in in_force if a["id"] > to]
    if not targets:
        raise ApiError(422, f"to: no action in force comes after action {to}: nothing to take "
                            "back")
    first = game.next_id()
    batch: Batch = [({"type": "undo", "entity": t["entity"], "entity_type": t["entity_type"],
                      "id": first + i, "created_at": created_at}, game.decided_by(t))
                    for i, t in enumerate(reversed(targets))]
    trial = game.fork()
    try:
        for action, _who in batch:
            trial.process(action)
    except (InputError, RuleError) as exc:
        raise ApiError(422, f"to: {exc}") from None
    return batch, [int(t["id"]) for t in targets]


def branch(batch: Batch, taken: list[int]) -> dict[str, Any]:
    """What the record of an accepted takeback keeps: the actions taken back (the branch,
    oldest first) and the undos written."""
    return {"taken_back": taken, "undos": [int(a["id"]) for a, _who in batch]}


__all__ = ["Batch", "branch", "undos_to"]
