"""The screen of one turn, drawn with rich from the turn model.

Everything shown comes from :func:`india1853.rules.game.turn.turn_model` (what the player at
the keyboard may see: the decision, each option with its price, effect and rule, the public
tables) and from the edition's map data for the board; nothing here computes a rule or changes
the game.  The screen is laid out to fit a 120x40 terminal: the header (whose turn, what is
decided) comes first and is repeated in one line just above the prompt.
"""

from __future__ import annotations

import json
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.rule import Rule
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from india1853.board.hexes import ROWS, SIDE_NAMES, split
from india1853.data.model import Edition
from india1853.data.summaries import rule_help
from india1853.interfaces.narrate import place_name
from india1853.interfaces.terminal.plain_table import PlainColumns, PlainTable
from india1853.rules.game.wording import possessive

Model = Mapping[str, Any]
Option = Mapping[str, Any]
Action = Mapping[str, Any]

# Long lists (tile lays can run to hundreds) show this many options per action type; the rest
# keep their numbers and appear with `list`.  A bid's claims are all shown: about 60 at most.
PER_TYPE_SHOWN = 8
SHOWN_IN_FULL: frozenset[str] = frozenset({"claim_city"})
# From this many options on, the list is laid out in columns.
COLUMNS_FROM = 6
# The options whose command says little: their effect is shown as the note.
ONE_WORD_OPTIONS: frozenset[str] = frozenset({
    "pass", "call_extra_or", "repay_credit", "return_credit_train", "accept_offer",
    "reject_offer", "choose_lay_option", "discard_train"})
# The missing options' reasons list this many items, then "and N more".
UNAVAILABLE_ITEMS = 6


# The most tables a :class:`Drawn` keeps (each a few hundred segments).
DRAWN_KEPT = 16


class Drawn:
    """The tables drawn on the last screens, by content: a table shown again unchanged (the
    players between two company decisions, the companies after a tile lay) is not laid out
    again.  The segments replayed are the ones rich drew, so the bytes are the same."""

    def __init__(self, kept: int = DRAWN_KEPT) -> None:
        self.kept = kept
        self._segments: OrderedDict[tuple[object, ...], list[Segment]] = OrderedDict()

    def table(self, key: str, build: Callable[[], RenderableType]) -> RenderableType:
        """``build()``, drawn once for each ``key`` (the whole content it shows) and width."""
        return _Kept(self, key, build)

    def segments(self, key: tuple[object, ...], draw: Callable[[], list[Segment]]
                 ) -> list[Segment]:
        found = self._segments.get(key)
        if found is None:
            found = self._segments[key] = draw()
            while len(self._segments) > self.kept:
                self._segments.popitem(last=False)
        else:
            self._segments.move_to_end(key)
        return found


class _Kept:
    """One table of a :class:`Drawn`: its segments for these console options, drawn once."""

    def __init__(self, drawn: Drawn, key: str, build: Callable[[], RenderableType]) -> None:
        self.drawn, self.key, self.build = drawn, key, build

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # Every option rich lays out by (width, terminal, encoding...) is part of the key.
        key = (self.key, id(console), *vars(options).values())
        yield from self.drawn.segments(key, lambda: list(console.render(self.build(),
                                                                        options)))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.build())


def money(n: object) -> str:
    return f"£{n}" if isinstance(n, int) else "—"


def decision_of(model: Model, entity: str) -> Mapping[str, Any] | None:
    """The viewer's decision for ``entity``, if the model holds it."""
    return next((d for d in model["decisions"] if d["entity"] == entity), None)


def legal_actions(model: Model, entity: str) -> list[dict[str, Any]]:
    """The actions of ``entity``'s options, in the numbered order of the list."""
    decision = decision_of(model, entity)
    return [dict(o["action"]) for o in decision["options"]] if decision else []


def decision_text(model: Model, entity: str) -> str:
    """Whose turn it is and what is being decided, in words, with the rule."""
    for a in model["active"]:
        if a["entity"] == entity:
            return f"{a['what']} ({a['rule']})" if a["rule"] else str(a["what"])
    return str(model["headline"])


def _rule_line(model: Model, entity: str) -> Text | None:
    for a in model["active"]:
        if a["entity"] == entity and a.get("rule_summary"):
            return Text(f"{a['rule']}: {a['rule_summary']}", style="dim")
    return None


def status_line(model: Model) -> Text:
    tables = model["tables"]
    parts = [str(model["title"]), f"Phase {model['phase']}", f"Bank {money(tables['bank'])}"]
    if tables.get("bonds_held"):
        parts.append(f"Bonds held {money(tables['bonds_held'])}")
    if tables.get("elephant"):
        parts.append(f"Elephant: {tables['elephant']}")
    trains = tables["trains"]
    if trains.get("train_limit"):
        parts.append(f"train limit {trains['train_limit']}")
    if tables.get("bank_broken"):
        parts.append("BANK BROKEN")
    return Text("  ·  ".join(parts), style="bold")


def header(model: Model, entity: str) -> RenderableType:
    """The round, phase and bank; whose turn it is and what is decided; the rule, explained."""
    lines: list[RenderableType] = [Rule("1853 India", align="left", style="dim"),
                                   status_line(model),
                                   Text(decision_text(model, entity), style="bold yellow")]
    rule = _rule_line(model, entity)
    if rule is not None:
        lines.append(rule)
    return Group(*lines)


def players_table(model: Model, title: str | None = None) -> Table:
    """Cash, bond, bid, shares and directorships of every player, as the model shows them
    (another player's cash is hidden while the bonds are secret, 2.5.2)."""
    tables = model["tables"]
    players = tables["players"]
    table = PlainTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, expand=False,
                  pad_edge=False, show_edge=False)
    for col in ("player", "cash", "bond", "bid"):
        table.add_column(col, justify="right" if col != "player" else "left")
    held = [c["initials"] for c in tables["companies"]
            if any(p["certificates"].get(c["initials"]) for p in players)]
    for c in held:
        table.add_column(c, justify="right")
    for p in players:
        cash = "?" if p["cash"] is None else money(p["cash"])
        shares = []
        for c in held:
            n = p["certificates"].get(c, 0)
            un = p["unredeemed"].get(c, 0)
            mark = "d" if c in p["director_of"] else ""
            shares.append("" if not n else f"{n}{mark}" + (f" ({un}u)" if un else ""))
        name = Text(p["name"], style="bold" if p["you"] else "")
        if p["elephant"]:
            name.append(" 🐘")
        table.add_row(name, cash, _bond_text(p), _bid_text(p), *shares)
    return table


def _bond_text(p: Mapping[str, Any]) -> str:
    if p["bond_returned"]:
        return "returned"
    if p["bond"] is not None:
        return money(p["bond"])
    return "placed" if p["bond_placed"] else ""


def _bid_text(p: Mapping[str, Any]) -> str:
    if p["cities"]:
        return ", ".join(p["cities"])
    if p["cities_claimed"] is None:
        return "secret" if p["bond_placed"] else ""
    if p["cities_claimed"]:
        return f"{p['cities_claimed']}" + (" done" if p["bid_complete"] else "")
    return ""


def _director_text(c: Mapping[str, Any]) -> Text:
    if c["director"]:
        return Text(str(c["director"]))
    if c["controller"]:
        return Text(f"{c['controller']} (manager)")
    if c["director_to_be"]:
        return Text(f"{c['director_to_be']} (at round end)", style="italic")
    return Text("")


def _moves_text(moves: Mapping[str, Any] | None) -> str:
    """The next price withheld | paid, for each step of the dividend (4.7.1)."""
    if not moves:
        return ""
    paid = " ".join(str(m["price"]) for m in moves["payout"])
    return f"{moves['withhold']} | {paid}"


def moves_heading(model: Model) -> str:
    """The heading of the moves column: the dividend steps, as multiples of the price."""
    multiples = model["tables"]["market"]["payout_multiples"]
    steps = ",".join("any" if not m else f"{m:g}×" for m in multiples)
    return f"next £: withheld | paid {steps} price"


def companies_table(model: Model, current: str | None = None,
                    title: str | None = None) -> Table:
    """Director, share price, offering, pool, cash, trains, bases of every company, and where
    its marker would move after its next dividend decision (4.7.1: withheld | paid from £A)."""
    tables = model["tables"]
    moves = tables["market"]["moves"]
    table = PlainTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  show_edge=False)
    heading = moves_heading(model)
    # The first edition's companies hold Company Credits (23.1), not cash: the column says so.
    money_col = "credits" if model["view"].get("company_money") == "credits" else "cash"
    for col in ("co", "director", "price", "par", "ipo", "pool", money_col, "trains", "bases",
                heading):
        table.add_column(col, justify="left" if col in ("co", "director", "trains",
                                                        heading) else "right")
    for c in tables["companies"]:
        initials = c["initials"]
        status = {"operating": "", "floated": " floated"}.get(c["state"], "")
        name = Text(initials + status,
                    style=f"bold {c['colour']}" if initials == current else "")
        trains = " ".join(c["trains"])
        if c["credit_train"]:
            trains += " (credit)"
        table.add_row(name, _director_text(c), money(c["price"]), money(c["par"]),
                      str(c["ipo"]), str(c["pool"]), money(c["treasury"]), trains,
                      f"{c['bases']}/{c['base_tokens']}" if c["formed"] else "",
                      _moves_text(moves.get(initials)))
    return table


def float_line(model: Model) -> Text | None:
    """What floats a company (2.7.5 / 16.7), in the engine's words, and the shares each company
    not yet floated still needs; None once every company has floated."""
    waiting = [c for c in model["tables"]["companies"] if not c["float"]["floated"]]
    if not waiting:
        return None
    counts = ", ".join(f"{c['initials']} {c['float']['issued']}/{c['float']['qualifying']}"
                       for c in waiting)
    return Text(f"To float: {waiting[0]['float']['text']}. Issued so far: {counts}",
                style="italic")


def _float_lines(tables: Model, decision: Mapping[str, Any] | None) -> list[Text]:
    """Under the companies, where shares are bid for or bought: what floats a company."""
    if decision is None or decision.get("step") not in ("bonds", "claims", "stock"):
        return []
    line = float_line(tables)
    return [] if line is None else [line]


def warning_lines(options: Sequence[Option]) -> list[Text]:
    """The engine's warnings on the options (a bond, claim or purchase that would leave the
    player no company to direct: 2.9.2, 3.2.1), one line per distinct warning with the
    commands it applies to."""
    found: dict[str, list[str]] = {}
    for option in options:
        if option.get("warning"):
            found.setdefault(str(option["warning"]), []).append(option_text(option["action"]))
    out = []
    for warning, texts in found.items():
        listed = ", ".join(texts[:UNAVAILABLE_ITEMS]) + (
            f" and {len(texts) - UNAVAILABLE_ITEMS} more" if len(texts) > UNAVAILABLE_ITEMS
            else "")
        out.append(Text(f"Warning: {listed} — {warning}", style="bold yellow"))
    return out


def train_market(model: Model) -> Text:
    """The trains the bank still holds, with their prices, and the returned trains in the bank
    pool (4.8, TABLE 5), and the phase's tiles."""
    trains = model["tables"]["trains"]
    parts = []
    for t in trains["roster"]:
        if not t["left"]:
            continue
        price = (money(t["price"]) if t["price"] is not None
                 else "/".join(money(p) for p in t.get("prices") or []))
        starts = f" ph{t['starts_phase']}" if t.get("starts_phase") and \
            t["starts_phase"] > model["phase"] else ""
        parts.append(f"'{t['type']}' ×{t['left']} {price}{starts}")
    text = "Trains: " + (", ".join(parts) or "none left")
    pool = [f"'{t['type']}' ×{t['pool']}" for t in trains["roster"] if t.get("pool")]
    if pool:
        text += "  ·  pool: " + ", ".join(pool)
    if trains.get("tiles"):
        text += "  ·  tiles: " + ", ".join(trains["tiles"])
    return Text(text)


def market_line(model: Model) -> Text:
    """Where each company's marker stands on the stock market (4.7)."""
    market = model["tables"]["market"]
    values = market["values"]
    spots = sorted(((int(i), cos) for i, cos in market["markers"].items()), reverse=True)
    parts = [f"£{values[i]} {'/'.join(cos)}" for i, cos in spots]
    return Text(f"Market ({market['rule']}; ends at £{market['game_end_price']}): "
                + (" · ".join(parts) or "no company has a price yet"))


def cost_text(option: Option) -> str:
    """The money the option moves, as shown in the list ("£100", "+£140"), or "".  A claim
    shows the city's bond value (2.5.9)."""
    if option["type"] == "claim_city":
        return money(option["ui"].get("bond_value"))
    cost = option["cost"]
    if not isinstance(cost, int) or cost == 0:
        return ""
    return money(cost) if cost > 0 else f"+£{-cost}"


def option_text(action: Action) -> str:
    """An option in the words of the command that takes it (``lay H24 5 1``)."""
    kind = str(action["type"])
    texts: dict[str, str] = {
        "pass": "pass",
        "accept_offer": "accept", "reject_offer": "reject",
        "call_extra_or": "extra",
        "repay_credit": "repay",
        "return_credit_train": "return",
    }
    if kind in texts:
        return texts[kind]
    if kind == "place_bond":
        return f"bond {action['amount']}"
    if kind == "claim_city":
        return f"claim {action['city']} {action['company']}"
    if kind == "submit_bid":
        return "bid " + ", ".join(f"{c['city']} {c['company']}" for c in action["claims"])
    if kind == "buy_share":
        return f"buy {action['company']} {action['source']}"
    if kind == "sell_shares":
        return f"sell {action['company']} {action['count']}"
    if kind == "redeem_share":
        return f"redeem {action['company']}"
    if kind == "offer_elephant":
        return f"offer {action['buyer']} {action['price']}"
    if kind == "choose_lay_option":
        return f"option {action['option']}"
    if kind in ("lay_tile", "promote_tile"):
        verb = "lay" if kind == "lay_tile" else "promote"
        return f"{verb} {action['hex']} {action['tile']} {action['rotation']}"
    if kind == "place_base":
        station = action.get("station")
        return f"base {action['hex']}" + (f" {station}" if station else "")
    if kind == "run_routes":
        return "run"
    if kind == "dividend":
        return str(action["kind"])
    if kind == "buy_train":
        text = f"train {action['train']}"
        if action.get("source") not in (None, "bank"):
            text += f" from {action['source']} {action.get('price', '')}".rstrip()
        if action.get("credit"):
            text += " credit"
        if action.get("token"):
            text += " token"
        return text
    if kind == "discard_train":
        return f"discard {action['train']}"
    if kind == "draw_card":
        return "draw"
    if kind == "play_card":
        target = action.get("hex") or action.get("city")
        return f"play {action['card']}" + (f" {target}" if target else "")
    return kind


def option_note(option: Option) -> str:
    """What the command alone does not say: the model's note, else its effect for the
    one-word options (``extra``, ``repay``...), and for a track move the exits it gives."""
    note = str(option["note"])
    if option["type"] in ("lay_tile", "promote_tile"):
        exits = " ".join(SIDE_NAMES[s] for s in option["ui"].get("exits", []))
        return f"{note} [{exits}]".strip()
    if option["type"] == "dividend":
        ui = option["ui"]
        move = (f"price stays £{ui['price']}" if ui["price_after"] == ui["price"]
                else f"price £{ui['price']} → £{ui['price_after']}")
        return f"{note}; {move}" if note else move
    if not note and option["type"] in ONE_WORD_OPTIONS:
        return str(option["effect"])
    return note


def options_table(options: Sequence[Option], *, only: str | None = None,
                  everything: bool = False) -> RenderableType:
    """The numbered options with their costs.  Long runs of one type are cut to
    :data:`PER_TYPE_SHOWN` unless ``everything``; ``only`` keeps one type (``lay``, ``buy``).
    A long list is laid out in columns."""
    rows: list[tuple[str, str, str, str]] = []
    shown: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    first_word: dict[str, str] = {}
    for number, option in enumerate(options, start=1):
        kind = option["type"]
        text = option_text(option["action"])
        first_word.setdefault(kind, text.split(" ")[0])
        if only is not None and not text.startswith(only):
            continue
        if (not everything and only is None and kind not in SHOWN_IN_FULL
                and shown[kind] >= PER_TYPE_SHOWN):
            hidden[kind] += 1
            continue
        shown[kind] += 1
        rows.append((str(number), text, cost_text(option), option_note(option)))
    notes = [f"… {n} more '{first_word[kind]}' options: type 'list {first_word[kind]}' to see "
             "them" for kind, n in hidden.items()]
    if only is not None and not rows:
        notes.append(f"no option starts with {only!r}")
    claims = [o for o in options if o["type"] == "claim_city"]
    if claims and only is None:
        others = [r for r in rows if not r[1].startswith("claim ")]
        return Group(_claim_rows(options), _option_rows(others, heading=False),
                     *(Text(n, style="italic") for n in notes))
    return Group(_option_rows(rows), *(Text(n, style="italic") for n in notes))


def _claim_rows(options: Sequence[Option]) -> RenderableType:
    """A bid's claims grouped by city (about 60 options in a dozen lines): the city, its bond
    value and the bond it leaves uncovered (2.5.9), then each share's number and company."""
    cities: dict[str, list[tuple[int, Option]]] = {}
    for number, option in enumerate(options, start=1):
        if option["type"] == "claim_city":
            cities.setdefault(option["ui"]["city"], []).append((number, option))
    items = []
    for city, claims in cities.items():
        first = claims[0][1]
        left = first["note"].removeprefix("leaves ").removesuffix(" of the bond uncovered")
        text = Text.assemble(f"{city} {cost_text(first)}", (f" ({left} left)", "dim"), ":")
        for number, option in claims:
            text.append(f" {number}", style="bold cyan")
            text.append(f" {option['ui']['company']}")
        items.append(text)
    return Group(Text("Your options: claim CITY COMPANY, or the number of a share; (£N left): "
                      "the bond the city leaves uncovered (2.5.9)", style="italic"),
                 PlainColumns(items, padding=(0, 3)))


def _option_rows(rows: Sequence[tuple[str, str, str, str]], *,
                 heading: bool = True) -> RenderableType:
    if not heading:
        table = PlainTable(show_header=False, pad_edge=False, box=None)
        for _ in range(4):
            table.add_column()
        for row in rows:
            table.add_row(Text(row[0], style="bold cyan"), Text(row[1]), Text(row[2]),
                          Text(row[3], style="dim"))
        return table
    if len(rows) <= COLUMNS_FROM:
        # The heading stands apart: as a table title it would wrap to a narrow table's width.
        table = PlainTable(show_header=False, pad_edge=False, box=None)
        table.add_column("n", justify="right", style="bold cyan")
        table.add_column("action")
        table.add_column("cost", justify="right")
        table.add_column("note", style="dim")
        for row in rows:
            table.add_row(*(Text(cell) for cell in row))
        return Group(Text("Your options", style="italic"), table)
    items = [Text.assemble((f"{n:>3} ", "bold cyan"), text, (f" {cost}" if cost else ""),
                           (f" {note}" if note else "", "dim"))
             for n, text, cost, note in rows]
    return Group(Text("Your options", style="italic"), PlainColumns(items, padding=(0, 3)))


def disabled_lines(decision: Mapping[str, Any] | None, *, only: str | None = None,
                   everything: bool = False) -> list[Text]:
    """The options that are not possible now, with the engine's reason (the turn model's
    ``disabled``), as the commands that would take them: one line per rule - the reason
    itself where the options share it, else the rule in short - or, with ``everything``, one
    line per option with its own reason.  ``only`` keeps the commands starting with it."""
    if decision is None:
        return []
    items = [(option_text(o["action"]), o) for o in decision.get("disabled") or []]
    items = [(text, o) for text, o in items if only is None or text.startswith(only)]
    if everything:
        return [Text(f"Not possible now: {text} — {o['reason']}", style="dim italic")
                for text, o in items]
    groups: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    for text, o in items:
        groups.setdefault(str(o["rule"]), []).append((text, o))
    out = []
    for rule, group in groups.items():
        texts = [text for text, _ in group]
        listed = ", ".join(texts[:UNAVAILABLE_ITEMS]) + (
            f" and {len(texts) - UNAVAILABLE_ITEMS} more" if len(texts) > UNAVAILABLE_ITEMS
            else "")
        reasons = {str(o["reason"]) for _, o in group}
        summary = group[0][1].get("rule_summary")
        reason = (reasons.pop() if len(reasons) == 1 or not summary
                  else f"rule {rule}: {summary}")
        out.append(Text(f"Not possible now: {listed} — {reason}", style="dim italic"))
    return out


def board_table(view: Mapping[str, Any], ed: Edition) -> Table:
    """The tiles laid (beyond the printed board) and the bases, hex by hex."""
    printed = {h.coord: h.preprinted for h in ed.board.hexes.values() if h.preprinted}
    bases: dict[str, list[str]] = {}
    for company, hex_, station in view["board"]["bases"]:
        bases.setdefault(hex_, []).append(company + (f"/{station}" if station else ""))
    table = Table(title="Board", title_justify="left", pad_edge=False)
    for col in ("hex", "tile", "rot", "bases"):
        table.add_column(col)
    # Map order (row, then column number): "M9" before "M11".
    hexes = sorted(set(view["board"]["tiles"]) | set(bases),
                   key=lambda h: (ROWS.index(split(h)[0]), split(h)[1]))
    for hex_ in hexes:
        tile, rotation = view["board"]["tiles"].get(hex_, [None, None])
        if tile is not None and printed.get(hex_) == tile and hex_ not in bases:
            continue
        table.add_row(place_name(ed, hex_), str(tile or ""), "" if rotation is None else
                      str(rotation), " ".join(bases.get(hex_, [])))
    return table


def run_option(model: Model) -> Option | None:
    return next((o for d in model["decisions"] for o in d["options"]
                 if o["type"] == "run_routes"), None)


def routes_panel(model: Model) -> RenderableType:
    """The optimal routes the router found for the company running now (4.5, 4.6), or the
    routes it ran this turn."""
    run = run_option(model)
    if run is None:
        turn = model["view"].get("turn") or {}
        if turn.get("routes"):
            return _routes_table(turn["routes"], f"{turn['company']} ran")
        return Text("No routes to show now: the optimal routes are offered when a company "
                    "runs its trains.")
    return _routes_table(run["ui"]["routes"],
                         f"{run['action']['entity']}: optimal routes, £{run['ui']['total']}")


def _routes_table(routes: Sequence[Mapping[str, Any]], title: str) -> Table:
    table = Table(title=title, title_justify="left", pad_edge=False)
    table.add_column("train")
    table.add_column("mail")
    table.add_column("hexes")
    table.add_column("£", justify="right")
    for r in routes:
        hexes = r.get("hexes") or r.get("stops") or []
        revenue = r.get("revenue")
        table.add_row(str(r.get("train")), "yes" if r.get("mail") else "",
                      " ".join(str(h) for h in hexes),
                      "" if revenue is None else str(revenue + (r.get("mail_revenue") or 0)))
    return table


def help_table() -> Table:
    from india1853.interfaces.terminal.parse import HELP

    table = Table(title="Commands", title_justify="left", show_header=False, pad_edge=False)
    table.add_column("command", style="bold")
    table.add_column("what")
    for cmd, what in HELP:
        # Text, not markup: rich would swallow "[ipo|pool]" as a style tag.
        table.add_row(Text(cmd), Text(what))
    return table


def rule_help_text(edition: str, rule: str) -> Text:
    """``help RULE``: our summary of the rule (or of its nearest section)."""
    found = rule_help(edition, rule)
    if found is None:
        return Text(f"No summary for rule {rule!r}: try a rule number such as 2.5.7 or 4.1 "
                    f"(the {edition} edition's rulebook has the full text).")
    number, summary, found_in = found
    head = f"Rule {number}" if number == rule.strip() else f"Rule {rule.strip()} (see {number})"
    if found_in != edition:
        head += f" of the {found_in} edition"
    return Text(f"{head}: {summary}")


def contract_panel(model: Model) -> RenderableType:
    """The viewer's own contract bid as his model shows it: the bond (2.5.2), the cities named
    with their values and the bond they leave uncovered (2.5.4, 2.5.9), the shares claimed, and
    which cities are already joined by track (4.3.1)."""
    contract = model["tables"]["contract"]
    if contract is None:
        return Text("No bond placed yet (2.5.2).")
    player = contract["player"]
    lines = [f"Bond: £{contract['bond']}" + (" (returned: the contract is fulfilled, 4.3)"
                                             if contract["returned"] else "")]
    cities = contract["cities"]
    if cities:
        lines.append("Contract cities: " + ", ".join(
            f"{c['name']} (£{c['bond_value']})" for c in cities))
        if not contract["complete"]:
            lines.append(f"Bond not yet covered by cities: £{contract['uncovered']}")
        if not contract["returned"]:
            lines.append(_connections(contract))
        progress = contract.get("progress")
        if progress is not None:
            lines.append("Cities: " + ", ".join(
                f"{c['name']} {'joined' if c['connected'] else 'not joined'}"
                for c in progress["cities"]))
            lines.append(("WARNING: contract " if progress["warning"] else "Contract: ")
                         + str(progress["status"]))
    else:
        lines.append("Contract cities: none named yet")
    if contract["claims"]:
        lines.append("Shares claimed: " + ", ".join(contract["claims"]))
    return Panel(Text("\n".join(lines)), title=f"{possessive(player)} contract bid (secret)",
                 title_align="left")


def _connections(contract: Mapping[str, Any]) -> str:
    groups = [g for g in contract["groups"] if len(g) > 1]
    if not groups:
        return f"Connected ({contract['rule']}): none of your cities are joined yet"
    joined = "; ".join(" = ".join(g) for g in groups)
    return (f"Connected ({contract['rule']}): {joined}; "
            f"{len(contract['groups'])} groups to join into one")


def kit_hand_panel(model: Model, entity: str) -> RenderableType | None:
    """MIK 2: the deciding player's own cards, as his view shows them (secret to the others;
    ``None`` in any other player's view)."""
    kit = model["view"].get("kit")
    if kit is None:
        return None
    cards = kit["hands"].get(entity)
    if cards is None:
        return None
    held = kit["directors_shares"].get(entity) or []
    lines = [f"Cards in hand: {', '.join(cards) if cards else 'none'}"]
    if held:
        lines.append(f"Director's Shares held: {', '.join(held)}")
    lines.append(f"Stack: {kit['deck']} cards; discard stack: {kit['discard']}")
    return Panel(Text("\n".join(lines)), title=f"{possessive(entity)} MIK 2 cards (secret)",
                 title_align="left")


def turn_screen(model: Model, tables: Model, entity: str, recent: Sequence[str],
                recent_title: str = "Recent", *, local_board: RenderableType | None = None,
                contract: bool = False, drawn: Drawn | None = None) -> RenderableType:
    """The whole screen of one decision.  ``model`` holds the deciding player's options,
    ``tables`` the model whose tables may be shown at the table (the same, or the public one
    when another human sits there); ``recent``: the lines of the public log to show under
    ``recent_title``; ``local_board``: the hexes around the company's railheads; ``drawn``:
    the tables of the earlier screens, not laid out again when unchanged."""
    current = (tables["view"].get("turn") or {}).get("company")
    decision = decision_of(model, entity)
    # The tables first: on a 40-line terminal they may scroll off the top, never the header,
    # the recent moves and the options, which stay together at the bottom.
    parts: list[RenderableType] = [
        _players(tables, drawn),
        _companies(tables, current, drawn),
        *_float_lines(tables, decision),
        Text.assemble(train_market(tables), "\n", market_line(tables)),
    ]
    if contract and model["tables"]["contract"] is not None:
        parts.append(contract_panel(model))
    hand = kit_hand_panel(model, entity)
    if hand is not None:
        parts.append(hand)
    parts.append(header(model, entity))
    if local_board is not None:
        parts.append(local_board)
    if recent:
        parts.append(Panel(Text("\n".join(recent)), title=recent_title, title_align="left"))
    parts.append(options_table(decision["options"] if decision else []))
    parts.extend(warning_lines(decision["options"] if decision else []))
    parts.extend(disabled_lines(decision))
    return Group(*parts)


def _key(*parts: object) -> str:
    return json.dumps(parts, sort_keys=True, default=str)


def _players(tables: Model, drawn: Drawn | None) -> RenderableType:
    """:func:`players_table`, kept by what it shows: the players and the companies' order."""
    if drawn is None:
        return players_table(tables)
    t = tables["tables"]
    key = _key("players", t["players"], [c["initials"] for c in t["companies"]])
    return drawn.table(key, lambda: players_table(tables))


def _companies(tables: Model, current: str | None, drawn: Drawn | None) -> RenderableType:
    """:func:`companies_table`, kept by what it shows."""
    if drawn is None:
        return companies_table(tables, current)
    t = tables["tables"]
    key = _key("companies", t["companies"], t["market"]["moves"],
               t["market"]["payout_multiples"], tables["view"].get("company_money"), current)
    return drawn.table(key, lambda: companies_table(tables, current))
