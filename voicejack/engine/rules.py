"""Applying moves: the rulebook (shared/spec/rules.md, R12-R39; dealing, R9-R11, is dealing.py).

The hot paths work on the state's int lists directly; see board.py for the
encoding. ``legal_moves`` (generation.py) never returns an illegal move and
never misses a legal one (R39); ``apply_move`` mutates the state and
returns the events.
"""

from __future__ import annotations

from typing import Final

from voicejack.engine.board import AHEAD, BASE_BY_INDEX, COLOUR_INDEX, COLOURS, HOME, SAFE_OFFSET
from voicejack.engine.cards import RANK_WORDS
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
from voicejack.engine.rulesets import Burning, Five, Ten
from voicejack.engine.walking import _MOVEMENTS, Walk, _forward_path, _place, _sweep, movement, track_path
from voicejack.engine import validity
from voicejack.engine.dealing import deal
from voicejack.engine.state import GameState, LastCard, winner_from_marbles
from voicejack.engine.types import Colour, MarbleId, Rank
from voicejack.engine.validity import check_state
# Legal-move generation lives in generation.py; these names stay importable from here.
from voicejack.engine.generation import forced_burn_target as forced_burn_target
from voicejack.engine.generation import legal_moves as legal_moves
from voicejack.engine.generation import mover_colour as mover_colour


# --------------------------------------------------------------------------
# Finding a move by its phrase


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

# The move kinds as module constants for the hot path: on Python 3.11 each ``MoveKind.X`` is a descriptor
# lookup of about 0.14 us, and a move asked several of them.
_OUT: Final = MoveKind.OUT
_WALK: Final = MoveKind.WALK
_SWEEP: Final = MoveKind.SWEEP
_SPLIT: Final = MoveKind.SPLIT
_SWAP: Final = MoveKind.SWAP
_FORCE_BURN: Final = MoveKind.FORCE_BURN
_BURN: Final = MoveKind.BURN
_BURN_HAND: Final = MoveKind.BURN_HAND
_FIVE_PASSING_ALL: Final = Five.ANY_PASSING_ALL


def apply_move(state: GameState, move: Move) -> list[Event]:
    """Play ``move`` (which must be legal) on ``state`` in place; return what happened.

    With ``validity.debug_checks`` on, the state is checked after every move.
    """
    events = _apply(state, move, True)
    if validity.debug_checks:
        check_state(state)
    return events


def advance(state: GameState, move: Move) -> None:
    """``apply_move`` for whoever never reads the events (bots' previews, searches' rollouts): the same state
    afterwards, without building the events of the common moves, which are a tenth of a move's time."""
    _apply(state, move, False)
    if validity.debug_checks:
        check_state(state)


def _apply(state: GameState, move: Move, told: bool) -> list[Event]:
    """Carry out ``move``. Unless ``told``, the events of walks and played cards are left out (the rarer
    moves' events are still listed; the caller drops them)."""
    card, kind, marble, steps, second, second_steps = move
    colour = state.turn
    events: list[Event] = []
    hand = state.hands[colour]
    if kind is _BURN_HAND:
        burned = tuple(hand)
        state.discard.extend(hand)
        hand.clear()
        events.append(HandBurned(colour, burned))
        state.last_card = LastCard(colour, burned[-1], move)
    else:
        hand.remove(card)
        state.discard.append(card)
        state.last_card = LastCard(colour, card, move)
    state.history.append((colour, move))

    if kind is _BURN:
        events.append(CardBurned(colour, card, state.forced_burn))
        state.forced_burn = False
    elif kind is _WALK:
        if told:
            events.append(CardPlayed(colour, card, move, steps if card == "A" else None, False))
        if card == "4" or (card == "5" and state.rules.book.five is _FIVE_PASSING_ALL):
            entered = _walk(state, colour, marble, steps, events, backward=card == "4", five=card == "5")
        else:
            entered = _step_forward(state, colour, marble, steps, events, told)
        if entered:
            _check_finished(state, colour, marble, events)
    elif kind is not _BURN_HAND:
        events.append(CardPlayed(colour, card, move, None, kind is _FORCE_BURN))
        _carry_out(state, colour, move, events)

    if state.winner is not None:
        return events
    if kind is _FORCE_BURN:
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
    if kind is _OUT:
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
    elif kind is _SWEEP:
        if _walk(state, colour, move.marble, move.steps, events, sweep=True):
            _check_finished(state, colour, move.marble, events)
    elif kind is _SPLIT:
        if _walk(state, colour, move.marble, move.steps, events):
            _check_finished(state, colour, move.marble, events)
            if state.winner is not None:
                return
        if _walk(state, colour, move.second, move.second_steps, events):
            _check_finished(state, colour, move.second, events)
    elif kind is _SWAP:
        a, b = move.marble, move.second
        cell_a, cell_b = state.marbles[a], state.marbles[b]
        state.marbles[a], state.marbles[b] = cell_b, cell_a
        state.board[cell_a], state.board[cell_b] = b, a
        events.append(MarblesSwapped(a, b, cell_a, cell_b, colour))


def _step_forward(
    state: GameState, colour: Colour, marble: MarbleId, steps: int, events: list[Event], told: bool,
) -> bool:
    """The plain forward walk of one marble (every walk but the 4's, Karooty's 5 and the sweep), which sends
    home at most the marble it lands on (R26); True when it entered its safe zone. The common move, so it
    is ``_walk`` and ``_place`` written out for this one case. Its legality, which only a caller's mistake
    breaks, is asked again in debug mode only (the walk itself needs nothing of it)."""
    if validity.debug_checks:
        book = state.rules.book
        assert (_MOVEMENTS.get(book) or movement(book)).reach(state, marble, steps) >> steps & 1, "illegal walk"
    marbles = state.marbles
    board = state.board
    start = marbles[marble]
    path = AHEAD[marble >> 2][start][:steps]
    end = path[-1]
    if told:
        events.append(MarbleWalked(marble, start, path, False, colour, False))
    if end <= SAFE_OFFSET:
        landed_on = board[end]
        if landed_on >= 0:
            if told:
                events.append(MarbleCaptured(landed_on, end, marble, colour, "landed"))
            marbles[landed_on] = HOME
        board[end] = marble
    marbles[marble] = end
    if start <= SAFE_OFFSET:  # a walking marble is never at home, so this is a track cell
        board[start] = -1
        if end > SAFE_OFFSET:
            if told:
                events.append(EnteredSafeZone(marble, end - SAFE_OFFSET))
            return True
    return False


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
    elif walks.reach(state, marble, steps) >> steps & 1:
        walk = _forward_path(state, marble, steps)
    else:
        walk = None
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
    following = state.rules.following
    hands = state.hands
    seat = following[colour]
    if not hands[seat]:
        for _ in range(len(following) - 1):
            seat = following[seat]
            if hands[seat]:
                break
        else:
            deal(state, events)
            seat = following[state.dealer]
    state.turn = seat
    events.append(_TURN_PASSED[seat])


#: TurnPassed for each colour, made once: the event every move ends with (events are immutable values).
_TURN_PASSED: Final = {colour: TurnPassed(colour) for colour in COLOURS}
