"""The remote table front end against a real server: the same narration, prompts and commands as a local
table, driven by typed lines (a script), and the table code said for the phone."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any

from voicejack.remote.session import Intent, SeatStore, Session
from voicejack.remote.table import RemoteConfig, RemoteTable
from voicejack.table.inputs import InputHub, ScriptSource
from voicejack.table.presenter import Presenter

ALWAYS_FIRST_OPTION = ("read the board", "what is the score", "options", "1", "yes")


class Transcript(Presenter):
    """Text only, keeping every line and cue, so the test hears what the player would."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cues: list[str] = []
        super().__init__(None, write=self.lines.append)

    def cue(self, name: str) -> None:
        self.cues.append(name)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _front_end(url: str, intent: Intent, lines: Any, store: Path) -> tuple[RemoteTable, Transcript]:
    hub = InputHub()
    hub.add(ScriptSource(lines))
    transcript = Transcript()
    session = Session([url], intent, SeatStore(store), retry=0.1)
    return RemoteTable(session, transcript, hub, RemoteConfig(url)), transcript


def test_hosting_a_table_says_its_code_and_plays_it_to_the_end_like_a_local_table(
        start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 9}
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options),
                            itertools.cycle(ALWAYS_FIRST_OPTION), tmp_path / "ann.json")
    status: list[int] = []
    thread = threading.Thread(target=lambda: status.append(host.run()), daemon=True)
    thread.start()
    thread.join(90)
    assert status == [0]
    text = said.text
    code = host.session.code
    assert code is not None and f"Your table code is {code}. Friends join with: voicejack join {server.url} {code}." in text
    assert "You sit at table" in text and "as red" in text
    assert "This match is played in the regular version." in text  # the local narrator's own words
    assert "Your turn, red." in text and "Your options." in text and "Green played" in text
    assert "in the pile" in text  # "read the board" answered from the seat's view
    assert "win" in text.splitlines()[-1].lower()
    assert said.cues.count("your-turn") >= 5 and said.cues[-1] == "win"


def test_a_spectator_hears_the_match_and_a_player_can_leave_to_a_bot(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0.01)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 21}
    # Ann plays two turns, then leaves the table: a bot plays her seat to the end.
    script = list(itertools.chain.from_iterable(itertools.repeat(("options", "1", "yes"), 2))) + ["leave the table", "yes"]
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options), iter(script), tmp_path / "a.json")
    assert host.run() == 0
    assert "You left the table. A bot plays your seat" in said.text
    code = host.session.code
    assert code is not None
    watcher, heard = _front_end(server.url, Intent("watch", code=code), iter(()), tmp_path / "w.json")
    assert watcher.run() == 0  # the match ends with a winner while the spectator listens
    assert f"You are watching table {code}." in heard.text
    assert "Your turn" not in heard.text and "You hold" not in heard.text  # nobody's cards
    assert "played" in heard.text and "win" in heard.text.splitlines()[-1].lower()
