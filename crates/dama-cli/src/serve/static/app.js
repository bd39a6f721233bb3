// dama serve: the page. It draws what the server says and sends clicks;
// every rule (legal moves, paths, explanations, the end) is the engine's.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const STORE = "dama-serve-game";
const S = 60; // pixels per square in the board's own units

const $ = (id) => document.getElementById(id);

const ui = {
  game: null,        // the game as the server last sent it
  sel: null,         // {from, prefix: [landings so far]}
  mode: "white",     // "white" | "black" | "two": who the person plays
  level: 3,
  flipped: false,
  busy: false,       // a request that changes the game is on its way
  best: null,        // the analysis' best move, drawn as an arrow
  analysis: null,    // the EventSource of a running analysis
  toml: null,        // the pasted variant's text of the game shown (the server keeps only its rules)
  retry: null,       // the timer that asks a busy engine again
  edit: null,        // the position editor: {pieces: Map(square → piece), tool}
  review: null,      // the score of every position of a game: {id, points}
};

// ---- talking to the server ---------------------------------------------

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) {
    const msg = data && data.error ? data.error.message : `${res.status} ${res.statusText}`;
    const err = new Error(msg);
    err.status = res.status;
    err.code = data && data.error ? data.error.code : null;
    throw err;
  }
  return data;
}

function save() {
  const g = ui.game;
  if (!g) return;
  const kept = {
    id: g.id, variant: g.source.variant, toml: g.source.pasted ? ui.toml : null, start_fen: g.start_fen,
    moves: g.moves, mode: ui.mode, level: ui.level, flipped: ui.flipped,
  };
  try { localStorage.setItem(STORE, JSON.stringify(kept)); } catch (_) { /* private mode */ }
}

function loadSaved() {
  try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch (_) { return null; }
}

// ---- showing messages --------------------------------------------------

function message(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

function status(text) { $("status").textContent = text; }

// ---- the board ---------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

const fileOf = (i) => i % 16;
const rankOf = (i) => Math.floor(i / 16);

// Where a square's centre is drawn.
function centre(v, i, flipped) {
  const f = fileOf(i), r = rankOf(i);
  const x = flipped ? v.width - 1 - f : f;
  const y = flipped ? r : v.height - 1 - r;
  return [x * S + S / 2 + MARGIN, y * S + S / 2];
}
const MARGIN = 18; // room for the rank labels

function drawBoard(svg, v, pieces, opts) {
  opts = opts || {};
  const flipped = !!opts.flipped;
  svg.replaceChildren();
  const W = v.width * S + MARGIN, H = v.height * S + MARGIN;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const playable = new Map(v.squares.map((s) => [s.i, s.name]));
  const all = playable.size === v.width * v.height;
  const marks = opts.marks || {};
  for (let r = 0; r < v.height; r++) {
    for (let f = 0; f < v.width; f++) {
      const i = r * 16 + f;
      const [cx, cy] = centre(v, i, flipped);
      const dark = (f + r) % 2 === 0;
      let fill;
      if (!playable.has(i)) fill = "#efe3c8";
      else if (all) fill = dark ? "#b58863" : "#d9b68c";
      else fill = "#8b5a3c";
      if (marks.last && marks.last.has(i)) fill = playable.has(i) && !all ? "#a87a2c" : "#cdb25a";
      if (marks.sel === i) fill = "#d4b62c";
      const rect = el("rect", { x: cx - S / 2, y: cy - S / 2, width: S, height: S, fill, class: "sq", "data-sq": i }, svg);
      rect.dataset.name = playable.get(i) || "";
    }
  }
  // Labels: files under the board, ranks to the left (algebraic), or the
  // square numbers in a corner of each square (numeric notation).
  for (let f = 0; f < v.width; f++) {
    const [cx] = centre(v, f, flipped);
    const t = el("text", { x: cx, y: v.height * S + 13, "text-anchor": "middle", "font-size": 12, fill: "#665", class: "label" }, svg);
    t.textContent = String.fromCharCode(97 + f);
  }
  for (let r = 0; r < v.height; r++) {
    const [, cy] = centre(v, r * 16, flipped);
    const t = el("text", { x: 9, y: cy + 4, "text-anchor": "middle", "font-size": 12, fill: "#665", class: "label" }, svg);
    t.textContent = String(r + 1);
  }
  if (v.numeric) {
    for (const s of v.squares) {
      const [cx, cy] = centre(v, s.i, flipped);
      // At least 9 px on a phone's 360-px board.
      const size = Math.max(10, W / 38);
      const t = el("text", { x: cx - S / 2 + 2, y: cy - S / 2 + size, "font-size": size, fill: "#f3e6cf", class: "label num" }, svg);
      t.textContent = s.name;
    }
  }
  for (const p of pieces) {
    if (opts.hide !== undefined && opts.hide === p.i) continue;
    drawPiece(svg, v, p, centre(v, p.i, flipped));
  }
  for (const i of marks.captured || []) {
    const [cx, cy] = centre(v, i, flipped);
    const d = S * 0.22;
    el("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, stroke: "#c0392b", "stroke-width": 5, "stroke-linecap": "round", class: "marker captured", "data-sq": i }, svg);
  }
  for (const i of marks.dests || []) {
    const [cx, cy] = centre(v, i, flipped);
    el("circle", { cx, cy, r: S * 0.16, fill: "#2e8b57", "fill-opacity": 0.8, class: "marker dest", "data-sq": i }, svg);
  }
  if (marks.crowned !== undefined) {
    const [cx, cy] = centre(v, marks.crowned, flipped);
    el("circle", { cx, cy, r: S * 0.46, fill: "none", stroke: "#f1c40f", "stroke-width": 3, class: "marker crowned" }, svg);
  }
  if (marks.arrow && marks.arrow.length >= 2) drawArrow(svg, v, marks.arrow, flipped);
}

function drawPiece(svg, v, p, at) {
  const [cx, cy] = at;
  const g = el("g", { class: `piece ${p.color}${p.king ? " king" : ""}`, "data-sq": p.i }, svg);
  const light = p.color === "white";
  el("circle", { cx, cy, r: S * 0.38, fill: light ? "#f7f3ea" : "#2a2522", stroke: light ? "#6b5d4d" : "#000", "stroke-width": 2 }, g);
  el("circle", { cx, cy, r: S * 0.27, fill: "none", stroke: light ? "#c9bca8" : "#4a423c", "stroke-width": 2 }, g);
  if (p.king) {
    // A crown: three points on a band, in gold.
    const w = S * 0.3, h = S * 0.2, x = cx - w / 2, y = cy - h / 2;
    el("path", { d: `M${x} ${y + h}L${x} ${y}L${x + w / 4} ${y + h / 2}L${x + w / 2} ${y - 2}L${x + 3 * w / 4} ${y + h / 2}L${x + w} ${y}L${x + w} ${y + h}Z`, fill: "#d4a017", stroke: light ? "#6b5d4d" : "#000", "stroke-width": 1 }, g);
  }
  return g;
}

function drawArrow(svg, v, squares, flipped) {
  const pts = squares.map((i) => centre(v, i, flipped));
  const defs = el("defs", {}, svg);
  const m = el("marker", { id: "head", markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: "auto", markerUnits: "strokeWidth" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 Z", fill: "#1f6fb2" }, m);
  el("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#1f6fb2", "stroke-width": 8, "stroke-opacity": 0.75, "stroke-linecap": "round", "marker-end": "url(#head)", class: "arrow" }, svg);
}

// The legal paths of the piece selected, given the landings clicked so far.
function pathsFrom(sel) {
  const pre = [sel.from, ...sel.prefix];
  return ui.game.legal.filter((m) => !m.pass && pre.every((s, k) => m.squares[k] === s));
}

function nextLandings(sel) {
  const n = sel.prefix.length + 1;
  const out = new Set();
  for (const m of pathsFrom(sel)) if (m.squares.length > n) out.add(m.squares[n]);
  return out;
}

function render() {
  const g = ui.game;
  if (!g) return;
  const v = g.board;
  const marks = {};
  if (g.last) {
    marks.last = new Set(g.last.squares);
    marks.captured = g.last.captures;
    if (g.last.promotes && g.last.squares.length) marks.crowned = g.last.squares[g.last.squares.length - 1];
  }
  if (ui.sel) {
    marks.sel = ui.sel.from;
    marks.last = new Set([...(marks.last || []), ...ui.sel.prefix]);
    marks.dests = [...nextLandings(ui.sel)];
    // A path that may stop on the last landing clicked, or go on.
    if (ui.sel.prefix.length && pathsFrom(ui.sel).some((m) => m.squares.length === ui.sel.prefix.length + 1)) {
      marks.dests.push(ui.sel.prefix[ui.sel.prefix.length - 1]);
    }
  }
  if (ui.best) marks.arrow = ui.best;
  const pieces = ui.edit ? [...ui.edit.pieces].map(([i, p]) => ({ i, ...p })) : g.pieces;
  drawBoard($("board"), v, pieces, { flipped: ui.flipped, marks: ui.edit ? {} : marks });
  $("variant-name").textContent = `${v.name} (${v.id}), ${v.width}×${v.height}`;
  const res = $("result");
  // A record that went on after the rules ended the game says so.
  const past = g.passed_end
    ? `The rules ended the game before ply ${g.passed_end.ply} (${g.passed_end.text}); the record goes on.`
    : "";
  if (g.result) {
    res.hidden = false;
    res.textContent = `Game over: ${g.result.text}. Result ${g.result.pdn}.${past ? " " + past : ""}`;
    status("");
  } else {
    res.hidden = !past;
    res.textContent = past;
    const side = g.side === "white" ? "White" : "Black";
    status(ui.busy ? `${side} is thinking…` : `${side} to move.`);
  }
  $("pass").hidden = !g.legal.some((m) => m.pass) || !!g.result;
  $("undo").disabled = g.plies.length === 0;
  $("redo").disabled = !g.redo;
  $("resign").disabled = !!g.result;
  const ol = $("moves");
  ol.replaceChildren();
  // Numbered by move, the side that moves first in the variant on the left.
  let n = 0;
  g.plies.forEach((p, k) => {
    const li = document.createElement("li");
    li.textContent = p.text;
    const opens = p.side === v.first;
    if (opens || k === 0) n += 1;
    if (opens) { li.classList.add("first"); li.dataset.n = `${n}.`; }
    else if (k === 0) li.dataset.n = `${n}…`;
    if (k === g.plies.length - 1) li.classList.add("current");
    ol.appendChild(li);
  });
  ol.scrollTop = ol.scrollHeight;
  $("fen").value = g.fen;
  drawGraph();
  document.body.dataset.side = g.side;
  document.body.dataset.over = g.result ? "yes" : "no";
}

function humanToMove() {
  const g = ui.game;
  return g && !g.result && (ui.mode === "two" || ui.mode === g.side);
}

async function onSquare(i) {
  const g = ui.game;
  if (!g || ui.busy) return;
  if (ui.edit) { editSquare(i); return; }
  if (g.result) { message(`The game is over (${g.result.text}). Start a new game, or undo.`); return; }
  if (!humanToMove()) return;
  const piece = g.pieces.find((p) => p.i === i);
  const own = piece && piece.color === g.side;
  const sel = ui.sel;
  if (!sel || (own && sel.prefix.length === 0)) {
    if (sel && sel.from === i) { ui.sel = null; render(); return; }
    if (!own) return;
    ui.sel = { from: i, prefix: [] };
    message("");
    render();
    return;
  }
  const n = sel.prefix.length + 1;
  const paths = pathsFrom(sel);
  const through = paths.filter((m) => m.squares[n] === i);
  if (through.length) {
    const prefix = [...sel.prefix, i];
    const ends = through.filter((m) => m.squares.length === n + 1);
    const longer = through.filter((m) => m.squares.length > n + 1);
    if (ends.length && !longer.length) return play(ends[0].squares);
    ui.sel = { from: sel.from, prefix };
    message(ends.length ? "Click this square again to stop here, or go on to the next landing." : "");
    render();
    return;
  }
  // The last landing clicked again: stop there.
  if (sel.prefix.length && i === sel.prefix[sel.prefix.length - 1]) {
    const stop = paths.find((m) => m.squares.length === n);
    if (stop) return play(stop.squares);
  }
  // A destination clicked at once: fine when only one path leads there.
  const to = paths.filter((m) => m.squares[m.squares.length - 1] === i);
  const distinct = new Set(to.map((m) => m.squares.join(",")));
  if (distinct.size === 1) return play(to[0].squares);
  if (distinct.size > 1) {
    message("Several paths lead there: click the landing squares one by one.");
    render();
    return;
  }
  // Not a legal move: the engine says why.
  const tried = [sel.from, ...sel.prefix, i];
  ui.sel = null;
  await play(tried);
}

async function play(squares, text) {
  ui.sel = null;
  ui.busy = true;
  const g = ui.game;
  try {
    const r = await api("POST", `/api/games/${g.id}/move`, squares ? { squares } : { text });
    if (ui.game !== g) return;
    ui.busy = false;
    setGame(r.game);
    message(r.ok ? "" : r.error.message);
  } catch (e) {
    ui.busy = false;
    await recover(e);
  }
  render();
  maybeComputer();
}

function setGame(g) {
  const old = ui.game;
  // An analysis and its score are of one position: another game or
  // position ends it and clears what it showed.
  if (!old || old.id !== g.id || old.fen !== g.fen || old.plies.length !== g.plies.length) {
    if (ui.analysis) {
      stopAnalysis();
      $("eval").textContent = "";
      $("pv").textContent = "";
    }
    hideEvalBar();
  }
  ui.game = g;
  ui.best = null;
  syncVariantSelect();
  save();
}

// The selector names the variant being played: a built-in by its id, a
// pasted variant by an option of its own (value ""), so that New game
// plays the same variant again.
function syncVariantSelect() {
  const sel = $("variant");
  const g = ui.game;
  if (!sel || !g) return;
  let pasted = sel.querySelector('option[value=""]');
  if (g.source.pasted) {
    if (!pasted) {
      pasted = document.createElement("option");
      pasted.value = "";
      sel.prepend(pasted);
    }
    pasted.textContent = `${g.board.name} (pasted)`;
    sel.value = "";
  } else {
    if (pasted) pasted.remove();
    if (g.source.variant) sel.value = g.source.variant;
  }
}

function newGameOfSelected() {
  const v = $("variant").value;
  if (v === "" && ui.toml) newGame({ toml: ui.toml });
  else if (v !== "") newGame({ variant: v });
}

// A game the server does not know (restarted): rebuilt from the page's copy.
async function recover(e) {
  if (e.status === 404 && ui.game) {
    const kept = { variant: ui.game.source.variant, toml: ui.toml, fen: ui.game.start_fen, moves: ui.game.moves };
    if (!kept.toml) delete kept.toml;
    if (!kept.variant) delete kept.variant;
    const g = await api("POST", "/api/games", kept);
    setGame(g);
    message("The server had lost this game; it was rebuilt from this page's copy. Try again.");
  } else {
    message(e.message);
  }
}

async function maybeComputer() {
  clearTimeout(ui.retry);
  const g = ui.game;
  if (!g || g.result || ui.mode === "two" || ui.mode === g.side || ui.busy) return;
  ui.busy = true;
  render();
  try {
    const r = await api("POST", `/api/games/${g.id}/computer`, { level: ui.level });
    // The page has left this game (a new game, a FEN, a PDN): the answer is
    // for a game no longer shown, and must not replace the new one.
    if (ui.game !== g) return;
    ui.busy = false;
    if (r.ok && r.game.last) await animate(g, r.game.last);
    if (ui.game !== g) return;
    setGame(r.game);
  } catch (e) {
    if (ui.game !== g) return;
    ui.busy = false;
    if (e.status === 503) {
      // Every search slot is taken: ask again, rather than stall.
      message("The engine is busy with other games; asking again in 2 s…");
      ui.retry = setTimeout(maybeComputer, 2000);
    } else {
      await recover(e);
    }
  }
  render();
}

// The computer's piece slides along its path, one landing at a time.
function animate(before, last) {
  return new Promise((resolve) => {
    const v = before.board;
    const sq = last.squares;
    if (!sq || sq.length < 2) return resolve();
    const piece = before.pieces.find((p) => p.i === sq[0]);
    if (!piece) return resolve();
    const svg = $("board");
    drawBoard(svg, v, before.pieces, { flipped: ui.flipped, hide: sq[0], marks: {} });
    const g = drawPiece(svg, v, piece, [0, 0]);
    const pts = sq.map((i) => centre(v, i, ui.flipped));
    const seg = 220;
    const t0 = performance.now();
    function step(now) {
      // A frame's time may precede t0: clamp, or the first step would index -1.
      const t = Math.max(0, (now - t0) / seg);
      const k = Math.min(Math.floor(t), pts.length - 2);
      const u = Math.min(t - k, 1);
      const x = pts[k][0] + (pts[k + 1][0] - pts[k][0]) * u;
      const y = pts[k][1] + (pts[k + 1][1] - pts[k][1]) * u;
      g.setAttribute("transform", `translate(${x},${y})`);
      if (t < pts.length - 1) requestAnimationFrame(step); else resolve();
    }
    requestAnimationFrame(step);
  });
}

// ---- drag and drop -----------------------------------------------------

// A piece pressed and moved follows the pointer; dropped on a square, it is
// played as the two clicks would play it (a capture with several paths there
// then asks for its landings). A press without a move stays a click.
function dragAndDrop() {
  const svg = $("board");
  let drag = null;
  const square = (ev) => {
    const at = document.elementFromPoint(ev.clientX, ev.clientY);
    const t = at && at.closest ? at.closest("#board [data-sq]") : null;
    return t ? Number(t.getAttribute("data-sq")) : null;
  };
  svg.addEventListener("pointerdown", (ev) => {
    const g = ui.game;
    const i = square(ev);
    if (!g || ui.busy || ui.edit || i === null || !humanToMove()) return;
    const piece = g.pieces.find((p) => p.i === i);
    if (!piece || piece.color !== g.side) return;
    drag = { from: i, piece, x: ev.clientX, y: ev.clientY, ghost: null };
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      drag.ghost = drawPiece(svg, ui.game.board, drag.piece, [0, 0]);
      drag.ghost.classList.add("ghost");
    }
    const p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    const at = p.matrixTransform(svg.getScreenCTM().inverse());
    drag.ghost.setAttribute("transform", `translate(${at.x},${at.y})`);
  });
  window.addEventListener("pointerup", async (ev) => {
    const d = drag;
    drag = null;
    if (!d || !d.ghost) return;
    d.ghost.remove();
    ui.dragged = true;
    setTimeout(() => { ui.dragged = false; }, 0);
    const to = square(ev);
    if (to === null || to === d.from) { render(); return; }
    ui.sel = null;
    await onSquare(d.from);
    await onSquare(to);
  });
}

// ---- play panel --------------------------------------------------------

async function newGame(body) {
  stopAnalysis();
  ui.sel = null;
  ui.busy = true;
  try {
    const g = await api("POST", "/api/games", body);
    ui.busy = false;
    ui.toml = body.toml || null;
    ui.edit = null;
    $("edit-panel").hidden = true;
    setGame(g);
    message("");
  } catch (e) {
    ui.busy = false;
    message(e.message);
    render();
    return false;
  }
  render();
  maybeComputer();
  return true;
}

// ---- the score over the game ------------------------------------------

// Asks the server to judge every position of the game and draws the score
// (White up, Black down); a point clicked steps to that ply.
async function review() {
  const g = ui.game;
  if (!g) return;
  $("review").disabled = true;
  try {
    const r = await api("GET", `/api/games/${g.id}/review`);
    if (ui.game && ui.game.id === g.id) { ui.review = { id: g.id, moves: g.moves.slice(), points: r.points }; drawGraph(); }
  } catch (e) { await recover(e); }
  $("review").disabled = false;
}

function drawGraph() {
  const svg = $("graph");
  const rv = ui.review;
  // Of this game's line only: a move off it (or another game) puts it away.
  const m = ui.game ? ui.game.moves : [];
  const onLine = rv && ui.game && rv.id === ui.game.id && m.length <= rv.moves.length && m.every((x, k) => rv.moves[k] === x);
  if (!onLine) { svg.hidden = true; return; }
  svg.hidden = false;
  svg.replaceChildren();
  const W = 300, H = 80, n = Math.max(1, rv.points.length - 1);
  const x = (k) => 4 + (k / n) * (W - 8);
  const y = (w) => H / 2 - (H / 2 - 4) * Math.tanh(w / 400);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#c9bca8" }, svg);
  const known = rv.points.filter((p) => p.white !== null);
  if (known.length > 1) {
    el("polyline", { points: known.map((p) => `${x(p.ply)},${y(p.white)}`).join(" "), fill: "none", stroke: "#3b2f25", "stroke-width": 1.5 }, svg);
  }
  const now = ui.game.plies.length;
  for (const p of known) {
    const c = el("circle", { cx: x(p.ply), cy: y(p.white), r: 3.5, fill: "#3b2f25", class: `point${p.ply === now ? " current" : ""}`, "data-ply": p.ply }, svg);
    const t = el("title", {}, c);
    t.textContent = `ply ${p.ply}: ${p.text} for White`;
    c.addEventListener("click", () => goToPly(p.ply));
  }
}

// Steps (undo or redo on the server) to the position after `ply` plies.
async function goToPly(ply) {
  const g = ui.game;
  if (!g || ui.busy) return;
  const now = g.plies.length;
  if (ply === now) return;
  const route = ply < now ? "undo" : "redo";
  try { setGame(await api("POST", `/api/games/${g.id}/${route}`, { count: Math.abs(now - ply) })); } catch (e) { await recover(e); }
  ui.sel = null;
  render();
}

// ---- the position editor -----------------------------------------------

// The pieces being set up, by square, while the editor is open.
function startEditing() {
  const g = ui.game;
  if (!g) return;
  stopAnalysis();
  ui.sel = null;
  ui.edit = { pieces: new Map(g.pieces.map((p) => [p.i, { color: p.color, king: p.king }])), tool: "wm" };
  $("edit-side").value = g.side === "white" ? "W" : "B";
  $("edit-panel").hidden = false;
  render();
}

function editSquare(i) {
  const g = ui.game;
  if (!g.board.squares.some((s) => s.i === i)) return;
  const t = ui.edit.tool;
  const want = t ? { color: t[0] === "w" ? "white" : "black", king: t[1] === "k" } : null;
  const now = ui.edit.pieces.get(i);
  if (!want || (now && now.color === want.color && now.king === want.king)) ui.edit.pieces.delete(i);
  else ui.edit.pieces.set(i, want);
  render();
}

// The position set up, as a FEN in the variant's square names.
function editedFen() {
  const names = new Map(ui.game.board.squares.map((s) => [s.i, s.name]));
  const side = (color) => [...ui.edit.pieces].filter(([, p]) => p.color === color)
    .map(([i, p]) => (p.king ? "K" : "") + names.get(i)).join(",");
  return `${$("edit-side").value}:W${side("white")}:B${side("black")}`;
}

async function finishEditing() {
  const g = ui.game;
  const body = { fen: editedFen() };
  if (g.source.pasted && ui.toml) body.toml = ui.toml; else body.variant = g.source.variant || "dama";
  ui.mode = "two"; $("mode").value = "two";
  // A position the engine refuses keeps the editor open, with its reason.
  await newGame(body);
}

async function undoRedo(which) {
  const g = ui.game;
  if (!g || ui.busy) return;
  // Against the computer, take back the person's last move and the replies to it.
  let count = 1;
  if (ui.mode !== "two") {
    if (which === "undo") {
      let k = g.plies.length - 1;
      while (k >= 0 && g.plies[k].side !== ui.mode) k--;
      count = k >= 0 ? g.plies.length - k : g.plies.length;
    } else {
      count = 2;
    }
  }
  try {
    setGame(await api("POST", `/api/games/${g.id}/${which}`, { count }));
    message("");
  } catch (e) { await recover(e); }
  ui.sel = null;
  render();
  if (which === "undo") maybeComputer();
}

async function step(which) {
  // Stepping through the game in the Analyse panel: one ply at a time.
  const g = ui.game;
  if (!g || ui.busy) return;
  const n = which === "first" ? g.plies.length : which === "last" ? 10000 : 1;
  const route = which === "first" || which === "back" ? "undo" : "redo";
  try { setGame(await api("POST", `/api/games/${g.id}/${route}`, { count: n })); } catch (e) { await recover(e); }
  ui.sel = null;
  render();
}

// ---- analysis ----------------------------------------------------------

// The evaluation bar: White's expected share from a score for White (in
// hundredths of a man; a forced win fills it).
function showEvalBar(white) {
  const bar = $("evalbar");
  const share = 1 / (1 + Math.exp(-white / 150));
  bar.hidden = false;
  bar.classList.toggle("flipped", ui.flipped);
  $("evalbar-white").style.height = `${(share * 100).toFixed(1)}%`;
  bar.dataset.white = share.toFixed(3);
}

function hideEvalBar() { $("evalbar").hidden = true; }

function stopAnalysis() {
  if (ui.analysis) { ui.analysis.close(); ui.analysis = null; }
  $("analyse").disabled = false;
  $("stop").disabled = true;
}

// "until stopped" analyses round after round (each as long as the server
// allows, 30 s) until Stop, another position or another game.
function analyse(round) {
  const g = ui.game;
  if (!g) return;
  stopAnalysis();
  const endless = $("think").value === "0";
  round = typeof round === "number" ? round : 1;
  const ms = endless ? 30000 : $("think").value;
  const src = new EventSource(`/api/games/${g.id}/analysis?ms=${ms}`);
  ui.round = endless ? round : 0;
  ui.analysis = src;
  $("analyse").disabled = true;
  $("stop").disabled = false;
  $("eval").textContent = "Thinking…";
  const show = (ev, done) => {
    // Only for the position it was asked for (setGame stops it otherwise).
    if (ui.analysis !== src) return;
    const d = JSON.parse(ev.data);
    const who = d.for === "white" ? "White" : "Black";
    const more = done ? ", done" : endless ? `, round ${round}, until stopped` : "";
    $("eval").textContent = `Depth ${d.depth}: ${d.score_text} for ${who} (${d.nodes} nodes, ${(d.ms / 1000).toFixed(1)} s)${more}`;
    $("pv").textContent = d.pv.join(" ");
    showEvalBar(d.for === "white" ? d.score : -d.score);
    ui.best = d.best && d.best.squares.length >= 2 ? d.best.squares : null;
    render();
  };
  src.addEventListener("info", (ev) => show(ev, false));
  src.addEventListener("done", (ev) => {
    if (ui.analysis !== src) return;
    show(ev, !endless);
    stopAnalysis();
    if (endless && ui.game && ui.game.id === g.id && ui.game.fen === g.fen) analyse(round + 1);
  });
  src.onerror = () => {
    if (ui.analysis !== src) return;
    stopAnalysis();
    // Never "Thinking…" for ever: say that it stopped.
    if ($("eval").textContent === "Thinking…") {
      $("eval").textContent = "The analysis could not run (the server is busy, or gone); try again.";
    }
  };
}

// ---- design panel ------------------------------------------------------

let validateTimer = null;
let lastValid = null;

function gutter(text, diags) {
  const lines = text.split("\n").length;
  const bad = new Map();
  for (const d of diags) {
    const line = d.location && d.location.line;
    if (line) bad.set(line, d.severity === "error" ? "err" : bad.get(line) || "warn");
  }
  const pre = $("gutter");
  pre.replaceChildren();
  for (let k = 1; k <= lines; k++) {
    const span = document.createElement("span");
    span.textContent = `${k}\n`;
    if (bad.has(k)) span.className = bad.get(k);
    pre.appendChild(span);
  }
  pre.scrollTop = $("toml").scrollTop;
}

async function validateNow() {
  const text = $("toml").value;
  let r;
  try { r = await api("POST", "/api/validate", { toml: text }); } catch (e) { $("design-state").textContent = e.message; return; }
  if ($("toml").value !== text) return; // typed on meanwhile
  const ul = $("diagnostics");
  ul.replaceChildren();
  for (const d of r.diagnostics) {
    const li = document.createElement("li");
    const at = d.location || {};
    li.className = d.severity;
    li.dataset.line = at.line || "";
    li.dataset.code = d.code;
    const where = at.line ? `line ${at.line}, column ${at.column}: ` : "";
    li.textContent = `${where}${d.severity} ${d.code}: ${d.message}`;
    if (d.help) {
      const h = document.createElement("div");
      h.className = "help";
      h.textContent = `help: ${d.help}`;
      li.appendChild(h);
    }
    li.addEventListener("click", () => goToLine(at.line, at.column));
    ul.appendChild(li);
  }
  gutter(text, r.diagnostics);
  const state = $("design-state");
  if (r.ok) {
    lastValid = text;
    state.textContent = `${r.name}: valid`;
    state.className = "";
    $("design-play").disabled = false;
    drawBoard($("design-board"), r.variant, r.pieces, {});
    const rules = $("rules");
    rules.replaceChildren();
    for (const s of r.rules) {
      const h = document.createElement("h3");
      h.textContent = s.title;
      const list = document.createElement("ul");
      for (const l of s.lines) { const li = document.createElement("li"); li.textContent = l; list.appendChild(li); }
      rules.append(h, list);
    }
  } else {
    lastValid = null;
    const n = r.diagnostics.filter((d) => d.severity === "error").length;
    state.textContent = `${n} error${n === 1 ? "" : "s"}`;
    state.className = "bad";
    $("design-play").disabled = true;
  }
}

function goToLine(line, column) {
  if (!line) return;
  const t = $("toml");
  const lines = t.value.split("\n");
  let pos = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) pos += lines[k].length + 1;
  pos += Math.max(0, (column || 1) - 1);
  t.focus();
  t.setSelectionRange(pos, pos);
}

async function fillEditor() {
  if ($("toml").value.trim()) return;
  const g = ui.game;
  if (g && g.source.pasted && ui.toml) { $("toml").value = ui.toml; }
  else {
    const id = (g && g.source.variant) || "dama";
    try { $("toml").value = (await api("GET", `/api/variants/${id}`)).toml; } catch (e) { $("toml").value = 'extends = "dama"\n'; }
  }
  validateNow();
}

// ---- start -------------------------------------------------------------

function showTab(name) {
  if (name === "play") setTimeout(maybeComputer, 0);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const p of ["play", "analyse", "design"]) $(`panel-${p}`).hidden = p !== name;
  if (name === "design") fillEditor();
}

async function start() {
  for (let l = 1; l <= 10; l++) {
    const o = document.createElement("option");
    o.value = l; o.textContent = l === 1 ? "1 (weakest)" : l === 10 ? "10 (strongest)" : String(l);
    $("level").appendChild(o);
  }
  try {
    const vs = await api("GET", "/api/variants");
    for (const v of vs.variants) {
      const o = document.createElement("option");
      o.value = v.id; o.textContent = `${v.name} (${v.width}×${v.height})`;
      $("variant").appendChild(o);
    }
  } catch (e) { message(e.message); }

  $("board").addEventListener("click", (ev) => {
    // The click that ends a drag is the drag's, already played.
    if (ui.dragged) { ui.dragged = false; return; }
    const t = ev.target.closest("[data-sq]");
    if (t) onSquare(Number(t.getAttribute("data-sq")));
  });
  dragAndDrop();
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));
  $("new").addEventListener("click", newGameOfSelected);
  $("variant").addEventListener("change", newGameOfSelected);
  $("mode").addEventListener("change", () => {
    ui.mode = $("mode").value;
    // The person's side at the bottom.
    if (ui.mode !== "two") ui.flipped = ui.mode === "black";
    save(); render(); maybeComputer();
  });
  $("level").addEventListener("change", () => { ui.level = Number($("level").value); save(); });
  $("undo").addEventListener("click", () => undoRedo("undo"));
  $("redo").addEventListener("click", () => undoRedo("redo"));
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; save(); render(); });
  $("pass").addEventListener("click", () => play(null, "--"));
  $("resign").addEventListener("click", async () => {
    const g = ui.game;
    if (!g || g.result) return;
    const side = ui.mode === "two" ? g.side : ui.mode;
    try { setGame(await api("POST", `/api/games/${g.id}/resign`, { side })); } catch (e) { await recover(e); }
    render();
  });
  $("analyse").addEventListener("click", analyse);
  $("edit").addEventListener("click", startEditing);
  $("review").addEventListener("click", review);
  for (const b of document.querySelectorAll("#palette button")) {
    b.addEventListener("click", () => {
      if (!ui.edit) return;
      ui.edit.tool = b.dataset.piece;
      for (const o of document.querySelectorAll("#palette button")) o.classList.toggle("chosen", o === b);
    });
  }
  $("edit-clear").addEventListener("click", () => { if (ui.edit) { ui.edit.pieces.clear(); render(); } });
  $("edit-initial").addEventListener("click", async () => {
    if (!ui.edit) return;
    const g = ui.game;
    const body = g.source.pasted && ui.toml ? { toml: ui.toml } : { variant: g.source.variant || "dama" };
    try {
      const start = await api("POST", "/api/validate", { toml: g.source.pasted ? ui.toml : (await api("GET", `/api/variants/${body.variant}`)).toml });
      ui.edit.pieces = new Map(start.pieces.map((p) => [p.i, { color: p.color, king: p.king }]));
      render();
    } catch (e) { message(e.message); }
  });
  $("edit-done").addEventListener("click", finishEditing);
  $("edit-cancel").addEventListener("click", () => { ui.edit = null; $("edit-panel").hidden = true; message(""); render(); });
  // Stepping through the game in Analyse: ← → Home End (not while typing),
  // and the wheel over the board.
  const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
  document.addEventListener("keydown", (ev) => {
    if ($("panel-analyse").hidden) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    const which = keys[ev.key];
    if (!which || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    step(which);
  });
  let wheelAt = 0;
  $("board").addEventListener("wheel", (ev) => {
    if ($("panel-analyse").hidden) return;
    ev.preventDefault();
    const now = performance.now();
    if (now - wheelAt < 120) return;
    wheelAt = now;
    step(ev.deltaY > 0 ? "forward" : "back");
  }, { passive: false });
  $("stop").addEventListener("click", stopAnalysis);
  for (const w of ["first", "back", "forward", "last"]) $(w).addEventListener("click", () => step(w));
  $("fen-load").addEventListener("click", () => {
    const g = ui.game;
    const body = { fen: $("fen").value };
    if (g && g.source.pasted && ui.toml) body.toml = ui.toml; else body.variant = (g && g.source.variant) || $("variant").value;
    ui.mode = "two"; $("mode").value = "two";
    newGame(body);
  });
  $("pdn-export").addEventListener("click", async () => {
    try { $("pdn").value = (await api("GET", `/api/games/${ui.game.id}/pdn`)).pdn; } catch (e) { await recover(e); }
  });
  $("pdn-import").addEventListener("click", () => {
    const g = ui.game;
    const body = { pdn: $("pdn").value };
    if (g && g.source.pasted && ui.toml) body.toml = ui.toml;
    ui.mode = "two"; $("mode").value = "two";
    newGame(body);
  });
  $("toml").addEventListener("input", () => {
    clearTimeout(validateTimer);
    $("design-state").textContent = "checking…";
    validateTimer = setTimeout(validateNow, 300);
    gutter($("toml").value, []);
  });
  $("toml").addEventListener("scroll", () => { $("gutter").scrollTop = $("toml").scrollTop; });
  $("design-play").addEventListener("click", () => {
    if (lastValid === null) return;
    showTab("play");
    newGame({ toml: lastValid });
  });

  // The game this page was showing, from the server or rebuilt from the copy kept here.
  const kept = loadSaved();
  if (kept) {
    ui.mode = kept.mode || "white"; ui.level = kept.level || 3; ui.flipped = !!kept.flipped;
    ui.toml = kept.toml || null;
    $("mode").value = ui.mode; $("level").value = ui.level;
    try {
      const g = await api("GET", `/api/games/${kept.id}`);
      setGame(g);
    } catch (e) {
      const body = { fen: kept.start_fen, moves: kept.moves || [] };
      if (kept.toml) body.toml = kept.toml; else body.variant = kept.variant || "dama";
      try { setGame(await api("POST", "/api/games", body)); } catch (e2) { message(`The saved game could not be restored: ${e2.message}`); }
    }
  }
  if (!ui.game) {
    $("level").value = ui.level;
    await newGame({ variant: "dama" });
  } else {
    syncVariantSelect();
    render();
    maybeComputer();
  }
  document.body.dataset.ready = "yes";
}

start();
