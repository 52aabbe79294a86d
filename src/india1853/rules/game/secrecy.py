"""What is secret, to whom and until when: the one declaration every output is built from.

Each secret is declared once, here: the action fields that hold it (:data:`ACTION_SECRETS`),
and the secrets of the state that no action carries (:data:`STATE_SECRETS`: the views of
``views.py`` hide them with the predicates below).  A secret is always known to its owner, the
player who made the action (the acting seat), and to the moderator; to everyone else it is
hidden until the rule that reveals it:

- second edition, a bond's amount (2.5.2): revealed when every bond is in (2.5.3);
- second edition, a bid's city (2.5.4): revealed when the contract is fulfilled (4.3.2);
- first edition, a whole bid (14.5): the bond and the shares claimed are stated once every bid
  is in (15.1); the cities stay secret until declared to break a seating tie (15.4) or the
  contract is fulfilled (4.3.2 / 28);
- MIK 2, the cards rejected go face down on the discard stack: never revealed in play;
- at the end of the game everything is public (5.1 / 41): every action whole.

An action undone (or never put back) keeps its secret until the end: the reveal rules speak of
the bids in force, not of a bond written and taken back.

:func:`observe_action` (one action) and :func:`observed_log` (the log) give the actions as a
viewer - a player's name, or None for a spectator - may see them now, in the style of an
OpenSpiel observer: a field withheld is left out and named in the action's ``"hidden"`` list.
``as_of`` (an earlier game of the same log, for history) hides whatever was still secret at
that point, and never shows more than is revealed now.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from india1853.rules.game.events import Event
from india1853.rules.game.state import GameState, PlayerState
from india1853.rules.game.undo_log import effective_actions


class Game(Protocol):
    """What an observation reads of a game (``game.Game`` is one): its state now and its log
    (a protocol, so that the declaration stays below the game that the views serve)."""

    @property
    def state(self) -> GameState: ...

    log: list[dict[str, Any]]

Action = Mapping[str, Any]


def game_over(st: GameState) -> bool:
    """5.1 / 41: once the game is over nothing is secret."""
    return st.round == "finished"


def bonds_secret(st: GameState) -> bool:
    """2.5.2-2.5.3: bonds are written secretly and revealed together once every bond is in.
    14.5, 15.1 (first edition): the whole bid is secret until every bid is in; then the bonds
    and the shares claimed are stated, the cities stay secret."""
    return st.round in ("bonds", "bids")


def bid_secret(st: GameState) -> bool:
    """14.5, 15.1 (first edition): the whole bid - cities, shares, bond - is secret until every
    bid is in."""
    return st.round == "bids"


def cities_public(st: GameState, player: PlayerState) -> bool:
    """A bid's cities: revealed when the contract is fulfilled (4.3.2), declared to break a
    seating tie (15.4), or the game is over (5.1)."""
    return player.bond_returned or player.declared or game_over(st)


def progress_visible(st: GameState, player: PlayerState, viewer: str | None) -> bool:
    """A bid's progress (which of its cities are joined, whether it is out of reach, 4.3.1)
    names its cities: the bidder's own, and everyone's once the cities are public."""
    return viewer == player.name or cities_public(st, player)


@dataclass(frozen=True)
class FieldSecret:
    """One secret field of an action: ``field`` (``"claims[].city"``: that key of every item of
    the list ``claims``), the rule that makes it secret, the rule that reveals it, and
    ``public(state, action, in_force)``: whether everyone may see it in that state."""

    field: str
    rule: str
    revealed_by: str
    public: Callable[[GameState, Action, bool], bool]


def _bond_public(st: GameState, _action: Action, in_force: bool) -> bool:
    return game_over(st) or (in_force and not bonds_secret(st))


def _city_public(st: GameState, action: Action, in_force: bool) -> bool:
    if game_over(st):
        return True
    if not in_force:
        return False
    player = _player(st, str(action.get("entity")))
    return player is not None and cities_public(st, player)


def _bid_public(st: GameState, _action: Action, in_force: bool) -> bool:
    return game_over(st) or (in_force and not bid_secret(st))


def _never_in_play(st: GameState, _action: Action, _in_force: bool) -> bool:
    return game_over(st)


def _player(st: GameState, name: str) -> PlayerState | None:
    return next((p for p in st.players if p.name == name), None)


# Per action type, its secret fields.  Owned by the acting seat (the action's entity).
ACTION_SECRETS: dict[str, tuple[FieldSecret, ...]] = {
    "place_bond": (FieldSecret("amount", "2.5.2", "2.5.3: every bond is in", _bond_public),),
    "claim_city": (FieldSecret("city", "2.5.4", "4.3.2: the contract is fulfilled",
                               _city_public),),
    "submit_bid": (
        # The order of the claims would tell which share goes with which city: while the
        # cities are secret the claims are shown sorted by company.
        FieldSecret("claims", "14.5", "15.1: every bid is in", _bid_public),
        FieldSecret("claims[].city", "14.5",
                    "15.4: declared to break a tie, or 4.3.2 / 28: the contract is fulfilled",
                    _city_public),
    ),
    "reject_cards": (FieldSecret("cards", "MIK 2, ACTIONING CARDS (face down)",
                                 "5.1: the end of the game", _never_in_play),),
}

# Per event kind (events.py), its secret fields: the same secrets as the actions', reported
# by the rules that apply them.  Owned by the event's entity (the player whose secret it is).
EVENT_SECRETS: dict[str, tuple[FieldSecret, ...]] = {
    "bond_placed": ACTION_SECRETS["place_bond"],
    "city_claimed": ACTION_SECRETS["claim_city"],
    "bid_submitted": (
        *ACTION_SECRETS["submit_bid"],
        FieldSecret("bond", "14.5", "15.1: every bid is in", _bid_public),
    ),
    "cards_rejected": ACTION_SECRETS["reject_cards"],
    "card_drawn": (FieldSecret("card", "MIK 2, METHOD (a hand is secret)",
                               "5.1: the end of the game (a card actioned is shown then)",
                               _never_in_play),),
}

# The secrets of the state that no action field carries, hidden by the views (views.py) with
# the predicates above: (what, whose, rule, revealed by).
STATE_SECRETS: tuple[tuple[str, str, str, str], ...] = (
    ("a bond's amount, the player's cash and the total of bonds held while bonds are written",
     "the bidder", "2.5.2 / 14.5", "2.5.3 / 15.1: every bond is in"),
    ("a first-edition bid's claims (shares and number of cities)", "the bidder", "14.5",
     "15.1: every bid is in"),
    ("a bid's cities", "the bidder", "2.5.4 / 14.5",
     "4.3.2 fulfilled, 15.4 declared, 5.1 the end"),
    ("a bid's progress: which of its cities are joined by track, and the warning that it is "
     "out of reach (predicate progress_visible)", "the bidder", "2.5.4 / 14.5",
     "4.3.2 fulfilled, 15.4 declared, 5.1 the end"),
    ("a MIK 2 hand (the cards drawn and kept)", "its holder", "MIK 2, METHOD",
     "a card actioned is public; the rest at the end (5.1)"),
    ("the MIK 2 stack's order and the discard stack's cards", "nobody (the moderator)",
     "MIK 2, METHOD", "the end (5.1), with the seed"),
)


@dataclass(frozen=True)
class _Moment:
    """What an observation needs of a game at one point: its state and the ids in force."""

    state: GameState
    in_force: frozenset[int]
    length: int

    @staticmethod
    def of(game: Game) -> _Moment:
        return _Moment(game.state, frozenset(int(a["id"]) for a in effective_actions(game.log)),
                       len(game.log))

    def public(self, secret: FieldSecret, action: Action) -> bool:
        action_id = int(action.get("id", 0))
        if action_id > self.length:
            return False
        return secret.public(self.state, action, action_id in self.in_force)


class Observer:
    """The actions of one game as one viewer may see them (see the module docstring)."""

    def __init__(self, game: Game, viewer: str | None, *, moderator: bool = False,
                 as_of: Game | None = None) -> None:
        self.viewer = viewer
        self.moderator = moderator
        self.moments = [_Moment.of(game)] + ([_Moment.of(as_of)] if as_of is not None else [])

    def owns(self, action: Action) -> bool:
        return self.moderator or (self.viewer is not None
                                  and action.get("entity_type") == "player"
                                  and action.get("entity") == self.viewer)

    def revealed(self, secret: FieldSecret, action: Action) -> bool:
        return all(m.public(secret, action) for m in self.moments)

    def observe(self, action: Action) -> dict[str, Any]:
        """``action`` as the viewer may see it: its secret fields left out while hidden."""
        out = dict(action)
        secrets = ACTION_SECRETS.get(str(action.get("type")), ())
        if not secrets or self.owns(action):
            return out
        hidden: list[str] = []
        for secret in secrets:
            if self.revealed(secret, action):
                continue
            name, _, key = secret.field.partition("[].")
            if name not in out or name in hidden:
                continue
            if not key:
                del out[name]
            else:
                items = [{k: v for k, v in item.items() if k != key}
                         for item in out[name] if isinstance(item, Mapping)]
                out[name] = sorted(items, key=lambda item: sorted(item.items()))
            hidden.append(secret.field)
        if hidden:
            out["hidden"] = hidden
        return out


def _withheld(fields: Mapping[str, Any], secrets: tuple[FieldSecret, ...]) -> dict[str, Any]:
    """``fields`` without its secret fields (as they were when made: none revealed yet), those
    withheld named in ``"hidden"``."""
    out = dict(fields)
    hidden = [s.field for s in secrets if s.field in out]
    for name in hidden:
        del out[name]
    if hidden:
        out["hidden"] = hidden
    return out


def as_made(action: Action, *, moderator: bool = False) -> dict[str, Any]:
    """``action`` as the table (not its maker) saw it when it was made: every secret field
    withheld - no action reveals its own secret; the reveal comes after, by a rule - or whole
    for the moderator.  The narration tells actions so (the reveals are events of their own)."""
    if moderator:
        return dict(action)
    return _withheld(action, ACTION_SECRETS.get(str(action.get("type")), ()))


def event_as_made(event: Event, *, moderator: bool = False) -> Event:
    """``event`` as the table (not its owner) learnt of it when it happened: its secret fields
    (:data:`EVENT_SECRETS`) withheld and named in ``"hidden"``, or whole for the moderator.
    The reveals are events of their own (the bonds revealed, a contract fulfilled, the end)."""
    secrets = EVENT_SECRETS.get(event.kind, ())
    if moderator or not secrets:
        return event
    return Event(event.kind, event.entity, event.rule, _withheld(event.fields, secrets))


def observe_action(game: Game, action_id: int, viewer: str | None, *, moderator: bool = False,
                   as_of: Game | None = None) -> dict[str, Any]:
    """Action ``action_id`` (1, 2, ... in log order) of ``game`` as ``viewer`` may see it now
    (``as_of``: also as it was seen at that earlier point)."""
    if not 1 <= action_id <= len(game.log):
        raise IndexError(f"action {action_id}: the log has {len(game.log)} actions")
    observer = Observer(game, viewer, moderator=moderator, as_of=as_of)
    return observer.observe(game.log[action_id - 1])


def observed_log(game: Game, viewer: str | None, *, moderator: bool = False,
                 as_of: Game | None = None) -> list[dict[str, Any]]:
    """Every action of the log (up to ``as_of``'s length) as ``viewer`` may see it."""
    observer = Observer(game, viewer, moderator=moderator, as_of=as_of)
    upto = len(game.log) if as_of is None else min(len(as_of.log), len(game.log))
    return [observer.observe(a) for a in game.log[:upto]]


def secret_fields() -> dict[str, list[str]]:
    """The declaration in short, for the documentation: action type -> its secret fields."""
    return {kind: [s.field for s in secrets] for kind, secrets in ACTION_SECRETS.items()}


def secret_event_fields() -> dict[str, list[str]]:
    """The same for the events: event kind -> its secret fields."""
    return {kind: [s.field for s in secrets] for kind, secrets in EVENT_SECRETS.items()}


# --- the seed --------------------------------------------------------------------------------
# The seed drives the game's hidden random state (the MIK 2 stack's order, its reshuffles) and
# its lots (2.5.3 / 15.5 seating ties, a dealt start): whoever knows it before the end knows
# the stack.  A server picks it from the operating system (SEED_BITS bits), publishes
# seed_commitment(seed) from the start and reveals the seed at the end (5.1), so that anyone
# can check that the deal followed from a seed fixed before play.

SEED_BITS = 128


def seed_commitment(seed: int) -> str:
    """The SHA-256 (hex) of the seed's decimal digits (ASCII, a leading ``-`` if negative)."""
    import hashlib

    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()
