"""Saved games: bytes out and back, and anything else refused with ValueError."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, make_config, parse_card
from engine import state
from engine.errors import BadSave, IllegalAction
from engine.rules import FIVE_CARD, SHOTGUN

from engine_helpers import deal, play_hand


def saved_games():
    """Games at different points, each with its journal."""
    out = [Game(), Game(cut=True), Game(make_config(players=4, muggins=True), dealer=3)]
    game = Game(make_config(players=3), dealer=2)
    hands, crib, starter = deal(game, 1)
    play_hand(game, hands, crib, starter)
    out.append(game)
    game = Game()
    game.turn_starter(parse_card("2C"))
    for t in ("5H", "KS", "5D"):
        game.lay(parse_card(t))
    out.append(game)  # mid-play
    game = Game(make_config(variant=SHOTGUN))
    game.turn_starter(parse_card("2C"))
    game.advance()
    out.append(game)  # mid-show
    game = Game(make_config(variant=FIVE_CARD))
    for _ in range(3):
        game.peg(0, 29)
    out.append(game)  # over
    return out


@pytest.mark.parametrize("index", range(7))
def test_round_trip(index):
    game = saved_games()[index]
    data = state.to_bytes(game)
    assert isinstance(data, bytes)
    again = state.from_bytes(Game, data)
    assert state.encode(again) == state.encode(game)
    assert again.journal == game.journal
    assert state.to_bytes(again) == data
    # the undo history came along
    while game.journal:
        game.undo()
        again.undo()
        assert state.encode(again) == state.encode(game)


def test_round_trip_after_next_game():
    game = Game(make_config(match_games=3))
    for _ in range(4):
        game.peg(0, 25)  # 100: no skunk
    for _ in range(5):
        game.peg(1, 25)
    game.next_game()
    game.peg(0, 3)
    again = state.from_bytes(Game, state.to_bytes(game))
    assert state.encode(again) == state.encode(game)
    assert again.tally == [0, 1] and again.games_played == 1 and again.dealer == 0


def test_encode_is_stable():
    assert state.encode(Game()) == state.encode(Game())
    assert state.encode(Game()) != state.encode(Game(dealer=1))


@pytest.mark.parametrize("data", [
    b"", b"\x01", b"\x00\x00", b"\x02\x1c", b"hello, world", bytes(40), bytes([255] * 40),
])
def test_garbage_is_refused(data):
    with pytest.raises(ValueError):
        state.from_bytes(Game, data)


def test_truncated_saves_are_refused():
    data = state.to_bytes(saved_games()[3])
    for n in range(len(data)):
        with pytest.raises(ValueError):
            state.from_bytes(Game, data[:n])


def test_another_format_is_refused():
    data = bytearray(state.to_bytes(Game()))
    data[0] = state.FORMAT + 1
    with pytest.raises(ValueError, match="format"):
        state.from_bytes(Game, bytes(data))
    data = bytearray(state.to_bytes(Game()))
    data[2] = state.FORMAT + 1  # the snapshot's own format byte
    with pytest.raises(ValueError, match="format"):
        state.from_bytes(Game, bytes(data))


def test_a_journal_that_does_not_replay_is_refused():
    game = Game()
    game.turn_starter(parse_card("5H"))
    data = bytearray(state.to_bytes(game))
    data[-1] = parse_card("5C")  # the starter again: a lay before it
    data[-2] = state.LAY
    with pytest.raises(ValueError, match="replay"):
        state.from_bytes(Game, bytes(data))


def test_extra_bytes_after_the_journal_are_refused():
    data = state.to_bytes(saved_games()[4])
    with pytest.raises(ValueError):
        state.from_bytes(Game, data + bytes([1, state.GO]))


def test_load_leaves_the_game_alone_when_refused():
    game = Game()
    before = state.encode(game)
    with pytest.raises(ValueError):
        game.load(b"\x01\x02")
    assert state.encode(game) == before


def test_check_event():
    state.check_event(bytes([state.LAY, 51]))
    for bad in (b"", bytes([state.LAY, 52]), bytes([state.GO, 1]), bytes([99]),
                bytes([state.SHOW, 255, 0, 4, 1, 2]), bytes([state.CUT, 3, 1])):
        with pytest.raises(ValueError):
            state.check_event(bad)


def _use(game):
    """Everything a board might do next with a loaded game."""
    for action in (lambda: game.lay(5), game.go, game.advance, lambda: game.peg(0, 2),
                   lambda: game.count_show([1, 2, 3, 4]), lambda: game.turn_starter(9),
                   game.showing, game.known_cards, game.match_winner, game.undo,
                   lambda: state.encode(game), lambda: state.to_bytes(game)):
        try:
            action()
        except IllegalAction:
            pass


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=80))
def test_random_bytes_raise_nothing_but_value_error(data):
    try:
        game = state.from_bytes(Game, data)
    except ValueError:
        return
    _use(game)


def _valid_saves():
    return [state.to_bytes(g) for g in saved_games()]


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 6), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)),
                                    min_size=1, max_size=3))
def test_corrupted_saves_load_as_a_usable_game_or_raise_value_error(which, changes):
    data = bytearray(_valid_saves()[which])
    for pos, value in changes:
        data[pos % len(data)] = value
    try:
        game = state.from_bytes(Game, bytes(data))
    except ValueError:
        return
    _use(game)


def test_the_codec_uses_only_the_games_public_methods_and_the_one_set_of_phases():
    import os
    import re
    from engine import hand
    source = open(os.path.join(os.path.dirname(state.__file__), "state.py")).read()
    assert not re.search(r"\bgame\._", source)           # no private parts of a Game
    # (its STARTER, SHOW and CUT are event codes; the phases are engine.hand's)
    assert not re.search(r"^(PLAY|OVER|PHASE_NAMES|_PHASES|_PLAY_PHASE)\s*=", source, re.M)
    assert state.PHASE_NAMES is hand.PHASE_NAMES and state.PLAY == hand.PLAY


def test_load_starts_over_from_a_state_and_refuses_anything_else():
    game = saved_games()[3]
    fresh = Game()
    fresh.load(state.encode(game))
    assert state.encode(fresh) == state.encode(game) and fresh.journal == []
    assert fresh.config == game.config and fresh.start() == state.encode(game)
    before = state.encode(fresh)
    saved = state.encode(game)
    for bad in (b"", b"\x02", saved[:-1], bytes([state.FORMAT + 1]) + saved[1:]):
        with pytest.raises(BadSave):
            fresh.load(bad)
        assert state.encode(fresh) == before


def test_bad_saves_raise_bad_save():
    for data in (b"", b"\x01", bytes(40), b"hello, world"):
        with pytest.raises(BadSave):
            state.from_bytes(Game, data)
    with pytest.raises(BadSave):
        state.check_event(bytes([99]))


def test_a_score_at_the_target_in_a_game_not_over_is_refused():
    game = Game()
    for _ in range(5):
        game.peg(0, 24)                   # 120, one short: the game goes on
    saved = bytearray(state.encode(game))[:-1]  # its check made again below
    sides = 2
    at = 10 + sides + 10                  # config, tally, fields, then the scores
    assert saved[at] == 120
    saved[at] = 121
    fresh = Game()
    with pytest.raises(BadSave) as err:
        fresh.load(state.sealed(saved))
    assert "past the target" in str(err.value) and fresh.scores == [0, 0]
    game.peg(0, 1)                        # over: the same score loads
    fresh.load(state.encode(game))
    assert fresh.scores == [121, 0] and fresh.over


def test_each_action_journalled_reads_back_as_a_named_record():
    game = Game(make_config(muggins=True), cut=True)  # A deals first, after the cut
    game.cut_for_deal([parse_card("3C"), parse_card("9D")])
    assert state.action(game.journal[-1]) == state.Action(
        "cut", None, None, None, None, None, None, (parse_card("3C"), parse_card("9D")))
    game.set_dealer(1)
    assert state.action(game.journal[-1]).kind == "dealer"
    assert state.action(game.journal[-1]).seat == 1
    game.misdeal()
    assert state.action(game.journal[-1]).kind == "misdeal"
    game.peg(1, 12)
    done = state.action(game.journal[-1])
    assert (done.kind, done.side, done.points, done.card) == ("peg", 1, 12, None)
    game.turn_starter(parse_card("JH"))  # his heels
    assert state.action(game.journal[-1])[:4] == ("starter", None, None, parse_card("JH"))
    game.lay(parse_card("5S"))
    assert state.action(game.journal[-1])[:4] == ("lay", None, None, parse_card("5S"))
    game.advance()
    assert state.action(game.journal[-1]).kind == "next"
    hand = [parse_card(c) for c in ("5S", "5D", "5C", "JS")]
    game.count_show(hand, 20, True)
    done = state.action(game.journal[-1])
    assert (done.kind, done.claim, done.muggins, done.cards) == ("show", 20, True, tuple(hand))
    game.count_show([parse_card(c) for c in ("2S", "4D", "6C", "8S")])
    done = state.action(game.journal[-1])
    assert (done.kind, done.claim, done.muggins) == ("show", None, False)
    game.erase_stats()
    assert state.action(game.journal[-1]).kind == "erase"
    kinds = {state.action(event).kind for event in game.journal}
    assert kinds == {"cut", "dealer", "misdeal", "peg", "starter", "lay", "next", "show",
                     "erase"}
    assert state.action(bytes([state.GO])).kind == "go"
    assert set(state.KIND_NAMES[1:]) == kinds | {"go"}
