"""Train purchases (4.8, 3.4.3, 4.8.19) played in positions of the fixture games.

Each test rebuilds a position of a complete game log in tests/games through the public API and
then acts with ``Game.process``: one legal purchase is accepted, and an illegal one is refused
naming its rule with the game unchanged.
"""

from __future__ import annotations

import pytest
from fixture_positions import act, before, logged, offered, play, refused

from india1853.errors import InputError

GREEDY = "greedy-3p-seed3"
SHORT = "random-5p-seed2-shortened"


def test_the_first_5_opens_the_6() -> None:
    """4.8.3: broad trains in order, 'but once the first '5' train is purchased the '6' trains
    become available'.  GREEDY, action 700: the EIR, in Phase 4 with every '4' sold, buys the
    first '5'."""
    game = before(GREEDY, 699)
    assert game.state.phase == 4 and game.active_entities() == [("EIR", "company")]
    trains = {a["train"] for a in offered(game, "EIR", "buy_train") if "source" not in a}
    assert "5" in trains and "6" not in trains
    refused(game, "4.8.3", "buy_train", "EIR", train="6", contribution=180)
    play(game, logged(GREEDY, 699))  # the '5'
    assert game.state.phase == 5
    game = before(GREEDY, 711)  # the NWR's trains step in the same operating round
    assert game.state.phase == 5
    sixes = [a for a in offered(game, "NWR", "buy_train") if a["train"] == "6"]
    assert sixes == [{"train": "6", "contribution": 400}]
    ann = game.player("Ann").cash
    act(game, "buy_train", "NWR", **sixes[0])
    assert game.company("NWR").cash == 0 and game.player("Ann").cash == ann - 400
    assert any(t.runs_as == "6" for t in game.state.company_trains("NWR"))


def test_a_metre_type_is_not_sold_before_its_phase() -> None:
    """4.8.13 and TABLE 6: the MSM (a minor with £800 and a director, Phase 3: '2M' on
    offer) may buy a '2M' but not a '3M', which Phase 4 brings (SHORT, action 397)."""
    game = before(SHORT, 396)
    assert game.state.phase == 3 and game.active_entities() == [("MSM", "company")]
    assert game.company("MSM").director is not None and game.company("MSM").cash == 800
    error = refused(game, "4.8.13", "buy_train", "MSM", train="3M")
    assert "Phase 4" in str(error)
    refused(game, "4.8.13", "buy_train", "MSM", train="4M")
    act(game, "buy_train", "MSM", train="2M")
    assert game.company("MSM").cash == 550


def test_once_the_phase_metre_trains_are_sold_only_the_token_buys_the_next() -> None:
    """4.8.13: 'Once all current metre gauge trains have been bought none of the next design
    is allowed until AFTER ... the requisite advance in Phase', except with a minor's token
    (4.8.19), which buys one without starting the phase.  SHORT, action 550: Phase 3, every
    '2M' sold; the SIR holds its token."""
    game = before(SHORT, 549)
    assert game.state.phase == 3 and game.active_entities() == [("SIR", "company")]
    assert not any(t.where in ("bank", "pool") and t.name == "2M" for t in game.state.trains)
    bank = [a for a in offered(game, "SIR", "buy_train") if "source" not in a]
    assert bank == [{"train": "3"}, {"train": "3M", "token": True}]
    refused(game, "4.8.13", "buy_train", "SIR", train="3M")
    act(game, "buy_train", "SIR", train="3M", token=True)
    assert game.state.phase == 3 and not game.company("SIR").token
    refused(game, "4.8.19", "buy_train", "SIR", train="3M", token=True)


def test_no_token_while_the_phase_metre_train_is_on_offer() -> None:
    """4.8.19: the token is for a minor when 'there are no 'M' gauge trains available for
    purchase in the current phase'.  SHORT, action 397: Phase 3 and a '2M' on offer."""
    game = before(SHORT, 396)
    assert game.company("MSM").token
    assert not [a for a in offered(game, "MSM", "buy_train") if a.get("token")]
    refused(game, "4.8.19", "buy_train", "MSM", train="3M", token=True)


def test_token_despite_an_unsold_metre_train_of_the_previous_phase() -> None:
    """4.8.19 as the players' guide reads it: 'if no current Phase metre gauge trains are
    available from the Bank ... This power can be exercised even if metre gauge Trains from the
    previous Phase are still unsold' (docs/rulings.md).  SHORT, action 1202: Phase 4, every
    '3M' sold, a '2M' (returned as excess, 4.8.6) on offer; the MSM holds its token but has
    only £89 and no director to help (4.8.8)."""
    game = before(SHORT, 1201)
    msm = game.company("MSM")
    assert game.state.phase == 4 and game.active_entities() == [("MSM", "company")]
    assert msm.token and msm.director is None and msm.cash == 89
    assert not any(t.where in ("bank", "pool") and t.name == "3M" for t in game.state.trains)
    assert [t.id for t in game.state.trains if t.where == "pool"] == ["2M-2"]
    # The token is not refused by 4.8.19 but for want of money: a manager cannot contribute.
    refused(game, "4.8.8", "buy_train", "MSM", train="4M", token=True)
    # Once the MSM has the money (the only arrangement: £600 moved from the bank), it buys.
    game.state.bank -= 600 - msm.cash
    msm.cash = 600
    assert {"train": "4M", "token": True} in offered(game, "MSM", "buy_train")
    act(game, "buy_train", "MSM", train="4M", token=True)
    assert game.state.phase == 4 and not game.company("MSM").token
    assert game.company("MSM").cash == 10
    assert [t.id for t in game.state.trains if t.where == "pool"] == ["2M-2"]  # still unsold


def test_a_major_may_not_own_a_metre_train_in_phase_2() -> None:
    """4.8.15 (Phase 2 of TABLE 6 = the text's Phase 1, docs/rulings.md): the ECR and the BBCI
    bought '2M' trains with their tokens; the GIP may buy their '2' trains but not a '2M'
    (random-3p-seed11, action 173)."""
    game = before("random-3p-seed11", 172)
    assert game.state.phase == 2 and game.active_entities() == [("GIP", "company")]
    assert not [a for a in offered(game, "GIP", "buy_train") if a["train"] == "2M"]
    error = refused(game, "4.8.15", "buy_train", "GIP", train="2M", source="ECR", price=10)
    assert "4.8.18" not in str(error)
    refused(game, "4.8.15", "buy_train", "GIP", train="2M", source="BBCI", price=100)
    play(game, logged("random-3p-seed11", 172))  # the ECR's '2' for £10
    assert [t.runs_as for t in game.state.company_trains("GIP")] == ["2"]


def test_another_company_buys_a_returned_train_at_full_price() -> None:
    """4.8.6: the EIR returned its '4' (4-1) when Phase 5 cut the limit to two; the bank
    offers it again at full price, and the NWR buys it (GREEDY, action 712)."""
    game = before(GREEDY, 711)
    assert [t.id for t in game.state.trains if t.where == "pool"] == ["4-1"]
    assert {"train": "4"} in offered(game, "NWR", "buy_train")
    bank = game.state.bank
    act(game, "buy_train", "NWR", train="4")
    card = next(t for t in game.state.trains if t.id == "4-1")
    assert (card.where, card.owner) == ("company", "NWR")
    assert game.company("NWR").cash == 650 - 620 and game.state.bank == bank + 620


def test_a_returned_credit_train_does_not_hold_back_the_next_type() -> None:
    """4.8.3: 'all of one type must have been bought before the next type become available'.
    random-3p-seed11, action 909: the GIP's trains step in Phase 3.  Every '3' card has been
    bought; 3-2, bought on credit, is back in the bank because a new director returned it
    (4.8.10, action 820).  The '4' is on sale, with the returned '3' as an alternative."""
    game = before("random-3p-seed11", 908)
    st = game.state
    assert st.phase == 3 and game.active_entities() == [("GIP", "company")]
    assert [t.id for t in st.trains if t.where == "bank" and t.runs_as == "3"] == ["3-2"]
    bank = [a for a in offered(game, "GIP", "buy_train") if "source" not in a]
    assert bank == [{"train": "3"}, {"train": "4"}]
    act(game, "buy_train", "GIP", train="4")
    assert game.state.phase == 4
    assert [t.id for t in game.state.trains if t.where == "bank" and t.runs_as == "3"] == ["3-2"]


def test_a_manager_may_buy_the_tokens_train_on_credit() -> None:
    """3.4.3 with 4.8.19: a manager may buy 'a new train, from the bank, on credit', and the
    minor's token buys a new metre train of the next phase; the two combine, and
    ``legal_actions`` lists what ``process`` accepts.  random-3p-seed11, action 1086: the MSM,
    a minor run by a manager, has no train, £100 and its token, in Phase 4 with no '3M' left."""
    game = before("random-3p-seed11", 1085)
    msm = game.company("MSM")
    assert msm.director is None and msm.token and msm.cash == 100
    assert not game.state.company_trains("MSM") and game.state.phase == 4
    assert {"train": "4M", "credit": True, "token": True} in offered(game, "MSM", "buy_train")
    act(game, "buy_train", "MSM", train="4M", credit=True, token=True)
    msm = game.company("MSM")
    assert msm.credit_train == "4M-1" and not msm.token and msm.cash == 100
    assert game.state.phase == 4  # 4.8.19: the token's train starts no phase


def test_no_contribution_when_the_company_can_afford_the_train() -> None:
    """4.8.8: a director may make up 'insufficient funds' and only those; 'after such a
    purchase the company treasury will be empty' (GREEDY, action 712: the NWR has £650)."""
    game = before(GREEDY, 711)
    refused(game, "4.8.8", "buy_train", "NWR", train="4", contribution=10)
    refused(game, "4.8.8", "buy_train", "NWR", train="5", contribution=100)  # short by £180
    act(game, "buy_train", "NWR", train="5", contribution=180)
    assert game.company("NWR").cash == 0


def test_a_manager_may_not_contribute() -> None:
    """4.8.8 is the director's; a manager's company (3.4) cannot be helped.  random-3p-seed3,
    action 179: the NWR, run by a manager, has £20 and three '2' trains."""
    game = before("random-3p-seed3", 178)
    nwr = game.company("NWR")
    assert nwr.director is None and nwr.manager is not None and nwr.cash == 20
    assert offered(game, "NWR", "buy_train") == []
    refused(game, "4.8.8", "buy_train", "NWR", train="2", contribution=280)
    refused(game, "4.8.8", "buy_train", "NWR", train="2")
    refused(game, "3.4.3", "buy_train", "NWR", train="2", credit=True)  # it owns trains


def test_credit_buys_only_a_new_train() -> None:
    """3.4.3: a manager may buy 'a new train, from the bank, on credit'.  SHORT, action 1187:
    the NWR, run by a manager, has no train and £155; the bank offers new '4' trains and a
    '2M' returned as excess (4.8.6)."""
    game = before(SHORT, 1186)
    nwr = game.company("NWR")
    assert nwr.director is None and not game.state.company_trains("NWR")
    assert [t.id for t in game.state.trains if t.where == "pool"] == ["2M-2"]
    credit = [a for a in offered(game, "NWR", "buy_train") if a.get("credit")]
    assert credit == [{"train": "4", "credit": True}]
    refused(game, "3.4.3", "buy_train", "NWR", train="2M", credit=True)
    act(game, "buy_train", "NWR", train="4", credit=True)
    card = next(t for t in game.state.trains if t.id == game.company("NWR").credit_train)
    assert card.runs_as == "4" and game.company("NWR").cash == 155


def test_an_unknown_train_is_bad_input() -> None:
    """A train name that is no type of TABLE 5 is refused as bad input naming the field."""
    game = before(GREEDY, 711)
    state, log = game.state.clone(), list(game.log)
    for fields in ({"train": "9"}, {"train": "2/1M"}, {"train": "7", "source": "EIR",
                                                       "price": 10}):
        with pytest.raises(InputError, match=r"buy_train\.train: unknown train"):
            game.process(game.action("buy_train", "NWR", **fields))
    assert game.state == state and game.log == log
