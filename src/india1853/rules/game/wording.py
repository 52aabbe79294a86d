"""Sentences about a player whose name may be "You" (issue 13).

``make play`` seats a player named ``You``: "You passes" and "You's turn" read wrong.  The
sentences of the turn model (:mod:`india1853.rules.game.turn`) and of the interfaces (the
narration, the terminal's prompts) name their subject through these helpers, so the verb and
the possessive agree with a subject that is the second person.  A name is second person when
it is "you" in any case; every other name (and every company) is the third person singular.
"""

from __future__ import annotations

# Verbs whose plain form is not the third person minus its ending.
IRREGULAR: dict[str, str] = {"is": "are", "has": "have", "does": "do"}


def is_you(subject: str) -> bool:
    """Whether ``subject`` is the second person: the name "You", in any case."""
    return subject.casefold() == "you"


def plain_form(verb: str) -> str:
    """The plain form of a verb in the third person singular: "passes" -> "pass",
    "buys" -> "buy", "carries" -> "carry", "is" -> "are"."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb[:-1] if verb.endswith("s") else verb


def verb(subject: str, third_person: str) -> str:
    """``third_person`` ("passes") as it agrees with ``subject``: unchanged, or its plain
    form ("pass") when the subject is "You"."""
    return plain_form(third_person) if is_you(subject) else third_person


def agree(subject: str, predicate: str) -> str:
    """``"Ann passes"`` or ``"You pass"``: the subject and the predicate, whose first word (a
    verb in the third person singular) agrees with it."""
    first, _, rest = predicate.partition(" ")
    return f"{subject} {verb(subject, first)}" + (f" {rest}" if rest else "")


def possessive(subject: str) -> str:
    """``"Ann's"``, or ``"Your"`` for the name "You" (``"YOUR"`` for "YOU")."""
    if is_you(subject):
        return subject + ("R" if subject.isupper() else "r")
    return f"{subject}'s"
