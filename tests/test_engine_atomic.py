"""Every action applies wholly or not at all: a MemoryError (or anything else)
raised at any call inside it leaves the game, its journal and its checkpoints
exactly as they were, and the same action then works."""

import os
import sys

import pytest

from engine import Game, make_config, parse_card, parse_cards
from engine import state
from engine.rules import FIVE_CARD

from engine_helpers import deal, play_hand

ENGINE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine")


def cards(text):
    return parse_cards(text.split())


def everything(game):
    """All a game is: the save (start and journal), the state and the checkpoints."""
    return (state.to_bytes(game), state.encode(game), list(game.journal),
            dict(game._checkpoints))


class Inject:
    """A trace that raises MemoryError at the n-th call of an engine function
    (namedtuples' __new__ included: every Score and Outcome made), once."""

    def __init__(self, n):
        self.n = n
        self.calls = 0
        self.raised = False

    def __call__(self, frame, event, arg):
        if event == "call" and not self.raised:
            code = frame.f_code.co_filename
            if code.startswith(ENGINE) or code.startswith("<string>"):
                self.calls += 1
                if self.calls == self.n:
                    self.raised = True
                    raise MemoryError("injected at call %d" % self.n)
        return None


def calls_made(make, action):
    """How many engine calls `action` makes on a fresh game from `make`."""
    game = make()
    counter = Inject(0)
    sys.settrace(counter)
    try:
        action(game)
    finally:
        sys.settrace(None)
    return counter.calls


def fifteen_pegs():
    game = Game()
    for _ in range(15):
        game.peg(0, 1)
    return game  # the next action makes checkpoint 16


def at_the_show(muggins=True):
    game = Game(make_config(muggins=muggins), dealer=0)
    game.turn_starter(parse_card("KC"))
    game.advance()
    return game


def mid_play():
    game = Game()
    game.turn_starter(parse_card("2C"))
    game.lay(parse_card("5H"))
    return game


def near_the_end():
    game = Game(make_config(match_games=3))
    for _ in range(4):
        game.peg(0, 29)
    game.peg(0, 3)  # the dealer: 119
    game.turn_starter(parse_card("2C"))
    game.lay(parse_card("10H"))  # the pone
    return game  # the dealer's 5 makes 15, and the game


def over():
    game = Game(make_config(match_games=3))
    for _ in range(5):
        game.peg(0, 25)
    return game


def long_game():
    game = Game(make_config(players=3, muggins=True), dealer=1)
    seed = 3
    while len(game.journal) < 40:
        hands, crib, starter = deal(game, seed)
        seed += 1
        play_hand(game, hands, crib, starter)
    return game


CASES = [
    ("peg", Game, lambda g: g.peg(1, 12)),
    ("peg making a checkpoint", fifteen_pegs, lambda g: g.peg(1, 5)),
    ("heels", Game, lambda g: g.turn_starter(parse_card("JH"))),
    ("a lay that scores", mid_play, lambda g: g.lay(parse_card("KS"))),
    ("a lay that wins", near_the_end, lambda g: g.lay(parse_card("5S"))),
    ("go", lambda: (lambda g: [g.lay(parse_card(t)) for t in ("KH", "QS", "5D")] and g)(mid_play()),
     lambda g: g.go()),
    ("a show with muggins", at_the_show, lambda g: g.count_show(cards("4C 5D 5H 6S"), 12, True)),
    ("a show corrected", lambda: at_the_show(False),
     lambda g: g.count_show(cards("4C 5D 5H 6S"), 12)),
    ("advance", at_the_show, lambda g: g.advance()),
    ("five-card's dealer change", lambda: Game(make_config(variant=FIVE_CARD), dealer=0),
     lambda g: g.set_dealer(1)),
    ("cut for deal", lambda: Game(make_config(variant=FIVE_CARD), cut=True),
     lambda g: g.cut_for_deal(cards("5H 2D"))),
    ("misdeal", lambda: (lambda g: g.turn_starter(parse_card("5C")) and g)(Game()),
     lambda g: g.misdeal()),
    ("undo from a checkpoint", long_game, lambda g: g.undo()),
    ("next game", over, lambda g: g.next_game()),
    ("forget history", long_game, lambda g: g.forget_history()),
    ("load", long_game, lambda g: g.load(state.encode(Game(make_config(players=3), dealer=2)))),
    ("replay", Game, lambda g: g.replay(bytes([state.PEG, 0, 7]))),
    ("a proposal changes nothing", mid_play, lambda g: g.propose(g.lay, parse_card("KS"))),
    ("commit a lay that scores", mid_play,
     lambda g: g.commit(g.propose(g.lay, parse_card("KS")))),
    ("commit a peg making a checkpoint", fifteen_pegs, lambda g: g.commit(g.propose(g.peg, 1, 5))),
    ("commit an undo from a checkpoint", long_game, lambda g: g.commit(g.propose_undo())),
    ("commit the next game", over, lambda g: g.commit(g.propose_next())),
]


@pytest.mark.parametrize("name, make, action", CASES, ids=[c[0] for c in CASES])
def test_a_failure_at_any_call_changes_nothing(name, make, action):
    done = make()
    action(done)
    after = everything(done)
    total = calls_made(make, action)
    assert total >= 3  # the action and at least two calls inside it: each one fails in turn
    for n in range(1, total + 1):
        game = make()
        before = everything(game)
        inject = Inject(n)
        sys.settrace(inject)
        try:
            with pytest.raises(MemoryError, match="injected at call %d" % n):
                action(game)
        finally:
            sys.settrace(None)
        assert inject.raised
        assert everything(game) == before, "call %d of %d" % (n, total)
        action(game)  # and the same action then works, exactly as it would have
        assert everything(game) == after


def test_a_failing_scorer_leaves_the_show_as_it_was(monkeypatch):
    # the same, by a function the action calls (as on the board, where the
    # count of a hand is the biggest allocation of an action)
    import engine.hand

    def broken(*args):
        raise MemoryError("no heap for the count")

    game = at_the_show()
    before = everything(game)
    monkeypatch.setattr(engine.hand, "score_show", broken)
    with pytest.raises(MemoryError):
        game.count_show(cards("4C 5D 5H 6S"), 12, True)
    assert everything(game) == before
    monkeypatch.undo()
    assert game.count_show(cards("4C 5D 5H 6S"), 12, True).scores[1].points == 4


def test_a_failing_checkpoint_leaves_the_journal_as_it_was(monkeypatch):
    game = fifteen_pegs()
    before = everything(game)
    real = state.encode

    def full(g, checkpoint=False):
        raise MemoryError("no heap for the checkpoint")

    monkeypatch.setattr(state, "encode", full)
    with pytest.raises(MemoryError):
        game.peg(1, 5)
    monkeypatch.setattr(state, "encode", real)
    assert everything(game) == before and len(game.journal) == 15
    game.peg(1, 5)
    assert sorted(game._checkpoints) == [0, 16]
    again = state.from_bytes(Game, state.to_bytes(game))
    assert state.encode(again) == state.encode(game)


def test_a_preview_keeps_nothing_even_a_checkpoint():
    game = fifteen_pegs()
    before = everything(game)
    assert game.preview(game.peg, 1, 5).scores[0].points == 5
    assert everything(game) == before


def test_refused_actions_change_nothing_whatever_they_are():
    game = at_the_show()
    before = everything(game)
    for action in (lambda: game.lay(parse_card("5H")), game.go,
                   lambda: game.count_show(cards("4C 5D 5H 6S"), 19),
                   lambda: game.count_show(cards("4C 5D 5H 6S"), 18),
                   lambda: game.count_show(cards("4C 5D 5H")), lambda: game.peg(0, 30),
                   lambda: game.peg(5, 3), lambda: game.set_dealer(1), game.misdeal,
                   lambda: game.cut_for_deal(cards("5H 6D")), game.next_game):
        with pytest.raises(ValueError):
            action()
        assert everything(game) == before
