"""The documentation: the site builds with warnings as errors, the quick start runs as
written, every link points at a file that exists, the README stays a guide, and the
environments page shows each game's observation layout as the code builds it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sixnimmt_env import make_game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent
README_MAX_LINES = 300


def _env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def test_site_builds_with_warnings_as_errors(tmp_path):
    proc = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "games" / "index.html").exists()  # the API reference was generated
    assert "make_game" in (tmp_path / "site" / "api" / "games" / "index.html").read_text()
    # the study and training reports joined the site through docs/hooks.py
    assert (tmp_path / "site" / "experiments" / "training-2026-12-01" / "index.html").exists()


def test_site_build_fails_on_a_broken_link(tmp_path):
    """Strict means strict: a page linking to a missing page stops the build."""
    broken = DOCS / "quickstart.md"
    text = broken.read_text()
    config = tmp_path / "mkdocs.yml"
    config.write_text((ROOT / "mkdocs.yml").read_text().replace("docs_dir: docs", f"docs_dir: {tmp_path / 'docs'}")
                      .replace("  - docs/hooks.py", f"  - {DOCS / 'hooks.py'}"))
    subprocess.run(["cp", "-r", str(DOCS), str(tmp_path / "docs")], check=True)
    (tmp_path / "docs" / "quickstart.md").write_text(text + "\n[gone](no-such-page.md)\n")
    proc = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "-f", str(config), "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, env=_env(), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode != 0 and "no-such-page.md" in proc.stderr


def _blocks(marker: str, language: str) -> list[str]:
    text = (DOCS / "quickstart.md").read_text()
    found = re.findall(rf"<!-- {marker}[^>]*-->\n```{language}\n(.*?)```", text, re.S)
    assert found, f"no {marker} block in the quick start"
    return found


def test_quick_start_python_blocks_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for block in _blocks("quickstart-python", "python"):
        exec(compile(block, "docs/quickstart.md", "exec"), {"__name__": "quickstart"})


# The quick start's sizes (40,000 training steps, 4 tournament games) take minutes of CPU;
# the test runs its commands as printed but for these sizes: the same options, a tiny scale.
TINY_SCALE = {"total_timesteps": "256", "num_games": "8", "eval_every": "256", "checkpoint_every": "256",
              "eval_deals": "1", "--games": "1", "--max-rounds": "1"}


def _at_tiny_scale(args: list[str]) -> tuple[list[str], set[str]]:
    """`args` with the sizes named in TINY_SCALE (a `--set key=value` or an `--option value`)
    made tiny; and the sizes it found."""
    out, found = list(args), set()
    for i, arg in enumerate(args[:-1]):
        key = args[i + 1].partition("=")[0] if arg == "--set" else arg
        if key in TINY_SCALE:
            out[i + 1] = f"{key}={TINY_SCALE[key]}" if arg == "--set" else TINY_SCALE[key]
            found.add(key)
    return out, found


def test_quick_start_commands_run(tmp_path):
    """The train-then-tournament commands as printed, in a fresh directory, at a tiny scale
    (TINY_SCALE: every size it shrinks must be one the quick start prints)."""
    lines = [line for block in _blocks("quickstart-commands", "sh") for line in block.splitlines() if line.strip()]
    shrunk = set()
    for line in lines:
        args, found = _at_tiny_scale(line.split())
        shrunk |= found
        assert args[0] == "sixnimmt"
        proc = subprocess.run([str(BIN / "sixnimmt"), *args[1:]], cwd=tmp_path, env=_env(),
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"{' '.join(args)}\n{proc.stderr[-2000:]}"
    assert shrunk == set(TINY_SCALE), f"the quick start no longer prints {set(TINY_SCALE) - shrunk}"
    assert (tmp_path / "runs" / "toy" / "best.zip").exists()
    assert "ppo:path=runs/toy/best.zip" in (tmp_path / "out" / "toy" / "report.md").read_text()


def test_readme_is_a_guide():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES
    assert "make run" in "\n".join(lines) and "make test" in "\n".join(lines)


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted(DOCS.rglob("*.md")),
                                  *sorted((ROOT / "experiments").glob("*.md")), ROOT / "tests" / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_links_point_at_files(page):
    """Relative links resolve inside the repository (never to ../shared or outside)."""
    for target in LINK.findall(page.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path = (page.parent / target).resolve()
        assert path.is_relative_to(ROOT), f"{page.name}: {target} points outside the repository"
        assert path.exists(), f"{page.name}: {target} does not exist"


REPO_PATH = re.compile(r"`((?:sixnimmt_env|agents|training|experiments|tests)/[\w/.-]+\.(?:py|toml|js|md))`")
IN_PACKAGE = re.compile(r"`((?:board|cards|core|adapters)/[\w/.-]+\.py)`")  # sixnimmt_env's own, shortened


@pytest.mark.parametrize("page", [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))], ids=lambda p: str(p.relative_to(ROOT)))
def test_file_names_in_code_name_files_that_exist(page):
    """A file of the repository named in backticks exists: names went stale as modules moved
    (`sixnimmt_env/board/threads.py` after it became `board/_kernel/threads.py`). A moved
    file's old name, told as history, is written without backticks. The dated reports under
    experiments/ name the files of their day, and tests/README.md names its files from tests/
    (test_tests_readme_lists_every_test_file checks them): neither is read here."""
    text = page.read_text()
    stale = [name for name in REPO_PATH.findall(text) if not (ROOT / name).exists()]
    stale += [name for name in IN_PACKAGE.findall(text)
              if not (ROOT / "sixnimmt_env" / name).exists() and not (ROOT / "agents" / name).exists()]
    assert not stale, f"{page.relative_to(ROOT)} names files that do not exist: {stale}"


LAYOUTS = [("cards", {}, "basic"), ("cards", {}, "card-features"), ("cards", {}, "card-history"), ("board", {}, "basic"),
           ("board", {"variant": "pro"}, "basic"), ("board", {}, "tile-features"),
           ("board", {"variant": "pro"}, "tile-features"), ("board", {"variant": "luck"}, "tile-answers")]


@pytest.mark.parametrize("game,options,observation", LAYOUTS)
def test_environments_page_shows_the_layouts(game, options, observation):
    """The spec sheet's tables are the code's (`ObsLayout.markdown()`), so they cannot drift."""
    page = (DOCS / "environments.md").read_text()
    layout = make_game(game, **options).layout(observation)
    if observation == "basic":
        assert layout.markdown() in page and f"D = {layout.size}" in page
    missing = [line for line in layout.markdown().splitlines() if line not in page]
    assert not missing, missing


def _test_files_table() -> str:
    """tests/README.md's table: each test file with the first paragraph of its docstring."""
    import ast
    rows = ["| file | what it checks |", "| --- | --- |"]
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name == "__init__.py":
            continue
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        first = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        rows.append(f"| `{path.relative_to(ROOT / 'tests')}` | {first} |")
    return "\n".join(rows) + "\n"


def test_tests_readme_lists_every_test_file():
    """The table is the files' own docstrings; SIXNIMMT_WRITE_DOCS=1 writes it anew."""
    readme = ROOT / "tests" / "README.md"
    head, marker, _ = readme.read_text().partition("<!-- table: written by tests/lab/test_docs.py -->\n")
    table = _test_files_table()
    if os.environ.get("SIXNIMMT_WRITE_DOCS") == "1":
        readme.write_text(head + marker + table)
    assert marker, "tests/README.md lost its table marker"
    assert readme.read_text().endswith(table), "tests/README.md is stale: SIXNIMMT_WRITE_DOCS=1 pytest tests/lab/test_docs.py"
