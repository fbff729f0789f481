"""The batched board engine against the separately written scalar reference
(tests/support/reference_board.py) on every turn of 2,400 random games: 2-6 players, basic and luck,
both next-row options. Tiles and answers are drawn at random for the engine; the
reference plays the same tiles and is asked the same questions in the same order (a
different question, or one too many, fails), and the board, hands, supply position,
scores, luck cards and stacks must agree after every turn."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env import make_game
from sixnimmt_env.board.rules import LUCK_KINDS
from sixnimmt_env.board.state import ASK_LUCK_CARD, ASK_NAMES, PHASE_ASK
from sixnimmt_env.core.rng import game_seeds
from tests.support import reference_board as ref


def _reference_rules(config) -> ref.Rules:
    board = config.board
    return ref.Rules(rows=[list(r) for r in board.rows], bullheads=list(board.bullheads),
                     clovers=list(board.clovers), variant=config.variant, next_row=config.next_row,
                     luck_stacks={"+5": config.plus5_cards, "2x": config.double_cards})


def _compare(st, g: int, state: ref.State, where: str) -> None:
    assert st.row_lists(g) == state.board, f"{where}: board"
    assert st.hand_lists(g) == [sorted(h) for h in state.hands], f"{where}: hands"
    assert st.score[:, g].tolist() == state.scores, f"{where}: scores"
    luck = [{kind: int(st.luck[k, p, g]) for k, kind in enumerate(LUCK_KINDS)} for p in range(st.players)]
    assert luck == [{kind: cards.get(kind, 0) for kind in LUCK_KINDS} for cards in state.luck], f"{where}: luck"
    assert [int(st.stack[k, g]) for k in range(2)] == [state.stacks[k] for k in LUCK_KINDS], f"{where}: stacks"
    gone = sorted(np.flatnonzero(st.gone[:, g]).tolist())
    assert gone == sorted(state.removed), f"{where}: tiles out of the game"


GAMES_PER_CASE = 160  # 15 cases: 2,400 random games, every turn compared


def play_both(players: int, variant: str, next_row: str, seed: int, batch: int = GAMES_PER_CASE) -> int:
    """Random games on the engine, each turn replayed on the reference; returns turns compared."""
    game = make_game("board", players=players, variant=variant, next_row=next_row)
    rules = _reference_rules(game.rules)
    st = game.new_games(game_seeds(seed, batch))
    rng = np.random.default_rng(seed)
    refs = []
    for g in range(batch):
        hands = [st.hands[p, :, g].tolist() for p in range(players)]
        start = [int(st.tiles[r, 0, g]) for r in range(4)]
        refs.append(ref.new_game(rules, hands, start, st.supply[:, g][st.supply[:, g] > 0].tolist()))
    compared = 0
    while not game.game_over(st).all():
        live = ~game.game_over(st)
        tiles = [[[] for _ in range(players)] for _ in range(batch)]
        asked = [[] for _ in range(batch)]
        turn_start = st.turn.copy()
        # the turn on the engine: picks, then every question, random tiles and answers
        while True:
            running = live & (st.turn == turn_start) & ~game.game_over(st)
            if not running.any():
                break
            actions = np.zeros((players, batch), dtype=np.int64)
            for p in range(players):
                actions[p] = game.view(st, [p] * batch).random_legal_actions(rng)
            for g in np.flatnonzero(running):
                if st.phase[g] == PHASE_ASK:
                    seat, ask = int(st.asker[g]), int(st.ask[g])
                    answer = actions[seat, g]
                    value = LUCK_KINDS[answer - 102] if ask == ASK_LUCK_CARD else bool(answer - 100)
                    asked[g].append((seat, ASK_NAMES[ask], value))
                else:
                    for p in range(players):
                        tiles[g][p].append(int(actions[p, g]) + 1)
            st, _ = game.step(st, actions, games=running)
        for g in np.flatnonzero(live):
            script = ref.Script(asked[g])
            result = ref.play_turn(refs[g], tiles[g], script)
            script.finish()
            refs[g] = result.state
            _compare(st, g, refs[g], f"game {g} turn {int(turn_start[g])}")
            compared += 1
    for g in range(batch):
        assert ref.game_over(refs[g])
        assert np.flatnonzero(game.winners(st)[:, g]).tolist() == ref.winners(refs[g].scores)
    return compared


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("variant", ["basic", "luck"])
def test_engine_matches_reference_scan(players, variant):
    assert play_both(players, variant, "scan", seed=players * 10 + (variant == "luck")) > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_matches_reference_rotate(players):
    assert play_both(players, "luck", "rotate", seed=100 + players) > 0
