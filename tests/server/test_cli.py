"""The operator's commands say what is wrong in one line and exit with status 2, without a traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any


def _run(kit: Any, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*kit.voicejack, *args], capture_output=True, text=True, timeout=30)


def test_tables_and_export_on_a_missing_or_broken_database(kit: Any, tmp_path: Path) -> None:
    missing = _run(kit, "tables", "--db", str(tmp_path / "none.sqlite"))
    assert missing.returncode == 2 and "no database at" in missing.stderr
    broken = tmp_path / "broken.sqlite"
    broken.write_text("not a database at all")
    result = _run(kit, "tables", "--db", str(broken))
    assert result.returncode == 2 and "file is not a database" in result.stderr and "Traceback" not in result.stderr
    result = _run(kit, "export", "--db", str(broken), "amber", "tiger", "seven", "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    result = _run(kit, "export", "--db", str(broken), "nonsense", "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2 and "is not a table code" in result.stderr


def test_a_second_server_on_the_same_sqlite_file_or_port_is_refused(start_server: Any, kit: Any, tmp_path: Path) -> None:
    server = start_server()
    same_file = _run(kit, "serve", "--port", "0", "--db", server.db)
    assert same_file.returncode == 2 and "another server is using" in same_file.stderr
    same_port = _run(kit, "serve", "--port", str(server.port), "--db", str(tmp_path / "other.sqlite"))
    assert same_port.returncode == 2 and "Traceback" not in same_port.stderr
    unreachable = _run(kit, "serve", "--port", "0", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert unreachable.returncode == 2 and "cannot reach the PostgreSQL database" in unreachable.stderr


def test_host_and_play_with_server_send_the_online_turn_timer_to_the_server() -> None:
    from voicejack.app.join import table_options
    from voicejack.engine import make_rules
    from voicejack.engine.game import default_seats

    timed = make_rules(2, False, rule_set="online", turn_seconds=25)
    assert table_options(timed, default_seats(timed), None)["turn_seconds"] == 25  # ON11, run by the server
    plain = make_rules(2, False)
    assert "turn_seconds" not in table_options(plain, default_seats(plain), None)
