"""ON11's turn timer at a server table: the server owns the clock, which starts when the seat's client says it
has told its player the turn (or after --ready-within anyway); the seat is warned and ticked; when the time is
up the engine burns a card of the hand at random, stored like any move and told to every seat."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from voicejack.engine import make_rules, new_game
from voicejack.engine import events as ev
from voicejack.engine.rules import time_out
from voicejack.remote.session import Clock, Intent, Played, Refusal, SeatNews, SeatStore, Session, Undone
from voicejack.server.undo import REFUSED

#: seed 12 under the online rules: red (a person) plays first and holds 6, A, 3, 7; only "play ace out" is legal.
ONLINE = {"players": 2, "teams": False, "mode": "regular", "rules": "online", "seats": ["human", "bot"], "seed": 12}






def clock_messages(session: Session, moves: int) -> list[dict[str, Any]]:
    return [m for m in session.messages if m.get("type") == "turn_clock" and m.get("moves") == moves]


def expected_time_out(seconds: int) -> tuple[str, list[str]]:
    """What the engine's own ON11 burn gives on the same deal: the card burned and red's hand after it."""
    state, _ = new_game(make_rules(2, False, rule_set="online", turn_seconds=seconds), seed=int(ONLINE["seed"]))
    timed_out = time_out(state)[0]
    assert isinstance(timed_out, ev.TimedOut)
    return timed_out.card, state.hands["red"]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_time_runs_out_after_the_ready_and_burns_a_card_at_random_reproducibly(
        database: str, start_server: Any, tmp_path: Path, kit: Any, request: pytest.FixtureRequest) -> None:
    db = str(tmp_path / "tables.sqlite") if database == "sqlite" else request.getfixturevalue("fresh_postgres")
    server = start_server(db=db, ready_within=30, bot_delay=30)  # only the ready starts the clock here
    ann = kit.seated(server.url, Intent("create", name="Ann", options={**ONLINE, "turn_seconds": 3}), tmp_path / "a.json")
    try:
        code = ann.code
        assert code is not None and ann.view is not None and ann.view["turn_seconds"] == 3
        set_ = kit.until(ann, lambda item: isinstance(item, Clock))
        assert (set_.event, set_.colour, set_.moves, set_.seconds) == ("set", "red", 0, 3)
        time.sleep(1.0)
        assert [m["event"] for m in clock_messages(ann, 0)] == ["set"]  # it waits for the client's ready
        assert ann.send_ready(0)
        readied = time.monotonic()
        heard: list[Any] = []
        burned = kit.until(ann, lambda item: isinstance(item, Played), heard)
        assert time.monotonic() - readied >= 2.9  # three seconds from the ready
        card, hand = expected_time_out(3)
        assert (burned.colour, burned.phrase) == ("red", "time out")
        assert burned.events[0] == ev.TimedOut("red", card)  # the engine's seeded draw, as on a local table
        assert ann.view is not None and ann.view["hand"] == hand
        # Warned at once (three seconds are fewer than ten), then a tick for each of the last two seconds.
        assert [(m["event"], m.get("seconds_left")) for m in clock_messages(ann, 0)] == [
            ("set", None), ("started", 3), ("warning", 3), ("tick", 2), ("tick", 1)]
        assert ann.send_undo()  # a timed-out turn stays as it is (ON11)
        refused = kit.until(ann, lambda item: isinstance(item, Refusal))
        assert refused.code == REFUSED and "timed-out turn cannot be taken back" in refused.message
        phrases, _ = kit.read_stored(db, code)
        assert phrases == ["time out"]
        view = ann.view
    finally:
        ann.close()
    server.kill()  # a crash: the restarted server replays the stored "time out" with the stored generator
    restarted = start_server(db=db, bot_delay=30)  # the next seat is a bot: it must not move before the view is read
    back = kit.seated(restarted.url, Intent("join", code=code), tmp_path / "a.json")
    try:
        assert back.view is not None and back.view["moves"] == 1
        assert {k: v for k, v in back.view.items() if k != "players"} == {k: v for k, v in view.items() if k != "players"}
    finally:
        back.close()


def test_a_move_in_time_stops_the_clock(start_server: Any, tmp_path: Path, kit: Any) -> None:
    db = str(tmp_path / "tables.sqlite")
    server = start_server(db=db, ready_within=30, bot_delay=30)
    ann = kit.seated(server.url, Intent("create", name="Ann", options={**ONLINE, "turn_seconds": 2}), tmp_path / "a.json")
    try:
        kit.until(ann, lambda item: isinstance(item, Clock) and item.event == "set")
        assert ann.send_ready(0)
        kit.until(ann, lambda item: isinstance(item, Clock) and item.event == "warning")
        assert ann.send_move("play ace out")
        kit.until(ann, lambda item: isinstance(item, Played))
        time.sleep(2.5)  # past the two seconds the turn had
        assert [m["event"] for m in clock_messages(ann, 0)] == ["set", "started", "warning"]
        assert kit.read_stored(db, ann.code)[0] == ["play ace out"]
    finally:
        ann.close()


def test_the_clock_starts_anyway_when_the_client_never_says_ready(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server(ready_within=1, bot_delay=30)  # a client that says nothing cannot hold the table up
    ann = kit.seated(server.url, Intent("create", name="Ann", options={**ONLINE, "turn_seconds": 1}), tmp_path / "a.json")
    watcher = kit.seated(server.url, Intent("watch", code=ann.code), tmp_path / "w.json")
    try:
        began = time.monotonic()
        burned = kit.until(ann, lambda item: isinstance(item, Played))
        assert burned.phrase == "time out" and time.monotonic() - began >= 1.5
        assert kit.until(watcher, lambda item: isinstance(item, Played)).phrase == "time out"  # every seat hears it
        assert not any(m.get("type") == "turn_clock" for m in watcher.messages)  # the clock is the player's news
    finally:
        ann.close()
        watcher.close()


def test_a_move_taken_back_gives_back_the_time_that_was_left(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server(ready_within=30, bot_delay=30)
    ann = kit.seated(server.url, Intent("create", name="Ann", options={**ONLINE, "turn_seconds": 30}), tmp_path / "a.json")
    try:
        kit.until(ann, lambda item: isinstance(item, Clock) and item.event == "set")
        assert ann.send_ready(0)
        time.sleep(2.2)
        assert ann.send_move("play ace out")
        kit.until(ann, lambda item: isinstance(item, Played))
        assert ann.send_undo()
        kit.until(ann, lambda item: isinstance(item, Undone))
        again = kit.until(ann, lambda item: isinstance(item, Clock))
        assert (again.event, again.moves) == ("set", 0)
        assert 26 <= again.seconds <= 28  # not a fresh half-minute: undo is no way to buy time
    finally:
        ann.close()


@pytest.mark.parametrize("options", [{**ONLINE, "turn_seconds": 0}, {**ONLINE, "rules": "voicejack"}],
                         ids=["online-timer-off", "voicejack-rules"])
def test_without_a_turn_timer_the_old_silence_timeout_plays_for_the_seat(options: dict[str, Any], start_server: Any,
                                                                         tmp_path: Path, kit: Any) -> None:
    server = start_server(turn_timeout=1.5, ready_within=30)
    ann = kit.seated(server.url, Intent("create", name="Ann", options=options), tmp_path / "a.json")
    try:
        assert ann.view is not None and ann.view["turn_seconds"] == 0
        assert ann.send_ready(0)  # harmless where there is no clock
        slow = kit.until(ann, lambda item: isinstance(item, SeatNews) and item.event == "slow")
        assert (slow.colour, slow.seconds) == ("red", 1.5)
        played = kit.until(ann, lambda item: isinstance(item, Played))
        assert (played.colour, played.phrase) == ("red", "play ace out")  # a bot's move, not a burn
        assert not any(m.get("type") == "turn_clock" for m in ann.messages)
    finally:
        ann.close()


def test_turn_seconds_is_for_the_online_rules_only(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server()
    session = Session([server.url], Intent("create", options={**ONLINE, "rules": "voicejack", "turn_seconds": 30}),
                      SeatStore(tmp_path / "a.json"), retry=0.1)
    session.start()
    try:
        refused = kit.until(session, lambda item: isinstance(item, Refusal))
        assert (refused.code, refused.message) == ("bad_message", "the voicejack rule set has no turn timer")
    finally:
        session.close()
