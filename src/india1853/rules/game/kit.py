"""The MIK 2 extension kit (first edition, "MIK 2 EXTENSION KIT FOR '1853' GAMES").

METHOD: the 21 cards are shuffled (from the seed) into a face-down stack.  At the start of
every railway round except one that immediately follows a dealing round, each player in turn
from the Elephant's holder may take one card (``draw_card``, or ``pass``): only while cards are
available (the discard stack is shuffled and re-used when the stack is empty) and never beyond
his number of cards (GENERAL: 27/20/16/14 with 3-6 players, TABLE 3 variant ``mik2``).  In
Phase 1, where dealing and railway rounds alternate, only the Elephant's additional round
qualifies - the one railway round that follows another (docs/rulings.md).

ACTIONING CARDS: before a dealing round, in turn from the Elephant, each player holding cards
actions ONE card (``play_card``) OR rejects any number (``reject_cards``) OR passes, until
every holder has passed in a row.  Retained cards stay secret.

DIRECTOR'S SHARES: pay the par of ONE share and put one of one's ordinary shares in the bank
pool; the card is two shares (``CompanyState.kit_shares``) and counts for control
(``shares.update_control``); it may float the company.  GENERAL: a Director's Share sold goes
to the discard stack, not the pool (``shares.sell_directors_shares``).

COMMODITY CARDS: a plain yellow track tile replaced by the similar tile with one £10 station
(data ``similar_tiles``; the regions of variant ``mik2_regions``).  DISTURBANCES: a city closed
for the next railway round (``disturbances``).

The kit's two interludes - the draws before a railway round's first company and the actioning
before a dealing round - are attached to the order of rounds by the sequencer (``sequence``):
``begin_draws`` and ``begin_actions`` start them, and they report their end to it.
"""

from __future__ import annotations

import random

from india1853.board.state import BoardState, PlacedTile
from india1853.board.tiles import map_paths
from india1853.data.model import TileSpec
from india1853.errors import India1853Error, InputError, RuleError
from india1853.rules.construction.common import hex_spec
from india1853.rules.game.disturbances import DISTURBANCES, closed_hex, play_disturbances
from india1853.rules.game.events import emit, paid
from india1853.rules.game.money import bank_breaks
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import (
    KIT_GENERAL,
    add_shares,
    certificates,
    held_cards,
    ordinary_shares,
    par,
    update_control,
)
from india1853.rules.game.state import GameState, KitState, Pending, PlayerState
from india1853.rules.game.stock_round import check_float

METHOD = "MIK 2, METHOD"
ACTIONING = "MIK 2, ACTIONING CARDS"
DIRECTORS = "MIK 2, DIRECTOR'S SHARES"
GENERAL = KIT_GENERAL
COMMODITY = "MIK 2, COMMODITY CARDS"


def new_kit(rules: GameRules, seed: int) -> KitState | None:
    """METHOD: "Shuffle the new cards thoroughly and place them in a stack, face downwards"."""
    if rules.kit is None:
        return None
    deck = [c.id for c in rules.kit.cards]
    random.Random(f"{seed}:mik2:0").shuffle(deck)
    return KitState(deck=deck)


def _kit(st: GameState) -> KitState:
    if st.kit is None:
        raise RuleError(METHOD, "this game does not use the MIK 2 kit")
    return st.kit


def _seats_from_elephant(st: GameState) -> list[str]:
    names = st.player_names()
    start = names.index(st.elephant) if st.elephant in names else 0
    return names[start:] + names[:start]


# --- drawing (METHOD) -------------------------------------------------------------------


def may_draw(rules: GameRules, st: GameState, player: PlayerState) -> str | None:
    """Why the player may not take a card now, or None."""
    kit = _kit(st)
    if not kit.deck and not kit.discard:
        return "no card is available: the stack and the discard stack are empty"
    limit = rules.table.certificate_limit
    if certificates(rules, st, player) + held_cards(st, player) + 1 > limit:
        return (f"{player.name} holds {limit} cards; a player MUST NOT pick up cards beyond "
                "that limit")
    return None


def begin_draws(rules: GameRules, st: GameState) -> bool:
    """METHOD: the draws at the start of a railway round, if it is one that has them - not
    the first after a dealing round (so, in Phase 1, only the Elephant's additional round).
    True if a draw awaits a player (the round's first company then waits, ``end_draws``)."""
    if st.kit is None or st.or_in_set <= 1:
        return False
    return _next_drawer(rules, st, _seats_from_elephant(st))


def _next_drawer(rules: GameRules, st: GameState, order: list[str]) -> bool:
    for i, name in enumerate(order):
        if may_draw(rules, st, st.player(name)) is None:
            st.round = "kit_draws"
            st.pending.insert(0, Pending("kit_draw", name, "player", {"after": order[i + 1:]}))
            return True
    return False


def draw_card(rules: GameRules, st: GameState, pending: Pending, *, draw: bool) -> None:
    """METHOD: the player takes the top card (or passes); then the next one from the
    Elephant, and after the last the railway round goes on."""
    kit = _kit(st)
    player = st.player(pending.entity)
    if draw:
        why = may_draw(rules, st, player)
        if why is not None:
            raise RuleError(GENERAL if "limit" in why else METHOD, why)
        if not kit.deck:
            # "The discard stack is shuffled and re-used when necessary."
            kit.shuffles += 1
            kit.deck = sorted(kit.discard)
            kit.discard = []
            random.Random(f"{st.seed}:mik2:{kit.shuffles}").shuffle(kit.deck)
        card = kit.deck.pop()
        kit.hands.setdefault(player.name, []).append(card)
        emit(st, "card_drawn", player.name, METHOD, card=card)
        kit.draws += 1
    st.pending.pop(0)
    if _next_drawer(rules, st, list(pending.data["after"])):
        return
    end_draws(rules, st)


def end_draws(rules: GameRules, st: GameState) -> None:
    """METHOD: the draws are over; the railway round's first company follows."""
    st.end_round()


# --- actioning (ACTIONING CARDS) ----------------------------------------------------------


def begin_actions(rules: GameRules, st: GameState) -> bool:
    """ACTIONING CARDS: "This precedes a Dealing Round and takes place in turn, beginning
    with the Elephant" - once before each dealing round, when someone holds cards.  True if a
    player is to action (the dealing round waits, ``end_actions``)."""
    kit = st.kit
    if kit is None or kit.action_for == st.stock_round + 1:
        return False
    kit.action_for = st.stock_round + 1
    kit.passes = 0
    holders = [n for n in _seats_from_elephant(st) if kit.hands.get(n)]
    if not holders:
        return False
    st.round = "kit_actions"
    st.pending.insert(0, Pending("kit_action", holders[0], "player"))
    return True


def _holders(kit: KitState) -> int:
    return sum(1 for cards in kit.hands.values() if cards)


def _next_action_turn(rules: GameRules, st: GameState, current: str) -> None:
    """The next player after ``current`` holding cards, until every holder passed in a row."""
    kit = _kit(st)
    st.pending.pop(0)
    if _holders(kit) == 0 or kit.passes >= _holders(kit):
        end_actions(rules, st)
        return
    names = st.player_names()
    i = names.index(current)
    for step in range(1, len(names) + 1):
        name = names[(i + step) % len(names)]
        if kit.hands.get(name):
            st.pending.insert(0, Pending("kit_action", name, "player"))
            return
    end_actions(rules, st)


def end_actions(rules: GameRules, st: GameState) -> None:
    """ "All actions are completed before the Dealing Round starts." """
    st.end_round()


def _hand_card(st: GameState, player: PlayerState, card: str) -> None:
    if card not in _kit(st).hands.get(player.name, []):
        raise RuleError(ACTIONING, f"{player.name} holds no card {card!r}")


def pass_actions(rules: GameRules, st: GameState, player: PlayerState) -> None:
    """A turn in which the player neither actions nor rejects a card: his cards are retained
    (their identity remains secret)."""
    _kit(st).passes += 1
    _next_action_turn(rules, st, player.name)


def reject_cards(rules: GameRules, st: GameState, player: PlayerState, cards: list[str]) -> None:
    """ACTIONING CARDS: "reject a number of cards" - face down on the discard stack; "nothing
    happens at all"."""
    kit = _kit(st)
    if len(set(cards)) != len(cards):
        raise RuleError(ACTIONING, "a card is named twice")
    for card in cards:
        _hand_card(st, player, card)
    for card in cards:
        kit.hands[player.name].remove(card)
        kit.discard.append(card)
    emit(st, "cards_rejected", player.name, ACTIONING, count=len(cards), cards=list(cards))
    kit.passes = 0
    _next_action_turn(rules, st, player.name)


def play_card(rules: GameRules, st: GameState, player: PlayerState, card_id: str, *,
              hex: str | None = None, city: str | None = None) -> None:
    """ACTIONING CARDS: action ONE card (its target: a Commodity card's ``hex``, a
    Disturbances card's ``city``)."""
    kit = _kit(st)
    assert rules.kit is not None
    _hand_card(st, player, card_id)
    card = rules.kit.card(card_id)
    needs = {"director": None, "commodity": "hex", "disturbances": "city"}[card.kind]
    for name, value in (("hex", hex), ("city", city)):
        if value is None and name == needs:
            raise InputError(f"action play_card.{name}: missing (the target of {card_id})")
        if value is not None and name != needs:
            raise InputError(f"action play_card.{name}: {card_id} takes no {name}")
    kit.hands[player.name].remove(card_id)
    emit(st, "card_played", player.name, ACTIONING, card=card_id, kind=card.kind, hex=hex,
         city=city)
    if card.kind == "director":
        assert card.company is not None
        play_directors_share(rules, st, player, card.company, card_id)
    elif card.kind == "commodity":
        assert hex is not None and card.commodity is not None
        play_commodity(rules, st, card.commodity, hex)
        kit.discard.append(card_id)
    else:
        assert city is not None
        play_disturbances(rules, st, kit, city)
        kit.discard.append(card_id)
    kit.shown += 1
    kit.passes = 0
    _next_action_turn(rules, st, player.name)


def check_directors_share(rules: GameRules, st: GameState, player: PlayerState,
                          initials: str) -> int:
    """DIRECTOR'S SHARES: the price, or the rule that bars the play."""
    co = st.companies[initials]
    if ordinary_shares(rules, st, player, initials) - player.unredeemed.get(initials, 0) < 1:
        raise RuleError(DIRECTORS, f"{player.name} holds no ordinary {initials} share to put "
                        "in the bank pool: a player who does not already hold an ordinary "
                        "share is not able to play a Director's Share")
    cost = par(rules, co)
    if player.cash < cost:
        raise RuleError(DIRECTORS, f"the Director's Share costs one share's value, £{cost}; "
                        f"{player.name} has £{player.cash}")
    return cost


def play_directors_share(rules: GameRules, st: GameState, player: PlayerState,
                         initials: str, card_id: str) -> None:
    """DIRECTOR'S SHARES: "bought for the face value of ONE ordinary share ... together with an
    ordinary share in the same Company which is placed in the Bank Pool"; "not ... the 'sale'
    of a share"; control changes at once; "A Company may be formed by Director's Shares being
    bought in this manner"."""
    cost = check_directors_share(rules, st, player, initials)
    co = st.companies[initials]
    player.cash -= cost
    st.bank += cost
    paid(st, player.name, "bank", cost, DIRECTORS)
    bank_breaks(st)
    # Two shares in, one ordinary share out to the pool.
    add_shares(st, player, initials, rules.director_shares - 1)
    player.contracted[initials] = min(player.contracted.get(initials, 0),
                                      ordinary_shares(rules, st, player, initials))
    co.pool += 1
    co.kit_shares += rules.director_shares
    # Held before control is settled: the card is two of his shares, not single ones.
    _kit(st).directors.setdefault(player.name, []).append(card_id)
    check_float(rules, st, co)
    if co.formed:
        update_control(rules, st, co)


# --- Commodity cards and Disturbances ----------------------------------------------------


def commodity_tile(rules: GameRules, st: GameState, commodity: str,
                   hex: str) -> tuple[str, str, int]:
    """COMMODITY CARDS: the hex (as the board spells it), the similar tile and its rotation
    that a card may put there, or the rule that bars it."""
    assert rules.kit is not None
    try:
        coord = hex_spec(st.board, hex).coord
    except India1853Error:
        raise InputError(f"action play_card.hex: {hex!r} is not a hex of the board") from None
    placed = st.board.tile_at(coord)
    if placed is None:
        raise RuleError(COMMODITY, f"{coord} has no tile: a Commodity card replaces a track "
                        "tile on the board")
    old, rotation = placed
    new = rules.kit.similar_tiles.get(old.id)
    if new is None:
        raise RuleError(COMMODITY, f"tile {old.id} on {coord} is not an ordinary yellow track "
                        "tile with a similar station tile (docs/rulings.md)")
    if st.board.supply().get(new, 0) <= 0:
        raise RuleError(COMMODITY, f"no tile {new} is left to replace tile {old.id} with")
    if rules.kit_regions:
        region = rules.kit.regions[commodity]
        if not region.contains(coord, rules.ed.board.hexes[coord].ganges_valley):
            raise RuleError(COMMODITY, f"{commodity}: {region.rule}; {coord} is outside")
    if closed_hex(rules, st) == coord:
        raise RuleError(DISTURBANCES, f"{coord} is closed this railway round")
    track = _track(old, rotation)
    spec = rules.ed.tiles[new]
    for turn in range(6):
        if _track(spec, turn) == track:
            return coord, new, turn
    raise RuleError(COMMODITY, f"tile {new} does not keep the track of tile {old.id}")


def _track(tile: TileSpec, rotation: int) -> frozenset[tuple[int, str]]:
    """The map sides a tile's track reaches, with their gauges."""
    return frozenset((end, p.gauge) for p in map_paths(tile, rotation)
                     for end in (p.a, p.b) if isinstance(end, int))


def play_commodity(rules: GameRules, st: GameState, commodity: str, hex: str) -> None:
    """COMMODITY CARDS: "played without payment ... replace one ordinary yellow track tile on
    the board with a similar tile with a single value '10' station" (up-graded later in the
    normal way); the plain tile goes back to the supply."""
    coord, tile, rotation = commodity_tile(rules, st, commodity, hex)
    tiles = dict(st.board.tiles)
    tiles[coord] = PlacedTile(tile, rotation)
    st.board = BoardState(st.board.edition, tiles, st.board.bases)


def hand(st: GameState, name: str) -> list[str]:
    """The player's undecided cards (secret to the others)."""
    return list(st.kit.hands.get(name, [])) if st.kit is not None else []
