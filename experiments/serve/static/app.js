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
  ws.onmessage = (ev) => {  // one message, or (what a table pushes) several in order: a step and its question
    const data = JSON.parse(ev.data);
    for (const msg of Array.isArray(data) ? data : [data]) receive(msg);
  };
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
// Everything here is chosen, not typed: the agents the server's allow-list offers (with
// the registry's summary of each; a numeric parameter the list opens as a number box),
// the rule options the chosen game and variant have (a list where the option has fixed
// choices). The seat defaults come from the server (/api/defaults).

async function loadCatalog() {
  S.catalog = await (await fetch("/api/options")).json();
  const games = $("f-game");
  games.replaceChildren(...S.catalog.games.map((g) => new Option(g.name === "cards" ? "cards (6 nimmt!)" : g.name === "board" ? "board (Das Brettspiel)" : g.name, g.name)));
  onGame();
}

const gameInfo = () => S.catalog.games.find((g) => g.name === $("f-game").value);
// The short form of an agent's summary: up to its first colon, semicolon or bracket.
const shortAbout = (text) => (text || "").split(/[:;(]/)[0].trim();

// The numeric parameters the allow-list opens for agent `name`: [{param, lo, hi}] from entries such as mcs:rollouts=1..400.
function openParams(name) {
  const out = [];
  for (const text of S.catalog.allowed || []) {
    const [head, ...params] = text.split(":");
    if (head !== name) continue;
    for (const p of params) {
      const m = /^([\w-]+)=(-?[\d.]+)\.\.(-?[\d.]+)$/.exec(p);
      if (m && !out.some((o) => o.param === m[1])) out.push({ param: m[1], lo: Number(m[2]), hi: Number(m[3]) });
    }
  }
  return out;
}

function onGame() {
  const g = gameInfo();
  $("f-variant").replaceChildren(...g.variants.map((v) => new Option(v, v)));
  const p = $("f-players");
  p.min = g.min_players; p.max = g.max_players;
  p.value = Math.min(Math.max(Number(p.value) || g.players, g.min_players), g.max_players);
  $("f-hints").disabled = !g.agents.includes("mcs");
  onVariant();
}

function onVariant() {
  drawRules();
  onSeats();
}

// The rule options of the chosen game and variant, each a control with its default shown.
function drawRules() {
  const g = gameInfo();
  const rules = (g.rules || {})[$("f-variant").value] || [];
  $("f-options").replaceChildren(...rules.map((o) => {
    const label = el("label", "", o.name.replace(/_/g, " "));
    let input;
    if (o.choices) {
      input = el("select");
      for (const c of o.choices) input.append(new Option(c === o.default ? `${c} (default)` : c, c));
      input.value = o.default;
    } else {
      input = el("input");
      input.type = "number";
      input.min = 0;
      input.placeholder = o.default === null ? "unset" : String(o.default);
    }
    input.name = o.name; input.id = "o-" + o.name; input.dataset.default = o.default === null ? "" : String(o.default);
    if (o.help) { label.title = o.help; input.title = o.help; }
    label.append(input);
    return label;
  }));
  $("rules-box").hidden = !rules.length;
}

// One seat's agent: a list of the allowed agents, and a number box per parameter the list opens.
function agentControl(spec, seat) {
  const g = gameInfo();
  const [name, ...given] = String(spec).split(":");
  const label = el("label", "agent", `seat ${seat}`);
  const select = el("select", "opponent");
  select.setAttribute("aria-label", `agent at seat ${seat}`);
  for (const a of g.agents) {
    const o = new Option(`${a} — ${shortAbout(g.about && g.about[a])}`, a);
    o.title = (g.about && g.about[a]) || "";
    select.append(o);
  }
  if (!g.agents.includes(name)) select.append(new Option(name, name));
  select.value = name;
  const params = el("span", "params");
  const about = el("small", "about");
  const update = () => {
    about.textContent = (g.about && g.about[select.value]) || "";
    params.replaceChildren(...openParams(select.value).map((p) => {
      const box = el("label", "param", p.param);
      const input = el("input");
      input.type = "number"; input.min = p.lo; input.max = p.hi; input.name = p.param;
      const was = given.map((x) => x.split("=")).find(([k]) => k === p.param);
      input.placeholder = "default";
      if (was && select.value === name) input.value = was[1];
      input.title = `${p.param}: ${p.lo} to ${p.hi} (empty: the agent's default)`;
      box.append(input);
      return box;
    }));
  };
  select.addEventListener("change", update);
  update();
  label.append(select, params, about);
  return label;
}

// The agent spec a seat's controls stand for: name, then any parameter given.
function seatSpec(label) {
  const name = label.querySelector("select.opponent").value;
  const params = [...label.querySelectorAll(".params input")].filter((i) => i.value.trim()).map((i) => `${i.name}=${i.value.trim()}`);
  return [name, ...params].join(":");
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
  box.replaceChildren(...(res.opponents || []).map((spec, i) => agentControl(spec, i + (watch ? 1 : 2))));
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
  const options = {};  // only what differs from the default
  document.querySelectorAll("#f-options input, #f-options select").forEach((i) => {
    if (i.value.trim() && i.value.trim() !== i.dataset.default) options[i.name] = i.value.trim();
  });
  const watch = $("f-watch").checked;
  S.lastNew = { type: "new", game: $("f-game").value, variant: $("f-variant").value, players: Number($("f-players").value),
         opponents: [...document.querySelectorAll("#f-opponents label.agent")].map(seatSpec),
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
  $("f-variant").addEventListener("change", onVariant);
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

// Not at once: the scripts after this one (tables.js) wrap showSetup and receive, and on a
// busy server the socket could open while the parser still waits for them, leaving a shared
// table's link on the plain setup form. DOMContentLoaded comes after every script has run.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
