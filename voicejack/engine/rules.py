"""Legal moves and applying them: the rulebook (shared/spec/rules.md, R12-R39; dealing, R9-R11, is dealing.py).

The hot paths work on the state's int lists directly; see board.py for the
encoding. ``legal_moves`` never returns an illegal move and never misses a
legal one (R39); ``apply_move`` mutates the state and returns the events.
"""

from __future__ import annotations

from voicejack.engine.board import BASE_BY_INDEX, COLOUR_INDEX, COLOURS, HOME, MARBLE_SLICES, SAFE_OFFSET, colour_marbles
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
    RandomBurn,
    TimedOut,
    TurnPassed,
    Won,
)
from voicejack.engine.moves import NO_CARD, IllegalMoveError, Move, MoveKind, parse_move
from voicejack.engine.rulesets import Burning, Five, Jack, King, Ten
from voicejack.engine.walking import _MOVEMENTS, Movement, Walk, movement, track_path
# The walking functions lived here before walking.py; they stay importable from here (VoiceJack's rules).
from voicejack.engine.walking import _forward_path as _forward_path
from voicejack.engine.walking import _out_capture as _out_capture
from voicejack.engine.walking import _place as _place
from voicejack.engine.walking import _reach as _reach
from voicejack.engine.walking import _swappable as _swappable
from voicejack.engine.walking import _sweep as _sweep
from voicejack.engine.walking import _unplace as _unplace
from voicejack.engine.walking import _walk_backward as _walk_backward
from voicejack.engine.walking import _walk_forward as _walk_forward
from voicejack.engine import validity
from voicejack.engine.dealing import deal
from voicejack.engine.state import GameState, LastCard, winner_from_marbles
from voicejack.engine.types import Colour, MarbleId, Rank
from voicejack.engine.validity import check_state

#: The longest forward walk each card may ask of one of the mover's marbles (R13, R14, R17).
FORWARD_REACH = {**WALK_VALUES, "A": max(ACE_STEPS), "7": SEVEN}


# --------------------------------------------------------------------------
# Whose marbles a player moves


def mover_colour(state: GameState, colour: Colour) -> Colour:
    """The colour whose marbles ``colour`` plays on (R19, R36)."""
    rules = state.rules
    if rules.teams and min(state.marbles[MARBLE_SLICES[COLOUR_INDEX[colour]]]) > SAFE_OFFSET:
        partner = rules.partner(colour)
        assert partner is not None
        return partner
    return colour


# --------------------------------------------------------------------------
# Legal moves


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


def _moves_for_card(
    state: GameState, colour: Colour, card: Rank, movers: range, reach: list[int], walks: Movement,
) -> list[Move]:
    """``reach[i]`` is the reach mask of marble ``movers[i]``."""
    marbles = state.marbles
    moves: list[Move] = []
    book = state.rules.book
    if card in WALK_VALUES:
        steps = WALK_VALUES[card]
        if card == "5" and book.five is not Five.MOVER_ONLY:
            moves.extend(_any_five(state, colour, movers, walks))
        else:
            for marble, mask in zip(movers, reach):
                if mask >> steps & 1:
                    moves.append(Move(card, MoveKind.WALK, marble, steps))
        if card == "10" and book.ten is not Ten.WALK_ONLY and forced_burn_target(state, colour) is not None:
            moves.append(Move(card, MoveKind.FORCE_BURN))
    elif card == "A" or card == "K":
        if walks.out(state, movers.start >> 2) is not None:
            moves.append(Move(card, MoveKind.OUT))
        if card == "A":
            for marble, mask in zip(movers, reach):
                for steps in ACE_STEPS:
                    if mask >> steps & 1:
                        moves.append(Move(card, MoveKind.WALK, marble, steps))
        elif book.king is King.OUT_OR_SWEEP:
            for marble in movers:
                if _sweep(state, marble) is not None:
                    moves.append(Move(card, MoveKind.SWEEP, marble, SWEEP_STEPS))
    elif card == "4":
        for marble in movers:
            if walks.backward(state, marble, 4) is not None:
                moves.append(Move(card, MoveKind.WALK, marble, 4))
    elif card == "7":
        for marble, mask in zip(movers, reach):
            if mask >> SEVEN & 1:
                moves.append(Move(card, MoveKind.WALK, marble, SEVEN))
        moves.extend(_splits(state, colour, movers, reach, walks))
    elif card == "J":
        swappable = walks.swappable
        for marble in movers:
            if not 0 <= marbles[marble] < 76:
                continue
            own_colour = marble >> 2
            for other in range(16):
                if other >> 2 != own_colour and swappable(state, marble, other):
                    moves.append(Move(card, MoveKind.SWAP, marble, 0, other))
        if book.jack is Jack.OPPONENTS and state.rules.teams:
            team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
            moves = [move for move in moves if move.kind is not MoveKind.SWAP or move.second >> 2 not in team]
    return moves


def _any_five(state: GameState, colour: Colour, movers: range, walks: Movement) -> list[Move]:
    """The 5 on any marble: R34 (complex), KA10 (Karooty), ON8 (Online)."""
    five = state.rules.book.five
    if five is Five.ANY_MARBLE:
        return _complex_five(state, colour, movers)
    marbles = state.marbles
    board = state.board
    team = {COLOUR_INDEX[c] for c in state.rules.team_of(colour)}
    mover_index = movers.start >> 2
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
            moves.append(Move("5", MoveKind.WALK, marble, 5))
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
        if not _reach(state, marble, 5) >> 5 & 1:
            continue
        if owner not in team and _forward_path(state, marble, 5)[0][-1] > SAFE_OFFSET:
            continue  # never deliver an opponent's marble home
        moves.append(Move("5", MoveKind.WALK, marble, 5))
    return moves


def _splits(state: GameState, colour: Colour, movers: range, reach: list[int], walks: Movement) -> list[Move]:
    """R17: 7 = a + b over two different marbles, the second judged after the first (and R36)."""
    moves: list[Move] = []
    second_reach = walks.reach
    for first, mask in zip(movers, reach):
        for first_steps in range(1, SEVEN):
            if not mask >> first_steps & 1:
                continue
            start, undo = _place(state, first, *_forward_path(state, first, first_steps))
            second_steps = SEVEN - first_steps
            for second in colour_marbles(mover_colour(state, colour)):
                if second != first and second_reach(state, second, second_steps) >> second_steps & 1:
                    moves.append(Move("7", MoveKind.SPLIT, first, first_steps, second, second_steps))
            _unplace(state, first, start, undo)
    return moves


def legal_moves(state: GameState) -> list[Move]:
    """Every legal move of the player to act, each once (R28-R30, R39; KA4, ON3)."""
    if state.winner is not None:
        return []
    colour = state.turn
    hand = state.hands[colour]
    ranks = sorted(set(hand), key=RANK_ORDER.__getitem__)
    if state.forced_burn:
        return [Move(rank, MoveKind.BURN) for rank in ranks]
    walks = _MOVEMENTS.get(state.rules.book) or movement(state.rules.book)
    movers = colour_marbles(mover_colour(state, colour))
    longest = max((FORWARD_REACH.get(rank, 0) for rank in ranks), default=0)
    reach_of = walks.reach
    reach = [reach_of(state, marble, longest) if longest else 0 for marble in movers]
    moves: list[Move] = []
    for rank in ranks:
        moves.extend(_moves_for_card(state, colour, rank, movers, reach, walks))
    if moves:
        return moves
    burning = state.rules.book.burning
    if burning is Burning.ONE_CARD or (
        burning is Burning.BY_MARBLES and any(0 <= state.marbles[m] < 76 for m in movers)
    ):
        return [Move(rank, MoveKind.BURN) for rank in ranks]  # R29, KA4
    return [Move(NO_CARD, MoveKind.BURN_HAND)]  # R30, ON3


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
    if move.kind is MoveKind.TIME_OUT:
        return ": the turn timer's burn is the table's doing, never a move to choose (ON11)"
    hand = state.hands[state.turn]
    if move.kind is not MoveKind.BURN_HAND and move.card not in hand:
        return f": {state.turn} holds no {RANK_WORDS[move.card]}"
    if state.forced_burn:
        return ": a ten made them burn one card (R35)"
    burning = state.rules.book.burning
    if moves and moves[0].kind is MoveKind.BURN_HAND:
        if burning is Burning.WHOLE_HAND:
            return ": no card moves a marble, so the whole hand goes (ON3)"
        return ": no card moves a marble and none is on the track, so the whole hand goes (R30)"
    if move.kind in (MoveKind.BURN, MoveKind.BURN_HAND):
        if moves[0].kind is MoveKind.BURN:
            if burning is Burning.ONE_CARD:
                return ": under these rules one card of your choice is burned, never the hand (KA4)"
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
        ten = state.rules.book.ten
        if ten is not Ten.CHOSEN_BURN_LOSES_TURN:
            loses_turn = ten is Ten.RANDOM_BURN_LOSES_TURN
            events.append(RandomBurn(colour, target, _burn_at_random(state, target), loses_turn))
            _pass_turn(state, target if loses_turn else colour, events)  # KA11: play goes on after them
            return events
        events.append(BurnForced(colour, target))
        state.turn = target
        state.forced_burn = True
        events.append(TurnPassed(target, True))
        return events
    _pass_turn(state, colour, events)
    return events


def _burn_at_random(state: GameState, colour: Colour) -> Rank:
    """KA11, ON9, ON11: one card of ``colour``'s hand, drawn evenly by the table's seeded generator, is burned."""
    hand = state.hands[colour]
    card = hand.pop(state.rng.randrange(len(hand)))
    state.discard.append(card)
    return card


def time_out(state: GameState) -> list[Event]:
    """ON11: the player to act ran out of time; a random card of their hand is burned and the turn passes.

    Recorded in the history as ``time out``. The table calls this; it is never among the legal moves.
    """
    if state.winner is not None or not state.hands[state.turn]:
        raise IllegalMoveError("nobody is playing: the turn timer cannot run out now")
    colour = state.turn
    move = Move(NO_CARD, MoveKind.TIME_OUT)
    card = _burn_at_random(state, colour)
    state.last_card = LastCard(colour, card, move)
    state.history.append((colour, move))
    state.forced_burn = False
    events: list[Event] = [TimedOut(colour, card)]
    _pass_turn(state, colour, events)
    if validity.debug_checks:
        check_state(state)
    return events


def _carry_out(state: GameState, colour: Colour, move: Move, events: list[Event]) -> None:
    kind = move.kind
    if kind is MoveKind.OUT:
        colour_index = COLOUR_INDEX[mover_colour(state, colour)]
        book = state.rules.book
        found = (_MOVEMENTS.get(book) or movement(book)).out(state, colour_index)
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
        if _walk(
            state, colour, move.marble, move.steps, events,
            backward=move.backward, sweep=kind is MoveKind.SWEEP, five=move.card == "5",
        ):
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
    backward: bool = False, sweep: bool = False, five: bool = False,
) -> bool:
    """Carry out one marble's walk; True when it entered its safe zone."""
    walk: Walk | None
    book = state.rules.book
    walks = _MOVEMENTS.get(book) or movement(book)
    if sweep:
        walk = _sweep(state, marble)
    elif backward:
        walk = walks.backward(state, marble, steps)
    elif five and book.five is Five.ANY_PASSING_ALL:
        if COLOURS[marble >> 2] in state.rules.team_of(colour):
            walk = _forward_path(state, marble, steps) if walks.five_reach(state, marble, steps) >> steps & 1 else None
        else:  # KA10: a pushed opponent goes on past its own base
            walk = track_path(state, marble, steps) if walks.opponent_five_reach(state, marble, 5) >> 5 & 1 else None
    else:
        walk = _forward_path(state, marble, steps) if walks.reach(state, marble, steps) >> steps & 1 else None
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
    """R12: the next player in turn order (KA2) holding cards; a new deal when nobody does."""
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
