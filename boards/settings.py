"""boards.settings: the CRIBBAGE_* keys of settings.toml, read as the board reads them.

One parser for every setting: a value may be written bare or quoted (``3`` or
``"3"``) and a comment may follow it. A value that cannot be read or is out of
range is never fatal: the setting takes its default and a line for the OLED says
so ("settings.toml: CRIBBAGE_TRACKS=1? using 2"). The board reads the file itself
rather than through ``os.getenv``, which raises for a bare word such as ``three``
or ``false`` and for a line that is not UTF-8.

A byte-order mark (some Windows editors write one) hides the first line from
CircuitPython's own reader, which compares the key from the file's first byte:
it is hidden here too, and said, so that a key there is never lost unsaid.
"""

if __debug__:  # for mypy; mpy-cross -O3 compiles it out of the board's .mpy
    try:
        from typing import Any, Dict, List, Optional, Tuple
    except ImportError:
        pass

FILE = "settings.toml"  # CircuitPython runs code.py from the drive's root
PREFIX = "CRIBBAGE_"
_ON = ("1", "on", "true", "yes")
_OFF = ("0", "off", "false", "no")
_NOT_UTF8 = "<not UTF-8>"
_BOM = b"\xef\xbb\xbf"
_HIDDEN = "%s? hidden by a byte-order mark"


def _value(text: str) -> "Tuple[str, Optional[str]]":
    """(the value as written, its text): a quoted string unquoted, else the bare
    word; the text is None when a quote is left open or something follows it."""
    text = text.strip()
    if text[:1] != '"':
        bare = text.split("#", 1)[0].strip()
        return bare, bare
    out = ""
    i = 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            i += 1
            ch = {"n": "\n", "t": "\t"}.get(text[i], text[i])
        elif ch == '"':
            rest = text[i + 1:].strip()
            if rest and rest[0] != "#":
                return text.split("#", 1)[0].strip(), None
            return text[:i + 1], out
        out += ch
        i += 1
    return text.split("#", 1)[0].strip(), None  # the quote is never closed


class BoardSettings:
    """The CRIBBAGE_* settings; each is asked for once, by the part that owns it,
    with its default and the values it takes."""

    def __init__(self, values: "Optional[Dict[str, Tuple[str, Optional[str]]]]" = None,
                 hidden: "Optional[str]" = None) -> None:
        self.values = values if values is not None else {}  # name -> (as written, text)
        self.hidden = hidden  # the key of a first line behind a byte-order mark
        self.problems = []  # type: List[str]
        self._asked = []  # type: List[str]

    def number(self, name: str, default: int, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``."""
        text = self._text(name)
        if text is None:
            return self._absent(name, default, str(default))
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if low <= value <= high:
            return value
        return self._refuse(name, default, str(default))

    def switch(self, name: str, default: bool) -> bool:
        """On or off: 1/0, on/off, true/false, yes/no, any case."""
        shown = "on" if default else "off"
        text = self._text(name)
        if text is None:
            return self._absent(name, default, shown)
        word = text.strip().lower()
        if word in _ON:
            return True
        if word in _OFF:
            return False
        return self._refuse(name, default, shown)

    def choice(self, name: str, default: str, options: "Tuple[str, ...]") -> str:
        """One of ``options``, in any case; returned as ``options`` spell it."""
        text = self._text(name)
        if text is None:
            return self._absent(name, default, default)
        word = text.strip().lower()
        for option in options:
            if option.lower() == word:
                return option
        return self._refuse(name, default, default)

    def unknown(self) -> "List[str]":
        """A line for each CRIBBAGE_ key that no part of the board asked for, and
        for a key behind a byte-order mark that none asked for (CircuitPython's too)."""
        names = sorted([n for n in self.values if n not in self._asked])
        lines = ["settings.toml: %s? no such setting" % n for n in names]
        if self.hidden is not None and self.hidden not in self._asked:
            lines.append("settings.toml: " + _HIDDEN % self.hidden)
        return lines

    def _text(self, name: str) -> "Optional[str]":
        self._asked.append(name)
        if name not in self.values:
            return None
        return self.values[name][1] or ""

    def _absent(self, name: str, default: "Any", shown: str) -> "Any":
        if name == self.hidden:
            self.problems.append("settings.toml: " + _HIDDEN % name + ": using " + shown)
        return default

    def _refuse(self, name: str, default: "Any", shown: str) -> "Any":
        self.problems.append("settings.toml: %s=%s? using %s" % (name, self.values[name][0], shown))
        return default


def _bare_key(name: bytes) -> bool:
    """A TOML bare key: ASCII letters, digits, ``_`` and ``-`` (not a comment)."""
    for byte in name:
        if not (48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122
                or byte == 95 or byte == 45):
            return False
    return len(name) > 0


def parse(data: bytes) -> BoardSettings:
    """The CRIBBAGE_* keys of settings.toml's bytes; other keys are CircuitPython's."""
    values = {}  # type: Dict[str, Tuple[str, Optional[str]]]
    hidden = None
    lines = data.split(b"\n")
    if data.startswith(_BOM):
        first = lines.pop(0)[len(_BOM):].split(b"=", 1)
        if len(first) == 2 and _bare_key(first[0].strip()):
            hidden = first[0].strip().decode()
    for raw in lines:
        if raw.strip().startswith(b"["):
            break  # a [table]: what follows is not a root key, as for os.getenv
        name_bytes = raw.split(b"=", 1)[0].strip()
        if b"=" not in raw or not name_bytes.startswith(PREFIX.encode()):
            continue
        try:
            line = raw.decode("utf-8")
            name = name_bytes.decode("utf-8")
        except UnicodeError:
            try:
                values[name_bytes.decode("utf-8")] = (_NOT_UTF8, None)
            except UnicodeError:
                pass  # not even the name reads: not one of ours
            continue
        values[name] = _value(line.split("=", 1)[1])
    return BoardSettings(values, hidden)


def read(path: str = FILE) -> BoardSettings:
    """settings.toml from the drive; no file means every setting takes its default."""
    try:
        with open(path, "rb") as toml:
            data = toml.read()
    except OSError:
        return BoardSettings()
    return parse(data)
