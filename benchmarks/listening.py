"""Listening modes benchmark: what each of --listen open, wake and push does with moves, commands and chatter.

    taskset -c 0 python3 benchmarks/listening.py --quick        # 16 positions, quiet and babble (~3 min)
    taskset -c 0 python3 benchmarks/listening.py                # 60 positions, every voice style, + held-out
    taskset -c 0 python3 benchmarks/listening.py --parts held-out --backend sphinx+whisper+moonshine

The corpus is benchmarks/asr.py's (its positions, voices, rooms and table
chatter; that module is only read). Each utterance is streamed in 20 ms
blocks through the real listening path, VoiceInput.hear_block with a
ListeningGate, exactly as the microphone thread runs it, and what comes out
is resolved by the command language (every chatter line of asr.py is
added once more, so each room hears at least 30 of them):

    open   the utterance as it is
    wake   moves, commands and answers said after the wake word: every other
           one in one breath ("jackaroo, play seven red one five"), the rest
           as two utterances, the wake word alone and, a second later, the
           command; chatter said as it is (no wake word)
    push   the key pressed just before moves, commands and answers; chatter
           said with the microphone closed

Outcomes: right / asked / wrong / rejected ("didn't catch that") as in
asr.py, and ignored: the gate let nothing through, so the game said
nothing. For chatter, ignored is the goal; "woke" counts chatter taken for
the wake word said alone (ignored, but the tick sounds and the next few
seconds would be taken as a command). "wake heard" is the share of
utterances said with the wake word in which the gate took the wake word.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asr  # noqa: E402
import rooms  # noqa: E402
import voices as voice_bank  # noqa: E402
from voicejack.language import Heard, resolve  # noqa: E402
from voicejack.speech.audio import BLOCK_SAMPLES, SAMPLE_RATE, blocks  # noqa: E402
from voicejack.speech.listening import GateEvent, ListeningGate, ListenMode, WakeWord  # noqa: E402
from voicejack.speech.microphone import BlockQueue, VoiceInput  # noqa: E402
from voicejack.speech.recogniser import StreamingRecogniser  # noqa: E402

PAUSE_BETWEEN_PARTS_S = 1.0  # "jackaroo" ... "read the board"
OUTCOMES = ("right", "asked", "wrong", "rejected", "ignored")
CHATTER_OUTCOMES = ("move", "command", "asked", "rejected", "ignored")


def with_all_chatter(split: asr.Split) -> asr.Split:
    """The split with every chatter line of asr.py said once more, in its positions by its voices: asr.py has
    one chatter line every other position, too few to see a rate near zero."""
    said = [item for item in split.items if item.kind != "chatter"]
    extra = [
        asr.Item(said[index % len(said)].state, said[index % len(said)].seat, said[index % len(said)].grammar, line,
                 said[(index * 3 + 1) % len(said)].voice, None, "chatter")
        for index, line in enumerate(asr.CHATTER)
    ]
    return asr.Split(split.name, split.items + extra, split.babble, split.seed)


def said_speech(item: asr.Item, mode: ListenMode, wake: str, index: int) -> tuple[np.ndarray, bool]:
    """The speech of one item in ``mode`` and whether it carries the wake word."""
    if mode is not ListenMode.WAKE or item.kind == "chatter":
        return voice_bank.synthesise(item.text, item.voice), False
    if index % 2 == 0:
        return voice_bank.synthesise(f"{wake}, {item.text}", item.voice), True
    gap = np.zeros(int(PAUSE_BETWEEN_PARTS_S * SAMPLE_RATE), dtype=np.int16)
    parts = [voice_bank.synthesise(wake, item.voice), gap, voice_bank.synthesise(item.text, item.voice)]
    return np.concatenate(parts), True


def stream(recogniser: StreamingRecogniser, gate: ListeningGate, item: asr.Item, samples: np.ndarray) -> Heard | None:
    """The first thing the gate lets through while ``samples`` stream in, as the listening thread does it."""
    voice = VoiceInput(recogniser, source=BlockQueue(), gate=gate)
    recogniser.new_stream()
    voice.set_grammar(item.grammar)
    found: Heard | None = None
    for block in blocks(samples, BLOCK_SAMPLES):
        result = voice.hear_block(block)
        if result is not None and found is None:
            found = result[0]
    recogniser.reset()
    return found


def run_mode(recogniser: StreamingRecogniser, split: asr.Split, mode: ListenMode, condition: str,
             wake: WakeWord) -> tuple[dict[str, dict[str, int]], list[bool]]:
    counts: dict[str, dict[str, int]] = {kind: {} for kind in asr.KINDS}
    detected: list[bool] = []
    for index, item in enumerate(split.items):
        woke = [False]

        def note(event: GateEvent, flag: list[bool] = woke) -> None:
            if event is GateEvent.WOKE:
                flag[0] = True

        gate = ListeningGate(mode, wake, knows=getattr(recogniser, "knows", None), on_event=note)
        speech, with_wake = said_speech(item, mode, wake.word, index)
        chatter = [s for key, said in split.babble.items() if key != item.voice.name for s in said]
        clip = rooms.make_clip(speech, condition, split.seed * 100_000 + index, chatter)
        if mode is ListenMode.PUSH and item.kind != "chatter":
            gate.push_to_talk()
        heard = stream(recogniser, gate, item, clip.samples)
        if with_wake:
            detected.append(woke[0] or heard is not None)
        elif woke[0]:
            counts[item.kind]["ticked"] = counts[item.kind].get("ticked", 0) + 1  # a false wake: the tick sounded
        if heard is None:
            kind = "ignored"
        else:
            result = resolve(item.state, item.seat, heard, item.dialog)
            kind = asr.chatter_outcome(result) if item.kind == "chatter" else asr.outcome(result, item.expected)
        counts[item.kind][kind] = counts[item.kind].get(kind, 0) + 1
    return counts, detected


def percent(counts: dict[str, int], key: str) -> str:
    total = sum(counts.values())
    return f"{100.0 * counts.get(key, 0) / total:.1f}" if total else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="16 positions, each voice at its own rate and pitch")
    parser.add_argument("--positions", type=int, default=None, help="positions per part (default 60, --quick 16)")
    parser.add_argument("--parts", default=None, help="tuning,held-out (default both; --quick: tuning)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--rooms", default="quiet,babble", help=f"some of {', '.join(rooms.CONDITIONS)}")
    parser.add_argument("--modes", default="open,wake,push")
    parser.add_argument("--wake-word", default="jackaroo")
    parser.add_argument("--sensitivities", default="0.5", help="wake mode at each of these (comma separated)")
    parser.add_argument("--backend", default="sphinx",
                        help="the recogniser: sphinx (default, quick), or any --backend the game takes, e.g. "
                             "sphinx+whisper+moonshine")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    parts = (args.parts or ("tuning" if args.quick else "tuning,held-out")).split(",")
    count = args.positions or (16 if args.quick else 60)
    splits = []
    if "tuning" in parts:
        splits.append(with_all_chatter(asr.build_split("tuning", count, args.seed, voice_bank.TUNING_FAMILIES,
                                                       args.quick)))
    if "held-out" in parts:
        splits.append(with_all_chatter(asr.build_split("held-out", count, args.seed + 1, voice_bank.HELD_OUT_FAMILIES,
                                                       args.quick)))
    from voicejack.speech import make_recogniser

    recogniser = make_recogniser(args.backend)
    runs: list[tuple[str, ListenMode, WakeWord]] = []
    for name in args.modes.split(","):
        mode = ListenMode(name)
        if mode is ListenMode.WAKE:
            runs += [(f"wake {s}", mode, WakeWord.of(args.wake_word, float(s))) for s in args.sensitivities.split(",")]
        else:
            runs.append((name, mode, WakeWord.of(args.wake_word)))
    conditions = [c for c in args.rooms.split(",") if c]
    print(f"corpus ready in {time.perf_counter() - started:.0f} s; "
          + "; ".join(f"{s.name}: {len(s.items)} utterances per room" for s in splits))
    said_rows, chatter_rows, wake_rows = [], [], []
    for split in splits:
        for label, mode, wake in runs:
            for condition in conditions:
                counts, detected = run_mode(recogniser, split, mode, condition, wake)
                for kind in ("moves", "commands", "answers"):
                    row = counts[kind]
                    said_rows.append(f"| {split.name} | {label} | {condition} | {kind} | {sum(row.values())} | "
                                     + " | ".join(percent(row, key) for key in OUTCOMES) + " |")
                row = counts["chatter"]
                ticked = row.pop("ticked", 0)
                chatter_rows.append(f"| {split.name} | {label} | {condition} | {sum(row.values())} | "
                                    + " | ".join(percent(row, key) for key in CHATTER_OUTCOMES)
                                    + f" | {percent({'t': ticked, 'n': sum(row.values()) - ticked}, 't')} |")
                if detected:
                    wake_rows.append(f"| {split.name} | {label} | {condition} | {len(detected)} | "
                                     f"{100.0 * sum(detected) / len(detected):.1f} |")
                print(f"  ({split.name} {label} {condition} done at {time.perf_counter() - started:.0f} s)",
                      file=sys.stderr, flush=True)
    print("\nMeant for the game\n")
    print("| part | mode | room | kind | n | right % | asked % | wrong % | rejected % | ignored % |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(said_rows))
    print("\nTable chatter (not meant for the game): what the game did with it\n")
    print("| part | mode | room | n | a move % | a command % | asked % | rejected % | ignored % | of it, woke % |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(chatter_rows))
    if wake_rows:
        print("\nThe wake word taken, of the utterances said with it\n")
        print("| part | mode | room | n | wake heard % |")
        print("| --- | --- | --- | ---: | ---: |")
        print("\n".join(wake_rows))
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
