"""Charts of a finished (or running) game, for ``india1853 stats`` and the web's ``/stats``.

Two charts, drawn with matplotlib (Agg backend, no display needed): each player's worth at the
end of every round (the score of 5.2 if the game ended then: cash plus paid shares at market
value, a company without a market price counting at par), and each company's share price at the
end of every round.  The rounds come from replaying the log.

Everything charted comes from the public view (``Game.view(None)``), so a game still running
can be charted without giving a secret away: while the bonds are being written (2.5.2) a
player's cash would betray his bond, and the view hides it; such a point is left out of the
chart.  For a finished game the last points are the final scores (5.2).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from india1853.errors import InputError
from india1853.interfaces.narrate import round_title
from india1853.rules.game.game import Game


@dataclass
class History:
    """The game sampled at the end of each round: labels, worth per player, price per company
    (None before it has a market price)."""

    rounds: list[str] = field(default_factory=list)
    worth: dict[str, list[int | None]] = field(default_factory=dict)
    prices: dict[str, list[int | None]] = field(default_factory=dict)

    def sample(self, game: Game, label: str) -> None:
        self.rounds.append(label)
        view = game.view(None)
        for name, value in public_worth(view, game).items():
            self.worth.setdefault(name, []).append(value)
        for initials, c in view["companies"].items():
            self.prices.setdefault(initials, []).append(c["price"])


def public_worth(view: Mapping[str, Any], game: Game) -> dict[str, int | None]:
    """5.2.1 from the public view: cash plus paid (redeemed) shares at the market price, par
    without one; None for a player whose cash the view hides (a secret bond, 2.5.2)."""
    out: dict[str, int | None] = {}
    for p in view["players"]:
        if p["cash"] is None:
            out[p["name"]] = None
            continue
        # While the bids go on, the shares claimed are not paid for yet (2.7.2).
        unpaid = list(p["claims"]) if view["round"] == "claims" else []
        shares = 0
        for initials, n in p["shares"].items():
            paid = n - p["unredeemed"].get(initials, 0) - unpaid.count(initials)
            price = view["companies"][initials]["price"]
            shares += paid * (price if price is not None else game.rules.company(initials).par)
        out[p["name"]] = int(p["cash"]) + shares
    return out


def _short(view: dict[str, Any]) -> str | None:
    if view["round"] in ("stock_end", "operating_end"):
        return None
    title = round_title(view)
    return (title.replace("Stock round ", "SR").replace("Operating round ", "OR")
            .replace("Contract bids: bonds (2.5.2)", "bonds")
            .replace("Contract bids: cities and shares (2.5.4)", "bids"))


def history(game: Game) -> History:
    """Sample ``game`` at the start, at the end of every round and at the end.  Its actions
    were checked when it was built, so they are replayed once more without checks."""
    out = History()
    before = "start"
    for number, position in enumerate(_positions(game)):
        now = _short(position.view(None))
        if number == 0:
            out.sample(position, "start")
            before = now or "start"
        elif now is not None and now != before:
            out.sample(position, before)
            before = now
    if out.rounds[-1] != before:
        out.sample(game, before)
    return out


def _positions(game: Game) -> Iterator[Game]:
    """The game at its start, after each of its actions in turn, and as it is now (one game
    moved on in place: each is to be read before the next is asked for)."""
    for position, _ in Game.positions(game.settings, game.log):
        yield position
    yield game


def draw(h: History, path: Path, colours: Mapping[str, str] | None = None) -> Path:
    """The two charts; ``colours`` maps a company's initials to a matplotlib colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import patheffects

    colours = colours or {}

    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise InputError(f"--out {str(path)!r}: expected a file name ending in .png, .svg or .pdf")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8.0, len(h.rounds) * 0.25), 9),
                                      sharex=True)
    x = list(range(len(h.rounds)))
    for name, values in h.worth.items():
        top.plot(x, [float("nan") if v is None else v for v in values], marker=".", label=name)
    top.set_title("Worth per round (cash + shares at market value, 5.2)")
    top.set_ylabel("£")
    top.legend(loc="upper left")
    # Each company in its board colour (as on its tokens), outlined so that yellow and light
    # blue stay legible on white.
    outline = [patheffects.Stroke(linewidth=3.2, foreground="#333333"), patheffects.Normal()]
    priced = [(i, p) for i, p in h.prices.items() if any(v is not None for v in p)]
    for initials, prices in priced:
        colour = colours.get(initials)
        bottom.plot(x, [float("nan") if p is None else p for p in prices], marker=".",
                    label=initials, color=colour, linewidth=1.8,
                    path_effects=outline if colour else None)
    bottom.set_title("Share price per company")
    bottom.set_ylabel("£")
    if priced:  # before any company is formed there is no price to chart
        bottom.legend(loc="upper left", ncol=4)
    bottom.set_xticks(x)
    bottom.set_xticklabels(h.rounds, rotation=90, fontsize=7)
    bottom.set_xlabel("end of round (SR stock round, OR operating round N.M: the M-th after SR N)")
    fig.tight_layout()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # No date and no random ids in the file: the same game draws the same bytes (the web
        # server's charts are compared byte for byte, tests/web/test_secrecy_differential.py).
        with matplotlib.rc_context({"svg.hashsalt": "india1853"}):
            fig.savefig(path, metadata={"Date": None})
    except OSError as exc:
        raise InputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
    return path
