"""Kept so `sixnimmt_env.pettingzoo_env` imports keep working: the module is `sixnimmt_env.adapters.pettingzoo_env`."""

from .adapters.pettingzoo_env import *  # noqa: F401,F403
