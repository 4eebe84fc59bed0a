"""Why a move is not legal: one typed reason, judged by the rules engine's own walking code.

``legal_moves`` says what may be played; this module says, for a move that
is not among them, the first rule it breaks, with the marbles and cells
involved, so a player can be told "red 2 can't walk seven: your red 1 is
in the way on cell 12" instead of a bare no. Wording belongs to the
callers (the command language); here a reason is only data.

A move the engine cannot name a reason for is ``Why.OTHER``: callers say
"not allowed now" then, and nothing crashes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from voicejack.engine.board import (
    BASE_BY_INDEX,
    COLOURS,
    HOME,
    MAX_PROGRESS,
    SAFE_OFFSET,
    colour_marbles,
    position_after_progress,
)
from voicejack.engine.cards import ACE_STEPS, FOUR_STEPS_BACK, SEVEN, SWEEP_STEPS, WALK_VALUES
from voicejack.engine.moves import NO_MARBLE, Move, MoveKind
from voicejack.engine.rules import legal_moves, mover_colour
from voicejack.engine.rulesets import Burning, Five, GoalEntrance, Jack, King, Passing, Ten, Walls
from voicejack.engine.walking import _forward_path, _place, movement
from voicejack.engine.state import GameState


class Why(StrEnum):
    """The rule a move breaks (rule numbers of shared/spec/rules.md)."""

    GAME_OVER = "game_over"                # R38: a won match offers nothing
    NOT_YOUR_TURN = "not_your_turn"        # R12
    NO_CARD = "no_card"                    # the card is not in the hand
    MUST_BURN_FORCED = "must_burn_forced"  # R35: a ten made this player burn
    MUST_BURN = "must_burn"                # R29: no card moves a marble, burn one
    MUST_BURN_HAND = "must_burn_hand"      # R30: nothing on the track, the whole hand goes
    CANNOT_BURN = "cannot_burn"            # R28: a card can move, so no burning
    BURN_ONE_CARD = "burn_one_card"        # R29: a marble is on the track, so one card, not the hand
    NOT_THIS_CARD = "not_this_card"        # the card does not make this kind of move (a nine does not walk 4)
    NOT_YOURS = "not_yours"                # R19: only the mover's marbles move (complex 5 aside)
    AT_HOME = "at_home"                    # R20: a marble at home only comes out
    IN_SAFE_ZONE = "in_safe_zone"          # R16, R18, R25: out of reach in its safe zone
    ON_OWN_BASE = "on_own_base"            # R18, R23, R34: a marble on its own base is not swapped or pushed
    PASSES_OWN = "passes_own"              # R22: a marble does not walk over one of its own colour
    BASE_BLOCKS = "base_blocks"            # R23: a marble on its own base is not passed or landed on
    WALL = "wall"                          # R24: a wall-protected marble is not passed or landed on
    OVERSHOOTS = "overshoots"              # R21: past safe place 4
    WALL_PROTECTED = "wall_protected"      # R18, R24: a jack does not swap a wall-protected marble
    NONE_AT_HOME = "none_at_home"          # R20: nothing left to bring out
    OWN_ON_BASE = "own_on_base"            # R20: a marble of the same colour stands on the base
    BASE_GUARDED = "base_guarded"          # R20, R24: a wall-protected marble stands on the base
    SAME_MARBLE = "same_marble"            # R17: a split moves two different marbles
    SPLIT_SUM = "split_sum"                # R17: the parts are at least 1 and add up to 7
    NO_MARBLE_FOR_REST = "no_marble_for_rest"  # R17: no other marble can walk the rest of the 7
    SWAP_OWN_COLOUR = "swap_own_colour"    # R18: the jack swaps with another colour
    DELIVERS_OPPONENT = "delivers_opponent"  # R34: a 5 never takes an opponent's marble into its safe zone
    NOBODY_TO_BURN = "nobody_to_burn"      # R35: nobody else holds cards
    NOT_COMPLEX = "not_complex"            # R31-R35 are complex-mode moves (or of a house rule set)
    GOAL_ENTRANCE = "goal_entrance"        # KA6: a marble of the other team stands on the goal entrance
    SWAP_PARTNER = "swap_partner"          # ON10: the jack never swaps with a partner
    BURN_ONE_CARD_RULE = "burn_one_card_rule"  # KA4: with no move one card is burned, never the hand
    BURN_HAND_RULE = "burn_hand_rule"      # ON3: with no move the whole hand is burned
    TIMER_ONLY = "timer_only"              # ON11: "time out" is the timer's, never a move to choose
    NO_SUCH_MARBLE = "no_such_marble"      # a colour nobody plays here (2 players)
    OTHER = "other"                        # a rule not named above


@dataclass(frozen=True, slots=True)
class IllegalReason:
    """Why a move is refused.

    ``marble`` is the marble the reason is about (the one that cannot
    walk, or the one named that is not the mover's); ``steps`` the walk it
    was asked for; ``blocker`` the marble in the way and ``position`` where
    that marble stands (a track cell or a safe-zone position); ``second``
    the other marble of a wall. ``part`` is 2 when the second part of a 7
    split fails after the first was made. ``colour`` names a player: whose
    turn it is, or whose marbles the mover plays. ``card`` is the card played.
    """

    why: Why
    card: str = ""
    marble: int | None = None
    steps: int | None = None
    blocker: int | None = None
    position: int | None = None
    second: int | None = None
    part: int = 1
    colour: str | None = None
    left: int | None = None  # OVERSHOOTS: the steps the marble still has before the end of its safe zone


def why_illegal(state: GameState, move: Move, seat: str | None = None) -> IllegalReason:
    """The first rule ``move`` breaks for the player to act (or for ``seat``, when given).

    Raises ValueError when the move is legal: there is nothing to explain.
    """
    if move in legal_moves(state) and (seat is None or seat == state.turn):
        raise ValueError(f"{move.phrase} is legal")
    if state.winner is not None:
        return IllegalReason(Why.GAME_OVER, move.card)
    if move.kind is MoveKind.TIME_OUT:
        return IllegalReason(Why.TIMER_ONLY)
    if seat is not None and seat != state.turn:
        return IllegalReason(Why.NOT_YOUR_TURN, move.card, colour=state.turn)
    hand = state.hands[state.turn]
    if move.kind is not MoveKind.BURN_HAND and move.card not in hand:
        return IllegalReason(Why.NO_CARD, move.card)
    legal = legal_moves(state)
    burning = bool(legal) and all(m.kind in (MoveKind.BURN, MoveKind.BURN_HAND) for m in legal)
    if state.forced_burn:
        return IllegalReason(Why.MUST_BURN_FORCED, move.card)
    rule = state.rules.book.burning
    if move.kind in (MoveKind.BURN, MoveKind.BURN_HAND):
        if not burning:
            return IllegalReason(Why.CANNOT_BURN, move.card)
        if move.kind is MoveKind.BURN_HAND:
            return IllegalReason(Why.BURN_ONE_CARD_RULE if rule is Burning.ONE_CARD else Why.BURN_ONE_CARD, move.card)
        return IllegalReason(Why.BURN_HAND_RULE if rule is Burning.WHOLE_HAND else Why.MUST_BURN_HAND, move.card)
    if burning:
        if legal[0].kind is not MoveKind.BURN_HAND:
            return IllegalReason(Why.MUST_BURN, move.card)
        return IllegalReason(Why.BURN_HAND_RULE if rule is Burning.WHOLE_HAND else Why.MUST_BURN_HAND, move.card)
    return _move_reason(state, move)


def _move_reason(state: GameState, move: Move) -> IllegalReason:
    kind = move.kind
    card = move.card
    if kind is MoveKind.OUT:
        return _out_reason(state, move) if card in ("A", "K") else IllegalReason(Why.NOT_THIS_CARD, card)
    if kind is MoveKind.FORCE_BURN:
        if card != "10":
            return IllegalReason(Why.NOT_THIS_CARD, card)
        if state.rules.book.ten is Ten.WALK_ONLY:
            return IllegalReason(Why.NOT_COMPLEX, card)
        return IllegalReason(Why.NOBODY_TO_BURN, card)
    if kind is MoveKind.SWAP:
        return _swap_reason(state, move) if card == "J" else IllegalReason(Why.NOT_THIS_CARD, card)
    if kind is MoveKind.SPLIT:
        return _split_reason(state, move) if card == "7" else IllegalReason(Why.NOT_THIS_CARD, card)
    if kind is MoveKind.SWEEP:
        if card != "K":
            return IllegalReason(Why.NOT_THIS_CARD, card)
        if state.rules.book.king is King.OUT_ONLY:
            return IllegalReason(Why.NOT_COMPLEX, card)
    elif not _walks(card, move.steps):
        return IllegalReason(Why.NOT_THIS_CARD, card, move.marble, move.steps)
    return _walk_reason(state, move)


def _walks(card: str, steps: int) -> bool:
    """Does ``card`` walk one marble ``steps`` (R13, R14, R16, R17)?"""
    if card in WALK_VALUES:
        return WALK_VALUES[card] == steps
    if card == "A":
        return steps in ACE_STEPS
    if card == "4":
        return steps == FOUR_STEPS_BACK
    return card == "7" and steps == SEVEN


def _owner_reason(state: GameState, move: Move, marble: int, mover: str) -> IllegalReason | None:
    """The marble is not one the mover may walk, or stands where no walk reaches it."""
    card = move.card
    if COLOURS[marble >> 2] not in state.rules.seats:
        return IllegalReason(Why.NO_SUCH_MARBLE, card, marble)
    owner = COLOURS[marble >> 2]
    five = state.rules.book.five
    pushing = card == "5" and five is not Five.MOVER_ONLY and move.kind is MoveKind.WALK
    if owner != mover and not pushing:
        return IllegalReason(Why.NOT_YOURS, card, marble, colour=mover)
    position = state.marbles[marble]
    if position == HOME:
        return IllegalReason(Why.AT_HOME, card, marble)
    if position > SAFE_OFFSET and (move.backward or move.kind is MoveKind.SWEEP or owner != mover):
        return IllegalReason(Why.IN_SAFE_ZONE, card, marble)
    if pushing and position == BASE_BY_INDEX[marble >> 2] and (five is Five.ANY_MARBLE or owner != mover):
        return IllegalReason(Why.ON_OWN_BASE, card, marble)  # R34; KA10, ON8 spare the mover's own
    if pushing and five is Five.ANY_BY_ITS_COLOUR and owner != mover:
        behind = state.board[position - 1]
        if behind >= 0 and behind >> 2 == marble >> 2:
            return IllegalReason(Why.WALL_PROTECTED, card, marble, blocker=behind, position=position)  # ON8
    return None


def _walk_reason(state: GameState, move: Move, part: int = 1) -> IllegalReason:
    mover = mover_colour(state, state.turn)
    marble, steps = move.marble, move.steps
    found = _owner_reason(state, move, marble, mover)
    if found is not None:
        return found
    if move.kind is MoveKind.SWEEP:
        return _sweep_reason(state, move)
    if move.backward:
        return _backward_obstacle(state, move, marble, steps)
    five = state.rules.book.five
    if move.card == "5" and five in (Five.ANY_MARBLE, Five.ANY_BY_ITS_COLOUR) and (
        COLOURS[marble >> 2] not in state.rules.team_of(mover)
    ):
        if _reach_of(state, marble, steps, "5") >> steps & 1:
            return IllegalReason(Why.DELIVERS_OPPONENT, move.card, marble, steps)
    return _forward_obstacle(state, move.card, marble, steps, part)


def _reach_of(state: GameState, marble: int, steps: int, card: str) -> int:
    """The rule set's reach mask for ``marble`` walking with ``card`` (KA10's 5 passes more)."""
    walks = movement(state.rules.book)
    if card == "5" and state.rules.book.five is Five.ANY_PASSING_ALL:
        if COLOURS[marble >> 2] in state.rules.team_of(state.turn):
            return walks.five_reach(state, marble, steps)
        return walks.opponent_five_reach(state, marble, steps)
    return walks.reach(state, marble, steps)


def _progress(state: GameState, marble: int) -> int:
    position = state.marbles[marble]
    return position if position > SAFE_OFFSET else (position - BASE_BY_INDEX[marble >> 2]) % 76


def _forward_obstacle(state: GameState, card: str, marble: int, steps: int, part: int = 1) -> IllegalReason:
    """What stops ``marble`` walking ``steps`` forward: the step where ``_reach`` stopped, explained."""
    colour = COLOURS[marble >> 2]
    start = _progress(state, marble)
    reached = _reach_of(state, marble, steps, card).bit_length() - 1  # the walks 1..reached are allowed
    base = IllegalReason(Why.OVERSHOOTS, card, marble, steps, part=part, left=MAX_PROGRESS - start)
    if reached >= steps:
        return IllegalReason(Why.OTHER, card, marble, steps, part=part)
    if reached:
        landed = position_after_progress(colour, start + reached)
        if landed <= SAFE_OFFSET:
            occupant = state.board[landed]
            if occupant >= 0 and occupant != marble and occupant >> 2 == marble >> 2:
                return IllegalReason(Why.PASSES_OWN, card, marble, steps, occupant, landed, part=part)
    if start + reached + 1 > MAX_PROGRESS:
        return base
    book = state.rules.book
    if card == "5" and book.five is Five.ANY_PASSING_ALL and colour not in state.rules.team_of(state.turn):
        cell = (state.marbles[marble] + reached + 1) % 76  # KA10: a pushed opponent stays on the track
        return _cell_obstacle(state, card, marble, steps, cell, part)
    blocked_at = position_after_progress(colour, start + reached + 1)
    if blocked_at == SAFE_OFFSET + 1 and book.goal_entrance is GoalEntrance.GUARDED:
        entrance = (BASE_BY_INDEX[marble >> 2] - 1) % 76
        guard = state.board[entrance]
        if guard >= 0 and guard != marble and COLOURS[guard >> 2] not in state.rules.team_of(colour):
            return IllegalReason(Why.GOAL_ENTRANCE, card, marble, steps, guard, entrance, part=part)  # KA6
    if blocked_at > SAFE_OFFSET:
        own = [m for m in colour_marbles(colour) if state.marbles[m] == blocked_at]
        return IllegalReason(Why.PASSES_OWN, card, marble, steps, own[0] if own else None, blocked_at, part=part)
    return _cell_obstacle(state, card, marble, steps, blocked_at, part)


def _cell_obstacle(state: GameState, card: str, marble: int, steps: int, cell: int, part: int = 1) -> IllegalReason:
    """A marble on ``cell`` that nobody may pass or land on: on its own base (R23) or at the front of a wall (R24)."""
    occupant = state.board[cell]
    if occupant >= 0 and cell == BASE_BY_INDEX[occupant >> 2]:
        return IllegalReason(Why.BASE_BLOCKS, card, marble, steps, occupant, cell, part=part)
    book = state.rules.book
    if occupant >= 0 and book.passing is Passing.OWN_COLOUR_BLOCKS and occupant >> 2 == marble >> 2:
        return IllegalReason(Why.PASSES_OWN, card, marble, steps, occupant, cell, part=part)  # KA5
    behind = state.board[cell - 1]
    return IllegalReason(Why.WALL, card, marble, steps, occupant if occupant >= 0 else None, cell,
                         behind if behind >= 0 else None, part=part)


def _backward_obstacle(state: GameState, move: Move, marble: int, steps: int) -> IllegalReason:
    """The 4: the first walk back that ``_walk_backward`` refuses, explained (R16, R22-R24)."""
    position = state.marbles[marble]
    for step in range(1, steps + 1):
        if movement(state.rules.book).backward(state, marble, step) is not None:
            continue
        if step > 1:
            passed = (position - step + 1) % 76
            occupant = state.board[passed]
            if occupant >= 0 and occupant >> 2 == marble >> 2:
                return IllegalReason(Why.PASSES_OWN, move.card, marble, steps, occupant, passed)
        return _cell_obstacle(state, move.card, marble, steps, (position - step) % 76)
    return IllegalReason(Why.OTHER, move.card, marble, steps)


def _sweep_reason(state: GameState, move: Move) -> IllegalReason:
    """The complex king sweep (R31-R33): past the safe zone, or a base or safe-zone marble on the path."""
    marble = move.marble
    colour = COLOURS[marble >> 2]
    start = _progress(state, marble)
    if start + SWEEP_STEPS > MAX_PROGRESS:
        return IllegalReason(Why.OVERSHOOTS, move.card, marble, SWEEP_STEPS, left=MAX_PROGRESS - start)
    for progress in range(start + 1, start + SWEEP_STEPS + 1):
        position = position_after_progress(colour, progress)
        if position > SAFE_OFFSET:
            own = [m for m in colour_marbles(colour) if state.marbles[m] == position]
            if own:
                return IllegalReason(Why.PASSES_OWN, move.card, marble, SWEEP_STEPS, own[0], position)
            continue
        occupant = state.board[position]
        if occupant >= 0 and position == BASE_BY_INDEX[occupant >> 2]:
            return IllegalReason(Why.BASE_BLOCKS, move.card, marble, SWEEP_STEPS, occupant, position)
    return IllegalReason(Why.OTHER, move.card, marble, SWEEP_STEPS)


def _out_reason(state: GameState, move: Move) -> IllegalReason:
    mover = mover_colour(state, state.turn)
    index = COLOURS.index(mover)
    if all(state.marbles[m] != HOME for m in colour_marbles(mover)):
        return IllegalReason(Why.NONE_AT_HOME, move.card, colour=mover)
    base = BASE_BY_INDEX[index]
    occupant = state.board[base]
    if occupant < 0 or movement(state.rules.book).out(state, index) is not None:
        return IllegalReason(Why.OTHER, move.card)
    if occupant >> 2 == index:
        return IllegalReason(Why.OWN_ON_BASE, move.card, blocker=occupant, position=base)
    behind = state.board[base - 1]
    return IllegalReason(Why.BASE_GUARDED, move.card, blocker=occupant, position=base, second=behind)


def _swap_reason(state: GameState, move: Move) -> IllegalReason:
    """R18: the mover's track marble with a track marble of another colour, neither on its base or in a wall."""
    mover = mover_colour(state, state.turn)
    mine, other = move.marble, move.second
    for marble in (mine, other):
        if COLOURS[marble >> 2] not in state.rules.seats:
            return IllegalReason(Why.NO_SUCH_MARBLE, move.card, marble)
    if COLOURS[mine >> 2] != mover:
        return IllegalReason(Why.NOT_YOURS, move.card, mine, colour=mover)
    if other >> 2 == mine >> 2:
        return IllegalReason(Why.SWAP_OWN_COLOUR, move.card, mine, blocker=other)
    book = state.rules.book
    if book.jack is Jack.OPPONENTS and COLOURS[other >> 2] in state.rules.team_of(state.turn):
        return IllegalReason(Why.SWAP_PARTNER, move.card, mine, blocker=other)  # ON10
    for marble in (mine, other):
        position = state.marbles[marble]
        if position == HOME:
            return IllegalReason(Why.AT_HOME, move.card, marble)
        if position > SAFE_OFFSET:
            return IllegalReason(Why.IN_SAFE_ZONE, move.card, marble)
        if position == BASE_BY_INDEX[marble >> 2]:
            return IllegalReason(Why.ON_OWN_BASE, move.card, marble)
    for marble in (mine, other):
        if book.walls is Walls.NONE:
            break  # KA12
        behind = state.board[state.marbles[marble] - 1]
        if book.walls is Walls.SAME_COLOUR and behind >= 0 and behind >> 2 != marble >> 2:
            continue  # ON5: only a marble of its own colour makes a wall
        if behind >= 0 and behind not in (mine, other):
            return IllegalReason(Why.WALL_PROTECTED, move.card, marble, blocker=behind,
                                 position=state.marbles[marble])
    return IllegalReason(Why.OTHER, move.card, mine, blocker=other)


def _split_reason(state: GameState, move: Move) -> IllegalReason:
    """R17: two different marbles, parts adding to 7, the second judged on the board after the first.

    ``move.second`` may be NO_MARBLE: "seven red two five" asks whether any
    other marble can take the rest.
    """
    first, first_steps, rest = move.marble, move.steps, move.second_steps
    if move.second == first:
        return IllegalReason(Why.SAME_MARBLE, move.card, first)
    if first_steps < 1 or rest < 1 or first_steps + rest != SEVEN:
        return IllegalReason(Why.SPLIT_SUM, move.card, first, first_steps)
    first_walk = Move("7", MoveKind.WALK, first, first_steps)
    mover = mover_colour(state, state.turn)
    found = _owner_reason(state, first_walk, first, mover)
    if found is not None:
        return found
    if not _reach_of(state, first, first_steps, "7") >> first_steps & 1:
        return _forward_obstacle(state, "7", first, first_steps)
    after = state.copy(share_rng=True, keep_history=False)
    _place(after, first, *_forward_path(after, first, first_steps))
    second_mover = mover_colour(after, state.turn)
    if move.second == NO_MARBLE:
        return IllegalReason(Why.NO_MARBLE_FOR_REST, move.card, first, first_steps, colour=second_mover)
    second_walk = Move("7", MoveKind.WALK, move.second, rest)
    found = _owner_reason(after, second_walk, move.second, second_mover)
    if found is not None:
        return replace(found, steps=rest, part=2)
    return _forward_obstacle(after, "7", move.second, rest, part=2)


__all__ = ["IllegalReason", "Why", "why_illegal"]
