"""The gate a training run's snapshots pass before one is promoted (issue 59).

Two yardsticks, each a duplicate-deal match with seat rotation, one round a game of the
card game (the whole game of the board game, `eval_rules`):

- head to head: 1 snapshot against P-1 of the reference network (default the shipped
  `ppo`): its win share (fair 1/P) and its lead;
- the field: 1 snapshot against P-1 of a fixed agent (default `mcs:rollouts=100`): its
  lead, next to the reference's lead on the same deals.

*Choosing* measures every snapshot on one seed's deals; *reporting* measures the chosen
one on another seed's deals (>= 1,500 by default): the deals that picked a snapshot never
report it, so its figures carry no winner's luck. The report gives both tables of the
head to head (1 new vs P-1 reference, 1 reference vs P-1 new) and the field table.

Choice: among the snapshots whose lead over the field is not below the reference's by
more than the reference's interval on the choosing deals, the largest head-to-head win
share (a run that learns to beat its own lineage while a search exploits it does not
pass). Verdict on the reporting deals: `promote` when the new network's win share is
above 1/P with its interval clear of it, the reference behind it in the other table
with the intervals apart, and its field lead not below the reference's by more than
their intervals; else `keep`.
"""

from __future__ import annotations

import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError

from .board_training import eval_rules
from .config import TrainConfig
from .runs import saved_config

SNAPSHOT = re.compile(r"ppo-(\d+)\.zip")


@dataclass(frozen=True)
class GatePlan:
    """What the gate plays: the reference, the field, the deals and seeds of both stages."""

    reference: str = "ppo"
    field: str = "mcs:rollouts=100:batched=true"
    choose_seed: int = 777
    choose_deals: int = 400
    choose_field_deals: int = 300
    report_seed: int = 2026
    report_deals: int = 1500
    report_field_deals: int = 1500
    last: int = 0  # only the newest `last` snapshots (0: all)

    def __post_init__(self) -> None:
        for name in ("choose_deals", "choose_field_deals", "report_deals", "report_field_deals"):
            if not 1 <= getattr(self, name) <= 1 << 20:
                raise ConfigError(f"--{name.replace('_', '-')} must be in 1..{1 << 20}, got {getattr(self, name)}")
        if self.choose_seed == self.report_seed:
            raise ConfigError("--choose-seed and --report-seed must differ: the deals that pick a snapshot "
                              "must not report it")
        if self.last < 0:
            raise ConfigError(f"--last must be >= 0, got {self.last}")


def snapshots(run: Path, last: int = 0) -> list[tuple[int, Path]]:
    """(learner steps, path) of the run's snapshots, oldest first (the newest `last` if > 0)."""
    found = sorted((int(m.group(1)), p) for p in (run / "snapshots").glob("ppo-*.zip")
                   if (m := SNAPSHOT.fullmatch(p.name)))
    if not found:
        raise ConfigError(f"{run}/snapshots holds no snapshot (ppo-<steps>.zip): not a training run, "
                          "or one stopped before its first snapshot")
    return found[-last:] if last else found


def one_against(agent: str, others: str, rules, players: int, deals: int, seed: int) -> dict:
    """`agent` in one seat against P-1 of `others`: its points, win share and lead (the
    others' mean less its own, signed so that more is better), with their intervals."""
    from agents.arena import run_match

    result = run_match([agent] + [others] * (players - 1), rules, deals, seed, progress=False)
    me = next(a for a in result.agents if a.seats == 1)
    them = next(a for a in result.agents if a.seats == players - 1)
    return {"agent": agent, "against": others, "deals": deals, "seed": seed,
            "points": me.points_per_round, "ci": me.points_ci, "others": them.points_per_round,
            "others_ci": them.points_ci, "win_share": me.win_share, "win_ci": me.win_ci,
            "lead": result.utility * (me.points_per_round - them.points_per_round), "ms": me.ms_per_decision}


def choose(run: Path, cfg: TrainConfig, plan: GatePlan, say=print) -> dict:
    """Every snapshot on the choosing deals; the choice and the rows that made it."""
    from agents.registry import check_spec

    for spec in (plan.reference, plan.field):
        check_spec(spec, cfg.game)  # a misspelt agent fails here, before any match is played
    candidates = snapshots(run, plan.last)  # before any match: a run without snapshots fails at once
    rules, players = eval_rules(cfg), cfg.players
    reference = one_against(plan.reference, plan.field, rules, players, plan.choose_field_deals, plan.choose_seed)
    say(f"choosing: reference {plan.reference} vs field: lead {reference['lead']:+.2f} ± {reference['ci']:.2f}")
    rows = []
    for steps, path in candidates:
        spec = f"ppo:path={path}"
        head = one_against(spec, plan.reference, rules, players, plan.choose_deals, plan.choose_seed)
        field = one_against(spec, plan.field, rules, players, plan.choose_field_deals, plan.choose_seed)
        ok = field["lead"] >= reference["lead"] - reference["ci"]
        rows.append({"steps": steps, "spec": spec, "head": head, "field": field, "qualifies": ok})
        say(f"choosing: {steps:>12,} steps: win share {head['win_share']:.3f} ± {head['win_ci']:.3f}, lead "
            f"{head['lead']:+.2f}; field lead {field['lead']:+.2f}{'' if ok else ' (behind the reference: out)'}")
    qualified = [r for r in rows if r["qualifies"]]
    chosen = max(qualified, key=lambda r: r["head"]["win_share"]) if qualified else None
    return {"game": cfg.game, "players": players, "reference_field": reference, "rows": rows, "chosen": chosen}


def report(spec: str, cfg: TrainConfig, plan: GatePlan) -> dict:
    """The chosen network on the reporting deals: both head-to-head tables, the field table
    (and the reference's on the same deals), and the verdict."""
    rules, players = eval_rules(cfg), cfg.players
    new_vs_ref = one_against(spec, plan.reference, rules, players, plan.report_deals, plan.report_seed)
    ref_vs_new = one_against(plan.reference, spec, rules, players, plan.report_deals, plan.report_seed)
    new_field = one_against(spec, plan.field, rules, players, plan.report_field_deals, plan.report_seed)
    ref_field = one_against(plan.reference, plan.field, rules, players, plan.report_field_deals, plan.report_seed)
    fair = 1.0 / players
    checks = {
        "head_to_head": new_vs_ref["win_share"] - new_vs_ref["win_ci"] > fair,
        "reference_behind": ref_vs_new["lead"] < 0
        and abs(ref_vs_new["points"] - ref_vs_new["others"]) > ref_vs_new["ci"] + ref_vs_new["others_ci"],
        "field": new_field["lead"] >= ref_field["lead"] - new_field["ci"] - ref_field["ci"],
    }
    return {"new_vs_reference": new_vs_ref, "reference_vs_new": ref_vs_new, "new_field": new_field,
            "reference_field": ref_field, "checks": checks, "verdict": "promote" if all(checks.values()) else "keep"}


def gate(run: str | Path, plan: GatePlan, say=None) -> dict:
    """Choose on one seed's deals, report on another's; the whole record (JSON-ready)."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    run = Path(run)
    # read once: both stages play the run's table and rules
    cfg = saved_config(run, TrainConfig, f"{run} holds no config.json: not a training run directory")
    chosen = choose(run, cfg, plan, say)
    out = {"run": str(run), "plan": asdict(plan), "choosing": chosen, "report": None}
    if chosen["chosen"] is None:
        say("no snapshot qualifies: each one's field lead is behind the reference's")
        return out
    say(f"chosen: {chosen['chosen']['spec']}; reporting on seed {plan.report_seed}")
    out["report"] = report(chosen["chosen"]["spec"], cfg, plan)
    return out


GATE_FILES = (".json", ".md", ".png")  # one gate's record, tables and plot


def keep_earlier(out: Path) -> Path | None:
    """Move an earlier gate's files at `out` (gate.json, gate.md, gate.png) aside to the next
    free number (gate-1.*, gate-2.*, ...), so gate.json is always the latest gate and gate-N
    the N-th gate, oldest first. Returns the moved record's path, None if there was none. A
    run gated twice (stage 4 of the long run was) keeps both records."""
    present = [out.with_suffix(ext) for ext in GATE_FILES if out.with_suffix(ext).exists()]
    if not present:
        return None
    number = 1
    while any(out.with_name(f"{out.stem}-{number}{ext}").exists() for ext in GATE_FILES):
        number += 1
    for path in present:
        path.rename(out.with_name(f"{out.stem}-{number}{path.suffix}"))
    return out.with_name(f"{out.stem}-{number}.json")


def markdown(record: dict) -> str:
    """The gate's record as a report section: the choosing table, then the reporting tables."""
    plan, choosing = record["plan"], record["choosing"]
    ref = choosing["reference_field"]
    lines = [f"Choosing deals: seed {plan['choose_seed']}, {plan['choose_deals']} deals head to head against "
             f"`{plan['reference']}`, {plan['choose_field_deals']} against `{plan['field']}` (the reference's lead "
             f"there: {ref['lead']:+.2f} ± {ref['ci']:.2f}).", "",
             "| snapshot (steps) | win share vs reference | lead vs reference | lead vs field | qualifies |",
             "| --- | --- | --- | --- | --- |"]
    for r in choosing["rows"]:
        mark = " **(chosen)**" if choosing["chosen"] and r["steps"] == choosing["chosen"]["steps"] else ""
        lines.append(f"| {r['steps']:,}{mark} | {r['head']['win_share']:.3f} ± {r['head']['win_ci']:.3f} | "
                     f"{r['head']['lead']:+.2f} | {r['field']['lead']:+.2f} | {'yes' if r['qualifies'] else 'no'} |")
    rep = record["report"]
    if rep is None:
        return "\n".join(lines + ["", "No snapshot qualifies: nothing to report, the reference stays."])
    lines += ["", f"Reporting deals: seed {plan['report_seed']}.", "",
              "| table | deals | agent | others | win share | lead |", "| --- | --- | --- | --- | --- | --- |"]
    for name, row in (("1 new vs reference", rep["new_vs_reference"]), ("1 reference vs new", rep["reference_vs_new"]),
                      ("new vs field", rep["new_field"]), ("reference vs field", rep["reference_field"])):
        lines.append(f"| {name} | {row['deals']} | {row['points']:.2f} ± {row['ci']:.2f} | {row['others']:.2f} ± "
                     f"{row['others_ci']:.2f} | {row['win_share']:.3f} ± {row['win_ci']:.3f} | {row['lead']:+.2f} |")
    checks = ", ".join(f"{k} {'met' if v else 'missed'}" for k, v in rep["checks"].items())
    return "\n".join(lines + ["", f"Verdict: **{rep['verdict']}** ({checks})."])


def plot(record: dict, out: Path) -> Path:
    """The choosing stage drawn: each snapshot's win share against the reference (left axis,
    with its interval and the fair share) and its lead over the field beside the
    reference's (right axis), by learner steps; the chosen one marked."""
    from .runs import points_per, pyplot, save_plot

    rows, chosen = record["choosing"]["rows"], record["choosing"]["chosen"]
    steps = [r["steps"] / 1e6 for r in rows]
    fig, left = pyplot().subplots(figsize=(7, 4))
    left.errorbar(steps, [r["head"]["win_share"] for r in rows], yerr=[r["head"]["win_ci"] for r in rows],
                  marker="o", ms=4, capsize=2, color="tab:blue", label="win share vs reference")
    fair = 1.0 / record["choosing"]["players"]
    left.axhline(fair, color="tab:blue", lw=0.8, ls=":")
    left.set_xlabel("learner samples (millions)")
    left.set_ylabel("win share vs reference", color="tab:blue")
    right = left.twinx()
    right.errorbar(steps, [r["field"]["lead"] for r in rows], yerr=[r["field"]["ci"] for r in rows],
                   marker="s", ms=4, capsize=2, color="tab:red", label="lead over the field")
    right.axhline(record["choosing"]["reference_field"]["lead"], color="tab:red", lw=0.8, ls="--",
                  label="the reference's lead over the field")
    # a record written before the gate said its game is a card run's (no board run was gated then)
    unit = points_per(record["choosing"].get("game", "cards"))
    right.set_ylabel(f"lead over the field (points {unit})", color="tab:red")
    if chosen:
        left.axvline(chosen["steps"] / 1e6, color="grey", lw=0.8)
    handles, labels = (sum(pair, []) for pair in zip(left.get_legend_handles_labels(), right.get_legend_handles_labels()))
    right.legend(handles, labels, loc="lower right", fontsize=8)
    left.set_title(f"gate: {Path(record['run']).name} (choosing deals, seed {record['plan']['choose_seed']})")
    return save_plot(fig, out)
