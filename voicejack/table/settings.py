"""Player settings remembered between runs, in the user's config directory."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

MIN_RATE, MAX_RATE, RATE_STEP = 90, 400, 25
VOLUME_STEP = 0.15


@dataclass(frozen=True)
class Settings:
    speech_rate: int = 175          # words per minute
    brief: bool = False             # brief narration for experienced players
    headphones: bool = False        # headphone spatialisation; also lets the microphone stay open while the game speaks
    confirm: str = "auto"           # "auto", "always" or "never" (own/partner captures are always confirmed in auto)
    speech_volume: float = 1.0
    cue_volume: float = 0.8
    input_device: str | None = None
    output_device: str | None = None
    silence_timeout: float = 300.0  # seconds of silence before a bot takes over a human seat; 0 = never
    backend: str = "auto"           # speech recogniser: "auto", "vosk", "sphinx"
    mono: bool = False              # the same sound in both ears (one earbud, one good ear)
    listen: str = "open"            # what the microphone acts on: "open", "wake" (after the wake word), "push" (a key)
    wake_word: str = "jackaroo"
    wake_sensitivity: float = 0.5   # 0: only a very clear wake word .. 1: anything that could be it
    undo_seconds: float = 2.0       # the pause after a person's move before a bot plays, to say "undo"; 0 = none

    def slower(self) -> Settings:
        return replace(self, speech_rate=max(MIN_RATE, self.speech_rate - RATE_STEP))

    def faster(self) -> Settings:
        return replace(self, speech_rate=min(MAX_RATE, self.speech_rate + RATE_STEP))

    def louder(self) -> Settings:
        return replace(self, speech_volume=min(1.0, self.speech_volume + VOLUME_STEP),
                       cue_volume=min(1.0, self.cue_volume + VOLUME_STEP))

    def quieter(self) -> Settings:
        return replace(self, speech_volume=max(0.1, self.speech_volume - VOLUME_STEP),
                       cue_volume=max(0.1, self.cue_volume - VOLUME_STEP))


def config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "voicejack"


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or defaults; the second value is a warning to tell the player, if any."""
    path = path or settings_path()
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), None
    except (OSError, ValueError) as error:
        return Settings(), f"Your saved settings could not be read ({error}); using the defaults."
    if not isinstance(data, dict):
        return Settings(), "Your saved settings were not understood; using the defaults."
    known = {field.name for field in fields(Settings)}
    defaults = Settings()
    values = {}
    for key, value in data.items():
        if key in known and _acceptable(getattr(defaults, key), value):
            values[key] = value
    return replace(defaults, **values), None


def _acceptable(default: Any, value: Any) -> bool:
    if default is None:
        return value is None or isinstance(value, str)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, type(default))


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".settings.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(asdict(settings), stream, indent=1)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
