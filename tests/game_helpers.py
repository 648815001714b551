"""tests.game_helpers: for the engine's tests of a game (tests/test_engine_*.py): cards as
keyed, a refusal that leaves the game exactly as it was, pegging up to a score, a hand
of sixteen at the show."""

import pytest

from engine import Game, make_config, parse_card
from engine import state
from engine.errors import IllegalAction
from engine_helpers import cards


def cards_as_keyed(text):
    """Cards as keyed on the board: the same card twice is possible."""
    return [parse_card(t) for t in text.split()]


def refused(game, action, kind=IllegalAction):
    """`action` is refused, with the game exactly as it was; the message."""
    before = state.encode(game)
    journal = list(game.journal)
    with pytest.raises(kind) as err:
        action()
    assert state.encode(game) == before
    assert game.journal == journal
    return str(err.value)


def peg_to(game, side, score):
    while game.scores[side] < score:
        game.peg(side, min(29, score - game.scores[side]))


def showing_sixteen(**config):
    game = Game(make_config(**config), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    return game, cards("4C 5D 5H 6S")
