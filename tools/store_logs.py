"""tools/store_logs: flash logs and saves of real games on boards/sim/nvm.py's SimNVM
through cribbage.store: tools/bench_store.py and tools/bench_device.py time loading
them, and tests/store_faults.py tries its faults on them. Laptop only."""

import random

from boards.sim.nvm import PowerCut, SimNVM
from cribbage.store import Store
from engine import state
from engine.game import PLAY, SHOW, STARTER, Game
from engine.pegging import MAX_COUNT
from engine.rules import make_config

LIGHTS = b"\x01\x04\x02"  # settings as the app writes them: opaque to the store


def saved(game, blob=None):
    """What must survive a reboot: the state, the undo history, the settings."""
    if game is None:
        return None, blob
    return (state.encode(game), tuple(game.journal)), blob


def key_next(game, rng):
    """Key one plausible action for the phase the game is in, as a player would."""
    unseen = [c for c in range(52) if c not in game.seen]
    if game.phase == STARTER:
        game.turn_starter(rng.choice(unseen))
    elif game.phase == PLAY:
        fits = [c for c in unseen if game.play.count + min(c // 4 + 1, 10) <= MAX_COUNT]
        if not fits or game.play.count + 10 > MAX_COUNT and rng.random() < 0.5:
            game.go()
        else:
            game.lay(rng.choice(fits))
    else:
        known = game.known_cards()  # a hand holds the cards it laid, and 4 in all
        game.count_show(known + rng.sample([c for c in unseen if c not in known], 4 - len(known)))


def play(store, game, rng, actions):
    """`actions` recorded actions of real play (fewer if the game ends)."""
    for _ in range(actions):
        if game.over:
            break
        key_next(game, rng)
        store.record_event(game, game.journal[-1])
    return game


def fresh(actions=0, seed=1, settings=None, config=None):
    """(nvm, store, game): a new board, a new game and `actions` actions."""
    nvm = SimNVM()
    store = Store(nvm)
    store.load()
    if settings is not None:
        store.record_settings(settings)
    game = Game(config)
    store.record_new_game(game)
    play(store, game, random.Random(seed), actions)
    return nvm, store, game


def peg(store, game):
    game.peg(1, 5)
    store.record_event(game, game.journal[-1])


def undo(store, game):
    game.undo()
    store.record_undo()


def lights(store, game):
    store.record_settings(LIGHTS)


def new_game(store, game):
    store.record_new_game(Game(dealer=1))


def erase(store, game):
    """The statistics back to zero: an action like any other, journalled."""
    game.erase_stats()
    store.record_event(game, game.journal[-1])


def next_game(store, game):
    game.next_game()
    store.record_next_game()


def show(store, game):
    key_next(game, random.Random(6))
    store.record_event(game, game.journal[-1])


def mid_game():
    return fresh(actions=25)[0].snapshot()


def at_the_show():
    nvm, store, game = fresh()
    rng = random.Random(5)
    while game.phase != SHOW:
        key_next(game, rng)
        store.record_event(game, game.journal[-1])
    return nvm.snapshot()


def game_over():
    """A won game (pegged 29 at a time)."""
    nvm, store, game = fresh()
    while not game.over:
        game.peg(1, 29)
        store.record_event(game, game.journal[-1])
    return nvm.snapshot()


def near_the_end():
    """A game 5 short of its end (B pegged 29 four times): peg() wins it, and its
    save counts the game, the win and the double skunk in the statistics."""
    nvm, store, game = fresh()
    for _ in range(4):
        game.peg(1, 29)
        store.record_event(game, game.journal[-1])
    return nvm.snapshot()


def page_edge():
    """A game whose next peg opens the log's second page (and programs its mark)."""
    nvm, store, game = fresh()
    while len(nvm.snapshot()[:241].rstrip(b"\xff")) <= 241 - 6:  # the marks begin at 241
        game.peg(0, 1)
        store.record_event(game, game.journal[-1])
    return nvm.snapshot()


def torn():
    """A mid-game log whose last save was cut short halfway."""
    nvm = SimNVM(mid_game())
    store = Store(nvm)
    game, _ = store.load()
    nvm.cut_after(3)
    try:
        peg(store, game)
    except PowerCut:
        pass
    return nvm.snapshot()


def full_log():
    """A game mid-play with settings switched back and forth until no peg fits."""
    nvm, store, game = fresh(actions=30)
    n = 0
    while store.free_bytes() >= 6:
        n += 1
        store.record_settings((b"\x01\x01\x01", LIGHTS)[n % 2])
    return nvm.snapshot()


def busy_log():
    """Games keyed by cards until the next one's start compacts: the last won."""
    nvm, store, game = fresh(settings=LIGHTS)
    rng = random.Random(8)
    while True:
        while not game.over:
            key_next(game, rng)
            store.record_event(game, game.journal[-1])
        if store.free_bytes() < store.room():
            return nvm.snapshot()
        game.next_game()
        store.record_next_game()


def realistic():
    """A 61-hole game keyed by cards to its end, with settings, an undo and
    the next game begun: the log a board holds after a first game."""
    nvm, store, game = fresh(settings=LIGHTS, config=make_config(target=61))
    rng = random.Random(3)
    undone = False
    while not game.over:
        key_next(game, rng)
        store.record_event(game, game.journal[-1])
        if len(game.journal) == 20 and not undone:
            game.undo()
            store.record_undo()
            undone = True
    game.next_game()
    store.record_next_game()
    play(store, game, rng, 5)
    return nvm.snapshot()


def undone(seed=4):
    """A 121-hole game keyed by cards to its end, then undone to its start, every
    action saved: the longest replay a log could ask of a boot, unbounded."""
    nvm, store, game = fresh(settings=LIGHTS)
    rng = random.Random(seed)
    while not game.over:
        key_next(game, rng)
        store.record_event(game, game.journal[-1])
    while game.journal:
        game.undo()
        store.record_undo()
    return nvm.snapshot()
