"""The play: turns, the running count, go, resets and points, for 2, 3 and 4 players."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools import naive
from engine import Game, make_config, parse_card
from engine import state
from engine.cards import rank_of, suit_of, value_of
from engine.errors import IllegalAction, OverThirtyOne, WrongPhase
from engine.game import PLAY, SHOW
from engine.play import NOBODY, Play


def card(text):
    return parse_card(text)


def start(players=2, dealer=0, starter="2C"):
    game = Game(make_config(players=players), dealer=dealer)
    game.turn_starter(card(starter))
    return game


def run(game, actions):
    """Lay cards ('5H') and say go ('go') in turn; return every Score pegged."""
    scores = []
    for action in actions.split():
        scores.extend((game.go() if action == "go" else game.lay(card(action))).scores)
    return scores


def points(scores):
    return [(s.side, s.points, s.reasons) for s in scores]


# --- docs/rules.md's play example ---------------------------------------------------

def test_rules_play_example():
    game = start(dealer=0)  # seat 1 is the pone and leads
    assert game.play.turn == 1
    assert points(game.lay(card("6H")).scores) == [] and game.play.count == 6
    assert points(game.lay(card("9S")).scores) == [(0, 2, ["fifteen"])] and game.play.count == 15
    assert points(game.lay(card("9D")).scores) == [(1, 2, ["pair"])] and game.play.count == 24
    assert points(game.lay(card("7C")).scores) == [(0, 2, ["thirty-one"])]
    # the count resets and the player who did not lay the 7 leads
    assert game.play.count == 0 and game.play.pile == []
    assert game.play.turn == 1
    assert game.scores == [4, 2]


# --- whose turn, the count and refusals ------------------------------------------

def test_turns_alternate_and_the_count_runs():
    game = start(dealer=1)
    assert game.play.turn == 0
    run(game, "KH")
    assert game.play.turn == 1 and game.play.count == 10
    run(game, "AS")
    assert game.play.turn == 0 and game.play.count == 11


def test_over_thirty_one_is_refused_with_the_count_and_nothing_changes():
    game = start()
    run(game, "KH QS 5D")
    before = state.encode(game)
    with pytest.raises(OverThirtyOne) as err:
        game.lay(card("9S"))
    assert str(err.value) == "9S makes the count 34; the limit is 31"
    assert state.encode(game) == before and len(game.journal) == 4


def test_go_is_refused_while_any_card_fits():
    game = start()
    run(game, "KH 5S 6D")  # 21: even a ten-card fits
    before = state.encode(game)
    with pytest.raises(IllegalAction, match="21"):
        game.go()
    assert state.encode(game) == before
    run(game, "AS")  # 22: a ten-card no longer fits
    run(game, "go")  # seat 1 cannot; seat 0 plays on
    assert game.play.turn == 0 and game.play.passed == 2


def test_one_for_the_go_and_the_next_series():
    game = start(dealer=0)
    scores = run(game, "KH QS 5D go 4C")  # 29, then seat 0 said go: seat 1 plays on
    assert scores == []
    assert game.play.turn == 1 and game.play.count == 29
    scores = run(game, "go")
    assert points(scores) == [(1, 1, ["go"])]
    assert game.play.count == 0 and game.play.turn == 0  # the other player leads


def test_thirty_one_scores_two_and_never_the_go_as_well():
    game = start(dealer=0)
    scores = run(game, "KH QS 5D go 6C")
    assert points(scores) == [(1, 2, ["thirty-one"])]
    assert game.play.count == 0 and game.play.turn == 0
    assert game.scores == [0, 2]


def test_both_say_go_after_the_other_cannot():
    game = start(dealer=0)
    assert points(run(game, "KH QS 9D")) == []  # 29
    assert points(run(game, "go")) == []        # seat 0 cannot, seat 1 may go on
    assert points(run(game, "go")) == [(1, 1, ["go"])]


def test_the_last_card_scores_one_and_the_play_ends():
    game = start(dealer=0)
    scores = run(game, "AH 2S 3D 4C 5H 6S 7D 2H")
    assert game.phase == SHOW and game.play.over
    assert points(scores)[-1] == (0, 1, ["last card"])


def test_the_last_card_making_thirty_one_scores_two_only():
    game = start(dealer=0)
    assert points(run(game, "KH QS 5H 6H")) == [(0, 2, ["thirty-one"])]
    assert game.play.turn == 1
    scores = run(game, "KS QD 5D 6D")
    assert points(scores) == [(0, 2, ["thirty-one"])]
    assert game.phase == SHOW and game.scores == [4, 0]


def test_refused_actions_in_the_play_change_nothing():
    game = start()
    run(game, "5H")
    before = state.encode(game)
    for bad in (lambda: game.lay(card("5H")),      # already laid
                lambda: game.lay(card("2C")),      # the starter
                lambda: game.go(),                 # 5: anything fits
                lambda: game.turn_starter(card("3S")),
                lambda: game.count_show([0, 4, 8, 12])):
        with pytest.raises(IllegalAction):
            bad()
        assert state.encode(game) == before


def test_no_lay_before_the_starter():
    game = Game()
    with pytest.raises(WrongPhase):
        game.lay(card("5H"))


# --- three and four players ------------------------------------------------------

def test_three_players_play_clockwise_from_the_dealers_left():
    game = start(players=3, dealer=2)
    assert game.play.turn == 0
    run(game, "KH QS 5D")
    assert game.play.turn == 0 and game.play.count == 25
    run(game, "go AS")          # seat 0 goes, seat 1 lays (26)
    assert game.play.turn == 2
    scores = run(game, "go go")  # seat 2 then seat 1: seat 1 laid last
    assert points(scores) == [(1, 1, ["go"])]
    assert game.play.turn == 2  # the seat after the last to lay leads


def test_four_players_partners_share_points():
    game = start(players=4, dealer=3, starter="JC")
    assert game.scores == [0, 2]  # his heels: the dealer (seat 3) is side 1
    scores = run(game, "5H KH 5S 5D AS go go go")
    assert points(scores) == [(1, 2, ["fifteen"]), (1, 2, ["pair"])]
    assert game.play.turn == 0
    assert points(run(game, "go")) == [(0, 1, ["go"])]
    assert game.play.turn == 1
    assert game.scores == [1, 6]


def test_a_seat_out_of_cards_is_skipped():
    play = Play(3, 0, 1)
    play.lay(card("KH"))
    play.lay(card("QH"))
    scores = play.lay(card("AH"))  # everybody is out: one for last
    assert scores == [(2, 1, ["last card"])]
    assert play.over and play.turn == NOBODY


def test_play_on_alone_then_the_last_card():
    play = Play(2, 1, 3)
    play.lay(card("KH"))   # seat 1
    play.lay(card("KS"))   # seat 0: a pair
    play.lay(card("5H"))   # seat 1: 25
    play.lay(card("3S"))   # seat 0: 28
    assert play.turn == 1
    assert play.go() == []  # seat 1 holds a 9
    assert play.turn == 0
    assert play.lay(card("2S")) == [(0, 1, ["go"])]  # 30, and seat 0 is out of cards
    assert play.turn == 1 and play.count == 0
    assert play.lay(card("9D")) == [(1, 1, ["last card"])]
    assert play.over


# --- a reference play loop, written from the rules, against the engine ---------------

def reference_play(hands, leader, choose):
    """Points per seat from the play of `hands` (lists of cards) from `leader`."""
    seats = len(hands)
    hands = [list(h) for h in hands]
    score = [0] * seats
    count, pile, gone, last, turn = 0, [], set(), None, leader

    def next_leader():
        for step in range(1, seats + 1):
            seat = (last + step) % seats
            if hands[seat]:
                return seat
        return None

    while any(hands):
        fits = [c for c in hands[turn] if count + value_of(c) <= 31]
        if fits and turn not in gone:
            c = choose(turn, fits)
            hands[turn].remove(c)
            pile.append(c)
            count += value_of(c)
            last = turn
            score[turn] += naive.peg_score([(rank_of(x), suit_of(x)) for x in pile])
            if count == 31:
                count, pile, gone = 0, [], set()
                turn = next_leader()
                continue
        else:
            gone.add(turn)
        nxt = None
        for step in range(1, seats + 1):
            seat = (turn + step) % seats
            if hands[seat] and seat not in gone:
                nxt = seat
                break
        if nxt is None:
            score[last] += 1  # for the go, or for the last card
            count, pile, gone = 0, [], set()
            nxt = next_leader()
        turn = nxt
    return score


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_play_matches_a_reference_play(players, dealer, rnd):
    dealer %= players
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [deck[4 * s:4 * s + 4] for s in range(players)]
    starter = deck[-1]
    game = Game(make_config(players=players), dealer=dealer)
    game.turn_starter(starter)
    heels = 2 if rank_of(starter) == 11 else 0
    picks = []

    def choose(seat, fits):
        c = rnd.choice(fits)
        picks.append(c)
        return c

    expected = reference_play(hands, (dealer + 1) % players, choose)
    held = [list(h) for h in hands]
    pos = 0
    while game.phase == PLAY:
        seat = game.play.turn
        fits = [c for c in held[seat] if game.play.count + value_of(c) <= 31]
        if fits:
            c = picks[pos]
            pos += 1
            assert c in fits
            held[seat].remove(c)
            game.lay(c)
        else:
            game.go()
        assert game.play.count <= 31
    assert pos == len(picks) == 4 * players
    sides = 2 if players == 4 else players
    want = [0] * sides
    for seat in range(players):
        want[seat % sides] += expected[seat]
    want[dealer % sides] += heels
    if max(want) < 121:
        assert game.scores == want
    assert [sorted(x) for x in game.play.laid] == [sorted(h) for h in hands]


def test_the_game_says_who_lays_next_and_how_many_cards_are_out():
    game = Game(make_config(players=3), dealer=2)
    assert game.to_play() == NOBODY and game.cards_laid() == 0  # before the starter
    game.turn_starter(card("2C"))
    assert game.to_play() == 0 and game.cards_laid() == 0  # the dealer's left leads
    for laid, (text, after) in enumerate((("KS", 1), ("QS", 2), ("9S", 0)), 1):
        game.lay(card(text))
        assert game.to_play() == after and game.cards_laid() == laid
    game.go()  # at 29 seat 0 says go: 1 plays on
    assert game.to_play() == 1 and game.cards_laid() == 3
    game.advance()  # the play pegged by points from here: the show
    assert game.phase == SHOW and game.to_play() == NOBODY and game.cards_laid() == 3
