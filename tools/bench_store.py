#!/usr/bin/env python3
"""How often cribbage.store erases the nvm sector, over realistic games.

    python tools/bench_store.py              # 500 games each way
    python tools/bench_store.py --games 200 --seed 7

Two players, 121 holes, the real rules engine on a simulated RP2040 nvm
(boards.sim.nvm.SimNVM). Keyed cards: each player keeps the four cards that
score best against a few starters; each deal is the starter, the eight cards
laid (and the goes), then three shows, every action saved as it is accepted;
the next game follows each. Keyed pegs: the same games' scores keyed as points,
one peg per score. Every 200 games a new Game object starts (the engine counts
games played in one byte), the statistics carried into it as a board carries
them. ``--history N`` starts them as after N games keyed the same way (200
played, the counts scaled, the best show kept): a board's statistics grow to
3 bytes a counter, and each game's BASE carries them.

Also printed: the bytes a compaction programs between its erase and the end
of its new BASE (the window in which a cut loses the game), with an estimate
of the time from a sector erase of ~45 ms and ~0.5 ms a 256-byte page, and
what a load costs under MicroPython 1.27 (wasmtime fuel; ~6.2 ms a million
on the RP2040, an estimate). Laptop only.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import os
import random

from boards.sim.nvm import FLASH_PAGE, SimNVM
from engine import figures, stats as st
from engine.game import PLAY, SHOW, Game
from engine.pegging import MAX_COUNT
from engine.show import score_hand
from cribbage.store import REPLAY_BUDGET, Store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LIFETIME_ERASES = 100000
ERASE_MS, PAGE_MS = 45.0, 0.5  # a sector erase, a page program (estimates)
MS_PER_FUEL = 6.2e-6  # MicroPython on the RP2040 (an estimate)
LIGHTS = b"\x01\x03\x00"
GAMES_PER_OBJECT = 200  # then a new Game, as after a power-up with a fresh match


def shuffled(rng):
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def keep(six, starters):
    """The four cards a player keeps: the best hand over a few starters it might get."""
    best, kept = -1, six[0:4]
    for i in range(6):
        for j in range(i + 1, 6):
            four = [c for k, c in enumerate(six) if k not in (i, j)]
            total = sum([score_hand(four, s) for s in starters])
            if total > best:
                best, kept = total, four
    return kept


def deal(game, rng):
    """One deal as it is keyed: yields the [Score] of each action (its Outcome's scores)."""
    deck = shuffled(rng)
    hands = [keep(deck[0:6], deck[13:17]), keep(deck[6:12], deck[17:21])]
    kept = [list(hand) for hand in hands]
    crib = [c for c in deck[0:12] if c not in hands[0] and c not in hands[1]]
    yield game.turn_starter(deck[12]).scores  # cards 13.. stand for the unseen rest
    while game.phase == PLAY:
        seat = game.play.turn
        playable = [c for c in hands[seat] if game.play.count + min(c // 4 + 1, 10) <= MAX_COUNT]
        if playable:
            card = rng.choice(playable)
            hands[seat].remove(card)
            yield game.lay(card).scores
        else:
            yield game.go().scores
    while game.phase == SHOW:
        seat, is_crib = game.showing()
        yield game.count_show(crib if is_crib else kept[seat]).scores


def history(games, keyed_pegs, seed=99):
    """The statistics of a board after `games` games keyed as `keyed_pegs` says:
    those of 200 played, scaled (every counter but the best show)."""
    rng = random.Random(seed)
    cards, pegs = Game(), Game()
    for _ in range(200):
        while not cards.over:
            for scores in deal(cards, rng):
                for score in scores:
                    if keyed_pegs and not pegs.over:
                        pegs.peg(score.side, score.points)
                if cards.over:
                    break
        cards.next_game()
        if keyed_pegs:
            pegs.next_game()
    made = (pegs if keyed_pegs else cards).stats
    out = [min(st.CAP, v * games // 200) for v in made]
    best = figures.FIELDS.index("best_hand")
    for s in range(st.SIDES):
        out[1 + s * st.F + best] = made[1 + s * st.F + best]
    return out


def run(games, seed, keyed_pegs, stats=None):
    """Counts after `games` games saved one action at a time, the statistics
    starting at `stats` (zero if None)."""
    rng = random.Random(seed)
    store = Store(SimNVM())
    store.load()
    store.record_settings(LIGHTS)
    cards = pegs = None
    counts = {"actions": 0, "deals": 0, "mid-game erases": 0, "windows": []}

    def compacted(written, erases):
        # A compaction programs the header, the settings and the BASE first.
        if store.erases > erases:
            counts["windows"].append(store.bytes_written - written)

    def saved(game):
        erases, written = store.erases, store.bytes_written
        store.record_event(game, game.journal[-1])
        counts["actions"] += 1
        counts["mid-game erases"] += store.erases - erases
        compacted(written, erases)

    for number in range(games):
        if number % GAMES_PER_OBJECT == 0:  # games_played is one byte in a saved game
            if cards is not None:
                stats = (pegs if keyed_pegs else cards).stats
            cards, pegs = Game(stats=stats), Game(stats=stats)
            store.record_new_game(pegs if keyed_pegs else cards)
        while not cards.over:
            counts["deals"] += 1
            for scores in deal(cards, rng):
                if not keyed_pegs:
                    saved(cards)
                for score in scores:
                    if keyed_pegs and not pegs.over:
                        pegs.peg(score.side, score.points)
                        saved(pegs)
                if cards.over:
                    break
        cards.next_game()
        if keyed_pegs:
            assert pegs.over  # the same points to the same sides: the same end
            pegs.next_game()
        erases, written = store.erases, store.bytes_written
        store.record_next_game()
        compacted(written, erases)
    counts["erases"] = store.erases
    counts["bytes"] = store.bytes_written
    return counts


def report(title, games, counts, pegs):
    erases, actions = counts["erases"], counts["actions"]
    print(title)
    print("  %d games: %.1f deals and %.1f saved actions a game"
          % (games, counts["deals"] / games, actions / games))
    print("  %.2f bytes per action; %d erases, %d of them mid-game"
          % (counts["bytes"] / actions, erases, counts["mid-game erases"]))
    if pegs:
        print("  %.2f erases per 100 pegs" % (100.0 * erases / actions))
    print("  %.3f erases per game: %d games in a sector's lifetime of %d erases"
          % (erases / games, LIFETIME_ERASES * games // max(erases, 1), LIFETIME_ERASES))
    windows = counts["windows"]
    if windows:
        most = max(windows)
        pages = (most + FLASH_PAGE - 1) // FLASH_PAGE
        print("  a compaction's window: %d to %d bytes from its erase to the end of its BASE;"
              " at most %d page(s): ~%.1f ms (estimate)"
              % (min(windows), most, pages, ERASE_MS + PAGE_MS * pages))


def report_loads():
    from tools import devload, store_logs
    worst = (0, "")
    print("Loading the sector (MicroPython 1.27, tools/devload.py: our code's fuel, the read,"
          " then a record a step; the time on a Pico estimated, without flash-cache misses):")
    for what, image in (("an erased sector", SimNVM().snapshot()),
                        ("a 61-hole game keyed by cards, %d bytes", store_logs.realistic()),
                        ("games keyed by cards until a game start compacts, %d bytes",
                         store_logs.busy_log()),
                        ("a game keyed by cards to its end, then undone to its start"
                         " (a BASE once undos re-apply %d actions), %%d bytes"
                         % REPLAY_BUDGET, store_logs.undone())):
        if "%d" in what:
            what %= len(image.rstrip(b"\xff"))
        load = devload.run_load(image)
        fuel = load.read + load.base + load.replay
        worst = max(worst, (fuel, what))
        print("  %s: the log %d fuel (~%.0f ms), with the game replayed %d (~%.0f ms)"
              % (what, load.read, load.read * MS_PER_FUEL, fuel, fuel * MS_PER_FUEL))
    print("  the worst boot's load of these: ~%.0f ms (%s)"
          % (worst[0] * MS_PER_FUEL, worst[1].split(",")[0]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--history", type=int, default=0,
                        help="the statistics as after this many games (default none)")
    parser.add_argument("--no-micropython", action="store_true", help="skip the load costs")
    args = parser.parse_args(argv)
    for pegs, title in ((False, "Keyed cards (the starter, the play, three shows):"),
                        (True, "Keyed pegs (one peg per score):")):
        stats = history(args.history, pegs) if args.history else None
        if stats is not None:
            title += " statistics as after %d games, %d bytes" % (
                args.history, len(st.to_list(stats)))
        report(title, args.games, run(args.games, args.seed, pegs, stats), pegs)
    if not args.no_micropython:
        report_loads()


if __name__ == "__main__":
    main()
