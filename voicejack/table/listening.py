"""The table's side of the listening modes (voicejack.speech.listening): the gate a player's settings ask for,
and what the players are told about it: the mode at the start, in "help", and the gate opening and closing."""

from __future__ import annotations

from collections.abc import Callable

from voicejack.language import CommandName
from voicejack.language.forms import COMMANDS
from voicejack.speech.listening import GateEvent, ListeningGate, ListenMode, WakeWord
from voicejack.speech.recogniser import StreamingRecogniser
from voicejack.table.messages import say
from voicejack.table.presenter import TICK_CUE, Presenter
from voicejack.table.settings import Settings

#: The cue that says "speak now" (after the key in push mode, after the wake word alone).
LISTENING_CUE = TICK_CUE


def resume_phrases() -> tuple[str, ...]:
    """What a paused microphone still listens for: the spoken forms of "start listening"."""
    return next(spoken for name, spoken, _ in COMMANDS if name is CommandName.START_LISTENING)


def listening_mode(settings: Settings) -> ListenMode:
    """The remembered mode; one the settings file does not name right falls back to open."""
    try:
        return ListenMode(settings.listen)
    except ValueError:
        return ListenMode.OPEN


def make_gate(settings: Settings, recogniser: StreamingRecogniser | None = None,
              presenter: Presenter | None = None) -> ListeningGate:
    """The gate for ``settings`` (WakeWordError when the recogniser cannot hear the wake word)."""
    knows = getattr(recogniser, "knows", None)
    gate = ListeningGate(listening_mode(settings), WakeWord.of(settings.wake_word, settings.wake_sensitivity),
                         resume_phrases(), knows=knows if callable(knows) else None)
    if presenter is not None:
        gate.on_event = announcer(presenter, gate)
    return gate


def announcer(presenter: Presenter, gate: ListeningGate) -> Callable[[GateEvent], None]:
    """What the players hear when the gate opens or closes (called on the listening thread).

    Opening cuts off what the game is saying (on speakers its voice mutes the microphone) and plays a
    tick, at once and beside the timeline, so it never mutes the microphone the player is about to speak
    into; without sound it is the word "Listening." Closing after an utterance needs nothing: the game's
    answer follows. Closing on silence is said.
    """
    wake = spoken_wake_word(gate)

    def tell(event: GateEvent) -> None:
        if event in (GateEvent.OPENED, GateEvent.WOKE):
            presenter.stop()  # the player wants to talk now: the game's voice would mute the microphone
            if presenter.audio is not None:
                presenter.cue(LISTENING_CUE)
            else:
                presenter.say(say("listen.ready"), remember=False)
        elif event is GateEvent.TIMED_OUT:
            presenter.say(say(f"listen.timed_out.{gate.mode.value}", wake=wake), remember=False)

    return tell


def spoken_wake_word(gate: ListeningGate) -> str:
    return gate.wake.word.capitalize()


def mode_intro(gate: ListeningGate | None, brief: bool = False) -> str:
    """Said at the start: which mode is on and how to change it (nothing without a microphone)."""
    if gate is None:
        return ""
    return say(f"listen.{gate.mode.value}" + (".brief" if brief else ""), wake=spoken_wake_word(gate))


def mode_help(gate: ListeningGate | None) -> str:
    """The line "help" adds about listening."""
    if gate is None:
        return ""
    return say(f"listen.help.{gate.mode.value}", wake=spoken_wake_word(gate))


def resume_hint(gate: ListeningGate) -> str:
    """How to bring a paused microphone back, in the words of the mode."""
    phrase = resume_phrases()[0]
    return f"{spoken_wake_word(gate)}, {phrase}" if gate.mode is ListenMode.WAKE else phrase


def still_there(gate: ListeningGate | None) -> str:
    """The warning before a silent seat goes to a bot, saying what the microphone would take as an answer now."""
    if gate is None:
        return say("still_there")
    if gate.paused:
        return say("still_there.paused", resume=resume_hint(gate))
    if gate.mode is ListenMode.OPEN:
        return say("still_there")
    return say(f"still_there.{gate.mode.value}", wake=spoken_wake_word(gate))
