"""What happened: the events an action set off, reported by the rules that made them happen.

Each step's ``apply`` and the rule functions it calls report, as they change the state, what
happened (:func:`emit`): money paid, shares bought, sold or redeemed, tiles laid, a base
placed, trains bought, rusted or returned, the run and the dividend, the share price moved,
bonds placed and revealed, contracts fulfilled or failed, MIK 2 cards, a company floated or
formed, a new director, a new phase, round or Elephant holder, the bank broken, the end of the
game and its scores.  The state holds the sink (``GameState.events``) while one action is
applied; ``Game.process`` collects the events and returns them, and ``replay_events`` (in
``game.py``) gives each action of a log with its events.  No global state.

Some fields of an event are secret - a bond's amount (2.5.2), a bid's cities (2.5.4, 14.5), the
MIK 2 cards rejected face down: they are declared with the secrets of the actions, once, in
``secrecy.py`` (``EVENT_SECRETS``), and :func:`secrecy.event_as_made` withholds them.

A *change* (:data:`CHANGES`: the round, the phase, a director, the Elephant's holder, a share
price) carries its ``old`` and ``new`` values: an action may change the same thing several
times, and an undo is told as the changes of the action it takes back, reversed
(:func:`undone`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

# The events that record a change of one value, with its ``old`` and ``new`` fields.
CHANGES = frozenset({"round", "phase", "director", "elephant", "price"})


@dataclass(frozen=True)
class Event:
    """One thing that happened: its ``kind`` ("paid", "tile_laid"...), the ``entity`` it
    happened to or was done by (a player's name, a company's initials; ``""`` the game), the
    ``rule`` it happened under and its ``fields`` (JSON values)."""

    kind: str
    entity: str
    rule: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "entity": self.entity, "rule": self.rule,
                "fields": dict(self.fields)}


class Sink(Protocol):
    """Where the events of the action being applied go (``GameState`` is one)."""

    events: list[Event]


def emit(sink: Sink, kind: str, entity: str, rule: str, /, **fields: Any) -> None:
    """Report one event of the action being applied."""
    sink.events.append(Event(kind, entity, rule, fields))


def change(sink: Sink, kind: str, entity: str, rule: str, old: Any, new: Any, /,
           **fields: Any) -> None:
    """Report a change (:data:`CHANGES`) of ``entity``'s value from ``old`` to ``new``; nothing
    if it did not change."""
    if old != new:
        emit(sink, kind, entity, rule, old=old, new=new, **fields)


def paid(sink: Sink, payer: str, payee: str, amount: int, rule: str, /,
         **fields: Any) -> None:
    """Money moved: ``payer`` paid ``payee`` (a player, a company or ``"bank"``)."""
    if amount:
        emit(sink, "paid", payer, rule, to=payee, amount=amount, **fields)


def net_paid(events: Iterable[Event], entity: str) -> int:
    """What ``entity`` paid in all (negative: received) over ``events``."""
    out = 0
    for e in events:
        if e.kind != "paid":
            continue
        if e.entity == entity:
            out += int(e.fields["amount"])
        if e.fields.get("to") == entity:
            out -= int(e.fields["amount"])
    return out


def net_change(events: Iterable[Event], kind: str, entity: str) -> tuple[Any, Any] | None:
    """The first ``old`` and last ``new`` of the changes of ``kind`` to ``entity``, or None if
    it did not change (or changed back)."""
    found = [e for e in events if e.kind == kind and e.entity == entity]
    if not found or found[0].fields["old"] == found[-1].fields["new"]:
        return None
    return found[0].fields["old"], found[-1].fields["new"]


def undone(target: Mapping[str, Any], events: Iterable[Event], kind: str) -> list[Event]:
    """The events of an ``undo`` (``kind``) of ``target``, whose events were ``events``: the
    undo itself, then the changes of ``target`` reversed (what it did besides, money moved or
    a company floated, is simply no more).  A ``redo`` repeats ``target``'s events."""
    head = Event(kind, str(target["entity"]), kind, {"action": int(target["id"])})
    if kind == "redo":
        return [head, *events]
    back = [Event(e.kind, e.entity, e.rule, {**e.fields, "old": e.fields["new"],
                                               "new": e.fields["old"]})
            for e in reversed(list(events)) if e.kind in CHANGES]
    return [head, *back]
