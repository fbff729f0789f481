"""Reading a saved MaskablePPO model (`<name>.zip`) without running any of its code.

SB3's own `MaskablePPO.load` unpickles the zip's `data` entry (spaces, schedules, the
policy class: cloudpickle), so a crafted model file runs code when loaded. Here nothing is
unpickled: `data` is read as JSON (only its plain fields: the spaces' shape and size, the
policy's keyword arguments, the counters), the weights of `policy.pth` through
`torch.load(..., weights_only=True)`, and the network is built from the architectures this
lab knows (SB3's MLP policy, the card scorer) and must take the weights exactly. Anything
else is refused with a ConfigError that names the file.
"""

from __future__ import annotations

import io
import warnings
import zipfile
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.untrusted import loads_json

MAX_MODEL_BYTES = 512 * 2**20  # the zip and each entry, unpacked (the shipped ones: 3.7 MB)
MAX_DATA_BYTES = 64 * 2**20  # the `data` entry (a 512-game model's: 1.7 MB)
ENTRIES = {"data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth",
           "_stable_baselines3_version", "system_info.txt"}
"""What SB3 writes into a model zip; anything else is refused."""
MAX_WIDTH, MAX_LAYERS, MAX_OBS, MAX_ACTIONS = 8192, 16, 1 << 20, 1 << 16
SCORER_KEYS = {"n_ids", "offsets", "context", "hidden"}  # the card scorer's (agents/cards/policy.py)
TILE_SCORER_KEYS = {"tile_slots", "context", "hidden"}  # the board's tile scorer (agents/board/policy.py)
TILE_SCORER_OPTIONAL = {"options", "luck_options"}  # its option rows (the pro side; the luck questions)


class PolicyModel:
    """A trained policy read from a model file: what the agents use of a MaskablePPO model
    (`predict`, `policy`, `observation_space`, `action_space`)."""

    def __init__(self, policy, data: dict):
        self.policy = policy
        self.observation_space, self.action_space = policy.observation_space, policy.action_space
        self.data = data  # the plain fields of the zip's `data` entry

    def predict(self, observation, deterministic: bool = True, action_masks=None):
        """(actions, None) for a batch of observations, as MaskablePPO.predict."""
        return self.policy.predict(observation, deterministic=deterministic, action_masks=action_masks)


def read_entry(path: Path, name: str, limit: int = MAX_MODEL_BYTES) -> bytes:
    """One entry of the model zip at `path`, checked (size, known names, checksums)."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = {i.filename: i for i in z.infolist()}
            unknown = sorted(set(infos) - ENTRIES)
            if unknown:
                raise ConfigError(f"agent ppo: {path} holds entries a saved model does not "
                                  f"({', '.join(unknown)[:200]}); refused")
            if name not in infos:
                raise ConfigError(f"agent ppo: {path} is a zip but not a saved model (no {name} in it)")
            if infos[name].file_size > limit:
                raise ConfigError(f"agent ppo: {path}: {name} unpacks to more than {limit >> 20} MiB")
            return z.read(name)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as e:
        raise ConfigError(f"agent ppo: {path} is a damaged zip ({e})") from None


def read_tensors(path: Path, name: str) -> dict:
    """A `.pth` entry as tensors only (torch's weights_only unpickler: no code, no classes)."""
    import torch
    raw = read_entry(path, name)
    try:
        with warnings.catch_warnings():  # e.g. "pickle protocol 4": the refusal says enough
            warnings.simplefilter("ignore")
            state = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - torch raises many kinds on a hostile or damaged file
        lines = [line.strip() for line in str(e).splitlines() if "Unsupported" in line or "error" in line]
        reason = (lines[-1] if lines else type(e).__name__)[:200]
        raise ConfigError(f"agent ppo: {path}: {name} is not plain weights ({reason})") from None
    if not isinstance(state, dict):
        raise ConfigError(f"agent ppo: {path}: {name} does not hold a state dict")
    return state


def read_data(path: Path) -> dict:
    """The plain (JSON) fields of the zip's `data` entry; the pickled ones are never read."""
    data = loads_json(read_entry(path, "data", MAX_DATA_BYTES), what=f"agent ppo: {path}: data")
    if not isinstance(data, dict):
        raise ConfigError(f"agent ppo: {path}: data is not a JSON object")
    return data


def read_model(path: str | Path) -> PolicyModel:
    """The policy of the model zip at `path`, built from its plain fields and weights."""
    path = Path(path)
    if path.stat().st_size > MAX_MODEL_BYTES:
        raise ConfigError(f"agent ppo: {path} is larger than {MAX_MODEL_BYTES >> 20} MiB")
    data = read_data(path)
    obs_dim, n_actions, kwargs = _architecture(data, path)
    state = read_tensors(path, "policy.pth")
    policy = _build(obs_dim, n_actions, kwargs)
    try:
        policy.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError) as e:
        raise ConfigError(f"agent ppo: {path}: its weights do not fit the network its data "
                          f"describes ({str(e).splitlines()[0][:200]})") from None
    policy.set_training_mode(False)
    return PolicyModel(policy, data)


def _build(obs_dim: int, n_actions: int, kwargs: dict):
    import numpy as np
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    cls = MaskableActorCriticPolicy
    if "tile_slots" in kwargs:
        from .board.policy import TileScorerPolicy
        cls = TileScorerPolicy
    elif SCORER_KEYS & set(kwargs):
        from .cards.policy import CardScorerPolicy
        cls = CardScorerPolicy
    return cls(spaces.Box(-np.inf, np.inf, (obs_dim,), np.float32), spaces.Discrete(n_actions),
               lambda _: 0.0, **kwargs)


def _architecture(data: dict, path: Path) -> tuple[int, int, dict]:
    """(observation width, action count, policy kwargs) from the plain fields; ConfigError
    for anything outside the architectures this lab builds."""
    def bad(what: str) -> ConfigError:
        return ConfigError(f"agent ppo: {path}: {what} (not a model of this lab's architectures)")

    shape = _plain(data.get("observation_space"), bad).get("_shape")
    if not (isinstance(shape, list) and len(shape) == 1 and _int(shape[0], 1, MAX_OBS)):
        raise bad(f"observations of shape {shape!r}, not a flat vector")
    n = _plain(data.get("action_space"), bad).get("n")
    n = int(n) if isinstance(n, str) and n.isdigit() and len(n) < 7 else n
    if not _int(n, 1, MAX_ACTIONS):
        raise bad("no discrete action count")
    kwargs = _plain(data.get("policy_kwargs", {}), bad)
    unknown = set(kwargs) - {"net_arch"} - SCORER_KEYS - TILE_SCORER_KEYS - TILE_SCORER_OPTIONAL
    if unknown:
        raise bad(f"policy options {', '.join(sorted(unknown))}")
    arch = kwargs.get("net_arch")
    if arch is not None and not (_layers(arch) or (isinstance(arch, dict) and set(arch) <= {"pi", "vf"}
                                                    and all(_layers(v) for v in arch.values()))):
        raise bad(f"net_arch {str(arch)[:80]}")
    if "tile_slots" in kwargs:
        slots = kwargs["tile_slots"]
        options = kwargs.get("options")
        if not (set(kwargs) - {"net_arch"} - TILE_SCORER_OPTIONAL == TILE_SCORER_KEYS and _pair(slots, shape[0])
                and (options is None or _pair(options, shape[0]))
                and _layers(kwargs["context"]) and _layers(kwargs["hidden"]) and kwargs["context"]
                and kwargs["hidden"]):
            raise bad("tile-scorer options out of range")
        from .board.policy import KL, KO, K, luck_rows_ok, option_rows_ok
        if slots[0] + slots[1] * K > shape[0]:
            raise bad("tile-scorer slots past the observation's end")
        if options is not None and (options[0] + options[1] * KO > shape[0] or not option_rows_ok(options[1], n)):
            raise bad("tile-scorer option rows past the observation's end or the actions")
        luck = kwargs.get("luck_options")
        if luck is not None and not (_pair(luck, shape[0]) and luck_rows_ok(luck[1], n)
                                     and luck[0] + luck[1] * KL <= shape[0]):
            raise bad("tile-scorer luck option rows past the observation's end or the actions")
    elif SCORER_KEYS & set(kwargs):
        offsets = kwargs.get("offsets")
        if not (set(kwargs) >= SCORER_KEYS and _int(kwargs["n_ids"], 1, MAX_ACTIONS)
                and _layers(kwargs["context"]) and _layers(kwargs["hidden"]) and kwargs["context"]
                and kwargs["hidden"] and isinstance(offsets, dict)
                and all(isinstance(k, str) and _int(v, 0, shape[0]) for k, v in offsets.items())):
            raise bad("card-scorer options out of range")
        from .cards.policy import ROW_INPUTS
        if set(offsets) != {"hand_slots", *ROW_INPUTS}:
            raise bad("card-scorer offsets of other fields")
    return shape[0], n, kwargs


def _pair(value, most: int) -> bool:
    """Whether `value` is [offset, count]: ints, offset in 0..most, count in 1..most."""
    return isinstance(value, list) and len(value) == 2 and _int(value[0], 0, most) and _int(value[1], 1, most)


def _plain(entry, bad) -> dict:
    """An SB3 data entry's plain fields (its pickled `:serialized:` form dropped, unread)."""
    if not isinstance(entry, dict):
        raise bad("a data field is missing")
    return {k: v for k, v in entry.items() if k not in (":type:", ":serialized:")}


def _int(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _layers(value) -> bool:
    return isinstance(value, list) and len(value) <= MAX_LAYERS and all(_int(v, 1, MAX_WIDTH) for v in value)
