// The page of `sixnimmt serve`. It draws any game from the server's table views
// (Game.table_view): rows of cells, a hand, scores, a prompt, answer buttons. It knows
// no game's rules: what may be clicked is what carries an action in the legal set.
// Messages are played from a queue so that the placements of a reveal appear one by one
// at the chosen pace; the game id lives in sessionStorage so a reload resumes the game.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const S = { ws: null, id: null, names: [], setup: null, decision: null, legal: new Set(), queue: [],
            playing: false, paused: false, catalog: null, retry: 500, nextTimer: null };

// ------------------------------------------------------------------ connection

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 500;
    setConn("connected", false);
    const id = sessionStorage.getItem("sixnimmt-game");
    if (id) send({ type: "resume", id });
    else showSetup();
  };
  ws.onclose = () => {
    setConn("disconnected — reconnecting…", true);
    setTimeout(connect, S.retry);
    S.retry = Math.min(S.retry * 2, 8000);
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return showError("not connected to the server");
  S.ws.send(JSON.stringify(msg));
}

function setConn(text, down) { $("conn").textContent = text; $("conn").classList.toggle("down", down); }

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(S.errorTimer);
  S.errorTimer = setTimeout(() => { box.hidden = true; }, 8000);
}

function receive(msg) {
  if (msg.type === "error") {
    showError(msg.message);
    if (msg.code === "unknown-game" && (msg.id === S.id || !S.id)) {  // expired: back to the form
      sessionStorage.removeItem("sixnimmt-game");
      showSetup();
    }
    else if (S.id && $("prompt").dataset.state === "busy" && S.decision !== null) setClickable(true);
    return;
  }
  if (msg.type === "pong") return;
  if (msg.id && S.id && msg.id !== S.id && msg.type !== "setup") return; // another game's late reply
  if (msg.type === "setup") return startGame(msg);
  if (msg.type === "history") return history(msg.steps);
  if (msg.type === "hint") return showHint(msg);
  S.queue.push(msg);
  if (!S.playing) play();
}

// ------------------------------------------------------------------ the message queue

const pace = () => Number($("speed").value);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// "1 bullhead", "2 bullheads", "1 point": units are given in the plural.
const plural = (n, unit) => `${n} ${Math.abs(n) === 1 && unit.endsWith("s") ? unit.slice(0, -1) : unit}`;

async function play() {
  S.playing = true;
  while (S.queue.length) {
    const msg = S.queue.shift();
    if (msg.type === "step") {
      for (const item of msg.table.events || []) {
        logItem(item);
        await showItem(item);
      }
      drawTable(msg.table, new Set());
    } else if (msg.type === "turn") {
      S.decision = msg.decision;
      S.legal = new Set(msg.legal);
      drawTable(msg.table, S.legal);
      setPrompt(msg.table.prompt, "turn");
      focusOption();
    } else if (msg.type === "watch") {
      drawTable(msg.table, new Set());
      setPrompt(msg.table.prompt, "watch");
      scheduleNext();
    } else if (msg.type === "over") {
      drawTable(msg.table, new Set());
      gameOver(msg);
    }
  }
  S.playing = false;
}

function scheduleNext() {
  clearTimeout(S.nextTimer);
  if (S.paused || !S.setup || !S.setup.watch) return;
  S.nextTimer = setTimeout(() => { if (!S.paused && !S.queue.length) send({ type: "next", id: S.id }); },
                           Math.max(pace(), 30));
}

// ------------------------------------------------------------------ a placement, shown on the table

const rowEl = (r) => document.querySelector(`#rows .row[data-row="${r}"]`);
const rowCells = (r) => { const row = rowEl(r); return row ? [...row.querySelectorAll(".cell")] : []; };

// The field a cell stands for (board) or an empty place (cards), as when nothing lies on it.
function bareCell(old) {
  const f = old.dataset.field;
  return cellEl(f ? { text: old.dataset.code, field: f, code: old.dataset.code } : { text: "", empty: true });
}

function putTile(cell, c) {
  const f = cell.dataset.field;
  const tile = cellEl(Object.assign({}, c, f ? { field: f, code: cell.dataset.code } : {}));
  tile.classList.add("placed");
  cell.replaceWith(tile);
  return tile;
}

// One placement of the log on the rows, as it happens: the card or tile lands on its
// field (a Front shifts the row), a take fades the row's cards and clears them, a moved
// tile starts its new row; the seat's score changes at once. The table view drawn at the
// end of the step is the authority: this only shows the way there.
async function showItem(item) {
  const wait = pace();
  if (item.kind === "reveal") return wait && sleep(wait * 1.5);
  if (item.kind === "place" && item.row === undefined && item.moved_to !== undefined && item.moved_to !== null) {
    const card = item.cards[0];  // a tile that waited on its take field for a question moves on
    document.querySelectorAll(`#rows .cell[data-card="${card.card}"]`).forEach((c) => c.replaceWith(bareCell(c)));
    const dest = rowCells(item.moved_to)[0];
    if (dest) putTile(dest, card);
  }
  if (item.kind !== "place" || item.row === undefined) return wait && sleep(item.kind === "action" ? wait * 1.5 : wait);
  const row = rowEl(item.row);
  if (row) row.classList.add("flash");
  const card = item.cards[0];
  const waiting = document.querySelector(`#pending [data-card="${card.card}"]`);
  if (waiting) waiting.remove();
  let cells = rowCells(item.row);
  const field = item.field || 0;
  if (cells[field] && cells[field].dataset.card && !item.take) {  // Front: the row moves one field right
    const tiles = cells.map((c) => (c.dataset.card ? tileOf(c) : null));
    for (let f = cells.length - 1; f > field; f--) if (tiles[f - 1]) putTile(cells[f], tiles[f - 1]);
    cells = rowCells(item.row);
  }
  if (item.take) cells.forEach((c, f) => { if (c.dataset.card && (f !== field || item.field === undefined)) c.classList.add("taken"); });
  if (cells[field] && !(item.take && item.field === 0 && !cells[field].dataset.field)) putTile(cells[field], card);
  setScore(item.score);
  if (wait) await sleep(item.take ? wait * 1.2 : wait);
  if (item.take) {
    rowCells(item.row).forEach((c) => { if (c.classList.contains("taken")) c.replaceWith(bareCell(c)); });
    if (item.field === 0 && !cells[0].dataset.field) putTile(rowCells(item.row)[0], card);  // cards: it starts the row
    if (item.moved_to !== undefined && item.moved_to !== null) {
      const here = rowCells(item.row).find((c) => c.dataset.card === String(card.card));
      if (here) here.replaceWith(bareCell(here));
      const dest = rowCells(item.moved_to)[0];
      if (dest) putTile(dest, card);
      const to = rowEl(item.moved_to);
      if (to) to.classList.add("flash");
    }
    if (wait) await sleep(wait * 0.6);
  }
  document.querySelectorAll("#rows .row.flash").forEach((r) => r.classList.remove("flash"));
}

function tileOf(cell) {
  return { card: Number(cell.dataset.card), text: cell.querySelector(".t").textContent, bulls: Number(cell.dataset.bulls) };
}

function setScore(score) {
  if (!score) return;
  const tr = document.querySelector(`#scores tr[data-seat="${score.seat}"]`);
  if (!tr) return;
  const total = tr.querySelector("td.total");
  total.textContent = String(score.total);
  total.dataset.total = score.total;
  if (score.note !== undefined) tr.querySelector("td.note").textContent = score.note;
}

// ------------------------------------------------------------------ game start, history, end

function startGame(msg) {
  S.id = msg.id;
  S.setup = msg;
  S.names = msg.names;
  S.queue = [];
  S.decision = null;
  S.rounds = [];
  S.heading = null;
  S.focus = 0;
  sessionStorage.setItem("sixnimmt-game", msg.id);
  $("setup").hidden = true;
  $("game").hidden = false;
  $("new-game").hidden = false;
  $("log").replaceChildren();
  $("summary").hidden = true;
  $("after").hidden = true;
  $("record").hidden = true;
  $("hint").hidden = true;
  $("pause").hidden = !msg.watch;
  $("hand-wrap").hidden = msg.watch;
  $("unit").textContent = "(" + msg.unit + ")";
  setPrompt("…", "busy");
}

function history(steps) {
  for (const m of steps) for (const item of m.table.events || []) logItem(item);
}

function gameOver(msg) {
  S.decision = null;
  clearTimeout(S.nextTimer);
  const order = msg.totals.map((t, s) => [t, s]).sort((a, b) => S.setup.utility * (b[0] - a[0]) || a[1] - b[1]);
  const box = $("summary");
  box.replaceChildren(el("h3", "", "Game over"));
  const list = el("ol");
  for (const [t, s] of order) {
    const li = el("li", "", `${S.names[s]}: ${plural(t, S.setup.unit)}` + (msg.winners.includes(s) ? " — winner" : ""));
    li.dataset.seat = s;
    list.append(li);
  }
  box.append(list);
  const you = !S.setup.watch && msg.winners.includes(0);
  box.append(el("p", "", S.setup.watch ? "" : you ? (msg.winners.length > 1 ? "You share the win." : "You win!")
                                                    : "Winner: " + msg.winners.map((w) => S.names[w]).join(", ")));
  box.append(el("p", "", `seed ${msg.seed}`));
  box.hidden = false;
  const link = $("record");
  link.href = msg.record;
  link.download = `sixnimmt-${S.id}.json`;
  link.hidden = false;
  $("after").hidden = false;
  $("rematch").hidden = !S.lastNew;
  markWinners(msg.winners);
  setPrompt(msg.table.prompt + (S.lastNew ? " Press R for a rematch." : ""), "over");
  if (S.lastNew) $("rematch").focus();
}

function rematch() {
  if (!S.lastNew || $("after").hidden) return;
  send(Object.assign({}, S.lastNew, { seed: null }));
}

// ------------------------------------------------------------------ drawing a table view

function cellEl(c, cls, tag) {
  const e = el(tag || "div", (cls || "cell") + (c.empty ? " empty" : "") + (c.bulls ? " b" + c.bulls : "")
                + (c.field ? " f-" + c.field : "") + (c.card && c.field ? " tile" : "") + (c.next ? " next" : ""));
  e.append(el("span", "t", c.text));
  if (c.bulls) {  // read out as words, drawn as a symbol
    const b = el("span", "b", c.bulls + " ✦");
    b.setAttribute("aria-hidden", "true");
    e.append(b, el("span", "sr", `, ${plural(c.bulls, penaltyUnit())}`));
  }
  if (c.card && c.code) e.append(el("span", "k", c.code));  // the field under a tile: not by colour only
  if (c.card) { e.dataset.card = c.card; e.dataset.bulls = c.bulls; }
  if (c.field) { e.dataset.field = c.field; e.dataset.code = c.code; }
  const what = c.card ? `${c.text}, ${plural(c.bulls, penaltyUnit())}` : c.empty ? "empty" : c.field ? `field ${c.code}` : c.text;
  e.title = c.field ? `${what} (${fieldMeaning(c.field)})` : what;
  return e;
}

// What a card's number under its face counts: bullheads, or Die Sechste's penalty points.
const penaltyUnit = () => (S.setup && S.setup.game === "cards" ? S.setup.unit : "bullheads");
const fieldMeaning = (f) => ((S.legend || []).find((l) => l.field === f) || { meaning: f.replace(/-/g, " ") }).meaning;

function drawTable(t, legal) {
  S.legend = t.legend || [];
  $("title").textContent = t.title;
  $("status").textContent = t.status;
  $("prompt").textContent = t.prompt;
  $("hand-label").textContent = t.hand_label;
  const rows = $("rows");
  rows.replaceChildren();
  t.rows.forEach((r, i) => {
    const row = el("div", "row" + (r.alert ? " alert" : "") + (r.dim ? " dim" : ""));
    row.dataset.row = i;
    row.append(el("span", "label", r.label));
    for (const c of r.cells) row.append(cellEl(c));
    row.append(el("span", "points", plural(r.points, t.unit)));
    row.append(el("span", "note", r.note));
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `Row ${r.label}`);
    if (r.action !== null && legal.has(r.action)) {  // named by its content: "take row 2: 13, 1 bullhead ..."
      pickable(row, r.action, "pickable");
      row.setAttribute("role", "button");
      row.removeAttribute("aria-label");
      row.prepend(el("span", "sr", "take row "));
      row.tabIndex = 0;
      row.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(r.action); } });
    }
    rows.append(row);
  });
  const hand = $("hand");
  hand.replaceChildren();
  for (const c of t.hand) {
    const card = cellEl(c, "card", "button");
    card.type = "button";
    if (c.action !== null && legal.has(c.action)) pickable(card, c.action, "playable");
    else { card.classList.add("disabled"); card.disabled = true; }
    hand.append(card);
  }
  const choices = $("choices");
  choices.replaceChildren();
  const helps = [];  // each answer's explanation once, under the buttons (and as their tooltip)
  for (const ch of t.choices) {
    if (!legal.has(ch.action)) continue;
    const b = el("button", "", ch.label);
    b.type = "button";
    if (ch.help) { b.title = ch.help; if (!helps.includes(ch.help)) helps.push(ch.help); }
    pickable(b, ch.action, "");
    choices.append(b);
  }
  $("choice-help").replaceChildren(...helps.map((h) => el("li", "", h)));
  const pending = $("pending");  // each card leaves this line as it is placed (showItem)
  pending.replaceChildren();
  if ((t.pending || []).length) {
    pending.append("Waiting to be placed: ");
    for (const p of t.pending) {
      const span = el("span", "waiting", `${S.names[p.seat]} ${p.text}`);
      span.dataset.card = p.card;
      pending.append(span);
    }
  }
  drawScores(t.scores);
  $("info").replaceChildren(...t.info.map((line) => el("li", "", line)));
  $("legend").replaceChildren(...(t.legend || []).map((l) => {
    const li = el("li");
    if (l.field) li.append(cellEl({ text: l.text, field: l.field, code: l.text }));
    else li.append(el("strong", "", l.text + " "));
    li.append(l.meaning);
    return li;
  }));
}

function drawScores(scores) {
  const table = $("scores");
  const rounds = S.rounds || [];
  const head = el("tr");
  head.append(el("th", "", "seat"), ...rounds.map((_, i) => el("th", "", `R${i + 1}`)), el("th", "", "total"), el("th", "", ""));
  head.querySelectorAll("th").forEach((th) => th.setAttribute("scope", "col"));
  head.lastChild.textContent = "notes";
  table.replaceChildren(head);
  for (const s of scores) {
    const tr = el("tr");
    tr.dataset.seat = s.seat;
    tr.append(el("td", "", S.names[s.seat] || `seat ${s.seat}`));
    for (const r of rounds) tr.append(el("td", "round", String(r[s.seat])));
    const total = el("td", "total", String(s.total));
    total.dataset.total = s.total;
    tr.append(total, el("td", "note", s.note));
    table.append(tr);
  }
}

function pickable(node, action, cls) {
  if (cls) node.classList.add(cls);
  node.dataset.action = action;
  node.addEventListener("click", () => choose(action));
}

function choose(action) {
  if (S.decision === null || !S.legal.has(action)) return;
  const opts = options();
  S.focus = Math.max(0, opts.findIndex((n) => Number(n.dataset.action) === action));
  send({ type: "act", id: S.id, action, decision: S.decision });
  setClickable(false);
  setPrompt("…", "busy");
  $("hint").hidden = true;
}

function setClickable(on) {
  document.querySelectorAll("[data-action]").forEach((n) => { n.style.pointerEvents = on ? "" : "none"; });
  if (on) setPrompt($("prompt").textContent, "turn");
}

function setPrompt(text, state) { $("prompt").textContent = text; $("prompt").dataset.state = state; }

function markWinners(winners) {
  document.querySelectorAll("#scores tr").forEach((tr) => tr.classList.toggle("winner", winners.includes(Number(tr.dataset.seat))));
}

function logItem(item) {
  const log = $("log");
  if (item.heading && item.heading !== S.heading) {  // the log is grouped by turn (and round)
    S.heading = item.heading;
    log.append(el("li", "turn", item.heading));
  }
  const li = el("li", item.kind === "round" ? "round" : item.kind === "action" ? "action" : item.alert ? "alert" : "");
  li.dataset.kind = item.kind;
  if (item.kind === "reveal") {
    li.append("Revealed: ");
    item.cards.forEach((c, i) => {
      if (i) li.append(" · ");
      li.append(`${S.names[c.seat]} `, el("span", "mini b" + c.bulls, c.text));
    });
  } else if (item.kind === "round") {
    (S.rounds = S.rounds || []).push(item.points);
    li.textContent = item.text + ": " + item.points.map((p, s) => `${S.names[s]} +${p}`).join(" · ");
  } else {
    if (item.seat !== undefined && item.seat !== null) li.append(`${S.names[item.seat]} `);
    for (const c of item.cards || []) li.append(el("span", "mini b" + c.bulls, c.text), " ");
    li.append(item.text);
    if (item.help) li.title = item.help;
    if ((item.taken || []).length) {
      li.append(": ");
      for (const c of item.taken) li.append(el("span", "mini b" + c.bulls, c.text), " ");
    }
  }
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

function showHint(msg) {
  if (msg.decision !== S.decision) return;
  const box = $("hint");
  const u = S.setup.utility;
  const ranked = [...msg.choices].sort((a, b) => u * (b.mean - a.mean));
  box.replaceChildren(el("div", "best", "Hint (" + msg.agent + "): " +
                         (msg.choices.find((c) => c.action === msg.best) || {}).label));
  const list = el("ol");
  for (const c of ranked) list.append(el("li", c.action === msg.best ? "best" : "", `${c.label}: ${c.mean.toFixed(1)} ${S.setup.unit}`));
  box.append(list, el("small", "", msg.explain));
  box.tabIndex = -1;
  box.hidden = false;
}

// ------------------------------------------------------------------ the keyboard

// What may be chosen now, in reading order: answers, rows, then cards.
const options = () => [...document.querySelectorAll("#choices button[data-action], #rows .row[data-action], #hand .card[data-action]")];

function focusOption() {
  const opts = options();
  if (!opts.length) return;
  const n = opts[Math.min(S.focus || 0, opts.length - 1)];
  n.focus({ preventScroll: true });
}

function onKey(ev) {
  if ($("game").hidden || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
  const key = ev.key;
  const opts = options();
  const at = opts.indexOf(document.activeElement);
  if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(key) && opts.length) {
    const step = key === "ArrowRight" || key === "ArrowDown" ? 1 : -1;
    const next = at < 0 ? (step > 0 ? 0 : opts.length - 1) : (at + step + opts.length) % opts.length;
    opts[next].focus();
    ev.preventDefault();
  } else if (/^[1-9]$/.test(key) && opts[Number(key) - 1]) {
    opts[Number(key) - 1].focus();
    opts[Number(key) - 1].click();
  } else if (key === "r" || key === "R") {
    rematch();
  } else if (key === "n" || key === "N") {
    sessionStorage.removeItem("sixnimmt-game");
    showSetup();
  } else if ((key === "h" || key === "H") && !$("hint").hidden) {
    $("hint").focus();
  }
}

// ------------------------------------------------------------------ the setup form

async function loadCatalog() {
  S.catalog = await (await fetch("/api/options")).json();
  const games = $("f-game");
  games.replaceChildren(...S.catalog.games.map((g) => new Option(g.name === "cards" ? "cards (6 nimmt!)" : g.name === "board" ? "board (Das Brettspiel)" : g.name, g.name)));
  $("agent-names").replaceChildren();
  onGame();
}

const gameInfo = () => S.catalog.games.find((g) => g.name === $("f-game").value);

function onGame() {
  const g = gameInfo();
  $("f-variant").replaceChildren(...g.variants.map((v) => new Option(v, v)));
  const p = $("f-players");
  p.min = g.min_players; p.max = g.max_players;
  p.value = Math.min(Math.max(Number(p.value) || g.players, g.min_players), g.max_players);
  $("agent-names").replaceChildren(...g.agents.map((a) => new Option(a, a)));
  $("f-options").replaceChildren(...Object.entries(g.options).map(([k, v]) => {
    const label = el("label", "", k.replace(/_/g, " "));
    const input = el("input");
    input.name = k; input.id = "o-" + k; input.placeholder = v === null ? "unset" : String(v);
    label.append(input);
    return label;
  }));
  $("f-hints").disabled = !g.agents.includes("mcs");
  onSeats();
}

async function onSeats() {
  const g = gameInfo();
  const watch = $("f-watch").checked;
  const players = Number($("f-players").value);
  const q = new URLSearchParams({ game: g.name, variant: $("f-variant").value, players, watch });
  const asked = (S.seatsAsked = (S.seatsAsked || 0) + 1);
  $("start").disabled = true;  // until the seats match the table chosen
  const res = await (await fetch("/api/defaults?" + q)).json();
  if (asked !== S.seatsAsked) return;  // a newer choice is on its way
  $("start").disabled = false;
  const box = $("f-opponents");
  box.replaceChildren();
  (res.opponents || []).forEach((spec, i) => {
    const label = el("label", "", `seat ${i + (watch ? 0 : 1)}`);
    const input = el("input");
    input.value = spec; input.setAttribute("list", "agent-names"); input.className = "opponent";
    label.append(input);
    box.append(label);
  });
  if (res.error) showError(res.error);
  $("f-hints").disabled = watch || !g.agents.includes("mcs");
}

function showSetup() {
  S.id = null;
  $("game").hidden = true;
  $("setup").hidden = false;
  $("new-game").hidden = true;
  clearTimeout(S.nextTimer);
  if (!S.catalog) loadCatalog();
}

function submitSetup(ev) {
  ev.preventDefault();
  const options = {};
  document.querySelectorAll("#f-options input").forEach((i) => { if (i.value.trim()) options[i.name] = i.value.trim(); });
  const watch = $("f-watch").checked;
  S.lastNew = { type: "new", game: $("f-game").value, variant: $("f-variant").value, players: Number($("f-players").value),
         opponents: [...document.querySelectorAll("#f-opponents input")].map((i) => i.value.trim()),
         seed: $("f-seed").value.trim() || null, hints: !watch && $("f-hints").checked, watch, options };
  sessionStorage.setItem("sixnimmt-new", JSON.stringify(S.lastNew));
  send(S.lastNew);
}

function init() {
  try { S.lastNew = JSON.parse(sessionStorage.getItem("sixnimmt-new")); } catch (e) { S.lastNew = null; }
  document.addEventListener("keydown", onKey);
  $("rematch").addEventListener("click", rematch);
  $("setup").addEventListener("submit", submitSetup);
  $("f-game").addEventListener("change", onGame);
  $("f-variant").addEventListener("change", onSeats);
  $("f-players").addEventListener("change", onSeats);
  $("f-watch").addEventListener("change", onSeats);
  $("new-game").addEventListener("click", () => { sessionStorage.removeItem("sixnimmt-game"); showSetup(); });
  const speed = $("speed");
  if (localStorage.getItem("sixnimmt-pace") !== null) speed.value = localStorage.getItem("sixnimmt-pace");
  const speedText = () => {  // kept across reloads, like the game
    $("speed-text").textContent = speed.value === "0" ? "instant" : `${speed.value} ms`;
    localStorage.setItem("sixnimmt-pace", speed.value);
  };
  speed.addEventListener("input", speedText);
  speedText();
  $("pause").addEventListener("click", () => {
    S.paused = !S.paused;
    $("pause").textContent = S.paused ? "Play" : "Pause";
    if (!S.paused && !S.playing) scheduleNext();
  });
  connect();
}

init();
