// The table of `sixnimmt serve`'s page: drawing a table view (Game.table_view) — rows,
// hand, answers, scores, the log, hints — and showing each placement on the rows as the
// log reports it. Loaded before app.js, whose helpers ($, el, S, plural) it uses.
"use strict";

// ------------------------------------------------------------------ drawing a table view

function cellEl(c, cls, tag) {
  const e = el(tag || "div", (cls || "cell") + (c.empty ? " empty" : "") + (c.bulls ? " b" + c.bulls : "")
                + (c.field ? " f-" + c.field : "") + (c.card && c.field ? " tile" : "") + (c.next ? " next" : ""));
  e.append(el("span", "t" + (/[♥♦]$/.test(c.text || "") ? " red-suit" : ""), c.text));
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
    tr.append(el("td", "", S.names[s.seat] || `seat ${s.seat + 1}`));
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
      li.append(`${S.names[c.seat]} `, miniEl(c));
    });
  } else if (item.kind === "round") {
    (S.rounds = S.rounds || []).push(item.points);
    li.textContent = item.text + ": " + item.points.map((p, s) => `${S.names[s]} +${p}`).join(" · ");
  } else {
    const yours = item.seat === 0 && !S.setup.watch;  // "you play Stop", not "you plays Stop"
    if (item.seat !== undefined && item.seat !== null) li.append(`${S.names[item.seat]} `);
    for (const c of item.cards || []) li.append(miniEl(c), " ");
    li.append(yours ? secondPerson(item.text) : item.text);
    if (item.help) li.title = item.help;
    if ((item.taken || []).length) {
      li.append(": ");
      for (const c of item.taken) li.append(miniEl(c), " ");
    }
  }
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

const miniEl = (c) => el("span", "mini b" + c.bulls + (/[♥♦]$/.test(c.text) ? " red-suit" : ""), c.text);

// The server words the log for any seat ("plays", "is offered their ..."); the person is "you".
function secondPerson(text) {
  return text.replace(/^is offered their /, "are offered your ").replace(/^is asked /, "are asked ")
    .replace(/^(plays|takes|chooses)\b/, (w) => w.slice(0, -1));
}

function showHint(msg) {
  if (msg.decision !== S.decision) return;
  const box = $("hint");
  const u = S.setup.utility;
  const ranked = [...msg.choices].sort((a, b) => u * (b.mean - a.mean));
  // folded: the best choice shows, every choice's estimate opens on a click (the move stays on screen)
  const fold = el("details");
  fold.append(el("summary", "best", "Hint (" + msg.agent + "): " +
                 (msg.choices.find((c) => c.action === msg.best) || {}).label));
  const list = el("ol");
  for (const c of ranked) list.append(el("li", c.action === msg.best ? "best" : "", `${c.label}: ${c.mean.toFixed(1)} ${S.setup.unit}`));
  fold.append(list, el("small", "", msg.explain));
  box.replaceChildren(fold);
  box.tabIndex = -1;
  box.hidden = false;
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
    setScore(item.score);
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
