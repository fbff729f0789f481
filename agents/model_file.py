"""Reading a saved MaskablePPO model (`<name>.zip`) without running any of its code.

SB3's own `MaskablePPO.load` unpickles the zip's `data` entry (spaces, schedules, the
policy class: cloudpickle), so a crafted model file runs code when loaded. Here nothing is
unpickled: `data` is read as JSON (only its plain fields: the spaces' shape and size, the
policy's keyword arguments, the counters), the weights of `policy.pth` through
`torch.load(..., weights_only=True)`, and the network is built from the architectures this
lab knows (SB3's MLP policy, the card scorer) and must take the weights exactly. Anything
else is refused with a ConfigError that names the file.

The file is checked as data before anything is built or unpacked: the zip's entries (names
and unpacked sizes) from its central directory before any entry is read (`check_zip`; an
entry's checksum is checked as it is read), then the network its `data` describes is
counted (`network_parameters`, a lower bound from the layer widths) and refused past
MAX_PARAMETERS before the weights are read or a layer is made: a 1.9 MB zip whose data asked
for `net_arch = [8192] * 4` took minutes and ~3 GB to build before its weights failed to fit.
"""

from __future__ import annotations

import io
import threading
import warnings
import zipfile
from pathlib import Path

from sixnimmt_env.core.errors import ConfigError
from sixnimmt_env.core.untrusted import loads_json

MAX_MODEL_BYTES = 512 * 2**20  # the zip, and its entries unpacked together (the shipped ones: at most 10.5 MB)
MAX_DATA_BYTES = 16 * 2**20  # the `data` entry (a 512-game model's: 1.7 MB)
MAX_PARAMETERS = 32 * 2**20
"""Weights a model's network may have: 32 Mi (128 MiB as float32; the shipped board-pro: 2.6 M)."""
MAX_WEIGHTS_BYTES = 4 * MAX_PARAMETERS + 2**20  # policy.pth: float32 weights and torch's framing
ENTRIES = {"data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth",
           "_stable_baselines3_version", "system_info.txt"}
"""What SB3 writes into a model zip; anything else is refused."""
MAX_WIDTH, MAX_LAYERS, MAX_OBS, MAX_ACTIONS = 8192, 16, 1 << 20, 1 << 16
SCORER_KEYS = {"n_ids", "offsets", "context", "hidden"}  # the card scorer's (agents/cards/policy.py)
SCORER_OPTIONAL = {"attention"}  # its encoder over the card and row tokens
TILE_SCORER_KEYS = {"tile_slots", "context", "hidden"}  # the board's tile scorer (agents/board/policy.py)
TILE_SCORER_OPTIONAL = {"options", "luck_options", "encoder", "table"}  # its option rows (the pro side; the
# luck questions); encoder "tile-set" with its table's parts: the lean board network (agents/board/tile_set.py)


class PolicyModel:
    """A trained policy read from a model file: what the agents use of a MaskablePPO model
    (`predict`, `policy`, `observation_space`, `action_space`)."""

    def __init__(self, policy, data: dict):
        self.policy = policy
        self.observation_space, self.action_space = policy.observation_space, policy.action_space
        self.data = data  # the plain fields of the zip's `data` entry
        self._lock = threading.Lock()

    def predict(self, observation, deterministic: bool = True, action_masks=None):
        """(actions, None) for a batch of observations, as MaskablePPO.predict. One call at a
        time: SB3's policy keeps the distribution of the call on itself (`action_dist`), and
        the web server shares a model between games decided from several threads."""
        with self._lock:
            return self.policy.predict(observation, deterministic=deterministic, action_masks=action_masks)


def check_zip(path: Path) -> dict[str, int]:
    """The unpacked size of each entry of the model zip at `path`, from its central
    directory (nothing unpacked); ConfigError for an entry a saved model does not hold, a
    name twice, or sizes past the limits."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as e:
        raise ConfigError(f"agent ppo: {path} is a damaged zip ({e})") from None
    sizes = {i.filename: i.file_size for i in infos}
    unknown = sorted(set(sizes) - ENTRIES)
    if unknown:
        raise ConfigError(f"agent ppo: {path} holds entries a saved model does not "
                          f"({', '.join(unknown)[:200]}); refused")
    if len(sizes) != len(infos):
        raise ConfigError(f"agent ppo: {path} holds an entry twice; refused")
    limits = {"data": MAX_DATA_BYTES, "policy.pth": MAX_WEIGHTS_BYTES}
    for name, size in sizes.items():
        if size > limits.get(name, MAX_MODEL_BYTES):
            raise ConfigError(f"agent ppo: {path}: {name} unpacks to more than {limits.get(name, MAX_MODEL_BYTES) >> 20} MiB")
    if sum(sizes.values()) > MAX_MODEL_BYTES:
        raise ConfigError(f"agent ppo: {path} unpacks to more than {MAX_MODEL_BYTES >> 20} MiB")
    return sizes


def read_entry(path: Path, name: str, limit: int = MAX_MODEL_BYTES) -> bytes:
    """One entry of the model zip at `path`, once the whole directory is checked
    (`check_zip`); its checksum is checked as it is read."""
    sizes = check_zip(path)
    if name not in sizes:
        raise ConfigError(f"agent ppo: {path} is a zip but not a saved model (no {name} in it)")
    if sizes[name] > limit:
        raise ConfigError(f"agent ppo: {path}: {name} unpacks to more than {limit >> 20} MiB")
    try:
        with zipfile.ZipFile(path) as z, z.open(name) as f:
            data = f.read(limit + 1)  # the directory's size is the header's word: read no more than the limit
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as e:
        raise ConfigError(f"agent ppo: {path} is a damaged zip ({e})") from None
    if len(data) > limit:
        raise ConfigError(f"agent ppo: {path}: {name} unpacks to more than {limit >> 20} MiB")
    return data


def read_tensors(path: Path, name: str) -> dict:
    """A `.pth` entry as tensors only (torch's weights_only unpickler: no code, no classes)."""
    import torch
    raw = read_entry(path, name, MAX_WEIGHTS_BYTES)
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
    parameters = network_parameters(obs_dim, n_actions, kwargs)
    if parameters > MAX_PARAMETERS:  # counted from the widths: nothing is built or read yet
        raise ConfigError(f"agent ppo: {path}: its data describes a network of at least {parameters:,} weights "
                          f"(the limit is {MAX_PARAMETERS:,}); refused")
    state = read_tensors(path, "policy.pth")
    weights = sum(int(t.numel()) for t in state.values() if hasattr(t, "numel"))
    if weights < parameters:  # they could not fit: refused before the network is made
        raise ConfigError(f"agent ppo: {path}: its weights ({weights:,}) are fewer than the network its data "
                          f"describes holds (at least {parameters:,})")
    policy = _build(obs_dim, n_actions, kwargs)
    try:
        policy.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError) as e:
        raise ConfigError(f"agent ppo: {path}: its weights do not fit the network its data "
                          f"describes ({str(e).splitlines()[0][:200]})") from None
    policy.set_training_mode(False)
    return PolicyModel(policy, data)


def _dense(widths: list[int]) -> int:
    """Weights and biases of dense layers of these widths, one after the other."""
    return sum(a * b + b for a, b in zip(widths, widths[1:]))


def network_parameters(obs_dim: int, n_actions: int, kwargs: dict) -> int:
    """A lower bound of the weights of the network `_build` makes from these plain fields
    (checked by `_architecture`): SB3's policy and value MLPs with their heads, and the
    scorers' context and hidden layers; counted, not built."""
    arch = kwargs.get("net_arch")
    if arch is None:
        arch = {"pi": [64, 64], "vf": [64, 64]}  # SB3's default for an MLP policy
    pi, vf = (arch.get("pi", []), arch.get("vf", [])) if isinstance(arch, dict) else (arch, arch)
    if kwargs.get("encoder") is not None:  # tile-set: two encoders (actor, critic) over the table's parts
        table = sum(width for _, width in kwargs["table"])
        return 2 * _dense([table, kwargs["context"][0]]) + _dense(list(kwargs["hidden"]))
    count = _dense([obs_dim, *pi]) + _dense([obs_dim, *vf]) + (vf[-1] if vf else obs_dim) + 1
    if SCORER_KEYS & set(kwargs) or "tile_slots" in kwargs:  # the scorer replaces the action head
        count += _dense([obs_dim, *kwargs["context"]]) + _dense(list(kwargs["hidden"]))
        if kwargs.get("attention"):  # each layer: q, k, v, out and a feed-forward of twice the width
            width = kwargs["hidden"][0]
            count += kwargs["attention"][0] * 8 * width * width
    else:
        count += (pi[-1] if pi else obs_dim) * n_actions + n_actions
    return count


def _build(obs_dim: int, n_actions: int, kwargs: dict):
    import numpy as np
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    cls = MaskableActorCriticPolicy
    if "tile_slots" in kwargs and "encoder" in kwargs:
        from .board.tile_set import TileSetPolicy
        cls = TileSetPolicy
    elif "tile_slots" in kwargs:
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
    unknown = set(kwargs) - {"net_arch"} - SCORER_KEYS - SCORER_OPTIONAL - TILE_SCORER_KEYS - TILE_SCORER_OPTIONAL
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
                and kwargs["hidden"] and _tile_set_ok(kwargs, shape[0])):
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
    elif (SCORER_KEYS | SCORER_OPTIONAL) & set(kwargs):  # any card-scorer option: all its keys due
        offsets = kwargs.get("offsets")
        if not (set(kwargs) >= SCORER_KEYS and _int(kwargs["n_ids"], 1, MAX_ACTIONS)
                and _layers(kwargs["context"]) and _layers(kwargs["hidden"]) and kwargs["context"]
                and kwargs["hidden"] and isinstance(offsets, dict)
                and all(isinstance(k, str) and _int(v, 0, shape[0]) for k, v in offsets.items())):
            raise bad("card-scorer options out of range")
        from .cards.policy import ROW_INPUTS, attention_ok
        attention = kwargs.get("attention", [])
        if not (isinstance(attention, list) and attention_ok(tuple(attention), tuple(kwargs["hidden"]))):
            raise bad(f"card-scorer attention {str(attention)[:40]}")
        if set(offsets) != {"hand_slots", *ROW_INPUTS}:
            raise bad("card-scorer offsets of other fields")
    return shape[0], n, kwargs


def _tile_set_ok(kwargs: dict, obs_dim: int) -> bool:
    """Whether the tile-set options are absent (a tile scorer) or whole: encoder "tile-set"
    and a table of at most 64 [offset, width] parts inside the observation."""
    if "encoder" not in kwargs and "table" not in kwargs:
        return True
    table = kwargs.get("table")
    return (kwargs.get("encoder") == "tile-set" and isinstance(table, list) and 1 <= len(table) <= 64
            and all(_pair(part, obs_dim) and part[0] + part[1] <= obs_dim for part in table))


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
