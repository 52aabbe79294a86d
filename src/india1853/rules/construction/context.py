"""Moves, the company's situation, and the edition's construction policy.

The game engine describes the operating company with a :class:`CompanyContext` and calls the
pure functions of this package; edition differences live in :class:`ConstructionPolicy`, which
is built from the edition's data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from india1853.data.model import CompanyType, Edition, FrontierBonus
from india1853.errors import InputError

DoubleLay = Literal["later", "paid"]


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay a yellow tile on an empty hex (rules 4.1 / 31.1-31.11)."""

    hex: str
    tile: str
    rotation: int


@dataclass(frozen=True, slots=True)
class Promotion:
    """Replace the tile on ``hex`` by ``tile`` at ``rotation`` (rules 4.2 / 31.12-31.23)."""

    hex: str
    tile: str
    rotation: int


@dataclass(frozen=True, slots=True)
class PlaceBase:
    """Place a base token on station ``station`` (a station id) of ``hex`` (rules 4.4 / 32)."""

    hex: str
    station: str


Move = Lay | Promotion | PlaceBase


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a legal move costs, and the hex a train must run through this turn (4.2.3, 4.4.2)."""

    cost: int
    duty: str | None = None


@dataclass(frozen=True, slots=True)
class LegalMove:
    move: Move
    cost: int
    duty: str | None = None


@dataclass(frozen=True)
class CompanyContext:
    """The operating company as the construction rules see it.

    * ``type``: major or minor (the BBCI's type is settled by rule 2.6).
    * ``double_lay``: the second edition's choice of rule 4.1.3 ("later": two lays from the
      phase of the first '3' train; "paid": two lays now, paying the fee each time), None
      until made.
    * ``owes_credit_train``: a Manager still owes the bank for a train (3.4.6).
    * ``lays_done`` / ``promoted``: what the company has already built this turn.
    * ``frontier_paid``: (hex, company) pairs of frontier bonuses already paid in the game.
    * ``running``: initials of every company running (floated); rule 4.4.7 / 32.6.
    * ``bases_placed``: additional bases placed so far (their cost, 4.4.4 / 32.3).
    """

    company: str
    type: CompanyType
    phase: int
    cash: int
    trains: tuple[str, ...] = ()
    running: frozenset[str] = frozenset()
    double_lay: DoubleLay | None = None
    owes_credit_train: bool = False
    lays_done: tuple[Lay, ...] = ()
    promoted: bool = False
    frontier_paid: frozenset[tuple[str, str]] = field(default_factory=frozenset)
    bases_placed: int = 0

    def __post_init__(self) -> None:
        if self.type not in ("major", "minor"):
            raise InputError(f"type: expected major or minor, got {self.type!r}")
        if self.double_lay not in (None, "later", "paid"):
            raise InputError(f"double_lay: expected later, paid or null, got {self.double_lay!r}")
        if self.cash < 0:
            raise InputError(f"cash: must not be negative, got {self.cash}")


@dataclass(frozen=True)
class ConstructionPolicy:
    """The edition's construction rules, taken from its data."""

    tile_lays: dict[str, int]
    double_lay_fees: dict[str, int]
    double_lay_free_from_phase: int
    areas_relaxed_phase: int | None
    relaxing_trains: frozenset[str]
    frontier: FrontierBonus

    @classmethod
    def of(cls, edition: Edition) -> ConstructionPolicy:
        """The edition's policy, worked out once per edition object (kept with it, so that
        its id is never reused while the entry lives): every check asks for it."""
        kept = _POLICIES.get(id(edition))
        if kept is not None and kept[0] is edition:
            return kept[1]
        policy = cls._of(edition)
        _POLICIES[id(edition)] = (edition, policy)
        return policy

    @classmethod
    def _of(cls, edition: Edition) -> ConstructionPolicy:
        relaxed = edition.rules.areas_relaxed_phase
        trains: frozenset[str] = frozenset()
        if relaxed is not None:
            # 4.2.3 / 4.4.2: "owning at least one '5' train or '6' train": the train that opens
            # the phase and every broad-gauge train at least as long.
            opener = edition.phase(relaxed).train
            if opener is not None:
                length = edition.trains.get(opener).large_stations
                trains = frozenset(
                    t.name for t in edition.trains
                    if t.gauge == "broad" and t.large_stations >= length
                )
        return cls(
            tile_lays=dict(edition.rules.tile_lays),
            double_lay_fees=dict(edition.costs.double_lay_fees),
            double_lay_free_from_phase=edition.rules.double_lay_free_from_phase,
            areas_relaxed_phase=relaxed,
            relaxing_trains=trains,
            frontier=edition.rules.frontier_bonus,
        )

    @property
    def double_lay_is_a_choice(self) -> bool:
        """Second edition 4.1.3: a major chooses how it gets its second lay."""
        return bool(self.double_lay_fees)


_POLICIES: dict[int, tuple[Edition, ConstructionPolicy]] = {}
