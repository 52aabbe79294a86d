"""Who may act for which entity: a request's token, the seats it views as and acts for, and
the player deciding each action - always the engine's answer.

A seat's token views as that seat and acts for it; the hotseat token views as any human seat
and acts for all of them (a shared screen); no token views as the public.  Who decides for a
player or a company is ``Game.decider`` (3.4.1), who decided an earlier action (the one an undo
or a redo moves) ``Game.decided_by``, and which undo or redo a seat may take now
``Game.undo_target`` / ``Game.redo_target``: the server keeps no list of its own.  An undo
takes back one's own last decision with the bots' replies after it (``Game.undo_targets``
with the entry's bot seats): one request, one ``undo`` per action taken back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.web.entry import ApiError, Entry
from india1853.rules.game.game import Game, effective_actions, redo_stack

TOKEN_BYTES = 24  # 192 random bits per token


@dataclass(frozen=True)
class Access:
    """What a request's token may do: the seat it views as and the seats it may act for."""

    seat: str | None
    seats: tuple[str, ...]
    hotseat: bool = False
    # The hotseat token's screen is covered: no seat's view, only what every seat may see.
    covered: bool = False


class HashedToken(str):
    """A token's SHA-256 standing for the token (a redeemed stream ticket, tickets.py): the
    store checks it as it would check the token, without hashing it again."""


def token_hash(token: str) -> str:
    if isinstance(token, HashedToken):
        return str.__str__(token)
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def holds(hashes: Sequence[str | None], token: str) -> bool:
    """Whether ``token`` is one of the tokens of ``hashes`` (each compared in constant time)."""
    digest = token_hash(token)
    return any(h is not None and hmac.compare_digest(h, digest) for h in hashes)


def access_of(entry: Entry, token: str | None, seat: str | None, cover: bool = False) -> Access:
    """401 for a token that is no seat's; 403 for a seat the token may not view as.
    ``cover``: the hotseat token's covered screen (no seat's view; ignored for a seat's
    own token, whose view is only ever its own, and for no token)."""
    if token is None:
        if seat is not None:
            raise ApiError(401, "seat: viewing as a seat needs that seat's token")
        return Access(None, ())
    digest = token_hash(token)
    # Every stored hash is compared (in constant time each), the match taken after.
    matches = [s.name for s in entry.seats
               if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)]
    hotseat = entry.hotseat_hash is not None and hmac.compare_digest(entry.hotseat_hash,
                                                                     digest)
    if matches:
        if seat is not None and seat != matches[0]:
            # The asked seat is the client's text: quoted (repr), so it is one line, whatever
            # it holds.
            raise ApiError(403, f"seat: this token is {matches[0]}'s, not {seat!r}'s")
        return Access(matches[0], (matches[0],))
    if hotseat:
        humans = entry.humans()
        if seat is None:
            seat = next_human(entry.game, humans)
        elif seat not in humans:
            raise ApiError(403, f"seat: {seat!r} is not a human seat of this game")
        if cover:
            return covered(humans)
        return Access(seat, humans, hotseat=True)
    raise ApiError(401, "token: not a token of this game")


def covered(humans: tuple[str, ...]) -> Access:
    """The hotseat token's covered screen: the public view, the seats it may act for."""
    return Access(None, humans, hotseat=True, covered=True)


def deciding_human(game: Game, humans: Sequence[str]) -> str | None:
    """The human seat that must act next, by the engine's active entities and who decides
    for each (3.4.1); None when none must (bots act, or the game is over)."""
    for entity, _ in game.active_entities():
        player = game.decider(entity)
        if player is not None and player in humans:
            return player
    return None


def next_human(game: Game, humans: Sequence[str]) -> str:
    """The human seat that must act next (the first human seat when none must)."""
    return deciding_human(game, humans) or humans[0]


def after_acting(game: Game, access: Access, cover: bool) -> Access:
    """The access a hotseat screen answers with after an action: covered, or the next
    human seat's view (a seat's own token keeps its own)."""
    if access.hotseat and cover:
        return covered(access.seats)
    if access.hotseat:
        return Access(next_human(game, access.seats), access.seats, hotseat=True)
    return access


def offered(game: Game, access: Access, kind: str,
            bots: Collection[str] = ()) -> dict[str, Any] | None:
    """The undo (or redo) action this access may take now, or None (the engine's answer:
    ``Game.undo_target`` with the bot seats, whose replies it takes back too;
    ``Game.redo_target``)."""
    if not access.seats or game.finished:
        return None
    if kind == "undo":
        target = game.undo_target(*access.seats, bots=bots)
    else:
        target = game.redo_target(*access.seats)
    return None if target is None else game.action(kind, str(target["entity"]))


def undo_takes_back(game: Game, access: Access, bots: Collection[str]) -> int:
    """How many actions the undo offered to this access takes back: one's own decision and
    the bots' replies after it (``Game.undo_targets``); 0 when none is offered."""
    if offered(game, access, "undo", bots) is None:
        return 0
    return len(game.undo_targets(*access.seats, bots=bots))


def authorize(game: Game, access: Access, action: dict[str, Any],
              bots: Collection[str] = ()) -> str:
    """The player deciding the action, if the token may act for him; else 403.  For an
    undo: the seat whose own decision it takes back (with the replies of ``bots``)."""
    kind = action.get("type")
    if kind == "undo":
        # One's own last decision with the bots' replies after it (Game.undo_targets).
        targets = game.undo_targets(*access.seats, bots=bots)
        own = game.decided_by(targets[0]) if targets else None
        if own is not None and own in access.seats:
            return own
    if kind in ("undo", "redo"):
        return _mover(game, access, str(kind))
    entity = action.get("entity")
    if not isinstance(entity, str):
        raise ApiError(422, "action.entity: must be a player's name or a company's "
                            "initials")
    if entity not in game.state.companies and entity not in game.settings.players:
        raise ApiError(422, f"action.entity: unknown player or company {entity!r}")
    who = game.decider(entity)
    if who is None or who not in access.seats:
        raise ApiError(403, f"action.entity: {entity} is not decided by this token's "
                            f"seat ({', '.join(access.seats) or 'none'})")
    return who


def with_replies(game: Game, access: Access, action: dict[str, Any], who: str,
                 bots: Collection[str]) -> list[tuple[dict[str, Any], str | None]]:
    """The actions one request writes, each with the seat it is recorded for: the action
    itself, decided by ``who``; for an undo of one's own decision that the bots answered,
    one undo per bot reply and one for the decision (``Game.undo_targets``, the last
    first), each recorded for the seat that decided the action it takes back
    (``Game.decided_by``, as an import reads it: ``decided_by_now``)."""
    if action.get("type") != "undo":
        return [(action, who)]
    targets = game.undo_targets(*access.seats, bots=bots)
    if len(targets) < 2 or action.get("entity") != targets[-1]["entity"]:
        return [(action, who)]  # the engine judges it as it is
    return [({**action, "entity": target["entity"], "entity_type": target["entity_type"],
              "id": int(action["id"]) + i}, game.decided_by(target))
            for i, target in enumerate(reversed(targets))]


def _mover(game: Game, access: Access, kind: str) -> str:
    """The seat whose action an undo (redo) moves, if the token acts for it; else 403.  The
    engine names the action (``undo_target`` / ``redo_target``) and who decided it
    (``decided_by``); when it names none for these seats, the action an undo (redo) would
    move is found to say whose it is - or, should it be theirs (the undo barrier), to let the
    engine's refusal name its rule when the action is processed."""
    find = game.undo_target if kind == "undo" else game.redo_target
    target = find(*access.seats)
    if target is None:
        stack = effective_actions(game.log) if kind == "undo" else redo_stack(game.log)
        if not stack:
            raise ApiError(422, f"rule {kind}: there is nothing to {kind}")
        target = stack[-1]
    who = game.decided_by(target)
    if who is None or who not in access.seats:
        raise ApiError(403, f"{kind}: the action to {kind} was decided by {who}, "
                            "not by this token's seat")
    return who


def decided_by_now(game: Game, action: object) -> str | None:
    """Who decides ``action`` as the next action of ``game`` (a log read in: the seat its
    row records), the engine's answer; None if nobody can (the engine then refuses it)."""
    if not isinstance(action, dict):
        return None
    kind = action.get("type")
    if kind in ("undo", "redo"):
        find = game.undo_target if kind == "undo" else game.redo_target
        target = find(*game.settings.players)
        return None if target is None else game.decided_by(target)
    entity = action.get("entity")
    if not isinstance(entity, str):
        return None
    try:
        return game.decider(entity)  # the engine's one answer (3.4.1)
    except InputError:
        return None  # an unknown entity: processing the action refuses it


__all__ = ["Access", "HashedToken", "access_of", "after_acting", "authorize", "covered",
           "decided_by_now", "deciding_human", "holds", "new_token", "next_human", "offered",
           "token_hash", "undo_takes_back", "with_replies"]
