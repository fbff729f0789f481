#!/usr/bin/env node
// A sixnimmt lab bot in Node.js (no packages): the JSON-lines protocol of docs/own-agent.md.
//
//     sixnimmt match --agents "cmd:node docs/examples/bot.js,mcs,random,random"
//
// The same strategy as bot.py: the cheapest row to take, else the card or tile with the
// fewest bullheads (lowest first), else the first legal action.
const readline = require("readline");

function choose(decision) {
  const legal = new Set(decision.legal);
  const view = decision.view;
  const rows = view.rows.filter((r) => legal.has(r.action));
  if (rows.length) return rows.reduce((a, b) => (b.points < a.points ? b : a)).action;
  const hand = view.hand.filter((c) => legal.has(c.action));
  if (hand.length) {
    return hand.reduce((a, b) => (b.bulls < a.bulls || (b.bulls === a.bulls && b.card < a.card) ? b : a)).action;
  }
  return decision.legal[0];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    process.stdout.write(JSON.stringify({ type: "ready", name: "example-node" }) + "\n");
  } else if (message.type === "act") {
    process.stdout.write(JSON.stringify(message.decisions.map(choose)) + "\n");
  } else {
    input.close();
  }
});
