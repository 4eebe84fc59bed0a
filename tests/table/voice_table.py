"""A whole match played by voice at a table where others talk, run as a child process by test_voice_match_live.py.

The room: a named pipe behind the virtual ALSA microphone ``vjmic`` (HOME/.asoundrc, see
tests/speech/live_room.py) is fed in real time, without a break, from before the first deal to the win:
three other people talking, together 15 dB below the player, and the player's words, said by several
espeak-ng voices, whenever the player speaks.

The table is the game's own: the real VoiceInput (sounddevice stream, listening thread, endpointer,
pocketsphinx with the grammar of the moment), opened as ``voicejack play`` opens it, muted while the game
speaks -> VoiceSource -> InputHub -> Match against a bot. The game's voice goes to a silent speaker that
takes a short time per word, so the microphone is muted while it "speaks", as with loudspeakers.

The player waits until the game listens and has stopped talking, then says what a person would: the move
it chose (or first a card alone, "my cards", "read the board" or "options"), the answer to the question the
game has open, "yes" or "no" to a confirmation, and the move again when it was not understood.

Prints one JSON report (see ``report``) to the file named by ``--out``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "speech"))

import numpy as np  # noqa: E402
from live_room import DEVICE, LiveRoom, write_asoundrc  # noqa: E402

from voicejack.bots import make_bot  # noqa: E402
from voicejack.engine import GameState, Move, MoveKind, legal_moves, make_rules, new_game  # noqa: E402
from voicejack.engine.state import Seat  # noqa: E402
from voicejack.hearing import Grammar, Heard  # noqa: E402
from voicejack.language import Resolver  # noqa: E402
from voicejack.language.resolution import (  # noqa: E402
    Ask, Command, CommandName, Confirm, Dialog, NotUnderstood, Resolution, Topic,
)
from voicejack.language.words import card_word, number_to_words  # noqa: E402
from voicejack.speech.corpus import make_babble, speech_power, synthesise  # noqa: E402
from voicejack.table.inputs import END_OF_INPUT, EndOfInput, InputHub, Push, Utterance  # noqa: E402
from voicejack.table.match import Match, MatchConfig  # noqa: E402
from voicejack.table.presenter import Presenter  # noqa: E402
from voicejack.table.settings import Settings  # noqa: E402
from voicejack.table.undo import TookBack  # noqa: E402
from voicejack.table.voice import VoiceSource, open_voice_source  # noqa: E402

PLAYER = "red"
SPEECH_RMS = 3000.0  # the player's active speech level (int16), as in benchmarks/rooms.py
BABBLE_DB = 15.0     # the three others together this far below the player
# The player's voices (espeak-ng, rate, pitch): what .ci/run installs; one after another, utterance by utterance.
PLAYER_VOICES = (
    ("en-us", 175, None), ("en-gb-x-rp+m3", 165, 40), ("en-us+f2", 180, 60),
    ("en-gb-scotland", 165, None), ("en-029+f4", 170, 55),
)
TALKER_VOICES = ("en+m7", "en-gb+f3", "en-us+m1")
REACTION_S = 0.25  # a player starts talking this long after the game has stopped
HEARD_WITHIN_S = 2.5  # a result this long after the player's last word is not taken for theirs
UNDO_SECONDS = 3.0  # --undo-seconds: "take that back" is said and heard within it
MATCH_LIMIT_S = 900.0  # the watchdog (a misheard move can lengthen a match to 150 turns): a match not won by then ends, saved, and the test says so


class SilentSpeaker:
    """The game's voice into nothing, taking ``seconds_per_word`` per word and ``seconds_per_event`` per
    event sound: ``is_speaking`` is what mutes the microphone, as with loudspeakers. The same promises
    as AudioOutput (one timeline; ``stop`` clears it), at a fraction of real speech's length."""

    has_device = True

    def __init__(self, seconds_per_word: float, seconds_per_event: float) -> None:
        self.seconds_per_word = seconds_per_word
        self.seconds_per_event = seconds_per_event
        self._busy_until = time.monotonic()
        self._lock = threading.Lock()

    def _queue(self, seconds: float) -> None:
        with self._lock:
            self._busy_until = max(time.monotonic(), self._busy_until) + seconds

    def set_table(self, listener: str | None, rules: Any) -> None:
        pass

    def play_events(self, events: list[Any], before: GameState, listener: str | None = None) -> list[Any]:
        self._queue(len(events) * self.seconds_per_event)
        return []

    def speak(self, text: str, direction: str | None = None, interrupt: bool = False) -> None:
        if interrupt:
            self.stop()
        self._queue(len(text.split()) * self.seconds_per_word)

    def cue(self, name: str, azimuth: float = 0.0, gain: float = 1.0) -> None:
        pass

    def stop(self) -> None:
        with self._lock:
            self._busy_until = time.monotonic()

    def wait_idle(self, timeout: float | None = None) -> bool:
        remaining = self._busy_until - time.monotonic()
        if remaining > 0:
            time.sleep(remaining if timeout is None else min(remaining, timeout))
        return time.monotonic() >= self._busy_until

    def is_speaking(self) -> bool:
        return time.monotonic() < self._busy_until

    def set_rate(self, rate: int) -> int:
        return rate

    def set_speech_volume(self, volume: float) -> None:
        pass

    def set_cue_volume(self, volume: float) -> None:
        pass

    def set_mono(self, mono: bool) -> None:
        pass

    def close(self) -> None:
        pass


class RecordingResolver(Resolver):
    """The match's resolver, also noting which open question each grammar it built was for: the player
    hears the question the game asked, and this is how the script knows it exactly. One record for every
    resolver of the match (a changed setting makes a new one while a turn's dialog keeps the old)."""

    dialogs: dict[int, tuple[Grammar, Dialog]] = {}
    _dialogs_lock = threading.Lock()

    def phrase_set(self, state: GameState, seat: str, dialog: Dialog = None, listing: bool = False) -> Grammar:
        grammar = super().phrase_set(state, seat, dialog, listing)
        with self._dialogs_lock:
            self.dialogs[id(grammar)] = (grammar, dialog)  # the grammar is kept, so its id stays its own
        return grammar

    @classmethod
    def dialog_of(cls, grammar: Grammar) -> tuple[bool, Dialog]:
        with cls._dialogs_lock:
            found = cls.dialogs.get(id(grammar))
        return (True, found[1]) if found is not None and found[0] is grammar else (False, None)


class ObservedMatch(Match):
    """The match, noting which moves were taken back (their index in the history)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.undone: list[int] = []
        super().__init__(*args, **kwargs)

    def _new_resolver(self) -> Resolver:
        return RecordingResolver(super()._new_resolver().settings)

    def take_back(self) -> None:
        last = self.last_move
        try:
            super().take_back()
        except TookBack:
            assert last is not None
            self.undone.append(len(last.before.history))
            raise


class ObservedHub(InputHub):
    """The match's hub; each time the game starts waiting for speech, ``on_listen`` is told (game thread)."""

    def __init__(self, on_listen: Callable[[Grammar], None]) -> None:
        super().__init__()
        self.on_listen = on_listen
        self.listening = threading.Event()

    def listen(self, grammar: Grammar, timeout: float | None = None) -> Utterance | EndOfInput | None:
        self.on_listen(grammar)
        self.listening.set()
        try:
            return super().listen(grammar, timeout)
        finally:
            self.listening.clear()


class HeardTap:
    """The voice source as the hub sees it, noting each utterance on its way in (listening thread)."""

    live = True

    def __init__(self, source: VoiceSource, note: Callable[[Utterance], None]) -> None:
        self.source = source
        self.note = note
        self._push: Push | None = None

    def start(self, push: Push) -> None:
        self._push = push

        def noted(item: Utterance | EndOfInput) -> None:
            if isinstance(item, Utterance):
                self.note(item)
            push(item)

        self.source.start(noted)

    def end(self) -> None:
        """Stop the match (saved, not won): the watchdog's way out."""
        if self._push is not None:
            self._push(END_OF_INPUT)

    def set_grammar(self, grammar: Grammar) -> None:
        self.source.set_grammar(grammar)

    def close(self) -> None:
        self.source.close()


@dataclass
class Listening:
    """One moment the game waited for speech, as the player saw it."""

    seq: int
    state: GameState
    grammar: Grammar
    dialog: Dialog
    known: bool  # the open question was found (else taken as none)


@dataclass
class Arrival:
    at: float
    utterance: Utterance
    listening: Listening | None  # what the game was waiting for when it came
    said: int | None = None  # index of the player's utterance it was taken for (None: the others' talk)
    took_back: int | None = None  # or index of the player's "take that back" it was taken for


@dataclass
class Said:
    text: str
    voice: str
    turn: int  # len(history) when said: the move the player means is intents[turn]
    seq: int
    dialog: Dialog
    started: float
    ended: float
    heard: str | None = None
    confidences: tuple[float, ...] = ()
    alternatives: tuple[str, ...] = ()
    arrived: float | None = None  # when the result taken for this utterance came
    outcome: str = "unheard"  # right, asked, rejected, wrong, or unheard (no result came)
    played: str | None = None  # the move what was heard means at once, if it is one
    game_said: list[str] = field(default_factory=list)


@dataclass
class TakeBack:
    """The player's "take that back" after the game played a move they had not said."""

    turn: int  # the index in the history of the move taken back
    started: float
    ended: float
    heard: Heard | None = None  # None: no result came for it
    listening: Listening | None = None  # what the game was waiting for when it came


class Player:
    """The person in the red seat, on a thread of their own."""

    def __init__(self, room: LiveRoom, speaker: SilentSpeaker, seed: int) -> None:
        self.room = room
        self.speaker = speaker
        self.rng = random.Random(seed)
        self.brain = make_bot("bot", seed=seed)
        self.voices = itertools.cycle(PLAYER_VOICES)
        self.judge = Resolver()
        self.match: ObservedMatch | None = None
        self.hub: ObservedHub | None = None
        self.intents: dict[int, Move] = {}
        self.plans: dict[int, list[str]] = {}
        self.tries: dict[tuple[int, str], int] = {}  # (turn, what was meant): how often it was not understood
        self.said: list[Said] = []
        self.arrivals: list[Arrival] = []
        self.printed: list[tuple[float, str]] = []
        self.listened_at: list[float] = []
        self.unknown_dialogs = 0
        self._latest: Listening | None = None
        self._seq = 0
        self._acted = 0
        self._again: int | None = None  # the game's wait the player speaks into once more (nothing was heard)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._clips: dict[tuple[str, str], np.ndarray] = {}
        self.take_backs: list[TakeBack] = []  # said when the game played what the player had not said

    # The game's side (game thread and listening thread).

    def on_listen(self, grammar: Grammar) -> None:
        assert self.match is not None
        known, dialog = RecordingResolver.dialog_of(grammar)
        with self._lock:
            self.listened_at.append(time.monotonic())
            self._seq += 1
            self._latest = Listening(self._seq, self.match.state.copy(), grammar, dialog, known)

    def on_heard(self, utterance: Utterance) -> None:
        with self._lock:
            self.arrivals.append(Arrival(time.monotonic(), utterance, self._latest))

    def on_print(self, line: str) -> None:
        self.printed.append((time.monotonic(), line))

    # The player's side.

    def run(self) -> None:
        while not self._stop.is_set():
            listening = self._ready()
            if listening is None:
                time.sleep(0.02)
                continue
            meaning = self._decide(listening)
            self._speak(self._other_words(meaning, listening), meaning, listening)

    def stop(self) -> None:
        self._stop.set()

    def _ready(self) -> Listening | None:
        """The game's current wait, once it is waiting, silent for a moment, and not answered yet."""
        assert self.hub is not None
        with self._lock:
            latest = self._latest
        if latest is None or not self.hub.listening.is_set():
            return None
        if latest.seq <= self._acted and latest.seq != self._again:
            return None
        quiet_from = time.monotonic()
        while time.monotonic() - quiet_from < REACTION_S:
            if self.speaker.is_speaking():
                quiet_from = time.monotonic()
            if self._stop.wait(0.02):
                return None
        with self._lock:
            return latest if self._latest is latest and self.hub.listening.is_set() else None

    def _decide(self, listening: Listening) -> str:
        state, dialog = listening.state, listening.dialog
        if not listening.known:
            self.unknown_dialogs += 1
        turn = len(state.history)
        if turn not in self.intents:
            self.intents[turn] = self.brain.choose(state, legal_moves(state))
        intent = self.intents[turn]
        phrases = set(listening.grammar.phrases)
        if isinstance(dialog, Confirm):
            return "yes" if dialog.move == intent else "no"
        if isinstance(dialog, Ask):
            return self._answer(dialog, intent, phrases)
        plan = self.plans.setdefault(turn, self._plan(state, intent, phrases))
        return plan.pop(0) if plan else intent.phrase

    def _other_words(self, meaning: str, listening: Listening) -> str:
        """After saying ``meaning`` twice in vain, a person says it another way: the other phrases of the
        moment that mean the same, longest (easiest to hear) first, every third try the first words again."""
        state, dialog = listening.state, listening.dialog
        tries = self.tries.get((len(state.history), meaning), 0)
        if tries < 2 or tries % 3 == 0:
            return meaning
        meant = self.judge.resolve(state, PLAYER, Heard(meaning), dialog)
        same = sorted((phrase for phrase in listening.grammar.phrases if phrase != meaning
                       and self.judge.resolve(state, PLAYER, Heard(phrase), dialog) == meant),
                      key=lambda phrase: (-len(phrase), phrase))
        return same[(tries - 1) % len(same)] if same else meaning

    def _plan(self, state: GameState, intent: Move, phrases: set[str]) -> list[str]:
        """What the player says before the move itself, this turn (usually nothing)."""
        roll = self.rng.random()
        if roll < 0.07:
            return ["my cards"]
        if roll < 0.14:
            return ["read the board"]
        if roll < 0.21:
            return ["options"]  # then "option <n>" for the move: see _answer
        card_alone = f"play {card_word(intent.card)}" if intent.card else ""
        same_card = [move for move in legal_moves(state) if move.card == intent.card]
        if roll < 0.33 and card_alone in phrases and len(same_card) > 1:
            return [card_alone]  # the game asks what the card should do
        return []

    def _answer(self, ask: Ask, intent: Move, phrases: set[str]) -> str:
        for number, choice in enumerate(ask.choices, 1):
            then = choice.then
            if then == intent or (isinstance(then, Ask) and intent in then.moves()):
                option = "option " + " ".join(number_to_words(number))
                ways = ([option] if ask.topic is Topic.OPTION else []) + list(choice.answers) + [option]
                for way in ways:
                    if way in phrases:
                        return way
        return "cancel"  # the question does not lead to the move meant

    def _say_aloud(self, text: str) -> tuple[Any, str]:
        """Says ``text`` into the room in the next voice; returns when it has been said, and in which voice."""
        voice, rate, pitch = next(self.voices)
        key = (text, voice)
        if key not in self._clips:
            speech = synthesise(text, voice, rate, pitch).astype(np.float64)
            self._clips[key] = speech * (SPEECH_RMS / np.sqrt(speech_power(speech)))
        spoken = self.room.say(self._clips[key])
        spoken.done.wait(timeout=30.0)
        return spoken, voice

    def _take_back(self, turn: int) -> None:
        """The game played a move the player never said: like a person, they take it back at once (issue 12)."""
        quiet_from = time.monotonic()
        while time.monotonic() - quiet_from < REACTION_S:
            if self.speaker.is_speaking():
                quiet_from = time.monotonic()
            time.sleep(0.02)
        spoken, _ = self._say_aloud("take that back")
        take_back = TakeBack(turn, spoken.started, spoken.ended)
        with self._lock:
            self.take_backs.append(take_back)
            index = len(self.take_backs) - 1
        mine = self._claim(spoken, lambda arrival: setattr(arrival, "took_back", index))
        if mine is not None:
            take_back.heard, take_back.listening = mine.utterance.heard, mine.listening

    def _claim(self, spoken: Any, mark: Callable[[Arrival], None]) -> Arrival | None:
        """The result taken for what the player just said, marked as theirs with ``mark``; None if none came.

        Taken for the player's: the first result from shortly after they began (a result that comes sooner was
        the end of something before) until HEARD_WITHIN_S after their last word."""
        earliest, deadline = spoken.started + 0.3, spoken.ended + HEARD_WITHIN_S
        while time.monotonic() < deadline and not self._stop.is_set():
            with self._lock:
                mine = next((a for a in self.arrivals if a.said is None and a.took_back is None
                             and earliest < a.at < deadline), None)
                if mine is not None:
                    mark(mine)
                    return mine
            time.sleep(0.02)
        return None

    def _speak(self, text: str, meaning: str, listening: Listening) -> None:
        spoken, voice = self._say_aloud(text)
        said = Said(text, voice, len(listening.state.history), listening.seq, listening.dialog,
                    spoken.started, spoken.ended)
        with self._lock:
            self.said.append(said)
            index = len(self.said) - 1
        self._acted, self._again = listening.seq, None
        mine = self._claim(spoken, lambda arrival: setattr(arrival, "said", index))
        if mine is None:
            self._again = listening.seq  # nothing came back: say it again while the game still waits for it
            self._tried(listening, meaning)
            return
        heard = mine.utterance.heard
        said.heard, said.arrived = heard.text, mine.at
        said.confidences, said.alternatives = heard.word_confidences, heard.alternatives
        said.outcome = self._judge(listening, said, mine.utterance)
        if said.outcome != "right":
            self._tried(listening, meaning)
        if said.outcome == "wrong" and said.played:
            self._take_back(said.turn)

    def _tried(self, listening: Listening, meaning: str) -> None:
        key = (len(listening.state.history), meaning)
        self.tries[key] = self.tries.get(key, 0) + 1

    def _judge(self, listening: Listening, said: Said, utterance: Utterance) -> str:
        if utterance.stale or not utterance.heard.text.strip():
            return "rejected"
        state, dialog = listening.state, listening.dialog
        meant = self.judge.resolve(state, PLAYER, Heard(said.text), dialog)
        got = self.judge.resolve(state, PLAYER, utterance.heard, dialog)
        if isinstance(got, Move):
            said.played = got.phrase
        if got == meant:
            return "right"
        if isinstance(got, NotUnderstood):
            return "rejected"
        if isinstance(got, (Confirm, Ask)):
            return "asked"
        return "wrong"


def kind_of(result: Resolution | None) -> str:
    if result is None or isinstance(result, NotUnderstood):
        return "nothing"
    if isinstance(result, (Confirm, Ask)):
        return "question"
    return "move" if isinstance(result, Move) else "command"


def asks_undo(judge: Resolver, take_back: TakeBack) -> bool:
    """What the game heard for the player's "take that back" asks it to undo (as heard, confidences and all)."""
    listening, heard = take_back.listening, take_back.heard
    if listening is None or heard is None or not heard.text:
        return False
    result = judge.resolve(listening.state, PLAYER, heard, listening.dialog)
    return isinstance(result, Command) and result.name is CommandName.UNDO


def report(player: Player, match: ObservedMatch, outcome_winner: Any, turns: int, room: LiveRoom,
           fed: list[np.ndarray], fed_at: list[float], began: float) -> dict[str, Any]:
    history = match.state.history
    red_moves = [(index, move) for index, (colour, move) in enumerate(history) if colour == PLAYER]
    wrong_moves, forced_moves = [], 0
    for index, move in red_moves:
        intent = player.intents.get(index)
        forced = intent is None and move.kind is MoveKind.BURN_HAND
        forced_moves += forced
        if not forced and move != intent:
            heard_as = [s.heard for s in player.said if s.turn == index and s.played == move.phrase]
            wrong_moves.append({"turn": index, "played": move.phrase, "meant": intent.phrase if intent else None,
                                "heard_as": heard_as})
    for said in player.said:  # what the game said in answer to each utterance, until it listened again
        if said.arrived is not None:
            upto = next((at for at in player.listened_at if at > said.arrived), said.arrived + 5.0)
            said.game_said = [line for at, line in player.printed if said.arrived <= at <= upto]
    spans = [(s.started, s.ended) for s in player.said] + [(t.started, t.ended) for t in player.take_backs]
    windows = [(started, ended + HEARD_WITHIN_S) for started, ended in spans]
    judge = Resolver()
    others_heard, extra = [], 0
    for arrival in (a for a in player.arrivals if a.said is None and a.took_back is None):
        if any(start < arrival.at < end for start, end in windows):
            extra += 1  # a second result while the player spoke (one utterance cut in two)
            continue
        listening, heard = arrival.listening, arrival.utterance.heard
        result = judge.resolve(listening.state, PLAYER, heard, listening.dialog) if listening and heard.text else None
        others_heard.append({"heard": heard.text, "kind": kind_of(result)})
    written = np.concatenate(room.written) if room.written else np.zeros(0, np.int16)
    captured = np.concatenate(fed) if fed else np.zeros(0, np.int16)
    start = next((i for i in range(0, max(0, len(written) - 320), 320)
                  if len(captured) and np.array_equal(written[i:i + 320], captured[:320])), -1)
    whole = start >= 0 and np.array_equal(captured, written[start:start + len(captured)])
    rate = (len(captured) - len(fed[0])) / (fed_at[-1] - fed_at[0]) if len(fed_at) > 1 else 0.0
    counts = {kind: sum(s.outcome == kind for s in player.said) for kind in ("right", "asked", "rejected", "wrong", "unheard")}
    return {
        "winner": list(outcome_winner) if outcome_winner else None,
        "turns": turns,
        "seconds": time.monotonic() - began,
        "red_moves": len(red_moves),
        "voice_moves": sum(1 for index, move in red_moves if player.intents.get(index) == move),
        "wrong_moves": wrong_moves,
        "take_backs": [{"turn": t.turn, "heard": t.heard.text if t.heard else None, "undo": asks_undo(judge, t)}
                       for t in player.take_backs],
        "undone": match.undone,
        "forced_moves": forced_moves,
        "counts": counts,
        "utterances": [{"said": s.text, "heard": s.heard, "outcome": s.outcome, "voice": s.voice, "turn": s.turn,
                        "confidences": [round(c, 2) for c in s.confidences], "alternatives": list(s.alternatives),
                        "game_said": s.game_said} for s in player.said],
        "others_heard": others_heard,
        "extra_results": extra,
        "unknown_dialogs": player.unknown_dialogs,
        "timeline": sorted(
            [(round(a.at - began, 2), "heard", a.utterance.heard.text, a.said) for a in player.arrivals]
            + [(round(s.started - began, 2), "said", s.text, round(s.ended - began, 2)) for s in player.said]
            + [(round(at - began, 2), "game", line, None) for at, line in player.printed]),
        "stream": {"whole": bool(whole), "captured": len(captured), "written": len(written), "rate": rate,
                   "slips": room.slips, "error": repr(room.error) if room.error else None},
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--pipe", required=True)
    parser.add_argument("--seed", type=int, default=10)  # a first deal whose match is short: 24 moves of red
    parser.add_argument("--seconds-per-word", type=float, default=0.015)
    args = parser.parse_args()
    work = Path(args.out).parent
    home = Path.home()
    if home.resolve() != work.resolve():
        print(f"HOME must be the work folder {work} (its .asoundrc holds the microphone)", file=sys.stderr)
        return 2
    write_asoundrc(home, Path(args.pipe))  # before PortAudio starts: ALSA reads it once

    babble = make_babble(TALKER_VOICES, power=SPEECH_RMS**2 / 10 ** (BABBLE_DB / 10), seconds=40.0, seed=args.seed)
    room = LiveRoom(Path(args.pipe), babble.read, seed=args.seed, keep=True).start()
    speaker = SilentSpeaker(args.seconds_per_word, seconds_per_event=0.005)
    player = Player(room, speaker, seed=args.seed)
    presenter = Presenter(speaker, write=player.on_print)  # type: ignore[arg-type]
    # A player who plays by voice in a noisy room gives themselves time to take a misheard move back.
    settings = Settings(input_device=DEVICE, backend="sphinx", undo_seconds=UNDO_SECONDS)
    source, why = open_voice_source(settings, muted=presenter.is_speaking)
    if source is None:
        room.stop()
        print(f"no voice input: {why}", file=sys.stderr)
        return 3

    fed: list[np.ndarray] = []
    fed_at: list[float] = []
    listener = source.voice.listener
    feed = listener.feed

    def tapped(block: np.ndarray) -> Heard | None:
        fed.append(block)
        fed_at.append(time.monotonic())
        return feed(block)

    listener.feed = tapped  # type: ignore[method-assign]

    hub = ObservedHub(player.on_listen)
    tap = HeardTap(source, player.on_heard)
    hub.add(tap)
    state, _ = new_game(make_rules(2, False, "regular"), seed=args.seed,
                        seats=(Seat(PLAYER, "You", "human"), Seat("green", "Green", "bot")))
    match = ObservedMatch(state, presenter, hub, MatchConfig(work / "match.json", settings=settings))
    player.match, player.hub = match, hub
    thinking = threading.Thread(target=player.run, name="player", daemon=True)
    watchdog = threading.Timer(MATCH_LIMIT_S, tap.end)
    began = time.monotonic()
    thinking.start()
    watchdog.start()
    try:
        outcome = match.run()
    finally:
        watchdog.cancel()
        player.stop()
        thinking.join(timeout=5.0)
        hub.close()
        room.stop()
    result = report(player, match, outcome.winner, outcome.turns, room, fed, fed_at, began)
    Path(args.out).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
