"""One table on the server: the engine state, who holds each seat, bots, drops and what everyone is told."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from voicejack.bots import EXPERT_KIND, make_bot
from voicejack.engine import GameState, Move, MoveKind, PhraseError, find_move, legal_moves
from voicejack.server.protocol import REPLACED, encode_for_each, event_to_json, view_of
from voicejack.server.storage import SeatRow, Storage, TableLost, TableRow
from voicejack.server.turn_clock import TIME_OUT_MOVE, TurnClock, play
from voicejack.server.undo import REFUSED, LastMove, Mover, UndoPause, why_not
from voicejack.tablefile import table_from_dict, table_to_dict

log = logging.getLogger("voicejack.server")

OPEN, PLAYER, BOT, ROBOT = "open", "player", "bot", "robot"


class Peer(Protocol):
    """A connection as a table sees it: it can be sent messages and closed."""

    name: str
    colour: str | None

    def send(self, message: dict[str, Any]) -> None: ...
    def send_text(self, text: str) -> None: ...  # a message encoded already
    def close(self, reason: str) -> None: ...


class Refused(Exception):
    """A command the table will not carry out; nothing changed. ``code`` goes back to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Seat:
    colour: str
    name: str
    token_hash: str | None
    control: str
    peers: set[Peer] = field(default_factory=set)
    drop_timer: asyncio.TimerHandle | None = None
    returning: bool = False  # the player is back; the bot finishes the turn it is playing

    def row(self) -> SeatRow:
        return SeatRow(self.colour, self.name, self.token_hash, self.control)


@dataclass
class TableTiming:
    grace: float = 60.0      # how long a dropped seat waits for its player before a bot takes it
    bot_delay: float = 1.5   # a bot's pause before it plays, so people can follow
    turn_timeout: float = 300.0  # a connected player silent this long has a bot play that one turn (0: never)
    ready_within: float = 20.0   # the longest wait for a client's "ready" before a turn clock or undo pause starts
    undo_limit: float = 10.0     # the longest pause for "undo" a client may ask for after its player's move


#: The longest an expert bot seat may think a move at a server table (its search runs beside the other tables).
MAX_THINK = 2.0

#: A full table file is stored every this many moves (and at the end); the moves between are replayed on
#: resume, which gives the very same table because the file holds the generator state (same future deals).
SNAPSHOT_EVERY = 20


def restore_state(row: TableRow) -> GameState:
    """The table after its last stored move: its last stored table file, then every move stored since."""
    state = table_from_dict(json.loads(row.state))
    for phrase in row.later:
        play(state, TIME_OUT_MOVE if phrase == TIME_OUT_MOVE.phrase else find_move(state, phrase))
    return state


def table_text(state: GameState) -> str:
    return json.dumps(table_to_dict(state), separators=(",", ":"))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def describe_rules(state: GameState) -> str:
    rules = state.rules
    teams = "teams" if rules.teams else ("free-for-all" if rules.players == 4 else "two players")
    timer = f" ({rules.timer_seconds} s turns)" if rules.timer_seconds else ""
    return f"{rules.rule_set}{timer}, {rules.mode}, {teams}"


class ServerTable:
    def __init__(self, code: str, state: GameState, moves: int, seats: list[SeatRow], storage: Storage,
                 timing: TableTiming, on_lost: Callable[[ServerTable], None]) -> None:
        self.code = code
        self.state = state
        self.moves = moves
        self.storage = storage
        self.timing = timing
        self.on_lost = on_lost
        self.seats = {row.colour: Seat(row.colour, row.name, row.token_hash, row.control) for row in seats}
        self.spectators: set[Peer] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.turn_timer: asyncio.TimerHandle | None = None
        self.closed = False
        self.idle_since = time.time()
        self.last_move: LastMove | None = None  # what "undo" would take back (not kept across a restart)
        self.taken_back = False
        self.undo_pause: UndoPause | None = None  # the mover's moment to say "undo" before the bot plays
        self.clock: TurnClock | None = None  # ON11: the clock of the person's turn now to be played
        self._resume_clock: tuple[str, int, float] | None = None  # a move taken back gives back its time

    # ------------------------------------------------------------------ what people see

    def _seat_facts(self) -> dict[str, dict[str, Any]]:
        return {colour: {"control": seat.control, "connected": bool(seat.peers)} for colour, seat in self.seats.items()}

    def view(self, colour: str | None) -> dict[str, Any]:
        return view_of(self.state, self.moves, colour, self._seat_facts())

    def peers(self) -> list[Peer]:
        return [peer for seat in self.seats.values() for peer in seat.peers] + list(self.spectators)

    def _tell_all(self, message: dict[str, Any]) -> None:
        for peer in self.peers():
            peer.send(message)

    def _seat_news(self, seat: Seat, event: str, **extra: Any) -> None:
        self._tell_all({"type": "seat", "colour": seat.colour, "name": seat.name, "event": event,
                        "seats": self._seat_facts(), **extra})

    def _send_state(self, peer: Peer) -> None:
        peer.send({"type": "state", "code": self.code, "view": self.view(peer.colour)})

    @property
    def connected(self) -> bool:
        return bool(self.peers())

    @property
    def busy(self) -> bool:
        """A bot is about to move: the table plays on even with nobody listening."""
        return self.bot_task is not None and not self.bot_task.done()

    # ------------------------------------------------------------------ seats

    async def seat_new_player(self, peer: Peer, name: str | None) -> str:
        """Give ``peer`` the first free human seat; its token (said once, to this peer only)."""
        async with self.lock:
            free = [seat for seat in self.seats.values() if seat.control == OPEN]
            if not free:
                raise Refused("no_free_seat", "every seat at this table is taken; you can watch instead")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            seat.token_hash = hash_token(token)
            seat.control = PLAYER
            renamed = bool(name) and name != seat.name
            if name and renamed:
                seat.name = name
                self.state.seats = tuple(dataclasses.replace(s, name=name) if s.colour == seat.colour else s
                                         for s in self.state.seats)
            await self._save_seat(seat, with_state=renamed)
            self._attach(seat, peer)
            peer.send({"type": "joined", "code": self.code, "colour": seat.colour, "token": token})
            self._send_state(peer)
            self._seat_news(seat, "joined")
            self._schedule_telling(peer)
            return seat.colour

    async def seat_returning_player(self, peer: Peer, colour: str, token: str) -> None:
        async with self.lock:
            seat = self.seats.get(colour)
            if seat is None or seat.token_hash is None or not hmac.compare_digest(seat.token_hash, hash_token(token)):
                raise Refused("bad_token", "that seat token is not valid for this table")
            for old in list(seat.peers):  # the newest connection holds the seat; an old one may be half-dead
                seat.peers.discard(old)
                old.close(REPLACED)
            was = seat.control
            if seat.drop_timer is not None:
                seat.drop_timer.cancel()
                seat.drop_timer = None
            if was == BOT:
                if self.state.turn == colour and self.bot_task is not None and not self.bot_task.done():
                    seat.returning = True  # the bot finishes this turn; the player has the next one
                else:
                    seat.control = PLAYER
                    await self._save_seat(seat)
            self._attach(seat, peer)
            peer.send({"type": "joined", "code": self.code, "colour": colour, "token": token, "back": True})
            self._send_state(peer)
            self._seat_news(seat, "back", next_turn=seat.returning)
            self._schedule_telling(peer)

    def watch(self, peer: Peer) -> None:
        self.spectators.add(peer)
        peer.send({"type": "watching", "code": self.code})
        self._send_state(peer)

    def _attach(self, seat: Seat, peer: Peer) -> None:
        peer.colour = seat.colour
        seat.peers.add(peer)

    async def leave(self, peer: Peer) -> None:
        """The player left on purpose: a bot takes the seat now; the token still brings them back."""
        async with self.lock:
            if peer.colour is None:
                self.spectators.discard(peer)
                return
            seat = self.seats[peer.colour]
            seat.peers.discard(peer)
            if seat.control == PLAYER:
                seat.control = BOT
                await self._save_seat(seat)
            self._seat_news(seat, "left")
            self._schedule()

    def disconnected(self, peer: Peer) -> None:
        self.spectators.discard(peer)
        if peer.colour is None or peer.colour not in self.seats:
            return
        seat = self.seats[peer.colour]
        if peer not in seat.peers:
            return
        seat.peers.discard(peer)
        if not seat.peers and seat.control == PLAYER and not self.closed:
            self._start_grace(seat, announce=True)
        if not self.connected:
            self.idle_since = time.time()

    def _start_grace(self, seat: Seat, announce: bool) -> None:
        if seat.drop_timer is not None:
            seat.drop_timer.cancel()
        loop = asyncio.get_running_loop()
        seat.drop_timer = loop.call_later(self.timing.grace, lambda: _spawn(self._grace_over(seat)))
        if announce:
            self._seat_news(seat, "dropped", grace=self.timing.grace)

    def resume_seats(self) -> None:
        """After a restart nobody is connected yet: every player's seat waits its grace time for them."""
        for seat in self.seats.values():
            if seat.control == PLAYER:
                self._start_grace(seat, announce=False)
        self._schedule()

    def begin(self) -> None:
        """Let the bots start, for a table whose seats are all bots (there is nobody to wait for)."""
        self._schedule()

    async def _grace_over(self, seat: Seat) -> None:
        async with self.lock:
            seat.drop_timer = None
            if seat.peers or seat.control != PLAYER or self.closed:
                return
            seat.control = BOT
            await self._save_seat(seat)
            self._seat_news(seat, "bot")
            self._schedule()

    async def _save_seat(self, seat: Seat, with_state: bool = False) -> None:
        text = table_text(self.state) if with_state else None
        try:
            await self.storage.update_seat(self.code, seat.row(), time.time(), text, self.moves)
        except TableLost:
            self._lost()
            raise Refused("elsewhere", "this table has moved to another server; reconnecting will find it") from None

    # ------------------------------------------------------------------ moves

    async def player_move(self, peer: Peer, phrase: str, seen: int | None, undo_seconds: float | None = None) -> None:
        """Play ``phrase`` for the peer's seat; ``undo_seconds``: the pause its client asks for, to take it back."""
        async with self.lock:
            colour = peer.colour
            if colour is None:
                raise Refused("not_seated", "spectators cannot play")
            state = self.state
            if state.winner is not None:
                raise Refused("over", "the match is over")
            if seen is not None and seen != self.moves:
                raise Refused("stale", f"the table has moved on: {self.moves} moves played, you saw {seen}")
            if state.turn != colour:
                raise Refused("not_your_turn", f"it is {state.seat(state.turn).name}'s turn")
            if self.seats[colour].control != PLAYER:
                raise Refused("not_your_turn", "a bot is playing this turn for you; the next one is yours")
            if any(seat.control == OPEN for seat in self.seats.values()):
                raise Refused("waiting", "the match starts when every seat is taken")
            try:
                move = find_move(state, phrase)
            except PhraseError as error:
                raise Refused("illegal", str(error)) from None
            clock = self.clock
            left = clock.left if clock is not None and clock.number == self.moves else None
            await self._apply(colour, move, Mover.PLAYER, left, undo_seconds)

    async def _apply(self, colour: str, move: Move, mover: Mover = Mover.BOT, clock_left: float | None = None,
                     undo_seconds: float | None = None) -> None:
        before = self.state.copy(share_rng=True)  # cheap: the generator is put back by its state alone
        rng_before = self.state.rng.getstate()
        events = play(self.state, move)
        winner = "+".join(self.state.winner) if self.state.winner else None
        number = self.moves + 1
        snapshot = winner is not None or number % SNAPSHOT_EVERY == 0
        text = table_text(self.state) if snapshot else None
        try:
            await self.storage.record_move(self.code, number, colour, move.phrase, text, winner, time.time())
        except TableLost:
            before.rng.setstate(rng_before)
            self.state = before
            self._lost()
            raise Refused("elsewhere", "this table has moved to another server; reconnecting will find it") from None
        except Exception:
            before.rng.setstate(rng_before)
            self.state = before
            log.exception("table %s: could not store a move; nothing changed", self.code)
            raise Refused("storage", "the server could not store that move; nothing changed, try again") from None
        self.moves += 1
        self.idle_since = time.time()
        before.rng = random.Random()
        before.rng.setstate(rng_before)  # the table before the move, whole, for "undo"
        previous = self.last_move
        after = previous.colour if previous is not None and previous.mover is Mover.PLAYER else None
        self.last_move = LastMove(colour, move.phrase, self.moves, mover, before, tuple(events), after, clock_left)
        self.taken_back = False
        self.undo_pause = None
        payload = [event_to_json(event) for event in events]
        peers = self.peers()
        texts = encode_for_each({"type": "moved", "colour": colour, "phrase": move.phrase, "events": payload},
                                self.view(None), self.state, [peer.colour for peer in peers])
        for peer in peers:
            peer.send_text(texts[peer.colour])
        self._offer_undo(colour, mover, undo_seconds)
        for seat in self.seats.values():
            if seat.returning and seat.colour == colour:  # the bot has played the turn it had begun
                seat.returning = False
                seat.control = PLAYER
                await self._save_seat(seat)
                self._seat_news(seat, "player")
        self._schedule()

    async def undo(self, peer: Peer) -> None:
        """Take back the asking seat's own last move (server/undo.py says when it may), store the table as it
        was before it, and tell everyone; a bot about to play waits for the player's turn again."""
        async with self.lock:
            colour = peer.colour
            if colour is None:
                raise Refused("not_seated", "spectators cannot take back a move")
            last = self.last_move
            reason = why_not(last, colour, self.taken_back, lambda who: self.state.seat(who).name)
            if reason is not None or last is None:
                raise Refused(REFUSED, reason or "there is no move to take back")
            restored = last.before.copy()
            restored.seats = self.state.seats  # who sits where stays as it is now
            try:
                await self.storage.undo_move(self.code, last.number, table_text(restored), time.time())
            except TableLost:
                self._lost()
                raise Refused("elsewhere", "this table has moved to another server; reconnecting will find it") from None
            except Exception:
                log.exception("table %s: could not store taking a move back; nothing changed", self.code)
                raise Refused("storage", "the server could not store that; nothing changed, try again") from None
            if self.bot_task is not None and not self.bot_task.done():
                self.bot_task.cancel()  # it was waiting to play after the move now taken back
            self.bot_task = None
            self.state, self.moves = restored, last.number - 1
            self.last_move, self.taken_back, self.undo_pause = None, True, None
            if last.clock_left is not None:
                self._resume_clock = (colour, self.moves, last.clock_left)
            self.idle_since = time.time()
            peers = self.peers()
            texts = encode_for_each({"type": "undone", "colour": colour, "phrase": last.phrase},
                                    self.view(None), self.state, [peer.colour for peer in peers])
            for receiver in peers:
                receiver.send_text(texts[receiver.colour])
            self._schedule()

    def _offer_undo(self, colour: str, mover: Mover, seconds: float | None) -> None:
        """After the player's own move that could be taken back, with a bot next: the pause their client asked
        for, offered to that seat alone (server/undo.py)."""
        seconds = min(seconds or 0.0, self.timing.undo_limit)
        if seconds <= 0 or mover is not Mover.PLAYER or self.state.winner is not None:
            return
        if self.seats[self.state.turn].control not in (BOT, ROBOT):
            return  # a person is next: undo stays open until they act, with no pause (as at a local table)
        if why_not(self.last_move, colour, False, lambda who: self.state.seat(who).name) is not None:
            return
        self.undo_pause = UndoPause(colour, self.moves, seconds)
        for peer in self.seats[colour].peers:
            peer.send(self.undo_pause.offer())

    def ready(self, peer: Peer, moves: int) -> None:
        """The peer's client has told its player everything up to move ``moves``: a turn clock or an undo pause
        that waited for it starts now. A ready for anything else changes nothing."""
        colour = peer.colour
        if colour is None:
            return
        clock, pause = self.clock, self.undo_pause
        if clock is not None and clock.colour == colour and clock.number == moves:
            clock.start()
        if pause is not None and pause.colour == colour and pause.number == moves:
            pause.ready.set()

    def _schedule_telling(self, peer: Peer) -> None:
        """``_schedule`` for a peer that has just taken its seat: a clock already running for it is told to it."""
        had = self.clock
        self._schedule()
        if self.clock is not None and self.clock is had and self.clock.colour == peer.colour:
            peer.send(self.clock.status(self.timing.ready_within))

    def _schedule(self) -> None:
        """Start the bot (or the automatic whole-hand burn, R30) when the seat to act does not wait for a person;
        when it does, start that turn's clock: ON11's under the online rules with a timer, else the one after
        which a bot plays that one turn for them."""
        if self.turn_timer is not None:
            self.turn_timer.cancel()
            self.turn_timer = None
        clock = self.clock
        if clock is not None and (clock.number != self.moves or clock.colour != self.state.turn or self.closed
                                  or self.seats[clock.colour].control != PLAYER):
            clock.cancel()
            self.clock = None
        if self.closed or self.state.winner is not None or (self.bot_task is not None and not self.bot_task.done()):
            return
        if any(seat.control == OPEN for seat in self.seats.values()):
            return
        seat = self.seats[self.state.turn]
        moves = legal_moves(self.state)
        automatic = len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND
        if seat.control in (BOT, ROBOT) or automatic:
            if self.clock is not None:
                self.clock.cancel()
                self.clock = None
            self.bot_task = asyncio.create_task(self._bot_turn(), name=f"bot {self.code}")
        elif self.state.rules.timer_seconds > 0:
            if self.clock is None:
                self._set_clock(seat)
        elif self.timing.turn_timeout > 0:
            number = self.moves
            self.turn_timer = asyncio.get_running_loop().call_later(
                self.timing.turn_timeout, lambda: self._too_slow(number))

    def _set_clock(self, seat: Seat) -> None:
        seconds = self.state.rules.timer_seconds
        resumed, self._resume_clock = self._resume_clock, None
        if resumed is not None and resumed[:2] == (seat.colour, self.moves):
            seconds = max(1, round(resumed[2]))  # the time that was left when the move taken back was made

        def tell(message: dict[str, Any]) -> None:
            for peer in seat.peers:
                peer.send(message)

        self.clock = TurnClock(seat.colour, self.moves, seconds, self.timing.ready_within, tell,
                               lambda clock: _spawn(self._time_out(clock)))

    async def _time_out(self, clock: TurnClock) -> None:
        """ON11: the seat's time ran out: the engine burns a card of its hand at random, stored and told like a move."""
        async with self.lock:
            if self.clock is not clock or self.closed or self.moves != clock.number or self.state.winner is not None:
                return
            self.clock = None
            if self.state.turn != clock.colour or not self.state.hands[clock.colour]:
                return
            try:
                await self._apply(clock.colour, TIME_OUT_MOVE, Mover.TIMER)
            except Refused:
                return

    def _too_slow(self, number: int) -> None:
        self.turn_timer = None
        if self.moves == number and not self.closed and (self.bot_task is None or self.bot_task.done()):
            seat = self.seats[self.state.turn]
            self._seat_news(seat, "slow", seconds=self.timing.turn_timeout)
            self.bot_task = asyncio.create_task(self._bot_turn(for_player=number), name=f"bot {self.code}")

    async def _bot_turn(self, for_player: int | None = None) -> None:
        """A bot's move for the seat to act; ``for_player`` is the move number a silent player let pass."""
        pause = self.undo_pause
        if for_player is None and pause is not None and pause.number == self.moves:
            await pause.wait(self.timing.ready_within)  # the mover's moment to take their move back
        elif for_player is None:
            await asyncio.sleep(self.timing.bot_delay)
        async with self.lock:
            if self.closed or self.state.winner is not None:
                return
            state = self.state
            colour = state.turn
            seat = self.seats[colour]
            moves = legal_moves(state)
            mover = Mover.BOT
            if len(moves) == 1 and moves[0].kind is MoveKind.BURN_HAND:
                move, mover = moves[0], Mover.AUTOMATIC
            elif seat.control in (BOT, ROBOT) or for_player == self.moves:
                kind = state.seat(colour).kind if seat.control == ROBOT else "bot"
                seen = f"{colour}:{len(state.history)}:{','.join(state.discard)}"  # same choice after a restart
                bot = make_bot(kind, seed=zlib.crc32(seen.encode()))
                if kind.startswith(EXPERT_KIND):  # a search of up to MAX_THINK: the other tables play on meanwhile
                    move = await asyncio.to_thread(bot.choose, state.copy(), moves)
                    if self.closed or self.state is not state:
                        return
                else:
                    move = bot.choose(state, moves)
            else:
                return
            try:
                await self._apply(colour, move, mover)
            except Refused:
                return
        self.bot_task = None
        self._schedule()

    # ------------------------------------------------------------------ ending

    def _lost(self) -> None:
        """Another server owns this table now: stop serving it; clients reconnect and find the owner."""
        if self.closed:
            return
        log.warning("table %s: owned by another server now; handing its clients over", self.code)
        self.close("elsewhere")
        self.on_lost(self)

    def close(self, reason: str) -> None:
        self.closed = True
        if self.turn_timer is not None:
            self.turn_timer.cancel()
        if self.clock is not None:
            self.clock.cancel()
        for seat in self.seats.values():
            if seat.drop_timer is not None:
                seat.drop_timer.cancel()
        if self.bot_task is not None:
            self.bot_task.cancel()
        for peer in self.peers():
            peer.close(reason)


_background: set[asyncio.Task[None]] = set()


def _spawn(coroutine: Any) -> None:
    task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
    _background.add(task)
    task.add_done_callback(_background.discard)
