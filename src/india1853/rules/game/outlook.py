"""Answers for planning ahead: what a company's later steps would offer it, asked before
they come.

A player (or a bot) deciding at a company's track step or dividend decision weighs the train
it will want at the trains step: its price (4.8.3-4.8.19), whether the train limit leaves room
for it (4.8.5).  A player in a stock round weighs how far a company is from floating (2.7.5,
2.9.1; first edition 16.7, 17.1, 22.1).  These are the engine's own answers (the same
functions the steps use), so that no interface works them out again.
"""

from __future__ import annotations

from dataclasses import dataclass

from india1853.rules.game.game import Game
from india1853.rules.game.shares import issued
from india1853.rules.game.trains import Offer, offers_beyond_limit, phase_limit


@dataclass(frozen=True)
class TrainOffer:
    """A train the bank offers a company now: the type it would get, its gauge and price."""

    train: str
    gauge: str
    price: int


@dataclass(frozen=True)
class TrainOutlook:
    """A company's trains step as it stands now: the phase's train limit (4.8.5; None: no
    limit), the trains it owns, and every train the bank offers it, the limit and its money
    aside (4.8.3, 4.8.6, 4.8.11-4.8.19), in the bank's order."""

    limit: int | None
    owned: int
    offers: tuple[TrainOffer, ...]

    @property
    def at_limit(self) -> bool:
        """Whether the company owns as many trains as the phase allows (4.8.5)."""
        return self.limit is not None and self.owned >= self.limit

    def cheapest(self, gauge: str) -> TrainOffer | None:
        """The cheapest offer of a gauge ("broad" or "metre"), or None."""
        return min((o for o in self.offers if o.gauge == gauge), key=lambda o: o.price,
                   default=None)


def _offer(game: Game, offer: Offer) -> TrainOffer:
    return TrainOffer(offer.train, game.rules.train_type(offer.train).gauge, offer.price)


def train_outlook(game: Game, initials: str) -> TrainOutlook:
    """The company's :class:`TrainOutlook` now (4.8.3-4.8.19, 4.8.5)."""
    st, rules = game.state, game.rules
    co = game.company(initials)
    seen: dict[tuple[str, int], TrainOffer] = {}
    for offer in offers_beyond_limit(rules, st, co):
        if not offer.token:
            seen.setdefault((offer.train, offer.price), _offer(game, offer))
    return TrainOutlook(phase_limit(rules, st), len(st.company_trains(initials)),
                        tuple(seen.values()))


def shares_to_float(game: Game, initials: str) -> int:
    """How many more of the company's shares must be issued before it floats: its qualifying
    number (TABLE 3, as the game's variants set it) less the shares issued, pool and MIK 2
    shares included (2.7.5, 2.9.1, 3.1.10; first edition 16.7, 17.1, 22.1); 0 once it has
    floated."""
    co = game.company(initials)
    if co.floated:
        return 0
    return max(0, game.rules.table.qualifying_shares - issued(game.rules, co))
