"""What each action returns (an Outcome with the event it journalled), the rules asked
before acting (refusal, check_card, check_claim, preview), and each hand size's caps.
"""

import pytest

from engine import Game, make_config, parse_card
from engine import state
from engine.errors import BadClaim, CardSeen, WrongPhase
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, STANDARD

from engine_helpers import cards
from game_helpers import refused, showing_sixteen


# --- what each action returns ------------------------------------------------------------

def test_every_action_returns_an_outcome_with_the_event_it_journalled():
    from engine import Outcome
    game = Game(make_config(muggins=True), dealer=0, cut=True)
    outcomes = [game.cut_for_deal(cards("9H AD")), game.set_dealer(0), game.peg(0, 3),
                game.turn_starter(parse_card("KC")), game.lay(parse_card("5H")),
                game.lay(parse_card("KS")), game.advance()]
    for outcome in outcomes:
        assert isinstance(outcome, Outcome)
        assert (outcome.seat, outcome.crib, outcome.show, outcome.claim) == (None,) * 4
    assert [o.event for o in outcomes] == game.journal
    assert [(s.side, s.points, s.reasons) for o in outcomes for s in o.scores] == \
        [(0, 3, ["pegged"]), (0, 2, ["fifteen"])]
    shown = game.count_show(cards("4C 5D 5H 6S"), claim=12, muggins=True)
    assert (shown.event == game.journal[-1]
            == bytes([state.SHOW, 12, 1, 4]) + bytes(cards("4C 5D 5H 6S")))
    assert (shown.seat, shown.crib, shown.claim, shown.show.total) == (1, False, 12, 16)
    assert [(s.side, s.points, s.reasons) for s in shown.scores] == \
        [(1, 12, ["hand"]), (0, 4, ["muggins"])]
    undone = game.undo()
    assert undone.event == shown.event and undone.scores == []


def test_a_misdeal_returns_an_outcome_with_no_scores():
    game = Game()
    game.turn_starter(parse_card("5C"))
    outcome = game.misdeal()
    assert outcome.event == bytes([state.MISDEAL]) and outcome.scores == []


# --- asking the rules before acting ------------------------------------------------------

def test_refusal_gives_the_sentence_and_keeps_nothing():
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    before, journal = state.encode(game), list(game.journal)
    assert game.refusal(game.lay, parse_card("9S")) == "9S makes the count 34; the limit is 31"
    assert (game.refusal(game.lay, parse_card("KH"))
            == "KH is already out this deal (laid in the play)")
    assert game.refusal(game.lay, parse_card("2C")) == "2C is already out this deal (the starter)"
    assert game.refusal(game.lay, parse_card("AS")) is None  # allowed, and not kept
    assert game.refusal(game.go) is None
    assert game.refusal(game.misdeal) == "a misdeal is called before any card is played"
    assert (game.refusal(game.set_dealer, 1)
            == "the dealer changes only before the starter is turned")
    assert (game.refusal(game.cut_for_deal, cards("5H 6D"))
            == "the cut for deal comes before the first hand")
    assert state.encode(game) == before and game.journal == journal
    fresh = Game()
    fresh.turn_starter(parse_card("2C"))
    fresh.lay(parse_card("AS"))
    assert fresh.refusal(fresh.go) == "the count is 1: any card fits, no go"
    with pytest.raises(WrongPhase):
        fresh.go()


def test_check_card_says_where_a_card_went():
    game = Game(dealer=0)
    game.turn_starter(parse_card("KC"))
    game.lay(parse_card("5H"))
    game.advance()
    game.count_show(cards("4C 5D 5H 6S"))
    assert game.refusal(game.check_card, parse_card("QH")) is None
    assert (game.refusal(game.check_card, parse_card("KC"))
            == "KC is already out this deal (the starter)")
    assert (game.refusal(game.check_card, parse_card("5H"))
            == "5H is already out this deal (laid in the play)")
    assert (game.refusal(game.check_card, parse_card("4C"))
            == "4C is already out this deal (in a hand shown)")
    with pytest.raises(CardSeen):
        game.check_card(parse_card("6S"))


def test_check_claim_knows_the_hand_size_and_the_crib():
    game = Game(make_config(variant=FIVE_CARD), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    assert game.refusal(game.check_claim, 16) == "16 is impossible: no hand makes it"  # 3 cards
    assert game.refusal(game.check_claim, 20) is None
    assert game.refusal(game.check_claim, 21) == "21 is impossible: the most is 20"
    game.count_show(cards("4C 5D 6S"))
    game.count_show(cards("AH 2H 3H"))
    assert game.showing() == (0, True)
    assert game.refusal(game.check_claim, 16) is None  # the crib is 4 cards
    assert game.refusal(game.check_claim, 19) == "19 is impossible: no crib makes it"
    assert (game.refusal(game.count_show, cards("7C 7D 8H 9D"), 19)
            == "19 is impossible: no crib makes it")


def test_preview_shows_what_a_count_would_peg():
    game, hand = showing_sixteen(muggins=True)
    before = state.encode(game)
    seen = list(game.journal)
    outcome = game.preview(game.count_show, hand, 10, True)
    assert outcome.show.total == 16
    assert [(s.side, s.points, s.reasons) for s in outcome.scores] == \
        [(1, 10, ["hand"]), (0, 6, ["muggins"])]
    assert state.encode(game) == before and game.journal == seen
    with pytest.raises(BadClaim):
        game.preview(game.count_show, hand, 18)
    skipped = Game(make_config(muggins=True))
    skipped.advance()
    skipped.advance()  # no starter keyed
    assert (skipped.refusal(skipped.count_show, hand)
            == "no starter was keyed: peg this hand by points")


# --- the caps of each hand size ----------------------------------------------------------

@pytest.mark.parametrize("variant, top", [(STANDARD, 29), (FIVE_CARD, 29), (SEVEN_CARD, 46),
                                          (SHOTGUN, 72), (LOWBALL, 29)])
def test_the_highest_single_peg_follows_the_hand_size(variant, top):
    game = Game(make_config(variant=variant))
    assert game.limits.max_peg == top
    assert "a score is 1 to %d" % top in refused(game, lambda: game.peg(0, top + 1))
    game.peg(1, top)
    assert game.scores[1] == top + (3 if variant == FIVE_CARD else 0)  # five-card: the pone's 3


def test_seven_card_and_shotgun_hands_over_29_are_claimed():
    game = Game(make_config(variant=SEVEN_CARD), dealer=0)
    game.turn_starter(parse_card("4H"))
    game.advance()
    counted = game.count_show(cards("4S 5S 5H 6S 6H"), claim=46)
    assert counted.claim == 46 and game.scores == [0, 46]
    game = Game(make_config(variant=SHOTGUN), dealer=0)
    game.turn_starter(parse_card("4H"))
    game.advance()
    assert "impossible" in refused(game, lambda: game.count_show(cards("4S 5S 5H 5D 6S 6H"), 71))
    game.count_show(cards("4S 5S 5H 5D 6S 6H"), claim=72)
    assert game.scores == [0, 72]
