// ransom's analysis board: talks to the JSON API of `ransom serve`.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const $ = (id) => document.getElementById(id);

const state = {
  variant: "hostage",
  fen: "",
  moves: [],          // legal moves: {uci, san, fen}
  history: [],        // earlier positions, for Back and the path: {fen, san} (the move played from fen)
  pollTimer: null,    // the next reading of a running proof's numbers
  selected: null,     // {square} or {drop: letter, kind: "airfield" | "prison" | "pocket"}
  ticket: 0,          // the latest position load; older answers are dropped
  flipped: false,
  steps: null,        // mate or puzzle line: {start, steps: [{uci, san, fen}], at}
  mateLine: null,     // the streamed mate answer's main line (UCI), once shown
  mateTicket: 0,      // the latest mate search; a new position or search drops older answers
  lastMove: null,
};

function message(text) { $("message").textContent = text || ""; }

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function variantPath() { return `/v1/${encodeURIComponent(state.variant)}`; }

async function api(path, options) {
  const response = await fetch(path, options);
  let body;
  try { body = await response.json(); } catch (e) { body = { error: { code: "bad-response", message: String(e) } }; }
  if (!response.ok) throw failure(response, body);
  return body;
}

function failure(response, body) {
  const err = body && body.error ? body.error : { code: String(response.status), message: response.statusText };
  return new Error(`${err.code}: ${err.message}`);
}

// A streamed answer (JSON lines): `onLine` gets each line as it arrives.
async function apiLines(path, options, onLine) {
  const response = await fetch(path, options);
  if (!response.ok) {
    let body;
    try { body = await response.json(); } catch (e) { body = null; }
    throw failure(response, body);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim() !== "") onLine(JSON.parse(line));
    }
    if (done) break;
  }
  if (buffered.trim() !== "") onLine(JSON.parse(buffered));
}

// --- FEN reading (for drawing only; the server checks everything) ---
function parseBoard(fen) {
  const placement = fen.trim().split(/\s+/)[0] || "";
  const boardPart = placement.split("[")[0];
  const ranks = boardPart.split("/").slice(0, 8);
  const squares = {};
  ranks.forEach((rank, i) => {
    let file = 0;
    for (const ch of rank) {
      if (/\d/.test(ch)) { file += Number(ch); continue; }
      if (ch === "~") continue;
      const name = "abcdefgh"[file] + (8 - i);
      squares[name] = ch;
      file += 1;
    }
  });
  return squares;
}

function sideToMove(fen) { return (fen.trim().split(/\s+/)[1] || "w") === "b" ? "black" : "white"; }

// --- drawing ---
function squareNames() {
  const names = [];
  for (let r = 7; r >= 0; r--) for (let f = 0; f < 8; f++) names.push("abcdefgh"[f] + (r + 1));
  return state.flipped ? names.reverse() : names;
}

function pieceSpan(letter) {
  const span = document.createElement("span");
  const white = letter === letter.toUpperCase();
  span.className = "piece " + (white ? "white" : "black");
  span.textContent = GLYPH[letter.toLowerCase()] || "?";
  span.title = letter;
  return span;
}

function targetsOfSelection() {
  const sel = state.selected;
  if (!sel) return [];
  return state.moves.filter((m) => matchesSelection(m, sel)).map((m) => toSquare(m.uci));
}

function toSquare(uci) {
  const at = uci.indexOf("@");
  if (at >= 0) return uci.slice(at + 1, at + 3);
  return uci.slice(2, 4);
}

function matchesSelection(m, sel) {
  if (sel.square) return m.uci.slice(0, 2) === sel.square && !m.uci.includes("@");
  if (sel.drop) {
    // Airfield and pocket men drop (`N@f7`); a man in the opponent's prison
    // is rescued by an exchange (`N#B@f7`).
    const exchange = m.uci[1] === "#";
    return m.uci.includes("@") && m.uci[0].toUpperCase() === sel.drop.toUpperCase() &&
      exchange === (sel.kind === "prison");
  }
  return false;
}

function drawBoard() {
  const board = $("board");
  board.innerHTML = "";
  const squares = parseBoard(state.fen);
  const targets = new Set(targetsOfSelection());
  for (const name of squareNames()) {
    const div = document.createElement("div");
    const file = name.charCodeAt(0) - 97, rank = Number(name[1]) - 1;
    div.className = "square " + ((file + rank) % 2 ? "light" : "dark");
    div.dataset.square = name;
    if (state.selected && state.selected.square === name) div.classList.add("selected");
    if (targets.has(name)) div.classList.add("target");
    if (state.lastMove && state.lastMove.includes(name)) div.classList.add("last");
    if (squares[name]) div.appendChild(pieceSpan(squares[name]));
    div.addEventListener("click", () => clickSquare(name));
    board.appendChild(div);
  }
}

function holdingBox(label, letters, kind, side) {
  const box = document.createElement("div");
  box.className = `holding ${kind}`;
  box.dataset.side = side;
  const title = document.createElement("span");
  title.className = "label";
  title.textContent = label;
  box.appendChild(title);
  const men = document.createElement("div");
  men.className = "men";
  for (const letter of letters) {
    const span = pieceSpan(letter);
    span.classList.add("man");
    // Airfield men drop; the mover's own men in the opponent's prison are
    // rescued by exchanges (the chooser lists the men that can be paid).
    if (state.selected && state.selected.drop === letter && state.selected.kind === kind) span.classList.add("selected");
    span.addEventListener("click", () => selectDrop(letter, kind));
    men.appendChild(span);
  }
  box.appendChild(men);
  return box;
}

function drawHoldings(holdings) {
  const top = $("holdings-top"), bottom = $("holdings-bottom");
  top.innerHTML = ""; bottom.innerHTML = "";
  if (!holdings) return;
  const place = (side) => ((side === "white") !== state.flipped ? bottom : top);
  for (const side of ["white", "black"]) {
    const h = holdings[side] || {};
    const name = side[0].toUpperCase() + side.slice(1);
    if ("pocket" in h) place(side).appendChild(holdingBox(`${name} pocket`, h.pocket, "pocket", side));
    if ("airfield" in h) place(side).appendChild(holdingBox(`${name} airfield`, h.airfield, "airfield", side));
    if ("prison" in h) place(side).appendChild(holdingBox(`${name} prison`, h.prison, "prison", side));
  }
}

// --- moving ---
function clickSquare(name) {
  const sel = state.selected;
  if (sel) {
    const candidates = state.moves.filter((m) => matchesSelection(m, sel) && toSquare(m.uci) === name);
    if (candidates.length === 1) return playMove(candidates[0]);
    if (candidates.length > 1) return choose(candidates);
  }
  const fromHere = state.moves.some((m) => m.uci.slice(0, 2) === name && !m.uci.includes("@"));
  state.selected = fromHere ? { square: name } : null;
  $("chooser").hidden = true;
  drawBoard();
}

function selectDrop(letter, kind) {
  const own = sideToMove(state.fen) === "white" ? letter === letter.toUpperCase() : letter === letter.toLowerCase();
  if (!own) return;
  state.selected = { drop: letter, kind };
  redraw();
}

function choose(candidates) {
  const box = $("chooser");
  box.innerHTML = "";
  for (const m of candidates) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.san;
    b.dataset.uci = m.uci;
    b.addEventListener("click", () => playMove(m));
    box.appendChild(b);
  }
  box.hidden = false;
}

function playMove(m) {
  if (!m) return;
  state.history.push({ fen: state.fen, san: m.san });
  state.lastMove = [m.uci.slice(0, 2), toSquare(m.uci)];
  state.steps = null;
  $("stepper").hidden = true;
  setPosition(m.fen);
}

function playText(text) {
  const t = text.trim();
  const m = state.moves.find((x) => x.uci === t || x.san === t || x.san.replace(/[+#]$/, "") === t.replace(/[+#]$/, ""));
  if (!m) { message(`'${t}' is not a legal move here`); return; }
  playMove(m);
}

// --- loading positions ---
let holdingsCache = null;

function redraw() {
  drawBoard();
  drawHoldings(holdingsCache);
}

async function setPosition(fen, { keepSteps = false } = {}) {
  const ticket = ++state.ticket;
  // A new position: a mate search still running answers for the old one.
  if (!keepSteps) state.mateTicket++;
  message("");
  state.selected = null;
  $("chooser").hidden = true;
  try {
    const q = fen ? `?fen=${encodeURIComponent(fen)}` : "";
    const moves = await api(`${variantPath()}/moves${q}`);
    if (ticket !== state.ticket) return false;
    state.fen = moves.position.fen;
    state.moves = moves.moves;
    holdingsCache = moves.holdings;
    $("fen-input").value = state.fen;
    redraw();
    if (!keepSteps) {
      // A new position: the mate result and its line belong to the old one.
      state.steps = null;
      $("stepper").hidden = true;
      $("mate-result").textContent = "";
      $("mate-tree").textContent = "";
    }
    await analyse(ticket);
    if (ticket === state.ticket) await engineTurn(ticket);
    return ticket === state.ticket;
  } catch (e) {
    if (ticket === state.ticket) message(e.message);
    return false;
  }
}

// --- the explorer (GET /v1/{variant}/explorer?fen=...) ---
// `no-forced-win` names the sides that have none.
function resultText(r, sides) {
  return r === "no-forced-win" ? `no forced win for ${(sides || []).join(" or ")}` : r;
}
function sizeText(n) { return n === null || n === undefined ? "" : Number(n).toLocaleString("en"); }
function numbersText(open) { return open.map((o) => `${o.attacker[0]} ${o.pn}/${o.dn}`).join(", "); }

// How a move is for its mover: the result after it is the opponent's.
function moverClass(m) {
  const mine = m.same_side ? m.result : ({ win: "loss", loss: "win" })[m.result] || m.result;
  return `res-${mine}`;
}

// The moves played since the loaded position, each a link back to it.
function drawPath() {
  const nav = $("path");
  const parts = [`<a href="#" data-at="0">start</a>`].concat(state.history.map((h, i) =>
    `<a href="#" data-at="${i + 1}">${esc(h.san)}</a>`));
  nav.innerHTML = parts.join(" › ");
  nav.querySelectorAll("a").forEach((a) => a.addEventListener("click", (e) => {
    e.preventDefault();
    const at = Number(a.dataset.at);
    if (at >= state.history.length) return; // the position shown
    const target = state.history[at].fen;
    state.history = state.history.slice(0, at);
    state.lastMove = null;
    setPosition(target);
  }));
}

// What the store, the tables and the rules know about the position and
// after each move; the numbers of a proof running on it are read again
// every few seconds.
async function analyse(ticket) {
  const out = $("analysis");
  clearTimeout(state.pollTimer);
  drawPath();
  if (!out.dataset.fen || out.dataset.fen !== state.fen) out.textContent = "…";
  try {
    const a = await api(`${variantPath()}/explorer?fen=${encodeURIComponent(state.fen)}`);
    if (ticket !== state.ticket) return null;
    out.dataset.fen = state.fen;
    const moves = a.moves;
    const has = (f) => moves.some(f);
    const cols = [
      { name: "after it (opponent)", show: true, cell: (m) => `<td class="${moverClass(m)}">${esc(resultText(m.result, m.no_forced_win_for))}</td>` },
      { name: "proof size", show: has((m) => m.size !== null), cell: (m) => `<td class="num">${sizeText(m.size)}</td>` },
      { name: "dtw", show: has((m) => m.dtw !== null), cell: (m) => `<td class="num">${m.dtw ?? ""}</td>` },
      { name: "reply", show: has((m) => m.best_san), cell: (m) => `<td>${esc(m.best_san || "")}</td>` },
      { name: "pn/dn", show: has((m) => m.open.length > 0), cell: (m) => `<td>${esc(numbersText(m.open))}</td>` },
      { name: "source", show: has((m) => m.source !== "none"), cell: (m) => `<td>${esc(m.source)}</td>` },
    ].filter((c) => c.show);
    const rows = moves.map((m) =>
      `<tr class="move-row" data-uci="${esc(m.uci)}"><td>${esc(m.san)}</td>${cols.map((c) => c.cell(m)).join("")}</tr>`).join("");
    const over = a.position.outcome ? ` — game over: ${a.position.outcome}` : "";
    const size = a.size !== null ? `, proof size ${sizeText(a.size)}` : "";
    const best = a.best_san ? `, best ${esc(a.best_san)}` : "";
    const source = a.source !== "none" ? ` <small>source: ${esc(a.source)}${size}${best}${over}</small>` : (over ? ` <small>${over}</small>` : "");
    const numbers = a.open.length ? ` <small>open: ${esc(numbersText(a.open))}</small>` : "";
    const searches = a.searches.map((s) =>
      `<div class="search"><p>proof of ${esc(s.attacker)}'s win running: pn <b class="live">${s.pn}</b> dn <b class="live">${s.dn}</b>, ` +
      `${sizeText(s.nodes)} nodes, ${sizeText(s.outer_nodes)} outer nodes, ${sizeText(s.open_positions)} open</p>` +
      (s.frontier.length ? `<p><small>holding it back most:</small></p><ol class="frontier">${s.frontier.map((f) =>
        `<li>${esc(f.san.join(" "))} <small>pn ${f.pn} dn ${f.dn}, ${f.men} men</small></li>`).join("")}</ol>` : "") +
      `</div>`).join("");
    const stores = a.stores.length ? `<p class="stores"><small>store: ${a.stores.map((s) =>
      `${esc(s.dir)} (${sizeText(s.positions)} positions)`).join(", ")}</small></p>` : "";
    out.innerHTML = `<p id="verdict">${sideToMove(state.fen)} to move: <span class="res-${esc(a.result)}">${esc(resultText(a.result, a.no_forced_win_for))}</span>` +
      `${a.dtw !== null ? ` (dtw ${a.dtw})` : ""}${source}${numbers}</p>${searches}` +
      (moves.length ? `<table><thead><tr><th>move</th>${cols.map((c) => `<th>${c.name}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>` : "") +
      stores;
    out.querySelectorAll("tr.move-row").forEach((tr) =>
      tr.addEventListener("click", () => playMove(state.moves.find((m) => m.uci === tr.dataset.uci))));
    if (a.searches.length) {
      state.pollTimer = setTimeout(() => { if (ticket === state.ticket) analyse(ticket); }, 3000);
    }
    return a;
  } catch (e) {
    if (ticket === state.ticket) out.textContent = e.message;
    return null;
  }
}

// --- the engine (GET /v1/{variant}?fen=...&eval=MS) ---
function engineMs() { return Math.max(1, Math.min(10000, Number($("engine-ms").value) || 500)); }

function scoreText(score) {
  if (score.mate !== undefined) return `mate ${score.mate}`;
  const cp = score.cp / 100;
  return `${cp > 0 ? "+" : ""}${cp.toFixed(2)}`;
}

// A bar as analysis boards draw one: White's share of it grows with
// White's score.
function evalBar(score, turn) {
  // The score is the side to move's.
  const mover = score.mate !== undefined ? (score.mate > 0 ? 1 : 0) : 0.5 + 0.5 * Math.tanh(score.cp / 400);
  const white = turn === "white" ? mover : 1 - mover;
  const pct = Math.round(white * 100);
  return `<div id="eval-bar" title="White ${pct}%"><div id="eval-white" style="width:${pct}%"></div></div>`;
}

// Asks the engine about the position shown; returns its answer (or null
// when the position changed meanwhile or the game is over).
async function engineEval(ticket) {
  const out = $("engine");
  out.textContent = "thinking…";
  const a = await api(`${variantPath()}?fen=${encodeURIComponent(state.fen)}&eval=${engineMs()}&limit=1`);
  if (ticket !== state.ticket) return null;
  const e = a.engine;
  if (!e || !e.score) { out.textContent = "no move: the game is over"; return null; }
  const proved = a.source !== "none" ? ` <small>(proved: ${esc(a.category)} from ${esc(a.source)})</small>` : "";
  out.innerHTML = `${evalBar(e.score, sideToMove(state.fen))}<p id="engine-score">${sideToMove(state.fen)} to move: ${scoreText(e.score)}${proved} ` +
    `<small>depth ${e.depth}, ${e.nodes} nodes, ${e.time_ms} ms</small></p><p>${esc(e.pv_san.join(" "))}</p>`;
  return e;
}

// Shows the engine's view when asked, and plays its move when it is the
// engine's side to move.
async function engineTurn(ticket) {
  const side = $("engine-side").value;
  const plays = side && side === sideToMove(state.fen);
  if (!plays && !$("engine-on").checked) {
    // Playing against the engine, its view of its last move stays shown.
    if (!side) $("engine").textContent = "";
    return;
  }
  try {
    const e = await engineEval(ticket);
    if (plays && e && e.best) playMove(state.moves.find((m) => m.uci === e.best));
  } catch (err) {
    if (ticket === state.ticket) $("engine").textContent = err.message;
  }
}

async function engineMove() {
  const ticket = state.ticket;
  try {
    const e = await engineEval(ticket);
    if (e && e.best) playMove(state.moves.find((m) => m.uci === e.best));
  } catch (err) {
    $("engine").textContent = err.message;
  }
}

// --- mate search and stepping through lines ---
async function findMate() {
  const result = $("mate-result");
  $("mate-tree").textContent = "";
  const max = Number($("mate-max").value.trim());
  if ($("mate-max").value.trim() === "" || !Number.isInteger(max) || max < 1 || max > 12) {
    result.textContent = "the mate length must be a whole number from 1 to 12";
    return;
  }
  result.textContent = "searching…";
  // Stepping through the line found first keeps the search's answers;
  // a new position or a new search drops them.
  const ticket = ++state.mateTicket;
  try {
    // Streamed: a mate found and verified shows at once, while the search
    // goes on to prove that none is shorter.
    const body = { fen: state.fen, max, stream: true };
    state.mateLine = null;
    let ended = false;
    await apiLines(`${variantPath()}/mate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, (r) => {
      ended = ended || r.event !== "found";
      if (ticket === state.mateTicket) showMate(r);
    });
    if (!ended && ticket === state.mateTicket) {
      result.textContent = "the connection ended before the search's final answer";
    }
  } catch (e) {
    if (ticket === state.mateTicket) result.textContent = e.message;
  }
}

function showMate(r) {
  const result = $("mate-result");
  if (r.error) {
    result.textContent = `${r.error.code}: ${r.error.message}` + (r.nodes !== undefined ? ` — ${r.nodes} nodes` : "");
    return;
  }
  if (r.mate_in === null) {
    result.textContent = `no mate in ≤ ${r.max} (proved) — ${r.nodes} nodes, ${r.time_ms.toFixed(1)} ms`;
    return;
  }
  const length = r.shortest ? " (shortest, proved)"
    : r.event === "found" ? " found and verified; proving that none is shorter…"
    : " (a shorter mate is not ruled out)";
  result.innerHTML = `<b id="mate-verdict">mate in ${r.mate_in}</b><span id="mate-length">${length}</span>; key${r.keys.length > 1 ? "s" : ""}: ${esc(r.keys.join(", "))}; ` +
    `${r.verified_positions} positions verified, ${r.nodes} nodes, ${r.time_ms.toFixed(1)} ms`;
  $("mate-tree").textContent = r.tree_text || "";
  // The final line repeats the line found first: stepping goes on undisturbed.
  const line = r.main_line.join(" ");
  if (state.mateLine !== line) {
    state.mateLine = line;
    startSteps(r.position.fen, r.main_line_steps);
  }
}

async function startSteps(start, steps) {
  state.steps = { start, steps, at: 0 };
  $("stepper").hidden = steps.length === 0;
  await showStep();
}

async function showStep() {
  const s = state.steps;
  if (!s) return;
  const fen = s.at === 0 ? s.start : s.steps[s.at - 1].fen;
  const label = s.at === 0 ? "start" : `${s.at}/${s.steps.length}: ${s.steps[s.at - 1].san}`;
  $("step-info").textContent = label;
  state.lastMove = s.at === 0 ? null : [s.steps[s.at - 1].uci.slice(0, 2), toSquare(s.steps[s.at - 1].uci)];
  if (await setPosition(fen, { keepSteps: true })) $("step-info").textContent = label;
}

function step(delta) {
  const s = state.steps;
  if (!s) return;
  const at = Math.max(0, Math.min(s.steps.length, delta === Infinity ? s.steps.length : delta === -Infinity ? 0 : s.at + delta));
  if (at === s.at) return;
  s.at = at;
  showStep();
}

// --- puzzles ---
async function loadSets() {
  try {
    const r = await api("/v1/puzzles");
    const select = $("set-select");
    select.innerHTML = `<option value="">(choose a puzzle set)</option>` +
      r.sets.map((s) => `<option value="${esc(s.name)}">${esc(s.name)} (${esc(s.variant)}, ${s.count})</option>`).join("");
  } catch (e) {
    message(e.message);
  }
}

async function loadSet(name) {
  const list = $("puzzle-list");
  list.innerHTML = "";
  if (!name) return;
  const r = await api(`/v1/puzzles/${encodeURIComponent(name)}`);
  r.puzzles.forEach((p) => {
    const li = document.createElement("li");
    li.textContent = `${p.id} — mate in ${p.mate}${p.unique ? ", unique key" : ""}`;
    li.addEventListener("click", () => loadPuzzle(name, p.id));
    list.appendChild(li);
  });
}

async function loadPuzzle(set, id) {
  try {
    const p = await api(`/v1/puzzles/${encodeURIComponent(set)}/${encodeURIComponent(id)}`);
    // A mate search still running belongs to the position before.
    state.mateTicket++;
    state.mateLine = null;
    state.variant = p.variant;
    $("variant-select").value = p.variant;
    $("mate-max").value = p.mate;
    state.history = [];
    state.lastMove = null;
    $("mate-result").textContent = `puzzle ${p.id}: mate in ${p.mate}${p.unique ? " (unique key)" : ""}, proved again here (${p.verified_positions} positions verified). Find the key, or step through the solution.`;
    // Shows the puzzle's position as the first step of its solution.
    await startSteps(p.fen, p.main_line_steps);
  } catch (e) {
    message(e.message);
  }
}

// --- wiring ---
function init() {
  const params = new URLSearchParams(location.search);
  if (params.get("variant")) state.variant = params.get("variant");
  $("variant-select").value = state.variant;
  $("variant-select").addEventListener("change", (e) => { state.variant = e.target.value; state.history = []; setPosition(""); });
  $("load-btn").addEventListener("click", () => { state.history = []; state.lastMove = null; setPosition($("fen-input").value); });
  $("fen-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("load-btn").click(); });
  $("start-btn").addEventListener("click", () => { state.history = []; state.lastMove = null; setPosition(""); });
  $("flip-btn").addEventListener("click", () => { state.flipped = !state.flipped; redraw(); });
  $("move-form").addEventListener("submit", (e) => { e.preventDefault(); playText($("move-input").value); $("move-input").value = ""; });
  $("back-btn").addEventListener("click", () => { const back = state.history.pop(); if (back) { state.lastMove = null; setPosition(back.fen); } });
  $("mate-btn").addEventListener("click", findMate);
  $("engine-move-btn").addEventListener("click", engineMove);
  $("engine-on").addEventListener("change", () => engineTurn(state.ticket));
  $("engine-side").addEventListener("change", () => engineTurn(state.ticket));
  $("step-first").addEventListener("click", () => step(-Infinity));
  $("step-prev").addEventListener("click", () => step(-1));
  $("step-next").addEventListener("click", () => step(1));
  $("step-last").addEventListener("click", () => step(Infinity));
  $("set-select").addEventListener("change", (e) => loadSet(e.target.value).catch((err) => message(err.message)));
  loadSets();
  setPosition(params.get("fen") || "");
}

init();
