"""Kept so `sixnimmt_env.gym_env` imports keep working: the module is `sixnimmt_env.adapters.gym_env`."""

from .adapters.gym_env import *  # noqa: F401,F403
