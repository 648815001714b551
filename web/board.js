// The cribbage board in a page: the board's own firmware on MicroPython's
// WebAssembly port, over the stand-ins for CircuitPython's C modules.
// This file only moves bytes: it writes the firmware into MicroPython's file
// system, runs the board's loop on the page's clock, turns clicks and keys into
// keypad presses, and paints what the strips' data pins and the OLED's display
// RAM received. The game itself is the firmware's (webboard.py is the glue).
// With ?held-clock in the address the board's clock stands still until
// cribbageBoard.advance(ms) moves it: tests read the board at a known moment.

import { loadMicroPython } from "./micropython.mjs";

const facts = JSON.parse(document.getElementById("board-facts").textContent);
const STORE = "cribbage-board/";   // localStorage: the flash and the number of tracks
const ROOT = "/board";             // the page's CIRCUITPY
const $ = (id) => document.getElementById(id);

const stats = { started: null, firstFrame: null, lastTick: null, keys: [] };
let py = null;          // webboard, once the firmware runs
let board = null;       // the board's facts from the firmware: pins, layout
let clockZero = 0;
const HELD_CLOCK = new URLSearchParams(location.search).has("held-clock");
let heldNow = 0;        // the board's clock when it is held
let lastKeyAt = null;   // the board's clock at the last key
let strips = [];        // per track: [r, g, b] per LED, as received
let oledRam = new Uint8Array(1024);
let pegsJson = "";      // where the game has its pegs, as webboard.pegs() said last
let pegs = [];          // per track with a side: [front hole, back hole] (0: off the board)
let storageProblem = null;

// ---- the page before the firmware runs: keypad, notes, choices

function buildKeypad() {
  const pad = $("keypad");
  for (const key of facts.keyLegend) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "key " + (/[0-9]/.test(key) ? "digit" : /[A-D]/.test(key) ? "letter" : "step");
    button.dataset.key = key;
    button.textContent = key;
    const note = facts.keyNotes[key];
    button.setAttribute("aria-label", note ? key + ": " + note : key);
    button.setAttribute("aria-keyshortcuts", key);
    if (note) button.title = note;
    button.disabled = true;
    button.addEventListener("click", (event) => keyPressed(key, event.timeStamp));
    pad.appendChild(button);
  }
  const notes = $("key-notes");
  for (const key of "ABCD*#01") {
    const item = document.createElement("li");
    const name = document.createElement("kbd");
    name.textContent = key;
    item.append(name, " " + facts.keyNotes[key]);
    notes.appendChild(item);
  }
}

function buildTrackChoice() {
  const field = $("track-choice");
  const chosen = chosenTracks();
  for (const n of facts.trackChoices) {
    const label = document.createElement("label");
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "tracks";
    radio.value = String(n);
    radio.checked = n === chosen;
    radio.addEventListener("change", () => {
      remember("tracks", String(n));
      location.reload();  // the board restarts with its flash, as after a power cut
    });
    label.append(radio, " " + n);
    field.appendChild(label);
  }
}

// ---- localStorage: the flash survives a reload as it survives a power cut

function recall(name) {
  try {
    return localStorage.getItem(STORE + name);
  } catch (err) {
    storageProblem = err;
    return null;
  }
}

function remember(name, value) {
  try {
    if (value === null) localStorage.removeItem(STORE + name);
    else localStorage.setItem(STORE + name, value);
    return true;
  } catch (err) {
    if (!storageProblem) {
      storageProblem = err;
      say("problem", "This browser keeps nothing for the page (" + err.message +
          "): the game lasts until the page is closed. Download the state to keep it.");
    }
    return false;
  }
}

function chosenTracks() {
  const n = parseInt(recall("tracks"), 10);
  return facts.trackChoices.includes(n) ? n : facts.defaultTracks;
}

// ---- starting the firmware

function base64Bytes(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function hexBytes(hex) {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function bytesHex(bytes) {
  let hex = "";
  for (const b of bytes) hex += (b < 16 ? "0" : "") + b.toString(16);
  return hex;
}

function writeFiles(FS, files) {
  const made = new Set();
  const folder = (path) => {
    let at = "";
    for (const part of path.split("/").slice(1, -1)) {
      at += "/" + part;
      if (!made.has(at)) {
        try { FS.mkdir(at); } catch (err) { /* there already */ }
        made.add(at);
      }
    }
  };
  for (const [rel, data] of files) {
    const path = ROOT + "/" + rel;
    folder(path);
    FS.writeFile(path, data);
  }
}

async function start() {
  stats.started = performance.now();
  const [mp, firmware] = await Promise.all([
    loadMicroPython({ stdout: (line) => console.log(line), stderr: (line) => console.error(line) }),
    fetch(facts.firmware).then((r) => {
      if (!r.ok) throw new Error(facts.firmware + ": " + r.status);
      return r.json();
    }),
  ]);
  const files = firmware.files.map(([rel, data]) => [rel, base64Bytes(data)]);
  let saved = recall("nvm");
  if (saved && !new RegExp("^[0-9a-f]{" + 2 * facts.nvmSize + "}$").test(saved)) {
    // Not a flash image (edited by hand?): kept aside, never silently dropped.
    remember("nvm-unreadable", saved);
    remember("nvm", null);
    say("problem", "The flash kept in this browser was not a " + facts.nvmSize + "-byte " +
        "image, so the board starts fresh; the old text is kept in localStorage as " +
        STORE + "nvm-unreadable.");
    saved = null;
  }
  if (saved) files.push(["nvm.hex", saved]);
  files.push(["settings.toml", facts.tracksSetting + " = " + chosenTracks() + "\n"]);
  writeFiles(mp.FS, files);
  mp.runPython([
    "import sys",
    "sys.path.insert(0, '" + ROOT + "/mpstubs')",
    "sys.path.insert(0, '" + ROOT + "/lib')",
    "sys.path.insert(0, '" + ROOT + "')",
    "import os",
    "os.chdir('" + ROOT + "')",
    "import cpshims",
    "import webboard",
  ].join("\n"));
  py = mp.pyimport("webboard");
  board = JSON.parse(py.start());
  clockZero = performance.now();
  setUpTracks();
  for (const button of document.querySelectorAll("#keypad button")) button.disabled = false;
  for (const id of ["download", "load", "erase", "download-stats"]) $(id).disabled = false;
  const notice = sessionStorage.getItem(STORE + "notice");
  if (notice) {
    sessionStorage.removeItem(STORE + "notice");
    say("notice", notice);
  }
  loop();
}

function clock() {
  return HELD_CLOCK ? heldNow : Math.floor(performance.now() - clockZero);
}

// ---- the loop: one pass of the board's loop a frame, on the real clock

function loop() {
  stats.lastTick = clock();
  try {
    show(py.tick(stats.lastTick));
  } catch (err) {  // the app catches its own errors: this is the page's, and it stops here
    console.error(err);
    say("problem", "The board stopped: " + err.message + ". Reload the page to restart it.");
    return;
  }
  requestAnimationFrame(loop);
}

const OLED = 1, STRIPS = 2, FLASH = 4;  // webboard's answers, bit by bit

function show(changed) {
  let redraw = false;
  if (changed & STRIPS) {
    strips = py.strips_hex().split(",").map(decodeStrip);
    redraw = true;
  }
  if (changed) {
    const now = py.pegs();
    if (now !== pegsJson) {
      pegsJson = now;
      pegs = JSON.parse(now);
      redraw = true;
    }
  }
  if (redraw) drawTracks();
  if (changed & OLED) {
    oledRam = hexBytes(py.oled_hex());
    drawOled();
    const text = unicodeSuits(py.oled_text());
    if ($("oled-text").textContent !== text) $("oled-text").textContent = text;
    if (stats.firstFrame === null) {
      stats.firstFrame = performance.now();
      performance.mark("board-first-frame");
      const started = $("loading");
      started.textContent = "The board started in " + (stats.firstFrame / 1000).toFixed(1) +
          " s (MicroPython " + facts.micropython + ").";
    }
  }
  if (changed & FLASH) remember("nvm", py.flash_hex());
}

function keyPressed(key, timeStamp) {
  if (!py) return;
  const button = document.querySelector('#keypad [data-key="' + CSS.escape(key) + '"]');
  button.classList.add("down");
  setTimeout(() => button.classList.remove("down"), 120);
  say("key-note", "");
  lastKeyAt = clock();
  stats.lastTick = lastKeyAt;
  const changed = py.press(key, lastKeyAt);
  show(changed);
  const drawn = performance.now();
  const entry = { key, drawn: drawn - timeStamp, shown: null, oled: !!(changed & OLED) };
  stats.keys.push(entry);
  if (stats.keys.length > 500) stats.keys.shift();
  requestAnimationFrame(() => { entry.shown = performance.now() - timeStamp; });
}

// A typed character: its key, or what the terminal simulator says of one that
// is no key. Named keys (arrows, Tab, Enter) and a space (it presses a focused
// button, or scrolls) are the browser's.
function laptopKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (event.key.length !== 1 || /\s/.test(event.key)) return;
  const key = event.key.toUpperCase();
  if (facts.keyLegend.includes(key)) {
    event.preventDefault();
    keyPressed(key, event.timeStamp);
  } else if (py) {
    const quoted = event.key === "'" ? '"\'"' : "'" + event.key + "'";  // as Python's repr
    say("key-note", facts.noKey.replace("%s", quoted));
  }
}

// ---- the OLED: 128x64 pixels from the panel's display RAM

function drawOled() {
  const canvas = $("oled");
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(128, 64);
  const [r, g, b] = facts.oledOn;
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      const on = (oledRam[(y >> 3) * 128 + x] >> (y & 7)) & 1;
      const i = 4 * (y * 128 + x);
      image.data[i] = on ? r : 0;
      image.data[i + 1] = on ? g : 0;
      image.data[i + 2] = on ? b : 0;
      image.data[i + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

function unicodeSuits(text) {
  let out = "";
  for (const ch of text) {
    const i = facts.suitGlyphs.indexOf(ch);
    out += i >= 0 ? facts.suitSymbols[i] : ch;
  }
  return out;
}

// ---- the tracks: every hole lit in the colour its LED received

function decodeStrip(hex) {
  const wire = hexBytes(hex);
  const order = board.colorOrder;
  const [ri, gi, bi] = ["R", "G", "B"].map((c) => order.indexOf(c));
  const n = order.length;
  const leds = [];
  for (let i = 0; i + n <= wire.length; i += n) leds.push([wire[i + ri], wire[i + gi], wire[i + bi]]);
  return leds;
}

function holeColour(track, hole) {
  const leds = strips[track];
  const led = board.holeMap[hole - 1];
  return leds && leds[led] ? leds[led] : [0, 0, 0];
}

function litHoles() {
  const out = [];
  for (let t = 0; t < board.tracks; t++) {
    const lit = [];
    for (let hole = 1; hole <= board.holeMap.length; hole++) {
      const rgb = holeColour(t, hole);
      if (rgb[0] || rgb[1] || rgb[2]) lit.push([hole, rgb]);
    }
    out.push(lit);
  }
  return out;
}

// As tools/simulator/marks.display_colour: an LED's brightest channel rises from
// litFloor to 255 (at the board's brightest) on a cube-root curve, so the faint
// marks show, and the others keep their share of it, so a colour keeps its hue.
function displayColour(rgb, peak) {
  const top = Math.max(rgb[0], rgb[1], rgb[2]);
  if (!top) return facts.unlit;
  const level = facts.litFloor + (255 - facts.litFloor) * Math.cbrt(Math.min(top, peak) / peak);
  return rgb.map((c) => Math.round(c * level / top));
}

let geometry = null;

function setUpTracks() {
  geometry = { holes: board.holeMap.length };
  $("tracks").setAttribute("aria-label", board.tracks + " LED tracks of " + geometry.holes +
                           " holes; the scores are on the OLED");
  new ResizeObserver(drawTracks).observe($("tracks").parentElement);
  drawTracks();
}

const MIN_PITCH = 7;    // px between holes: below it, rows of half the board's length
const MIN_LABEL = 8;    // px: the letters and row numbers stay readable
const HOLE_R = 0.36;    // a hole's radius, and a peg's ring's, in pitches
const RING_R = 0.5;
const RING_PITCH = 18;  // the --png pictures' pitch: their rings' widths from it up

// Holes in rows of the board's ROW_LENGTH as on the wood (half rows only on a
// very narrow screen), a gap after every fifth, the game hole at the end of the
// last row: a phone's width still holds the board's rows of 30, so its whole
// board stays short enough to show with the OLED and the keys.
function layTracks(width) {
  const units = (row) => 2.2 + row + (row / 5 - 1) * 0.5 + 2.2;
  let row = board.rowLength;
  if (width / units(row) < MIN_PITCH && row % 2 === 0) row /= 2;
  const pitch = Math.max(6, Math.min(24, width / units(row)));
  const label = Math.max(MIN_LABEL, Math.round(pitch * 0.55));
  const gapY = Math.max(pitch * 0.9, label + 2);  // between rows: the row numbers go there
  return {
    holes: geometry.holes, row, rows: Math.floor((geometry.holes - 1) / row),
    pitch, gap: pitch * 0.5, left: pitch * 2, top: gapY, gapY, label,
    rowHeight: board.tracks * pitch + gapY,
  };
}

function holeX(g, along) {
  return g.left + along * g.pitch + Math.floor(along / 5) * g.gap + (along >= g.row ? g.pitch : 0);
}

function holeCentre(g, track, hole) {
  const index = Math.min(hole - 1, g.rows * g.row);
  let rowNo = Math.floor(index / g.row);
  let along = index % g.row;
  if (rowNo >= g.rows) { rowNo = g.rows - 1; along = g.row; }  // the game hole
  const y = g.top + rowNo * g.rowHeight + track * g.pitch + g.pitch / 2;
  return [holeX(g, along), y];
}

function drawTracks() {
  if (!geometry) return;
  const canvas = $("tracks");
  const width = canvas.parentElement.clientWidth - 16;
  const g = layTracks(width);
  const pitch = g.pitch;
  const height = Math.ceil(g.top + g.rows * g.rowHeight - g.gapY + pitch * 0.3);
  const scale = window.devicePixelRatio || 1;
  canvas.style.height = height + "px";
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.clearRect(0, 0, width, height);
  let peak = 1;
  for (const leds of strips) for (const rgb of leds) peak = Math.max(peak, rgb[0], rgb[1], rgb[2]);
  ctx.font = g.label + "px sans-serif";
  ctx.textBaseline = "middle";
  for (let r = 0; r < g.rows; r++) {
    ctx.fillStyle = "#dcc8aa";
    ctx.textAlign = "right";
    ctx.fillText(String(r * g.row + 1), g.left - pitch * 0.9, g.top + r * g.rowHeight - g.gapY / 2);
  }
  for (let t = 0; t < board.tracks; t++) {
    for (let r = 0; r < g.rows; r++) {
      ctx.fillStyle = "#fff0dc";
      ctx.textAlign = "left";
      ctx.fillText(facts.sideLetters[t] || String(t + 1), pitch * 0.3,
                   g.top + r * g.rowHeight + t * pitch + pitch / 2);
    }
    for (let hole = 1; hole <= g.holes; hole++) {
      const [x, y] = holeCentre(g, t, hole);
      const [cr, cg, cb] = displayColour(holeColour(t, hole), peak);
      ctx.beginPath();
      ctx.arc(x, y, pitch * HOLE_R, 0, 2 * Math.PI);
      ctx.fillStyle = "rgb(" + cr + "," + cg + "," + cb + ")";
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = "#28190e";
      ctx.stroke();
    }
  }
  // Rings round the pegs, as the --png pictures draw them: the front peg's bolder
  for (const [track, hole, part] of rings()) {
    const [[r, gr, b], width] = facts.rings[part];
    const [x, y] = holeCentre(g, track, hole);
    ctx.beginPath();
    ctx.arc(x, y, pitch * RING_R, 0, 2 * Math.PI);
    ctx.lineWidth = width * Math.max(1, pitch / RING_PITCH);
    ctx.strokeStyle = "rgb(" + r + "," + gr + "," + b + ")";
    ctx.stroke();
  }
  geometry.last = g;
}

// [track, hole, "front" or "back"] of each peg on the board, the back pegs first
function rings() {
  const out = [];
  for (const part of ["back", "front"]) {
    pegs.forEach(([front, back], track) => {
      const hole = part === "front" ? front : back;
      if (hole) out.push([track, hole, part]);
    });
  }
  return out;
}

// ---- the board's state: download, load, erase

function say(id, text) {
  const el = $(id);
  el.textContent = text;
  el.hidden = !text;
  if (id === "notice") $("problem").hidden = true;
}

function saveAs(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function download() {
  saveAs(new Blob([hexBytes(py.flash_hex())], { type: "application/octet-stream" }),
         "cribbage-board.nvm");
  say("notice", "Saved the board's flash (" + facts.nvmSize + " bytes) as cribbage-board.nvm: " +
      "tools/sim.py --state cribbage-board.nvm carries the game on.");
}

function downloadStats() {
  saveAs(new Blob([py.stats_json()], { type: "application/json" }), "cribbage-stats.json");
  say("notice", "Saved the board's statistics as cribbage-stats.json (tools/sim.py --json " +
      "gives the same figures as \"stats\").");
}

async function load(event) {
  const input = event.target;
  const file = input.files[0];
  input.value = "";  // the same file may be chosen again
  if (!file) return;
  let reason = "";
  if (file.size !== facts.nvmSize) {
    reason = "it is " + file.size + " bytes; a saved board is exactly " + facts.nvmSize;
  } else {
    reason = py.refusal(bytesHex(new Uint8Array(await file.arrayBuffer())));
  }
  if (reason) {
    say("problem", "Cannot load " + file.name + ": " + reason + ". The game on the board is unchanged.");
    return;
  }
  const image = bytesHex(new Uint8Array(await file.arrayBuffer()));
  if (remember("nvm", image)) {
    sessionStorage.setItem(STORE + "notice", "Loaded " + file.name + ": the board restarted from it.");
    location.reload();
  } else {
    say("problem", "Cannot load " + file.name + ": this browser keeps nothing for the page " +
        "(" + storageProblem.message + "). The game on the board is unchanged.");
  }
}

function erase() {
  if (!confirm("Erase the board's flash? The game on it is lost (download it first to keep it).")) return;
  remember("nvm", null);
  sessionStorage.setItem(STORE + "notice", "The flash was erased: a fresh board.");
  location.reload();
}

// ---- for scripts and tests: what the page shows, read back

window.cribbageBoard = {
  stats,
  ready: () => py !== null && stats.firstFrame !== null,
  litHoles,
  oledText: () => $("oled-text").textContent.split("\n"),
  oledRam: () => Array.from(oledRam),
  sinceKey: () => (lastKeyAt === null ? null : clock() - lastKeyAt),
  lastKeyAt: () => lastKeyAt,
  busy: () => py.busy(),
  flashHex: () => py.flash_hex(),
  holeCentre: (track, hole) => holeCentre(geometry.last, track, hole),
  ringRadius: () => geometry.last.pitch * RING_R,
  rings,
  // ?held-clock only: move the board's clock on by ms and run a pass of its loop;
  // whether an animation is still running
  advance: (ms) => {
    if (!HELD_CLOCK) throw new Error("the board's clock is not held (?held-clock)");
    heldNow += ms;
    stats.lastTick = heldNow;
    show(py.tick(heldNow));
    return py.busy();
  },
};

buildKeypad();
buildTrackChoice();
$("download").addEventListener("click", download);
$("download-stats").addEventListener("click", downloadStats);
$("load").addEventListener("change", load);
$("erase").addEventListener("click", erase);
document.addEventListener("keydown", laptopKey);
window.addEventListener("storage", (event) => {
  if (event.key === STORE + "nvm") {
    say("problem", "Another tab of this page changed the board's flash. Reload to carry on " +
        "from that game; a key pressed here writes this tab's game over it.");
  }
});
start().catch((err) => {
  console.error(err);
  $("loading").hidden = true;
  say("problem", "The board could not start: " + (err && err.message ? err.message : err));
});
