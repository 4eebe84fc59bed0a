"""The live microphone: sounddevice capture, muting while the game speaks, and the listening loop.

The PortAudio callback only copies the block and puts it on a queue; the
listening thread takes blocks off the queue and runs the recogniser. Files
and tests use the very same path by calling ``BlockQueue.callback`` with
blocks shaped as PortAudio delivers them.

No microphone is a normal situation, not a crash: ``open_microphone``
raises ``NoMicrophone`` (a SpeechError) whose message says what is missing,
and the table switches that seat to typed commands.
"""

from __future__ import annotations

import argparse
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Self

import numpy as np

from voicejack.hearing import Grammar, Heard
from voicejack.speech.audio import BLOCK_SAMPLES, SAMPLE_RATE
from voicejack.speech.listening import ListeningGate
from voicejack.speech.recogniser import Recogniser, SpeechError, StreamingRecogniser

TYPED_FALLBACK = "Voice input is off; type your commands instead."


class NoMicrophone(SpeechError):
    """No usable audio input. ``reason`` is one of: 'no-portaudio', 'no-device', 'bad-device', 'stream-failed'."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def import_sounddevice() -> Any:
    """sounddevice, or NoMicrophone saying which system library is missing."""
    try:
        import sounddevice
    except OSError as error:  # raised when libportaudio2 is not installed
        raise NoMicrophone(
            f"audio is unavailable: the PortAudio library could not be loaded ({error}). "
            "Install the Debian package libportaudio2. " + TYPED_FALLBACK,
            "no-portaudio",
        ) from None
    return sounddevice


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    index: int
    name: str
    inputs: int
    outputs: int
    default_rate: float
    host_api: str
    is_default_input: bool
    is_default_output: bool


def list_devices() -> list[DeviceInfo]:
    """Every audio device PortAudio sees (raises NoMicrophone without PortAudio)."""
    sd = import_sounddevice()
    try:
        devices = sd.query_devices()
        apis = sd.query_hostapis()
        default_in, default_out = sd.default.device
    except sd.PortAudioError as error:
        raise NoMicrophone(f"PortAudio could not list devices ({error}). " + TYPED_FALLBACK, "no-device") from None
    result = []
    for index, device in enumerate(devices):
        result.append(
            DeviceInfo(
                index=index,
                name=str(device["name"]),
                inputs=int(device["max_input_channels"]),
                outputs=int(device["max_output_channels"]),
                default_rate=float(device["default_samplerate"]),
                host_api=str(apis[device["hostapi"]]["name"]),
                is_default_input=index == default_in,
                is_default_output=index == default_out,
            )
        )
    return result


def resolve_input_device(spec: str | int | None, devices: list[DeviceInfo] | None = None) -> int | None:
    """``--input-device``: an index or part of a device name (case-insensitive) -> a PortAudio index.

    None means the system default. Raises NoMicrophone naming the inputs there are.
    """
    if spec is None or spec == "":
        return None
    found = devices if devices is not None else list_devices()
    inputs = [d for d in found if d.inputs > 0]
    choices = ", ".join(f"{d.index}: {d.name}" for d in inputs) or "none"
    text = str(spec).strip()
    if text.isdigit():
        for device in inputs:
            if device.index == int(text):
                return device.index
        raise NoMicrophone(f"there is no input device number {text} (inputs: {choices})", "bad-device")
    matches = [d for d in inputs if text.lower() in d.name.lower()]
    exact = [d for d in matches if d.name.lower() == text.lower()]
    if exact:
        return exact[0].index
    if len(matches) == 1:
        return matches[0].index
    if not matches:
        raise NoMicrophone(f"no input device matches {text!r} (inputs: {choices})", "bad-device")
    names = ", ".join(f"{d.index}: {d.name}" for d in matches)
    raise NoMicrophone(f"{text!r} matches several input devices ({names}); give its number", "bad-device")


def add_input_device_argument(parser: argparse.ArgumentParser) -> None:
    """The shared ``--input-device`` and ``--headphones`` options of every command that listens."""
    parser.add_argument(
        "--input-device", metavar="DEVICE",
        help="microphone to listen with: a number or part of a name from 'voicejack devices' (default: the system's)",
    )
    parser.add_argument(
        "--headphones", action="store_true",
        help="the game's voice goes to headphones: keep listening while it speaks (talk over it)",
    )


class BlockQueue:
    """Blocks of int16 samples handed from the audio thread to the listener."""

    def __init__(self, max_blocks: int = 600) -> None:
        self._queue: queue.Queue[np.ndarray] = queue.Queue(maxsize=max_blocks)
        self.dropped = 0
        self.overflows = 0

    def callback(self, indata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        """The PortAudio input callback: copy the first channel and enqueue it; never block.

        The copy is needed (PortAudio reuses ``indata``) and is the only work done here.
        """
        if status:
            self.overflows += 1
        try:
            self._queue.put_nowait(indata[:frames, 0].copy())
        except queue.Full:
            self.dropped += 1  # the listener fell behind by a whole minute: drop rather than block audio

    def get(self, timeout: float | None = None) -> np.ndarray | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def clear(self) -> None:
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return


class Microphone:
    """A 16 kHz mono int16 input stream feeding a BlockQueue; use as a context manager."""

    def __init__(self, device: str | int | None = None, block_samples: int = BLOCK_SAMPLES) -> None:
        self.device_spec = device
        self.block_samples = block_samples
        self.blocks = BlockQueue()
        self._stream: Any = None

    def open(self) -> Self:
        sd = import_sounddevice()
        device = resolve_input_device(self.device_spec)
        try:
            stream = sd.InputStream(
                samplerate=SAMPLE_RATE,
                channels=1,
                dtype="int16",
                blocksize=self.block_samples,
                device=device,
                callback=self.blocks.callback,
            )
            stream.start()
        except sd.PortAudioError as error:
            raise NoMicrophone(f"no microphone could be opened ({error}). " + TYPED_FALLBACK, "no-device") from None
        except ValueError as error:  # sounddevice: no default input device / bad settings
            raise NoMicrophone(f"no microphone could be opened ({error}). " + TYPED_FALLBACK, "no-device") from None
        self._stream = stream
        return self

    def close(self) -> None:
        if self._stream is not None:
            try:
                self._stream.stop()
            finally:
                self._stream.close()
                self._stream = None

    def __enter__(self) -> Self:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_microphone(device: str | int | None = None) -> Microphone:
    """An open Microphone, or NoMicrophone with a message for the player (then use typed input)."""
    return Microphone(device).open()


class Listener:
    """Feeds audio blocks to a recogniser, ignoring the microphone while the game is speaking.

    ``muted`` is asked before every block; while it returns True (the game's
    own voice is playing through speakers) blocks are thrown away, any
    utterance in progress is dropped, and ``guard`` seconds after unmuting
    are thrown away too (the room's echo of the last word). With
    ``headphones=True`` nothing is muted: the microphone cannot hear the game,
    so the player can talk over it (barge-in).
    """

    def __init__(
        self,
        recogniser: Recogniser,
        muted: Callable[[], bool] = lambda: False,
        headphones: bool = False,
        guard: float = 0.2,
    ) -> None:
        self.recogniser = recogniser
        self.muted = muted
        self.headphones = headphones
        self._guard_samples = int(guard * SAMPLE_RATE)
        self._guard_left = 0
        self._was_muted = False
        self.ignored_samples = 0

    def feed(self, block: np.ndarray) -> Heard | None:
        audible = self._audible(block)
        return self.recogniser.accept(audible) if len(audible) else None

    def hear_room(self, block: np.ndarray) -> None:
        """A block heard before there is anything to listen for: muted and guarded as ``feed`` does, and
        what is left only teaches the recogniser the room (StreamingRecogniser.hear_room)."""
        audible = self._audible(block)
        if len(audible) and isinstance(self.recogniser, StreamingRecogniser):
            self.recogniser.hear_room(audible)

    def _audible(self, block: np.ndarray) -> np.ndarray:
        """The part of ``block`` that is neither muted nor in the echo guard (possibly empty)."""
        if not self.headphones and self.muted():
            if not self._was_muted:
                self.recogniser.reset()
                self._was_muted = True
            self.ignored_samples += len(block)
            return block[:0]
        if self._was_muted:
            self._was_muted = False
            self._guard_left = self._guard_samples
            if isinstance(self.recogniser, StreamingRecogniser):
                self.recogniser.expect_answer()
        if self._guard_left > 0:
            skip = min(self._guard_left, len(block))
            self._guard_left -= skip
            self.ignored_samples += skip
            if isinstance(self.recogniser, StreamingRecogniser):
                # The echo is no measure of the room, but the front end (a noise reducer) settles on it,
                # so the first words after the guard do not meet its start-up.
                self.recogniser.hear_room(block[:skip], learn_floor=False)
            block = block[skip:]
        return block

    def feed_all(self, blocks: Iterable[np.ndarray]) -> Iterator[Heard]:
        """Every Heard in a finite stream of blocks (a file), including one cut off by its end."""
        for block in blocks:
            heard = self.feed(block)
            if heard is not None:
                yield heard
        heard = self.recogniser.finish()
        if heard is not None:
            yield heard

    def listen(self, source: BlockQueue, timeout: float | None = None) -> Heard | None:
        """Wait for the next utterance from ``source`` (None after ``timeout`` seconds without one)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if remaining == 0.0:
                return None
            block = source.get(timeout=0.1 if remaining is None else min(0.1, remaining))
            if block is None:
                continue
            heard = self.feed(block)
            if heard is not None:
                return heard


class VoiceInput:
    """Listening on a background thread: the game thread sets grammars and takes what was heard.

    Recognisers are not thread-safe, so the game thread never touches one
    directly: ``set_grammar`` leaves the newest grammar for the listening
    thread, which installs it between blocks (a recogniser in mid-utterance
    defers it further, see StreamingRecogniser). Each result comes with the
    grammar it was heard under, so a caller can ignore one that belongs to a
    position the game has already left. Results wait in a queue for
    ``heard()``, or, once ``deliver_to`` has named a receiver, go straight
    from the listening thread to it (no relay thread in between).

    With a ``gate`` (listening.py) the recogniser listens with the gate's
    grammar (the wake word's sentences added), and only what the gate lets
    through comes out, with the game's own grammar.
    """

    def __init__(
        self,
        recogniser: StreamingRecogniser,
        device: str | int | None = None,
        muted: Callable[[], bool] = lambda: False,
        headphones: bool = False,
        source: BlockQueue | None = None,
        gate: ListeningGate | None = None,
    ) -> None:
        self.recogniser = recogniser
        self.listener = Listener(recogniser, muted=muted, headphones=headphones)
        self.gate = gate
        self._device = device
        self._source = source
        self._microphone: Microphone | None = None
        self._grammar_lock = threading.Lock()
        self._next_grammar: Grammar | None = None
        self._results: queue.Queue[tuple[Heard, Grammar | None]] = queue.Queue()
        self._receiver: Callable[[Heard, Grammar | None], None] | None = None
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None
        #: Called once, on the listening thread, when listening stops on an error (the caller tells the player).
        self.on_failure: Callable[[BaseException], None] | None = None

    def start(self) -> Self:
        """Open the microphone (NoMicrophone if there is none) and start listening."""
        if self._source is None:
            self._microphone = open_microphone(self._device)
            self._source = self._microphone.blocks
        self.recogniser.new_stream()
        self._running.set()
        self._thread = threading.Thread(target=self._run, name="voicejack-listener", daemon=True)
        self._thread.start()
        return self

    def set_grammar(self, grammar: Grammar) -> None:
        if self.gate is not None:
            grammar = self.gate.listened_grammar(grammar)
        with self._grammar_lock:
            self._next_grammar = grammar

    def deliver_to(self, receiver: Callable[[Heard, Grammar | None], None]) -> None:
        """Hand every later result, with its grammar, to ``receiver``, called on the listening thread."""
        self._receiver = receiver
        while True:
            try:
                receiver(*self._results.get_nowait())
            except queue.Empty:
                return

    def heard(self, timeout: float | None = None) -> tuple[Heard, Grammar | None] | None:
        """The next utterance and the grammar it was heard under, or None after ``timeout`` seconds."""
        if self.error is not None:
            raise SpeechError(f"listening stopped: {self.error}") from self.error
        try:
            return self._results.get(timeout=timeout)
        except queue.Empty:
            return None

    def stop(self) -> None:
        self._running.clear()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        if self._microphone is not None:
            self._microphone.close()
            self._microphone = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def hear_block(self, block: np.ndarray) -> tuple[Heard, Grammar | None] | None:
        """One block of the stream, on the listening thread (or a benchmark's loop): what it completed
        that the gate lets through, with the game's grammar it was heard under."""
        self._install_grammar()
        if self.recogniser.grammar is None:
            self.listener.hear_room(block)
            return None
        under: Grammar | None = self.recogniser.grammar
        gate = self.gate
        if gate is not None and (self.listener.headphones or not self.listener.muted()):
            gate.advance(len(block), self.recogniser.in_utterance)
        heard = self.listener.feed(block)
        if heard is None:
            return None
        if gate is not None:
            admitted = gate.admit(heard, under)
            if admitted is None:
                return None
            heard, under = admitted, gate.game_grammar(under)
        return heard, under

    def _install_grammar(self) -> None:
        with self._grammar_lock:
            grammar, self._next_grammar = self._next_grammar, None
        if grammar is not None:
            self.recogniser.set_grammar(grammar)

    def _run(self) -> None:
        assert self._source is not None
        try:
            while self._running.is_set():
                block = self._source.get(timeout=0.1)
                if block is None:
                    self._install_grammar()
                    continue
                result = self.hear_block(block)
                if result is None:
                    continue
                receiver = self._receiver
                if receiver is not None:
                    receiver(*result)
                else:
                    self._results.put(result)
        except Exception as error:  # noqa: BLE001 - reported to the game thread by heard() and on_failure
            self.error = error
            if self.on_failure is not None:
                self.on_failure(error)
