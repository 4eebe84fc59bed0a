"""The benchmark's speakers: every English synthesiser Debian carries here, at several rates and pitches.

Families (benchmarks/setup-voices.sh installs them):
    espeak-ng   formant synthesis, the voices the recogniser was first tuned on
    mbrola      espeak-ng driving the mbrola diphone voices us1, us2, us3, en1
    festival    festival's diphone voices (kal, rab, don, ked) and its HTS voice (slt)
    flite       flite's diphone kal16 and its clustergen voices slt, rms, awb
    pico        SVOX pico, en-US and en-GB (Debian non-free)
    rhvoice     RHVoice's statistical parametric voices (Debian non-free): Scottish alan, American bdl
                and clb (CMU ARCTIC speakers no other family has), and evgeniy-eng and lyubov, recorded
                for RHVoice itself (its slt, the speaker of festival's and flite's slt, is left out)

TUNING_FAMILIES are what models were trained and thresholds first set on.
HELD_OUT_FAMILIES were never trained on; since the twentieth round of issue
12 a few thresholds were chosen on their *development* parts (other seeds
than the check parts that judge them, models/README.md). UNSEEN_FAMILIES
nothing was ever trained, tuned or developed on: they came in after the
last rule was chosen and are only ever measured. Each voice is said at
three (rate, pitch) styles; rates stretch the duration natively where the
synthesiser can, pitch shifts are native for espeak-ng and flite and done
with sox elsewhere. Syntheses are cached on disk (they are slow and identical
every run).
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voicejack.speech.audio import to_recogniser_format
from voicejack.speech.corpus import trim_silence

HELD_OUT_FAMILIES = ("flite", "pico")
UNSEEN_FAMILIES = ("rhvoice",)
CACHE = Path(os.environ.get("VOICEJACK_VOICE_CACHE", Path.home() / ".cache" / "voicejack-benchmark-voices"))

BASE_VOICES: dict[str, tuple[str, ...]] = {
    "espeak-ng": ("en-us", "en", "en-us+m3", "en-us+f2", "en-gb-scotland"),
    "mbrola": ("mb-us1", "mb-us2", "mb-us3", "mb-en1"),
    "festival": ("kal_diphone", "rab_diphone", "don_diphone", "ked_diphone", "cmu_us_slt_arctic_hts"),
    "flite": ("kal16", "slt", "rms", "awb"),
    "pico": ("en-US", "en-GB"),
    "rhvoice": ("alan", "bdl", "clb", "evgeniy-eng", "lyubov"),
}
TUNING_FAMILIES = tuple(f for f in BASE_VOICES if f not in HELD_OUT_FAMILIES + UNSEEN_FAMILIES)
# (duration stretch, pitch shift in semitones): as said, slower and higher, quicker and lower.
STYLES: tuple[tuple[float, int], ...] = ((1.0, 0), (1.2, 2), (0.85, -2))


class VoiceUnavailable(RuntimeError):
    """A synthesiser or one of its voices is not installed (run benchmarks/setup-voices.sh)."""


@dataclass(frozen=True, slots=True)
class Voice:
    family: str
    name: str
    stretch: float = 1.0
    semitones: int = 0

    @property
    def label(self) -> str:
        style = "" if (self.stretch, self.semitones) == (1.0, 0) else f"@{self.stretch:g}x{self.semitones:+d}"
        return f"{self.family}:{self.name}{style}"

    @property
    def held_out(self) -> bool:
        return self.family in HELD_OUT_FAMILIES


def all_voices(families: tuple[str, ...] = tuple(BASE_VOICES)) -> list[Voice]:
    """Every installed voice of these families in every style (a missing synthesiser is left out)."""
    found: list[Voice] = []
    for family in families:
        for name in BASE_VOICES[family]:
            if available(family, name):
                found.extend(Voice(family, name, stretch, semitones) for stretch, semitones in STYLES)
    return found


def available(family: str, name: str) -> bool:
    programs = {"espeak-ng": "espeak-ng", "mbrola": "mbrola", "festival": "text2wave", "flite": "flite",
                "pico": "pico2wave", "rhvoice": "RHVoice-test"}
    if shutil.which(programs[family]) is None:
        return False
    if family == "mbrola":
        return Path(f"/usr/share/mbrola/{name.removeprefix('mb-')}").exists()
    if family == "festival":
        return any(Path("/usr/share/festival/voices").glob(f"*/{name}"))
    if family == "rhvoice":
        return Path(f"/usr/share/RHVoice/voices/{name}").exists()
    return True


def synthesise(text: str, voice: Voice) -> np.ndarray:
    """``text`` said by ``voice``: 16 kHz mono int16, leading and trailing silence trimmed (cached)."""
    key = hashlib.sha1(f"{voice.label}|{text}".encode()).hexdigest()
    cached = CACHE / f"{key}.npy"
    if cached.exists():
        loaded: np.ndarray = np.load(cached)
        return loaded
    with tempfile.TemporaryDirectory() as work:
        wav = Path(work) / "out.wav"
        _render(text, voice, wav)
        if voice.semitones and voice.family not in ("espeak-ng", "mbrola", "flite"):
            shifted = Path(work) / "shifted.wav"
            _run(["sox", str(wav), str(shifted), "pitch", str(100 * voice.semitones)])
            wav = shifted
        samples = _read(wav)
    CACHE.mkdir(parents=True, exist_ok=True)
    # One partial file per process: two benchmarks run at once may synthesise the same line.
    partial = cached.with_suffix(f".{os.getpid()}.part.npy")
    np.save(partial, samples)
    partial.replace(cached)
    return samples


def _render(text: str, voice: Voice, wav: Path) -> None:
    if voice.family in ("espeak-ng", "mbrola"):
        pitch = 50 + 8 * voice.semitones
        _run(["espeak-ng", "-v", voice.name, "-s", str(round(150 / voice.stretch)), "-p", str(pitch),
              "-w", str(wav), text])
    elif voice.family == "festival":
        _run(["text2wave", "-eval", f"(voice_{voice.name})", "-eval",
              f"(Parameter.set 'Duration_Stretch {voice.stretch})", "-o", str(wav)], stdin=text)
    elif voice.family == "flite":
        mean = {"slt": 160, "kal16": 105, "rms": 100, "awb": 105}[voice.name] * 2 ** (voice.semitones / 12)
        _run(["flite", "-voice", voice.name, "--setf", f"duration_stretch={voice.stretch}",
              "--setf", f"int_f0_target_mean={mean:.0f}", "-t", text, "-o", str(wav)])
    elif voice.family == "pico":
        speed = round(100 / voice.stretch)
        _run(["pico2wave", "-l", voice.name, "-w", str(wav), f'<speed level="{speed}">{text}</speed>'])
    elif voice.family == "rhvoice":
        _run(["RHVoice-test", "-p", voice.name, "-r", str(round(100 / voice.stretch)), "-o", str(wav)], stdin=text)
    else:
        raise VoiceUnavailable(f"unknown synthesiser family {voice.family!r}")


def _run(command: list[str], stdin: str | None = None) -> None:
    try:
        result = subprocess.run(command, input=stdin.encode() if stdin else None, capture_output=True, check=False)
    except FileNotFoundError:
        raise VoiceUnavailable(f"{command[0]} is not installed: run benchmarks/setup-voices.sh") from None
    if result.returncode != 0:
        raise VoiceUnavailable(f"{' '.join(command[:3])} failed: {result.stderr.decode(errors='replace').strip()}")


def _read(path: Path) -> np.ndarray:
    data = path.read_bytes()
    with wave.open(io.BytesIO(data)) as wav:
        rate = wav.getframerate()
        channels = wav.getnchannels()
        raw = wav.readframes(wav.getnframes())
    samples = np.frombuffer(raw, dtype="<i2").astype(np.float64) / 32768.0
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    return trim_silence(to_recogniser_format(samples, rate))
