// Tables for several people on the page of `sixnimmt serve` (docs/serve.md). Loaded after
// app.js, whose functions it wraps: a seat ticked "a person" in the setup form makes a
// table (a `table` message) instead of a game; a link /?table=ID lets others take a free
// seat or watch; the seat token the server gives is kept per table in sessionStorage and
// added to every answer and resume; a turn clock counts down the seconds left.
"use strict";

const tableParam = new URLSearchParams(location.search).get("table");
const tokenKey = (id) => "sixnimmt-token-" + id;
if (tableParam) {  // a shared link: resume the seat this tab holds there, else offer to join
  if (sessionStorage.getItem(tokenKey(tableParam))) sessionStorage.setItem("sixnimmt-game", tableParam);
  else sessionStorage.removeItem("sixnimmt-game");
}

const appSend = send;
send = function (msg) {  // the seat token goes with every answer and resume at a table
  const token = msg.id && sessionStorage.getItem(tokenKey(msg.id));
  appSend(token && (msg.type === "act" || msg.type === "resume") ? Object.assign({}, msg, { token }) : msg);
};

const appReceive = receive;
receive = function (msg) {
  if (msg.type === "joined") {
    sessionStorage.setItem(tokenKey(msg.id), msg.token);
    return;
  }
  if (msg.type === "turn" || msg.type === "watch" || msg.type === "over") setClock(msg);
  appReceive(msg);
  if (msg.type === "setup") {
    $("share").hidden = !msg.at_table;
    if (msg.at_table) showShare(msg);
    if (msg.at_table && msg.seat === null) $("hand-wrap").hidden = true;  // a spectator has no hand
  }
};

const appShowSetup = showSetup;
showSetup = function () {
  $("join").hidden = true;
  if (tableParam && !sessionStorage.getItem(tokenKey(tableParam)) && !S.leftTable) {
    $("setup").hidden = true;
    $("game").hidden = true;
    $("join").hidden = false;
    $("join-seats").textContent = `Table ${tableParam}: take a free seat, or watch.`;
    return;
  }
  appShowSetup();
};

function showShare(msg) {
  const link = `${location.origin}/?table=${encodeURIComponent(msg.id)}`;
  const box = $("share");
  const input = el("input");
  input.readOnly = true;
  input.value = link;
  input.id = "share-link";
  input.setAttribute("aria-label", "link to this table");
  const free = msg.names.filter((n) => n.endsWith("(free)")).length;
  box.replaceChildren(el("span", "", free ? `Share this link: ${free} free seat(s) for people. ` : "Link to this table: "), input);
}

// ------------------------------------------------------------------ the turn clock

function setClock(msg) {
  clearInterval(S.clockTimer);
  const box = $("clock");
  if (msg.seconds_left === undefined || msg.seconds_left === null || msg.type === "over") { box.hidden = true; return; }
  const end = Date.now() + msg.seconds_left * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    box.textContent = `${msg.type === "turn" ? "your turn" : "their turn"}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
    box.classList.toggle("low", left <= 10);
  };
  tick();
  box.hidden = false;
  S.clockTimer = setInterval(tick, 500);
}

// ------------------------------------------------------------------ the setup form: seats for people

function addPersonBoxes() {
  document.querySelectorAll("#f-opponents label.agent").forEach((label) => {
    if (label.querySelector(".person-seat")) return;
    const seat = label.firstChild.textContent.trim();
    const box = el("span", "person-box");
    const input = el("input", "person-seat");
    input.type = "checkbox";
    input.setAttribute("aria-label", `a person at ${seat}`);
    input.addEventListener("click", (ev) => ev.stopPropagation());
    box.append(input, el("span", "", "a person"));
    label.insertBefore(box, label.children[1] || null);
  });
}

function submitTable(ev) {
  const people = [...document.querySelectorAll("#f-opponents label.agent")].map((l) => l.querySelector(".person-seat")?.checked);
  if (ev.target.id !== "setup" || !people.some(Boolean) || $("f-watch").checked) return;  // a game of one person
  ev.preventDefault();
  ev.stopImmediatePropagation();
  const options = {};
  document.querySelectorAll("#f-options input, #f-options select").forEach((i) => {
    if (i.value.trim() && i.value.trim() !== i.dataset.default) options[i.name] = i.value.trim();
  });
  const seats = ["person", ...[...document.querySelectorAll("#f-opponents label.agent")].map((l, i) => (people[i] ? "person" : seatSpec(l)))];
  send({ type: "table", game: $("f-game").value, variant: $("f-variant").value, players: Number($("f-players").value),
         seats, options, seed: $("f-seed").value.trim() || null, name: $("f-name").value.trim() || null,
         turn_seconds: Number($("f-turn").value) || 60 });
}

function joinTable(ev) {
  ev.preventDefault();
  send({ type: "join", id: tableParam, name: $("j-name").value.trim() || null });
}

document.addEventListener("submit", submitTable, true);  // before app.js's own handler
new MutationObserver(addPersonBoxes).observe($("f-opponents"), { childList: true });
$("join").addEventListener("submit", joinTable);
$("j-watch").addEventListener("click", () => send({ type: "spectate", id: tableParam }));
$("new-game").addEventListener("click", () => { S.leftTable = true; $("share").hidden = true; $("clock").hidden = true; });
