"""The match loop: whose turn, which kind of seat, prompts, the dialog, saving, bots taking seats.

Whatever the game is saying, the loop keeps reading what the players say:
while it waits for speech and sounds to finish (``_settle``) it answers
commands at once, so "stop talking" or an out-of-turn move is dealt with
within a fraction of a second. Each move is heard in order: its step
sounds first, then the sentence that tells it.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, NoReturn

from voicejack.bots import Bot, make_bot
from voicejack.engine import GameState, Move, MoveKind, apply_move, legal_moves
from voicejack.engine import events as ev
from voicejack.engine.rules import time_out
from voicejack.engine.state import Seat
from voicejack.hearing import Grammar
from voicejack.language import (
    Ask,
    Command,
    Confirm,
    ConfirmPolicy,
    Conversation,
    Heard,
    LanguageSettings,
    NotUnderstood,
    Resolver,
)
from voicejack.language.resolution import CommandName, Dialog, Resolution
from voicejack.narration import Narrator, Verbosity
from voicejack.table.commands import KEEPS_LAST, KEEPS_TALKING, Said, dispatch
from voicejack.table.inputs import EndOfInput, InputHub, Utterance
from voicejack.table.listening import spoken_wake_word, still_there
from voicejack.table.messages import not_your_turn, say
from voicejack.table.presenter import ERROR_CUE, TICK_CUE, TURN_CUE, Presenter
from voicejack.table.readout import Readout, Recent
from voicejack.table.seats import BOT, SeatKind
from voicejack.table.settings import Settings
from voicejack.table.turn_timer import Signal, TurnTimer
from voicejack.table.undo import Decider, PlayedMove, Refusal, TookBack, offers_undo, restore, why_not
from voicejack.tablefile import save_table

SETTLE_POLL_S: Final = 0.05    # how often input is read while the game is still talking
SETTLE_LIMIT_S: Final = 120.0  # never wait longer than this for the sound to finish
WARN_BEFORE_S: Final = 30.0    # "are you still there?" this long before a silent seat goes to a bot
#: Answers that only mean something to a question of the player's own turn.
DIALOG_WORDS: Final = frozenset({CommandName.YES, CommandName.NO, CommandName.CANCEL})


#: Told to a player who sits out the rest of a deal: the moves go by quickly until their cards come.
BRIEF_NARRATOR: Final = Narrator(Verbosity.BRIEF)


class MatchEnded(Exception):
    """The players quit or input ended: the match is saved, not won."""


@dataclass
class Outcome:
    winner: tuple[str, ...] | None
    saved_to: Path | None
    turns: int
    interrupted: bool = False  # stopped by Ctrl-C (saved like a quit)


@dataclass
class MatchConfig:
    save_path: Path                       # "save" and "quit" write here, and so does the autosave
    settings: Settings = field(default_factory=Settings)
    on_settings: Callable[[Settings], None] | None = None  # remember settings between runs
    resume_hint: str = "voicejack resume"  # the command that resumes ``save_path``, told on quitting


class Match:
    def __init__(self, state: GameState, presenter: Presenter, inputs: InputHub, config: MatchConfig) -> None:
        self.state = state
        self.presenter = presenter
        self.inputs = inputs
        self.config = config
        self.settings = config.settings
        self.narrator = Narrator(Verbosity.BRIEF if self.settings.brief else Verbosity.FULL)
        self.resolver = self._new_resolver()  # one for the match, so the forms of a position are built once
        kinds = {seat.colour: SeatKind.parse(seat.kind) for seat in state.seats}
        self.bots: dict[str, SeatKind] = {colour: kind for colour, kind in kinds.items() if kind.bot}
        self.turns = 0
        self.readout = Readout()
        self.told_readout_hint = False
        self.recent: Recent | None = None  # the state before the last move and its events ("last card")
        self._turn_cued: str | None = None  # the seat whose turn cue the last move's events played
        self._aside: Conversation | None = None  # for what is said out of turn
        self._held: list[Utterance] = []  # said for the player's own turn before the game had finished talking
        self.last_move: PlayedMove | None = None  # what "undo" would take back
        self._taken_back = False  # the last move was taken back: there is no other to take back
        self._offered_undo = False  # the first pause for "undo" in a match is explained in a whole sentence
        self._clock_left: float | None = None  # ON11: the turn timer's seconds when the human's move was made
        self._resume_clock: tuple[str, float] | None = None  # a seat's timer as it stood at a move taken back
        self._autosave_failing = False  # the last save failed and was told: the next failures are not

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

    @property
    def _ears(self) -> str:
        """Whose ears the sounds are rendered for (the audio's listener)."""
        return self.listener or (self.humans[0] if self.humans else self.state.seats[0].colour)

    def _bot(self, colour: str) -> Bot:
        """The seat's bot, seeded from what the table has seen, so a resumed match continues exactly as it would have."""
        seen = f"{colour}:{len(self.state.history)}:{','.join(self.state.discard)}"
        return make_bot(str(self.bots[colour]), seed=zlib.crc32(seen.encode()))

    def _new_resolver(self) -> Resolver:
        return Resolver(LanguageSettings(confirm=ConfirmPolicy(self.settings.confirm), brief=self.settings.brief))

    # ------------------------------------------------------------------
    # The loop

    def run(self, announce_start: bool = True, resumed: bool = False) -> Outcome:
        state = self.state
        self.presenter.set_table(self._ears, state.rules)
        if announce_start:
            self.presenter.say(self.narrator.match_start(state, self.listener))
        elif resumed:
            self.presenter.say(self.narrator.resume_summary(state, self.listener))
        try:
            while state.winner is None:
                try:
                    self._one_turn()
                except TookBack:
                    continue  # restored in place and saved: the same player's turn again
                self.turns += 1
                self._autosave()
        except MatchEnded:
            return Outcome(None, self.config.save_path, self.turns)
        except KeyboardInterrupt:
            # Ctrl-C: the players hear that it stopped and where the match is, not only the terminal.
            self.presenter.stop()
            self._save_and_tell("interrupted")
            return Outcome(None, self.config.save_path, self.turns, interrupted=True)
        return Outcome(state.winner, self.config.save_path, self.turns)  # the win cue came with the events

    def _one_turn(self) -> None:
        state = self.state
        colour = state.turn
        moves = legal_moves(state)
        if colour in self.bots:
            self._answer_waiting()
            move, decider = self._bot(colour).choose(state, moves), Decider.BOT
            self._answer_waiting()  # what was said while the bot thought is out of turn, not the next turn's
        elif len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND:
            move, decider = moves[0], Decider.FORCED  # R30: nothing to decide, the whole hand goes at once
        else:
            found = self._human_turn(colour)
            if found is None:
                return  # the seat was handed to a bot; it plays on the next pass
            move, decider = found, Decider.HUMAN
        self._play(move, decider)
        self._undo_pause()

    def _play(self, move: Move, decider: Decider) -> None:
        before = self.state.copy()
        colour = self.state.turn
        try:
            events = apply_move(self.state, move)
        except KeyboardInterrupt:
            self.state.become(before)  # a move cut off half-way is not what gets saved
            raise
        self._remember(colour, move, decider, before, events)
        if decider is Decider.HUMAN:
            self.readout.close()  # the player has moved on from the board they were reading
        self._show(before, events)

    def _remember(self, colour: str, move: Move, decider: Decider, before: GameState, events: list[ev.Event]) -> None:
        """Keep what "undo" needs to take this move back (before it is told, since undo may be said meanwhile)."""
        last = self.last_move
        after_human = last.colour if last is not None and last.decider is Decider.HUMAN else None
        clock = self._clock_left if decider is Decider.HUMAN else None
        self.last_move = PlayedMove(colour, move, decider, before, tuple(events), self.turns, self.recent,
                                    clock, after_human)
        self._taken_back = False

    def _show(self, before: GameState, events: list[ev.Event]) -> None:
        """Tell and sound what a move (or the turn timer) did."""
        self.recent = (before, events)
        # Listen for the new position at once: anything heard before it is stale, never played here.
        self._expect_aside()
        if before.turn not in self.bots or not self.humans:
            self.presenter.begin()  # "say that again" now starts from this move
        self.presenter.events(events, before, self.listener)
        self._settle()  # the steps first, so the distance is heard before it is told...
        narrator = BRIEF_NARRATOR if self._sitting_out(before) else self.narrator
        self.presenter.say(narrator.outcome(before, events, self.state, self.listener), seat=before.turn)
        self._settle()  # ...and the next move's sounds never play under these words
        passed = [event.colour for event in events if isinstance(event, ev.TurnPassed)]
        self._turn_cued = passed[-1] if passed and passed[-1] == self._ears else None

    def _sitting_out(self, before: GameState) -> bool:
        """The one human has no cards left this deal, so the others' moves until the next deal are told briefly."""
        listener = self.listener
        return listener is not None and before.turn != listener and not before.hands[listener]

    def _settle(self) -> None:
        """Wait for what is playing to finish, answering whatever the players say meanwhile."""
        deadline = time.monotonic() + SETTLE_LIMIT_S
        while not self.presenter.settle(SETTLE_POLL_S) and time.monotonic() < deadline:
            self._answer_waiting()
        self._answer_waiting()

    # ------------------------------------------------------------------
    # A human's turn

    def _human_turn(self, colour: str) -> Move | None:
        conversation = Conversation(colour, self.resolver)
        if self._aside is not None and isinstance(self._aside.pending, Confirm):
            conversation.pending, self._aside.pending = self._aside.pending, None  # "quit?" asked out of turn
        if self._turn_cued != colour:
            self.presenter.cue(TURN_CUE)  # no move's events announced this turn (the first turn, or several humans)
        self._turn_cued = None
        prompt = [self.narrator.turn_prompt(self.state, colour)]
        if len(self.humans) > 1:  # several people share the device: say whose turn it is by name
            prompt.insert(0, say("over_to", name=self.state.seat(colour).name))
        held, self._held = self._held, []
        self._clock_left = None
        for utterance in held:  # the player did not wait for the prompt: act on what they said
            move = self._respond(conversation, colour, utterance)
            if move is not None or colour in self.bots:
                return move
        if not held:
            self.presenter.say(prompt)
        timeout = self.settings.silence_timeout or None
        warning = min(WARN_BEFORE_S, timeout / 2) if timeout else 0.0
        warned = False
        silent_since = time.monotonic()
        seconds: float = self.state.rules.timer_seconds
        resumed, self._resume_clock = self._resume_clock, None
        if seconds and resumed is not None and resumed[0] == colour:
            seconds = resumed[1]  # a move taken back gives back the time that was left, not a fresh turn
        timer = TurnTimer(seconds) if seconds else None  # ON11
        while True:
            wait = None
            if timeout is not None:
                wait = max(0.0, (timeout if warned else timeout - warning) - (time.monotonic() - silent_since))
            if timer is not None:
                wait = timer.wait(wait)
            started = time.monotonic()
            heard = self.inputs.listen(self._grammar(conversation), wait)
            if timer is not None and self._tick(timer, time.monotonic() - started):
                self._time_out()
                return None
            if heard is None:
                if timeout is None or time.monotonic() - silent_since < (timeout if warned else timeout - warning):
                    continue  # only the turn timer's look at the clock
                if not warned and warning > 0:
                    warned = True
                    self.presenter.say(still_there(self.inputs.gate), remember=False)
                    continue
                self.hand_to_bot(colour, "silent")
                return None
            warned = False
            silent_since = time.monotonic()
            if isinstance(heard, EndOfInput):
                self.save_and_end("stopped")
            move = self._respond(conversation, colour, heard)
            if move is not None:
                self._clock_left = timer.left if timer is not None else None
                return move
            if colour in self.bots:
                return None  # the player left

    def _tick(self, timer: TurnTimer, elapsed: float) -> bool:
        """Run the turn timer (ON11): the warning and the ticks; True when it ran out."""
        for signal in timer.advance(elapsed, speaking=self.presenter.is_speaking()):
            if signal is Signal.WARN:
                self.presenter.say(say("timer.warning", seconds=timer.seconds_left), remember=False)
            else:
                self.presenter.cue(TICK_CUE)
        return timer.expired

    def _time_out(self) -> None:
        """ON11: the time ran out; a random card is burned, the table is told, and the turn passes."""
        before = self.state.copy()
        colour = self.state.turn
        events = time_out(self.state)
        move = self.state.history[-1][1]
        self._remember(colour, move, Decider.TIMER, before, events)
        self._show(before, events)

    def _respond(self, conversation: Conversation, colour: str, utterance: Utterance) -> Move | None:
        """Act on one utterance during ``colour``'s turn; return the move to play, if any."""
        heard = utterance.heard
        pending = conversation.pending
        if not heard.text.strip():
            self._not_caught(say(_nothing_heard(heard, short=isinstance(pending, Confirm))), pending)
            return None
        if utterance.stale:
            self._stale(conversation, utterance, colour)
            return None
        result = conversation.hear(self.state, heard)
        self._cut_off(result)
        if isinstance(result, Move):
            self.presenter.forget()  # the question is answered: never repeat it
            return result
        if isinstance(result, (Confirm, Ask)):
            self.presenter.say(result.prompt if isinstance(result, Confirm) else result.spoken())
            return None
        if isinstance(result, NotUnderstood):
            self._not_understood(result, heard.text, conversation.pending)
            return None
        dispatch(self, Said(result, colour, conversation, pending))
        return None

    def _cut_off(self, result: Resolution) -> None:
        """A new command cuts off whatever the game was still saying, and starts what "again" repeats."""
        if isinstance(result, NotUnderstood):
            return
        if not (isinstance(result, Command) and result.name in KEEPS_TALKING):
            self.presenter.stop()
        if not (isinstance(result, Command) and result.name in KEEPS_LAST):
            self.presenter.begin()

    def _not_understood(self, result: NotUnderstood, text: str, pending: Dialog = None) -> None:
        if result.refused:
            self.presenter.cue(ERROR_CUE)
            self.presenter.refuse(result.reason)
        else:
            self._not_caught(result.reason, pending)

    def _not_caught(self, reason: str, pending: Dialog) -> None:
        """Said when nothing was understood; while yes or no is asked, the player is reminded it still is."""
        self.presenter.say(f"{reason} {say('yes_or_no')}" if isinstance(pending, Confirm) else reason, remember=False)

    def _stale(self, conversation: Conversation, utterance: Utterance, colour: str | None) -> None:
        """Heard under a grammar the game has left: a plain command still counts, anything else is asked again."""
        result = conversation.resolver.resolve(self.state, conversation.seat, utterance.heard, None)
        if isinstance(result, Command) and result.name not in DIALOG_WORDS:
            self._cut_off(result)
            dispatch(self, Said(result, colour, conversation, None))
        else:
            self.presenter.say(say("stale"), remember=False)

    # ------------------------------------------------------------------
    # Taking a move back

    def _undo_pause(self) -> None:
        """After a person's move and before a bot plays: an announced moment to say "undo" (``undo_seconds``),
        answering whatever is said meanwhile.

        There is none where nobody could speak or undo would be refused: a bots-only table, a script or a
        pipe for input, a move that dealt or won, a setting of 0, or a person to play next (undo stays
        open until they act).
        """
        last, seconds = self.last_move, self.settings.undo_seconds
        if (seconds <= 0 or last is None or not offers_undo(last) or self.state.winner is not None
                or self.state.turn not in self.bots or not self.inputs.live):
            return
        gate = self.inputs.gate
        listening, wake = (gate.mode.value, spoken_wake_word(gate)) if gate is not None else ("open", "")
        self.presenter.say(self.narrator.undo_offer(not self._offered_undo, seconds, listening, wake), remember=False)
        self._offered_undo = True
        self._settle()  # the moment starts once it has been announced
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self._answer_waiting(left)

    def take_back(self) -> None:
        """"undo": put the position back exactly as it was before the last move, save it, and start that turn
        again (raises TookBack); or say why not, changing nothing."""
        last = self.last_move
        refusal = why_not(last, self._taken_back)
        if refusal is not None or last is None:
            self.presenter.cue(ERROR_CUE)
            refusal = refusal or Refusal("nothing")
            self.presenter.refuse(self.narrator.undo_refusal(self.state, refusal.reason, refusal.colour))
            return
        restore(self.state, last)
        self.turns = last.turns
        self.recent = last.recent
        self.last_move, self._taken_back = None, True
        self._resume_clock = (last.colour, last.clock_left) if last.clock_left is not None else None
        self._held.clear()
        self._turn_cued = None
        if self._aside is not None:
            self._aside.reset()
        self._expect_aside()
        self._autosave()
        self.presenter.begin()
        self.presenter.say(self.narrator.taken_back(self.state, last.colour, last.move.phrase, self.listener))
        raise TookBack

    def undo_hint(self) -> str:
        """For the list of options: that undo would take back the last move now ("" when it would not)."""
        last = self.last_move
        if last is None or why_not(last, self._taken_back) is not None:
            return ""
        return self.narrator.undo_hint(self.state, last.colour, self.listener)

    # ------------------------------------------------------------------
    # Out of turn

    def _answer_waiting(self, timeout: float = 0.0) -> None:
        """Answer what a person said while it is not their turn (waiting up to ``timeout`` seconds for it):
        commands work, moves are refused."""
        waiting = self.inputs.waiting(timeout)
        if not waiting:
            return
        conversation = self._aside_conversation()
        for utterance in waiting:
            self._out_of_turn(conversation, utterance)

    def _grammar(self, conversation: Conversation) -> Grammar:
        return conversation.grammar(self.state, listing=self.readout.open)

    def _expect_aside(self) -> None:
        """Between turns, listen for what may be said now (commands; "next" while the board is being read)."""
        if self.humans and self.inputs.live:
            self.inputs.expect(self._grammar(self._aside_conversation()))

    def _aside_conversation(self) -> Conversation:
        seat = self.humans[0] if self.humans else self.state.seats[0].colour
        if self._aside is None or self._aside.seat != seat:
            self._aside = Conversation(seat, self.resolver)
        return self._aside

    def _out_of_turn(self, conversation: Conversation, utterance: Utterance) -> None:
        heard = utterance.heard
        if not heard.text.strip():
            self.presenter.say(say(_nothing_heard(heard)), remember=False)
            return
        if utterance.stale:
            self._stale(conversation, utterance, None)
            return
        pending = conversation.pending
        result = conversation.hear(self.state, heard)
        if isinstance(result, Confirm) and _asks_about_command(result):
            self._cut_off(result)
            self.presenter.say(result.prompt)  # "quit", or a command heard unsure: asked as in turn
        elif isinstance(result, Command) and result.name is not CommandName.LEAVE:
            self._cut_off(result)
            listing = self.readout.open
            dispatch(self, Said(result, None, conversation, pending))
            if self.readout.open != listing:
                self._expect_aside()  # "read the board" between turns: "next" is listened for from now on
        elif isinstance(result, NotUnderstood) and not result.refused:
            self._not_understood(result, heard.text)
        elif self.state.turn in self.humans and self.state.winner is None:
            conversation.reset()
            self._held.append(utterance)  # the turn is already theirs: answered as soon as the loop gets there
        else:
            conversation.reset()
            self.refuse_out_of_turn()

    def refuse_out_of_turn(self) -> None:
        self.presenter.stop()
        self.presenter.cue(ERROR_CUE)
        player = self.narrator.name(self.state, self.state.turn)
        self.presenter.refuse(not_your_turn(player))

    # ------------------------------------------------------------------
    # Settings, seats, saving

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        self.narrator = Narrator(Verbosity.BRIEF if settings.brief else Verbosity.FULL)
        self.resolver = self._new_resolver()
        self._aside = None  # built again with the new settings when next needed
        self.presenter.apply(settings)
        if self.config.on_settings is not None:
            self.config.on_settings(settings)

    def hand_to_bot(self, colour: str, why: str) -> None:
        seat = self.state.seat(colour)
        if colour == self.listener:
            why += ".you"
        self.bots[colour] = BOT
        self.state.seats = tuple(
            Seat(s.colour, s.name, str(BOT)) if s.colour == colour else s for s in self.state.seats
        )
        minutes = _minutes(self.settings.silence_timeout)
        self.presenter.say(say(why, player=seat.name, minutes=minutes), remember=False)

    def save(self, announce: bool) -> bool:
        """Write the table; a failure is told (an autosave's only once until a save works again)."""
        path = self.config.save_path
        reason = self._write()
        if reason is None:
            self._autosave_failing = False
            if announce:
                self.presenter.say(say("saved", path=path), remember=False)
            return True
        if announce or not self._autosave_failing:
            key = "save_failed" if announce else "autosave_failed"
            self.presenter.say(say(key, path=path, reason=reason), remember=False)
        self._autosave_failing = True
        return False

    def _write(self) -> str | None:
        """Save to the save path; None when it worked, else why not."""
        path = self.config.save_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_table(self.state, path)
        except OSError as error:
            return error.strerror or str(error)
        return None

    def _autosave(self) -> None:
        self.save(announce=False)

    def save_and_end(self, key: str) -> NoReturn:
        self._save_and_tell(key)
        raise MatchEnded

    def _save_and_tell(self, key: str) -> None:
        reason = self._write()
        path = self.config.save_path
        if reason is None:
            self.presenter.say(say(key, path=path, resume=self.config.resume_hint), remember=False)
        else:  # never "saved" when it was not: the player would count on resuming it
            self.presenter.say(say(f"{key}.unsaved", path=path, reason=reason), remember=False)


def _minutes(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes >= 1:
        return f"{minutes} minute" + ("s" if minutes != 1 else "")
    return f"{round(seconds)} seconds"


def _asks_about_command(confirm: Confirm) -> bool:
    """Out of turn a confirmation is asked for "quit" and for commands heard unsure, never for "leave"."""
    return isinstance(confirm.move, Command) and confirm.move.name is not CommandName.LEAVE


def _nothing_heard(heard: Heard, short: bool = False) -> str:
    """The message for a result with no words: an empty typed line, or speech the recogniser turned down
    (the player did speak, so "nothing" would tell them the microphone is deaf); ``short`` without the hint."""
    return ("empty" if heard.typed else "not_caught") + (".short" if short else "")
