"""GameState.copy: a copy is independent of its original, the seeded generator included (R10, KA11, ON9).

The generator is shared copy-on-write (state.py), so these tests check that
sharing it never shows: each side's draws are the ones it would make with a
copy of its own, whichever side draws first and however often it is copied.
"""

from __future__ import annotations

import random

from voicejack.engine import GameState, apply_move, legal_moves, make_rules, new_game


def _played(seed: int, moves: int) -> GameState:
    state, _ = new_game(make_rules(4, True), seed=seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        apply_move(state, chooser.choice(legal_moves(state)))
    return state


def _draws(state: GameState) -> list[float]:
    return [state.rng.random() for _ in range(3)]


def test_a_copy_draws_what_its_original_would_draw() -> None:
    state = _played(3, 30)
    expected = random.Random()
    expected.setstate(state.rng.getstate())
    wanted = [expected.random() for _ in range(3)]
    twin = state.copy()
    assert _draws(twin) == wanted
    assert _draws(state) == wanted


def test_the_original_drawing_first_leaves_the_copy_alone() -> None:
    state = _played(4, 30)
    twin = state.copy(keep_history=False)
    grandchild = twin.copy()
    first = _draws(state)
    assert _draws(twin) == first
    assert _draws(grandchild) == first
    assert state.rng is not twin.rng is not grandchild.rng


def test_copies_replay_the_same_deals_and_reshuffles() -> None:
    """Two copies played with the same choices to the end of the match see the same cards (R9-R11)."""
    state = _played(5, 10)
    games = []
    for _ in range(2):
        twin = state.copy()
        chooser = random.Random(11)
        while twin.winner is None:
            apply_move(twin, chooser.choice(legal_moves(twin)))
        games.append((twin.history, twin.winner, twin.pile, twin.rng.getstate()))
    assert games[0] == games[1]


def test_a_shared_generator_preview_still_shares_it() -> None:
    """``share_rng=True`` previews use the very generator of their original, as before."""
    state = _played(6, 20)
    preview = state.copy(share_rng=True, keep_history=False)
    assert preview.rng is state.rng


def test_setting_the_generator_replaces_it() -> None:
    state = _played(7, 5)
    twin = state.copy()
    twin.rng = random.Random(1)
    assert twin.rng.random() == random.Random(1).random()


def test_become_turns_a_state_into_an_independent_copy_of_another() -> None:
    earlier = _played(7, 20)
    later = earlier.copy()
    chooser = random.Random(7)
    for _ in range(15):
        apply_move(later, chooser.choice(legal_moves(later)))
    expected = random.Random()
    expected.setstate(earlier.rng.getstate())
    later.become(earlier)
    assert (later.marbles, later.hands, later.pile, later.discard, later.history, later.turn, later.deal_index) == (
        earlier.marbles, earlier.hands, earlier.pile, earlier.discard, earlier.history, earlier.turn,
        earlier.deal_index,
    )
    apply_move(later, legal_moves(later)[0])
    assert later.history != earlier.history and later.marbles is not earlier.marbles
    assert earlier.rng.random() == expected.random()  # the original's draws are its own
