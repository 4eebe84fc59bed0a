""""undo" at a server table: the server knows which seat asked, restores the table before that seat's last move,
stores it (a restart resumes the restored table) and tells everyone; every refusal says why and changes nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from voicejack.engine import make_rules, new_game
from voicejack.engine import events as ev
from voicejack.remote.session import Intent, Played, Refusal, SeatStore, Session, Snapshot, Undone
from voicejack.server.undo import REFUSED, LastMove, Mover, why_not

TWO_PEOPLE = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "human"], "seed": 12}
AGAINST_A_BOT = {**TWO_PEOPLE, "seats": ["human", "bot"]}  # seed 12: red plays first, "play ace out"


def until(session: Session, wanted: Callable[[Any], bool], timeout: float = 20.0) -> Any:
    """The first piece of news for which ``wanted`` holds (the others are dropped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for item in session.news(0.05):
            if wanted(item):
                return item
    raise AssertionError("the server did not say it in time")


def seated(url: str, intent: Intent, store: Path) -> Session:
    session = Session([url], intent, SeatStore(store), retry=0.1)
    session.start()
    until(session, lambda item: isinstance(item, Snapshot))
    return session


def test_undo_restores_and_stores_the_table_before_the_move(start_server: Any, tmp_path: Path, kit: Any) -> None:
    db = str(tmp_path / "tables.sqlite")
    server = start_server(db=db, bot_delay=30)  # the bot would play only after half a minute
    ann = seated(server.url, Intent("create", name="Ann", options=AGAINST_A_BOT), tmp_path / "a.json")
    try:
        code = ann.code
        assert code is not None
        _, stored_before = kit.read_stored(db, code)
        view_before = ann.view
        assert ann.send_move("play ace out")
        until(ann, lambda item: isinstance(item, Played))
        assert ann.send_undo()
        undone = until(ann, lambda item: isinstance(item, Undone))
        assert (undone.colour, undone.phrase, undone.moves) == ("red", "play ace out", 0)
        assert ann.view == view_before  # everything the seat may see is as it was
        phrases, stored = kit.read_stored(db, code)
        assert phrases == [] and stored == stored_before  # the move row is gone; the table file is the one before
    finally:
        ann.close()
    server.kill()  # a crash: the restarted server resumes the restored table, and the bot waits for red
    restarted = start_server(db=db, bot_delay=0)
    back = seated(restarted.url, Intent("join", code=code), tmp_path / "a.json")
    try:
        assert back.view is not None and back.view["moves"] == 0 and back.view["turn"] == "red"
        assert back.view["hand"] == view_before["hand"]
    finally:
        back.close()


def test_only_the_seat_that_moved_can_take_it_back(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {**TWO_PEOPLE, "seed": 1}  # green (Bob) plays first, "play ace out"; then red (Ann) has a choice
    ann = seated(server.url, Intent("create", name="Ann", options=options), tmp_path / "a.json")
    bob = seated(server.url, Intent("join", code=ann.code, name="Bob"), tmp_path / "b.json")
    watcher = seated(server.url, Intent("watch", code=ann.code), tmp_path / "w.json")
    try:
        assert ann.send_undo()
        refused = until(ann, lambda item: isinstance(item, Refusal))
        assert (refused.code, refused.message) == (REFUSED, "there is no move to take back")
        assert bob.send_move("play ace out")
        until(ann, lambda item: isinstance(item, Played))
        until(bob, lambda item: isinstance(item, Played))
        assert ann.send_undo()  # Ann cannot take back Bob's move, though nobody has acted since
        refused = until(ann, lambda item: isinstance(item, Refusal))
        assert refused.message == "that was Bob's move; only your own last move can be taken back"
        assert watcher.send_undo()
        assert until(watcher, lambda item: isinstance(item, Refusal)).code == "not_seated"
        assert bob.moves == 1 and ann.moves == 1  # nothing changed
        assert bob.send_undo()
        assert until(ann, lambda item: isinstance(item, Undone)).colour == "green"  # everyone is told
        assert bob.send_undo()
        refused = until(bob, lambda item: isinstance(item, Refusal))
        assert refused.message == "that move has already been taken back; only the last move can be, and only once"
    finally:
        for session in (ann, bob, watcher):
            session.close()


def test_too_late_once_the_next_seat_has_played(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    ann = seated(server.url, Intent("create", name="Ann", options=AGAINST_A_BOT), tmp_path / "a.json")
    try:
        assert ann.send_move("play ace out")
        until(ann, lambda item: isinstance(item, Played) and item.colour == "green")
        assert ann.send_undo()
        refused = until(ann, lambda item: isinstance(item, Refusal))
        assert (refused.code, refused.message) == (REFUSED, "Green has played since, so it is too late to take your "
                                                            "move back")
        assert ann.moves == 2
    finally:
        ann.close()


def _last(events: tuple[ev.Event, ...], mover: Mover = Mover.PLAYER, colour: str = "red") -> LastMove:
    state, _ = new_game(make_rules(2, False, "regular"), seed=12)
    return LastMove(colour, "play ace out", 1, mover, state, events, None)


@pytest.mark.parametrize(("events", "mover", "expected"), [
    ((ev.Won(("red",)),), Mover.PLAYER, "that move won the match"),                     # R38
    ((ev.Dealt("red", 1, 4, "green", 40),), Mover.PLAYER, "new cards were dealt"),      # R9, R10
    ((ev.RandomBurn("red", "green", "9", True),), Mover.PLAYER, "burned a card at random"),  # KA11, ON9
    ((), Mover.BOT, "a bot played that turn for you"),
    ((), Mover.AUTOMATIC, "no card could move"),                                         # R30
])
def test_moves_that_showed_cards_won_or_were_not_chosen_stand(events: tuple[ev.Event, ...], mover: Mover,
                                                               expected: str) -> None:
    reason = why_not(_last(events, mover), "red", False, str.capitalize)
    assert reason is not None and expected in reason
    assert why_not(_last(()), "red", False, str.capitalize) is None

