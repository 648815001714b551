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

What it reads is a ``boards.pegboard.BoardSettings``, which each part asks for its
keys; this reader goes once the board is built (``boards.hardware.let_go``).
"""

from boards.pegboard import BoardSettings

if __debug__:  # for mypy; mpy-cross -O3 compiles it out of the board's .mpy
    try:
        from typing import Dict, Optional, Tuple  # noqa: F401  (Dict: in a type comment)
    except ImportError:
        pass

FILE = "settings.toml"  # CircuitPython runs code.py from the drive's root
PREFIX = "CRIBBAGE_"
_NOT_UTF8 = "<not UTF-8>"
_BOM = b"\xef\xbb\xbf"


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
