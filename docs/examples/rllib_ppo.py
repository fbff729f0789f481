"""RLlib (new API stack): PPO with RLlib's action-masking module, one policy shared by
every seat of the ParallelEnv.

    pip install "ray[rllib]"   # its pins may replace your gymnasium: use a venv of its own
    python docs/examples/rllib_ppo.py --game cards --players 3 --iterations 5

Two conventions of RLlib, both env options: its masking module reads the observation
Dict's "observations" key (`observation_key="observations"`), and its env pre-check steps
once with actions sampled from the whole action space (`illegal_action="penalize"` takes
them: the episode ends with `illegal_reward`; the module masks them in training).
"""

from __future__ import annotations

import argparse

import sixnimmt_env

ENV_NAME = "sixnimmt"


def make_env(config: dict):
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv
    return ParallelPettingZooEnv(sixnimmt_env.parallel_env(
        config.get("players", 3), game=config.get("game", "cards"),
        observation_key="observations", illegal_action="penalize", **config.get("rules", {})))


def build(game: str = "cards", players: int = 3, batch: int = 512, **rules):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    config = (
        PPOConfig()
        .environment(ENV_NAME, env_config={"game": game, "players": players, "rules": rules})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *args, **kwargs: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                   model_config={"head_fcnet_hiddens": [64, 64]})}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 128), num_epochs=1)
    )
    return config.build_algo()


def main(game: str = "cards", players: int = 3, iterations: int = 1, batch: int = 512, **rules) -> list[dict]:
    import ray
    ray.init(num_cpus=1, include_dashboard=False, ignore_reinit_error=True)
    try:
        algo = build(game, players, batch, **rules)
        results = [algo.train() for _ in range(iterations)]
        algo.stop()
        return results
    finally:
        ray.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],  # the whole first paragraph
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cards", help="cards or board")
    parser.add_argument("--variant", default=None,
                        help="cards: classic or die-sechste; board: basic, luck, pro or pro-luck (default: the game's)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=5)
    args = parser.parse_args()
    rules = {"variant": args.variant} if args.variant else {}
    for i, result in enumerate(main(args.game, args.players, args.iterations, **rules)):
        print(i, result.get("env_runners", {}).get("episode_return_mean"))
