// The results page: /api/results drawn as one table of agents and one of people per game.
"use strict";

const cell = (tag, text) => { const e = document.createElement(tag); e.textContent = text; return e; };
const ci = (v, h) => (Number.isFinite(h) ? `${v.toFixed(2)} ± ${h.toFixed(2)}` : v.toFixed(2));

function table(head, rows) {
  const t = document.createElement("table");
  t.className = "scores";
  const tr = document.createElement("tr");
  head.forEach((h) => tr.append(cell("th", h)));
  t.append(tr);
  for (const r of rows) {
    const line = document.createElement("tr");
    r.forEach((v) => line.append(cell("td", v)));
    t.append(line);
  }
  return t;
}

async function load() {
  const box = document.getElementById("results");
  const res = await fetch("/api/results");
  const data = await res.json();
  box.replaceChildren();
  if (data.error) { box.textContent = data.error; return; }
  const games = Object.entries(data);
  if (!games.length) { box.textContent = "No finished game with a person yet."; return; }
  for (const [game, part] of games) {
    const unit = part.unit;
    box.append(cell("h3", `${game}: ${part.games} games with people (${unit} a round, ${part.utility < 0 ? "fewer" : "more"} is better)`));
    box.append(table(["agent", "games", `agent ${unit}`, `people ${unit}`, "agent wins", "people wins", "rating"],
      Object.entries(part.agents).map(([spec, a]) => [spec, a.games, ci(a.points_per_round, a.points_ci),
        ci(a.people.points_per_round, a.people.points_ci), a.win_share.toFixed(2), a.people.win_share.toFixed(2),
        a.rating.ordinal.toFixed(2)])));
    box.append(table(["person", "games", unit, "wins", "rating"],
      Object.entries(part.people).map(([name, p]) => [name, p.games, ci(p.points_per_round, p.points_ci),
        p.win_share.toFixed(2), p.rating.ordinal.toFixed(2)])));
  }
}

load();
