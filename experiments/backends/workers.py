"""What every worker process of the lab does first, wherever it runs (this machine's pool,
a Ray node), and the project directory the workers run in.

This module imports nothing outside the standard library at import time: a Ray worker
imports it before it can say what is missing (experiments/backends/ray_backend.py).
"""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]

_PROCESS_READY = False


def init_worker_process() -> None:
    """Once per worker process: the allocator tuning, and one torch thread (one core per
    worker)."""
    global _PROCESS_READY
    if _PROCESS_READY:
        return
    from sixnimmt_env.core.perf import tune_allocator
    tune_allocator()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        pass
    _PROCESS_READY = True
