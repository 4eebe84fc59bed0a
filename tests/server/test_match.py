"""A whole match at a real server: two people joined over the loopback, two server bots; what each was told;
and the operator's tools (tables, export) on the finished table."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest

from voicejack.remote.session import Intent, Played, SeatNews, SeatStore
from voicejack.server.protocol import HIDDEN_CARD
from voicejack.tablefile import load_table

VIEW_KEYS = {"moves", "mode", "rules", "turn_seconds", "teams", "players", "marbles", "turn", "dealer", "deal", "forced_burn", "pile",
             "last_card", "winner", "you", "hand"}
PLAYER_KEYS = {"colour", "name", "kind", "cards", "control", "connected"}
SEED = 2024


@pytest.fixture(scope="module")
def finished_match(tmp_path_factory: pytest.TempPathFactory, kit: Any) -> Iterator[dict[str, Any]]:
    """One match, played once for the tests of this module: Ann creates, Bob joins, a spectator listens."""
    folder = tmp_path_factory.mktemp("match")
    db = str(folder / "tables.sqlite")
    server = kit.ServerProcess(db, folder / "server.log", grace=60, bot_delay=0,
                                max_rate=2000).start()
    made = []
    try:
        options = {"players": 4, "teams": True, "mode": "regular", "seats": ["human", "bot", "human", "bot"],
                   "names": [None] * 4, "seed": SEED}
        ann = kit.Player([server.url], Intent("create", name="Ann", options=options), SeatStore(folder / "a.json"), "ann")
        made.append(ann)
        ann.start()
        ann.wait(lambda: ann.session.code is not None, what="the table code")
        code = ann.session.code
        watcher = kit.Player([server.url], Intent("watch", code=code), SeatStore(folder / "w.json"), "watcher")
        bob = kit.Player([server.url], Intent("join", code=code, name="Bob"), SeatStore(folder / "b.json"), "bob")
        made += [watcher, bob]
        watcher.start()
        watcher.wait(lambda: watcher.session.view is not None, what="the spectator's view")
        bob.start()
        for player in made:
            player.wait(player.finished.is_set, timeout=60, what="the end of the match")
        assert server.terminate() == 0  # SIGTERM: a clean stop
        phrases, exported = kit.read_stored(db, code)
        yield {"ann": ann, "bob": bob, "watcher": watcher, "winner": ann.session.state.winner, "log": server.log,
               "db": db, "code": code, "phrases": phrases, "exported": exported}
    finally:
        for player in made:
            player.stop()
        if server.process is not None and server.process.poll() is None:
            server.process.kill()


def test_two_joined_clients_and_two_bots_play_a_whole_match(finished_match: dict[str, Any]) -> None:
    ann, bob, watcher = finished_match["ann"], finished_match["bob"], finished_match["watcher"]
    winner = finished_match["winner"]
    assert winner in (("red", "green"), ("blue", "yellow"))  # R36: partners win together
    assert ann.session.colour == "red" and bob.session.colour == "green"  # the creator sits first
    assert ann.played > 5 and bob.played > 5  # both people really played, through the server
    # Everyone heard every move, in order, with nothing missing.
    for client in (ann, bob, watcher):
        assert client.line_events().count(True) == 1  # one connection each until the server stopped: no flood, no stall
        numbers = [item.moves for item in client.news if isinstance(item, Played)]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        assert client.session.state.winner == winner
    assert ("green", "joined") in [(n.colour, n.event) for n in ann.news if isinstance(n, SeatNews)]
    # The server played the seats the table file names bots; people's seats were played by their clients.
    log = finished_match["log"]
    assert "created by" in log and "join table" in log and "watch table" in log


def test_every_message_holds_only_what_its_receiver_may_know(finished_match: dict[str, Any]) -> None:
    exported = finished_match["exported"]
    for label in ("ann", "bob", "watcher"):
        client = finished_match[label]
        you = client.session.colour
        assert client.session.messages, label
        for message in client.session.messages:
            text = json.dumps(message)
            assert "mt19937" not in text and '"rng"' not in text and '"discard"' not in text
            if message.get("type") == "joined":
                assert message["colour"] == you  # a token is told only to its own seat
            view = message.get("view")
            if view is None:
                continue
            assert set(view) == VIEW_KEYS
            assert isinstance(view["pile"], int)  # the size of the pile, never its order
            assert view["you"] == you
            for player in view["players"]:
                assert set(player) == PLAYER_KEYS  # card counts, never cards
            if you is None:
                assert view["hand"] is None
            else:
                mine = next(p for p in view["players"] if p["colour"] == you)
                assert len(view["hand"]) == mine["cards"]
    # The tokens that were handed out never reach anyone else.
    ann_token, bob_token = finished_match["ann"].session.token, finished_match["bob"].session.token
    for message in finished_match["bob"].session.messages + finished_match["watcher"].session.messages:
        assert ann_token not in json.dumps(message)
    for message in finished_match["ann"].session.messages:
        assert bob_token not in json.dumps(message)
    assert HIDDEN_CARD  # the client fills hidden hands with placeholders of the right count only
    assert exported["winner"] == "+".join(finished_match["winner"])


def test_the_stored_table_replays_exactly_from_its_moves(finished_match: dict[str, Any], kit: Any) -> None:
    kit.assert_replays(finished_match["db"], finished_match["code"], SEED)


def test_tables_lists_the_match_and_export_writes_a_table_file(finished_match: dict[str, Any], tmp_path: Path,
                                                               kit: Any) -> None:
    db, code = finished_match["db"], finished_match["code"]
    listing = subprocess.run([*kit.voicejack, "tables", "--db", db],
                             capture_output=True, text=True, check=True).stdout
    line = next(row for row in listing.splitlines() if row.startswith(code))
    assert "voicejack, regular, teams" in line and "human,bot,human,bot" in line and "finished" in line
    assert str(len(finished_match["phrases"])) in line and finished_match["exported"]["winner"] in line
    out = tmp_path / "match.json"
    subprocess.run([*kit.voicejack, "export", "--db", db, *code.split(), "--out", str(out)],
                   capture_output=True, text=True, check=True)
    state = load_table(out)  # an ordinary table file: every position tool reads it
    assert state.winner == finished_match["winner"]
    assert [seat.name for seat in state.seats] == ["Ann", "Blue", "Bob", "Yellow"]
    unknown = subprocess.run([*kit.voicejack, "export", "--db", db, "quiet", "whale",
                              "one", "--out", str(out)], capture_output=True, text=True)
    if code != "quiet whale one":
        assert unknown.returncode == 2 and "there is no table quiet whale one" in unknown.stderr
