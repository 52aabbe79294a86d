"""The mutable state of one game.

The engine applies each action to a :meth:`GameState.clone` and keeps the clone only if every
check passed, so a refused action leaves the state untouched.  Everything here is plain data
(numbers, strings, lists, dicts) except ``board``, an immutable ``BoardState`` shared between
clones.  ``to_json`` gives the whole state (the moderator's view); ``views`` filters it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from india1853.board.state import BoardState
from india1853.rules.game.events import Event

_T = TypeVar("_T")

# What ``GameState.round`` may be: the contract bids (2.5: bonds, then claims; first edition 14:
# the secret bids), the MIK 2 kit's card actioning before a stock round and its draws before an
# operating round's first company, a stock round and its end (the Elephant's sale, 3.1.11), an
# operating round and its end (the Elephant's extra round, 4.9), and the end of the game (5.1).
RoundKind = Literal[
    "bonds", "claims", "bids", "kit_actions", "stock", "stock_end", "kit_draws", "operating",
    "operating_end", "finished",
]


def _shallow(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance (several times faster than ``copy.copy``,
    which goes through ``__reduce_ex__``; and assigning a copy of the ``__dict__`` is several
    times faster than updating the new object's empty one)."""
    new = object.__new__(type(obj))
    new.__dict__ = obj.__dict__.copy()
    return new


def _copy_turn(t: OperatingTurn) -> OperatingTurn:
    new = _shallow(t)
    new.order = list(t.order)
    new.lays_done = list(t.lays_done)
    new.duties = list(t.duties)
    # Route objects are never changed in place: each run replaces the whole list.
    new.routes = list(t.routes)
    return new


def _copy_pending(p: Pending) -> Pending:
    return Pending(p.kind, p.entity, p.entity_type, copy.deepcopy(p.data))


def _copy_player(p: PlayerState) -> PlayerState:
    return PlayerState(
        p.name, p.cash, dict(p.shares), dict(p.unredeemed), dict(p.contracted), dict(p.since),
        p.bond, list(p.cities), list(p.claims), p.bid_complete, p.bond_returned, p.declared,
    )


@dataclass
class PlayerState:
    name: str
    cash: int
    shares: dict[str, int] = field(default_factory=dict)
    unredeemed: dict[str, int] = field(default_factory=dict)
    contracted: dict[str, int] = field(default_factory=dict)
    since: dict[str, int] = field(default_factory=dict)
    bond: int | None = None
    cities: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    bid_complete: bool = False
    bond_returned: bool = False
    # 15.4 (first edition): the bid's cities declared to break a seating tie.
    declared: bool = False


@dataclass
class CompanyState:
    initials: str
    number: int
    kind: str
    ipo: int
    pool: int = 0
    contract: bool = False
    floated: bool = False
    formed: bool = False
    director: str | None = None
    manager: str | None = None
    had_director: bool = False
    cash: int = 0
    price_index: int | None = None
    credit_train: str | None = None
    extra_bases: int = 0
    lay_option: int | None = None
    operated: int = 0
    token: bool = False
    formed_in_round: int = 0
    # MIK 2: shares issued through the kit's Director's Shares (2 each actioned, less 2 each
    # sold to the discard stack), beyond the ten of the share cards.
    kit_shares: int = 0
    # The stock round in which a director was first appointed; 0: none yet.  The first stock
    # round's appointment settles the BBCI's type by the director's secret bid (2.6.2).
    first_director_round: int = 0


@dataclass
class TrainState:
    id: str
    name: str
    runs_as: str
    where: str  # "unissued" | "bank" | "company" | "pool" | "removed"
    owner: str | None = None
    extra: bool = False


@dataclass
class StockTurn:
    current: int = 0
    passes_in_row: int = 0
    last_buyer: str | None = None
    sold_this_round: dict[str, list[str]] = field(default_factory=dict)
    sold_this_turn: list[str] = field(default_factory=list)
    floated_this_turn: list[str] = field(default_factory=list)
    first_sale_window: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class OperatingTurn:
    order: list[str] = field(default_factory=list)
    index: int = 0
    step: str = ""
    lays_done: list[tuple[str, str, int]] = field(default_factory=list)
    promoted: bool = False
    duties: list[str] = field(default_factory=list)
    revenue: int = 0
    routes: list[dict[str, Any]] = field(default_factory=list)
    bought_trains: int = 0


@dataclass
class Pending:
    """An interruption awaiting one entity's decision (an offer, an excess train, ...)."""

    kind: str
    entity: str
    entity_type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class KitState:
    """The MIK 2 kit's cards (``rules.game.kit``): ids as in ``india1853.data.kit``.

    ``deck`` is the face-down stack (drawn from the end; its order is in no view),
    ``discard`` the discard stack, ``hands`` each player's drawn cards not yet actioned (secret),
    ``directors`` the Director's Shares each player holds per company (the kit's played ones
    and the company's own certificate, ``DS:<company>:0``; public).  ``disturbed``: the cities a
    Disturbances card has closed this game; ``closed``: the one closed for the railway round
    now or next.  ``action_for``: the dealing round whose card actioning has begun.
    ``draws``/``shown``: counters of cards drawn and actioned (the undo barrier)."""

    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    directors: dict[str, list[str]] = field(default_factory=dict)
    disturbed: list[str] = field(default_factory=list)
    closed: str | None = None
    # The operating round (``GameState.operating_round``) the closure applies to.
    closed_round: int = 0
    shuffles: int = 0
    action_for: int = 0
    passes: int = 0
    draws: int = 0
    shown: int = 0

    def clone(self) -> KitState:
        new = _shallow(self)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.hands = {k: list(v) for k, v in self.hands.items()}
        new.directors = {k: list(v) for k, v in self.directors.items()}
        new.disturbed = list(self.disturbed)
        return new


@dataclass
class GameState:
    players: list[PlayerState]
    companies: dict[str, CompanyState]
    trains: list[TrainState]
    board: BoardState
    bank: int
    start_total: int
    seed: int = 0
    round: RoundKind = "bonds"
    phase: int = 1
    elephant: str | None = None
    stock_round: int = 0
    operating_round: int = 0
    or_in_set: int = 0
    ors_in_set: int = 1
    extra_or: bool = False
    stock: StockTurn = field(default_factory=StockTurn)
    turn: OperatingTurn = field(default_factory=OperatingTurn)
    pending: list[Pending] = field(default_factory=list)
    bank_broken: bool = False
    end_reason: str | None = None
    seq: int = 0
    minor_trains_added: bool = False
    elephant_offers: list[str] = field(default_factory=list)
    frontier_paid: list[tuple[str, str]] = field(default_factory=list)
    # Broad train types all of whose cards have been bought from the bank (4.8.3): a card of
    # such a type back in the bank (a credit train returned, 4.8.10) does not bar the next.
    broad_sold_out: list[str] = field(default_factory=list)
    turn_start_board: BoardState | None = None
    # The undo barrier (hidden information): the position, among the actions in force, of the
    # last action that revealed a secret, and what it revealed.  Undo may not reach it.
    undo_barrier: int = 0
    undo_barrier_reason: str = ""
    # 23.1 (first edition): the Company Credits in circulation - issued by the bank (formation,
    # revenue withheld, mail, frontier payments) less those paid back to it.  A currency apart
    # from the bank's personal money (``bank``); always 0 where companies hold cash (2.x).
    credits: int = 0
    # The MIK 2 kit's cards; None without the kit.
    kit: KitState | None = None
    # Set by a round module when its round is over, during the action that ended it; the
    # sequencer (``rules.game.sequence``) then starts the next round and clears it.
    round_over: bool = False
    # The events of the action being applied (``events.emit``): collected by the engine after
    # each action, never part of the state proper.
    events: list[Event] = field(default_factory=list, compare=False, repr=False)

    def clone(self) -> GameState:
        """A copy sharing only immutable parts (the boards, the edition).  Hand-written
        because ``copy.deepcopy`` dominated the cost of an action."""
        new = _shallow(self)
        new.players = [_copy_player(p) for p in self.players]
        new.companies = {k: _shallow(c) for k, c in self.companies.items()}
        new.trains = [_shallow(t) for t in self.trains]
        new.stock = StockTurn(
            self.stock.current, self.stock.passes_in_row, self.stock.last_buyer,
            {k: list(v) for k, v in self.stock.sold_this_round.items()},
            list(self.stock.sold_this_turn), list(self.stock.floated_this_turn),
            {k: list(v) for k, v in self.stock.first_sale_window.items()},
        )
        new.turn = _copy_turn(self.turn)
        new.pending = [_copy_pending(p) for p in self.pending]
        new.elephant_offers = list(self.elephant_offers)
        new.frontier_paid = list(self.frontier_paid)
        new.broad_sold_out = list(self.broad_sold_out)
        new.kit = self.kit.clone() if self.kit is not None else None
        new.events = []
        return new

    def end_round(self) -> None:
        """Report the round in progress over: the sequencer decides what follows."""
        self.round_over = True

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def company_trains(self, initials: str) -> list[TrainState]:
        return [t for t in self.trains if t.where == "company" and t.owner == initials]
