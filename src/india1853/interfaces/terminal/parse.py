"""What the player types: a number from the list, a short command, or a table command.

:func:`parse` turns one line into a :class:`Choice` (a number of the list of legal actions), a
:class:`Request` (an action type with the fields typed, completed later from the legal actions)
or a :class:`Meta` (help, undo, board, routes, ...).  :func:`resolve` turns a choice or request
into the action to submit: the matching legal action if there is one, else the action as typed,
so that the engine explains why it is illegal (with the rule) instead of a vague "no such move".
Bad input raises :class:`CommandError` with a one-line message; so do words left over after a
complete command (``sell EIR 1 2``), which are never silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from india1853.errors import InputError, RuleError
from india1853.rules.game.actions import ACTION_TYPES


class CommandError(InputError):
    """A line the parser does not understand."""


class Refused(RuleError):
    """A command for an option that is not possible now: the engine's reason, as given."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(rule, reason.removeprefix(f"rule {rule}: "))


@dataclass(frozen=True)
class Choice:
    """A number of the list (1-based)."""

    number: int


@dataclass(frozen=True)
class Request:
    """An action type and the fields the player typed."""

    type: str
    fields: dict[str, Any] = field(default_factory=dict)
    # The words typed after the verb, where a command's fields are read from a variable
    # number of them (a city of several words).
    words: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Meta:
    """A table command that is not a game action: help, undo, redo, board, routes, list, log,
    mybid, hint, quit."""

    name: str
    argument: str = ""


Command = Choice | Request | Meta

META_WORDS: dict[str, str] = {
    "help": "help", "?": "help", "h": "help",
    "undo": "undo", "redo": "redo",
    "board": "board", "routes": "routes", "log": "log", "list": "list", "all": "list",
    "mybid": "mybid", "contract": "mybid", "hint": "hint",
    "quit": "quit", "exit": "quit", "q": "quit",
}
# The table commands that take one word after them (``list lay``).
META_ARGUMENT: dict[str, str] = {"list": "list [TYPE] (e.g. list lay)",
                                  "help": "help [RULE] (e.g. help 2.5.7)"}

HELP: tuple[tuple[str, str], ...] = (
    ("N", "take action N of the numbered list"),
    ("pass", "pass / decline / end this step"),
    ("bond AMOUNT", "contract bid stage 1: your secret bond, e.g. bond 100 (2.5.2)"),
    ("claim CITY COMPANY", "contract bid stage 2: a secret city and a public share (2.5.4)"),
    ("bid CITY CO, CITY CO, ...", "first edition: your whole secret bid, e.g. bid Delhi NWR, "
     "Lahore NWR, Multan NWR (14)"),
    ("buy COMPANY [ipo|pool]", "buy a share (3.1.4, 3.1.7)"),
    ("sell COMPANY [COUNT]", "sell shares to the bank pool (3.1.5)"),
    ("redeem COMPANY", "pay par for an un-redeemed share (2.7.4)"),
    ("offer PLAYER PRICE", "offer the Elephant for a price (3.1.11)"),
    ("accept / reject", "answer an offer"),
    ("extra", "call an extra operating round with the Elephant (4.9)"),
    ("option 1|2", "a major's lay option on its first turn (4.1.3)"),
    ("lay HEX TILE ROTATION", "lay a tile, e.g. lay H24 5 1 (4.1); on a laid tile: promote (4.2)"),
    ("promote HEX TILE ROTATION", "promote a tile (4.2)"),
    ("base HEX [STATION]", "establish a base station (4.4)"),
    ("run", "run the trains on the optimal routes (4.5)"),
    ("payout / withhold", "pay the dividend or keep it in the company (4.6)"),
    ("train NAME [token] [credit] [from COMPANY PRICE]",
     "buy a train from the bank (with a minor's token 4.8.19, on credit 3.4.3) or a company"),
    ("discard TRAIN_ID", "return an excess train (4.8.6)"),
    ("repay / return", "pay for, or return, the train bought on credit (4.8.10)"),
    ("draw / play CARD [HEX|CITY]", "MIK 2: take a card; action a card (e.g. play DS:BBCI:3)"),
    ("help RULE", "what a rule says, in short (e.g. help 2.5.7)"),
    ("undo / redo", "take back your own last action (and the bots' after it) / put it back"),
    ("board", "tiles and bases on the board (india1853 render draws it)"),
    ("routes", "the optimal routes of the company running now"),
    ("list [TYPE]", "every legal action, or those of one type (e.g. list lay)"),
    ("log", "the whole game log so far"),
    ("mybid", "look at your own secret bond and contract cities (the others look away)"),
    ("hint", "what the strong bot would do now, from your view, and the options it weighed"),
    ("quit", "stop; the game is saved after every action (resume with --load)"),
)


def _is_number(text: str) -> bool:
    """ASCII digits only: ``int`` and ``str.isdigit`` also take other scripts' digits (١٠٠,
    full-width ５) and ``1_0``, which at a hidden prompt the player would never see read."""
    return text.isascii() and text.isdigit()


def _int(text: str, what: str) -> int:
    digits = text.lstrip("£")
    if digits.startswith("-") and _is_number(digits[1:]):
        raise CommandError(f"{what}: must not be negative")
    if not _is_number(digits):
        raise CommandError(f"{what}: {text!r} is not a whole number (digits 0-9)")
    return int(digits)


# The command a player types for each action type, for messages in his words.
COMMAND_WORDS: dict[str, str] = {
    "place_bond": "bond", "claim_city": "claim", "pass": "pass", "buy_share": "buy",
    "sell_shares": "sell", "redeem_share": "redeem", "offer_elephant": "offer",
    "accept_offer": "accept", "reject_offer": "reject", "call_extra_or": "extra",
    "choose_lay_option": "option", "lay_tile": "lay", "promote_tile": "promote",
    "place_base": "base", "run_routes": "run", "dividend": "payout/withhold",
    "buy_train": "train", "discard_train": "discard", "repay_credit": "repay",
    "return_credit_train": "return", "undo": "undo", "redo": "redo",
    "draw_card": "draw", "play_card": "play",
}
_FIELD_OF_ACTION = re.compile(r"\baction (\w+)\.(\w+)")
_NOT_NOW = re.compile(r"\b(\w+) is not possible now; expected (\w+(?: or \w+)*)")
# Names with an underscore are never English words; "pass" or "dividend" are replaced only in
# the engine's "X is not possible now; expected Y" (a "dividend" elsewhere is the word).
_ACTION_TYPE = re.compile(r"\b(" + "|".join(sorted((k for k in COMMAND_WORDS if "_" in k),
                                                   key=len, reverse=True)) + r")\b")


def _word(kind: str) -> str:
    return f"'{COMMAND_WORDS.get(kind, kind)}'"


def in_command_words(message: str) -> str:
    """An engine message with its action type names put as the commands the player types
    (``place_bond is not possible now; expected claim_city or pass`` becomes ``'bond' is not
    possible now; expected 'claim' or 'pass'``; ``action sell_shares.count: ...`` becomes
    ``sell, the count: ...``)."""
    message = _FIELD_OF_ACTION.sub(
        lambda m: f"{COMMAND_WORDS.get(m.group(1), m.group(1))}, the {m.group(2)}", message)
    message = _NOT_NOW.sub(
        lambda m: f"{_word(m.group(1))} is not possible now; expected "
                  + " or ".join(_word(k) for k in m.group(2).split(" or ")), message)
    return _ACTION_TYPE.sub(lambda m: _word(m.group(1)), message)


def _need(words: list[str], count: int, usage: str, most: int | None = None) -> None:
    """At least ``count`` words, and no more than ``most`` (default ``count``): words left
    over would otherwise be dropped without a word (``sell EIR 1 2``)."""
    if len(words) < count:
        raise CommandError(f"usage: {usage}")
    _at_most(words, count if most is None else most, usage)


def _at_most(words: list[str], most: int, usage: str) -> None:
    if len(words) > most:
        extra = " ".join(words[most:])
        raise CommandError(f"{words[0]}: {extra!r} left over (usage: {usage})")


def _tile_fields(words: list[str], verb: str) -> dict[str, Any]:
    _need(words, 4, f"{verb} HEX TILE ROTATION (e.g. {verb} H24 5 1)")
    return {"hex": words[1].upper(), "tile": words[2],
            "rotation": _int(words[3], "rotation")}


def _buy(words: list[str], company_turn: bool) -> Request:
    if company_turn:
        return _train(["train", *words[1:]])
    _need(words, 2, "buy COMPANY [ipo|pool] (or, for a company, buy TRAIN)", 3)
    fields: dict[str, Any] = {"company": words[1].upper()}
    if len(words) > 2:
        source = words[2].lower()
        if source not in ("ipo", "pool"):
            raise CommandError(f"buy: source {words[2]!r} is not ipo or pool")
        fields["source"] = source
    return Request("buy_share", fields)


def _train(words: list[str]) -> Request:
    usage = ("train NAME [token] [credit] [from COMPANY PRICE] "
             "(e.g. train 3, train 2M from EIR 10)")
    _need(words, 2, usage, len(words))  # the words after the name are checked below
    fields: dict[str, Any] = {"train": words[1].upper()}
    rest = words[2:]
    while rest and rest[0].lower() in ("token", "credit"):
        fields[rest.pop(0).lower()] = True
    if rest:
        if rest[0].lower() != "from" or len(rest) not in (2, 3):
            raise CommandError(f"usage: {usage}")
        source = rest[1]
        fields["source"] = "bank" if source.lower() == "bank" else source.upper()
        if len(rest) == 3:
            fields["price"] = _int(rest[2], "price")
    return Request("buy_train", fields)


def _bid(line: str) -> Request:
    """``bid CITY COMPANY, CITY COMPANY, ...``: a first-edition bid (14); a city's name may have
    several words, the last word of each part names the company."""
    usage = "bid CITY COMPANY, CITY COMPANY, ... (e.g. bid Delhi NWR, Lahore NWR, Multan NWR)"
    body = line.strip()[3:]
    claims: list[dict[str, str]] = []
    for part in body.split(","):
        words = part.split()
        if len(words) < 2:
            raise CommandError(f"usage: {usage}")
        claims.append({"city": " ".join(words[:-1]), "company": words[-1].upper()})
    return Request("submit_bid", {"claims": claims})


def _claim(words: list[str]) -> Request:
    # A city's name may have several words: the last word names the company.
    _need(words, 2, "claim CITY [COMPANY] (e.g. claim Calcutta EIR)", len(words))
    if len(words) == 2:
        return Request("claim_city", {"city": words[1]})
    return Request("claim_city", {"city": " ".join(words[1:-1]), "company": words[-1].upper()},
                   tuple(words[1:]))


def _claim_left_over(request: Request, legal: Sequence[Mapping[str, Any]]) -> None:
    """``claim calcutta eir extra``: a company the list offers, then words left over, which
    are refused rather than read into the city's name (no city is named like a company)."""
    companies = {str(a["company"]).casefold() for a in legal if a["type"] == "claim_city"}
    typed = request.words
    for k in range(1, len(typed) - 1):
        if typed[k].casefold() in companies:
            raise CommandError(f"claim: {' '.join(typed[k + 1:])!r} left over "
                               "(usage: claim CITY COMPANY)")


# Commands of one word: the action type and its fixed fields.
ALONE: dict[str, tuple[str, dict[str, Any]]] = {
    "pass": ("pass", {}),
    "accept": ("accept_offer", {}), "reject": ("reject_offer", {}),
    "extra": ("call_extra_or", {}),
    "run": ("run_routes", {}),
    "payout": ("dividend", {"kind": "payout"}), "withhold": ("dividend", {"kind": "withhold"}),
    "repay": ("repay_credit", {}),
    "return": ("return_credit_train", {}),
    "draw": ("draw_card", {}),
}
_HEX = re.compile(r"[A-Za-z]\d{1,2}")


def _simple(verb: str, words: list[str], company_turn: bool) -> Request | None:
    """Commands of one word, or of a word and fixed arguments."""
    if verb in ALONE:
        _at_most(words, 1, f"{verb} (alone)")
        kind, fields = ALONE[verb]
        return Request(kind, dict(fields))
    if verb == "bond":
        _need(words, 2, "bond AMOUNT (e.g. bond 100)")
        return Request("place_bond", {"amount": _int(words[1], "bond")})
    if verb == "option":
        _need(words, 2, "option 1|2")
        return Request("choose_lay_option", {"option": _int(words[1], "option")})
    return None


def _with_company(verb: str, words: list[str]) -> Request | None:
    if verb == "sell":
        _need(words, 2, "sell COMPANY [COUNT] (e.g. sell NWR 2)", 3)
        count = _int(words[2], "count") if len(words) > 2 else 1
        return Request("sell_shares", {"company": words[1].upper(), "count": count})
    if verb == "redeem":
        _need(words, 2, "redeem COMPANY")
        return Request("redeem_share", {"company": words[1].upper()})
    if verb == "offer":
        _need(words, 3, "offer PLAYER PRICE (e.g. offer Bob 30)")
        return Request("offer_elephant", {"buyer": words[1], "price": _int(words[2], "price")})
    if verb == "base":
        _need(words, 2, "base HEX [STATION]", 3)
        fields: dict[str, Any] = {"hex": words[1].upper()}
        if len(words) > 2:
            fields["station"] = words[2]
        return Request("place_base", fields)
    if verb == "discard":
        _need(words, 2, "discard TRAIN_ID")
        return Request("discard_train", {"train": words[1]})
    if verb == "play":
        return _play(words)
    return None


def _play(words: list[str]) -> Request:
    """MIK 2, ACTIONING CARDS: ``play CARD [HEX|CITY]`` (a Commodity card's hex, a Disturbances
    card's city, of one word or several)."""
    _need(words, 2, "play CARD [HEX|CITY] (e.g. play DS:BBCI:3, play COMMODITY:COTTON K27)",
          len(words))
    fields: dict[str, Any] = {"card": words[1].upper()}
    target = " ".join(words[2:])
    if target:
        fields["hex" if _HEX.fullmatch(target) else "city"] = (
            target.upper() if _HEX.fullmatch(target) else target)
    return Request("play_card", fields)


def parse(line: str, *, company_turn: bool = False) -> Command:
    """One typed line as a command; ``company_turn`` makes ``buy X`` buy a train."""
    words = line.split()
    if not words:
        raise CommandError("type a number from the list or a command ('help' lists them)")
    verb = words[0].lower()
    if verb.isdigit() and not _is_number(verb):
        raise CommandError(f"{verb!r}: type numbers with the digits 0-9")
    if _is_number(verb):
        if len(words) > 1:
            raise CommandError(f"{line.strip()!r}: a number stands alone")
        return Choice(int(verb))
    if verb == "show" and len(words) > 1:
        verb, words = words[1].lower(), words[1:]
    if verb in META_WORDS:
        name = META_WORDS[verb]
        _at_most(words, 2 if name in META_ARGUMENT else 1,
                 META_ARGUMENT.get(name, f"{words[0]} (alone)"))
        return Meta(name, " ".join(words[1:]))
    if verb in ("lay", "promote", "upgrade"):
        kind = "lay_tile" if verb == "lay" else "promote_tile"
        return Request(kind, _tile_fields(words, verb))
    if verb == "buy":
        return _buy(words, company_turn)
    if verb == "train":
        return _train(words)
    if verb == "claim":
        return _claim(words)
    if verb == "bid":
        return _bid(line)
    request = _simple(verb, words, company_turn) or _with_company(verb, words)
    if request is None:
        raise CommandError(f"unknown command {words[0]!r} ('help' lists the commands)")
    return request


def _same(a: object, b: object) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a == b


def matches(request: Request, action: Mapping[str, Any]) -> bool:
    """Whether a legal action has the request's type and every field it typed."""
    kind = action["type"]
    if kind != request.type and not (request.type == "lay_tile" and kind == "promote_tile"):
        return False
    return all(name in action and _same(action[name], value)
               for name, value in request.fields.items())


def resolve(command: Choice | Request, legal: Sequence[Mapping[str, Any]], entity: str,
            entity_type: str, disabled: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The action (without id and time) that the choice or request stands for.  A request
    for an option the engine lists as not possible now (the turn model's ``disabled``) is
    refused with the engine's reason, the rule and the numbers."""
    if isinstance(command, Choice):
        if not 1 <= command.number <= len(legal):
            raise CommandError(f"{command.number}: choose a number from 1 to {len(legal)}")
        return dict(legal[command.number - 1])
    found = [a for a in legal if matches(command, a)]
    if command.type == "claim_city" and len({a["company"] for a in found}) > 1:
        choices = " or ".join(sorted({str(a["company"]) for a in found}))
        raise CommandError(f"claim {command.fields['city']}: name the company ({choices})")
    if found:
        return dict(found[0])
    for option in disabled:
        if matches(command, option["action"]):
            raise Refused(str(option["rule"]), str(option["reason"]))
    if command.type == "claim_city":
        _claim_left_over(command, legal)
    _check_whose_action(command.type, entity, entity_type)
    # Not among the listed actions: submit it as typed, so that the engine names the rule
    # it breaks (or accepts an amount the list offers only in steps, e.g. a bond of £105).
    return {"type": command.type, "entity": entity, "entity_type": entity_type,
            **_defaults(command)}


def _check_whose_action(kind: str, entity: str, entity_type: str) -> None:
    """A company's command typed on a player's turn (or the reverse) gets a plain answer
    rather than the engine's schema message."""
    spec = ACTION_TYPES.get(kind)
    if spec is None or entity_type in spec.entity_types:
        return
    doer = "a company" if "company" in spec.entity_types else "a player"
    raise CommandError(f"{COMMAND_WORDS.get(kind, kind)}: only {doer} does that, and it is "
                       f"{entity}'s turn now (the list shows what {entity} may do)")


def _defaults(request: Request) -> dict[str, Any]:
    fields = dict(request.fields)
    if request.type == "buy_share":
        fields.setdefault("source", "ipo")
    if request.type in ("run_routes",):
        fields.setdefault("routes", [])
    if request.type == "claim_city" and "company" not in fields:
        raise CommandError(f"claim {fields['city']}: name the company too (claim CITY COMPANY)")
    return fields
