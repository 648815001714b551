#!/usr/bin/env python3
"""Play the cribbage board on a laptop: the real firmware on the simulated board.

    python tools/sim.py                          # interactive in a terminal
    python tools/sim.py --fresh                  # the same, starting a new game
    python tools/sim.py --keys "12A 5B" --json   # scripted: one JSON object
    python tools/sim.py --keys "12A 5B"          # scripted: a readable summary
    python tools/sim.py --keys "#5B" --png board.png
    python tools/sim.py --state game.nvm         # resume, saving on every key

It builds ``boards.sim.board`` (the firmware's strip writer and SSD1306 driver over
pin- and bus-level fakes) and runs ``cribbage.app.App`` on it, the same code the Pico runs.
Everything shown is read back from what the strips and the OLED received.

Keys are the keypad's ``123A456B789C*0#D`` (a-d may be typed in lower case;
spaces are ignored). In a terminal the game is kept in a state file (by default
``~/.cache/cribbage-board/sim.nvm``, see ``--state`` and ``--fresh``). Without a
terminal and without ``--keys`` (as in CI) it plays a short demo hand and prints
the board. Bad keys, options and state files are one line on stderr and exit 2.

The parts are in ``tools/simulator/``; the JSON object is
``tools.simulator.text.board_state``.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import os
import sys

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from tools.simulator import picture, statefile, terminal, text
from tools.simulator.session import Session, UsageError, parse_keys

PROG = "tools/sim.py"
DEMO_KEYS = "6B 4A # 5C 0A 5B 5D 5A"


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Run the board's firmware on the simulated board. In a terminal "
                    "(no --keys) it is played with the laptop's keys and the game is "
                    "kept in a state file; with --keys it presses those and prints the "
                    "board; without a terminal it plays a short demo hand.")
    p.add_argument("--keys", help="keypad keys to press, e.g. \"12A 5B #5B\" "
                   "(spaces ignored, a-d as A-D)")
    p.add_argument("--json", action="store_true",
                   help="print the board as one JSON object instead of a summary")
    p.add_argument("--state", metavar="FILE",
                   help="start from this saved nvm image (4096 bytes); interactive "
                        "play saves back to it on every key (a missing file is created). "
                        "Interactive default: %s" % statefile.default_path())
    p.add_argument("--fresh", action="store_true",
                   help="start a new game instead of the one in the state file "
                        "(in a terminal the new game replaces it)")
    p.add_argument("--save", metavar="FILE", help="write the nvm image here at the end")
    p.add_argument("--png", metavar="FILE", help="draw the board into this PNG file")
    p.add_argument("--tracks", type=int, choices=(2, 3), default=2,
                   help="LED tracks on the board (default 2)")
    return p.parse_args(argv)


def warn(session):
    for line in session.warnings():
        sys.stderr.write("%s: warning: %s\n" % (PROG, line))


def start_interactive(args):
    """The session and where its game is kept: --state, or the default file."""
    path = args.state or statefile.default_path()
    nvm = None
    if not args.fresh and os.path.lexists(path):
        try:
            nvm = statefile.read_state(path)
        except UsageError as err:
            raise UsageError("%s (--fresh starts a new game in its place)" % err)
    session = Session(tracks=args.tracks, nvm=nvm)
    try:
        statefile.write_state(path, session.nvm_image())
    except UsageError as err:
        if args.state:
            raise
        return session, None, "no state file: %s" % err
    how = "a new game" if nvm is None else "carried on"
    return session, path, "game kept in %s (%s; --fresh starts anew)" % (path, how)


def run_interactive(args):
    session, path, note = start_interactive(args)
    problem = terminal.interactive(session, path, note)
    where = "; saved to %s" % path if path and not problem else ""
    warn(session)
    print("Left the board at %s%s." % (terminal.scores_text(session.game), where))
    if problem:
        raise UsageError("%s: the last key is not in %s" % (problem, path))
    if args.save and args.save != path:
        statefile.write_state(args.save, session.nvm_image())
    if args.png:
        picture.save_png(session, args.png)
    return 0


def run(args):
    interactive_mode = args.keys is None and sys.stdin.isatty() and sys.stdout.isatty()
    keys = parse_keys(args.keys) if args.keys is not None else None
    if args.png:
        picture.check_png_path(args.png)
    if interactive_mode:
        return run_interactive(args)
    nvm = statefile.read_state(args.state) if args.state and not args.fresh else None
    session = Session(tracks=args.tracks, nvm=nvm)
    demo = keys is None
    if demo:
        keys = parse_keys(DEMO_KEYS)
    session.keys(keys)
    if args.png:
        picture.save_png(session, args.png)
    if args.save:
        statefile.write_state(args.save, session.nvm_image())
    if args.json:
        warn(session)
        print(text.to_json(text.board_state(session)))
    else:
        if demo:
            print("No terminal: a demo hand, keys %s" % DEMO_KEYS)
            print()
        print(text.summary(session))
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except UsageError as err:
        sys.stderr.write("%s: %s\n" % (PROG, err))
        return 2
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
