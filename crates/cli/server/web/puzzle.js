"use strict";
// The puzzle page: open, paste or generate a puzzle, mark cells, and ask the server (the
// command line's `hint` and `check`) for the next step or the wrong cells.
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// Board geometry, in the SVG's own units: a cell, and the margins for counts and names.
const C = 40, LEFT = 40, TOP = 40, RIGHT = 26, BOTTOM = 26, PAD = 5;
const OPEN = 0, WATER = 1, SHIP = 2;

const S = {
  entry: null,      // {id, group, problem, lengths}: the puzzle as the server gives it
  w: 0, h: 0,
  clue: [],         // per cell: null or the clue's symbol (~ * o < > ^ v m #)
  marks: [],        // per cell: OPEN, WATER or SHIP
  undo: [], redo: [],
  hint: null,       // the last hint: {key, step}, filled in by a second press
  wrong: new Set(), // cells Check or Hint found wrong
  lit: new Set(),   // the cells of the hint shown
  cursor: 0,
  elapsed: 0, since: null, solved: false,
  busy: 0, drag: null,
};
// What the end-to-end test reads.
window.broadside = {
  get busy() { return S.busy > 0; },
  marks: () => S.marks.join(""),
  lit: () => [...S.lit].map(name).sort(),
  wrong: () => [...S.wrong].map(name).sort(),
  get solved() { return S.solved; },
  get message() { return $("message").textContent; },
};

function columnName(c) {
  let s = "";
  for (;;) {
    s = String.fromCharCode(65 + (c % 26)) + s;
    if (c < 26) return s;
    c = Math.floor(c / 26) - 1;
  }
}
const name = (i) => columnName(i % S.w) + (Math.floor(i / S.w) + 1);
function cellOf(nm) {
  const m = /^([A-Z]+)(\d+)$/.exec(nm);
  if (!m) return -1;
  let c = 0;
  for (const ch of m[1]) c = c * 26 + (ch.charCodeAt(0) - 64);
  return (Number(m[2]) - 1) * S.w + (c - 1);
}
const isShipClue = (s) => s !== null && s !== "~" && s !== "#";
// What is known of a cell: a clue first, then the mark.
function known(i) {
  const s = S.clue[i];
  if (s === null) return S.marks[i];
  return isShipClue(s) ? SHIP : WATER;
}
function at(r, c) {
  return r < 0 || c < 0 || r >= S.h || c >= S.w ? WATER : known(r * S.w + c);
}

function showError(text) { $("error").textContent = text || ""; }
function say(html) { $("message").innerHTML = html; }
function esc(t) { return String(t).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]); }

// ---- the server ---------------------------------------------------------------------------

async function call(method, path, body) {
  S.busy++;
  try {
    const response = await fetch(path, body === undefined ? { method } : { method, body });
    const text = await response.text();
    if (!response.ok) throw new Error(text.trim() || `${response.status}`);
    return text;
  } finally {
    S.busy--;
  }
}
const callJson = async (method, path, body) => JSON.parse(await call(method, path, body));

// The puzzle with the marks as its progress, in broadside's JSON format.
function withProgress() {
  const p = Object.assign({}, S.entry.problem);
  delete p.solution;
  const rows = [];
  for (let r = 0; r < S.h; r++) {
    rows.push(S.marks.slice(r * S.w, (r + 1) * S.w).map((m) => ".~*"[m]).join(""));
  }
  p.progress = rows;
  return JSON.stringify(p);
}

// ---- opening a puzzle ---------------------------------------------------------------------

// A short key for a puzzle's content (not its name), under which its progress is kept.
function keyOf(entry) {
  const p = entry.problem;
  const text = JSON.stringify([p.width, p.height, p.rules, entry.lengths || p.fleet, p.rows, p.cols, p.grid || []]);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(36);
}

function open(entry, hash) {
  saveNow();
  const p = entry.problem;
  S.entry = entry;
  S.w = p.width; S.h = p.height;
  S.clue = [];
  for (let r = 0; r < S.h; r++) {
    const row = p.grid ? [...p.grid[r].replace(/\s/g, "")] : [];
    for (let c = 0; c < S.w; c++) S.clue.push(row[c] && row[c] !== "." ? row[c] : null);
  }
  // Digital Battleships: a digit on each cell, and the lines' numbers sums of digits.
  S.digits = p.digits ? p.digits.flatMap((row) => [...row.replace(/\s/g, "")].map(Number)) : null;
  S.key = keyOf(entry);
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem("broadside.progress." + S.key) || "null"); } catch (e) { /* a damaged record: start afresh */ }
  const given = p.progress ? p.progress.join("") : null;
  const marks = given || (kept && kept.marks) || "";
  S.marks = Array.from({ length: S.w * S.h }, (_, i) => ({ "~": WATER, "*": SHIP }[marks[i]] || OPEN));
  S.elapsed = (!given && kept && kept.elapsed) || 0;
  S.solved = !given && !!(kept && kept.solved);
  S.since = S.solved ? null : performance.now();
  S.undo = []; S.redo = []; S.hint = null; S.wrong = new Set(); S.lit = new Set(); S.cursor = 0;
  const label = p.name || entry.id || "a puzzle";
  $("pname").textContent = `${label} · ${p.width}x${p.height}` + (entry.group ? ` · ${entry.group}` : "");
  $("pgrade").textContent = "";
  $("catalogue").value = entry.id || "";
  say(S.solved ? "Solved. Clear to solve it again." : "");
  showError("");
  $("exported").hidden = true;
  localStorage.setItem("broadside.puzzle.last", JSON.stringify({ entry: stripped(entry) }));
  if (hash !== undefined) history.replaceState(null, "", hash ? "#" + hash : location.pathname);
  draw();
  tick();
  grade();
}

function stripped(entry) {
  const e = Object.assign({}, entry, { problem: Object.assign({}, entry.problem) });
  delete e.problem.progress;
  return e;
}

async function grade() {
  const key = S.key;
  try {
    const g = await callJson("POST", "/api/grade", withProgress());
    if (key === S.key && g.grade) $("pgrade").textContent = `· ${g.grade}`;
  } catch (e) { /* a puzzle the rules do not take has no grade: nothing to show */ }
}

async function openBundled(id) {
  try {
    const entry = await callJson("GET", "/api/puzzle?id=" + encodeURIComponent(id));
    open(entry, "id=" + encodeURIComponent(id));
  } catch (e) { showError(e.message); }
}

async function openText(text) {
  try {
    const entry = await callJson("POST", "/api/puzzle", text);
    let hash = "";
    if (/^\s*https?:\/\//.test(text) && !text.trim().includes("\n")) hash = "url=" + encodeURIComponent(text.trim());
    open(entry, hash);
    if (!hash) shareable();
  } catch (e) { showError(e.message); }
}

// Puts a puzz.link URL of the puzzle in the address bar, when it has one, so that a reload
// or a bookmark opens it again.
async function shareable() {
  try {
    const url = (await call("POST", "/api/convert?to=puzlink", JSON.stringify(stripped(S.entry).problem))).trim();
    history.replaceState(null, "", "#url=" + encodeURIComponent(url));
  } catch (e) { /* not every puzzle has a puzz.link URL: the page keeps it in local storage */ }
}

async function generate() {
  const size = $("gsize").value.trim();
  if (!/^\d+\s*[xX]\s*\d+$/.test(size)) { showError(`size: expected WxH, e.g. 10x10, found "${size}"`); return; }
  if (!$("gseed").value.trim()) $("gseed").value = String(Math.floor(Math.random() * 1e6));
  const q = new URLSearchParams({ size: size.replace(/\s/g, ""), difficulty: $("gdiff").value, seed: $("gseed").value.trim() });
  if ($("gfleet").value.trim()) q.set("fleet", $("gfleet").value.trim());
  // A digital puzzle's numbers are sums the rules do not grade: any grade.
  if ($("gdigital").checked) { q.set("digital", "1"); q.set("difficulty", "any"); }
  say("Generating a puzzle with a unique solution…");
  showError("");
  $("generate").disabled = true;
  try {
    const entry = await callJson("POST", "/api/generate?" + q);
    open(entry, "");
    shareable();
    $("gseed").value = "";
  } catch (e) {
    say("");
    showError(e.message);
  } finally {
    $("generate").disabled = false;
  }
}

async function fillCatalogue() {
  const list = await callJson("GET", "/api/puzzles");
  const sel = $("catalogue");
  sel.textContent = "";
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "choose a puzzle…";
  sel.appendChild(none);
  const groups = new Map();
  for (const p of list) {
    if (!groups.has(p.group)) {
      const g = document.createElement("optgroup");
      g.label = p.group;
      groups.set(p.group, g);
      sel.appendChild(g);
    }
    const o = document.createElement("option");
    o.value = p.id;
    o.textContent = `${p.name} (${p.size})`;
    groups.get(p.group).appendChild(o);
  }
}

// ---- keeping progress ---------------------------------------------------------------------

function elapsed() { return S.elapsed + (S.since === null ? 0 : performance.now() - S.since); }
function saveNow() {
  if (!S.entry) return;
  const record = { marks: S.marks.map((m) => ".~*"[m]).join(""), elapsed: elapsed(), solved: S.solved };
  try { localStorage.setItem("broadside.progress." + S.key, JSON.stringify(record)); } catch (e) { /* storage full: the page goes on */ }
}
function clock(ms) {
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m % 60)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}
function tick() { $("timer").textContent = clock(elapsed()); }
setInterval(tick, 1000);
document.addEventListener("visibilitychange", () => {
  if (document.hidden && S.since !== null) { S.elapsed = elapsed(); S.since = null; saveNow(); }
  else if (!document.hidden && !S.solved && S.entry) S.since = performance.now();
});
window.addEventListener("pagehide", saveNow);

// ---- drawing ------------------------------------------------------------------------------

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// The ship piece at (x, y): `kind` is o (alone), < > ^ v (an end, the ship going the other
// way), m (a middle), or * (not known yet); `along` says a middle's direction (h or v) and
// `open` the sides where a ship cell joins it.
function piece(g, x, y, kind, joins, fill) {
  const r = C / 2 - PAD, cx = x + C / 2, cy = y + C / 2;
  const L = joins.left ? x : x + PAD, R = joins.right ? x + C : x + C - PAD;
  const T = joins.up ? y : y + PAD, B = joins.down ? y + C : y + C - PAD;
  switch (kind) {
    case "o": return el("circle", { cx, cy, r, fill }, g);
    case "<": return el("path", { d: `M${x + C} ${y + PAD}H${cx}A${r} ${r} 0 0 0 ${cx} ${y + C - PAD}H${x + C}Z`, fill }, g);
    case ">": return el("path", { d: `M${x} ${y + PAD}H${cx}A${r} ${r} 0 0 1 ${cx} ${y + C - PAD}H${x}Z`, fill }, g);
    case "^": return el("path", { d: `M${x + PAD} ${y + C}V${cy}A${r} ${r} 0 0 1 ${x + C - PAD} ${cy}V${y + C}Z`, fill }, g);
    case "v": return el("path", { d: `M${x + PAD} ${y}V${cy}A${r} ${r} 0 0 0 ${x + C - PAD} ${cy}V${y}Z`, fill }, g);
    case "m": return el("rect", { x: L, y: T, width: R - L, height: B - T, fill }, g);
    default: return el("rect", { x: L, y: T, width: R - L, height: B - T, rx: 4, fill }, g);
  }
}

// The shape a ship cell takes from its neighbours: a given segment keeps its own; a marked
// one (or a '*' clue) is a whole one-cell ship when water closes it on every side, an end or
// a middle where its neighbours say so, and a plain square while they do not.
function shapeOf(i) {
  const r = Math.floor(i / S.w), c = i % S.w, s = S.clue[i];
  const ship = (rr, cc) => at(rr, cc) === SHIP;
  const shut = (rr, cc) => at(rr, cc) === WATER;
  const joins = { left: ship(r, c - 1), right: ship(r, c + 1), up: ship(r - 1, c), down: ship(r + 1, c) };
  if (s && "o<>^vm".includes(s)) {
    const dir = { "<": { right: true }, ">": { left: true }, "^": { down: true }, v: { up: true } }[s] || {};
    const m = s === "m" ? (joins.left || joins.right ? { left: true, right: true } : joins.up || joins.down ? { up: true, down: true } : {}) : {};
    return { kind: s, joins: Object.assign({}, joins, dir, m) };
  }
  const h = joins.left || joins.right, v = joins.up || joins.down;
  let kind = "*";
  if (!h && !v && shut(r, c - 1) && shut(r, c + 1) && shut(r - 1, c) && shut(r + 1, c)) kind = "o";
  else if (h && !v) kind = joins.left && joins.right ? "m" : joins.right ? (shut(r, c - 1) ? "<" : "*") : (shut(r, c + 1) ? ">" : "*");
  else if (v && !h) kind = joins.up && joins.down ? "m" : joins.down ? (shut(r - 1, c) ? "^" : "*") : (shut(r + 1, c) ? "v" : "*");
  return { kind, joins };
}

function wave(g, x, y, stroke) {
  const y0 = y + C / 2, a = C * 0.1;
  el("path", {
    d: `M${x + C * 0.2} ${y0}q${a} ${-a} ${2 * a} 0t${2 * a} 0t${2 * a} 0`,
    fill: "none", stroke, "stroke-width": 2.2, "stroke-linecap": "round",
  }, g);
}

// Ship cells per line (their digits' sum in Digital Battleships), and whether each line's
// number is met, exceeded, or out of reach.
function lineState(cells, count) {
  if (count === null || count === undefined) return "";
  let ships = 0, open = 0;
  const weight = (i) => (S.digits ? S.digits[i] : 1);
  for (const i of cells) { const k = known(i); if (k === SHIP) ships += weight(i); else if (k === OPEN) open += weight(i); }
  if (ships > count || ships + open < count) return "over";
  return ships === count ? "met" : "";
}

function draw() {
  const svg = $("board");
  svg.textContent = "";
  const W = LEFT + S.w * C + RIGHT, H = TOP + S.h * C + BOTTOM;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.style.maxWidth = `${Math.max(20, Math.min(46, W / 12))}em`;
  const p = S.entry.problem;
  const grid = el("g", {}, svg);
  for (let i = 0; i < S.w * S.h; i++) {
    const x = LEFT + (i % S.w) * C, y = TOP + Math.floor(i / S.w) * C;
    const s = S.clue[i], k = known(i);
    let bg = "#fff";
    if (s === "#") bg = "#5b6470";
    else if (k === WATER) bg = s === "~" ? "#cfe3f3" : "#e4f0fa";
    if (S.wrong.has(i)) bg = "#f9d4d4";
    else if (S.lit.has(i)) bg = "#fff2b3";
    const cell = el("rect", { x, y, width: C, height: C, fill: bg, class: "cell", "data-cell": name(i) }, grid);
    cell.dataset.state = k === SHIP ? "ship" : k === WATER ? "water" : "open";
    // A digit takes the cell's middle: water is its tint alone.
    if (s === "~" && !S.digits) wave(grid, x, y, "#27507a");
    else if (k === WATER && s === null && !S.digits) wave(grid, x, y, "#7aa7cf");
    if (k === SHIP) {
      const sh = shapeOf(i);
      piece(grid, x, y, sh.kind, sh.joins, s === null ? (S.wrong.has(i) ? "#b3262d" : "#2f6db5") : "#1b1f24");
    }
    if (S.digits) {
      const d = el("text", { x: x + C / 2, y: y + C / 2, class: "digit", fill: k === SHIP ? "#fff" : "#1b1f24",
        "text-anchor": "middle", "dominant-baseline": "central" }, grid);
      d.textContent = S.digits[i];
    }
  }
  // The grid lines over the cells, the outer frame heavier.
  const lines = el("g", { stroke: "#8d96a0", "stroke-width": 1 }, svg);
  for (let c = 0; c <= S.w; c++) el("line", { x1: LEFT + c * C, y1: TOP, x2: LEFT + c * C, y2: TOP + S.h * C }, lines);
  for (let r = 0; r <= S.h; r++) el("line", { x1: LEFT, y1: TOP + r * C, x2: LEFT + S.w * C, y2: TOP + r * C }, lines);
  el("rect", { x: LEFT, y: TOP, width: S.w * C, height: S.h * C, fill: "none", stroke: "#1b1f24", "stroke-width": 2.5 }, svg);
  // Marks over the lines: the hint's cells and the keyboard's cursor.
  for (const i of S.lit) {
    el("rect", { x: LEFT + (i % S.w) * C + 2, y: TOP + Math.floor(i / S.w) * C + 2, width: C - 4, height: C - 4, fill: "none", stroke: "#d49a00", "stroke-width": 3.5, rx: 3 }, svg);
  }
  for (const i of S.wrong) {
    el("rect", { x: LEFT + (i % S.w) * C + 2, y: TOP + Math.floor(i / S.w) * C + 2, width: C - 4, height: C - 4, fill: "none", stroke: "#c0262d", "stroke-width": 3.5, rx: 3 }, svg);
  }
  if (document.activeElement === svg) {
    const i = S.cursor;
    el("rect", { x: LEFT + (i % S.w) * C + 1, y: TOP + Math.floor(i / S.w) * C + 1, width: C - 2, height: C - 2, fill: "none", stroke: "#111", "stroke-width": 2, "stroke-dasharray": "5 3" }, svg);
  }
  // The counts (left and top) and the names (right and bottom).
  const text = (x, y, t, cls) => { const e = el("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" }, svg); e.textContent = t; return e; };
  for (let r = 0; r < S.h; r++) {
    const cells = Array.from({ length: S.w }, (_, c) => r * S.w + c);
    const n = p.rows && p.rows.length ? p.rows[r] : undefined;
    if (n !== undefined) text(LEFT / 2, TOP + r * C + C / 2, n === null ? "?" : n, "count " + lineState(cells, n)).dataset.line = `row ${r + 1}`;
    text(LEFT + S.w * C + RIGHT / 2, TOP + r * C + C / 2, r + 1, "name");
  }
  for (let c = 0; c < S.w; c++) {
    const cells = Array.from({ length: S.h }, (_, r) => r * S.w + c);
    const n = p.cols && p.cols.length ? p.cols[c] : undefined;
    if (n !== undefined) text(LEFT + c * C + C / 2, TOP / 2, n === null ? "?" : n, "count " + lineState(cells, n)).dataset.line = `column ${columnName(c)}`;
    text(LEFT + c * C + C / 2, TOP + S.h * C + BOTTOM / 2, columnName(c), "name");
  }
  drawFleet();
  $("undo").disabled = !S.undo.length;
  $("redo").disabled = !S.redo.length;
}

// The whole ships on the board: straight runs of ship cells closed by water (or the edge) on
// every side, by length.
function wholeShips() {
  const seen = new Set(), found = [];
  for (let i = 0; i < S.w * S.h; i++) {
    if (known(i) !== SHIP || seen.has(i)) continue;
    const r = Math.floor(i / S.w), c = i % S.w;
    const right = at(r, c + 1) === SHIP, down = at(r + 1, c) === SHIP;
    if (right && down) continue;
    const [dr, dc] = down ? [1, 0] : [0, 1];
    const cells = [];
    let rr = r, cc = c;
    while (at(rr, cc) === SHIP && rr < S.h && cc < S.w) { cells.push([rr, cc]); seen.add(rr * S.w + cc); rr += dr; cc += dc; }
    const closed = cells.every(([a, b]) => [[a - 1, b], [a + 1, b], [a, b - 1], [a, b + 1]].every(([x, y]) =>
      cells.some(([p, q]) => p === x && q === y) || at(x, y) === WATER));
    if (closed) found.push(cells.length);
  }
  return found;
}

function drawFleet() {
  const box = $("fleet");
  box.textContent = "";
  const lengths = S.entry.lengths;
  if (!lengths) { box.textContent = `fleet: ${S.entry.problem.fleet}`; return; }
  const done = new Map();
  for (const n of wholeShips()) done.set(n, (done.get(n) || 0) + 1);
  const wanted = new Map();
  for (const n of lengths) wanted.set(n, (wanted.get(n) || 0) + 1);
  const u = 16;
  for (const n of lengths) {
    const complete = (done.get(n) || 0) > 0;
    if (complete) done.set(n, done.get(n) - 1);
    const svg = el("svg", { viewBox: `0 0 ${n * u + 2} ${u + 2}`, width: n * u + 2, height: u + 2, class: complete ? "ship done" : "ship" });
    svg.dataset.length = n;
    for (let k = 0; k < n; k++) {
      const kind = n === 1 ? "o" : k === 0 ? "<" : k === n - 1 ? ">" : "m";
      const g = el("g", { transform: `translate(${1 + k * u} 1) scale(${u / C})` }, svg);
      piece(g, 0, 0, kind, { left: k > 0, right: k < n - 1 }, complete ? "#9aa3ad" : "#1b1f24");
    }
    box.appendChild(svg);
  }
  const extra = [...done].filter(([n, k]) => k > 0).map(([n, k]) => `${k} whole ship${k > 1 ? "s" : ""} of ${n}`);
  if (extra.length) {
    const p = document.createElement("p");
    p.className = "bad";
    p.textContent = `The fleet has no room for ${extra.join(" and ")}.`;
    box.appendChild(p);
  }
}

// ---- marking ------------------------------------------------------------------------------

function cellAt(ev) {
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const q = pt.matrixTransform(svg.getScreenCTM().inverse());
  const c = Math.floor((q.x - LEFT) / C), r = Math.floor((q.y - TOP) / C);
  return r >= 0 && c >= 0 && r < S.h && c < S.w ? r * S.w + c : -1;
}

function nextMark(m, backwards) {
  const mode = $("tapmode").value;
  if (mode === "ship" && !backwards) return m === SHIP ? OPEN : SHIP;
  if (mode === "water" && !backwards) return m === WATER ? OPEN : WATER;
  return backwards ? [WATER, OPEN, SHIP][m] : [SHIP, WATER, OPEN][m];
}

function setMarks(changes) {
  const before = S.marks.slice();
  let changed = false;
  for (const [i, m] of changes) {
    if (S.clue[i] === null && S.marks[i] !== m) { S.marks[i] = m; changed = true; }
  }
  if (changed) { S.undo.push(before); S.redo = []; edited(); }
  return changed;
}

function edited() {
  S.hint = null;
  S.wrong = new Set();
  S.lit = new Set();
  showError("");
  if (S.solved) { S.solved = false; S.since = performance.now(); }
  saveNow();
  draw();
  if (S.marks.every((m, i) => m !== OPEN || S.clue[i] !== null)) check(true);
}

function pointerDown(ev) {
  const i = cellAt(ev);
  $("board").focus({ preventScroll: true });
  if (i < 0) return;
  S.cursor = i;
  ev.preventDefault();
  if (S.clue[i] !== null) { draw(); return; }
  const back = ev.button === 2 || ev.ctrlKey;
  S.drag = { mark: nextMark(S.marks[i], back), before: S.marks.slice(), last: i };
  S.marks[i] = S.drag.mark;
  $("board").setPointerCapture(ev.pointerId);
  draw();
}

function pointerMove(ev) {
  if (!S.drag) return;
  const i = cellAt(ev);
  if (i < 0 || i === S.drag.last) return;
  S.drag.last = i;
  if (S.clue[i] === null && S.marks[i] !== S.drag.mark) { S.marks[i] = S.drag.mark; draw(); }
}

function pointerUp() {
  const d = S.drag;
  if (!d) return;
  S.drag = null;
  if (d.before.some((m, i) => m !== S.marks[i])) { S.undo.push(d.before); S.redo = []; edited(); }
}

function undo() {
  if (!S.undo.length) return;
  S.redo.push(S.marks);
  S.marks = S.undo.pop();
  edited();
}
function redo() {
  if (!S.redo.length) return;
  S.undo.push(S.marks);
  S.marks = S.redo.pop();
  edited();
}

function key(ev) {
  if (!S.entry || ev.target.matches("input, textarea, select")) return;
  const k = ev.key.toLowerCase(), ctrl = ev.ctrlKey || ev.metaKey;
  if (ctrl && k === "z") { ev.preventDefault(); return ev.shiftKey ? redo() : undo(); }
  if (ctrl && k === "y") { ev.preventDefault(); return redo(); }
  if (ctrl || ev.altKey) return;
  if (k === "h") return hint();
  if (k === "c") return check(false);
  if (document.activeElement !== $("board")) return;
  const r = Math.floor(S.cursor / S.w), c = S.cursor % S.w;
  const move = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[k];
  if (move) {
    ev.preventDefault();
    S.cursor = Math.min(S.h - 1, Math.max(0, r + move[0])) * S.w + Math.min(S.w - 1, Math.max(0, c + move[1]));
    return draw();
  }
  const mark = { s: SHIP, x: SHIP, 1: SHIP, w: WATER, ".": WATER, 2: WATER, 0: OPEN, delete: OPEN, backspace: OPEN }[k];
  if (mark !== undefined) { ev.preventDefault(); return setMarks([[S.cursor, mark]]); }
  if (k === " " || k === "enter") { ev.preventDefault(); return setMarks([[S.cursor, nextMark(S.marks[S.cursor], false)]]); }
}

// ---- hints and checks ---------------------------------------------------------------------

const progressKey = () => S.marks.join("");
const cellWords = (names) => names.join(" ");

function noSolution(r) {
  say(`<b>This puzzle has no solution.</b> ${r.reasons.map((x) => "Because " + esc(x) + ".").join(" ")}`);
}

function solvedNow() {
  if (!S.solved) { S.elapsed = elapsed(); S.since = null; S.solved = true; saveNow(); tick(); }
  say(`<b>Solved</b> in ${clock(S.elapsed)}.`);
  draw();
}

async function hint() {
  if (!S.entry) return;
  // A second press fills in the step the first one showed.
  if (S.hint && S.hint.key === progressKey()) {
    const st = S.hint.step;
    const changes = st.ship.map((n) => [cellOf(n), SHIP]).concat(st.water.map((n) => [cellOf(n), WATER]));
    setMarks(changes);
    if (!S.solved && $("message").textContent === "") say(`Filled in: ${esc(stepCells(st))}.`);
    return;
  }
  const askedFor = progressKey();
  let r;
  try {
    r = await callJson("POST", "/api/hint", withProgress());
  } catch (e) { showError(e.message); return; }
  if (askedFor !== progressKey()) return;
  S.wrong = new Set(); S.lit = new Set();
  if (r.solutions === 0) noSolution(r);
  else if (r.mistakes.length || r.conflict) {
    const cells = r.mistakes.length ? r.mistakes : [r.conflict];
    S.wrong = new Set(cells.map(cellOf));
    say(r.mistakes.length
      ? `<b>${esc(cells[0])} is wrong</b>: no solution has ${S.marks[cellOf(cells[0])] === SHIP ? "a ship" : "water"} there. Fix it first.`
      : `<b>${esc(r.conflict)} does not fit</b> any solution together with the marks before it. Fix it first.`);
  } else if (r.solved) {
    solvedNow();
    return;
  } else if (r.step) {
    const st = r.step;
    S.lit = new Set(st.ship.concat(st.water).map(cellOf));
    S.hint = { key: askedFor, step: st };
    const head = st.search ? "No rule applies here" : `Tier ${st.tier} · ${esc(st.rule)}`;
    say(`<b>${head}</b>: ${esc(st.text)}. <span class="then">So: ${esc(stepCells(st))}.</span> <span class="note">Press Hint again to fill ${st.ship.length + st.water.length === 1 ? "it" : "them"} in.</span>`);
  }
  draw();
}

function stepCells(st) {
  const parts = [];
  if (st.ship.length) parts.push(`ship ${cellWords(st.ship)}`);
  if (st.water.length) parts.push(`water ${cellWords(st.water)}`);
  return parts.join("; ");
}

async function check(quiet) {
  if (!S.entry) return;
  const askedFor = progressKey();
  let r;
  try {
    r = await callJson("POST", "/api/check", withProgress());
  } catch (e) { showError(e.message); return; }
  if (askedFor !== progressKey()) return;
  S.lit = new Set();
  S.wrong = new Set(r.mistakes.concat(r.conflict ? [r.conflict] : []).map(cellOf));
  if (r.solutions === 0) noSolution(r);
  else if (r.solved) return solvedNow();
  else if (r.mistakes.length) say(`<b>${r.mistakes.length} wrong cell${r.mistakes.length > 1 ? "s" : ""}</b>, marked in red: ${esc(cellWords(r.mistakes))}.`);
  else if (r.conflict) say(`Every mark fits some solution, but <b>${esc(r.conflict)}</b> fits none together with the marks before it.`);
  else if (!quiet) say(`<b>Correct so far</b>: ${r.marked} cell${r.marked === 1 ? "" : "s"} marked, ${r.open} to go.`);
  draw();
}

// ---- files --------------------------------------------------------------------------------

function download(filename, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function downloadProgress() {
  try {
    const text = await call("POST", "/api/convert?to=text", withProgress());
    const base = (S.entry.problem.name || "puzzle").replace(/[^\w.-]+/g, "-");
    download(`${base}-progress.txt`, "text/plain", text);
  } catch (e) { showError(e.message); }
}

async function exportUrl() {
  try {
    const url = (await call("POST", "/api/convert?to=puzlink", JSON.stringify(stripped(S.entry).problem))).trim();
    const box = $("exported");
    box.value = url;
    box.hidden = false;
    box.select();
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(() => say("The puzz.link URL is copied."), () => {});
  } catch (e) { showError(e.message); }
}

// ---- start --------------------------------------------------------------------------------

const board = $("board");
board.addEventListener("pointerdown", pointerDown);
board.addEventListener("pointermove", pointerMove);
board.addEventListener("pointerup", pointerUp);
board.addEventListener("pointercancel", pointerUp);
board.addEventListener("contextmenu", (e) => e.preventDefault());
board.addEventListener("focus", () => S.entry && draw());
board.addEventListener("blur", () => S.entry && draw());
document.addEventListener("keydown", key);
$("hint").addEventListener("click", hint);
$("check").addEventListener("click", () => check(false));
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("clear").addEventListener("click", () => {
  if (S.marks.some((m) => m !== OPEN) && confirm("Clear every mark?")) setMarks(S.marks.map((_, i) => [i, OPEN]));
});
$("load").addEventListener("click", () => $("catalogue").value && openBundled($("catalogue").value));
$("catalogue").addEventListener("change", () => $("catalogue").value && openBundled($("catalogue").value));
$("generate").addEventListener("click", generate);
$("openpaste").addEventListener("click", () => openText($("paste").value));
$("download").addEventListener("click", downloadProgress);
$("export").addEventListener("click", exportUrl);

(async function start() {
  try { await fillCatalogue(); } catch (e) { showError(e.message); }
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("id")) return openBundled(hash.get("id"));
  if (hash.get("url")) return openText(hash.get("url"));
  let last = null;
  try { last = JSON.parse(localStorage.getItem("broadside.puzzle.last") || "null"); } catch (e) { /* start afresh */ }
  if (last && last.entry) return open(last.entry);
  return openBundled("8x8/luke-1.txt");
})();
