"""What every step of the game is: one decision in one object.

A *step* is what the game waits for now: a round's decision (the contract bids' bonds and
claims, the first edition's secret bids, a stock round turn), one step of a company's
operating turn (4.1-4.8) or a question pending before the game goes on (the Elephant's sale,
an excess train, the MIK 2 kit's cards...).  Each is a :class:`Step` in a module of its own
(the model: tobymao/18xx, ``lib/engine/step/``): its kind, its rule, the action types it
takes, ``legal()`` (every action possible now), ``apply()`` (one action to the state),
``disabled()`` (the options that exist but are not possible now, each with the engine's
reason, the rule and the numbers), its decision in words for the turn model and its pass.

Rules are cited by the second edition's numbers where both editions share the code; the turn
model and ``Game.process`` translate them for a first-edition game (data/rule_citations.json).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, ClassVar

from india1853.errors import InputError, RuleError
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState, PlayerState

Action = dict[str, Any]
# The kinds of track move the track step lists (enumerating every promotion is costly).
TRACK_MOVES = ("lay_tile", "promote_tile")


@dataclass(frozen=True)
class PassOption:
    """How the turn model words a step's pass: its label, effect and rule."""

    label: str
    effect: str
    rule: str


@dataclass(frozen=True)
class Answer:
    """How the turn model words the answer to an offer: the money the answering entity pays
    (negative: receives; None: no money moves) and the effect."""

    cost: int | None
    effect: str


@dataclass(frozen=True)
class Disabled:
    """An option that exists but is not possible now: the action it would be and why (the
    engine's reason, naming the rule and the numbers)."""

    action: Action
    reason: RuleError


def act(type_: str, entity: str, entity_type: str, **fields: Any) -> Action:
    """An action without ``id`` and ``created_at`` (the turn model fills them in)."""
    return {"type": type_, "entity": entity, "entity_type": entity_type, **fields}


def player_of(st: GameState, name: str) -> PlayerState:
    try:
        return st.player(name)
    except KeyError:
        raise InputError(f"unknown player {name!r}") from None


def company_of(st: GameState, initials: str) -> CompanyState:
    if initials not in st.companies:
        raise InputError(f"unknown company {initials!r}")
    return st.companies[initials]


def initials_of(st: GameState, text: str) -> str:
    key = text.upper()
    if key not in st.companies:
        raise InputError(f"company: unknown company {text!r}")
    return key


def same_action(a: Action, b: Action) -> bool:
    """Whether two actions are the same choice (``id`` and ``created_at`` aside)."""
    skip = ("id", "created_at")
    return ({k: v for k, v in a.items() if k not in skip}
            == {k: v for k, v in b.items() if k not in skip})


class Step:
    """One decision.  Subclasses set the class attributes and override ``legal``, ``apply``
    and, where an option may exist without being possible now, ``disabled``."""

    kind: ClassVar[str]
    rule: ClassVar[str]
    actions: ClassVar[tuple[str, ...]]
    # The decision in words (the turn model's ``what``): "buy, sell or redeem shares, or pass".
    what: ClassVar[str]
    # An operating step's name ("track", "buying trains"): the log's "EIR passes (track)".
    name: ClassVar[str] = ""
    # The words of this step's pass in the turn model, and in the log ("keeps the Elephant").
    pass_option: ClassVar[PassOption | None] = None
    declined: ClassVar[str] = "declines"
    # A secret stage of the contract bids (2.5.2-2.5.4, 14): its decisions are made in
    # secret, and the log titles the stage with its rule.
    secret: ClassVar[bool] = False
    # The rule an action of another type is refused under, where not ``rule``.
    type_rule: ClassVar[str] = ""

    def legal(self, rules: GameRules, st: GameState, entity: str,
              track: Collection[str] = TRACK_MOVES) -> list[Action]:
        raise NotImplementedError

    def apply(self, rules: GameRules, st: GameState, action: Action, check: bool) -> None:
        raise NotImplementedError

    def every_answer(self, st: GameState) -> list[Action]:
        """A pending question's answers: each action type the step takes, by the entity the
        question is put to (an offer's accept and reject, the extra round's call and pass)."""
        p = st.pending[0]
        return [act(kind, p.entity, p.entity_type) for kind in self.actions]

    def disabled(self, rules: GameRules, st: GameState, entity: str) -> list[Disabled]:
        """The options that exist but are not possible now, each with its reason."""
        return []

    def missing_item(self, option: Disabled) -> str | None:
        """The words by which the turn model's ``unavailable`` lines name a disabled option
        the player might look for (None: not listed there)."""
        return None

    def check_type(self, st: GameState, action: Action) -> None:
        """Refuse an action type this step does not take, naming the rule."""
        kind = action["type"]
        if kind not in self.actions:
            raise RuleError(self.type_rule or self.rule, f"{kind} is not possible now; expected "
                            f"{' or '.join(self.actions)}")

    def why_not(self, rules: GameRules, st: GameState, action: Action) -> RuleError | None:
        """Why ``action`` is not possible now, as far as this step knows without trying it:
        a type the step does not take, or one of its disabled options; None otherwise (the
        engine then judges it when it is processed)."""
        try:
            self.check_type(st, action)
        except RuleError as error:
            return error
        for option in self.disabled(rules, st, str(action["entity"])):
            if same_action(option.action, action):
                return option.reason
        return None

    def answer(self, data: dict[str, Any], *, accepted: bool) -> Answer:
        """The words of accepting (or rejecting) the offer this step asks about (the pending
        question's ``data``); only the steps that ask about an offer have one."""
        raise NotImplementedError(f"{self.kind} asks about no offer")

    def headline(self, names: list[str]) -> str | None:
        """The turn model's headline for this step, where it is not the first decision's
        sentence (several players deciding at once); None otherwise."""
        return None
