"""Legal moves (R12-R39; KA4, ON3): every legal move of the player to act, each once, none missed (R39).

This is the hot path of every bot and of the search: it reads the state's
int lists directly (board.py), walks along the precomputed tables of the
positions ahead (board.AHEAD), and picks its moves out of the tables of
moves made once (moves.py) instead of building them.
"""

from __future__ import annotations

from typing import Final

from voicejack.engine.board import (
    AHEAD,
    BASE_BY_INDEX,
    COLOUR_INDEX,
    HOME,
    MARBLE_SLICES,
    MARBLES_BY_INDEX,
    SAFE_OFFSET,
    STEPS_AHEAD,
)
from voicejack.engine.cards import ACE_STEPS, RANK_ORDER, SEVEN, WALK_VALUES
from voicejack.engine.moves import (
    ACE_MOVES,
    BURN_HAND_MOVE,
    BURN_MOVES,
    FORCE_BURN_MOVE,
    OUT_MOVES,
    SPLIT_MOVES,
    SWAP_MOVES,
    SWEEP_MOVES,
    WALK_MOVES,
    Move,
)
from voicejack.engine.rulesets import Burning, Five, Jack, King, RuleSet, Ten
from voicejack.engine.state import GameState
from voicejack.engine.types import Colour, MarbleId, Rank
from voicejack.engine.walking import _MOVEMENTS, Movement, _forward_path, _reach, _sweep, movement

#: The longest forward walk each card may ask of one of the mover's marbles (R13, R14, R17).
FORWARD_REACH: Final = {**WALK_VALUES, "A": max(ACE_STEPS), "7": SEVEN}
# Rule-set values the hot path compares with, as module constants: on Python 3.11 each ``Enum.X`` is a
# descriptor lookup of about 0.14 us.
_ONE_CARD: Final = Burning.ONE_CARD
_BY_MARBLES: Final = Burning.BY_MARBLES
_SWEEPING_KING: Final = King.OUT_OR_SWEEP
_JACK_OPPONENTS: Final = Jack.OPPONENTS
#: Each colour's four marbles as a slice of the marble list.
_OWN_MARBLES: Final = {colour: MARBLE_SLICES[index] for colour, index in COLOUR_INDEX.items()}


# --------------------------------------------------------------------------
# Whose marbles a player moves, and whom a 10 makes burn


def mover_colour(state: GameState, colour: Colour) -> Colour:
    """The colour whose marbles ``colour`` plays on (R19, R36)."""
    rules = state.rules
    if rules.teams and min(state.marbles[_OWN_MARBLES[colour]]) > SAFE_OFFSET:
        partner = rules.partner(colour)
        assert partner is not None
        return partner
    return colour


def forced_burn_target(state: GameState, colour: Colour) -> Colour | None:
    """Who a burning 10 played by ``colour`` makes burn: the next player in turn order holding cards (R35,
    KA11), or under ON9 the next opponent holding cards; never ``colour`` itself; None when there is nobody."""
    rules = state.rules
    skipped = rules.team_of(colour) if rules.book.ten is Ten.RANDOM_BURN_OPPONENT else (colour,)
    seat = rules.next_seat(colour)
    while seat != colour:
        if state.hands[seat] and seat not in skipped:
            return seat
        seat = rules.next_seat(seat)
    return None


# --------------------------------------------------------------------------
# The ranks in a hand


_HAND_RANKS: dict[frozenset[Rank], tuple[tuple[Rank, ...], int]] = {}


def _hand_ranks(hand: list[Rank]) -> tuple[tuple[Rank, ...], int]:
    """The hand's ranks, each once in rank order, and the longest forward walk among them.

    Kept per set of ranks (at most 8,191 of them), as every turn of every
    game asks it.
    """
    key = frozenset(hand)
    found = _HAND_RANKS.get(key)
    if found is None:
        ranks = tuple(sorted(key, key=RANK_ORDER.__getitem__))
        found = _HAND_RANKS[key] = (ranks, max((FORWARD_REACH.get(rank, 0) for rank in ranks), default=0))
    return found


# --------------------------------------------------------------------------
# Legal moves


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the player to act, each once (R28-R30, R39; KA4, ON3)."""
    if state.winner is not None:
        return []
    colour = state.turn
    ranks, longest = _hand_ranks(state.hands[colour])
    if state.forced_burn:
        return [BURN_MOVES[rank] for rank in ranks]
    book = state.rules.book
    walks = _MOVEMENTS.get(book) or movement(book)
    movers = MARBLES_BY_INDEX[COLOUR_INDEX[mover_colour(state, colour)]]
    # The mover's marbles that can walk forward at all, each with its reach mask (walking._reach).
    walkers: list[tuple[MarbleId, int]] = []
    if longest:
        reach_of = walks.reach
        marbles = state.marbles
        for marble in movers:
            if marbles[marble] != HOME:
                mask = reach_of(state, marble, longest)
                if mask:
                    walkers.append((marble, mask))
    moves: list[Move] = []
    plain = _PLAIN_WALKS.get(book) or _plain_walks(book)
    for rank in ranks:
        walk = plain.get(rank)
        if walk is None:
            _moves_for_card(state, colour, rank, movers, walkers, walks, moves)
            continue
        steps, table = walk
        for marble, mask in walkers:
            if mask >> steps & 1:
                moves.append(table[marble])
    if moves:
        return moves
    burning = book.burning
    if burning is _ONE_CARD or (burning is _BY_MARBLES and any(0 <= state.marbles[m] < 76 for m in movers)):
        return [BURN_MOVES[rank] for rank in ranks]  # R29, KA4
    return [BURN_HAND_MOVE]  # R30, ON3


_PLAIN_WALKS: dict[RuleSet, dict[Rank, tuple[int, tuple[Move, ...]]]] = {}


def _plain_walks(book: RuleSet) -> dict[Rank, tuple[int, tuple[Move, ...]]]:
    """The cards that under ``book`` do nothing but walk one of the mover's marbles their value (R13), each
    with its steps and its moves by marble; made once per rule set."""
    found = _PLAIN_WALKS.get(book)
    if found is None:
        found = _PLAIN_WALKS[book] = {
            rank: (steps, WALK_MOVES[rank]) for rank, steps in WALK_VALUES.items()
            if not (rank == "5" and book.five is not Five.MOVER_ONLY)
            and not (rank == "10" and book.ten is not Ten.WALK_ONLY)
        }
    return found


def _moves_for_card(
    state: GameState, colour: Colour, card: Rank, movers: range, walkers: list[tuple[MarbleId, int]],
    walks: Movement, moves: list[Move],
) -> None:
    """Add to ``moves`` the moves of the cards that are not a plain walk; ``walkers`` are the mover's marbles
    that can walk forward, with their reach masks."""
    marbles = state.marbles
    book = state.rules.book
    if card == "5":
        moves.extend(_any_five(state, colour, movers, walks))
    elif card == "10":  # the 10 that also burns (R35, KA11, ON9)
        table = WALK_MOVES["10"]
        for marble, mask in walkers:
            if mask >> 10 & 1:
                moves.append(table[marble])
        if forced_burn_target(state, colour) is not None:
            moves.append(FORCE_BURN_MOVE)
    elif card == "A" or card == "K":
        if walks.out(state, movers.start >> 2) is not None:
            moves.append(OUT_MOVES[card])
        if card == "A":
            for marble, mask in walkers:
                for steps in ACE_STEPS:
                    if mask >> steps & 1:
                        moves.append(ACE_MOVES[steps][marble])
        elif book.king is _SWEEPING_KING:
            for marble in movers:
                if _sweep(state, marble) is not None:
                    moves.append(SWEEP_MOVES[marble])
    elif card == "4":
        backward = walks.backward
        table = WALK_MOVES["4"]
        for marble in movers:
            if 0 <= marbles[marble] < 76 and backward(state, marble, 4) is not None:
                moves.append(table[marble])
    elif card == "7":
        table = WALK_MOVES["7"]
        for marble, mask in walkers:
            if mask >> SEVEN & 1:
                moves.append(table[marble])
        _splits(state, colour, movers, walkers, walks, moves)
    elif card == "J":
        _swaps(state, colour, movers, walks, moves)


def _swaps(state: GameState, colour: Colour, movers: range, walks: Movement, moves: list[Move]) -> None:
    """The jack (R18, KA12, ON10): a track marble of the mover's with one of another colour."""
    marbles = state.marbles
    own_index = movers.start >> 2
    # Every rule set swaps only track marbles off their own base: the others are never asked.
    others = [
        other for other in range(16)
        if other >> 2 != own_index and 0 <= marbles[other] < 76 and marbles[other] != BASE_BY_INDEX[other >> 2]
    ]
    if not others:
        return
    if _jack_spares_partners(state):
        team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
        others = [other for other in others if other >> 2 not in team]
    swappable = walks.swappable
    for marble in movers:
        if not 0 <= marbles[marble] < 76:
            continue
        table = SWAP_MOVES[marble]
        for other in others:
            if swappable(state, marble, other):
                moves.append(table[other])


def _jack_spares_partners(state: GameState) -> bool:
    """ON10: in teams the jack never swaps with a partner."""
    return state.rules.book.jack is _JACK_OPPONENTS and state.rules.teams


def _any_five(state: GameState, colour: Colour, movers: range, walks: Movement) -> list[Move]:
    """The 5 on any marble: R34 (complex), KA10 (Karooty), ON8 (Online)."""
    five = state.rules.book.five
    if five is Five.ANY_MARBLE:
        return _complex_five(state, colour, movers)
    marbles = state.marbles
    board = state.board
    team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
    mover_index = movers.start >> 2
    table = WALK_MOVES["5"]
    moves: list[Move] = []
    for marble in range(16):
        position = marbles[marble]
        owner = marble >> 2
        if position == HOME:
            continue
        if owner != mover_index:
            if position > SAFE_OFFSET or position == BASE_BY_INDEX[owner]:
                continue  # only the mover's own are walked in the lane or off their base (R19, R23)
            if five is Five.ANY_BY_ITS_COLOUR:
                behind = board[position - 1]
                if behind >= 0 and behind >> 2 == owner:
                    continue  # ON5, ON8: another colour's wall front is not pushed
        if five is Five.ANY_PASSING_ALL:
            if owner in team:
                legal = walks.five_reach(state, marble, 5) >> 5 & 1
            else:
                legal = walks.opponent_five_reach(state, marble, 5) >> 5 & 1  # KA10: round again
        else:
            legal = walks.reach(state, marble, 5) >> 5 & 1
            if legal and owner not in team and _forward_path(state, marble, 5)[0][-1] > SAFE_OFFSET:
                continue  # ON8: an opponent is never taken into its safe zone
        if legal:
            moves.append(table[marble])
    return moves


def _complex_five(state: GameState, colour: Colour, movers: range) -> list[Move]:
    """R34: the 5 walks any track marble (and the mover's own in the safe zone), never one on its own base."""
    marbles = state.marbles
    team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
    mover_index = movers.start >> 2
    table = WALK_MOVES["5"]
    moves: list[Move] = []
    for marble in range(16):
        position = marbles[marble]
        owner = marble >> 2
        if position == HOME or position == BASE_BY_INDEX[owner]:
            continue
        if position > SAFE_OFFSET and owner != mover_index:
            continue
        if not _reach(state, marble, 5) >> 5 & 1:
            continue
        if owner not in team and _forward_path(state, marble, 5)[0][-1] > SAFE_OFFSET:
            continue  # never deliver an opponent's marble home
        moves.append(table[marble])
    return moves


def _splits(
    state: GameState, colour: Colour, movers: range, walkers: list[tuple[MarbleId, int]], walks: Movement,
    moves: list[Move],
) -> None:
    """R17: 7 = a + b over two different marbles, the second judged after the first (and R36)."""
    second_reach = walks.reach
    marbles = state.marbles
    board = state.board
    known = dict(walkers)
    for first, mask in walkers:
        table = SPLIT_MOVES[first]
        start = marbles[first]
        ahead = AHEAD[first >> 2][start]
        for first_steps in range(1, SEVEN):
            if not mask >> first_steps & 1:
                break  # the walks allowed are 1..k (walking._reach)
            # Make the first part on the board (walking._place and _unplace, written out for this one case:
            # a forward walk sends home at most the marble it lands on, whose cell the walker then takes).
            end = ahead[first_steps - 1]
            landed_on = board[end] if end <= SAFE_OFFSET else -1
            if landed_on >= 0:
                marbles[landed_on] = HOME
            if start <= SAFE_OFFSET:
                board[start] = -1
            marbles[first] = end
            if end <= SAFE_OFFSET:
                board[end] = first
            second_steps = SEVEN - first_steps
            seconds = movers
            if end > SAFE_OFFSET:  # the first part may have finished the mover's colour (R36)
                seconds = MARBLES_BY_INDEX[COLOUR_INDEX[mover_colour(state, colour)]]
            splits = table[first_steps]
            for second in seconds:
                position = marbles[second]
                if second == first or position == HOME:
                    continue
                if seconds is movers:
                    # The second part reads only the cells it steps on and the one behind each (its own cell
                    # or one it stepped on). When the first part neither left nor reached one of them, the
                    # second's reach is the one known from before the first part.
                    steps_to = STEPS_AHEAD[second >> 2][position]
                    if steps_to.get(start, SEVEN) > second_steps and steps_to.get(end, SEVEN) > second_steps:
                        if known.get(second, 0) >> second_steps & 1:
                            moves.append(splits[second])
                        continue
                if second_reach(state, second, second_steps) >> second_steps & 1:
                    moves.append(splits[second])
            if end <= SAFE_OFFSET:
                board[end] = landed_on
            marbles[first] = start
            if start <= SAFE_OFFSET:
                board[start] = first
            if landed_on >= 0:
                marbles[landed_on] = end
