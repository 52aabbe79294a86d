"""The Simplified Game (first edition): directors' certificates dealt instead of contract bids.

"The Banker now takes Directors' certificates for as many Companies as there are players (it
is best to remove the BBCI and the BAR), shuffles them, and deals 1 to each player. Players then
take their seats in clockwise order starting with the EIR, then the GIP etc ... the first player
is also given the Elephant marker. Each player is then issued with 2 ordinary shares in his
Company ... which are now paid for. All payments are made to the Bank. Now continue with a
Dealing Round."

The certificates are those of the first companies of TABLE 1 left in the deal (docs/rulings.md);
the shuffle uses the seed, so the deal is part of the settings and every replay repeats it.  The
dealt companies are the ones "named in ... the alternative Simplified Game procedures" of 21.3;
their directors are appointed, and they form, as the dealing round opens (17.1, 23.1).
"""

from __future__ import annotations

import random

from india1853.rules.game.events import change, paid
from india1853.rules.game.rules_data import GameRules
from india1853.rules.game.shares import add_shares
from india1853.rules.game.state import GameState


def deal_directors(rules: GameRules, st: GameState) -> None:
    """Deal, seat, issue and pay for the four shares of each player's company (the first
    dealing round follows: ``sequence``)."""
    left_out = {i for v in rules.variants for i in v.left_out_of_deal}
    dealt = [c for c in rules.companies if c.initials not in left_out][:len(st.players)]
    certificates = [c.initials for c in dealt]
    random.Random(f"{st.seed}:deal").shuffle(certificates)
    held = dict(zip(st.player_names(), certificates, strict=True))
    number = {c.initials: c.number for c in rules.companies}
    st.players.sort(key=lambda p: number[held[p.name]])
    change(st, "elephant", "", "Simplified Game", st.elephant, st.players[0].name)
    st.elephant = st.players[0].name
    shares = rules.director_shares + 2
    for p in st.players:
        initials = held[p.name]
        co = st.companies[initials]
        co.contract = True
        co.ipo -= shares
        add_shares(st, p, initials, shares)
        p.contracted[initials] = shares
        cost = shares * rules.company(initials).par
        p.cash -= cost
        st.bank += cost
        paid(st, p.name, "bank", cost, "Simplified Game")
