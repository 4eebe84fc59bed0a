"""Moonshine base (English, ONNX Runtime) giving a second opinion on the sentences Whisper ranked highest.

Moonshine is an English recogniser by Moonshine AI (MIT licence) trained for live speech: its encoder
takes the utterance's own length instead of a fixed window, and its decoder scores a sentence's end (the
end-of-text token) too, which CTranslate2's Whisper alignment cannot. Its base English model (61 M
parameters, quantised, 63 MB) ships inside its authors' own PyPI package ``moonshine-cpp``; only the model
files are used from it (its C library is not loaded), run by the ``onnxruntime`` package.

Whisper's finalists (whisper_backend.finalists: its best few sentences and pocketsphinx's readings) are
scored again here by forced decoding in one batched call, and the two recognisers' scores are averaged
(transcripts.combine) before the acceptance model weighs them. Two recognisers trained on different data
rarely prefer the same wrong sentence: on the tuning part their mean ranked the move said first far more
often among other talkers and in the reverberant room than either alone (models/README.md, fifteenth round).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from voicejack.speech.recogniser import SpeechError
from voicejack.speech.threads import check_threads
from voicejack.speech.transcripts import Scored

__all__ = ["MoonshineScorer", "MoonshineUnavailable", "Vocabulary", "find_moonshine_model"]

MODEL_FILES = ("encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin")
START, END = 1, 2  # <s> and </s>
SPACE = "\u2581"  # SentencePiece's word boundary
HEADS, HEAD_SIZE = 8, 52  # Moonshine base's decoder
MAX_SECONDS = 10.0
MIN_SAMPLES = 4_000  # the encoder needs a quarter of a second
# Added per token to a sentence's log-probability: a plain sum favours short sentences, fragments of the move
# said among them ("three green two" for "play three green two"). 3 ranked best on the tuning part (2 and 4 tried).
LENGTH_BONUS = 3.0


class MoonshineUnavailable(SpeechError):
    """onnxruntime or the Moonshine model is missing."""


def find_moonshine_model(explicit: str | Path | None = None) -> Path | None:
    """Moonshine base English: a given directory, or the copy inside the ``moonshine-cpp`` package.

    The package is located without importing it (importing it loads its own C library)."""
    candidates: list[Path] = []
    if explicit is not None:
        candidates.append(Path(explicit))
    spec = importlib.util.find_spec("moonshine_cpp")
    if spec is not None and spec.submodule_search_locations:
        candidates.extend(Path(p) / "models" / "base-en" for p in spec.submodule_search_locations)
    for path in candidates:
        if all((path / name).is_file() for name in MODEL_FILES):
            return path
    return None


class Vocabulary:
    """Moonshine's SentencePiece vocabulary (tokenizer.bin: each token's bytes behind its length) and the
    byte-pair encoding that turns text into its tokens: adjacent pieces merge, the lowest token number
    first, while their join is a token; a character with no token of its own falls back to its bytes."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        tokens: list[bytes] = []
        at = 0
        while at < len(data):
            size = data[at]
            at += 1
            if size & 0x80:  # a two-byte length
                size = (size & 0x7F) | (data[at] << 7)
                at += 1
            tokens.append(data[at:at + size])
            at += size
        self.tokens = tokens
        self._ids = {token: number for number, token in enumerate(tokens) if number > END}

    def encode(self, text: str) -> list[int]:
        pieces = [c.encode() for c in SPACE + text.replace(" ", SPACE)]
        while len(pieces) > 1:
            best: tuple[int, int] | None = None
            for k in range(len(pieces) - 1):
                number = self._ids.get(pieces[k] + pieces[k + 1])
                if number is not None and (best is None or number < best[0]):
                    best = (number, k)
            if best is None:
                break
            k = best[1]
            pieces[k:k + 2] = [pieces[k] + pieces[k + 1]]
        out: list[int] = []
        for piece in pieces:
            number = self._ids.get(piece)
            out.extend([number] if number is not None else [3 + byte for byte in piece])  # <0x00> is token 3
        return out

    def decode(self, numbers: Sequence[int]) -> str:
        text = b"".join(self.tokens[n] for n in numbers if END < n < len(self.tokens))
        return text.decode("utf-8", "replace").replace(SPACE, " ").strip()


class MoonshineScorer:
    """Loads the model once; ``score`` then ranks sentences for one utterance."""

    def __init__(self, model: str | Path | None = None, threads: int | None = None) -> None:
        try:
            import onnxruntime
        except ImportError as error:
            raise MoonshineUnavailable(
                f"the Moonshine check needs onnxruntime ({error}); install it with pip install 'voicejack[moonshine]'"
            ) from None
        path = find_moonshine_model(model)
        if path is None:
            raise MoonshineUnavailable("no Moonshine model found: install it with pip install 'voicejack[moonshine]'")
        self.path = path
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or check_threads()
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # Idle threads sleep: spinning, they took the core the check's next step needed (threads.py).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        providers = ["CPUExecutionProvider"]
        self._encoder: Any = onnxruntime.InferenceSession(str(path / MODEL_FILES[0]), options, providers=providers)
        self._decoder: Any = onnxruntime.InferenceSession(str(path / MODEL_FILES[1]), options, providers=providers)
        self._inputs = [i.name for i in self._decoder.get_inputs()]
        self.vocabulary = Vocabulary(path / MODEL_FILES[2])
        self._tokens: dict[str, list[int]] = {}

    def score(self, audio: np.ndarray, sentences: Sequence[str], length_bonus: float = LENGTH_BONUS) -> Scored:
        """Each of ``sentences`` scored against the utterance (16 kHz, int16 scale), best first."""
        sentences = list(dict.fromkeys(s for s in sentences if s))
        if not sentences:
            return Scored("", (), 0.0)
        samples = np.asarray(audio, dtype=np.float32)[: int(MAX_SECONDS * 16_000)] / 32768.0
        if len(samples) < MIN_SAMPLES:
            samples = np.pad(samples, (0, MIN_SAMPLES - len(samples)))
        encoded = self._encoder.run(None, {"input_values": samples[None]})[0]
        batch = [self._sentence_tokens(s) for s in sentences]
        sums = self._log_probabilities(encoded, batch)
        scores = [total + length_bonus * len(tokens) for total, tokens in zip(sums, batch, strict=True)]
        ranked = tuple(sorted(zip(sentences, scores), key=lambda pair: -pair[1]))
        fit = tuple((s, total / len(tokens)) for s, total, tokens in zip(sentences, sums, batch, strict=True))
        return Scored("", ranked, 0.0, (), fit)

    def _empty_past(self, batch: int) -> dict[str, np.ndarray]:
        """No cached keys and values: the decoder computes the whole sequence at once."""
        return {name: np.zeros((batch, HEADS, 0, HEAD_SIZE), dtype=np.float32)
                for name in self._inputs if name.startswith("past_key_values")}

    def _log_probabilities(self, encoded: np.ndarray, batch: list[list[int]]) -> list[float]:
        """Each token sequence's log-probability given the audio, every token and the end included."""
        longest = max(len(tokens) for tokens in batch)
        ids = np.full((len(batch), longest + 1), END, dtype=np.int64)
        ids[:, 0] = START
        for row, tokens in enumerate(batch):
            ids[row, 1:len(tokens) + 1] = tokens
        feeds = {"input_ids": ids, "encoder_hidden_states": np.repeat(encoded, len(batch), axis=0),
                 "use_cache_branch": np.array([False]), **self._empty_past(len(batch))}
        logits = self._decoder.run(["logits"], feeds)[0].astype(np.float64)
        top = logits.max(axis=2)
        normaliser = top + np.log(np.exp(logits - top[..., None]).sum(axis=2))  # log of each position's total
        wanted = np.concatenate([ids[:, 1:], np.full((len(batch), 1), END)], axis=1)  # what each position predicts
        chosen = np.take_along_axis(logits, wanted[..., None], axis=2)[..., 0] - normaliser
        return [float(chosen[row, :len(tokens) + 1].sum()) for row, tokens in enumerate(batch)]

    def token_count(self, sentence: str) -> int:
        """Tokens of ``sentence`` (its end, scored too, not counted)."""
        return len(self._sentence_tokens(sentence))

    def _sentence_tokens(self, sentence: str) -> list[int]:
        if sentence not in self._tokens:
            self._tokens[sentence] = self.vocabulary.encode(f"{sentence[:1].upper()}{sentence[1:]}.")
        return self._tokens[sentence]
