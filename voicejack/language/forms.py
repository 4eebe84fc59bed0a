"""The sentences of the language for one position, seat and pending question.

Each sentence ("form") is written once, with the target it means: a set
of still-possible moves, a command, or an option of the pending question.
Its key is ``key_of(form)``, the same normalisation applied to what was
heard, so the recogniser's grammar (the spoken forms) and the matcher can
never disagree. Some forms are for matching only (not ``spoken``) to keep
the recogniser's grammar small.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    colour_marbles,
    is_home,
    is_track,
    marble_colour,
    marble_words,
    mover_colour,
)
from voicejack.engine.board import COLOURS
from voicejack.engine.cards import ACE_STEPS, FOUR_STEPS_BACK, RANK_WORDS, SEVEN, SWEEP_STEPS, WALK_VALUES
from voicejack.language.dialog import marble_forms
from voicejack.language.normalise import Key, key_of
from voicejack.language.resolution import ANSWER_ONLY, Ask, Command, CommandName, Topic
from voicejack.language.words import NUMBER_VALUES, ORDINAL_WORDS, number_word

# Tiers settle an exact tie: an answer to the pending question beats a command beats a move.
TIER_ANSWER = 0
TIER_COMMAND = 1
TIER_MOVE = 2


@dataclass(frozen=True, slots=True)
class MovesTarget:
    """Everything the words left open; one move means the words said it all."""

    moves: frozenset[Move]


@dataclass(frozen=True, slots=True)
class Pick:
    """Option ``index`` (0-based) of the pending question."""

    index: int


Target = MovesTarget | Command | Pick


@dataclass(frozen=True, slots=True)
class Entry:
    form: str
    key: Key
    target: Target
    tier: int
    spoken: bool
    vague: bool = False  # names too little to play without confirming (a marble alone)
    card_alone: bool = False  # a card named alone ("play eight"): one word to mishear, so confirmed when spoken
    option_reading: bool = False  # a bare number read as the number of a choice


#: (command, spoken forms, typed-only forms). One-word forms that sound like a card, a number or an
#: answer ("full" heard for "four", "score" for "four", "back" for "jack"), or that change a setting or
#: the match, are typed only: by voice these commands take their longer forms. "where" and "marbles"
#: are built per marble and colour below.
COMMANDS: tuple[tuple[CommandName, tuple[str, ...], tuple[str, ...]], ...] = (
    (CommandName.BOARD, ("read the board", "read board", "the board"), ("board",)),
    (CommandName.HAND, ("my cards", "my hand", "read my cards"), ("cards", "hand")),
    (CommandName.OPTIONS, ("options", "my options", "what can i say"), ("moves",)),
    (CommandName.REPEAT, ("repeat", "say again", "say that again"), ("again",)),
    (CommandName.HELP, ("help",), ()),
    (CommandName.RULES, ("what are the rules", "the rules", "tell me the rules"), ("rules",)),
    (CommandName.SCORE, ("the score", "what is the score"), ("score",)),
    (CommandName.LAST_CARD, ("last card", "the last card"), ()),
    (CommandName.TURN, ("whose turn", "whose turn is it"), ()),
    (CommandName.CANCEL, ("cancel", "never mind"), ()),
    (CommandName.YES, ("yes", "yeah", "yep", "correct", "confirm"), ()),
    (CommandName.NO, ("no", "nope"), ()),
    (CommandName.STOP, ("stop talking",), ("stop", "silence")),
    (CommandName.STOP_LISTENING, ("stop listening",), ()),
    (CommandName.START_LISTENING, ("start listening",), ()),
    (CommandName.SLOWER, ("slow down", "speak slower"), ("slower",)),
    (CommandName.FASTER, ("speed up", "speak faster"), ("faster",)),
    (CommandName.LOUDER, ("volume up", "speak louder"), ("louder",)),
    (CommandName.QUIETER, ("volume down", "speak softer"), ("quieter", "softer")),
    (CommandName.BRIEF, ("less detail", "brief detail"), ("brief",)),
    (CommandName.FULL, ("more detail", "full detail"), ("full",)),
    (CommandName.SAVE, ("save game", "save the game"), ("save",)),
    (CommandName.QUIT, ("quit game", "quit the game"), ("quit",)),
    (CommandName.LEAVE, ("leave the table", "leave table"), ("leave",)),
    (CommandName.NEXT, ("next", "next line"), ()),
    (CommandName.PREVIOUS, ("previous", "previous line"), ("back",)),
    # "that", "it", "my" and "move" are fillers: "undo that" is "undo", "take it back" is "take back". A bare
    # "undo" (or "undo that") sounds like "two" and "and two": listened for, it was heard for them in a fifth of
    # espeak-ng's clips, so by voice it takes a longer form (none of which "two" ever became).
    (CommandName.UNDO, ("take that back", "take it back", "undo my move", "take back my move"),
     ("undo", "undo that", "take back", "undo the last move", "take back the last move")),
)
COMMAND_NAMES: tuple[CommandName, ...] = tuple(name for name, _, _ in COMMANDS) + (CommandName.WHERE,
                                                                                    CommandName.MARBLES)
#: The spoken forms of the answers listened for only while a question is open ("yes", "yeah", ... "nope").
ANSWER_FORMS: frozenset[str] = frozenset(form for name, spoken, _ in COMMANDS if name in ANSWER_ONLY for form in spoken)


def command_entries(state: GameState, seat: str) -> Iterator[Entry]:
    for name, spoken, typed in COMMANDS:
        for form in spoken:
            yield Entry(form, key_of(form), Command(name), TIER_COMMAND, True)
        for form in typed:
            yield Entry(form, key_of(form), Command(name), TIER_COMMAND, False)
    own = seat if seat in state.rules.seats else ""
    for colour in state.rules.seats:
        start = COLOURS.index(colour) * 4
        for marble in range(start, start + 4):
            target = Command(CommandName.WHERE, marble)
            names = marble_forms(marble, own)
            for index, spelled in enumerate(names):
                # "where is number one" is clumsy speech: keep it for matching only.
                yield Entry(f"where is {spelled}", key_of(f"where is {spelled}"), target, TIER_COMMAND, index < 2)
    yield from _marbles_entries(state, own)


def _marbles_entries(state: GameState, own: str) -> Iterator[Entry]:
    """One player's line of the board readout: "blue's marbles", "read blue", "my marbles", "my partner's marbles"."""
    for colour in state.rules.seats:
        target = Command(CommandName.MARBLES, colour=colour)
        # The recogniser's dictionary has no "red's" or "yellow's": "red marbles" is the spoken form for every colour.
        for form, spoken in ((f"{colour} marbles", True), (f"where are the {colour} marbles", True),
                             (f"read {colour}", True), (f"{colour}'s marbles", False),
                             (f"where are {colour}'s marbles", False)):
            yield Entry(form, key_of(form), target, TIER_COMMAND, spoken)
    if own:
        yield Entry("my marbles", key_of("my marbles"), Command(CommandName.MARBLES, colour=own), TIER_COMMAND, True)
        partner = state.rules.partner(own)
        if partner is not None:
            target = Command(CommandName.MARBLES, colour=partner)
            # Spoken words are letters only, so the recogniser listens for "my partner marbles".
            for form, spoken in (("my partner marbles", True), ("my partner's marbles", False)):
                yield Entry(form, key_of(form), target, TIER_COMMAND, spoken)


def move_entries(state: GameState, seat: str, moves: list[Move]) -> Iterator[Entry]:
    """Full-move forms and the card-first partial forms for the player to act."""
    own = mover_colour(state, seat)
    by_card: dict[str, list[Move]] = {}
    for move in moves:
        by_card.setdefault(move.card, []).append(move)
    burning = bool(moves) and all(m.kind in (MoveKind.BURN, MoveKind.BURN_HAND) for m in moves)

    for move in moves:
        target = MovesTarget(frozenset((move,)))
        for form, spoken in _full_forms(move, own):
            yield Entry(form, key_of(form), target, TIER_MOVE, spoken)

    partials: dict[str, tuple[set[Move], bool]] = {}
    vague: set[str] = set()
    card_alone: set[str] = set()

    def add(form: str, move: Move, spoken: bool) -> None:
        found, was_spoken = partials.get(form, (set(), False))
        found.add(move)
        partials[form] = (found, was_spoken or spoken)

    if burning:
        for move in moves:
            add("burn", move, True)
    else:
        for card, card_moves in by_card.items():
            word = RANK_WORDS[card]
            for move in card_moves:
                for form in (word, f"play {word}", f"play the {word}"):
                    add(form, move, True)
                    card_alone.add(form)
                for form, spoken in _partial_forms(move, own):
                    add(form, move, spoken)
        for move in moves:
            if move.kind is MoveKind.OUT:
                add("out", move, True)
                add("bring out", move, True)
            elif move.kind not in (MoveKind.FORCE_BURN,):
                # A marble named alone: the dialog asks which card.
                for index, name in enumerate(marble_forms(move.marble, own)):
                    add(name, move, index < 2)
                    vague.add(name)
    for form, (found, spoken) in partials.items():
        yield Entry(form, key_of(form), MovesTarget(frozenset(found)), TIER_MOVE, spoken, form in vague,
                    card_alone=form in card_alone)


def _full_forms(move: Move, own: str) -> Iterator[tuple[str, bool]]:
    """(form, spoken) pairs meaning exactly this move; the canonical phrase first."""
    card = RANK_WORDS.get(move.card, "")  # burn hand names no card
    kind = move.kind
    yield move.phrase, True
    if kind is MoveKind.OUT:
        yield f"{card} out", True
        yield f"play the {card} out", True
    elif kind is MoveKind.WALK and move.card == "A":
        steps = number_word(move.steps)
        tail = "one step" if move.steps == 1 else f"{steps} steps"
        for index, name in enumerate(marble_forms(move.marble, own)):
            yield f"ace {name} {steps}", index < 2
            yield f"play the ace on {name} {tail}", index == 0
            if index:
                yield f"play ace {name} {steps}", index == 1
    elif kind in (MoveKind.WALK, MoveKind.SWEEP):
        for index, name in enumerate(marble_forms(move.marble, own)):
            yield f"{card} {name}", index < 2
            yield f"play the {card} on {name}", index == 0
            if index:
                yield f"play {card} {name}", True
        if kind is MoveKind.SWEEP:
            yield f"sweep {marble_words(move.marble)}", True
            yield f"play king sweep {marble_words(move.marble)}", False
    elif kind is MoveKind.SPLIT:
        first = marble_forms(move.marble, own)
        second = marble_forms(move.second, own)
        a, b = number_word(move.steps), number_word(move.second_steps)
        yield f"play seven {first[0]} {a} and {second[0]} {b}", True
        yield f"seven {first[0]} {a} and {second[0]} {b}", True
        yield f"play seven {first[0]} {a} steps and {second[0]} {b} steps", False
        if len(first) > 1 and len(second) > 1:
            yield f"play seven {first[1]} {a} and {second[1]} {b}", True
            yield f"play seven {first[2]} {a} and {second[2]} {b}", False
    elif kind is MoveKind.SWAP:
        mine = marble_forms(move.marble, own)
        other = marble_words(move.second)
        yield f"play jack {mine[0]} with {other}", True
        yield f"jack {mine[0]} {other}", True
        yield f"swap {mine[0]} with {other}", True
        if len(mine) > 1:
            yield f"swap {mine[1]} with {other}", True
            yield f"play jack {mine[1]} with {other}", False
    elif kind is MoveKind.FORCE_BURN:
        yield "ten burn", True
        yield "play the ten burn", False
        yield "play ten force burn", False
    elif kind is MoveKind.BURN:
        yield f"burn the {card}", True
    elif kind is MoveKind.BURN_HAND:
        yield "burn my hand", True
        yield "burn the whole hand", False


def refused_forms(state: GameState, seat: str, moves: list[Move]) -> Iterator[str]:
    """Canonical phrases of whole moves the hand's cards name that are not legal now, for the spoken grammar.

    A recogniser returns only sentences of its grammar: were these missing, a clearly said illegal move
    ("play seven red two seven", red 1 in the way) would come back as the nearest legal one, to be confirmed
    or even played, instead of being refused with the engine's reason (refusals.refusal). Only the mover's own
    marbles out of home (one at home named with a walking card competed with its neighbours' numbers, "red
    three" heard for "red four", and cost moves heard right) and, for the jack, marbles on the track; matching
    never uses these forms.
    """
    legal = set(moves)
    own = mover_colour(state, seat)
    mine = [marble for marble in colour_marbles(own) if not is_home(state.marbles[marble])]
    others = [marble for colour in state.rules.seats if colour != own for marble in colour_marbles(colour)
              if is_track(state.marbles[marble])]
    for card in sorted(set(state.hands[seat])):
        named: list[Move] = []
        if card in ("A", "K"):
            named.append(Move(card, MoveKind.OUT))
        for marble in mine:
            if card == "A":
                named.extend(Move(card, MoveKind.WALK, marble, steps) for steps in ACE_STEPS)
            elif card == "K":
                named.append(Move(card, MoveKind.SWEEP, marble, SWEEP_STEPS))
            elif card == "4":
                named.append(Move(card, MoveKind.WALK, marble, FOUR_STEPS_BACK))
            elif card == "7":
                named.append(Move(card, MoveKind.WALK, marble, SEVEN))
            elif card == "J":
                named.extend(Move(card, MoveKind.SWAP, marble, 0, other) for other in others
                             if marble_colour(other) != own)
            elif card in WALK_VALUES:
                named.append(Move(card, MoveKind.WALK, marble, WALK_VALUES[card]))
        for move in named:
            if move in legal:
                continue
            yield move.phrase
            if card == "7":
                yield f"{move.phrase} seven"  # "play seven red two seven": the whole 7, as the partial forms say it


def _partial_forms(move: Move, own: str) -> Iterator[tuple[str, bool]]:
    """Forms naming part of a move (the dialog asks the rest)."""
    kind = move.kind
    if kind is MoveKind.WALK and move.card == "A":
        for index, name in enumerate(marble_forms(move.marble, own)):
            yield f"ace {name}", index < 2
            yield f"play ace {name}", index == 0
        yield f"ace {number_word(move.steps)}", True
    elif move.card == "7" and kind in (MoveKind.WALK, MoveKind.SPLIT):
        # "seven red one" is the whole 7 on red one (its canonical phrase), so the partial forms name the steps too.
        for index, name in enumerate(marble_forms(move.marble, own)):
            yield f"seven {name} {number_word(move.steps)}", index < 2
            yield f"play seven {name} {number_word(move.steps)}", index == 0
        if kind is MoveKind.SPLIT:
            first = marble_forms(move.marble, own)[0]
            second = marble_words(move.second)
            yield f"seven {first} {number_word(move.steps)} {second}", False
    elif kind is MoveKind.SWAP:
        for index, name in enumerate(marble_forms(move.marble, own)):
            yield f"jack {name}", index < 2
            yield f"swap {name}", index < 2
        other = marble_words(move.second)
        yield f"swap with {other}", True
        yield f"jack {other}", False
    elif kind is MoveKind.SWEEP:
        yield "sweep", True


def numbers_are_values(dialog: Ask) -> bool:
    """Are some of the question's answers bare numbers ("two" the card, "five" steps, "eleven" for the ace, "one" for red 1)?"""
    return any(
        len(key) == 1 and key[0] in NUMBER_VALUES
        for choice in dialog.choices for key in map(key_of, choice.answers)
    )


def answer_entries(dialog: Ask) -> Iterator[Entry]:
    """The pending question's answers: its choices' own values and, when it is numbered, its numbers.

    A bare "three" in a numbered question is an ``option_reading``: the
    resolver plays nothing from it alone, since it may just as well be a
    value. Where the values are numbers it is not listened for at all.
    """
    bare_numbers_spoken = not numbers_are_values(dialog)
    for index, choice in enumerate(dialog.choices):
        pick = Pick(index)
        for form in choice.answers:
            yield Entry(form, key_of(form), pick, TIER_ANSWER, True)
        if not dialog.numbered:
            continue
        number = number_word(index + 1) if index + 1 <= 20 else str(index + 1)
        yield Entry(f"option {number}", key_of(f"option {number}"), pick, TIER_ANSWER, True)
        yield Entry(number, key_of(number), pick, TIER_ANSWER, bare_numbers_spoken, option_reading=True)
        if dialog.topic not in (Topic.MARBLE, Topic.SECOND):
            # "number three" for option three where no marble is asked for
            yield Entry(f"number {number}", key_of(f"number {number}"), pick, TIER_ANSWER, False, option_reading=True)
        if index + 1 < len(ORDINAL_WORDS):
            ordinal = ORDINAL_WORDS[index + 1]
            yield Entry(ordinal, key_of(ordinal), pick, TIER_ANSWER, True)
            yield Entry(f"the {ordinal} one", key_of(f"the {ordinal} one"), pick, TIER_ANSWER, False)
