"""What resolving an utterance gives back: exactly one of a few immutable values.

    Move            a legal move: play it now
    Confirm         a move (or a destructive command) to confirm: "..., yes or no?"
    Ask             a question whose answers are values (the card-first dialog)
    Command         an always-available command (board, repeat, where is red 1, ...)
    NotUnderstood   nothing to do, with a short spoken reason and a code

An ``Ask`` or ``Confirm`` is also the dialog state: pass it back as
``dialog`` with the next utterance so "three", "red one" or "yes" answer it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum

from voicejack.engine import Move, marble_name


class CommandName(StrEnum):
    """Every always-available command. A StrEnum, so its value is also the name printed by `voicejack hear`."""

    BOARD = "board"
    HAND = "hand"
    OPTIONS = "options"
    REPEAT = "repeat"
    HELP = "help"
    SCORE = "score"
    LAST_CARD = "last_card"
    TURN = "turn"
    WHERE = "where"
    CANCEL = "cancel"
    YES = "yes"
    NO = "no"
    STOP = "stop"
    SLOWER = "slower"
    FASTER = "faster"
    LOUDER = "louder"
    QUIETER = "quieter"
    BRIEF = "brief"
    FULL = "full"
    SAVE = "save"
    QUIT = "quit"
    LEAVE = "leave"
    MARBLES = "marbles"    # one player's line of the board readout ("blue's marbles")
    NEXT = "next"          # the next line of a readout being stepped through
    PREVIOUS = "previous"  # the line before it
    RULES = "rules"        # the table's rule set and what sets it apart (R3, variants.md)
    STOP_LISTENING = "stop_listening"    # the microphone is ignored until "start listening" (typing goes on)
    START_LISTENING = "start_listening"
    UNDO = "undo"          # take back the last move ("take that back"), right after it was played


#: Commands that, heard unsure, are asked about ("Did you say read the board? Yes or no.") rather than
#: carried out or refused: they read something out or change a setting. Answers, "cancel", "stop talking",
#: "repeat", stepping through a readout, "start listening" and "undo" (its moment is short) are left out:
#: asking about them would cost the player more than saying them again.
CONFIRMED_WHEN_UNSURE: frozenset[CommandName] = frozenset({
    CommandName.BOARD, CommandName.HAND, CommandName.OPTIONS, CommandName.HELP, CommandName.RULES,
    CommandName.SCORE, CommandName.LAST_CARD, CommandName.TURN, CommandName.WHERE, CommandName.MARBLES,
    CommandName.SLOWER, CommandName.FASTER, CommandName.LOUDER, CommandName.QUIETER, CommandName.BRIEF,
    CommandName.FULL, CommandName.SAVE, CommandName.STOP_LISTENING, CommandName.QUIT, CommandName.LEAVE,
})


#: Commands that only make the game read something out. Heard wrongly, one costs the player a moment of speech
#: they can stop, where a refusal costs them saying it again: a recogniser may carry these out on less
#: evidence than the others (Grammar.read_out).
ONLY_SPEAKS: frozenset[CommandName] = frozenset({
    CommandName.BOARD, CommandName.HAND, CommandName.OPTIONS, CommandName.REPEAT, CommandName.HELP,
    CommandName.RULES, CommandName.SCORE, CommandName.LAST_CARD, CommandName.TURN, CommandName.WHERE,
    CommandName.MARBLES, CommandName.NEXT, CommandName.PREVIOUS,
})


#: Answers listened for only while a question is open. With none open, a "yeah" or "no" at the table is
#: talk between the players, and leaving them out keeps short commands from being heard as them ("help"
#: said in noise was heard as "no" by every recogniser). Typed, they are still answered ("nothing to answer").
ANSWER_ONLY: frozenset[CommandName] = frozenset({CommandName.YES, CommandName.NO})

#: Steps through a list being read out, listened for only while one is open ("read the board" opens it, the
#: player's move closes it). With none open, "next" only says there is no list, and listening for it let a
#: bare "yes" said to the table be obeyed as it. Typed, they are still answered.
LIST_ONLY: frozenset[CommandName] = frozenset({CommandName.NEXT, CommandName.PREVIOUS})


@dataclass(frozen=True, slots=True)
class Command:
    """An always-available command; ``marble`` is the marble id "where is red one" asks about,
    ``colour`` the player "blue's marbles" asks about."""

    name: CommandName
    marble: int | None = None
    colour: str | None = None

    def __str__(self) -> str:
        if self.marble is not None:
            return f"{self.name.value} {marble_name(self.marble)}"
        return self.name.value if self.colour is None else f"{self.name.value} {self.colour}"


@dataclass(frozen=True, slots=True)
class Confirm:
    """Ask "``prompt``" and carry out ``move`` on "yes". ``move`` is a Move, or a Command for quit/leave.

    ``back`` is the question this confirmation came from ("option two?"): "no" returns to it.
    """

    move: Move | Command
    prompt: str
    back: Ask | None = None

    @property
    def phrase(self) -> str:
        return self.move.phrase if isinstance(self.move, Move) else str(self.move)


class Topic(StrEnum):
    """What a question asks (its value is the name the case tables print)."""

    CARD = "card"        # which card
    WHAT = "what"        # what the card should do (out, walk 1 or 11, sweep, force a burn)
    MARBLE = "marble"    # which marble
    STEPS = "steps"      # how many steps of the 7 for the first marble
    SECOND = "second"    # which marble second (the rest of the 7, the jack's partner)
    OPTION = "option"    # the numbered list of every option ("options")
    MEANING = "meaning"  # one utterance had two readings: which was meant


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer of a question: what it is called, where it leads, and how a player may say it.

    ``detail`` is spoken after the label: where the marble stands and where
    it would land (the narration package's wording).
    """

    label: str
    then: Move | Ask
    answers: tuple[str, ...] = ()  # spoken forms that pick this choice, besides "option <number>"
    detail: str = ""

    def spoken(self) -> str:
        label = self.label[:1].upper() + self.label[1:]
        if not self.detail:
            return label if label.endswith((".", "?", "!")) else f"{label}."
        spoken = self.detail if self.label.lower() in self.detail.lower() else f"{label}: {self.detail}"
        return spoken if spoken.endswith((".", "?", "!")) else f"{spoken}."


@dataclass(frozen=True, slots=True)
class Ask:
    """A question, one at a time; choice k (1-based) is ``choices[k - 1]``.

    The answers are the choices' own words (the values: "out", "one step",
    "red one"). In a ``numbered`` question "option three", "third" and a bare
    "three" also name choice 3; a bare number that could be both a value and
    a choice number is asked about, never guessed (see resolver.py).
    """

    question: str
    choices: tuple[Choice, ...]
    topic: Topic = Topic.MARBLE
    numbered: bool = True

    def moves(self) -> frozenset[Move]:
        """Every move still reachable from this question."""
        found: set[Move] = set()
        for choice in self.choices:
            if isinstance(choice.then, Move):
                found.add(choice.then)
            else:
                found |= choice.then.moves()
        return frozenset(found)

    def spoken(self) -> str:
        """The question and its choices, for speech: the values and what each would do, no numbers.

        A question about which of two readings was meant names its choices
        itself; the list of every option is read with its numbers, which are its answers.
        """
        if self.topic is Topic.MEANING:
            return self.question
        if self.topic is Topic.OPTION:
            return " ".join([self.question, *(f"{n}: {c.spoken()}" for n, c in enumerate(self.choices, 1))])
        return " ".join([self.question, *(choice.spoken() for choice in self.choices)])


class NotUnderstoodCode(StrEnum):
    """Why nothing happened. The first seven are clear refusals (the error cue); the rest were not caught."""

    NOT_YOUR_TURN = "not_your_turn"
    NO_CARD = "no_card"
    ILLEGAL = "illegal"
    MUST_BURN = "must_burn"
    FORCED_BURN = "forced_burn"
    OVER = "over"
    NO_OPTION = "no_option"
    UNCLEAR = "unclear"    # heard with too little confidence
    EMPTY = "empty"        # nothing, or only fillers ("um")
    UNKNOWN = "unknown"    # words that are nothing of the language


_Code = NotUnderstoodCode
REFUSALS = frozenset({_Code.NOT_YOUR_TURN, _Code.NO_CARD, _Code.ILLEGAL, _Code.MUST_BURN, _Code.FORCED_BURN,
                      _Code.OVER, _Code.NO_OPTION})


@dataclass(frozen=True, slots=True)
class NotUnderstood:
    """Nothing happens: a short spoken ``reason``, and a ``code`` that lets the caller pick a cue."""

    reason: str
    code: NotUnderstoodCode = NotUnderstoodCode.UNKNOWN

    @property
    def refused(self) -> bool:
        """True for a clear refusal (the error cue), False when we simply did not catch it."""
        return self.code in REFUSALS


Resolution = Move | Confirm | Ask | Command | NotUnderstood
Dialog = Ask | Confirm | None


class ConfirmPolicy(Enum):
    AUTO = "auto"      # confirm when the match was not exact or confidence was low
    ALWAYS = "always"  # confirm every move
    NEVER = "never"    # play clear matches at once (still never an illegal move or a guess)


@dataclass(frozen=True, slots=True)
class LanguageSettings:
    """How careful the resolver is.

    ``confirm_own_captures``: confirm a move that sends home the player's
    own or partner's marble, whatever ``confirm`` says.
    """

    confirm: ConfirmPolicy = ConfirmPolicy.AUTO
    confirm_own_captures: bool = True
    low_confidence: float = 0.6     # a meaning word below this: confirm (AUTO)
    reject_confidence: float = 0.3  # meaning words averaging below this: "not sure what I heard"
    alternative_penalty: float = 1.0  # cost added per rank of an n-best alternative
    # A command whose n-best alternative names something else exactly is not obeyed ("didn't catch that"):
    # chatter forced onto a command mostly comes back with a near tie (benchmarks/asr.py).
    refuse_doubted_commands: bool = True
    destructive_commands: frozenset[CommandName] = field(
        default_factory=lambda: frozenset({CommandName.QUIT, CommandName.LEAVE}))
    brief: bool = True  # the wording of confirmations and question details: brief, or full sentences


def summary(result: Resolution) -> str:
    """One line saying what the game would do (the `voicejack hear` output)."""
    if isinstance(result, Move):
        return f"move: {result.phrase}"
    if isinstance(result, Confirm):
        return f"confirm: {result.phrase}"
    if isinstance(result, Ask):
        return f"ask: {result.question}"
    if isinstance(result, Command):
        return f"command: {result}"
    return f"not understood: {result.reason}"
