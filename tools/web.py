#!/usr/bin/env python3
"""Build and serve the board's web page: the firmware on MicroPython's WebAssembly port.

    python tools/web.py build                    # the site into build/web (`make web`)
    python tools/web.py build --out ../gh-pages  # ... or into another folder
    python tools/web.py serve --port 8000        # serve build/web on localhost (`make web-serve`)

The site is static: web/'s page (index.html, board.js, board.css, webboard.py),
MicroPython 1.27 for WebAssembly from the pinned npm package (``npm ci`` in web/
installs it), and firmware.json: every file the page writes into MicroPython's
file system, base64, read from where the deploy tool reads them (the firmware
roots of tools/deployer/sources.py), the driver libraries that CircuitPython
builds in and MicroPython lacks (tools/mprun.py's DRIVERS, from the pinned
PyPI packages installed in this Python), the stand-ins for CircuitPython's C
modules (tools/mpstubs) and the simulator's fakes they import (boards/sim/).
Nothing is copied into the repository. Run it with .venv-web's Python (as
`make web` does): the driver package is there, from requirements/web.txt, which
holds nothing else.

Bad input (no npm package, an --out folder holding other files) is one line on
stderr and exit code 2.
"""

try:  # the root and lib/ on sys.path: tools/_entry.py
    import tools._entry  # noqa: F401  (python -m tools.x, or the tests)
except ImportError:  # python tools/x.py: tools/ is first on sys.path
    import _entry  # noqa: F401  (loaded for its effect)

import argparse
import ast
import base64
import hashlib
import json
import os
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.util import find_spec
from pathlib import Path

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

from tools.deploy import DeployError
from tools.deployer.sources import TARGET_LIB_DIR, collect_firmware
from tools.mprun import DRIVERS

REPO = Path(__file__).resolve().parent.parent

PROG = "tools/web.py"
PAGE = REPO / "web"
PAGE_FILES = ("index.html", "board.js", "board.css")
GLUE = "webboard.py"  # runs in the page's MicroPython, beside code.py
STUBS = REPO / "tools" / "mpstubs"
NPM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
NPM_FILES = ("micropython.mjs", "micropython.wasm")
DEFAULT_OUT = REPO / "build" / "web"
BUNDLE = "firmware.json"
MANIFEST = ".cribbage-web"  # the files the last build wrote: only those are ever removed
FACTS_MARK = "{{BOARD_FACTS}}"
DEFAULT_PORT = 8000
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".css": "text/css", ".png": "image/png"}


class UsageError(Exception):
    """One line on stderr, exit code 2."""


def pinned_version():
    """The MicroPython package's version as web/package.json pins it."""
    with open(PAGE / "package.json", encoding="utf-8") as f:
        return json.load(f)["dependencies"][NPM_PACKAGE]


def npm_folder():
    """Where ``npm ci`` put the pinned package; UsageError if it is not there."""
    folder = PAGE / "node_modules" / Path(*NPM_PACKAGE.split("/"))
    wanted = pinned_version()
    try:
        with open(folder / "package.json", encoding="utf-8") as f:
            found = json.load(f)["version"]
    except (OSError, ValueError, KeyError):
        raise UsageError("%s %s is not installed in web/node_modules: run `make web` "
                         "(it runs npm ci in web/)" % (NPM_PACKAGE, wanted))
    if found != wanted:
        raise UsageError("web/node_modules holds %s %s, web/package.json pins %s: run "
                         "`npm ci` in web/" % (NPM_PACKAGE, found, wanted))
    return folder


def driver_files(names=DRIVERS):
    """[(path under lib/, source file)] of the driver libraries a MicroPython run of
    the firmware needs (tools/mprun.py's list: what CircuitPython builds in and
    MicroPython lacks), from the packages installed in this Python (the pinned ones)."""
    files = []
    for name in names:
        spec = find_spec(name)
        if spec is None:
            raise UsageError("driver library %s is not installed in this Python: run "
                             "`make web` (it uses .venv-web)" % name)
        if spec.submodule_search_locations:
            folder = Path(list(spec.submodule_search_locations)[0])
            for path in sorted(folder.rglob("*.py")):
                if "__pycache__" not in path.parts:
                    files.append(("%s/%s" % (name, path.relative_to(folder).as_posix()), path))
        else:
            files.append((Path(spec.origin).name, Path(spec.origin)))
    return files


def _imported_sim_fakes(files):
    """The boards/sim/ modules that ``files`` import (the stand-ins share them)."""
    found = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("boards.sim."):
                    found.add(name)
    return sorted(found)


def page_files():
    """[(path in the page's file system, source file)] of everything the page loads."""
    files = [(item.rel, item.src) for item in collect_firmware(REPO)]
    stubs = sorted(STUBS.glob("*.py"))
    files += [("mpstubs/" + p.name, p) for p in stubs]
    fakes = _imported_sim_fakes(stubs)
    for name in ["boards.sim"] + fakes:
        rel = name.replace(".", "/") + ("/__init__.py" if name == "boards.sim" else ".py")
        files.append((rel, REPO / rel))
    files += [(TARGET_LIB_DIR + "/" + rel, src) for rel, src in driver_files()]
    files.append((GLUE, PAGE / GLUE))
    seen = set()
    unique = []
    for rel, src in files:
        if rel not in seen:
            seen.add(rel)
            unique.append((rel, src))
    return unique


def board_facts():
    """What the page shows before the firmware runs, from where each is kept."""
    from boards import KEY_LEGEND, hardware
    from boards.sim.nvm import NVM_SECTOR
    from engine.cards import SUIT_SYMBOLS
    from cribbage.names import SIDE_LETTERS, SUIT_GLYPHS
    from cribbage.pages import ABOUT, ABOUT_SYMBOL
    from tools.simulator.marks import BACK, FRONT, LIT_FLOOR, OLED_ON, RINGS, UNLIT
    from tools.simulator.session import NO_KEY
    from tools.simulator.text import KEY_NOTES
    import boards

    config = boards.config_for(boards.DEFAULT_BOARD)
    return {
        "keyLegend": KEY_LEGEND,
        "keyNotes": KEY_NOTES,
        "suitGlyphs": "".join(SUIT_GLYPHS) + ABOUT,  # and the font's "about" sign
        "sideLetters": "".join(SIDE_LETTERS),
        "suitSymbols": SUIT_SYMBOLS + ABOUT_SYMBOL,
        "unlit": list(UNLIT),
        "oledOn": list(OLED_ON),
        "litFloor": LIT_FLOOR,
        "rings": {"front": list(RINGS[FRONT]), "back": list(RINGS[BACK])},
        "noKey": NO_KEY % ("%s", KEY_LEGEND),  # the typed character goes in, quoted
        "nvmSize": NVM_SECTOR,
        "trackChoices": list(range(hardware.MIN_TRACKS, len(config.TRACK_PINS) + 1)),
        "defaultTracks": hardware.DEFAULT_TRACKS,
        "tracksSetting": hardware.TRACKS,
        "rowLength": config.ROW_LENGTH,
        "holes": config.LEDS_PER_TRACK,
        "micropython": pinned_version(),
    }


def bundle(files):
    """firmware.json's bytes: {"files": [[path, base64], ...]} in a fixed order."""
    entries = [[rel, base64.b64encode(src.read_bytes()).decode("ascii")] for rel, src in files]
    return json.dumps({"files": entries}, separators=(",", ":")).encode("utf-8")


def _check_out(out):
    if out.exists() and not out.is_dir():
        raise UsageError("cannot build into %s: it is not a folder" % out)
    if not out.exists():
        return []
    try:
        return (out / MANIFEST).read_text(encoding="utf-8").split()
    except OSError:
        others = [p.name for p in out.iterdir() if p.name not in (".git", ".nojekyll")]
        if others:
            raise UsageError("cannot build into %s: it holds files of another kind (%s); "
                             "name an empty folder or one a build wrote"
                             % (out, ", ".join(sorted(others)[:3])))
        return []


def build(out=DEFAULT_OUT):
    """Write the site into ``out``; the names written, sorted."""
    out = Path(out)
    before = _check_out(out)
    npm = npm_folder()
    files = page_files()
    data = bundle(files)
    stamp = hashlib.sha256(data).hexdigest()[:12]  # a new bundle is never read from a cache
    facts = dict(board_facts(), firmware="%s?v=%s" % (BUNDLE, stamp))
    written = {BUNDLE: data, ".nojekyll": b""}
    for name in NPM_FILES:
        written[name] = (npm / name).read_bytes()
    for name in PAGE_FILES:
        written[name] = (PAGE / name).read_bytes()
    html = written["index.html"].decode("utf-8")
    written["index.html"] = html.replace(FACTS_MARK, json.dumps(facts, ensure_ascii=False)
                                         .replace("</", "<\\/")).encode("utf-8")
    out.mkdir(parents=True, exist_ok=True)
    for name, content in written.items():
        tmp = out / (name + ".tmp")
        tmp.write_bytes(content)
        os.replace(tmp, out / name)
    for name in before:
        if name not in written and (out / name).is_file():
            (out / name).unlink()
    (out / MANIFEST).write_text("\n".join(sorted(written)) + "\n", encoding="utf-8")
    return sorted(written)


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = dict(SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site is seen at once
        super().end_headers()

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


def make_server(folder, port=DEFAULT_PORT, host="127.0.0.1", verbose=False):
    """An HTTP server of ``folder`` on localhost (port 0: any free port)."""
    folder = Path(folder)
    if not (folder / "index.html").is_file():
        raise UsageError("%s has no site: run `make web` first" % folder)

    def handler(*args, **kwargs):
        return _Handler(*args, directory=str(folder), **kwargs)

    try:
        server = ThreadingHTTPServer((host, port), handler)
    except OSError as err:
        raise UsageError("cannot serve on %s:%d: %s" % (host, port, err.strerror or err))
    server.verbose = verbose
    return server


def parse_args(argv):
    p = argparse.ArgumentParser(prog=PROG, description="Build or serve the board's web page.")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="assemble the site into a folder")
    b.add_argument("--out", default=str(DEFAULT_OUT), help="the folder (default build/web)")
    s = sub.add_parser("serve", help="serve a built site on localhost")
    s.add_argument("--dir", default=str(DEFAULT_OUT), help="the folder (default build/web)")
    s.add_argument("--port", type=int, default=DEFAULT_PORT, help="default %d" % DEFAULT_PORT)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "build":
            names = build(args.out)
            size = sum((Path(args.out) / n).stat().st_size for n in names)
            print("Built the board's page in %s: %d files, %d KB" % (args.out, len(names),
                                                                    size // 1024))
            return 0
        server = make_server(args.dir, args.port, verbose=True)
        print("Serving %s at http://127.0.0.1:%d/ (Ctrl-C stops)" % (args.dir,
                                                                   server.server_address[1]),
              flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        return 0
    except (UsageError, DeployError) as err:
        sys.stderr.write("%s: %s\n" % (PROG, err))
        return 2


if __name__ == "__main__":
    sys.exit(main())
