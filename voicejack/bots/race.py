"""How many turns a lone marble needs to reach its safe zone: the race value behind the heuristic.

Plain progress says a marble on progress 72 is nearly home, but with the
lane's deeper places taken it then needs an exact 4 forward, which no card
gives, while one on progress 64 gets in with a queen. This table answers
"how many turns, on average, until this marble is in?" for every progress
and every number of free places at the mouth of the lane, for a player
who holds a few random cards each turn, must play one that moves the
marble if any does (R28), and otherwise burns. It knows the exact count
(R21), the ace's 1 or 11, the 4 backwards (and the short road from the
base, R16), and the complex king's 13.
"""

from __future__ import annotations

from functools import cache

from voicejack.engine.cards import ACE_STEPS, RANKS, SEVEN, SWEEP_STEPS, WALK_VALUES

LAST_TRACK_PROGRESS = 75
#: Cards in hand assumed at each turn (hands shrink from 4 or 5 to 1 over a deal).
HAND_SIZE = 3


def _card_targets(rank: str, progress: int, complex_mode: bool) -> tuple[int, ...]:
    if rank == "A":
        return tuple(progress + steps for steps in ACE_STEPS)
    if rank == "4":
        return (progress - 4 if progress >= 4 else progress + 72,)
    if rank == "7":
        return (progress + SEVEN,)
    if rank in WALK_VALUES:
        return (progress + WALK_VALUES[rank],)
    if rank == "K" and complex_mode:
        return (progress + SWEEP_STEPS,)
    return ()


@cache
def turns_to_lane(free_places: int, complex_mode: bool = False) -> tuple[float, ...]:
    """Expected turns from each progress 0..75 until the marble stands in one of the first ``free_places`` places."""
    if not 1 <= free_places <= 4:
        raise ValueError("free_places is 1..4")
    last = LAST_TRACK_PROGRESS + free_places
    # For each progress, each rank's reachable targets (a target past the track is "in": 0 turns left).
    targets = [
        [
            [t for t in _card_targets(rank, progress, complex_mode) if t <= last]
            for rank in RANKS
        ]
        for progress in range(LAST_TRACK_PROGRESS + 1)
    ]
    weights = [(1 - k / len(RANKS)) ** HAND_SIZE - (1 - (k + 1) / len(RANKS)) ** HAND_SIZE for k in range(len(RANKS))]
    turns = [0.0] * (LAST_TRACK_PROGRESS + 1)
    for _ in range(1000):
        change = 0.0
        for progress in range(LAST_TRACK_PROGRESS, -1, -1):
            options = sorted(
                min(turns[t] if t <= LAST_TRACK_PROGRESS else 0.0 for t in reachable)
                for reachable in targets[progress] if reachable
            )
            # A hand of HAND_SIZE independent cards plays the best card that moves; if none moves it burns.
            expected = sum(option * weight for option, weight in zip(options, weights))
            stuck = (1 - len(options) / len(RANKS)) ** HAND_SIZE
            new = 1.0 + expected + stuck * turns[progress]
            change = max(change, abs(new - turns[progress]))
            turns[progress] = new
        if change < 1e-6:
            break
    return tuple(turns)


@cache
def race_value(free_places: int, complex_mode: bool = False) -> tuple[float, ...]:
    """A track marble's worth in cells of progress, from the turns it still needs.

    The turns are scaled by the cells an average turn walks in the open
    track and anchored there, so in the open track the value is the plain
    progress and only the difficult spots (the exact count at the end,
    the short road of the 4 near the base) stand out.
    """
    turns = turns_to_lane(free_places, complex_mode)
    cells_per_turn = (_OPEN_TO - _OPEN_FROM) / (turns[_OPEN_FROM] - turns[_OPEN_TO])
    return tuple(_OPEN_FROM + cells_per_turn * (turns[_OPEN_FROM] - t) for t in turns)


# A stretch of open track, far from both the base and the lane.
_OPEN_FROM = 15
_OPEN_TO = 45
