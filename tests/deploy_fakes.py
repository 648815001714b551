"""Fakes for the deploy tests: a repository, CIRCUITPY drives, a CircuitPython mpy-cross,
and Adafruit's release storage as a local HTTP server (nothing reaches the internet).
"""

from __future__ import annotations

import hashlib
import importlib.util
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# The tool's parts, for the tests to reach (and patch) where they live.
# (F401: for the tests, from here)
from tools.deployer import drives, manifest, mpy_fetch, report, sources  # noqa: F401  (see above)
from tools.deployer import boot_out as boot_file  # noqa: F401  (see above)
from tools.deployer import plan as planning  # noqa: F401  (see above)
from tools.deployer import write as writing  # noqa: F401  (see above)

TOOL = Path(__file__).resolve().parent.parent / "tools" / "deploy.py"
_spec = importlib.util.spec_from_file_location("cribbage_deploy_tool", TOOL)
assert _spec and _spec.loader
deploy = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = deploy
_spec.loader.exec_module(deploy)  # its parts import as tools.deployer.*

MANIFEST = manifest.MANIFEST_NAME

# What an earlier deploy put in /lib besides the app, when the firmware still
# used Adafruit's driver libraries (neopixel, then adafruit_ssd1306 and the
# adafruit_framebuf under it), each listed in that deploy's manifest: stand-ins
# for their sources, and the .mpy copies a default deploy made of them.
OLD_DRIVER_FILES = {
    "lib/neopixel.py": b"import adafruit_pixelbuf\nclass NeoPixel: pass\n",
    "lib/adafruit_ssd1306.py": (b"from adafruit_framebuf import FrameBuffer\n"
                                b"class SSD1306_I2C: pass\n"),
    "lib/adafruit_framebuf.py": b"class FrameBuffer: pass\n",
}

REPO_FILES = {
    "code.py": b"import lib.app\nlib.app.run()\n",
    "font5x8.bin": bytes(range(256)) * 5,
    "engine/__init__.py": b"",
    "engine/rules.py": b"def score(hand):\n    return 0\n",
    "engine/extra.py": b"X = 1\n",
    "lib/__init__.py": b"",
    "lib/app.py": b"from engine import rules\n\ndef run():\n    pass\n",
    "lib/ui/__init__.py": b"",
    "lib/ui/screen.py": b"W = 128\n",
    "boards/__init__.py": (b"CONFIGS = ('raspberry_pi_pico', 'raspberry_pi_pico_w',"
                           b" 'raspberry_pi_pico2')\n"),
    "boards/hardware.py": b"def build(config):\n    import neopixel_write\n",
    "boards/raspberry_pi_pico.py": b"STRIP_PIN = 'GP0'\n",
    "boards/raspberry_pi_pico_w.py": b"STRIP_PIN = 'GP0'\n",
    "boards/raspberry_pi_pico2.py": b"STRIP_PIN = 'GP0'\n",
}
# Present in the repository but never deployed.
NOT_DEPLOYED = {
    "boards/sim/__init__.py": b"SIM = True\n",
    "boards/sim/board.py": b"class SimBoard: pass\n",
    "boards/sim/dev.py": b"KEYS = {}\n",
    "engine/rules.pyi": b"def score(hand: list) -> int: ...\n",
    "engine/__main__.py": b"import argparse\n",
    "engine/__pycache__/rules.cpython-311.pyc": b"\x00junk",
    "lib/.hidden.py": b"",
    "tests/test_rules.py": b"def test(): pass\n",
    "tools/sim.py": b"print('sim')\n",
    "README.md": b"# readme\n",
    "requirements.txt": b"pytest\n",
}


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def lay_out_earlier_deploy(drive: Path, files: dict[str, bytes]) -> None:
    """`files` on the drive as an earlier deploy left them: written, and listed with
    their hashes in its manifest."""
    write_tree(drive, files)
    (drive / MANIFEST).write_bytes(manifest.manifest_bytes(
        {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}))


def make_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    write_tree(repo, {**REPO_FILES, **NOT_DEPLOYED})
    return repo


def boot_out(version: str = "9.2.1", board: str = "raspberry_pi_pico") -> str:
    return (
        f"Adafruit CircuitPython {version} on 2024-11-20; Raspberry Pi Pico with rp2040\n"
        f"Board ID:{board}\nUID:E6614C311B4B6E2B\n"
    )


def make_drive(parent: Path, name: str = "CIRCUITPY", text: str | None = None) -> Path:
    drive = parent / name
    drive.mkdir(parents=True)
    if text is None:
        text = boot_out()
    if text:
        (drive / "boot_out.txt").write_text(text)
    return drive


def files_of(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() or p.is_symlink()
    }


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every path under root with its content (files) and mtime."""
    out = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        data = p.read_bytes() if p.is_file() and not p.is_symlink() else b""
        out[p.relative_to(root).as_posix()] = (data, st.st_mtime_ns)
    return out


def expected_files() -> dict[str, bytes]:
    """What a deploy of the fake repository puts on the board: its firmware, nothing else."""
    return dict(REPO_FILES)


def written(out: str) -> list[str]:
    return [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote ")]


def run(repo: Path, drive: Path | None, *extra: str) -> int:
    """A deploy of .py sources (--py), unless the test names its --mpy-cross: the
    default, fetching mpy-cross, has its own tests with a local server."""
    argv = ["--source", str(repo)]
    if drive is not None:
        argv += ["--target", str(drive)]
    if "--mpy-cross" not in extra:
        argv.append("--py")
    return deploy.main([*argv, *extra])


def closed_port() -> int:
    """A local port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def assert_refused(capsys, *words: str) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("deploy"), err
    for word in words:
        assert word in err, err
    return err


# --- mpy-cross and where it is published -------------------------------------

# Answers --version like CircuitPython's mpy-cross; "compiles" by writing the .mpy
# header ("C", version 6), the source's name and its text: a plausible .mpy whose
# content tells which source it came from.
FAKE_MPY_CROSS = """#!{python}
import sys
args = sys.argv[1:]
if args == ["--version"]:
    print("{banner}")
    sys.exit(0)
out = args[args.index("-o") + 1]
name = args[args.index("-s") + 1] if "-s" in args else ""
src = args[-1]
data = open(src, "rb").read()
if b"SYNTAX ERROR" in data:
    sys.stderr.write("Traceback...\\n  File \\"%s\\", line 1\\n"
                     "SyntaxError: invalid syntax\\n" % name)
    sys.exit(1)
open(out, "wb").write({magic!r} + name.encode() + b"|" + data)
"""


def banner(version: str) -> str:
    return f"CircuitPython {version} on 2025-10-17; mpy-cross emitting mpy v6.3"


def fake_mpy_cross_script(version: str = "9.2.1", magic: bytes = b"C\x06",
                          says: str | None = None) -> bytes:
    text = FAKE_MPY_CROSS.format(python=sys.executable, banner=says or banner(version), magic=magic)
    return text.encode()


def write_fake_mpy_cross(path: Path, version: str = "9.2.1", **kwargs) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(fake_mpy_cross_script(version, **kwargs))
    path.chmod(0o755)
    return path


def fake_compiled(rel: str, data: bytes) -> bytes:
    return b"C\x06" + rel.encode() + b"|" + data


def compiled_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """What the fake mpy-cross makes of `files` (target path -> bytes): every .py
    but code.py becomes .mpy."""
    out = {}
    for rel, data in files.items():
        if rel.endswith(".py") and rel != "code.py":
            out[rel[:-3] + ".mpy"] = fake_compiled(rel, data)
        else:
            out[rel] = data
    return out


class Storage:
    """Adafruit's release storage, played by an HTTP server on 127.0.0.1: `files`
    maps a URL path to its bytes (or to (bytes, the Content-Length to claim), for a
    download that breaks off, or to an int, an HTTP status); anything else is a 404.
    `requests` lists the paths asked for."""

    def __init__(self) -> None:
        self.files: dict[str, object] = {}
        self.requests: list[str] = []
        storage = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server's name
                storage.requests.append(self.path)
                entry = storage.files.get(self.path, 404)
                if isinstance(entry, int):
                    self.send_error(entry)
                    return
                body, length = entry if isinstance(entry, tuple) else (entry, None)
                self.send_response(200)
                self.send_header("Content-Length", str(len(body) if length is None else length))
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/bin/mpy-cross"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
