"""Legal moves and applying them: the rulebook (shared/spec/rules.md, R12-R39; dealing, R9-R11, is dealing.py).

The hot paths work on the state's int lists directly; see board.py for the
encoding. ``legal_moves`` never returns an illegal move and never misses a
legal one (R39); ``apply_move`` mutates the state and returns the events.
"""

from __future__ import annotations

from voicejack.engine.board import (
    BASE_BY_INDEX,
    COLOUR_INDEX,
    COLOURS,
    HOME,
    MARBLE_SLICES,
    MARBLES_BY_INDEX,
    MAX_PROGRESS,
    SAFE_OFFSET,
    colour_marbles,
)
from voicejack.engine.cards import (
    ACE_STEPS,
    RANK_ORDER,
    RANK_WORDS,
    SEVEN,
    SWEEP_STEPS,
    WALK_VALUES,
)
from voicejack.engine.events import (
    BurnForced,
    CardBurned,
    CardPlayed,
    EnteredSafeZone,
    Event,
    HandBurned,
    MarbleCameOut,
    MarbleCaptured,
    MarblesSwapped,
    MarbleWalked,
    PlayerFinished,
    TurnPassed,
    Won,
)
from voicejack.engine.moves import NO_CARD, IllegalMoveError, Move, MoveKind, parse_move
from voicejack.engine import validity
from voicejack.engine.dealing import deal
from voicejack.engine.state import GameState, LastCard, winner_from_marbles
from voicejack.engine.types import Colour, MarbleId, Position, Rank
from voicejack.engine.validity import check_state

#: The longest forward walk each card may ask of one of the mover's marbles (R13, R14, R17).
FORWARD_REACH = {**WALK_VALUES, "A": max(ACE_STEPS), "7": SEVEN}

# A walk's outcome: the positions stepped on, and the marbles it sends home.
Walk = tuple[list[Position], list[MarbleId]]


# --------------------------------------------------------------------------
# Whose marbles a player moves


def mover_colour(state: GameState, colour: Colour) -> Colour:
    """The colour whose marbles ``colour`` plays on (R19, R36)."""
    if state.rules.teams and state.marbles_in(colour) == 4:
        partner = state.rules.partner(colour)
        assert partner is not None
        return partner
    return colour


# --------------------------------------------------------------------------
# Walking (R21-R27)


def _walk_forward(state: GameState, marble: MarbleId, steps: int) -> Walk | None:
    """The path of ``marble`` walking ``steps`` forward, or None if a movement rule forbids it."""
    if not _reach(state, marble, steps) >> steps & 1:
        return None
    return _forward_path(state, marble, steps)


def _forward_path(state: GameState, marble: MarbleId, steps: int) -> Walk:
    """The positions a legal forward walk steps on, and the marble it lands on (R26), if any."""
    position = state.marbles[marble]
    base = BASE_BY_INDEX[marble >> 2]
    start = position if position > SAFE_OFFSET else (position - base) % 76
    path = [p if p > SAFE_OFFSET else (base + p) % 76 for p in range(start + 1, start + steps + 1)]
    end = path[-1]
    landed_on = state.board[end] if end <= SAFE_OFFSET else -1
    return path, [landed_on] if landed_on >= 0 else []


def _reach(state: GameState, marble: MarbleId, limit: int = SWEEP_STEPS) -> int:
    """Every forward walk ``marble`` may make, in one pass: bit k is set when walking k steps (1..limit) is legal.

    This is where the movement rules R21-R27 are judged for every forward
    walk; legal-move generation asks it once per marble, not once per card.
    """
    marbles = state.marbles
    board = state.board
    position = marbles[marble]
    if position == HOME:
        return 0
    colour_index = marble >> 2
    base = BASE_BY_INDEX[colour_index]
    start = position if position > SAFE_OFFSET else (position - base) % 76
    own = marbles[MARBLE_SLICES[colour_index]]
    mask = 0
    for steps in range(1, min(limit, MAX_PROGRESS - start) + 1):
        progress = start + steps
        if progress > SAFE_OFFSET:
            if progress in own:
                break
            mask |= 1 << steps
            continue
        cell = base + progress
        if cell >= 76:
            cell -= 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                break
            behind = board[cell - 1]
            if behind >= 0 and behind != marble:
                break
            mask |= 1 << steps  # landing captures, even on the mover's own colour (R22, R26)
            if occupant >> 2 == colour_index:
                break
            continue
        mask |= 1 << steps
    return mask


def _walk_backward(state: GameState, marble: MarbleId, steps: int) -> Walk | None:
    """The 4 (R16): track marbles only, over the same rules walking backwards."""
    board = state.board
    position = state.marbles[marble]
    if not 0 <= position < 76:
        return None
    colour_index = marble >> 2
    path: list[Position] = []
    captured: list[MarbleId] = []
    for step in range(1, steps + 1):
        cell = (position - step) % 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                return None
            behind = board[cell - 1]
            if behind >= 0 and behind != marble:
                return None
            if step != steps:
                if occupant >> 2 == colour_index:
                    return None
            else:
                captured.append(occupant)
        path.append(cell)
    return path, captured


def _sweep(state: GameState, marble: MarbleId) -> Walk | None:
    """Complex king (R31-R33): 13 forward, sending home everything passed or landed on."""
    marbles = state.marbles
    board = state.board
    position = marbles[marble]
    if not 0 <= position < 76:
        return None
    colour_index = marble >> 2
    base = BASE_BY_INDEX[colour_index]
    start = (position - base) % 76
    target = start + SWEEP_STEPS
    if target > MAX_PROGRESS:
        return None
    own = marbles[MARBLE_SLICES[colour_index]]
    path: list[Position] = []
    captured: list[MarbleId] = []
    for progress in range(start + 1, target + 1):
        if progress > SAFE_OFFSET:
            if progress in own:
                return None
            path.append(progress)
            continue
        cell = (base + progress) % 76
        occupant = board[cell]
        if occupant >= 0:
            if cell == BASE_BY_INDEX[occupant >> 2]:
                return None
            captured.append(occupant)
        path.append(cell)
    return path, captured


def _out_capture(state: GameState, colour_index: int) -> tuple[MarbleId, MarbleId] | None:
    """Bringing out (R20): (marble coming out, marble captured or -1), or None."""
    marbles = state.marbles
    for marble in MARBLES_BY_INDEX[colour_index]:
        if marbles[marble] == HOME:
            break
    else:
        return None
    base = BASE_BY_INDEX[colour_index]
    occupant = state.board[base]
    if occupant < 0:
        return marble, -1
    if occupant >> 2 == colour_index:
        return None
    if state.board[base - 1] >= 0:  # the occupant is a wall's front marble (R24, R27)
        return None
    return marble, occupant


def _swappable(state: GameState, marble: MarbleId, other: MarbleId) -> bool:
    """R18: both on the track, neither on its own base, neither wall-protected without the pair."""
    board = state.board
    for subject in (marble, other):
        cell = state.marbles[subject]
        if not 0 <= cell < 76 or cell == BASE_BY_INDEX[subject >> 2]:
            return False
        behind = board[cell - 1]
        if behind >= 0 and behind != marble and behind != other:
            return False
    return True


# --------------------------------------------------------------------------
# Making and unmaking a walk on the board


def _place(
    state: GameState, marble: MarbleId, path: list[Position], captured: list[MarbleId],
) -> tuple[Position, list[tuple[MarbleId, Position]]]:
    """Move ``marble`` to the end of ``path`` and send ``captured`` home. Returns undo data."""
    marbles = state.marbles
    board = state.board
    undo = [(c, marbles[c]) for c in captured]
    for c in captured:
        cell = marbles[c]
        if 0 <= cell < 76 and board[cell] == c:
            board[cell] = -1
        marbles[c] = HOME
    start = marbles[marble]
    if 0 <= start < 76:
        board[start] = -1
    end = path[-1]
    marbles[marble] = end
    if end <= SAFE_OFFSET:
        board[end] = marble
    return start, undo


def _unplace(state: GameState, marble: MarbleId, start: Position, undo: list[tuple[MarbleId, Position]]) -> None:
    marbles = state.marbles
    board = state.board
    end = marbles[marble]
    if end <= SAFE_OFFSET:
        board[end] = -1
    marbles[marble] = start
    if 0 <= start < 76:
        board[start] = marble
    for c, position in undo:
        marbles[c] = position
        if 0 <= position < 76:
            board[position] = c


# --------------------------------------------------------------------------
# Legal moves


def forced_burn_target(state: GameState, colour: Colour) -> Colour | None:
    """Who a forcing 10 played by ``colour`` would make burn (R35): the next player in seat order
    holding cards, never ``colour`` itself; None when nobody else holds cards."""
    rules = state.rules
    seat = rules.next_seat(colour)
    while seat != colour:
        if state.hands[seat]:
            return seat
        seat = rules.next_seat(seat)
    return None


def _moves_for_card(state: GameState, colour: Colour, card: Rank, movers: range, reach: list[int]) -> list[Move]:
    """``reach[i]`` is the _reach mask of marble ``movers[i]``."""
    marbles = state.marbles
    moves: list[Move] = []
    complex_mode = state.rules.complex
    if card in WALK_VALUES:
        steps = WALK_VALUES[card]
        if card == "5" and complex_mode:
            moves.extend(_complex_five(state, colour, movers))
        else:
            for marble, mask in zip(movers, reach):
                if mask >> steps & 1:
                    moves.append(Move(card, MoveKind.WALK, marble, steps))
        if card == "10" and complex_mode and forced_burn_target(state, colour) is not None:
            moves.append(Move(card, MoveKind.FORCE_BURN))
    elif card == "A" or card == "K":
        if _out_capture(state, movers.start >> 2) is not None:
            moves.append(Move(card, MoveKind.OUT))
        if card == "A":
            for marble, mask in zip(movers, reach):
                for steps in ACE_STEPS:
                    if mask >> steps & 1:
                        moves.append(Move(card, MoveKind.WALK, marble, steps))
        elif complex_mode:
            for marble in movers:
                if _sweep(state, marble) is not None:
                    moves.append(Move(card, MoveKind.SWEEP, marble, SWEEP_STEPS))
    elif card == "4":
        for marble in movers:
            if _walk_backward(state, marble, 4) is not None:
                moves.append(Move(card, MoveKind.WALK, marble, 4))
    elif card == "7":
        for marble, mask in zip(movers, reach):
            if mask >> SEVEN & 1:
                moves.append(Move(card, MoveKind.WALK, marble, SEVEN))
        moves.extend(_splits(state, colour, movers, reach))
    elif card == "J":
        for marble in movers:
            if not 0 <= marbles[marble] < 76:
                continue
            own_colour = marble >> 2
            for other in range(16):
                if other >> 2 != own_colour and _swappable(state, marble, other):
                    moves.append(Move(card, MoveKind.SWAP, marble, 0, other))
    return moves


def _complex_five(state: GameState, colour: Colour, movers: range) -> list[Move]:
    """R34: the 5 walks any track marble (and the mover's own in the safe zone), never one on its own base."""
    marbles = state.marbles
    team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
    mover_index = movers.start >> 2
    moves: list[Move] = []
    for marble in range(16):
        position = marbles[marble]
        owner = marble >> 2
        if position == HOME or position == BASE_BY_INDEX[owner]:
            continue
        if position > SAFE_OFFSET and owner != mover_index:
            continue
        walk = _walk_forward(state, marble, 5)
        if walk is None:
            continue
        if owner not in team and walk[0][-1] > SAFE_OFFSET:
            continue  # never deliver an opponent's marble home
        moves.append(Move("5", MoveKind.WALK, marble, 5))
    return moves


def _splits(state: GameState, colour: Colour, movers: range, reach: list[int]) -> list[Move]:
    """R17: 7 = a + b over two different marbles, the second judged after the first (and R36)."""
    moves: list[Move] = []
    for first, mask in zip(movers, reach):
        for first_steps in range(1, SEVEN):
            if not mask >> first_steps & 1:
                continue
            start, undo = _place(state, first, *_forward_path(state, first, first_steps))
            second_steps = SEVEN - first_steps
            for second in colour_marbles(mover_colour(state, colour)):
                if second != first and _reach(state, second, second_steps) >> second_steps & 1:
                    moves.append(Move("7", MoveKind.SPLIT, first, first_steps, second, second_steps))
            _unplace(state, first, start, undo)
    return moves


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the player to act, each once (R28-R30, R39)."""
    if state.winner is not None:
        return []
    colour = state.turn
    hand = state.hands[colour]
    ranks = sorted(set(hand), key=RANK_ORDER.__getitem__)
    if state.forced_burn:
        return [Move(rank, MoveKind.BURN) for rank in ranks]
    movers = colour_marbles(mover_colour(state, colour))
    longest = max((FORWARD_REACH.get(rank, 0) for rank in ranks), default=0)
    reach = [_reach(state, marble, longest) if longest else 0 for marble in movers]
    moves: list[Move] = []
    for rank in ranks:
        moves.extend(_moves_for_card(state, colour, rank, movers, reach))
    if moves:
        return moves
    if any(0 <= state.marbles[m] < 76 for m in movers):
        return [Move(rank, MoveKind.BURN) for rank in ranks]  # R29
    return [Move(NO_CARD, MoveKind.BURN_HAND)]  # R30


def legal_phrases(state: GameState) -> list[str]:
    return sorted(move.phrase for move in legal_moves(state))


def find_move(state: GameState, phrase: str) -> Move:
    """The legal move named by ``phrase``: the notation read by ``parse_move``, then judged in this position.

    Raises PhraseSyntaxError for words that are no move phrase and
    IllegalMoveError, saying why where it is plain, for a move phrase that
    is not legal now.
    """
    move = parse_move(phrase, state.rules)
    moves = legal_moves(state)
    if move in moves:
        return move
    raise IllegalMoveError(f"'{move.phrase}' is not a legal move for {state.turn} now{_why_illegal(state, move, moves)}")


def _why_illegal(state: GameState, move: Move, moves: list[Move]) -> str:
    """': <reason>' for the plainest reasons a move is not legal, else nothing."""
    if state.winner is not None:
        return ": the match is over (R38)"
    hand = state.hands[state.turn]
    if move.kind is not MoveKind.BURN_HAND and move.card not in hand:
        return f": {state.turn} holds no {RANK_WORDS[move.card]}"
    if state.forced_burn:
        return ": a ten made them burn one card (R35)"
    if moves and moves[0].kind is MoveKind.BURN_HAND:
        return ": no card moves a marble and none is on the track, so the whole hand goes (R30)"
    if move.kind in (MoveKind.BURN, MoveKind.BURN_HAND):
        if moves[0].kind is MoveKind.BURN:
            return ": a marble is on the track, so one card is burned (R29)"
        return ": a card in the hand can move, and playing is compulsory (R28)"
    return ""


# --------------------------------------------------------------------------
# Applying a move


def apply_move(state: GameState, move: Move) -> list[Event]:
    """Play ``move`` (which must be legal) on ``state`` in place; return what happened.

    With ``validity.debug_checks`` on, the state is checked after every move.
    """
    events = _apply(state, move)
    if validity.debug_checks:
        check_state(state)
    return events


def _apply(state: GameState, move: Move) -> list[Event]:
    colour = state.turn
    events: list[Event] = []
    hand = state.hands[colour]
    kind = move.kind
    if kind is MoveKind.BURN_HAND:
        burned = tuple(hand)
        state.discard.extend(hand)
        hand.clear()
        events.append(HandBurned(colour, burned))
        state.last_card = LastCard(colour, burned[-1], move)
    else:
        hand.remove(move.card)
        state.discard.append(move.card)
        state.last_card = LastCard(colour, move.card, move)
    state.history.append((colour, move))

    if kind is MoveKind.BURN:
        events.append(CardBurned(colour, move.card, state.forced_burn))
        state.forced_burn = False
    elif kind is not MoveKind.BURN_HAND:
        ace_value = move.steps if move.card == "A" and kind is MoveKind.WALK else None
        events.append(CardPlayed(colour, move.card, move, ace_value, kind is MoveKind.FORCE_BURN))
        _carry_out(state, colour, move, events)

    if state.winner is not None:
        return events
    if kind is MoveKind.FORCE_BURN:
        target = forced_burn_target(state, colour)
        assert target is not None, "a forcing 10 is only offered when somebody else holds cards"
        events.append(BurnForced(colour, target))
        state.turn = target
        state.forced_burn = True
        events.append(TurnPassed(target, True))
        return events
    _pass_turn(state, colour, events)
    return events


def _carry_out(state: GameState, colour: Colour, move: Move, events: list[Event]) -> None:
    kind = move.kind
    if kind is MoveKind.OUT:
        colour_index = COLOUR_INDEX[mover_colour(state, colour)]
        found = _out_capture(state, colour_index)
        assert found is not None, f"illegal move {move.phrase}"
        marble, captured = found
        cell = BASE_BY_INDEX[colour_index]
        events.append(MarbleCameOut(marble, cell, colour))
        if captured >= 0:
            events.append(MarbleCaptured(captured, cell, marble, colour, "came out"))
            state.marbles[captured] = HOME
        state.marbles[marble] = cell
        state.board[cell] = marble
    elif kind is MoveKind.WALK or kind is MoveKind.SWEEP:
        if _walk(state, colour, move.marble, move.steps, events, backward=move.backward, sweep=kind is MoveKind.SWEEP):
            _check_finished(state, colour, move.marble, events)
    elif kind is MoveKind.SPLIT:
        if _walk(state, colour, move.marble, move.steps, events):
            _check_finished(state, colour, move.marble, events)
            if state.winner is not None:
                return
        if _walk(state, colour, move.second, move.second_steps, events):
            _check_finished(state, colour, move.second, events)
    elif kind is MoveKind.SWAP:
        a, b = move.marble, move.second
        cell_a, cell_b = state.marbles[a], state.marbles[b]
        state.marbles[a], state.marbles[b] = cell_b, cell_a
        state.board[cell_a], state.board[cell_b] = b, a
        events.append(MarblesSwapped(a, b, cell_a, cell_b, colour))


def _walk(
    state: GameState, colour: Colour, marble: MarbleId, steps: int, events: list[Event],
    backward: bool = False, sweep: bool = False,
) -> bool:
    """Carry out one marble's walk; True when it entered its safe zone."""
    if sweep:
        walk = _sweep(state, marble)
    elif backward:
        walk = _walk_backward(state, marble, steps)
    else:
        walk = _walk_forward(state, marble, steps)
    assert walk is not None, "illegal walk"
    path, captured = walk
    start = state.marbles[marble]
    events.append(MarbleWalked(marble, start, tuple(path), backward, colour, sweep))
    end = path[-1]
    for c in captured:  # already in the order the walk reached them
        position = state.marbles[c]
        how = "swept" if sweep and position != end else "landed"
        events.append(MarbleCaptured(c, position, marble, colour, how))
    _place(state, marble, path, captured)
    if end > SAFE_OFFSET and start <= SAFE_OFFSET:
        events.append(EnteredSafeZone(marble, end - SAFE_OFFSET))
        return True
    return False


def _check_finished(state: GameState, colour: Colour, entered: MarbleId, events: list[Event]) -> None:
    """R36-R37: after ``entered`` came into its safe zone, announce its owner finishing, and a win.

    A player can only finish on the move that brings their fourth marble in,
    so this is called exactly when a marble enters.
    """
    rules = state.rules
    owner = COLOURS[entered >> 2]
    if state.marbles_in(owner) != 4:
        return
    if rules.teams:
        events.append(PlayerFinished(owner, rules.partner(owner)))
    state.winner = winner_from_marbles(rules, state.marbles)
    if state.winner is not None:
        events.append(Won(state.winner))


def _pass_turn(state: GameState, colour: Colour, events: list[Event]) -> None:
    """R12: the next player in seat order holding cards; a new deal when nobody does."""
    rules = state.rules
    seat = rules.next_seat(colour)
    for _ in range(len(rules.seats)):
        if state.hands[seat]:
            break
        seat = rules.next_seat(seat)
    else:
        deal(state, events)
        seat = rules.next_seat(state.dealer)
    state.turn = seat
    events.append(TurnPassed(seat))
