"""Several servers on one PostgreSQL: a table belongs to one server at a time; when that server is killed,
its clients reconnect to another, which takes the table over from the database and plays on (no fork)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from voicejack.remote.session import Intent, Snapshot

FOUR = {"players": 4, "teams": True, "mode": "complex", "seats": ["human", "bot", "human", "bot"], "seed": 31}


def test_two_servers_share_tables_and_the_survivor_takes_over_the_killed_ones(
        start_server: Any, players: Any, fresh_postgres: str, tmp_path: Path, kit: Any) -> None:
    first = start_server(db=fresh_postgres, lease=1.0, bot_delay=0.02, grace=30)
    second = start_server(db=fresh_postgres, lease=1.0, bot_delay=0.02, grace=30)
    urls = [first.url, second.url]
    ann = players(urls, Intent("create", name="Ann", options=FOUR), "ann")
    ann.wait(lambda: ann.session.code is not None, what="the table code")
    code = ann.session.code
    # Bob asks the second server first: while the first one lives, the table stays there.
    bob = players([second.url, first.url], Intent("join", code=code, name="Bob"), "bob")
    bob.wait(lambda: bob.session.colour == "green" and bob.session.view is not None, what="Bob's seat")
    assert "another server has this table" in second.log
    ann.wait(lambda: ann.moves >= 30, what="30 moves")
    first.kill()
    told = max(ann.moves, bob.moves)
    ann.wait(lambda: ann.finished.is_set() and bob.finished.is_set(), timeout=60, what="the end on the second server")
    assert f"table {code}: resumed after" in second.log
    assert [n.moves for n in ann.news if isinstance(n, Snapshot)][-1] >= told
    kit.assert_replays(fresh_postgres, code, int(FOUR["seed"]))
    for player in (ann, bob):  # what they heard from either server is the one stored match: no fork
        kit.assert_heard_is_stored(fresh_postgres, code, player)
    phrases, exported = kit.read_stored(fresh_postgres, code)
    assert exported["winner"] == "+".join(ann.session.state.winner)
    assert len(phrases) == ann.moves
    import subprocess

    listing = subprocess.run([*kit.voicejack, "tables", "--db", fresh_postgres], capture_output=True, text=True,
                             check=True).stdout
    assert code in listing and "complex, teams" in listing and "finished" in listing


def test_being_sent_to_the_server_that_holds_the_table_is_not_told_as_a_lost_connection(
        start_server: Any, players: Any, fresh_postgres: str, tmp_path: Path) -> None:
    """A client that asks a server not holding its table is sent on ("elsewhere") until the owner answers, or
    until the lease of a dead owner runs out: the player hears one drop and one return, not a pair of them for
    every try."""
    first = start_server(db=fresh_postgres, lease=3.0, bot_delay=0.05, grace=30)
    second = start_server(db=fresh_postgres, lease=3.0, bot_delay=0.05, grace=30)
    two = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "human"], "seed": 8}
    ann = players([first.url, second.url], Intent("create", name="Ann", options=two), "ann")
    ann.wait(lambda: ann.session.code is not None, what="the table code")
    bob = players([second.url, first.url], Intent("join", code=ann.session.code, name="Bob"), "bob")
    bob.wait(lambda: bob.session.colour == "green" and bob.session.view is not None, what="Bob's seat")
    assert "another server has this table" in second.log and bob.line_events() == [True]
    ann.wait(lambda: ann.moves >= 6, what="6 moves")
    first.kill()
    for player in (ann, bob):
        player.wait(lambda player=player: player.line_events()[-1:] == [True] and len(player.line_events()) > 1,
                    timeout=30, what="the table back on the second server")
    ann.wait(lambda: ann.finished.is_set() and bob.finished.is_set(), timeout=90, what="the end of the match")
    assert second.log.count("elsewhere (rejoin)") >= 2  # the dead owner's lease was still running
    for player in (ann, bob):
        events = player.line_events()
        assert events.count(True) == 2 and events[-1] is True, events  # in once, back once
        assert events[1:].count(False) >= 1 and events[1:-1] == [False] * (len(events) - 2), events
