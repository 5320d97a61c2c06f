"use strict";
const $ = (id) => document.getElementById(id);

// Integers past 2^53 keep every digit (read from the JSON text), so the page shows exactly
// what the engine counted.
function parseExact(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value) && context && context.source
      ? BigInt(context.source) : value);
}

function columnName(c) {
  let s = "";
  for (;;) {
    s = String.fromCharCode(65 + (c % 26)) + s;
    if (c < 26) return s;
    c = Math.floor(c / 26) - 1;
  }
}

function parseSize(text) {
  const m = /^\s*(\d+)\s*[xX]\s*(\d+)\s*$/.exec(text);
  return m ? { w: Number(m[1]), h: Number(m[2]) } : null;
}

// The ship types a sunk report may name: straight lengths, or the names a fleet gives.
function shipTypes(fleet) {
  const types = [];
  for (const word of fleet.trim().split(/\s+/)) {
    const m = /^(\d+)x(\S+)$/.exec(word);
    const t = m ? m[2] : word;
    if (t && !types.includes(t)) types.push(t);
  }
  return types;
}

const state = {
  setup: null,        // {size, fleet, rules, sinking, w, h}
  shots: [],          // record lines, in order
  match: null,        // {id, yours, theirShots, record, owed, firing, catching, over, theirs}
  seq: 0,
  busy: false,
  clickStart: null,
};
// What the end-to-end test reads: click-to-screen times (ms) and whether an update is pending.
window.broadside = {
  timings: [],
  get busy() { return state.busy || Boolean(state.match && (state.match.catching || state.match.firing.size)); },
  record: () => recordText(),
};

function recordText() {
  const s = state.setup;
  let text = `size: ${s.size}\nfleet: ${s.fleet}\nrules: ${s.rules}\nsinking: ${s.sinking}\n`;
  if (state.shots.length) text += "shots:\n" + state.shots.join("\n") + "\n";
  return text;
}

function shotAt() {
  const at = new Map();
  for (const line of state.shots) {
    const [cell, result] = line.split(/\s+/);
    at.set(cell.toUpperCase(), result.toLowerCase());
  }
  return at;
}

function buildTable(table, w, h, onClick) {
  table.textContent = "";
  const head = table.insertRow();
  head.appendChild(document.createElement("th"));
  for (let c = 0; c < w; c++) {
    const th = document.createElement("th");
    th.textContent = columnName(c);
    head.appendChild(th);
  }
  for (let r = 0; r < h; r++) {
    const row = table.insertRow();
    const th = document.createElement("th");
    th.textContent = String(r + 1);
    row.appendChild(th);
    for (let c = 0; c < w; c++) {
      const td = row.insertCell();
      const name = columnName(c) + (r + 1);
      td.id = table.id + "-" + name;
      td.dataset.cell = name;
      td.tabIndex = 0;
      if (onClick) {
        td.addEventListener("click", () => onClick(name));
        td.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onClick(name); });
      }
    }
  }
}

function heatColour(t) {
  const stops = [[0, [24, 32, 72]], [0.25, [33, 113, 181]], [0.5, [65, 182, 160]], [0.75, [250, 220, 80]], [1, [215, 48, 39]]];
  t = Math.min(1, Math.max(0, t));
  let i = 0;
  while (i < stops.length - 2 && stops[i + 1][0] <= t) i++;
  const [p0, a] = stops[i], [p1, b] = stops[i + 1];
  const u = (t - p0) / (p1 - p0);
  const rgb = a.map((x, k) => Math.round(x + (b[k] - x) * u));
  return { css: `rgb(${rgb.join(",")})`, light: 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 150 };
}

function percent(p) {
  const v = Math.round(p * 100);
  return p > 0 && v === 0 ? "<1" : String(v);
}

function withCommas(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function showError(text) { $("error").textContent = text || ""; }

// Draws the shots, and the map when there is one.
function render(answer) {
  const s = state.setup, at = shotAt();
  const showHeat = $("heat").checked && answer && answer.counts;
  let maxOpen = 0, best = [];
  if (showHeat) {
    for (let r = 0; r < s.h; r++) for (let c = 0; c < s.w; c++) {
      const name = columnName(c) + (r + 1);
      if (at.has(name)) continue;
      const n = answer.counts[r][c];
      if (best.length === 0 || n > answer.counts[best[0][0]][best[0][1]]) best = [[r, c]];
      else if (n === answer.counts[best[0][0]][best[0][1]]) best.push([r, c]);
      maxOpen = Math.max(maxOpen, answer.probabilities[r][c]);
    }
    if (best.length && answer.counts[best[0][0]][best[0][1]] == 0) best = [];
    if (!answer.complete) best = [];
  }
  const isBest = new Set(best.map(([r, c]) => columnName(c) + (r + 1)));
  for (let r = 0; r < s.h; r++) for (let c = 0; c < s.w; c++) {
    const name = columnName(c) + (r + 1);
    const td = $("board-" + name);
    const result = at.get(name);
    td.className = "";
    td.style.background = "";
    td.style.color = "";
    if (showHeat) {
      td.dataset.count = String(answer.counts[r][c]);
      td.dataset.p = String(answer.probabilities[r][c]);
    } else {
      delete td.dataset.count;
      delete td.dataset.p;
    }
    if (result) {
      td.classList.add("shot");
      if (result !== "miss") td.classList.add("hit");
      td.textContent = result === "miss" ? "~" : result === "hit" ? "*" : "S";
      td.title = `${name}: ${result}`;
    } else if (showHeat) {
      const p = answer.probabilities[r][c];
      const col = heatColour(maxOpen > 0 ? p / maxOpen : 0);
      td.style.background = col.css;
      td.style.color = col.light ? "#111" : "#fff";
      td.textContent = percent(p);
      td.title = `${name}: ${(p * 100).toFixed(2)}% (${withCommas(answer.counts[r][c])} layouts)`;
      if (isBest.has(name)) td.classList.add("best");
    } else {
      td.textContent = "";
      td.title = name;
    }
  }
  if (!answer || !answer.counts) {
    // No map for this board: nothing of an earlier board's stays on screen as if it were this one's.
    $("layouts").textContent = "";
    delete $("layouts").dataset.layouts;
    $("best").textContent = "";
  }
  if (answer && answer.counts) {
    $("layouts").textContent = `${withCommas(answer.layouts)} layout${answer.layouts == 1 ? "" : "s"} consistent with ${state.shots.length} shot${state.shots.length === 1 ? "" : "s"}`
      + ` [${answer.engine} engine]` + (answer.complete ? "" : " (partial: lower bounds)");
    $("layouts").dataset.layouts = String(answer.layouts);
    $("best").textContent = best.length
      ? `· best shot: ${[...isBest].join(" ")} (${percent(answer.probabilities[best[0][0]][best[0][1]])}%)` : "";
  }
  $("record").textContent = state.match ? state.match.record : recordText();
  if (state.match && state.match.theirs) {
    // The computer's fleet shown at the end: the ship cells not fired at drawn as ships (as
    // on your board), over the map's colours; those fired at keep their marks.
    const theirs = state.match.theirs;
    for (let row = 0; row < s.h; row++) for (let c = 0; c < s.w; c++) {
      const name = columnName(c) + (row + 1);
      if (theirs[row][c] === "." || at.has(name)) continue;
      const td = $("board-" + name);
      td.className = "ship";
      td.style.background = "";
      td.style.color = "";
      td.textContent = "";
      td.title = `${name}: a ship not found`;
    }
  }
}

// Asks the server for the exact map of the current record and draws it.
async function refresh() {
  const seq = ++state.seq;
  state.busy = true;
  try {
    const response = await fetch("/api/probs", { method: "POST", body: recordText() });
    const text = await response.text();
    if (seq !== state.seq) return;
    if (!response.ok) throw new Error(text.trim());
    const answer = parseExact(text);
    if (!answer.counts) {
      throw new Error(answer.message || answer.reason || "no map");
    }
    showError("");
    render(answer);
    state.answer = answer;
  } catch (e) {
    if (seq !== state.seq) return;
    // A shot that cannot be true is refused: the record goes back to where it was.
    if (!state.match && state.pending) {
      state.shots.pop();
      showError(`refused ${state.pending}: ${e.message}`);
      render(state.answer);
    } else {
      // Before any shot, "no layout is consistent with these shots" is the board's fault.
      const why = state.shots.length ? e.message
        : e.message.replace("no layout is consistent with these shots", "no layout of this fleet fits this board");
      showError(why);
      render(null);
    }
  } finally {
    if (seq === state.seq) {
      state.pending = null;
      const start = state.clickStart;
      state.clickStart = null;
      requestAnimationFrame(() => {
        if (start !== null) window.broadside.timings.push(performance.now() - start);
        if (seq === state.seq) state.busy = false;
      });
    }
  }
}

function readSetup() {
  const size = $("size").value.trim(), d = parseSize(size);
  if (!d) { showError(`size: expected WxH, e.g. 10x10, found "${size}"`); return null; }
  // Refused before a table of a million cells is drawn: broadside takes up to 4096 cells.
  if (d.w < 1 || d.h < 1 || d.w * d.h > 4096) {
    showError(`size: ${d.w}x${d.h} is not supported (1 to 4096 cells, each side at least 1)`);
    return null;
  }
  return { size: `${d.w}x${d.h}`, w: d.w, h: d.h, fleet: $("fleet").value.trim(), rules: $("rules").value, sinking: $("sinking").value };
}

function fillShips() {
  const ship = $("ship");
  ship.textContent = "";
  for (const t of shipTypes(state.setup.fleet)) {
    const o = document.createElement("option");
    o.textContent = t;
    o.value = t;
    ship.appendChild(o);
  }
}

function newBoard() {
  const setup = readSetup();
  if (!setup) return;
  state.setup = setup;
  state.shots = [];
  state.match = null;
  state.answer = null;
  $("marks").hidden = false;
  $("ownwrap").hidden = true;
  $("title").textContent = "Shots";
  $("message").textContent = "";
  fillShips();
  buildTable($("board"), setup.w, setup.h, clickCell);
  refresh();
}

function clickCell(name) {
  if (state.match) return fire(name);
  if (shotAt().has(name)) { showError(`${name} was fired at already (Undo takes the last shot back)`); return; }
  const mark = document.querySelector("input[name=mark]:checked").value;
  let line = `${name} ${mark}`;
  if (mark === "sunk") {
    line += ` ${$("ship").value}`;
    if (state.setup.sinking === "revealed") {
      const cells = prompt(`The sunk ship's cells, ${name} among them (e.g. ${name} ...):`, name);
      if (cells === null) return;
      line += " " + cells.trim();
    }
  }
  state.clickStart = performance.now();
  state.shots.push(line);
  state.pending = line;
  refresh();
}

function undo() {
  if (state.match) { showError("a shot in a match cannot be taken back"); return; }
  if (!state.shots.length) return;
  state.shots.pop();
  state.clickStart = performance.now();
  refresh();
}

// Play against the computer: it hides a fleet, you fire at it; it fires back at yours.
async function startMatch() {
  const setup = readSetup();
  if (!setup) return;
  const body = `size: ${setup.size}\nfleet: ${setup.fleet}\nrules: ${setup.rules}\nsinking: ${setup.sinking}\n`;
  state.busy = true;
  const response = await fetch(`/api/match?shooter=${encodeURIComponent($("shooter").value)}`, { method: "POST", body });
  const text = await response.text();
  if (!response.ok) { showError(text.trim()); state.busy = false; return; }
  const m = JSON.parse(text);
  state.setup = setup;
  state.shots = [];
  state.answer = null;
  state.match = { id: m.id, yours: m.yours, theirShots: [], record: m.record, owed: 0, firing: new Set() };
  $("marks").hidden = true;
  $("ownwrap").hidden = false;
  $("title").textContent = "The computer's fleet: click to fire";
  const chosen = $("shooter").selectedOptions[0];
  $("message").textContent = `You against the computer, ${chosen ? chosen.textContent : $("shooter").value}: you fire first.`;
  buildTable($("board"), setup.w, setup.h, clickCell);
  buildTable($("own"), setup.w, setup.h, null);
  drawOwn();
  refresh();
}

function drawOwn() {
  const s = state.setup, m = state.match;
  const fired = new Map(m.theirShots.map((line) => { const [c, r] = line.split(/\s+/); return [c, r]; }));
  for (let r = 0; r < s.h; r++) for (let c = 0; c < s.w; c++) {
    const name = columnName(c) + (r + 1);
    const td = $("own-" + name);
    const ship = m.yours[r][c] !== ".";
    const result = fired.get(name);
    td.className = ship ? "ship" : "";
    if (result && result !== "miss") td.classList.add("hit");
    td.textContent = result ? (result === "miss" ? "o" : "X") : "";
    td.title = name;
  }
  // The computer's last shot outlined, so that its answers are seen to land.
  if (m.theirShots.length) {
    const last = m.theirShots[m.theirShots.length - 1].split(/\s+/)[0];
    $("own-" + last).classList.add("last");
    $("own-" + last).title = `${last}: the computer's last shot`;
  }
}

// Your shots are answered at once: the computer's answers to them come as it chooses them
// (it learns nothing from your shots, nor you from its), and the match is settled by the two
// sides' counts of shots once it has answered every shot of yours it has to.
async function fire(name) {
  const m = state.match;
  // Over, or your shots sank its fleet and only its answers are to come (the message says so).
  if (m.over || answersOnly(m)) return;
  if (shotAt().has(name) || m.firing.has(name)) { showError(`${name} was fired at already`); return; }
  state.clickStart = performance.now();
  m.firing.add(name);
  let response, text;
  try {
    response = await fetch(`/api/match/fire?id=${m.id}&cell=${name}&wait=0`, { method: "POST" });
    text = await response.text();
  } finally {
    m.firing.delete(name);
  }
  if (state.match !== m) return;
  if (!response.ok) {
    // A shot that crossed the computer's winning answer on the way is refused: the end says so.
    if (!m.over) showError(text.trim());
    return;
  }
  showError("");
  applyMatch(JSON.parse(text));
  await refresh();
  catchUp(m);
}

// Asks for the computer's answers still owed, one request at a time, until none is.
async function catchUp(m) {
  if (m.catching) return;
  m.catching = true;
  try {
    while (state.match === m && !m.over && m.owed > 0) {
      const response = await fetch(`/api/match/replies?id=${m.id}`, { method: "POST" });
      const text = await response.text();
      if (!response.ok) { showError(text.trim()); break; }
      if (state.match !== m) break;
      const before = state.shots.length;
      applyMatch(JSON.parse(text));
      if (state.shots.length !== before) await refresh();
    }
  } finally {
    m.catching = false;
  }
}

// Whether your shots have sunk the computer's fleet and only its answers to your shots before
// the last are still to come (it answers every shot of yours but one that sinks its fleet).
function answersOnly(m) {
  return !m.over && m.owed > 0 && m.owed === state.shots.length - 1 - m.theirShots.length;
}

// Takes a match's state from the server: both sides' shots, what is owed, and the end.
function applyMatch(r) {
  const m = state.match;
  // An answer older than one already drawn (requests overlap) is dropped.
  if (!r.winner && r.your_shots.length + r.computer_shots.length < state.shots.length + m.theirShots.length) return;
  state.shots = r.your_shots;
  m.theirShots = r.computer_shots;
  m.owed = r.owed;
  m.record = r.record;
  drawOwn();
  const you = state.shots.length, it = m.theirShots.length;
  let msg = you ? `You: ${state.shots[you - 1]}.` : "";
  if (it) msg += ` The computer: ${m.theirShots[it - 1]}.`;
  if (r.winner) {
    m.over = true;
    m.theirs = r.theirs;
    showError("");
    msg += r.winner === "you" ? ` You sank its fleet first in ${you} shots: you win!`
      : ` It sank your fleet first in ${it} shots: the computer wins.`;
    if (r.voided) msg += ` (Your ${r.voided} shot${r.voided === 1 ? "" : "s"} after its last ${r.voided === 1 ? "does" : "do"} not count.)`;
  } else if (answersOnly(m)) {
    msg += ` You sank its fleet in ${you} shots; the computer has ${m.owed} shot${m.owed === 1 ? "" : "s"} left to sink yours first...`;
  } else if (m.owed > 0) {
    msg += ` The computer is thinking (${m.owed} shot${m.owed === 1 ? "" : "s"} behind)...`;
  }
  $("message").textContent = msg.trim();
}

function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

$("new").addEventListener("click", newBoard);
$("play").addEventListener("click", startMatch);
$("undo").addEventListener("click", undo);
$("heat").addEventListener("change", () => render(state.answer));
$("download").addEventListener("click", () => download("broadside-game.txt", "text/plain", state.match ? state.match.record : recordText()));
$("svg").addEventListener("click", async () => {
  const response = await fetch("/api/svg", { method: "POST", body: recordText() });
  const text = await response.text();
  if (!response.ok) { showError(text.trim()); return; }
  download("broadside-heat.svg", "image/svg+xml", text);
});
// The computer's shooters, from the one table the server reads their words with.
async function loadShooters() {
  const response = await fetch("/api/shooters");
  if (!response.ok) return;
  const { offered } = await response.json();
  const select = $("shooter");
  const chosen = select.value;
  select.replaceChildren(...offered.map((o) => {
    const option = document.createElement("option");
    option.value = o.word;
    option.textContent = o.label;
    option.title = o.summary;
    option.selected = o.word === chosen;
    return option;
  }));
}
loadShooters();
newBoard();
