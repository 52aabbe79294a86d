"""Game settings: the edition, optional variants, the players in their initial order, the seed.

The settings are the only input of a game besides its actions.  The seed drives the one source of
randomness, the ties resolved by lot (rule 2.5.3); it is stored here so that replaying a log
rebuilds the identical game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from india1853.data.loader import load_edition
from india1853.errors import InputError

EDITIONS: tuple[str, ...] = ("first", "second")
# The longest player name, in characters: one limit for every interface (terminal, log files,
# web), equal to the web server's database columns that hold a name (web/db.py takes its size
# from here; PostgreSQL's varchar counts characters).  Not a rule: a name is printed on every
# screen and in every view, and an unbounded one made a view of megabytes per seat.
MAX_NAME_LENGTH = 64


def player_counts(edition: str) -> tuple[int, ...]:
    """The numbers of players the edition is played by: the columns of its TABLE 3 (2.3 / 13:
    each count's starting money and limits), read from the edition's data."""
    return tuple(sorted(load_edition(edition).tables.players))


@dataclass(frozen=True)
class Settings:
    """What a game is built from (besides its actions).

    ``variants`` names optional rules of the edition's data (e.g. ``"shortened_game"``, rule 2.4).
    """

    players: tuple[str, ...]
    seed: int = 0
    edition: str = "second"
    variants: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise InputError(f"settings.edition: unknown edition {self.edition!r}")
        counts = player_counts(self.edition)
        if len(self.players) not in counts:
            raise InputError(f"settings.players: {counts[0]} to {counts[-1]} players needed, "
                             f"got {len(self.players)}")
        names = [p.strip() for p in self.players]
        if any(not n for n in names):
            raise InputError("settings.players: a player name is empty")
        if len(set(names)) != len(names):
            raise InputError("settings.players: player names must differ")
        for n in names:
            if not n.isprintable():
                # A name is printed on every interface: a control character (an escape
                # sequence clearing the screen, say) would reach the players' terminals.
                raise InputError(f"settings.players: {n!a} holds a control character; "
                                 "a name must be printable")
        for n in names:
            if len(n) > MAX_NAME_LENGTH:
                raise InputError(f"settings.players: a name of {len(n)} characters "
                                 f"({n[:16]!a}...); a name has at most {MAX_NAME_LENGTH}")
        if tuple(names) != self.players:
            raise InputError("settings.players: names must not start or end with spaces")
        if len({n.casefold() for n in names}) != len(names):
            raise InputError("settings.players: player names must differ in more than "
                             "upper and lower case")
        initials = {c.initials.casefold(): c.initials for c in load_edition(self.edition).companies}
        for n in names:
            if n.casefold() in initials:
                raise InputError(f"settings.players: {n!r} is a company's initials "
                                 f"({initials[n.casefold()]}); an action's entity would be "
                                 "ambiguous")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise InputError("settings.seed: must be an integer")
        if len(set(self.variants)) != len(self.variants):
            raise InputError("settings.variants: a variant is named twice")

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": list(self.players),
            "seed": self.seed,
            "variants": list(self.variants),
        }

    @staticmethod
    def from_json(data: object) -> Settings:
        if not isinstance(data, dict):
            raise InputError("settings: must be a JSON object")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise InputError("settings.players: must be a list of names")
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise InputError("settings.variants: must be a list of names")
        edition = data.get("edition", "second")
        if not isinstance(edition, str):
            raise InputError("settings.edition: must be a string")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise InputError("settings.seed: must be an integer")
        return Settings(tuple(players), seed, edition, tuple(variants))
