"""A game's table in the terminal, drawn from `Game.table_view` as the web page draws it.

The web page (experiments/serve/static/table.js) draws any game from the seat's table view
without knowing the game; so does this module, with rich: the status, the rows and their
cells (cards, or the board's fields and the tiles on them), the cards waiting to be
placed, the person's hand, the scores, the rules in force and the legend, the prompt and
its answers, and the log of a step (the view's `events`). Both terminal games
(experiments/play/cards.py, experiments/play/board.py) show the table only through
`TableRenderer`, so a person sees the same words in the terminal and on the page
(tests/lab/test_table_render.py renders one turn both ways from one table view).

Colour only helps: every card shows its text and its bullheads, every field its code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

# The board's fields by the view's `field` name (the page's CSS classes f-NAME).
FIELD_STYLES = {"plain": "dim", "green": "bold green", "red": "bold red", "fixed-plus": "bold green",
                "fixed-minus": "bold red", "play-two": "bold cyan", "take": "bold black on yellow",
                "take-to-hand": "bold black on yellow", "draw-tile": "bold magenta", "draw-action": "bold magenta"}
BULL_STYLES = {2: "yellow", 3: "dark_orange", 4: "red", 5: "bold red", 7: "bold magenta"}  # by bullheads
PERSON = 0  # the seat whose log lines read in the second person ("you play Stop")


def plural(n: int, word: str) -> str:
    """"1 bullhead", "2 bullheads" (`word` is the plural), as the page's `plural`."""
    return f"{n} {word[:-1] if abs(n) == 1 and word.endswith('s') else word}"


def second_person(text: str) -> str:
    """The table's words for a seat said to the person, as the page's `secondPerson`."""
    for old, new in (("is offered their ", "are offered your "), ("is asked ", "are asked ")):
        if text.startswith(old):
            return new + text[len(old):]
    for verb in ("plays", "takes", "chooses"):
        if text == verb or text.startswith(verb + " "):
            return verb[:-1] + text[len(verb):]
    return text


def cell_text(cell: dict) -> Text:
    """One cell as the page draws it: a card or tile (coloured by its bullheads), a field
    of the board (its code, coloured by its kind; the next field underlined), or empty."""
    if cell.get("card"):
        return Text(cell["text"], style=BULL_STYLES.get(int(cell.get("bulls") or 0), ""))
    if cell.get("empty"):
        return Text("·", style="dim")
    style = FIELD_STYLES.get(cell.get("field", ""), "")
    return Text(cell.get("text", ""), style=style + (" underline" if cell.get("next") else ""))


def cards_text(cards: Iterable[dict]) -> Text:
    return Text(" ").join(cell_text(c) for c in cards)


class TableRenderer:
    """Prints table views to `console`; `names` are the seats' names by absolute seat,
    `bulls_word` what the number under a card counts (the page's `penaltyUnit`), `person`
    the seat whose log lines read in the second person (a joined table's may not be 0)."""

    def __init__(self, console: Console, names: Sequence[str], bulls_word: str = "bullheads", person: int = PERSON):
        self.console, self.names, self.bulls_word, self.person = console, list(names), bulls_word, person
        self.info_shown: set[str] = set()
        self.heading: str | None = None

    def rows(self, t: dict) -> Table:
        """The rows: label, cells, points, note (a row to take is one with an alert)."""
        table = Table(box=None, pad_edge=False, show_header=False)
        width = max((len(r["cells"]) for r in t["rows"]), default=0)
        table.add_column(justify="right")
        for _ in range(width):
            table.add_column(justify="right")
        table.add_column(justify="right")
        table.add_column()
        for r in t["rows"]:
            cells = [cell_text(c) for c in r["cells"]] + [Text("")] * (width - len(r["cells"]))
            table.add_row(Text(r["label"], style="dim" if r.get("dim") else ""), *cells,
                          plural(r["points"], t["unit"]), Text(r["note"], style="bold red" if r.get("alert") else ""))
        return table

    def hand(self, t: dict) -> Table | None:
        """The person's hand, sorted as the view gives it, with each card's bullheads."""
        if not t["hand"]:
            return None
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column(style="bold")
        for _ in t["hand"]:
            table.add_column(justify="right")
        table.add_row(t["hand_label"], *(cell_text(c) for c in t["hand"]))
        table.add_row(self.bulls_word, *(str(c["bulls"]) for c in t["hand"]))
        return table

    def scores_line(self, scores: list[dict], title: str) -> str:
        return f"{title}: " + " · ".join(f"{self.names[s['seat']]} {s['total']}" + (f" ({s['note']})" if s["note"] else "")
                                         for s in scores)

    def show_start(self, t: dict) -> None:
        """The title, the rules in force and the legend (fields, then the other entries)."""
        self.console.print(f"[bold]{t['title']}[/bold] — you against " + ", ".join(self.names[1:]))
        self.show_info(t)
        legend = t.get("legend") or []
        fields = [entry for entry in legend if entry.get("field")]
        if fields:
            line = Text("Fields: ")
            for i, entry in enumerate(fields):
                line.append(entry["text"], style=FIELD_STYLES.get(entry["field"], "")).append(
                    f" {entry['meaning']}" + (" · " if i < len(fields) - 1 else ""))
            self.console.print(line)
        others = [f"{entry['text']} {entry['meaning']}" for entry in legend if not entry.get("field")]
        if others:
            self.console.print("Action cards: " + " · ".join(others))

    def show_info(self, t: dict) -> None:
        """The info lines not shown yet (the page keeps them on screen; here each new one once)."""
        for line in t["info"]:
            if line not in self.info_shown:
                self.info_shown.add(line)
                self.console.print(f"[dim]{line}[/dim]")

    def show_turn(self, t: dict, score_word: str) -> None:
        """A decision's table: the status, the rows, what waits, the hand, the scores, new info."""
        self.console.print(f"\n[bold]{t['status']}[/bold]")
        self.console.print(self.rows(t))
        self.show_pending(t)
        hand = self.hand(t)
        if hand is not None:
            self.console.print(hand)
        self.console.print(self.scores_line(t["scores"], score_word))
        self.show_info(t)

    def show_pending(self, t: dict) -> None:
        if t.get("pending"):
            line = Text("Waiting to be placed: ")
            for i, p in enumerate(t["pending"]):
                line.append(" · " if i else "").append(f"{self.names[p['seat']]} ").append_text(cell_text(p))
            self.console.print(line)

    def show_question(self, t: dict, numbered: bool) -> list[int]:
        """The prompt and its answers (numbered when they are picked by number), each answer's
        explanation once; the answers' actions in the order shown."""
        self.console.print(t["prompt"])
        helps: list[str] = []
        for i, choice in enumerate(t["choices"], 1):
            help_text = choice.get("help") or ""
            fresh = help_text and help_text not in helps
            helps.append(help_text)
            self.console.print(f"  {f'{i}: ' if numbered else ''}{choice['label']}"
                               + (f" [dim]— {help_text}[/dim]" if fresh else ""))
        return [int(c["action"]) for c in t["choices"]]

    def show_log(self, items: list[dict]) -> None:
        """A step's log, as the page's log: headings, reveals, placements, notes, round ends."""
        for item in items:
            heading = item.get("heading")
            if heading and heading != self.heading:
                self.heading = heading
                self.console.print(f"[dim]— {heading} —[/dim]")
            self.console.print(self.log_line(item))

    def log_line(self, item: dict) -> Text:
        if item["kind"] == "reveal":
            line = Text("Revealed: ")
            for i, c in enumerate(item["cards"]):
                line.append(" · " if i else "").append(f"{self.names[c['seat']]} ").append_text(cell_text(c))
            return line
        if item["kind"] == "round":
            return Text(f"{item['text']}: " + " · ".join(f"{self.names[s]} +{p}" for s, p in enumerate(item["points"])),
                        style="bold")
        line = Text("  ")
        if item.get("seat") is not None:
            line.append(f"{self.names[item['seat']]} ")
        for c in item.get("cards") or []:
            line.append_text(cell_text(c)).append(" ")
        text = second_person(item["text"]) if item.get("seat") == self.person else item["text"]
        line.append(text, style="bold" if item.get("alert") or item["kind"] == "action" else "")
        if item.get("taken"):
            line.append(": ").append_text(cards_text(item["taken"]))
        return line
