"""The race table behind the heuristic: turns a lone marble still needs, by progress and free safe places."""

from __future__ import annotations

import pytest

from voicejack.bots.race import race_value, turns_to_lane


@pytest.mark.parametrize("free", [1, 2, 3, 4])
def test_in_the_open_track_the_value_is_the_plain_progress(free: int) -> None:
    values = race_value(free)
    for progress in range(10, 50):
        assert values[progress] == pytest.approx(progress, abs=2.0)


def test_further_along_the_open_track_needs_fewer_turns() -> None:
    turns = turns_to_lane(4)
    assert all(turns[p] > turns[p + 5] for p in range(5, 55))


def test_a_marble_on_its_base_is_worth_more_than_one_a_few_cells_on() -> None:
    # From the base a 4 takes it round to progress 72 (R16); four cells on, that short road is gone.
    for free in (1, 4):
        assert race_value(free)[0] > race_value(free)[4] + 5


def test_with_one_free_place_progress_72_is_a_trap() -> None:
    # Only a forward 4 would take it in, and no card walks 4 forward: it is worth less than cells behind it.
    values = race_value(1)
    assert values[72] < values[70] - 5 and values[72] < values[73] - 5
    assert turns_to_lane(1)[72] > turns_to_lane(1)[64]


def test_more_free_places_never_make_the_lane_harder_to_reach() -> None:
    for free in (1, 2, 3):
        fewer, more = turns_to_lane(free), turns_to_lane(free + 1)
        assert all(more[p] <= fewer[p] + 1e-9 for p in range(76))


def test_the_complex_king_helps_near_the_end() -> None:
    # 13 steps from the lane's deepest place only the complex king's 13 walks in at once.
    assert turns_to_lane(4, complex_mode=True)[66] < turns_to_lane(4)[66]


def test_free_places_outside_one_to_four_are_refused() -> None:
    with pytest.raises(ValueError):
        turns_to_lane(0)
