"""Shares, holdings, directors, managers and company formation (2.7, 2.9, 3.1.2, 3.2-3.4).

Holdings are counted in shares: a director's holding includes the two shares of the director's
certificate, which counts as one certificate (3.1.2).  ``since`` records the action number at
which a player's current holding in a company began, for the "held the longest" ties (3.2.1).
"""

from __future__ import annotations

from india1853.board.state import Base
from india1853.errors import RuleError
from india1853.rules.game.events import change, emit
from india1853.rules.game.money import bank_breaks, company_receives
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.state import CompanyState, GameState, Pending, PlayerState

KIT_GENERAL = "MIK 2, GENERAL"


def par(rules: GameRules, co: CompanyState) -> int:
    return rules.company(co.initials).par


def price(rules: GameRules, co: CompanyState) -> int:
    """The stock market price, or par if the company has none yet (3.1.7)."""
    if co.price_index is None:
        return par(rules, co)
    return rules.market[co.price_index]


def exempt(rules: GameRules, co: CompanyState) -> bool:
    """Shares valued at the exempt price or less escape the holding limits (3.1.2)."""
    return price(rules, co) <= rules.holding_limit_exempt_price


def issued(rules: GameRules, co: CompanyState) -> int:
    """Shares issued: all not in the initial offering; pool shares count (3.1.10)."""
    return rules.shares_per_company - co.ipo + co.kit_shares


def ipo_available(rules: GameRules, co: CompanyState) -> int:
    """New shares on sale: the director's certificate stays in the offering until a director
    is first appointed, and is never bought directly (2.9.2, 3.2.1)."""
    reserved = 0 if co.had_director else rules.director_shares
    return max(0, co.ipo - reserved)


def certificates(rules: GameRules, st: GameState, player: PlayerState) -> int:
    """Certificates counting towards the TABLE 3 total (director's counts one, 3.1.2)."""
    total = 0
    for initials, n in player.shares.items():
        co = st.companies[initials]
        if n <= 0 or exempt(rules, co):
            continue
        if st.kit is not None:
            # MIK 2: each Director's Share held is one card for two shares.
            total += n - (rules.director_shares - 1) * directors_shares(st, player.name, initials)
        else:
            total += n - (rules.director_shares - 1 if co.director == player.name else 0)
    return total


def held_cards(st: GameState, player: PlayerState) -> int:
    """MIK 2, METHOD: the kit's cards a player holds undecided count towards his cards."""
    return len(st.kit.hands.get(player.name, [])) if st.kit is not None else 0


def directors_shares(st: GameState, name: str, initials: str) -> int:
    """MIK 2: the Director's Shares of the company the player holds (the kit's and the
    company's own certificate)."""
    if st.kit is None:
        return 0
    return sum(1 for card in st.kit.directors.get(name, []) if card.split(":")[1] == initials)


def ordinary_shares(rules: GameRules, st: GameState, player: PlayerState, initials: str) -> int:
    """MIK 2: the single shares of a holding (each Director's Share is two shares)."""
    return (player.shares.get(initials, 0)
            - rules.director_shares * directors_shares(st, player.name, initials))


def _kit_director(rules: GameRules, st: GameState, co: CompanyState) -> str | None:
    """MIK 2: "control of a Company now rests with whoever holds the majority of Director's
    Shares, ownership of the single shares being significant only when it is necessary to
    resolve a tie ... decided in favour of the contender who first bought a share".  The
    company's own certificate is first taken, when it floats, as in the standard game (17.1,
    22.1: the largest holding, exchanging two single shares) and then stays with its owner
    (Alternative Rules 1.0: "Director's Shares now remain with the original owner unless they
    are deliberately sold"; docs/rulings.md)."""
    assert st.kit is not None
    if not co.had_director:
        able = [p for p in holders(st, co.initials)
                if ordinary_shares(rules, st, p, co.initials) >= rules.director_shares]
        if able:
            first = _rank(st, co.initials, able)[0]
            st.kit.directors.setdefault(first.name, []).append(f"DS:{co.initials}:0")
    ranked = sorted((p for p in st.players if directors_shares(st, p.name, co.initials) > 0),
                    key=lambda p: (-directors_shares(st, p.name, co.initials),
                                   -ordinary_shares(rules, st, p, co.initials),
                                   p.since.get(co.initials, 0)))
    return ranked[0].name if ranked else None


def directors_sold(rules: GameRules, st: GameState, player: PlayerState, initials: str,
                   count: int) -> int:
    """MIK 2, GENERAL: how many Director's Shares a sale of ``count`` shares includes: single shares
    first, then whole Director's Shares of two (docs/rulings.md), or the rule it breaks."""
    if st.kit is None:
        return 0
    single = ordinary_shares(rules, st, player, initials)
    if count <= single:
        return 0
    extra = count - single
    if extra % rules.director_shares:
        raise RuleError(KIT_GENERAL, f"{player.name} holds {single} single {initials} shares; a "
                        f"Director's Share is sold whole, as {rules.director_shares} shares")
    return extra // rules.director_shares


def sell_directors_shares(rules: GameRules, st: GameState, player: PlayerState,
                          initials: str, n: int) -> None:
    """MIK 2, GENERAL: "the card is then placed in the discard stack, not the Bank Pool. This
    applies to ALL Director's Shares" - the last acquired first."""
    kit = st.kit
    assert kit is not None
    cards = kit.directors.get(player.name, [])
    for _ in range(n):
        card = next(c for c in reversed(cards) if c.split(":")[1] == initials)
        cards.remove(card)
        kit.discard.append(card)
        st.companies[initials].kit_shares -= rules.director_shares


def add_shares(st: GameState, player: PlayerState, initials: str, n: int) -> None:
    before = player.shares.get(initials, 0)
    after = before + n
    if after < 0:
        raise ValueError("negative holding")
    if after == 0:
        player.shares.pop(initials, None)
        player.since.pop(initials, None)
    else:
        player.shares[initials] = after
        if before == 0:
            player.since[initials] = st.seq


def _rank(st: GameState, initials: str, players: list[PlayerState]) -> list[PlayerState]:
    """Largest holding first; ties to whoever has held the company longest (3.2.1)."""
    return sorted(players, key=lambda p: (-p.shares.get(initials, 0), p.since.get(initials, 0)))


def holders(st: GameState, initials: str) -> list[PlayerState]:
    return [p for p in st.players if p.shares.get(initials, 0) > 0]


def would_be_director(rules: GameRules, st: GameState, co: CompanyState) -> str | None:
    """The holder who qualifies first for the director's certificate now (3.2.1): the largest
    holding of at least a director's certificate, ties to the longest holder."""
    need = rules.director_shares
    ranked = _rank(st, co.initials, holders(st, co.initials))
    qualified = [p for p in ranked if p.shares.get(co.initials, 0) >= need]
    return qualified[0].name if qualified else None


def update_control(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """Appoint, keep or change the director, or a manager (3.2.1-3.2.3, 3.4.1).

    A director keeps office until another holder has MORE shares (3.2.3) or the director's
    holding falls below a director's certificate.  With no qualified holder a manager runs the
    company: the previous director if still a holder, else the longest holder (3.4.1); with no
    holders at all the Elephant's holder manages (:func:`controller`).
    """
    if not co.floated:
        return
    need = rules.director_shares
    current = st.player(co.director) if co.director else None
    ranked = _rank(st, co.initials, holders(st, co.initials))
    qualified = [p for p in ranked if p.shares.get(co.initials, 0) >= need]
    new_director: str | None
    if st.kit is not None:
        new_director = _kit_director(rules, st, co)
    elif current is not None and current.shares.get(co.initials, 0) >= need:
        top = qualified[0]
        if top.shares[co.initials] > current.shares[co.initials]:
            new_director = top.name
        else:
            new_director = current.name
    else:
        new_director = qualified[0].name if qualified else None
    if new_director is None:
        if co.director is not None:
            co.manager = co.director
        change(st, "director", co.initials, "3.4.1", co.director, None)
        co.director = None
        if co.manager is None or st.player(co.manager).shares.get(co.initials, 0) == 0:
            co.manager = ranked[0].name if ranked else None
        return
    previous = co.director
    change(st, "director", co.initials, "3.2.2", previous, new_director)
    co.director = new_director
    co.manager = None
    if not co.had_director:
        # Recorded for 2.6.2: an appointment at the end of the first stock round settles the
        # BBCI's type by the director's bid, which reveals part of that bid.
        co.first_director_round = st.stock_round
    co.had_director = True
    if previous != new_director and co.credit_train is not None and not any(
            p.kind == "credit_train" and p.entity == co.initials for p in st.pending):
        # 4.8.10 / 35.9: a director taking over must pay for the credit train or return it -
        # once: when control changes twice before that (MIK 2: two Director's Shares actioned
        # in one actioning), the director in control when it is settled decides.
        st.pending.append(Pending("credit_train", co.initials, "company"))


def controller(st: GameState, co: CompanyState) -> str | None:
    """The player who runs the company: its director, else its manager (3.4.1)."""
    if co.director is not None:
        return co.director
    if co.manager is not None:
        return co.manager
    return st.elephant


def form(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """Company formation: ten times par from the bank (in Company Credits, 23.1), market token
    at par, markers on the home bases (3.3.1, 3.3.2; 23.1, 23.2)."""
    amount = rules.shares_per_company * par(rules, co)
    if co.kind == "either":
        # 2.6.3: a BBCI not settled as a major at the end of the first stock round is a minor.
        co.kind = "minor"
    co.formed = True
    emit(st, "formed", co.initials, "3.3.1", kind=co.kind)
    company_receives(rules, st, co, amount, "3.3.1")
    co.price_index = rules.market.index(par(rules, co))
    emit(st, "price_set", co.initials, "3.3.1", price=par(rules, co))
    co.formed_in_round = st.stock_round
    co.token = co.kind == "minor"
    place_home_bases(rules, st, co)
    bank_breaks(st)


def place_home_bases(rules: GameRules, st: GameState, co: CompanyState) -> None:
    """3.3.2 / 23.2: markers on the home bases of TABLE 1 (the BBCI's Bombay only as a major:
    2.6.2, or the first edition's Alternative Rules 3.0)."""
    board = st.board
    for home in rules.company(co.initials).homes:
        if home.condition is not None and co.kind != "major":
            continue
        station = board.home_station(home)
        if home.variant is not None and board.bases_at(home.hex, station):
            # Alternative Rules 3.0: a home that exists only in the variant is no reserved
            # space; taken by another company's base, it is lost (docs/rulings.md).
            continue
        if station is None and board.tile_at(home.hex) is not None:
            raise RuleError("3.3.2", f"{co.initials}: no station of {home.hex} is its home")
        board = board.with_base(Base(co.initials, home.hex, station))
    st.board = board
