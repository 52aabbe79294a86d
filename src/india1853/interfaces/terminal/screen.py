"""The screen of one turn, drawn with rich from a player's view of the game.

Everything shown comes from ``Game.view(viewer)`` (what the player at the keyboard may see), the
legal actions of the entity acting and the edition data; nothing here changes the game.  The
costs beside the options come from the same rules the engine applies: par and market prices
(3.1.4, 3.1.7), sale prices (par, or par less the discount in the first stock round, before a
market price exists: 2.8.3, 3.1.7), the cities' bond values (2.5.9), the TABLE 4 prices of tiles
and bases as the construction rules compute them (4.1.12, 4.2.13, 4.4), the dividend per share
(4.6.4) and train prices (4.8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from india1853.board.hexes import ROWS, split
from india1853.errors import India1853Error
from india1853.interfaces.game_render import optimal_run
from india1853.interfaces.narrate import STEP_NAMES, place_name, round_title
from india1853.rules import construction as con
from india1853.rules.game import board_port
from india1853.rules.game.game import Game
from india1853.rules.game.stock_round import sale_price

View = Mapping[str, Any]
Action = Mapping[str, Any]

# Long lists (tile lays can run to hundreds) show this many options per action type; the rest
# keep their numbers and appear with `list`.  A bid's claims are all shown: about 60 at most.
PER_TYPE_SHOWN = 12
SHOWN_IN_FULL: frozenset[str] = frozenset({"claim_city"})
# From this many options on, the list is laid out in columns.
COLUMNS_FROM = 16

PENDING_TEXT: dict[str, str] = {
    "elephant_sale": "may sell the Elephant to another player (3.1.11)",
    "elephant_offer": "is offered the Elephant (3.1.11)",
    "extra_or": "may call an extra operating round with the Elephant (4.9)",
    "discard_train": "must return excess trains to the bank (4.8.6)",
    "credit_train": "must pay for or return the train bought on credit (4.8.10)",
    "train_sale": "is offered a price for one of its trains (4.8.9)",
}


def decision(view: View, entity: str) -> str:
    """Whose turn it is and what is being decided, in words."""
    pending = view.get("pending") or []
    if pending:
        return f"{entity} {PENDING_TEXT.get(pending[0]['kind'], pending[0]['kind'])}"
    kind = view["round"]
    if kind == "bonds":
        return f"{entity}: write down your bond, secretly (2.5.2)"
    if kind == "claims":
        return (f"{entity}: name a city (secret) and claim one of its shares (2.5.4)"
                + _bond_left_text(view, entity))
    if kind == "stock":
        return f"{entity}: buy, sell or redeem shares, or pass (3.1)"
    if kind == "operating":
        step = (view.get("turn") or {}).get("step", "")
        director = view["companies"][entity].get("controller") or view["companies"][entity].get(
            "director")
        who = f" (director {director})" if director else ""
        return f"{entity}{who} operates: {STEP_NAMES.get(step, step)}"
    return f"{entity} to act"


def bond_left(view: View, player: str, game: Game) -> int | None:
    """How much of ``player``'s bond no named city covers yet (2.5.9), if the view shows the
    bond (the player's own view, or once the bonds are revealed and the cities too)."""
    for p in view["players"]:
        if p["name"] == player and p["bond"] is not None and p["cities"] is not None:
            return int(p["bond"]) - sum(game.rules.city(c).bond_value for c in p["cities"])
    return None


def _bond_left_text(view: View, player: str) -> str:
    for p in view["players"]:
        if p["name"] == player and p["bond"] is not None and p["cities"] is not None:
            return f"; your bond £{p['bond']}, cities named: {', '.join(p['cities']) or 'none'}"
    return ""


def _money(n: object) -> str:
    return f"£{n}" if isinstance(n, int) else "—"


def status_line(view: View) -> Text:
    parts = [round_title(view), f"Phase {view['phase']}", f"Bank {_money(view['bank'])}"]
    if view.get("bonds_held"):
        parts.append(f"Bonds held {_money(view['bonds_held'])}")
    if view.get("elephant"):
        parts.append(f"Elephant: {view['elephant']}")
    if view.get("bank_broken"):
        parts.append("BANK BROKEN")
    return Text("  ·  ".join(parts), style="bold")


def players_table(view: View, viewer: str | None, *, moderator: bool = False) -> Table:
    """Cash, bond, bid and shares of every player.  During the bonds stage another player's
    cash would betray his secret bond (2.5.2), so it is hidden until the bonds are revealed
    (the ``moderator``'s table, like his view, shows it)."""
    companies = list(view["companies"])
    table = Table(title="Players", title_justify="left", expand=False, pad_edge=False)
    for col in ("player", "cash", "bond", "bid"):
        table.add_column(col, justify="right" if col != "player" else "left")
    held = [c for c in companies if any(p["shares"].get(c) for p in view["players"])]
    for c in held:
        table.add_column(c, justify="right")
    secret_bonds = view["round"] in ("bonds", "bids")
    for p in view["players"]:
        own = p["name"] == viewer
        hidden = secret_bonds and not own and p["bond_placed"] and not moderator
        cash = "?" if hidden or p["cash"] is None else _money(p["cash"])
        bond = _bond_text(p)
        bid = _bid_text(p)
        shares = []
        for c in held:
            n = p["shares"].get(c, 0)
            un = p["unredeemed"].get(c, 0)
            shares.append("" if not n else f"{n}" + (f" ({un}u)" if un else ""))
        name = Text(p["name"], style="bold" if own else "")
        if p["name"] == view.get("elephant"):
            name.append(" 🐘")
        table.add_row(name, cash, bond, bid, *shares)
    return table


def _bond_text(p: Mapping[str, Any]) -> str:
    if p["bond_returned"]:
        return "returned"
    if p["bond"] is not None:
        return _money(p["bond"])
    return "placed" if p["bond_placed"] else ""


def _bid_text(p: Mapping[str, Any]) -> str:
    if p["cities"]:
        return ", ".join(p["cities"])
    if p["cities_claimed"] is None:
        return "secret" if p["bond_placed"] else ""
    if p["cities_claimed"]:
        return f"{p['cities_claimed']}" + (" done" if p["bid_complete"] else "")
    return ""


def companies_table(view: View, game: Game) -> Table:
    """Director, share price, offering, pool, cash, trains and bases of every company.  The
    first edition's companies hold Company Credits (23.1): the column says so, and the title
    gives the credits in circulation, apart from the bank's personal money."""
    ed = game.rules.ed
    credits = view.get("company_money") == "credits"
    title = f"Companies (Company Credits: {_money(view['credits'])} issued)" if credits \
        else "Companies"
    table = Table(title=title, title_justify="left", pad_edge=False)
    money_col = "credits" if credits else "cash"
    for col in ("co", "director", "price", "par", "ipo", "pool", money_col, "trains", "bases"):
        table.add_column(col, justify="left" if col in ("co", "director", "trains") else "right")
    # A '2/1M' card bought as a '2' is a '2' to the players (4.8.16).
    cards = {t["id"]: t.get("runs_as") or t["card"] for t in view["trains"]}
    bases = Counter(b[0] for b in view["board"]["bases"])
    current = (view.get("turn") or {}).get("company")
    for initials, c in view["companies"].items():
        spec = ed.company(initials)
        status = "" if c["formed"] else (" floated" if c["floated"] else "")
        name = Text(initials + status, style=f"bold {spec.colour}" if initials == current else "")
        trains = " ".join(cards.get(t, t) for t in c["trains"])
        if c.get("credit_train"):
            trains += " (credit)"
        table.add_row(name, Text(c.get("controller") or c["director"] or ""),
                      _money(c["price"]),
                      _money(spec.par), str(c["ipo"]), str(c["pool"]), _money(c["cash"]),
                      trains, str(bases.get(initials, 0)))
    return table


def train_market(view: View, game: Game) -> Text:
    """The trains the bank still holds, with their prices, and the discarded trains in the bank
    pool (4.8, TABLE 5)."""
    counts: Counter[str] = Counter()
    pool: Counter[str] = Counter()
    for t in view["trains"]:
        if t["where"] == "bank":
            counts[t["card"]] += 1
        elif t["where"] == "pool":
            pool[t["card"]] += 1
    trains = game.rules.ed.trains
    single = {spec.name: f"£{spec.price}" for spec in trains}
    # A '2/1M' card sells as either train (4.8.16): both prices; it comes first, as it is
    # bought first.
    prices = {dual.card: "/".join(single.get(t, "?") for t in dual.trains)
              for dual in trains.dual_options} | single
    parts = [f"'{card}' ×{counts[card]} {price}" for card, price in prices.items()
             if counts[card]]
    parts += [f"'{card}' ×{n}" for card, n in counts.items() if card not in prices]
    text = "Trains: " + (", ".join(parts) or "none left")
    if pool:
        text += "  ·  pool: " + ", ".join(f"'{k}' ×{v}" for k, v in sorted(pool.items()))
    return Text(text)


def construction_costs(game: Game, company: str) -> dict[tuple[Any, ...], int]:
    """The price of each legal lay, promotion and base of ``company`` (4.1.12, 4.2.13, 4.4),
    keyed like :func:`option_key`."""
    st = game.state
    if company not in st.companies or st.round != "operating":
        return {}
    try:
        ctx = board_port.context(game.rules, st, st.companies[company])
        moves = con.legal_moves(st.board, ctx)
    except India1853Error:
        return {}
    out: dict[tuple[Any, ...], int] = {}
    for m in moves:
        mv = m.move
        if isinstance(mv, con.Lay):
            out[("lay_tile", mv.hex, mv.tile, mv.rotation)] = m.cost
        elif isinstance(mv, con.Promotion):
            out[("promote_tile", mv.hex, mv.tile, mv.rotation)] = m.cost
        elif isinstance(mv, con.PlaceBase):
            out[("place_base", mv.hex, mv.station)] = m.cost
    return out


def option_key(action: Action) -> tuple[Any, ...]:
    kind = action["type"]
    if kind in ("lay_tile", "promote_tile"):
        return (kind, action["hex"], action["tile"], action["rotation"])
    if kind == "place_base":
        return (kind, action["hex"], action.get("station"))
    return (kind,)


def option_cost(action: Action, view: View, game: Game,
                costs: Mapping[tuple[Any, ...], int]) -> str:
    """The money the option moves, as shown in the list ("£100", "+£140"), or ""."""
    kind = action["type"]
    rules = game.rules
    if kind in ("lay_tile", "promote_tile", "place_base"):
        cost = costs.get(option_key(action))
        return _money(cost) if cost else ""
    if kind == "buy_share":
        c = view["companies"][action["company"]]
        if action["source"] == "ipo":
            return _money(rules.company(action["company"]).par)
        return _money(c["price"] or rules.company(action["company"]).par)
    if kind == "sell_shares":
        # The engine's own sale price: the market price, or par (less the first stock round's
        # discount) while the company has none (2.8.3, 3.1.7).
        price = sale_price(rules, game.state, game.state.companies[action["company"]])
        return f"+£{price * action['count']}"
    if kind == "claim_city":
        return _money(rules.city(action["city"]).bond_value)
    if kind == "submit_bid":
        return _money(sum(rules.city(c["city"]).bond_value for c in action["claims"]))
    if kind == "dividend":
        revenue = (view.get("turn") or {}).get("revenue")
        if not isinstance(revenue, int):
            return ""
        return _money(revenue) if action["kind"] == "payout" else f"+£{revenue}"
    if kind == "redeem_share":
        return _money(rules.company(action["company"]).par)
    if kind == "buy_train":
        if "price" in action:
            return _money(action["price"])
        # The director's contribution is told in the note (4.8.8), not twice.
        return _money(rules.train_type(action["train"]).price)
    if kind in ("place_bond", "offer_elephant"):
        return _money(action.get("amount", action.get("price")))
    return ""


def option_text(action: Action, game: Game) -> str:
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
    return kind


# What a one-word option does, beside its command.
NOTES: dict[str, str] = {
    "call_extra_or": "call an extra operating round (4.9)",
    "repay_credit": "pay for the train bought on credit (4.8.10)",
    "return_credit_train": "return the train bought on credit (4.8.10)",
}


def option_note(action: Action, game: Game, view: View | None = None) -> str:
    """What the command alone does not say: the city on a hex, the routes of a run, the bond a
    claim leaves uncovered (2.5.9), the dividend per share (4.6.4)."""
    kind = action["type"]
    if kind in NOTES:
        return NOTES[kind]
    if kind == "claim_city" and view is not None:
        left = bond_left(view, str(action["entity"]), game)
        if left is not None:
            rest = left - game.rules.city(action["city"]).bond_value
            return f"leaves £{rest} of the bond uncovered"
    if kind == "dividend" and view is not None:
        return _dividend_note(action, view, game)
    if kind in ("lay_tile", "promote_tile", "place_base"):
        place = place_name(game.rules.ed, action["hex"]).split(" ", 1)
        return place[1].strip("()") if len(place) > 1 else ""
    if kind == "choose_lay_option":
        return _lay_option_note(action, game)
    if kind == "run_routes":
        return _run_note(action, game)
    if kind == "buy_train" and action.get("contribution"):
        return f"the director adds £{action['contribution']} (4.8.8)"
    return ""


def _lay_option_note(action: Action, game: Game) -> str:
    """4.1.3: option 1 gives two lays free from a later phase, option 2 at once for the
    company's fee, paid each turn it lays two (both from the edition's data)."""
    ed = game.rules.ed
    if action["option"] == 1:
        return f"two lays from phase {ed.rules.double_lay_free_from_phase}, free (4.1.3)"
    fee = ed.costs.double_lay_fees.get(str(action["entity"]), 0)
    return f"two lays now, £{fee} each turn it lays two (4.1.3)"


def _dividend_note(action: Action, view: View, game: Game) -> str:
    """4.6.4: the payout is revenue // shares per company on each paid share; withheld, it
    goes to the company."""
    revenue = (view.get("turn") or {}).get("revenue")
    if not isinstance(revenue, int):
        return ""
    if action["kind"] == "withhold":
        return "to the company's treasury"
    per_share = revenue // game.rules.shares_per_company
    return f"£{per_share} a share to the shareholders"


def _route_key(train: str, mail: bool, hexes: Iterable[str]) -> tuple[str, bool, tuple[str, ...]]:
    out: list[str] = []
    for h in hexes:
        coord = str(h).split(":")[0]
        if not out or out[-1] != coord:
            out.append(coord)
    return train, mail, tuple(out)


def _run_note(action: Action, game: Game) -> str:
    """The routes of a run option (train, mail, hexes) and, for the router's optimum, what it
    earns (4.6)."""
    keys = [_route_key(str(r.get("train")), bool(r.get("mail")),
                       r.get("hexes") or r.get("stops") or [])
            for r in action.get("routes") or []]
    text = "; ".join(f"'{t}'{' (mail)' if m else ''} {'-'.join(h)}" for t, m, h in keys)
    try:
        best = optimal_run(game, str(action["entity"]))
    except India1853Error:
        return text or "no routes"
    optimum = [_route_key(r.train.name, r.mail, r.hexes) for r in best.routes]
    if keys and sorted(keys) == sorted(optimum):
        return f"optimal run £{best.total}: {text}"
    return text or "no routes"


def options_table(legal: Sequence[Action], view: View, game: Game, *,
                  only: str | None = None, everything: bool = False) -> RenderableType:
    """The numbered legal actions with their costs.  Long runs of one type are cut to
    :data:`PER_TYPE_SHOWN` unless ``everything``; ``only`` keeps one type (``lay``, ``buy``).
    A long list is laid out in columns."""
    entity = legal[0]["entity"] if legal else ""
    costs = construction_costs(game, entity) if any(
        a["type"] in ("lay_tile", "promote_tile", "place_base") for a in legal) else {}
    rows: list[tuple[str, str, str, str]] = []
    shown: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    for number, action in enumerate(legal, start=1):
        kind = action["type"]
        text = option_text(action, game)
        if only is not None and not text.startswith(only):
            continue
        if (not everything and only is None and kind not in SHOWN_IN_FULL
                and shown[kind] >= PER_TYPE_SHOWN):
            hidden[kind] += 1
            continue
        shown[kind] += 1
        rows.append((str(number), text, option_cost(action, view, game, costs),
                     option_note(action, game, view)))
    notes = []
    for kind, n in hidden.items():
        word = option_text({"type": kind, **_example(legal, kind)}, game).split(" ")[0]
        notes.append(f"… {n} more '{word}' options: type 'list {word}' to see them")
    if only is not None and not rows:
        notes.append(f"no option starts with {only!r}")
    return Group(_option_rows(rows), *(Text(n, style="italic") for n in notes))


def _option_rows(rows: Sequence[tuple[str, str, str, str]]) -> RenderableType:
    if len(rows) <= COLUMNS_FROM:
        # The heading stands apart: as a table title it would wrap to a narrow table's width.
        table = Table(show_header=False, pad_edge=False, box=None)
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
    return Group(Text("Your options", style="italic"), Columns(items, padding=(0, 3)))


def _example(legal: Sequence[Action], kind: str) -> dict[str, Any]:
    for a in legal:
        if a["type"] == kind:
            return {k: v for k, v in a.items() if k != "type"}
    return {}


def board_table(view: View, game: Game) -> Table:
    """The tiles laid (beyond the printed board) and the bases, hex by hex."""
    ed = game.rules.ed
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


def routes_panel(legal: Sequence[Action], view: View) -> RenderableType:
    """The optimal routes the router found for the company running now (4.5, 4.6)."""
    runs = [a for a in legal if a["type"] == "run_routes"]
    if not runs:
        step = (view.get("turn") or {}).get("step")
        turn = view.get("turn") or {}
        if turn.get("routes"):
            return _routes_table(turn["routes"], f"{turn['company']} ran")
        return Text("No routes to show now: the optimal routes are offered when a company "
                    f"runs its trains (now: {STEP_NAMES.get(step or '', 'no company')}).")
    return _routes_table(runs[0].get("routes") or [], f"{runs[0]['entity']}: optimal routes")


def _routes_table(routes: Sequence[Mapping[str, Any]], title: str) -> Table:
    table = Table(title=title, title_justify="left", pad_edge=False)
    table.add_column("train")
    table.add_column("mail")
    table.add_column("hexes")
    for r in routes:
        hexes = r.get("hexes") or r.get("stops") or []
        table.add_row(str(r.get("train")), "yes" if r.get("mail") else "",
                      " ".join(str(h) for h in hexes))
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


def contract_panel(view: View, player: str, game: Game) -> RenderableType:
    """``player``'s own contract bid as his view shows it: the bond (2.5.2), the cities named
    with their values and the bond they leave uncovered (2.5.4, 2.5.9), the shares claimed, and
    whether the contract is fulfilled (4.3)."""
    me = next(p for p in view["players"] if p["name"] == player)
    if me["bond"] is None:
        return Text(f"{player} has placed no bond yet (2.5.2).")
    lines = [f"Bond: £{me['bond']}" + (" (returned: the contract is fulfilled, 4.3)"
                                       if me["bond_returned"] else "")]
    cities = me["cities"] or []
    if cities:
        lines.append("Contract cities: " + ", ".join(
            f"{c} (£{game.rules.city(c).bond_value})" for c in cities))
        left = bond_left(view, player, game)
        if left is not None and not me["bid_complete"]:
            lines.append(f"Bond not yet covered by cities: £{left}")
    else:
        lines.append("Contract cities: none named yet")
    if me["claims"]:
        lines.append("Shares claimed: " + ", ".join(me["claims"]))
    return Panel(Text("\n".join(lines)), title=f"{player}'s contract bid (secret)",
                 title_align="left")


def turn_screen(game: Game, viewer: str | None, entity: str, legal: Sequence[Action],
                recent: Sequence[str], recent_title: str = "Recent") -> RenderableType:
    """The whole screen of one decision; ``recent``: the lines of the public log to show
    under ``recent_title`` (every bot move since the player's last turn, or the last few)."""
    view = game.view(viewer)
    parts: list[RenderableType] = [
        Panel(Group(status_line(view), Text(decision(view, entity), style="bold yellow")),
              title="1853 India", title_align="left"),
        players_table(view, viewer),
        companies_table(view, game),
        train_market(view, game),
    ]
    if recent:
        parts.append(Panel(Text("\n".join(recent)), title=recent_title, title_align="left"))
    parts.append(options_table(legal, view, game))
    return Group(*parts)
