"""Make the training speech for the word model on Whisper's encoder (voicejack/speech/word_head.py) and train it.

    bash benchmarks/setup-voices.sh                                      # once, as root: the synthesisers
    pip install -e '.[whisper]' jax optax                                # jax and optax only train; the game runs numpy
    for s in 1 2 3 4 5 6 9 10 11 12; do
        taskset -c 0 python3 benchmarks/word_head.py data /tmp/head$s.npz --count 1500 --seed $s
    done                                                                 # about 3 minutes a shard
    python3 benchmarks/word_head.py train voicejack/speech/data/word_head.npz /tmp/head*.npz
    python3 benchmarks/word_head.py train /tmp/without-mbrola.npz /tmp/head*.npz --exclude mbrola
    python3 benchmarks/word_head.py data /tmp/warped21.npz --seed 21 --warp 0.12   # vocal tract length varied
    python3 benchmarks/word_head.py data /tmp/mv71.npz --seed 71 --mix 0.45 0.25 0.1 0.1 0.1   # more moves
    python3 benchmarks/word_head.py data /tmp/old1.npz --seed 1 --mix 0.45 0.35 0 0.08 0.12   # as the shipped model's first
    python3 benchmarks/word_head.py train /tmp/h.npz /tmp/mv*.npz --start voicejack/speech/data/word_head.npz \
        --rate 3e-4 --epochs 3                                           # go on training the shipped model

Data: only the tuning voices of benchmarks/voices.py (espeak-ng, mbrola, festival; every style), never the
held-out flite and pico. Each sentence is from a position of a game no benchmark plays (games from 300,000
on): a legal move's canonical phrase, any sentence of the grammar, a command, an answer to a question the
game could ask, or a line of table talk written for this script (not the benchmark's). Each is heard in
two of: quiet, white noise (5-25 dB), a reverberant room (a synthetic response with RT60 0.2-1.0 s and a
random direct-to-reverberant ratio, fan noise 10-30 dB down, a band-limited microphone), two to four other
talkers (5-20 dB down, saying lines of this script) and music (8-20 dB down); these draw their settings at
random, where the benchmark's rooms are fixed. The clip is cut round the speech with random margins, as
the endpointer would, and Whisper tiny.en's encoder output over it is kept (float16).

Training: connectionist temporal classification over the words of the game ("<unk>" for any other word),
AdamW with a warm-up and cosine decay, dropout on the input and the hidden layer. ``--exclude FAMILY`` leaves
one voice family out, so that the acceptance model can be fitted on scores of voices the word model never
heard (benchmarks/asr_train.py), as it will be with players.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rooms  # noqa: E402
from voicejack.speech.audio import SAMPLE_RATE  # noqa: E402

TABLE_TALK = (
    "could you pass the crisps", "i left my keys in the car", "whose idea was this game", "not bad at all",
    "let me get a cushion", "it is getting late", "i forgot what i was saying", "are you cheating again",
    "we need more chairs", "turn the heating up", "my back is killing me", "the dog wants to go out",
    "tell me when it is done", "that sounds about right", "give me a minute please", "who took my pen",
    "i never win at this", "lunch is nearly ready", "what did she just say", "keep your voice down",
    "the window is open", "have you seen my phone", "that move was brilliant", "it is your go now i think",
    "shall i make coffee", "hurry up we are waiting", "i am not sure about that", "lucky you",
    "seven people are coming tomorrow", "red is my favourite colour", "two more rounds and we stop",
    "play something nice on the radio", "yes please with sugar", "no thanks i am fine", "read it again for me",
)
OTHER_TALKERS = (
    "the garden needs watering again", "he missed the bus this morning", "they are painting the kitchen blue",
    "our neighbour has a new puppy", "the football starts at eight", "i read a good book on holiday",
    "can you believe the price of petrol", "my sister is moving to leeds", "we had pizza last friday",
    "the meeting ran over by an hour", "i think it might snow tonight", "tell me about your trip",
    "the shop on the corner has closed", "she plays the piano very well", "we are out of milk again",
)
ROOMS = ("quiet", "noise", "room", "room", "babble", "babble", "music")
FIRST_GAME = 300_000


def response(rng: np.random.Generator, rt60: float) -> np.ndarray:
    """A room's impulse response: the direct sound, then exponentially decaying noise."""
    taps = int(min(1.2, rt60 * 1.1) * SAMPLE_RATE)
    t = np.arange(taps) / SAMPLE_RATE
    tail = rng.standard_normal(taps) * np.exp(-6.91 * t / rt60)
    tail[: int(rng.uniform(0.002, 0.01) * SAMPLE_RATE)] = 0.0
    tail *= np.sqrt(rng.uniform(0.3, 3.0) / np.sum(tail**2))
    tail[0] = 1.0
    return tail


def heard_in(speech: np.ndarray, room: str, rng: np.random.Generator, talkers: dict[str, list[np.ndarray]]) -> np.ndarray:
    """``speech`` in a room drawn at random of its kind, cut round the speech as an endpointer would."""
    from voicejack.speech.corpus import speech_power, talker_track

    power = speech_power(speech)
    voice = speech.astype(np.float64) * (3000.0 / np.sqrt(power) if power > 0 else 1.0)
    lead = int(rng.uniform(0.6, 1.0) * SAMPLE_RATE)
    length = lead + len(voice) + SAMPLE_RATE
    signal = np.zeros(length)
    signal[lead:lead + len(voice)] = voice
    reference = 3000.0**2
    if room == "noise":
        signal += rng.standard_normal(length) * np.sqrt(reference / 10 ** (rng.uniform(5, 25) / 10))
    elif room == "room":
        signal = rooms.convolved(signal, response(rng, rng.uniform(0.2, 1.0)))
        reference = speech_power(signal[lead:lead + len(voice)])
        signal += rooms.scaled(rooms.fan(length, rng), reference / 10 ** (rng.uniform(10, 30) / 10))
    elif room == "babble":
        names = sorted(talkers)
        tracks = [talker_track(talkers[names[int(rng.integers(len(names)))]], length, rng)
                  for _ in range(int(rng.integers(2, 5)))]
        signal += rooms.scaled(np.sum(tracks, axis=0), reference / 10 ** (rng.uniform(5, 20) / 10))
    elif room == "music":
        signal += rooms.scaled(rooms.music(length, rng), reference / 10 ** (rng.uniform(8, 20) / 10))
    signal += rng.standard_normal(length) * rng.uniform(10, 60)
    if room == "room" or rng.random() < 0.2:
        signal = rooms.band_limit(signal, rng.uniform(80, 300), rng.uniform(3000, 6000))
    signal *= rng.uniform(0.3, 1.5)
    start = max(0, lead - int(rng.uniform(0.05, 0.45) * SAMPLE_RATE))
    end = min(length, lead + len(voice) + int(rng.uniform(0.1, 0.6) * SAMPLE_RATE))
    return np.clip(np.round(signal[start:end]), -32768, 32767).astype(np.int16)


# The share of each kind of sentence: a move's canonical phrase, any sentence of the grammar, a command,
# an answer to a question, table talk. The first shards were made with (0.45, 0.35, 0, 0.08, 0.12) and
# (0.35, 0.15, 0.22, 0.16, 0.12); the word model then ranked bare "two" over "option two" and "next" over
# "yes", so later ones give answers more (models/README.md, seventeenth round).
MIX = (0.25, 0.10, 0.20, 0.35, 0.10)


def sentence(state: Any, prng: random.Random, mix: tuple[float, ...] = MIX) -> tuple[str, str]:
    """What the player says in ``state``, and its kind."""
    from voicejack.engine import legal_moves
    from voicejack.engine.cards import RANK_WORDS
    from voicejack.hearing import Heard
    from voicejack.language import Ask, Confirm, phrase_set, resolve

    seat = state.turn
    bounds = np.cumsum(mix)
    draw = prng.random()
    if draw < bounds[0]:
        return prng.choice(sorted({m.phrase for m in legal_moves(state)})), "move"
    if draw < bounds[1]:
        return prng.choice(sorted(phrase_set(state, seat).phrases)), "phrase"
    if draw < bounds[2]:
        return prng.choice(sorted(phrase_set(state, seat).obeyed)), "command"
    if draw < bounds[3]:
        moves = legal_moves(state)
        dialog: Any = Confirm(prng.choice(moves), "confirm?")
        cards = sorted({m.card for m in moves if m.card in RANK_WORDS})
        asked = resolve(state, seat, Heard(RANK_WORDS[prng.choice(cards)])) if cards else None
        if isinstance(asked, Ask) and prng.random() < 0.5:
            dialog = asked
        grammar = phrase_set(state, seat, dialog)
        base = set(phrase_set(state, seat).phrases)
        answers = sorted(p for p in grammar.phrases if p not in base) or sorted(
            p for p in grammar.phrases if len(p.split()) <= 3)
        return prng.choice(answers), "answer"
    return prng.choice(TABLE_TALK), "chatter"


def warped(speech: np.ndarray, factor: float) -> np.ndarray:
    """``speech`` played ``factor`` times as fast: pitch, formants and tempo move together, as between a
    shorter and a longer vocal tract (vocal tract length perturbation), so the few voices sound like more."""
    positions = np.arange(0.0, len(speech) - 1, factor)
    stretched: np.ndarray = np.interp(positions, np.arange(len(speech)), speech.astype(np.float64))
    return np.round(stretched).astype(np.int16)


def make_data(out: str, count: int, seed: int, warp: float = 0.0, mix: tuple[float, ...] = MIX) -> None:
    import asr
    import voices as voice_bank
    from voicejack.speech.whisper_backend import WhisperScorer

    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    families = voice_bank.TUNING_FAMILIES
    speakers = voice_bank.all_voices(families)
    plain = [v for v in speakers if (v.stretch, v.semitones) == (1.0, 0)]
    talkers = {v.name: [voice_bank.synthesise(line, v) for line in OTHER_TALKERS] for v in plain}
    scorer = WhisperScorer()
    frames: list[np.ndarray] = []
    meta: list[dict[str, str | float]] = []
    states: list[Any] = []
    game = FIRST_GAME + seed * 1000
    began = time.perf_counter()
    while len(meta) < count:
        if not states:
            states = asr.positions_of_game(prng, game, moves=300, share=0.1)
            prng.shuffle(states)
            game += 1
            continue
        text, kind = sentence(states.pop(), prng, mix)
        voice = speakers[int(rng.integers(len(speakers)))]
        speech = voice_bank.synthesise(text, voice)
        factor = float(rng.uniform(1.0 - warp, 1.0 + warp)) if warp > 0 else 1.0
        if factor != 1.0:
            speech = warped(speech, factor)
        others = {name: said for name, said in talkers.items() if name != voice.name}
        for room in prng.sample(ROOMS, 2):
            transcript = scorer.transcribe(heard_in(speech, room, rng, others))
            frames.append(transcript.speech_frames().astype(np.float16))
            meta.append({"text": text, "kind": kind, "family": voice.family, "voice": voice.label, "room": room,
                         "warp": round(factor, 3)})
        if len(meta) % 200 == 0:
            print(f"{len(meta)} utterances, {time.perf_counter() - began:.0f} s", flush=True)
    np.savez(out, *frames)
    Path(out + ".json").write_text(json.dumps(meta))


CONTEXT = 2  # encoder frames either side of each frame, stacked into the first layer


def train(out: str, shards: list[str], exclude: str | None, epochs: int, hidden: int, batch: int,
          rate: float, start: str | None = None) -> None:
    import jax
    import jax.numpy as jnp
    import optax

    from voicejack.speech.word_head import BLANK, UNKNOWN

    inputs: list[np.ndarray] = []
    texts: list[tuple[str, str]] = []
    for shard in shards:
        data = np.load(shard)
        for i, m in enumerate(json.loads(Path(shard + ".json").read_text())):
            if m["family"] != exclude:
                inputs.append(data[f"arr_{i}"])
                texts.append((m["text"], m["kind"]))
    vocabulary = [BLANK, UNKNOWN, *sorted({w for t, kind in texts if kind != "chatter" for w in t.split()})]
    if start:  # go on training a model: its words, a word it does not know being "<unk>"
        vocabulary = [str(word) for word in np.load(start)["vocab"]]
    index = {word: i for i, word in enumerate(vocabulary)}
    labels = [[index.get(word, 1) for word in text.split()] for text, _ in texts]
    features = inputs[0].shape[1]
    print(f"{len(inputs)} utterances, {len(vocabulary)} units, {sum(len(x) for x in inputs)} frames", flush=True)

    def stack(x: Any) -> Any:
        padded = jnp.pad(x, ((0, 0), (CONTEXT, CONTEXT), (0, 0)))
        return jnp.concatenate([padded[:, i:i + x.shape[1]] for i in range(2 * CONTEXT + 1)], axis=-1)

    def forward(params: dict[str, Any], x: Any, key: Any) -> Any:
        k1, k2 = jax.random.split(key)
        x = x * jax.random.bernoulli(k1, 0.85, x.shape) / 0.85
        h = jax.nn.gelu(stack(x) @ params["w1"] + params["b1"])
        h = h * jax.random.bernoulli(k2, 0.85, h.shape) / 0.85
        h = jax.nn.gelu(h @ params["w2"] + params["b2"]) + h
        return jax.nn.log_softmax(h @ params["w3"] + params["b3"])

    def loss(params: dict[str, Any], x: Any, x_pad: Any, y: Any, y_pad: Any, key: Any) -> Any:
        per_utterance = optax.ctc_loss(forward(params, x, key), x_pad, y, y_pad, blank_id=0)
        return jnp.mean(per_utterance / jnp.maximum(1.0, jnp.sum(1 - y_pad, axis=1)))

    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    width = features * (2 * CONTEXT + 1)
    params = {"w1": jax.random.normal(k1, (width, hidden)) / np.sqrt(width), "b1": jnp.zeros(hidden),
              "w2": jax.random.normal(k2, (hidden, hidden)) / np.sqrt(hidden), "b2": jnp.zeros(hidden),
              "w3": jax.random.normal(k3, (hidden, len(vocabulary))) / np.sqrt(hidden),
              "b3": jnp.zeros(len(vocabulary))}
    if start:
        weights = np.load(start)
        params = {name: jnp.asarray(weights[name].astype(np.float32)) for name in params}
    steps = epochs * -(-len(inputs) // batch)
    warmup = min(50 if start else 200, steps // 2)
    optimiser = optax.adamw(optax.warmup_cosine_decay_schedule(0.0, rate, warmup, steps), weight_decay=1e-4)
    state = optimiser.init(params)

    @jax.jit  # type: ignore[untyped-decorator]
    def step(params: Any, state: Any, x: Any, x_pad: Any, y: Any, y_pad: Any, key: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(params, x, x_pad, y, y_pad, key)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    rng = np.random.default_rng(0)
    key = jax.random.PRNGKey(1)
    began = time.perf_counter()
    longest_label = 16
    for epoch in range(epochs):
        # Batches of similar lengths, padded to a multiple of 25 frames (few shapes to compile).
        order = np.argsort([len(x) + rng.uniform(0, 10) for x in inputs])
        groups = [order[i:i + batch] for i in range(0, len(order), batch)]
        rng.shuffle(groups)
        total = 0.0
        for group in groups:
            length = int(np.ceil(max(len(inputs[i]) for i in group) / 25) * 25)
            x = np.zeros((batch, length, features), np.float32)
            x_pad = np.ones((batch, length), np.float32)
            y = np.zeros((batch, longest_label), np.int32)
            y_pad = np.ones((batch, longest_label), np.float32)
            for row, i in enumerate(group):
                x[row, :len(inputs[i])] = inputs[i]
                x_pad[row, :len(inputs[i])] = 0
                said = labels[i][:longest_label]
                y[row, :len(said)] = said
                y_pad[row, :len(said)] = 0
            x_pad[len(group):, 0] = 0  # rows that fill a short last batch: one frame, no words
            key, sub = jax.random.split(key)
            params, state, value = step(params, state, x, x_pad, y, y_pad, sub)
            total += float(value)
        print(f"epoch {epoch + 1}: loss {total / len(groups):.3f} ({time.perf_counter() - began:.0f} s)", flush=True)
    arrays = {name: np.asarray(value).astype(np.float16) for name, value in params.items()}
    np.savez(out, vocab=np.array(vocabulary), features=np.array(features), **arrays)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    data = commands.add_parser("data", help="synthesise, reverberate and encode training utterances")
    data.add_argument("out")
    data.add_argument("--count", type=int, default=1500)
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("--warp", type=float, default=0.0,
                      help="play each utterance up to this much faster or slower (0.12: 0.88-1.12 times)")
    data.add_argument("--mix", type=float, nargs=5, default=MIX, metavar="SHARE",
                      help="shares of moves, any sentence, commands, answers and table talk")
    learn = commands.add_parser("train", help="train the word model on shards made by 'data'")
    learn.add_argument("out")
    learn.add_argument("shards", nargs="+")
    learn.add_argument("--exclude", default=None, help="a voice family to leave out")
    learn.add_argument("--epochs", type=int, default=12)
    learn.add_argument("--hidden", type=int, default=256)
    learn.add_argument("--batch", type=int, default=32)
    learn.add_argument("--rate", type=float, default=2e-3)
    learn.add_argument("--start", default=None, help="a trained model to go on training (with a smaller --rate)")
    args = parser.parse_args(argv)
    if args.command == "data":
        make_data(args.out, args.count, args.seed, args.warp, tuple(args.mix))
    else:
        train(args.out, args.shards, args.exclude, args.epochs, args.hidden, args.batch, args.rate, args.start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
