"""The game owns its worlds: every seat view deals worlds the seat cannot tell from the real
game (sixnimmt_env.testing.worlds), the check catches a builder that drops one public
field, a belief steers the deal, and every search of the lab plays in those worlds."""

from __future__ import annotations

import numpy as np
import pytest

from sixnimmt_env.board.seat_view import BoardSeatView
from sixnimmt_env.cards.packing import BULLS_SHIFT
from sixnimmt_env.cards.seat_view import SeatView
from sixnimmt_env.core.game import make_game
from sixnimmt_env.testing.worlds import WorldsCheckError, check_worlds

TABLES = [("cards", "classic", 2), ("cards", "classic", 4), ("cards", "classic", 10), ("cards", "die-sechste", 4),
          ("cards", "die-sechste", 10), ("board", "basic", 2), ("board", "basic", 4), ("board", "luck", 3),
          ("board", "pro", 3), ("board", "pro-luck", 5)]


def _game(kind: str, variant: str, players: int):
    extra = {"max_rounds": 2} if kind == "cards" else {}
    return make_game(kind, players=players, variant=variant, **extra)


@pytest.mark.parametrize("kind, variant, players", TABLES)
def test_every_seat_of_every_game_gets_worlds_it_cannot_tell_from_the_real_one(kind, variant, players):
    check_worlds(_game(kind, variant, players), batch=2, steps=30, count=2)


def _mutant(change):
    """A world builder: the game's worlds with `change(view, worlds)` applied."""
    def dealer(view, entries, count, rng):
        worlds = view.worlds(entries, count, rng)
        change(view, worlds)
        return worlds
    return dealer


def _no_history(view, st):
    st.played[:] = 0  # the round's played cards forgotten (the bug of 6c9cf7e's worlds)


def _row_points(view, st):
    st.rows[0] += 1 << BULLS_SHIFT  # a row's bullheads off by one


def _seen_card_dealt(view, st):
    other = (np.repeat(view.seats, st.batch_size // view.n) + 1) % st.players
    st.hands[other, 0, np.arange(st.batch_size)] = st.row_cards[0, 0]  # a row's first card in another hand


def _board_tile_gone(view, st):
    st.tiles[0, 0] = 0  # the first field's tile lost


@pytest.mark.parametrize("kind, change, kind_of_problem", [
    ("cards", _no_history, "played differs"), ("cards", _row_points, "row_bulls differs"),
    ("cards", _seen_card_dealt, "dealt:"), ("board", _board_tile_gone, "tiles differs")])
def test_the_check_fails_a_builder_that_drops_a_public_field(kind, change, kind_of_problem):
    game = _game(kind, "classic" if kind == "cards" else "basic", 4)
    with pytest.raises(WorldsCheckError, match=kind_of_problem):
        check_worlds(game, batch=2, steps=10, count=2, dealer=_mutant(change))


def _views(kind: str = "cards", players: int = 4, steps: int = 6):
    game = _game(kind, "classic" if kind == "cards" else "basic", players)
    rng = np.random.default_rng(3)
    st = game.new_games(np.arange(2))
    for _ in range(steps):
        view = game.view(st, np.repeat(np.arange(players), 2), np.tile(np.arange(2), players))
        st, _ = game.step(st, view.random_legal_actions(rng).reshape(players, 2))
    return game, game.view(st, np.repeat(np.arange(players), 2), np.tile(np.arange(2), players))


@pytest.mark.parametrize("kind", ["cards", "board"])
def test_a_belief_decides_who_is_dealt_what(kind):
    """Each unseen id held by relative seat 1 with probability one goes there in every world
    (the rest: seat 2, 3 or elsewhere as likely)."""
    game, view = _views(kind)
    P, entries = view.players, np.arange(view.n)
    unseen = view.unseen
    belief = np.zeros(unseen.shape + (P,))
    belief[:, :, 1:] = 1 / (P - 1)
    for e in entries:  # the hand size's lowest unseen ids: seat 1's for sure
        sure = np.flatnonzero(unseen[e])[:view.hand_size[e]]
        belief[e, sure] = 0
        belief[e, sure, 0] = 1
    worlds = view.worlds(entries, 5, np.random.default_rng(0), deal=belief * unseen[:, :, None])
    W = worlds.batch_size
    left = game.view(worlds, (np.repeat(view.seats, 5) + 1) % P, np.arange(W))
    for w in range(W):
        e = w // 5
        assert sorted(left.hand[w][left.hand[w] > 0].tolist()) == np.flatnonzero(belief[e, :, 0] == 1).tolist()


def _agents():
    from agents.registry import make_agent
    specs = {"cards": ["mcs:rollouts=4", "mcs:rollouts=4:batched=true", "bayes:samples=4", "guided:worlds=2",
                       "guided:worlds=2:rollout=mcs", "guided:worlds=2:belief=shipped",
                       "guided:worlds=2:others=agents/models/ppo-all.zip:mix=0.5"],
             "board": ["mcs:rollouts=2", "guided:worlds=2"]}
    return [(kind, spec, make_agent(spec, game=kind)) for kind, group in specs.items() for spec in group]


def test_every_search_plays_in_the_games_worlds(monkeypatch):
    """With the games' world dealers broken, every search of the lab fails: none builds its
    worlds itself (a private copy would pass this untouched)."""
    def broken(self, *args, **kwargs):
        raise RuntimeError("the game's worlds")

    searches = _agents()
    monkeypatch.setattr(SeatView, "worlds", broken)
    monkeypatch.setattr(BoardSeatView, "worlds", broken)
    for kind, spec, agent in searches:
        _, view = _views(kind, steps=2)
        with pytest.raises(RuntimeError, match="the game's worlds"):
            agent.act(view, np.random.default_rng(0))
            pytest.fail(f"{spec} searched without the game's worlds")
