"""tools.simulator.terminal: the board played on a laptop's keyboard, in real time.

The terminal is put in raw mode; what is typed is read as keypad keys, and the
escape sequences of arrow, function and Alt keys are read whole and dropped
(none of them is a keypad key). The clock runs in real time, so pegs jump and
the winner's lights run as on the board; the screen is redrawn when anything
on it changes. The game is written to its state file after every key.
"""

import codecs
import os
import select
import sys
import time

from cribbage.names import side_name
from tools.simulator.screen import RESET, term_screen
from tools.simulator.session import UsageError, keypad_key, no_key
from tools.simulator.statefile import write_state

QUIT_KEYS = ("q", "Q", "\x03", "\x04")  # q, Ctrl-C, Ctrl-D
ESC = "\x1b"
ESC_WAIT_S = 0.1   # a lone Esc: how long to wait for the rest of a sequence
POLL_S = 0.03      # the loop's pass: the clock and the screen move on this often


def _sequence_end(text, i):
    """Where the escape sequence starting at text[i] ends, or None if it is not
    complete yet. CSI (ESC [ ... final), SS3 (ESC O x) and ESC x (Alt+x)."""
    if i + 1 >= len(text):
        return None
    kind = text[i + 1]
    if kind == "[":
        j = i + 2
        while j < len(text) and "\x20" <= text[j] <= "\x3f":  # parameters, intermediates
            j += 1
        if j >= len(text):
            return None
        return j + 1 if "\x40" <= text[j] <= "\x7e" else j
    if kind == "O":
        return i + 3 if i + 2 < len(text) else None
    if kind == ESC:
        return i + 1  # Esc, then another sequence
    return i + 2


def split_keys(text):
    """(typed characters with escape sequences dropped, an unfinished sequence)."""
    chars = []
    i = 0
    while i < len(text):
        if text[i] != ESC:
            chars.append(text[i])
            i += 1
            continue
        end = _sequence_end(text, i)
        if end is None:
            return chars, text[i:]
        i = end
    return chars, ""


class KeyReader:
    """Bytes from the terminal in, typed characters out (UTF-8, sequences dropped).

    A sequence may arrive split over reads: its start is kept until the rest
    comes, or dropped after ``ESC_WAIT_S`` (the Esc key alone).
    """

    def __init__(self):
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.pending = ""
        self._since = 0.0

    def feed(self, data, now):
        chars, self.pending = split_keys(self.pending + self._decoder.decode(data))
        if self.pending:
            self._since = now
        return chars

    def expire(self, now):
        """Drop an unfinished sequence nothing has followed for ``ESC_WAIT_S``."""
        if self.pending and now - self._since >= ESC_WAIT_S:
            self.pending = ""


def scores_text(game):
    return ", ".join("%s %d" % (side_name(s), game.scores[s]) for s in range(game.sides))


def interactive(session, state_path, note):
    """Play until q or Ctrl-C; the game is written to ``state_path`` (if any) after
    every key. Returns the problem with the last write, or None."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    out = sys.stdout
    saved = termios.tcgetattr(fd)
    reader = KeyReader()
    problem = None
    last_frame = None
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.flush()
        clock = session.board.clock
        then = time.monotonic()
        spare = 0.0
        size = None
        while True:
            now = time.monotonic()
            spare += (now - then) * 1000.0
            then = now
            if spare >= 1:
                clock.advance(int(spare))
                spare -= int(spare)
            typed = []
            ready, _, _ = select.select([fd], [], [], POLL_S)
            while ready:  # all there is, so a sequence is not cut between reads
                data = os.read(fd, 4096)
                if not data:  # the terminal is gone
                    return problem
                typed += reader.feed(data, now)
                ready, _, _ = select.select([fd], [], [], 0)
            reader.expire(now)
            for char in typed:
                if char in QUIT_KEYS:
                    return problem
                key = keypad_key(char)
                if key is None:
                    note = no_key(char)
                    continue
                session.press(key)
                if state_path:
                    try:
                        write_state(state_path, session.nvm_image())
                        note, problem = "game kept in %s" % state_path, None
                    except UsageError as err:
                        note = problem = "not saved: %s" % err
            session.app.step()
            try:
                new_size = os.get_terminal_size(out.fileno())
            except OSError:
                new_size = os.terminal_size((80, 24))
            frame = (session.board.oled_frame(),
                     tuple(session.board.strip_bytes(t) for t in range(session.tracks)),
                     note, tuple(new_size))
            if frame != last_frame:
                if new_size != size:
                    out.write("\x1b[2J")
                    size = new_size
                lines = term_screen(session, tuple(new_size), note)
                out.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J")
                out.flush()
                last_frame = frame
    except KeyboardInterrupt:
        return problem
    finally:
        out.write(RESET + "\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
