"""MkDocs hooks: the reports under ``experiments/`` join the site without being copied.

The study and training reports live beside the code that writes them (``experiments/*.md``
and their plots in ``experiments/figures/``), and the docs link to them as
``../experiments/NAME.md`` so the links also work when the repository is read on disk.
This hook adds those files to the site under ``experiments/`` and rewrites that one
prefix, which would otherwise point outside the docs directory.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "experiments"
PATTERNS = ("*.md", "figures/*.png")


def on_files(files: Files, config) -> Files:
    """Add the experiments' reports and figures to the site."""
    for pattern in PATTERNS:
        for path in sorted(REPORTS.glob(pattern)):
            rel = path.relative_to(ROOT).as_posix()
            files.append(File(rel, src_dir=str(ROOT), dest_dir=config["site_dir"],
                              use_directory_urls=config["use_directory_urls"]))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Point ``../experiments/`` links of docs pages at the reports inside the site."""
    depth = page.file.src_uri.count("/")
    if page.file.src_uri.startswith("experiments/"):
        return markdown
    up = "../" * (depth + 1)
    return re.sub(r"\]\(" + re.escape(up) + "experiments/", "](" + "../" * depth + "experiments/", markdown)
