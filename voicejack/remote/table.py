"""A server table at this device: the same narration, sound, dialog and commands as a local table.

The server decides; this loop narrates what it is told (through the same
Narrator and Presenter as a local Match), resolves what the player says
with the same Conversation, and sends the resulting move phrase.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from voicejack.engine import GameState, Move, MoveKind, legal_moves
from voicejack.language import Ask, Choice, Command, CommandName, Confirm, ConfirmPolicy, Conversation, Grammar
from voicejack.language import Heard
from voicejack.language import LanguageSettings
from voicejack.language import NotUnderstood, Resolver, Topic
from voicejack.narration import Narrator, Verbosity
from voicejack.remote.messages import REMOTE_MESSAGES, tell
from voicejack.server.undo import REFUSED as UNDO_REFUSED
from voicejack.remote.session import Clock, Line, Played, Refusal, Seated, SeatNews, Session, Snapshot, Undone, UndoOffer
from voicejack.table.inputs import EndOfInput, InputHub
from voicejack.table.listening import spoken_wake_word
from voicejack.table.messages import not_your_turn, say
from voicejack.table.presenter import TICK_CUE, Presenter
from voicejack.table.commands import KEEPS_LAST, KEEPS_TALKING, SHARED, Said
from voicejack.table.readout import Readout, Recent
from voicejack.table.settings import Settings

ERROR_CUE = "turned-back"
TURN_CUE = "your-turn"
EXIT_WON, EXIT_LEFT, EXIT_REFUSED, EXIT_INTERRUPTED = 0, 0, 2, 130


@dataclass
class RemoteConfig:
    url: str                                     # told to the player in "come back with ..." lines
    settings: Settings = dataclasses.field(default_factory=Settings)
    on_settings: Callable[[Settings], None] | None = None


class RemoteTable:
    def __init__(self, session: Session, presenter: Presenter, inputs: InputHub, config: RemoteConfig) -> None:
        self.session = session
        self.presenter = presenter
        self.inputs = inputs
        self.config = config
        self.settings = config.settings
        self.narrator = Narrator(Verbosity.BRIEF if self.settings.brief else Verbosity.FULL)
        self.view: GameState | None = None  # the table as this seat sees it, once the server sent it
        self.conversation: Conversation | None = None
        self.in_flight = False
        self.started = False
        self.told_start = False
        self.exit: int | None = None
        self.line_was_down = False
        self.line_was_up = False  # a line never up was not lost: the server was not reached yet
        self._grammar: tuple[tuple[int, str, int, bool], Grammar] | None = None
        self.readout = Readout()  # the board, line by line: "next", "previous", "again"
        self.told_readout_hint = False
        self.recent: Recent | None = None  # the view before the last move and its events ("last card")
        self._ready_due: int | None = None  # the server waits to hear that the player was told up to this move
        self._offered_undo = False  # the first pause for "undo" in a match is explained in a whole sentence
        self._prompted_at: int | None = None  # the move number the last "Your turn" was said at

    @property
    def me(self) -> str | None:
        return self.session.colour

    @property
    def listener(self) -> str | None:
        return self.me

    @property
    def state(self) -> GameState:
        if self.view is None:
            raise RuntimeError("the server has not sent the table yet")
        return self.view

    def run(self) -> int:
        self.session.start()
        try:
            while self.exit is None:
                for item in self.session.news(timeout=0.02 if self._may_listen() or self._ready_due is not None else 0.2):
                    self._news(item)
                    if self.exit is not None:
                        break
                self._say_ready()
                if self.exit is None and self._may_listen():
                    self._listen()
        except KeyboardInterrupt:
            # Ctrl-C: said aloud, with the way back to the seat, which waits as after "quit".
            self.presenter.stop()
            if self.session.code is None:
                self.presenter.say(say("interrupted.idle"), remember=False)
            else:
                self._hang_up(stopped=True)
            self.presenter.settle(timeout=10.0)
            self.exit = EXIT_INTERRUPTED
        finally:
            self.session.close()
        return self.exit

    # ------------------------------------------------------------------ what the server says

    def _news(self, item: object) -> None:
        presenter = self.presenter
        if isinstance(item, Seated):
            code, url = item.code, self.config.url
            if item.colour is None:
                presenter.say(tell("watching", code=code))
            elif item.back:
                presenter.say(tell("back", code=code, colour=item.colour))
            elif self.session.intent.action == "create":
                presenter.say([tell("created", code=code, url=url), tell("seated", code=code, colour=item.colour)])
            else:
                presenter.say(tell("seated", code=code, colour=item.colour))
        elif isinstance(item, Snapshot):
            self._snapshot(item.state)
        elif isinstance(item, Played):
            self._played(item)
        elif isinstance(item, Undone):
            self._undone(item)
        elif isinstance(item, SeatNews):
            self._seat(item)
        elif isinstance(item, Clock):
            self._clock(item)
        elif isinstance(item, UndoOffer):
            self._undo_offer(item)
        elif isinstance(item, Refusal):
            self.in_flight = False
            presenter.cue(ERROR_CUE)
            if item.code == UNDO_REFUSED:  # why the move stands is the table's news, not the server's trouble
                presenter.say(item.message[:1].upper() + item.message[1:] + ".", remember=False)
            else:
                presenter.say(tell("refused", reason=item.message), remember=False)
        elif isinstance(item, Line):
            if item.final:
                presenter.say(tell("line.final", reason=item.reason), remember=False)
                self.exit = EXIT_REFUSED
            elif not item.up and not self.line_was_down:
                self.line_was_down = True
                reached = self.line_was_up
                presenter.say(self._line_down() if reached else tell("unreachable", url=self.config.url), remember=False)
            elif item.up and self.line_was_down:
                self.line_was_down = False
                presenter.say(tell("line.back" if self.line_was_up else "line.reached"), remember=False)
            if item.up:
                self.line_was_up = True

    def _snapshot(self, state: GameState) -> None:
        self.view = state
        self.in_flight = False
        if not self.told_start:
            self.told_start = True
            self.presenter.set_table(self.me, state.rules)
            lines = self.narrator.match_start(state, self.me)
            if self.session.moves > 0:
                # Come in mid-match: who dealt and led first is long past (the last line); whose turn it is now
                # counts (said below when it is the listener's own, or when the match is over).
                mine = state.turn == self.me or state.winner is not None
                lines = lines[:-1] + ([] if mine else [self.narrator.turn_prompt(state, self.me)])
            self.presenter.say(lines)
        if state.winner is not None:  # came to a table that has finished meanwhile
            self.presenter.say(self.narrator.turn_prompt(state, self.me))
            self.exit = EXIT_WON
            return
        if self._open_seats():
            self.presenter.say(self._waiting_line())
            return
        self.started = True
        self._prompt_if_mine()

    def _open_seats(self) -> int:
        view = self.session.view or {}
        return sum(1 for player in view.get("players", []) if player.get("control") == "open")

    def _played(self, item: Played) -> None:
        self.recent = (item.before, item.events) if item.before is not None else None
        self.view = item.after
        if item.colour == self.me:
            self.in_flight = False
            self.readout.close()  # the player has moved on from the board they were reading
        if item.before is not None:
            seats = item.before.seats
            if item.before.seat(item.colour).kind == "human" or all(seat.kind != "human" for seat in seats):
                self.presenter.begin()  # as at a local table, "say that again" starts from a person's move
            self.presenter.events(item.events, item.before, self.me)
            self.presenter.say(self.narrator.outcome(item.before, item.events, item.after, self.me), seat=item.colour)
        if item.after.winner is not None:
            self.presenter.cue("win")
            self.presenter.settle()
            self.exit = EXIT_WON
            return
        self._prompt_if_mine()

    def _undone(self, item: Undone) -> None:
        """The server took a move back: the table is as it was before it, and whoever made it plays again."""
        self.view, self.recent, self.in_flight = item.after, None, False
        self.presenter.begin()
        self.presenter.say(self.narrator.taken_back(item.after, item.colour, item.phrase, self.me), seat=item.colour)
        self._prompt_if_mine()

    def _clock(self, clock: Clock) -> None:
        """ON11 at a server table: the server runs the clock from this client's ready; the warning is spoken and
        the last seconds tick, as at a local table."""
        if clock.colour != self.me or clock.moves != self.session.moves:
            return
        if clock.event == "set":
            self._ready_due = clock.moves  # once the turn has been told, the clock may start
        elif clock.event == "warning":
            self.presenter.say(say("timer.warning", seconds=round(clock.seconds)), remember=False)
        elif clock.event == "tick":
            self.presenter.cue(TICK_CUE)

    def _undo_offer(self, offer: UndoOffer) -> None:
        """The bot waits for "undo" after this seat's move: said in the local table's words."""
        if offer.colour != self.me or offer.moves != self.session.moves:
            return
        gate = self.inputs.gate
        listening, wake = (gate.mode.value, spoken_wake_word(gate)) if gate is not None else ("open", "")
        self.presenter.say(self.narrator.undo_offer(not self._offered_undo, offer.seconds, listening, wake),
                           remember=False)
        self._offered_undo = True
        self._ready_due = offer.moves  # the pause runs once the offer has been heard

    def _say_ready(self) -> None:
        """Tell the server the player has heard it all, once the speech (and the step sounds) are over."""
        due = self._ready_due
        if due is None or self.presenter.is_speaking():
            return
        self._ready_due = None
        if due == self.session.moves:
            self.session.send_ready(due)

    def _undo_seconds(self) -> float:
        """The pause asked for after the player's move: none where nobody could say undo meanwhile (a script)."""
        return self.settings.undo_seconds if self.inputs.live else 0.0

    def _prompt_if_mine(self) -> None:
        state = self.view
        if state is None or state.turn != self.me or self.me is None or state.winner is not None:
            return
        if _burns_by_itself(state):
            return  # nothing to decide (R30): the server burns the hand at once, told like any move (no prompt locally)
        if self._bot_has_my_seat():
            return  # back while the bot plays this turn: the next one is the player's (told by the seat news)
        self._prompted_at = self.session.moves
        self.conversation = Conversation(self.me, self._resolver())
        self.presenter.cue(TURN_CUE)
        self.presenter.say(self.narrator.turn_prompt(state, self.me))

    def _bot_has_my_seat(self) -> bool:
        view = self.session.view or {}
        return any(player.get("colour") == self.me and player.get("control") == "bot" for player in view.get("players", []))

    def _seat(self, news: SeatNews) -> None:
        view = self.view
        if view is not None and news.event == "joined":  # the seat is called by the name of who took it
            view.seats = tuple(dataclasses.replace(seat, name=news.name) if seat.colour == news.colour else seat
                               for seat in view.seats)
        key = "seat.back.next" if news.event == "back" and news.next_turn else f"seat.{news.event}"
        fields = {"name": news.name, "colour": news.colour, "grace": round(news.grace or 0),
                  "seconds": round(news.seconds or 0)}
        if news.colour == self.me and news.event == "back" and news.next_turn:
            self.presenter.say(tell("seat.back.next.you"), remember=False)
        elif news.colour == self.me and news.event == "player" and self._prompted_at != self.session.moves:
            self._prompt_if_mine()  # the bot has played its turn; if it is this seat's turn again, it is theirs
        elif news.event == "slow" and news.colour == self.me:
            self.in_flight = False
            self.presenter.say(tell("seat.slow.you", **fields), remember=False)
        elif news.colour != self.me and f"seat.{news.event}" in REMOTE_MESSAGES:
            self.presenter.say(tell(key, **fields), seat=news.colour, remember=False)
        if news.event == "joined" and not self.started and self.view is not None:
            if not self._open_seats():
                self.started = True
                self.presenter.say(tell("everyone"))
                self._prompt_if_mine()

    # ------------------------------------------------------------------ what the player says

    def _may_listen(self) -> bool:
        if self.view is None or self.exit is not None:
            return False
        if self.inputs.live:
            return True
        return self.started and self.state.turn == self.me and not self.in_flight and not _burns_by_itself(self.state)

    def _resolver(self) -> Resolver:
        return Resolver(LanguageSettings(confirm=ConfirmPolicy(self.settings.confirm)))

    def _listen(self) -> None:
        state = self.state
        if self.conversation is None or self.conversation.seat != (self.me or state.turn):
            self.conversation = Conversation(self.me or state.turn, self._resolver())
        conversation = self.conversation
        key = (self.session.moves, conversation.seat, id(conversation.pending), self.readout.open)
        if self._grammar is None or self._grammar[0] != key:  # listening polls: build the phrases once a position
            self._grammar = (key, conversation.grammar(state, listing=self.readout.open))
        heard = self.inputs.listen(self._grammar[1], timeout=0.1)
        if heard is None:
            return
        if isinstance(heard, EndOfInput):
            self._hang_up()
            return
        if heard.stale:
            self.presenter.say(say("stale"), remember=False)
            return
        self._respond(conversation, state, heard.heard)

    def _respond(self, conversation: Conversation, state: GameState, heard: Heard) -> None:
        pending = conversation.pending
        result = conversation.hear(state, heard)
        presenter = self.presenter
        if not isinstance(result, NotUnderstood):  # as at a local table: a new command cuts off what is being said
            keeps = result.name if isinstance(result, Command) else None
            if keeps not in KEEPS_TALKING:
                presenter.stop()
            if keeps not in KEEPS_LAST:
                presenter.begin()  # ... and "say that again" repeats its answer from now on
        if (self.me is None and isinstance(result, Confirm) and isinstance(result.move, Command)
                and result.move.name in (CommandName.LEAVE, CommandName.QUIT)):
            conversation.reset()  # a spectator has no seat to lose, so nothing to confirm
            self._hang_up()
            return
        if self.me is None and _plays(result):  # resolved for the seat to act: not the spectator's to say
            conversation.reset()
            presenter.say(tell("watching_only"), remember=False)
            return
        if _plays(result) and (state.turn != self.me or not self.started):
            conversation.reset()
            self._refuse_out_of_turn()
            return
        if isinstance(result, Move):
            if self.in_flight:
                presenter.say(tell("in_flight"), remember=False)
            elif self.session.send_move(result.phrase, self._undo_seconds()):
                self.in_flight = True
            else:
                presenter.say(self._line_down(), remember=False)
        elif isinstance(result, Confirm):
            presenter.say(result.prompt)
        elif isinstance(result, Ask):
            presenter.say(result.spoken())
        elif isinstance(result, NotUnderstood):
            if result.refused:
                presenter.cue(ERROR_CUE)
            presenter.say(result.reason, remember=False)
        else:
            self._command(result, state, conversation, pending)

    def _command(self, command: Command, state: GameState, conversation: Conversation,
                 pending: Ask | Confirm | None) -> None:
        name, me, presenter, narrator = command.name, self.me, self.presenter, self.narrator
        mine = state.turn == me
        url, code = self.config.url, self.session.code
        shared = SHARED.get(name)
        if name == "turn" and me is not None and not self.started:
            presenter.say(self._waiting_line())
        elif shared is not None:
            shared(self, Said(command, me, conversation, pending))  # answered as at a local table
        elif name in ("hand", "options", "undo") and me is None:
            presenter.say(tell("watching_only"), remember=False)
        elif name == "hand" and me is not None:
            presenter.say(narrator.hand(state, me))
        elif name == "options" and not (mine and self.started):
            self._refuse_out_of_turn()
        elif name == "options" and me is not None:
            options = narrator.describe_options(state, me)
            conversation.pending = Ask(say("options.question"),
                                       tuple(Choice(text, move, (move.phrase,)) for move, text in options), topic=Topic.OPTION)
            presenter.say([say("options.question")] + [f"{n}: {text}" for n, (_, text) in enumerate(options, 1)])
        elif name == "save":
            presenter.say(tell("save" if me is not None else "save.watching", url=url, code=code), remember=False)
        elif name == "quit" or (name == "leave" and me is None):
            self._hang_up()
        elif name == "leave" and me is not None:
            self.session.leave()
            presenter.say(tell("left", url=url, code=code), remember=False)
            self.exit = EXIT_LEFT
        elif name == "undo":
            if not self.session.send_undo():
                presenter.say(self._line_down(), remember=False)
        elif name in ("cancel", "no") and mine and isinstance(conversation.pending, Ask):
            presenter.say(conversation.pending.spoken())  # "no" to "option two?": the options are asked again
        elif name in ("cancel", "no") and pending is not None and mine:
            presenter.say(say("cancelled", prompt=narrator.turn_prompt(state, me)))
        elif name in ("cancel", "no") and pending is not None:  # out of turn: "quit?" or a command heard unsure
            presenter.say(say("cancelled.out_of_turn"), remember=False)
        elif name == "yes" and isinstance(pending, Ask):
            presenter.say(pending.spoken())
        elif name in ("yes", "no", "cancel"):
            presenter.cue(ERROR_CUE)
            presenter.say(say("nothing_pending"), remember=False)
        else:
            self._refuse_out_of_turn()

    def _refuse_out_of_turn(self) -> None:
        """A move or its question when the turn is not this seat's: in the local table's words (whose turn it
        is, by name), or, before every seat is taken, that the match has not begun."""
        self.presenter.cue(ERROR_CUE)
        if not self.started:
            self.presenter.say(self._waiting_line(), remember=False)
            return
        name = self.narrator.name(self.state, self.state.turn)
        self.presenter.say(not_your_turn(name), remember=False)

    def _waiting_line(self) -> str:
        waiting = self._open_seats()
        return tell("waiting", count=waiting, players="player" if waiting == 1 else "players")

    def _line_down(self) -> str:
        return tell("line.down" if self.me is not None else "line.down.watching")

    def _hang_up(self, stopped: bool = False) -> None:
        """"quit", the end of typed input or Ctrl-C (``stopped``): the line closes; the seat (if any) waits for its
        player."""
        key = "quit" if self.me is not None else "quit.watching"
        told = tell(key, url=self.config.url, code=self.session.code)
        self.presenter.say(f"{say('interrupted.idle')} {told}" if stopped else told, remember=False)
        self.exit = EXIT_LEFT

    def apply_settings(self, settings: Settings) -> None:
        """Settings changed by voice: the wording, the sound, and remembered for next time."""
        self.settings = settings
        self.narrator = Narrator(Verbosity.BRIEF if settings.brief else Verbosity.FULL)
        self.presenter.apply(settings)
        if self.config.on_settings is not None:
            self.config.on_settings(settings)



def _plays(result: object) -> bool:
    """What the player said would play (or ask about) a move, not a command: a move, its question, its
    confirmation, or a clear refusal of it ("You have no seven")."""
    if isinstance(result, NotUnderstood):
        return result.refused
    if isinstance(result, Confirm):
        return isinstance(result.move, Move)
    return isinstance(result, (Move, Ask))


def _burns_by_itself(state: GameState) -> bool:
    """The seat to act can only burn its whole hand (R30): the server plays that without asking anybody."""
    moves = legal_moves(state)
    return len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND
