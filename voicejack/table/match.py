"""The match loop: whose turn, which kind of seat, prompts, the dialog, saving, bots taking seats."""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from voicejack.bots import Bot, make_bot
from voicejack.engine import GameState, Move, MoveKind, apply_move, legal_moves
from voicejack.engine.state import Seat
from voicejack.language import (
    Ask,
    Choice,
    Command,
    Confirm,
    ConfirmPolicy,
    Conversation,
    Heard,
    LanguageSettings,
    NotUnderstood,
    Resolver,
    Topic,
)
from voicejack.narration import Narrator, Verbosity
from voicejack.table.inputs import EndOfInput, InputHub
from voicejack.table.messages import say
from voicejack.table.presenter import Presenter
from voicejack.table.settings import Settings
from voicejack.tablefile import save_table

ERROR_CUE = "turned-back"
TURN_CUE = "your-turn"


class MatchEnded(Exception):
    """The players quit or input ended: the match is saved, not won."""


@dataclass
class Outcome:
    winner: tuple[str, ...] | None
    saved_to: Path | None
    turns: int


@dataclass
class MatchConfig:
    save_path: Path                       # "save" and "quit" write here, and so does the autosave
    settings: Settings = field(default_factory=Settings)
    on_settings: Callable[[Settings], None] | None = None  # remember settings between runs


class Match:
    def __init__(self, state: GameState, presenter: Presenter, inputs: InputHub, config: MatchConfig) -> None:
        self.state = state
        self.presenter = presenter
        self.inputs = inputs
        self.config = config
        self.settings = config.settings
        self.narrator = Narrator(Verbosity.BRIEF if self.settings.brief else Verbosity.FULL)
        self.bots: dict[str, str] = {seat.colour: seat.kind for seat in state.seats if seat.kind != "human"}
        self.turns = 0

    # ------------------------------------------------------------------
    # Who hears what

    @property
    def humans(self) -> list[str]:
        return [seat.colour for seat in self.state.seats if seat.colour not in self.bots]

    @property
    def listener(self) -> str | None:
        """'You' in narration: the one human at the table; with several (or none), everybody is named."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def _bot(self, colour: str) -> Bot:
        """The seat's bot, seeded from what the table has seen, so a resumed match continues exactly as it would have."""
        seen = f"{colour}:{len(self.state.history)}:{','.join(self.state.discard)}"
        return make_bot(self.bots[colour], seed=zlib.crc32(seen.encode()))

    def _resolver(self) -> Resolver:
        return Resolver(LanguageSettings(confirm=ConfirmPolicy(self.settings.confirm), brief=self.settings.brief))

    # ------------------------------------------------------------------
    # The loop

    def run(self, announce_start: bool = True) -> Outcome:
        state = self.state
        if self.presenter.audio is not None:
            self.presenter.audio.set_table(self.listener or (self.humans[0] if self.humans else None), state.rules)
        if announce_start:
            self.presenter.say(self.narrator.match_start(state, self.listener))
        try:
            while state.winner is None:
                self._one_turn()
                self.turns += 1
                self._autosave()
        except MatchEnded:
            return Outcome(None, self.config.save_path, self.turns)
        self.presenter.cue("win")
        return Outcome(state.winner, self.config.save_path, self.turns)

    def _one_turn(self) -> None:
        state = self.state
        colour = state.turn
        moves = legal_moves(state)
        if colour in self.bots:
            self._answer_waiting()
            move = self._bot(colour).choose(state, moves)
        elif len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND:
            move = moves[0]  # R30: nothing to decide, the whole hand goes at once
        else:
            found = self._human_turn(colour)
            if found is None:
                return  # the seat was handed to a bot; it plays on the next pass
            move = found
        self._play(move)
        if colour in self.bots:
            self.presenter.settle()

    def _play(self, move: Move) -> None:
        before = self.state.copy()
        events = apply_move(self.state, move)
        self.presenter.events(events, before, self.listener)
        self.presenter.say(self.narrator.outcome(before, events, self.state, self.listener), seat=before.turn,
                           remember=False)

    # ------------------------------------------------------------------
    # A human's turn

    def _human_turn(self, colour: str) -> Move | None:
        conversation = Conversation(colour, self._resolver())
        self.presenter.cue(TURN_CUE)
        prompt = [self.narrator.turn_prompt(self.state, colour)]
        if len(self.humans) > 1:  # several people share the device: say whose turn it is by name
            prompt.insert(0, say("over_to", name=self.state.seat(colour).name))
        self.presenter.say(prompt)
        timeout = self.settings.silence_timeout or None
        while True:
            heard = self.inputs.listen(conversation.grammar(self.state), timeout)
            if heard is None:
                self._hand_to_bot(colour, "silent")
                return None
            if isinstance(heard, EndOfInput):
                return self._save_and_end("stopped")
            move = self._respond(conversation, colour, heard)
            if move is not None:
                return move
            if colour in self.bots:
                return None  # the player left

    def _respond(self, conversation: Conversation, colour: str, heard: Heard) -> Move | None:
        """Act on one utterance during ``colour``'s turn; return the move to play, if any."""
        if heard.text.strip():
            self.presenter.stop()  # a new command cuts off whatever the game was still saying
        pending = conversation.pending
        result = conversation.hear(self.state, heard)
        if isinstance(result, Move):
            return result
        if isinstance(result, Confirm):
            self.presenter.say(result.prompt)
            return None
        if isinstance(result, Ask):
            self.presenter.say(result.spoken())
            return None
        if isinstance(result, NotUnderstood):
            if result.refused:
                self.presenter.cue(ERROR_CUE)
            self.presenter.say(result.reason, remember=False)
            return None
        return self._command(result, colour, conversation, pending)

    def _answer_waiting(self) -> None:
        """Between bot turns, answer what a person said meanwhile: commands work, moves are refused."""
        for heard in self.inputs.waiting():
            conversation = Conversation(self.humans[0] if self.humans else self.state.seats[0].colour, self._resolver())
            result = conversation.hear(self.state, heard)
            if isinstance(result, Command) and result.name not in ("yes", "no", "cancel", "leave"):
                self._command(result, None, conversation)
            else:
                self.presenter.cue(ERROR_CUE)
                player = self.narrator.name(self.state, self.state.turn)
                self.presenter.say(say("not_your_turn", player=_possessive(player)), remember=False)

    # ------------------------------------------------------------------
    # Commands

    def _command(self, command: Command, colour: str | None, conversation: Conversation,
                 pending: Ask | Confirm | None = None) -> Move | None:
        """Carry out an always-available command; ``pending`` is the question open when it was said."""
        state = self.state
        listener = colour or self.listener
        name = command.name
        presenter = self.presenter
        if name == "board":
            presenter.say(self.narrator.board(state, listener))
        elif name == "hand":
            presenter.say(self.narrator.hand(state, listener))
        elif name == "score":
            presenter.say(self.narrator.score(state, listener))
        elif name == "last_card":
            presenter.say(self.narrator.last_card(state, listener))
        elif name == "turn":
            presenter.say(self.narrator.turn_prompt(state, listener))
        elif name == "where" and command.marble is not None:
            presenter.say(self.narrator.where_is(state, command.marble, listener))
        elif name == "options" and colour is not None:
            self._read_options(colour, conversation)
        elif name == "repeat":
            presenter.repeat()
        elif name == "help":
            presenter.say(say("help"))
        elif name == "stop":
            presenter.stop()
        elif name in ("slower", "faster", "louder", "quieter", "brief", "full"):
            self._adjust(name)
        elif name == "save":
            self._save(announce=True)
        elif name == "quit":
            self._save_and_end("quit")
        elif name == "leave" and colour is not None:
            self._hand_to_bot(colour, "left")
        elif name in ("cancel", "no") and colour is not None and pending is not None:
            presenter.say(say("cancelled", prompt=self.narrator.turn_prompt(state, colour)))
        elif name == "yes" and isinstance(pending, Ask):
            presenter.say(pending.spoken())  # "yes" does not answer a numbered question: ask it again
        elif name in ("yes", "no", "cancel"):
            presenter.say(say("nothing_pending"), remember=False)
        else:
            presenter.cue(ERROR_CUE)
            presenter.say(say("nothing_pending"), remember=False)
        return None

    def _read_options(self, colour: str, conversation: Conversation) -> None:
        """Read every legal move with a number; the next "three" (or "option three") picks the third."""
        options = self.narrator.describe_options(self.state, colour)
        choices = tuple(Choice(description, move, (move.phrase,)) for move, description in options)
        question = Ask(say("options.question"), choices, topic=Topic.OPTION)
        conversation.pending = question
        self.presenter.say([say("options.question")] + [f"{n}: {d}" for n, (_, d) in enumerate(options, 1)])

    def _adjust(self, name: str) -> None:
        settings = self.settings
        if name == "slower":
            settings = settings.slower()
        elif name == "faster":
            settings = settings.faster()
        elif name == "louder":
            settings = settings.louder()
        elif name == "quieter":
            settings = settings.quieter()
        else:
            settings = dataclasses.replace(settings, brief=name == "brief")
        self._apply_settings(settings)
        if name in ("slower", "faster"):
            self.presenter.say(say("rate", rate=settings.speech_rate), remember=False)
        elif name in ("louder", "quieter"):
            self.presenter.say(say("volume", percent=round(settings.speech_volume * 100)), remember=False)
        else:
            self.presenter.say(say(name), remember=False)

    def _apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        self.narrator = Narrator(Verbosity.BRIEF if settings.brief else Verbosity.FULL)
        audio = self.presenter.audio
        if audio is not None:
            audio.set_rate(settings.speech_rate)
            audio.set_speech_volume(settings.speech_volume)
            audio.set_cue_volume(settings.cue_volume)
        if self.config.on_settings is not None:
            self.config.on_settings(settings)

    # ------------------------------------------------------------------
    # Seats, saving

    def _hand_to_bot(self, colour: str, why: str) -> None:
        seat = self.state.seat(colour)
        if colour == self.listener:
            why += ".you"
        self.bots[colour] = "bot"
        self.state.seats = tuple(
            Seat(s.colour, s.name, "bot") if s.colour == colour else s for s in self.state.seats
        )
        minutes = _minutes(self.settings.silence_timeout)
        self.presenter.say(say(why, player=seat.name, minutes=minutes), remember=False)

    def _save(self, announce: bool) -> bool:
        path = self.config.save_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_table(self.state, path)
        except OSError as error:
            key = "save_failed" if announce else "autosave_failed"
            self.presenter.say(say(key, path=path, reason=error.strerror or str(error)), remember=False)
            return False
        if announce:
            self.presenter.say(say("saved", path=path), remember=False)
        return True

    def _autosave(self) -> None:
        self._save(announce=False)

    def _save_and_end(self, key: str) -> NoReturn:
        self._save(announce=False)
        self.presenter.say(say(key, path=self.config.save_path), remember=False)
        raise MatchEnded


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _minutes(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 1:
        return f"{minutes} minute" + ("s" if minutes != 1 else "")
    return f"{round(seconds)} seconds"
