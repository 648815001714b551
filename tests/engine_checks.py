"""tests.engine_checks: the engine's checks as plain functions, for any Python.

The same checks run under CPython (each one a pytest case, in
test_engine_micropython.py) and under a real MicroPython interpreter with a
Pico-sized heap: nothing here needs pytest, hypothesis or the standard library
beyond `sys`. `run_all()` prints `ok NAME` or `FAIL NAME` per check and a
summary line.

A long check is a generator: each `yield` is a pause where the runner may
collect garbage (the MicroPython run collects only there, never inside a step,
and so measures the heap each step needs).
"""

import sys

from engine import Game, is_impossible, make_config, parse_card, parse_cards, peg_points
from engine import state
from engine.cards import card_name, rank_of, suit_of, value_of
from engine.errors import BadClaim, GameOver, IllegalAction, OverThirtyOne
from engine.game import CUT, OVER, PLAY, SHOW, STARTER
from engine.match import games_to_win, game_value, skunk_level, skunk_line, skunk_lines
from engine.pegging import peg_reasons
from engine.play import NOBODY, Play
from engine.rules import (FIVE_CARD, LOWBALL, SEVEN_CARD, SHOTGUN, has_crib, hand_size,
                          limits, sides_of)
from engine.show import score_hand, score_ranks, score_show

try:
    from tools import naive
except ImportError:  # run without tools/ beside engine/
    naive = None


# --- helpers ---------------------------------------------------------------

def cards(text):
    return parse_cards(text.split())


def shuffled(seed):
    """A deck in a repeatable order (a small LCG: no `random` needed)."""
    deck = list(range(52))
    x = seed
    for i in range(51, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(game, seed):
    """(hands by seat, crib, starter) for the game's variant from a seeded deck."""
    deck = shuffled(seed)
    size = hand_size(game.config)
    hands = []
    for seat in range(game.players):
        hands.append(deck[seat * size:(seat + 1) * size])
    used = game.players * size
    crib = deck[used:used + 4] if has_crib(game.config) else None
    return hands, crib, deck[51]


def raises(kind, action):
    """Run `action`; it must raise `kind`. Returns the message."""
    try:
        action()
    except kind as err:
        return str(err)
    raise AssertionError("no %s raised" % kind.__name__)


def refused_unchanged(game, action, kind=IllegalAction):
    """`action` is refused and the game is exactly as it was."""
    before = state.encode(game)
    journal = len(game.journal)
    message = raises(kind, action)
    assert state.encode(game) == before
    assert len(game.journal) == journal
    return message


def play_hand(game, hands, crib, starter, log=None):
    """Turn the starter, play out `hands` (first card that fits), count every
    show; stops when the game ends. `log` gets encode() after each action."""
    scores = []

    def note(result):
        if log is not None:
            log.append(state.encode(game))
        return result

    scores.extend(note(game.turn_starter(starter)).scores)
    held = [list(h) for h in hands]
    while game.phase == PLAY:
        seat = game.play.turn
        fits = [c for c in held[seat] if game.play.count + value_of(c) <= 31]
        if fits:
            held[seat].remove(fits[0])
            scores.extend(note(game.lay(fits[0])).scores)
        else:
            scores.extend(note(game.go()).scores)
    while game.phase == SHOW:
        seat, is_crib = game.showing()
        counted = note(game.count_show(crib if is_crib else hands[seat]))
        scores.extend(counted.scores)
    return scores


def total_points(scores, side):
    total = 0
    for s in scores:
        if s.side == side:
            total += s.points
    return total


# --- cards -------------------------------------------------------------------

def check_cards_parse():
    assert card_name(parse_card("5h")) == "5H"
    assert card_name(parse_card("10D")) == "10D"
    assert parse_card("TD") == parse_card("10d")
    assert parse_card("Q\u2660") == parse_card("qs")
    assert parse_card("a\u2663") == parse_card("AC")
    for c in range(52):
        assert parse_card(card_name(c)) == c
        assert parse_card(card_name(c, True)) == c
    assert rank_of(parse_card("KC")) == 13 and suit_of(parse_card("KC")) == 3
    assert value_of(parse_card("QH")) == 10 and value_of(parse_card("AH")) == 1


def check_cards_bad_text():
    for bad in ("5X", "1H", "11S", "", "Z", "10"):
        message = raises(ValueError, lambda: parse_card(bad))
        assert repr(bad) in message
    assert "duplicate" in raises(ValueError, lambda: parse_cards(["5H", "5h"]))


# --- the show ----------------------------------------------------------------

def check_show_reference_hands():
    assert score_hand(cards("4C 5D 5H 6S"), parse_card("KC")) == 16
    assert score_hand(cards("5H 5D 5S JC"), parse_card("5C")) == 29
    assert score_hand(cards("5H 6D 7S 9C"), parse_card("KH")) == 7
    assert score_hand(["4c", "5d", "5h", "6s"], "kc") == 16


def check_show_double_runs():
    assert score_ranks([4, 5, 5, 6]) == 8 + 4  # two runs, a pair, two fifteens
    show = score_show(cards("5C 6D 6H 7S"), parse_card("7C"))
    assert show.total == 16
    runs = [i for i in show.items if i.kind == "run"]
    assert len(runs) == 4


def check_show_flush_and_nobs():
    hand = cards("2H 4H 6H 8H")
    assert score_hand(hand, parse_card("QH")) - score_hand(hand, parse_card("QS")) == 1
    assert score_hand(hand, parse_card("QS"), True) == score_hand(hand, parse_card("QS")) - 4
    assert score_hand(cards("2H 4H 6H 8S"), parse_card("QH")) == 0  # 3 + starter: no flush
    assert score_hand(cards("JH 2S 4D 9C"), parse_card("6H")) == 5  # 2+4+9, 6+9, nobs
    assert score_hand(cards("JS 2S 4D 9C"), parse_card("6H")) == 4


def check_show_items_and_spoken():
    show = score_show(cards("9S 10S 6C JS"), parse_card("6S"))
    assert show.total == 10
    assert [i.kind for i in show.items] == ["fifteen", "fifteen", "pair", "run", "nobs"]
    assert show.spoken == ("fifteen two, fifteen four, a pair is six, "
                           "a run of three is nine, one for his nobs is ten")
    total = 0
    for item in show.items:
        total += item.points
    assert total == show.total
    assert score_show(cards("AH 3S 7D 9C"), parse_card("QH")).spoken == "nineteen: no score"


def check_show_bigger_hands():
    assert score_hand(cards("5S 5H 5D 5C JS"), parse_card("KS")) == 37
    assert score_hand(cards("2H 3H 4H 5H 6H 7H"), parse_card("8H")) == 28


def check_show_impossible():
    for total in (19, 25, 26, 27, 30, 100):
        assert is_impossible(total)
    for total in (0, 1, 18, 20, 24, 28, 29):
        assert not is_impossible(total)


def check_show_against_naive():
    if naive is None:
        return
    for seed in range(40):
        deck = shuffled(seed + 1000)
        hand, starter = deck[:4], deck[4]
        pairs = [(rank_of(c), suit_of(c)) for c in hand]
        for crib in (False, True):
            want = naive.score(pairs, (rank_of(starter), suit_of(starter)), crib)
            assert score_hand(hand, starter, crib) == want
            assert score_show(hand, starter, crib).total == want
            yield


# --- pegging -------------------------------------------------------------------

def check_pegging_points():
    assert peg_points(cards("5H KS")) == 2
    assert peg_points(cards("KH QS JD AC")) == 2
    assert peg_points(cards("4H 4S")) == 2
    assert peg_points(cards("4H 4S 4D")) == 6
    assert peg_points(cards("4H 4S 4D 4C")) == 12
    assert peg_points(cards("2H 8S 6D 7C 5S")) == 4
    assert peg_points(cards("2H 5C 7C 7D 6S")) == 0
    assert peg_points(cards("AH 7S 7D")) == 4
    assert [r for r, _ in peg_reasons(cards("AH 7S 7D"))] == ["fifteen", "pair"]
    assert "32" in raises(ValueError, lambda: peg_points(cards("KH QS JD 2C")))


# --- the play --------------------------------------------------------------------

def check_play_rules_example():
    game = Game()
    game.turn_starter(parse_card("KC"))
    assert game.play.turn == 1
    assert game.lay(parse_card("6H")).scores == []
    assert game.lay(parse_card("9S")).scores[0].points == 2
    assert game.lay(parse_card("9D")).scores[0].reasons == ["pair"]
    s = game.lay(parse_card("7C")).scores
    assert s[0].side == 0 and s[0].points == 2 and s[0].reasons == ["thirty-one"]
    assert game.play.count == 0 and game.play.turn == 1


def check_play_go_and_refusals():
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    message = refused_unchanged(game, lambda: game.lay(parse_card("9S")), OverThirtyOne)
    assert message == "9S makes the count 34; the limit is 31"
    game.go()
    assert game.play.turn == 1
    game.lay(parse_card("4C"))
    s = game.go().scores
    assert s[0].side == 1 and s[0].points == 1 and s[0].reasons == ["go"]
    assert game.play.turn == 0
    game.lay(parse_card("5H"))
    assert "5" in refused_unchanged(game, game.go)


def check_play_three_and_four_players():
    game = Game(make_config(players=3), dealer=2)
    game.turn_starter(parse_card("2C"))
    for t in ("KH", "QS", "5D"):
        game.lay(parse_card(t))
    game.go()
    game.lay(parse_card("AS"))
    game.go()
    s = game.go().scores
    assert s[0].side == 1 and s[0].points == 1
    assert game.play.turn == 2
    game = Game(make_config(players=4), dealer=3)
    game.turn_starter(parse_card("JC"))
    assert game.scores == [0, 2]
    for t in ("5H", "KH", "5S", "5D"):
        game.lay(parse_card(t))
    assert game.scores == [0, 6]


def check_play_class_last_card():
    play = Play(2, 1, 3)
    for t in ("KH", "KS", "5H", "3S"):
        play.lay(parse_card(t))
    assert play.go() == []
    assert play.lay(parse_card("2S")) == [(0, 1, ["go"])]
    assert play.lay(parse_card("9D")) == [(1, 1, ["last card"])]
    assert play.over and play.turn == NOBODY
    again, _ = Play.from_list(play.to_list())
    assert again.to_list() == play.to_list()


# --- rules and match ---------------------------------------------------------------

def check_rules_config():
    assert make_config().target == 121 and make_config(target=61).target == 61
    assert make_config(variant=FIVE_CARD).target == 61
    assert hand_size(make_config(variant=SEVEN_CARD)) == 5
    assert hand_size(make_config(variant=SHOTGUN)) == 6
    assert not has_crib(make_config(variant=SHOTGUN))
    assert sides_of(2) == 2 and sides_of(3) == 3 and sides_of(4) == 2
    for bad in ({"players": 5}, {"target": 100}, {"match_games": 2}, {"variant": 9},
                {"values": (2, 1, 4, 0)}, {"players": 3, "variant": FIVE_CARD}):
        raises(IllegalAction, lambda: make_config(**bad))


def check_match_skunks():
    assert skunk_level(91, 121) == 0 and skunk_level(90, 121) == 1
    assert skunk_level(61, 121) == 1 and skunk_level(60, 121) == 2
    assert skunk_level(30, 121) == 2 and skunk_level(30, 121, (1, 2, 4, 5)) == 3
    assert skunk_level(31, 121, (1, 2, 4, 5)) == 2
    assert skunk_level(30, 61) == 1 and skunk_level(31, 61) == 0
    assert game_value(0) == 1 and game_value(1) == 2 and game_value(2) == 4
    assert games_to_win(1) == 1 and games_to_win(3) == 2 and games_to_win(5) == 3


def check_match_skunk_lines():
    assert skunk_lines(121) == (91, 61) and skunk_lines(61) == (31,)
    assert skunk_lines(121, (1, 2, 4, 5)) == (91, 61, 31)
    assert [skunk_line(level, 121) for level in range(4)] == [0, 91, 61, 31]
    assert skunk_line(1, 61) == 31 and skunk_line(0, 61) == 0


def check_rules_caps():
    caps = [limits(make_config(variant=v)) for v in (0, FIVE_CARD, SEVEN_CARD, SHOTGUN, LOWBALL)]
    assert [c.max_hand for c in caps] == [29, 20, 46, 72, 29]
    assert [c.max_peg for c in caps] == [29, 29, 46, 72, 29]
    assert caps[0].impossible_hand == (19, 25, 26, 27) == caps[1].impossible_crib
    assert caps[3].max_crib == 0 and caps[3].impossible_crib == ()
    assert is_impossible(16, 3) and not is_impossible(16, 3, True) and is_impossible(47, 5)


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
    state.encode = lambda g: broken()
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


CHECKS = [
    check_cards_parse, check_cards_bad_text,
    check_show_reference_hands, check_show_double_runs, check_show_flush_and_nobs,
    check_show_items_and_spoken, check_show_bigger_hands, check_show_impossible,
    check_show_against_naive,
    check_pegging_points,
    check_play_rules_example, check_play_go_and_refusals, check_play_three_and_four_players,
    check_play_class_last_card,
    check_rules_config, check_match_skunks, check_match_skunk_lines, check_rules_caps,
    check_game_cut_for_deal, check_game_hand_and_rotation, check_game_show_order,
    check_game_heels_can_win, check_game_claims, check_game_over_mid_show,
    check_game_over_mid_play, check_game_ends_in_a_random_hand,
    check_game_atomic, check_game_asks_before_acting,
    check_game_front_and_back_pegs, check_game_undo, check_state_bytes, check_game_match,
    check_game_variants,
]


def _print_exception(err):
    if hasattr(sys, "print_exception"):
        sys.print_exception(err)
    else:
        import traceback
        traceback.print_exception(type(err), err, err.__traceback__)


RESULTS = [0, 0]  # checks passed, failed


def _passed(check):
    RESULTS[0] += 1
    print("ok " + check.__name__)


def _failed(check, err):
    RESULTS[1] += 1
    print("FAIL " + check.__name__)
    _print_exception(err)


def begin(check):
    """Run `check` (or its first step): its generator if it has more steps
    to resume(), else None once `ok`/`FAIL` is printed."""
    try:
        steps = check()
    except Exception as err:
        _failed(check, err)
        return None
    if steps is None:
        _passed(check)
    return steps


def resume(check, steps):
    """Run the next step of a long check: the generator again, or None when done."""
    try:
        next(steps)
    except StopIteration:
        _passed(check)
        return None
    except Exception as err:
        _failed(check, err)
        return None
    return steps


def run_one(check):
    """Run one check to its end; True if it passed."""
    failed = RESULTS[1]
    steps = begin(check)
    while steps is not None:
        steps = resume(check, steps)
    return RESULTS[1] == failed


def summary():
    print("engine checks: %d ok, %d failed" % (RESULTS[0], RESULTS[1]))


def run_all(checks=None):
    """Run every check, then a summary line; return the number that failed."""
    RESULTS[0] = RESULTS[1] = 0
    for check in CHECKS if checks is None else checks:
        run_one(check)
    summary()
    return RESULTS[1]
