"""The always-available commands: one handler for each CommandName.

A handler gets the match and what was said. ``colour`` is the seat whose
turn it is when the player spoke in turn, None when they spoke out of turn
(while a bot plays or the game is talking); ``pending`` is the question
that was open when it was said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from voicejack.engine import GameState
from voicejack.language import Ask, Choice, Command, Confirm, Conversation, Topic
from voicejack.language.resolution import CommandName
from voicejack.narration import Narrator
from voicejack.table.inputs import InputHub
from voicejack.table.listening import mode_help, resume_hint
from voicejack.table.messages import say
from voicejack.table.presenter import ERROR_CUE, Presenter
from voicejack.table.readout import Readout, Recent
from voicejack.table.settings import Settings

if TYPE_CHECKING:
    from voicejack.table.match import Match

C = CommandName


class Listening(Protocol):
    """What the commands that only tell or change how things sound need of a table: the local match,
    or one seat at a server table (voicejack.remote)."""

    presenter: Presenter
    narrator: Narrator
    settings: Settings
    readout: Readout
    recent: Recent | None
    told_readout_hint: bool
    inputs: InputHub

    @property
    def state(self) -> GameState: ...

    @property
    def listener(self) -> str | None: ...

    def apply_settings(self, settings: Settings) -> None: ...


@dataclass(frozen=True, slots=True)
class Said:
    command: Command
    colour: str | None
    conversation: Conversation
    pending: Ask | Confirm | None = None


Handler = Callable[["Match", Said], None]

#: Commands that change how the game sounds, or ask for the same again: they do not cut off what is being said.
KEEPS_TALKING = frozenset({C.REPEAT, C.SLOWER, C.FASTER, C.LOUDER, C.QUIETER, C.BRIEF, C.FULL})
#: Commands that keep what "say that again" repeats (they answer in passing, or repeat it).
KEEPS_LAST = KEEPS_TALKING | {C.STOP}


def dispatch(match: Match, said: Said) -> None:
    HANDLERS[said.command.name](match, said)


def _listener(match: Listening, said: Said) -> str | None:
    return said.colour or match.listener


def _board(match: Listening, said: Said) -> None:
    lines = match.narrator.board_lines(match.state, _listener(match, said))
    first = match.readout.start(lines, reread=lambda listener: match.narrator.board_lines(match.state, listener))
    hint = [] if match.told_readout_hint or len(match.readout.lines) < 2 else [say("readout.hint")]
    match.told_readout_hint = True
    match.presenter.say([first, *hint])


def _next(match: Listening, said: Said) -> None:
    _step(match, said, 1)


def _previous(match: Listening, said: Said) -> None:
    _step(match, said, -1)


def _step(match: Listening, said: Said, by: int) -> None:
    """Move through the readout, read from the board as it is now; "there is no line there" is not
    remembered, so "again" repeats the line the player is on."""
    text, onto_a_line = match.readout.step(by, _listener(match, said))
    match.presenter.say(text, remember=onto_a_line)


def _marbles(match: Listening, said: Said) -> None:
    colour = said.command.colour or _listener(match, said) or match.state.turn
    match.presenter.say(match.narrator.player_line(match.state, colour, _listener(match, said)))


def _hand(match: Listening, said: Said) -> None:
    match.presenter.say(match.narrator.hand(match.state, _listener(match, said)))


def _score(match: Listening, said: Said) -> None:
    match.presenter.say(match.narrator.score(match.state, _listener(match, said)))


def _last_card(match: Listening, said: Said) -> None:
    match.presenter.say(match.narrator.last_card(match.state, _listener(match, said), recent=match.recent))


def _turn(match: Listening, said: Said) -> None:
    match.presenter.say(match.narrator.turn_prompt(match.state, _listener(match, said)))


def _where(match: Listening, said: Said) -> None:
    if said.command.marble is None:
        _unavailable(match, said)
        return
    match.presenter.say(match.narrator.where_is(match.state, said.command.marble, _listener(match, said)))


def _options(match: Match, said: Said) -> None:
    """Read every legal move with a number; the next "three" (or "option three") picks the third."""
    if said.colour is None:
        match.refuse_out_of_turn()
        return
    options = match.narrator.describe_options(match.state, said.colour)
    choices = tuple(Choice(description, move, (move.phrase,)) for move, description in options)
    said.conversation.pending = Ask(say("options.question"), choices, topic=Topic.OPTION)
    lines = [say("options.question")] + [f"{n}: {d}" for n, (_, d) in enumerate(options, 1)]
    match.presenter.say(lines + [hint] if (hint := match.undo_hint()) else lines)


def _repeat(match: Listening, said: Said) -> None:
    match.presenter.repeat(say("nothing_to_repeat"))


def _help(match: Listening, said: Said) -> None:
    match.presenter.say([say("help", other=_another_colour(match.state, _listener(match, said))),
                         mode_help(match.inputs.gate)])


def _another_colour(state: GameState, listener: str | None) -> str:
    """The colour help names as an example of another player's marbles: one that plays at this table (R1)."""
    seats = state.rules.seats
    return seats[(seats.index(listener) + 1) % len(seats)] if listener in seats else seats[1]


def _stop_listening(match: Listening, said: Said) -> None:
    """The microphone is ignored (all but "start listening") until it is brought back; typing goes on."""
    gate = match.inputs.gate
    if gate is None:
        match.presenter.say(say("listen.no_microphone"), remember=False)
        return
    key = "listen.stopped" if gate.pause() else "listen.already_stopped"
    match.presenter.say(say(key, resume=resume_hint(gate)), remember=False)


def _start_listening(match: Listening, said: Said) -> None:
    gate = match.inputs.gate
    if gate is None:
        match.presenter.say(say("listen.no_microphone"), remember=False)
        return
    match.presenter.say(say("listen.started" if gate.resume() else "listen.already"), remember=False)


def _rules(match: Listening, said: Said) -> None:
    match.presenter.say(match.narrator.rules_lines(match.state))


def _stop(match: Listening, said: Said) -> None:
    match.presenter.stop()


def _adjust(match: Listening, said: Said) -> None:
    name = said.command.name
    settings = match.settings
    if name is C.SLOWER:
        settings = settings.slower()
    elif name is C.FASTER:
        settings = settings.faster()
    elif name is C.LOUDER:
        settings = settings.louder()
    elif name is C.QUIETER:
        settings = settings.quieter()
    else:
        settings = dataclasses.replace(settings, brief=name is C.BRIEF)
    match.apply_settings(settings)
    if name in (C.SLOWER, C.FASTER):
        match.presenter.say(say("rate", rate=settings.speech_rate), remember=False)
    elif name in (C.LOUDER, C.QUIETER):
        match.presenter.say(say("volume", percent=round(settings.speech_volume * 100)), remember=False)
    else:
        match.presenter.say(say(name.value), remember=False)


def _save(match: Match, said: Said) -> None:
    match.save(announce=True)


def _quit(match: Match, said: Said) -> None:
    match.save_and_end("quit")


def _leave(match: Match, said: Said) -> None:
    if said.colour is None:
        match.refuse_out_of_turn()
        return
    match.hand_to_bot(said.colour, "left")


def _undo(match: Match, said: Said) -> None:
    match.take_back()


def _cancel(match: Match, said: Said) -> None:
    """"cancel" and "no": the open question is dropped; with none open, one answer wherever it is said.
    "no" to "option two?" goes back to the options, and they are asked again."""
    returned_to = said.conversation.pending
    if said.colour is not None and isinstance(returned_to, Ask):
        match.presenter.say(returned_to.spoken())
    elif said.colour is not None and said.pending is not None:
        match.presenter.say(say("cancelled", prompt=match.narrator.turn_prompt(match.state, said.colour)))
    elif said.pending is not None:  # out of turn: "quit?" or a command heard unsure, answered no
        match.presenter.say(say("cancelled.out_of_turn"), remember=False)
    else:
        match.presenter.say(say("nothing_pending"), remember=False)


def _yes(match: Match, said: Said) -> None:
    if isinstance(said.pending, Ask):
        match.presenter.say(said.pending.spoken())  # "yes" does not answer a numbered question: ask it again
    else:
        match.presenter.say(say("nothing_pending"), remember=False)


def _unavailable(match: Listening, said: Said) -> None:
    match.presenter.cue(ERROR_CUE)
    match.presenter.say(say("nothing_pending"), remember=False)


#: The commands a seat at a server table answers the same way (the rest act on a table only the server holds).
SHARED: dict[CommandName, Callable[[Listening, Said], None]] = {
    C.BOARD: _board, C.NEXT: _next, C.PREVIOUS: _previous, C.MARBLES: _marbles,
    C.SCORE: _score, C.LAST_CARD: _last_card, C.TURN: _turn, C.WHERE: _where,
    C.REPEAT: _repeat, C.HELP: _help, C.RULES: _rules, C.STOP: _stop,
    C.SLOWER: _adjust, C.FASTER: _adjust, C.LOUDER: _adjust, C.QUIETER: _adjust, C.BRIEF: _adjust, C.FULL: _adjust,
    C.STOP_LISTENING: _stop_listening, C.START_LISTENING: _start_listening,
}

HANDLERS: dict[CommandName, Handler] = {
    C.BOARD: _board, C.NEXT: _next, C.PREVIOUS: _previous, C.MARBLES: _marbles,
    C.HAND: _hand, C.SCORE: _score, C.LAST_CARD: _last_card, C.TURN: _turn, C.WHERE: _where,
    C.OPTIONS: _options, C.REPEAT: _repeat, C.HELP: _help, C.RULES: _rules, C.STOP: _stop,
    C.SLOWER: _adjust, C.FASTER: _adjust, C.LOUDER: _adjust, C.QUIETER: _adjust, C.BRIEF: _adjust, C.FULL: _adjust,
    C.SAVE: _save, C.QUIT: _quit, C.LEAVE: _leave, C.UNDO: _undo,
    C.CANCEL: _cancel, C.NO: _cancel, C.YES: _yes,
    C.STOP_LISTENING: _stop_listening, C.START_LISTENING: _start_listening,
}
