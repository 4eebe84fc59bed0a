"""Audio speed: event-to-sound latency, speech render time, mixer callback cost.

    python3 benchmarks/audio.py [--trials N]

1. Event to first sample: wall time from handing a move's events to
   AudioOutput.play_events() until the first sample of its first cue is
   written into an output buffer. Measured with the wall-clock paced sink
   (the same mixer and block size a sound card would pull, 512 frames at
   48 kHz), so it includes the wait for the next callback but not the
   sound card's own output latency (add the stream's reported latency).
2. Speech render time per sentence, cold (never rendered) and cached, for
   each synthesiser available, with the real-time factor.
3. Mixer callback CPU time per 512-frame buffer (budget: 10.7 ms),
   median and 95th percentile, for increasingly busy mixes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voicejack.audio.cuenames import Cue  # noqa: E402
from voicejack.audio.mixer import Mixer  # noqa: E402
from voicejack.audio.output import AudioOutput  # noqa: E402
from voicejack.audio.tts import SpeechRenderer  # noqa: E402
from voicejack.engine import legal_moves, make_rules, new_game, play  # noqa: E402
from voicejack.engine.board import HOME, marble_id  # noqa: E402
from voicejack.engine.events import Event  # noqa: E402
from voicejack.engine.state import GameState, board_from_marbles  # noqa: E402

RATE = 48000
BLOCK = 512
SENTENCES = (
    "Your turn. You hold a king, a six, a four and a nine.",
    "Red 1 walks twelve cells to cell 17, one cell behind blue 2.",
    "Blue plays a queen: blue 3 lands on cell 40 and sends green 1 home.",
    "Didn't catch that. Say a card, or say help.",
    "Green has finished their marbles and now plays on yellow's.",
    "Red 2 enters the safe zone at place 4.",
)


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def table(title: str, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def queen_walk_events() -> tuple[GameState, list[Event]]:
    state, _ = new_game(make_rules(players=4, teams=True), seed=3)
    state = state.copy()
    marbles = [HOME] * 16
    marbles[marble_id("red", 1)] = 5
    marbles[marble_id("blue", 1)] = 17
    state.marbles = marbles
    state.board = board_from_marbles(marbles)
    state.turn = "red"
    state.hands["red"] = ["Q"]
    move = next(m for m in legal_moves(state) if m.card == "Q")
    return state, play(state, move)[1]


def event_latency(trials: int) -> list[tuple[str, ...]]:
    state, events = queen_walk_events()
    out = AudioOutput(device=None, play_to_device=False, notify=lambda m: None, on_text=None, headphones=True)
    first_sound: list[float] = []
    original = out.mixer.mix_into

    def watching(block: np.ndarray) -> None:
        original(block)
        if first_sound and first_sound[-1] < 0 and block.any():
            first_sound[-1] = time.perf_counter()

    out.mixer.mix_into = watching  # type: ignore[method-assign,assignment]
    scheduling: list[float] = []
    latency: list[float] = []
    for trial in range(trials):
        if trial == 0:
            out.cues._stereo.clear()  # the very first move spatialises every cell it steps on
        first_sound.append(-1.0)
        started = time.perf_counter()
        out.play_events(events, state, listener="red")
        scheduling.append(time.perf_counter() - started)
        while first_sound[-1] < 0:
            time.sleep(0.0005)
        latency.append(first_sound[-1] - started)
        out.stop()
        out.wait_idle(1.0)
    out.close()
    ms = 1000.0
    return [
        ("play_events() call: sonify + spatialise + queue (first move, cold cache)", f"{scheduling[0] * ms:.2f}", "-"),
        ("play_events() call, warm cache", f"{statistics.median(scheduling[1:]) * ms:.2f}",
         f"{percentile(scheduling[1:], 95) * ms:.2f}"),
        ("event to first sample in the output buffer", f"{statistics.median(latency) * ms:.1f}",
         f"{percentile(latency, 95) * ms:.1f}"),
    ]


def speech_times() -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for backend in ("pyttsx3", "espeak-ng"):
        renderer = SpeechRenderer((backend,))
        if not renderer.available:
            rows.append((backend, "unavailable", "-", "-", "-"))
            continue
        renderer.render("Warm up.", None, 175, RATE)
        cold, cached, audio_seconds = [], [], []
        for sentence in SENTENCES:
            started = time.perf_counter()
            rendered = renderer.render(sentence, None, 175, RATE)
            cold.append(time.perf_counter() - started)
            audio_seconds.append(rendered.audio.size / RATE)
            started = time.perf_counter()
            assert renderer.render(sentence, None, 175, RATE).cached
            cached.append(time.perf_counter() - started)
        renderer.close()
        factor = sum(audio_seconds) / sum(cold)
        rows.append((backend, f"{statistics.median(cold) * 1000:.1f}", f"{max(cold) * 1000:.1f}",
                     f"{statistics.median(cached) * 1e6:.0f} µs", f"{factor:.0f}x"))
    return rows


def callback_cost(blocks: int) -> list[tuple[str, ...]]:
    out = AudioOutput(realtime=False, notify=lambda m: None, on_text=None)
    speech = np.ascontiguousarray(np.random.default_rng(0).uniform(-0.3, 0.3, (RATE * 30, 2)).astype(np.float32))
    cue = out.cues.stereo(Cue.WIN, 30.0, True)
    step = out.cues.stereo(Cue.STEP_RED, -60.0, True)

    def scenario(voices: int, with_speech: bool) -> Callable[[Mixer], None]:
        def setup(mixer: Mixer) -> None:
            if with_speech:
                mixer.new_speech("bench").deliver(speech)
            for index in range(voices):
                long_cue = np.tile(cue if index % 2 else step, (60, 1))  # long enough to last the measurement
                mixer.play(long_cue, 0, gain=1.5)
        return setup

    def walks_in_mono(mixer: Mixer) -> None:
        mixer.mono = True
        for _ in range(30):  # one walk after another, each step placed on the timeline as it comes due
            mixer.queue_cues([(step, index * RATE // 7, 1.0) for index in range(12)])

    cases = (
        ("silence", scenario(0, False)),
        ("speech only", scenario(0, True)),
        ("1 cue", scenario(1, False)),
        ("16 cues + speech (ducked)", scenario(16, True)),
        ("64 cues + speech (limiter working)", scenario(64, True)),
        ("timeline of 12-step walks, mono", walks_in_mono),
    )
    rows: list[tuple[str, ...]] = []
    budget = BLOCK / RATE
    for name, setup in cases:
        mixer = Mixer(RATE)
        setup(mixer)
        block = np.zeros((BLOCK, 2), np.float32)
        for _ in range(20):
            mixer.mix_into(block)
        times = []
        for _ in range(blocks):
            started = time.perf_counter()
            mixer.mix_into(block)
            times.append(time.perf_counter() - started)
        median, p95 = statistics.median(times), percentile(times, 95)
        rows.append((name, f"{median * 1e6:.0f}", f"{p95 * 1e6:.0f}", f"{p95 / budget * 100:.1f}%"))
    out.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30, help="moves played for the latency measurement")
    parser.add_argument("--blocks", type=int, default=2000, help="buffers mixed per callback scenario")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, numpy {np.__version__}; {RATE} Hz, {BLOCK}-frame buffers "
          f"({BLOCK / RATE * 1000:.1f} ms)")
    table("Event to sound (a queen's walk, 12 steps, headphones), ms", ("measure", "median", "p95"),
          event_latency(args.trials))
    table("Speech render per sentence (6 game sentences, 175 wpm)",
          ("synthesiser", "cold median ms", "cold max ms", "cached median", "real-time factor"), speech_times())
    table(f"Mixer callback CPU per {BLOCK}-frame buffer, µs", ("mix", "median", "p95", "p95 / budget"),
          callback_cost(args.blocks))


if __name__ == "__main__":
    main()
