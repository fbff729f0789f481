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

async function play() {
  S.playing = true;
  while (S.queue.length) {
    const msg = S.queue.shift();
    if (msg.type === "step") {
      for (const item of msg.table.events || []) {
        logItem(item);
        flash(item);
        if (pace()) await sleep(item.kind === "reveal" ? pace() * 1.5 : pace());
      }
      drawTable(msg.table, new Set());
    } else if (msg.type === "turn") {
      S.decision = msg.decision;
      S.legal = new Set(msg.legal);
      drawTable(msg.table, S.legal);
      setPrompt(msg.table.prompt, "turn");
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

// ------------------------------------------------------------------ game start, history, end

function startGame(msg) {
  S.id = msg.id;
  S.setup = msg;
  S.names = msg.names;
  S.queue = [];
  S.decision = null;
  sessionStorage.setItem("sixnimmt-game", msg.id);
  $("setup").hidden = true;
  $("game").hidden = false;
  $("new-game").hidden = false;
  $("log").replaceChildren();
  $("summary").hidden = true;
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
    const li = el("li", "", `${S.names[s]}: ${t} ${S.setup.unit}` + (msg.winners.includes(s) ? " — winner" : ""));
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
  markWinners(msg.winners);
  setPrompt(msg.table.prompt, "over");
}

// ------------------------------------------------------------------ drawing a table view

function cellEl(c, cls) {
  const e = el("div", (cls || "cell") + (c.empty ? " empty" : "") + (c.bulls ? " b" + c.bulls : "")
                + (c.field ? " f-" + c.field : "") + (c.card && c.field ? " tile" : "") + (c.next ? " next" : ""));
  e.append(el("span", "t", c.text));
  if (c.bulls) e.append(el("span", "b", c.bulls + " ✦"));
  if (c.card) e.dataset.card = c.card;
  return e;
}

function drawTable(t, legal) {
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
    row.append(el("span", "points", `${r.points} ${t.unit}`));
    row.append(el("span", "note", r.note));
    if (r.action !== null && legal.has(r.action)) pickable(row, r.action, "pickable");
    rows.append(row);
  });
  const hand = $("hand");
  hand.replaceChildren();
  for (const c of t.hand) {
    const card = cellEl(c, "card");
    if (c.action !== null && legal.has(c.action)) pickable(card, c.action, "playable");
    else card.classList.add("disabled");
    hand.append(card);
  }
  const choices = $("choices");
  choices.replaceChildren();
  for (const ch of t.choices) {
    if (!legal.has(ch.action)) continue;
    const b = el("button", "", ch.label);
    b.type = "button";
    pickable(b, ch.action, "");
    choices.append(b);
  }
  $("pending").textContent = (t.pending || []).length
    ? "Waiting to be placed: " + t.pending.map((p) => `${S.names[p.seat]} ${p.text}`).join(" · ") : "";
  const scores = $("scores");
  scores.replaceChildren();
  for (const s of t.scores) {
    const tr = el("tr");
    tr.dataset.seat = s.seat;
    tr.append(el("td", "", S.names[s.seat] || `seat ${s.seat}`));
    const total = el("td", "total", String(s.total));
    total.dataset.total = s.total;
    tr.append(total, el("td", "", s.note));
    scores.append(tr);
  }
  $("info").replaceChildren(...t.info.map((line) => el("li", "", line)),
                            ...(t.legend || []).map((l) => el("li", "", `${l.text}: ${l.meaning}`)));
}

function pickable(node, action, cls) {
  if (cls) node.classList.add(cls);
  node.dataset.action = action;
  node.addEventListener("click", () => choose(action));
}

function choose(action) {
  if (S.decision === null || !S.legal.has(action)) return;
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
  const li = el("li", item.kind === "round" ? "round" : item.alert ? "alert" : "");
  li.dataset.kind = item.kind;
  if (item.kind === "reveal") {
    li.append("Revealed: ");
    item.cards.forEach((c, i) => {
      if (i) li.append(" · ");
      li.append(`${S.names[c.seat]} `, el("span", "mini b" + c.bulls, c.text));
    });
  } else if (item.kind === "round") {
    li.textContent = item.text + ": " + item.points.map((p, s) => `${S.names[s]} +${p}`).join(" · ");
  } else {
    if (item.seat !== undefined && item.seat !== null) li.append(`${S.names[item.seat]}: `);
    for (const c of item.cards || []) li.append(el("span", "mini b" + c.bulls, c.text), " ");
    li.append(item.text);
    if ((item.taken || []).length) {
      li.append(": ");
      for (const c of item.taken) li.append(el("span", "mini b" + c.bulls, c.text), " ");
    }
  }
  const log = $("log");
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

function flash(item) {
  if (item.row === undefined) return;
  const row = document.querySelector(`#rows .row[data-row="${item.row}"]`);
  if (row) { row.classList.add("flash"); setTimeout(() => row.classList.remove("flash"), 400); }
}

function showHint(msg) {
  if (msg.decision !== S.decision) return;
  const box = $("hint");
  box.replaceChildren(el("div", "best", "Hint (" + msg.agent + "): " +
                         (msg.choices.find((c) => c.action === msg.best) || {}).label));
  box.append(el("div", "", msg.choices.map((c) => `${c.label}: ${c.mean.toFixed(1)}`).join("   ")));
  box.append(el("small", "", msg.explain));
  box.hidden = false;
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
  send({ type: "new", game: $("f-game").value, variant: $("f-variant").value, players: Number($("f-players").value),
         opponents: [...document.querySelectorAll("#f-opponents input")].map((i) => i.value.trim()),
         seed: $("f-seed").value.trim() || null, hints: !watch && $("f-hints").checked, watch, options });
}

function init() {
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
