// The web page's drawing of one table view, as text: loads experiments/serve/static/table.js
// (and the helpers it takes from app.js: $, el, plural) into a tiny stand-in for the DOM,
// calls drawTable(view, legal) and logItem(item) for each of the view's events, and prints
// what each part of the page then shows as JSON. Read by tests/lab/test_table_render.py:
// the terminal must show the same turn in the same words. Input on stdin:
// {"static": dir, "view": table view, "names": [...], "game": kind, "unit": unit, "legal": [...]}.
"use strict";
const fs = require("fs");
const vm = require("vm");

class Node {
  constructor(tag) {
    Object.assign(this, { tagName: tag, children: [], className: "", dataset: {}, attrs: {}, style: {}, own: "" });
    this.classList = {
      add: (c) => { this.className = (this.className + " " + c).trim(); },
      contains: (c) => this.className.split(" ").includes(c),
      remove: () => {}, toggle: () => {},
    };
  }
  set textContent(v) { this.children = []; this.own = String(v); }
  get textContent() { return this.own + this.children.map((c) => (typeof c === "string" ? c : c.textContent)).join(""); }
  get lastChild() { return this.children[this.children.length - 1]; }
  append(...xs) { this.children.push(...xs); }
  prepend(...xs) { this.children.unshift(...xs); }
  replaceChildren(...xs) { this.children = [...xs]; this.own = ""; }
  setAttribute(k, v) { this.attrs[k] = v; }
  removeAttribute(k) { delete this.attrs[k]; }
  addEventListener() {}
  querySelectorAll(tag) { return this.children.filter((c) => c instanceof Node && c.tagName === tag); }
}

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const byId = {};
const document = {
  createElement: (tag) => new Node(tag),
  getElementById: (id) => (byId[id] = byId[id] || new Node("div")),
  querySelectorAll: () => [],
  querySelector: () => null,
};
const app = fs.readFileSync(input.static + "/app.js", "utf8");
const helper = (name) => {  // one `const NAME = ...` definition of app.js, as written there
  const m = app.match(new RegExp(`^const \\${name} = (?:.*\\{\\n[\\s\\S]*?^\\};|.*;)$`, "m"));
  if (!m) throw new Error(`no ${name} in app.js`);
  return m[0];
};
const context = vm.createContext({ document, console });
vm.runInContext(["$", "el", "plural"].map(helper).join("\n"), context);
vm.runInContext("const S = { names: [], setup: null, legend: [] };", context);
vm.runInContext(fs.readFileSync(input.static + "/table.js", "utf8"), context);
vm.runInContext(`S.names = ${JSON.stringify(input.names)};
S.setup = { game: ${JSON.stringify(input.game)}, unit: ${JSON.stringify(input.unit)}, watch: false, utility: -1 };`, context);
context.view = input.view;
context.legal = new Set(input.legal);
vm.runInContext("drawTable(view, legal); for (const item of view.events || []) logItem(item);", context);

const text = (n) => (typeof n === "string" ? n : n.textContent);
const ofClass = (n, cls) => n.children.filter((c) => c instanceof Node && c.className.split(" ")[0] === cls);
const cellText = (c) => text(ofClass(c, "t")[0] || "");
const kids = (id) => byId[id] ? byId[id].children : [];
process.stdout.write(JSON.stringify({
  title: text(byId.title), status: text(byId.status), prompt: text(byId.prompt), hand_label: text(byId["hand-label"]),
  rows: kids("rows").map((r) => ({ label: text(ofClass(r, "label")[0]), cells: ofClass(r, "cell").map(cellText),
                                   points: text(ofClass(r, "points")[0]), note: text(ofClass(r, "note")[0]) })),
  hand: kids("hand").map(cellText),
  choices: kids("choices").map(text),
  helps: kids("choice-help").map(text),
  pending: kids("pending").filter((c) => typeof c !== "string").map(text),
  scores: kids("scores").slice(1).map((tr) => tr.children.map(text)),
  info: kids("info").map(text),
  legend: kids("legend").map((li) => li.children.map((c) => (typeof c === "string" ? c : cellText(c) || text(c)))),
  log: kids("log").map(text),
}));
