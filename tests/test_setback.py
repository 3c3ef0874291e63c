"""Setback from Python: the Deal API on the spec's worked examples, rules, errors, game score."""

import random

import pytest
from cfrkit import errors, setback


def worked_deal():
    # specs/setback.md §2.5: the leader holds AS KS QS JS AD QH and wins A♠-3♠-2♥-6♠.
    return setback.Deal(hands=["7D 8D 9D 2D 3D 6S", "AS KS QS JS AD QH", "3S TD 6D 2C 3C 4C", "2H 5C 6C 7C 8C 9C"])


def test_playout_keys_worked_example():
    d = worked_deal()
    assert (d.player, d.phase) == (1, "auction")
    assert d.abstract_actions() == ["0", "2", "3", "4"]
    assert d.key() == "0AKQJ"
    assert d.play("2") is None
    for _ in range(3):
        d.play("0")
    assert (d.phase, d.player, d.high_bid, d.high_bidder) == ("establish", 1, 2, 1)
    assert d.abstract_actions() == ["E0"] and d.key() is None
    assert d.play("E0") == "AS"
    assert d.trump == "S"
    assert d.legal_cards() == ["3S"]
    d.play_card("3S")
    d.play_card("2H")
    d.play_card("6S")
    assert d.tricks_done == 1 and d.player == 1
    assert d.abstract_actions() == ["TJ", "TQ", "TK", "S."]
    assert d.key() == "H3.+4.......TJTQTKS"
    assert d.play("S.") == "AD"
    assert d.abstract_actions() == ["l0", "lT"]
    assert d.key() == "H3.-4Ax....0l0lT"


def test_auction_and_establish_worked_examples():
    # Appendix A.3: hand B first bids Three, then establishes trump.
    d = setback.Deal(hands=["2C 3C 4C 5C 6C 7C", "QD TD 4D TS 9S 6S", "AS JS 4S KH 7H 9D", "8C 9C TC JC QC KC"])
    assert d.key() == "0QT4...Tx6"
    d.play("3")
    assert d.key() == "3AJ4"
    for _ in range(3):
        d.play("0")
    assert d.key() == "E3QT4...Tx6"
    assert d.abstract_actions() == ["E0", "E1"]
    e1 = d.copy()
    assert d.play("E0") == "QD"
    assert e1.play("E1") == "9S"
    assert (d.trump, e1.trump) == ("D", "S")
    assert setback.hand_sketch("KC 5C KH 5H 2D 3S") == "K5.........."
    assert setback.hand_sketch("AH JH 7H 3H 2C 9C") == "AJx3........"


def test_dealer_steals_four_and_jack_filter():
    d = setback.Deal(hands=["KS QS JS 3S 7D 2C", "AH KH QH 2H 3H 4H", "2D 3D 4D 5D 6D 8D", "5C 6C 7C 8C 9C TC"])
    assert d.abstract_actions() == ["0", "2", "3"], "no candidate Jack: Four is no abstract action"
    d.bid(4)  # yet it is a legal bid
    assert d.abstract_actions() == ["0"] and d.key() is None
    d.play("0")
    d.play("0")
    assert d.player == 0
    assert d.legal_bids() == [0, 4]
    assert d.key() == "DKQJ3"
    d.play("4")
    assert (d.high_bid, d.high_bidder) == (4, 0)
    # Without a Jack among the candidate suits Four is no abstract action, though a legal bid.
    d = setback.Deal(hands=["KS QS TS 3S 7D 2C", "KC 5C KH 5H 2D 4S", "2H 3D 4D 5D 6D 8D", "6C 7C 8C 9C TC AD"])
    assert d.abstract_actions() == ["0", "2", "3"]
    assert d.legal_bids() == [0, 2, 3, 4]


def test_illegal_moves_raise_and_leave_the_deal_unchanged():
    d = worked_deal()
    with pytest.raises(
        errors.InvalidArgumentError,
        match=r'abstract action: "E0" \(one of \["0", "2", "3", "4"\]\)',
    ):
        d.play("E0")
    with pytest.raises(errors.InvalidArgumentError, match=r"card.*auction is not over"):
        d.play_card("AS")
    d.play("3")
    with pytest.raises(errors.InvalidArgumentError, match=r"bid.*2.*\[0, 4\]"):
        d.bid(2)
    assert d.bids == [3] and d.player == 2
    for _ in range(3):
        d.bid(0)
    d.play_card("QH")  # any card may be led to set trump under the full rules
    assert d.trump == "H"
    before = (d.hands, d.trick, d.player)
    with pytest.raises(errors.InvalidArgumentError, match=r'card: "AS" \(one of 2C 3C 3S 4C 6D TD\)'):
        d.play_card("AS")  # held by player 1, not by player 2
    with pytest.raises(errors.InvalidArgumentError, match=r'card: "XX" \(a rank 2-9'):
        d.play_card("XX")
    assert (d.hands, d.trick, d.player) == before
    d.play_card("3S")  # void in hearts: anything goes
    assert d.player == 3


def test_bad_input_is_refused_with_clear_messages():
    with pytest.raises(errors.InvalidArgumentError, match="exactly 4 hands"):
        setback.Deal(hands=["AS KS QS JS TS 9S"])
    with pytest.raises(errors.InvalidArgumentError, match=r"hand 1.*exactly 6 cards"):
        setback.Deal(hands=["2C 3C 4C 5C 6C 7C", "AS", "2D 3D 4D 5D 6D 7D", "2H 3H 4H 5H 6H 7H"])
    with pytest.raises(errors.InvalidArgumentError, match=r'card: "1S"'):
        setback.Deal(
            hands=[
                "2C 3C 4C 5C 6C 1S",
                "AS KS QS JS TS 9S",
                "2D 3D 4D 5D 6D 7D",
                "2H 3H 4H 5H 6H 7H",
            ]
        )
    with pytest.raises(errors.InvalidArgumentError, match="dealt twice"):
        setback.Deal(hands=["2C 3C 4C 5C 6C 7C"] * 4)
    with pytest.raises(errors.InvalidArgumentError, match="Setback key"):
        setback.parse_key("not a key")
    with pytest.raises(errors.InvalidArgumentError):
        setback.key_string(2**64 - 1)


def test_scoring_cases():
    # All pass: thrown in, 0-0.
    d = setback.Deal.random(5)
    for _ in range(4):
        d.bid(0)
    assert d.finished and d.exhausted and d.score() == (0, 0)
    # A single trump (the Jack) dealt: High, Low, Jack and Game to the bidder; decided after one trick.
    d = setback.Deal(hands=["7C 8C 9C 8D 9D 8S", "JH 2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S"])
    d.bid(2)
    for _ in range(3):
        d.bid(0)
    for c in ["JH", "2D", "2S", "7C"]:
        assert d.score() is None
        d.play_card(c)
    assert d.exhausted and not d.finished
    assert d.score() == (0, 4)
    # Jack not dealt and the bidder set back: 3 points earned, Four bid.
    d = setback.Deal(hands=["AS KS QS JS TS 9S", "2C 3C 4C 5C 6C 7C", "AD KD QD JD TD 9D", "AH KH QH JH TH 9H"])
    d.bid(4)
    for _ in range(3):
        d.bid(0)
    while not d.finished:
        d.play_card(d.legal_cards()[0])
    assert d.score() == (0, -4)
    # Game tied 1-1: nobody gets Game.
    d = setback.Deal(hands=["7C 8C 9C 7D 8D 8S", "JH 2C 3C 4C 5C 6C", "JD 2D 3D 4D 5D 6D", "2S 3S 4S 5S 6S 7S"])
    d.bid(2)
    for _ in range(3):
        d.bid(0)
    for c in ["JH", "2D", "2S", "7D", "2C", "JD", "3S", "9C"]:
        d.play_card(c)
    assert d.exhausted and d.score() == (0, 3)


def test_random_abstract_playouts_conserve_cards_and_fix_the_score():
    rng = random.Random(3)
    for seed in range(200):
        d = setback.Deal.random(seed)
        dealt = [set(h) for h in d.dealt]
        assert sum(len(h) for h in dealt) == 24 and len(set().union(*dealt)) == 24
        played = []
        fixed = None
        while not d.finished:
            acts = d.abstract_actions()
            assert 1 <= len(acts) <= 6 and len(set(acts)) == len(acts)
            key = d.key()
            assert (key is None) == (len(acts) < 2)
            if key is not None:
                assert setback.key_string(setback.parse_key(key)) == key
            card = d.play(rng.choice(acts))
            if card is not None:
                played.append(card)
            if d.exhausted and fixed is None:
                fixed = d.score()
        for i in range(4):
            assert set(d.hands[i]) | (dealt[i] & set(played)) == dealt[i]
        assert d.score() == fixed
        assert len(played) in (0, 24)


def test_game_to_eleven():
    g = setback.GameScore()
    g.add_deal(3, (4, -2))
    assert g.scores == (-2, 4) and g.winner is None
    g = setback.GameScore((9, 9))
    g.add_deal(0, (2, 2))
    assert g.scores == (11, 11) and g.winner is None
    g.add_deal(1, (0, 1))
    assert g.scores == (12, 11) and g.winner == 0
    with pytest.raises(errors.InvalidArgumentError, match="dealer seat"):
        g.add_deal(7, (0, 0))
