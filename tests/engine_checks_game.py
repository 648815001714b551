"""tests.engine_checks_game: the checks of a whole game, for any Python: the cut, the
deal round the table, claims, the end, undo, saves, matches and variants
(tests/engine_checks.py runs them).
"""

from engine import Game, make_config, parse_card
from engine import state
from engine.errors import BadClaim, GameOver, IllegalAction
from engine.game import CUT, OVER, STARTER
from engine.play import NOBODY
from engine.rules import FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN
from engine.show import score_hand
from engine_helpers import (cards, deal, play_hand, raises, refused_unchanged, shuffled,
                            total_points)


# --- the game ------------------------------------------------------------------------

def check_game_cut_for_deal():
    game = Game(cut=True)
    assert game.phase == CUT
    assert "cut again" in refused_unchanged(game, lambda: game.cut_for_deal(cards("5H 5D")))
    assert game.cut_for_deal(cards("9H AD")).scores == []
    assert game.dealer == 1 and game.phase == STARTER and game.pone == 0
    game = Game()
    game.set_dealer(1)
    assert game.dealer == 1


def check_game_hand_and_rotation():
    game = Game()
    hands, crib, starter = deal(game, 7)
    scores = play_hand(game, hands, crib, starter)
    assert game.dealer == 1 and game.phase == STARTER and game.hand_no == 1
    for side in (0, 1):
        assert game.scores[side] == total_points(scores, side)
    want = (score_hand(hands[1], starter) + score_hand(hands[0], starter)
            + score_hand(crib, starter, True))
    show = 0
    for s in scores:
        if s.reasons[0] in ("hand", "crib"):
            show += s.points
    assert show == want


def check_game_show_order():
    game = Game(make_config(players=3), dealer=1)
    assert game.show_order() == [(2, False), (0, False), (1, False), (1, True)]
    game = Game(make_config(players=4), dealer=3)
    assert game.show_order() == [(0, False), (1, False), (2, False), (3, False), (3, True)]
    game = Game(make_config(variant=SHOTGUN), dealer=0)
    assert game.show_order() == [(1, False), (0, False)]


def check_game_heels_can_win():
    game = Game()
    for _ in range(4):
        game.peg(0, 29)
    game.peg(0, 3)  # 119
    s = game.turn_starter(parse_card("JD")).scores
    assert s[0].reasons == ["his heels"] and game.scores[0] == 121
    assert game.over and game.winner == 0
    raises(GameOver, lambda: game.lay(parse_card("5H")))


def check_game_claims():
    game = Game(make_config(muggins=True))
    game.turn_starter(parse_card("KC"))
    game.advance()
    hand = cards("4C 5D 5H 6S")
    assert refused_unchanged(game, lambda: game.count_show(hand, 18), BadClaim) == \
        "18 is too high: the hand makes 16"
    assert "impossible" in refused_unchanged(game, lambda: game.count_show(hand, 19), BadClaim)
    counted = game.count_show(hand, 12, True)
    assert game.scores == [4, 12]
    assert counted.scores[1].reasons == ["muggins"]
    game = Game()
    game.turn_starter(parse_card("KC"))
    game.advance()
    game.count_show(hand, 12)
    assert game.scores == [0, 16]


def check_game_over_mid_show():
    game = Game()
    for _ in range(4):
        game.peg(1, 29)  # the pone: 116
    game.turn_starter(parse_card("KC"))
    game.advance()
    counted = game.count_show(cards("4C 5D 5H 6S"))
    assert counted.scores[0].points == 16 and game.scores == [0, 132]
    assert game.over and game.winner == 1 and game.level == 2 and game.tally == [0, 4]
    raises(GameOver, lambda: game.count_show(cards("AH 2H 3H 4H")))
    raises(GameOver, lambda: game.advance())
    raises(GameOver, lambda: game.peg(0, 2))


def check_game_over_mid_play():
    game = Game()
    for _ in range(4):
        game.peg(0, 29)
    game.peg(0, 3)  # the dealer: 119
    game.turn_starter(parse_card("2C"))
    game.lay(parse_card("5H"))
    s = game.lay(parse_card("KH")).scores
    assert s[0].reasons == ["fifteen"] and game.over and game.scores == [121, 0]
    assert game.phase == OVER and game.winner == 0
    refused_unchanged(game, lambda: game.lay(parse_card("3D")), GameOver)
    refused_unchanged(game, game.go, GameOver)


def check_game_ends_in_a_random_hand():
    for seed in range(4):
        game = Game()
        for _ in range(4):
            game.peg(0, 29)
            game.peg(1, 29)
        hands, crib, starter = deal(game, seed)
        play_hand(game, hands, crib, starter)
        assert game.over and game.scores[game.winner] >= 121
        assert game.scores[1 - game.winner] < 121
        assert game.hand_no == 0
        yield


def check_game_atomic():
    # A MemoryError in the middle of a count (the scorer failing) and one while
    # the journal's checkpoint is made: the game and its journal as they were.
    import engine.hand
    game = Game(make_config(muggins=True))
    game.turn_starter(parse_card("KC"))
    game.advance()
    hand = cards("4C 5D 5H 6S")
    before, journal = state.to_bytes(game), list(game.journal)
    real = engine.hand.score_show

    def broken(*args):
        raise MemoryError("no heap")

    engine.hand.score_show = broken
    try:
        raises(MemoryError, lambda: game.count_show(hand, 12, True))
    finally:
        engine.hand.score_show = real
    assert state.to_bytes(game) == before and game.journal == journal
    assert game.count_show(hand, 12, True).scores[1].points == 4
    game = Game()
    for _ in range(15):
        game.peg(0, 1)
    before = state.to_bytes(game)
    encode = state.encode
    state.encode = lambda *a: broken()
    try:
        raises(MemoryError, lambda: game.peg(1, 5))
    finally:
        state.encode = encode
    assert state.to_bytes(game) == before and len(game.journal) == 15
    game.peg(1, 5)
    assert state.encode(state.from_bytes(Game, state.to_bytes(game))) == state.encode(game)


def check_game_asks_before_acting():
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    before = state.to_bytes(game)
    assert game.refusal(game.lay, parse_card("9S")) == "9S makes the count 34; the limit is 31"
    assert game.refusal(game.lay, parse_card("AS")) is None
    assert (game.refusal(game.check_card, parse_card("2C"))
            == "2C is already out this deal (the starter)")
    assert game.preview(game.lay, parse_card("AS")).scores == []
    assert state.to_bytes(game) == before


def check_game_front_and_back_pegs():
    game = Game()
    game.peg(0, 5)
    game.peg(0, 7)
    assert game.scores[0] == 12 and game.backs[0] == 5


def check_game_undo():
    # Whole hands until 40 actions, past two checkpoints, undone one by one.
    game = Game()
    log = [state.encode(game)]
    seed = 11
    while len(game.journal) < 40:
        hands, crib, starter = deal(game, seed)
        seed += 1
        play_hand(game, hands, crib, starter, log)
        yield
    assert len(log) == len(game.journal) + 1
    while game.journal:
        log.pop()
        game.undo()
        assert state.encode(game) == log[-1]
        yield
    raises(IllegalAction, game.undo)


def check_state_bytes():
    game = Game(make_config(players=3, muggins=True), dealer=2)
    hands, crib, starter = deal(game, 5)
    play_hand(game, hands, crib, starter)
    game.turn_starter(shuffled(6)[51])
    yield
    data = state.to_bytes(game)
    again = state.from_bytes(Game, data)
    assert state.encode(again) == state.encode(game)
    assert again.journal == game.journal
    yield
    again.undo()
    game.undo()
    assert state.encode(again) == state.encode(game)
    yield
    for bad in (b"", bytes([state.FORMAT]), data[:-1], data[:-2], data[:5],
                bytes([state.FORMAT + 1]) + data[1:], b"hello world"):
        raises(ValueError, lambda: state.from_bytes(Game, bad))
        yield


def check_game_match():
    game = Game(make_config(match_games=3))
    for _ in range(5):
        game.peg(0, 25)
    assert game.over and game.level == 2 and game.tally == [4, 0]  # double skunk
    assert game.match_winner() == 0
    game.next_game()
    assert game.tally == [0, 0] and game.dealer == 1 and game.scores == [0, 0]
    game.peg(0, 20)
    game.peg(0, 29)
    game.peg(0, 29)
    game.peg(0, 29)  # 107: past the skunk line
    for _ in range(5):
        game.peg(1, 25)  # 125
    assert game.level == 0 and game.tally == [0, 1] and game.match_winner() == NOBODY
    game.next_game()
    assert game.dealer == 0  # the loser deals


def check_game_variants():
    game = Game(make_config(variant=LOWBALL))
    for _ in range(5):
        game.peg(0, 25)
    assert game.winner == 1 and game.loser == 0
    game = Game(make_config(variant=FIVE_CARD))
    assert game.config.target == 61 and game.scores == [0, 3]
    hands, crib, starter = deal(game, 2)
    assert len(hands[0]) == 3
    play_hand(game, hands, crib, starter)
    yield
    game = Game(make_config(variant=SEVEN_CARD))
    hands, crib, starter = deal(game, 2)
    assert len(hands[0]) == 5
    play_hand(game, hands, crib, starter)
    assert game.hand_no == 1
    yield
    game = Game(make_config(variant=SHOTGUN))
    hands, crib, starter = deal(game, 2)
    assert len(hands[0]) == 6 and crib is None
    play_hand(game, hands, crib, starter)
    assert game.hand_no == 1


# In the order they run.
CHECKS = [
    check_game_cut_for_deal, check_game_hand_and_rotation, check_game_show_order,
    check_game_heels_can_win, check_game_claims, check_game_over_mid_show,
    check_game_over_mid_play, check_game_ends_in_a_random_hand, check_game_atomic,
    check_game_asks_before_acting, check_game_front_and_back_pegs, check_game_undo,
    check_state_bytes, check_game_match, check_game_variants,
]
