"""Kept so `sixnimmt_env.vec_env` imports keep working: the module is `sixnimmt_env.adapters.vec_env`."""

from .adapters.vec_env import *  # noqa: F401,F403
