""""undo" at a server table: the server knows which seat asked, restores the table before that seat's last move,
stores it (a restart resumes the restored table) and tells everyone; every refusal says why and changes nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from voicejack.engine import make_rules, new_game
from voicejack.engine import events as ev
from voicejack.remote.session import Intent, Played, Refusal, SeatStore, Session, Snapshot, Undone, UndoOffer
from voicejack.server.undo import REFUSED, LastMove, Mover, why_not

TWO_PEOPLE = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "human"], "seed": 12}
AGAINST_A_BOT = {**TWO_PEOPLE, "seats": ["human", "bot"]}  # seed 12: red plays first, "play ace out"






def test_undo_restores_and_stores_the_table_before_the_move(start_server: Any, tmp_path: Path, kit: Any) -> None:
    db = str(tmp_path / "tables.sqlite")
    server = start_server(db=db, bot_delay=30)  # the bot would play only after half a minute
    ann = kit.seated(server.url, Intent("create", name="Ann", options=AGAINST_A_BOT), tmp_path / "a.json")
    try:
        code = ann.code
        assert code is not None
        _, stored_before = kit.read_stored(db, code)
        view_before = ann.view
        assert ann.send_move("play ace out")
        kit.until(ann, lambda item: isinstance(item, Played))
        assert ann.send_undo()
        undone = kit.until(ann, lambda item: isinstance(item, Undone))
        assert (undone.colour, undone.phrase, undone.moves) == ("red", "play ace out", 0)
        assert ann.view == view_before  # everything the seat may see is as it was
        phrases, stored = kit.read_stored(db, code)
        assert phrases == [] and stored == stored_before  # the move row is gone; the table file is the one before
    finally:
        ann.close()
    server.kill()  # a crash: the restarted server resumes the restored table, and the bot waits for red
    restarted = start_server(db=db, bot_delay=0)
    back = kit.seated(restarted.url, Intent("join", code=code), tmp_path / "a.json")
    try:
        assert back.view is not None and back.view["moves"] == 0 and back.view["turn"] == "red"
        assert back.view["hand"] == view_before["hand"]
    finally:
        back.close()


def test_only_the_seat_that_moved_can_take_it_back(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server(bot_delay=0)
    options = {**TWO_PEOPLE, "seed": 1}  # green (Bob) plays first, "play ace out"; then red (Ann) has a choice
    ann = kit.seated(server.url, Intent("create", name="Ann", options=options), tmp_path / "a.json")
    bob = kit.seated(server.url, Intent("join", code=ann.code, name="Bob"), tmp_path / "b.json")
    watcher = kit.seated(server.url, Intent("watch", code=ann.code), tmp_path / "w.json")
    try:
        assert ann.send_undo()
        refused = kit.until(ann, lambda item: isinstance(item, Refusal))
        assert (refused.code, refused.message) == (REFUSED, "there is no move to take back")
        assert bob.send_move("play ace out")
        kit.until(ann, lambda item: isinstance(item, Played))
        kit.until(bob, lambda item: isinstance(item, Played))
        assert ann.send_undo()  # Ann cannot take back Bob's move, though nobody has acted since
        refused = kit.until(ann, lambda item: isinstance(item, Refusal))
        assert refused.message == "that was Bob's move; only your own last move can be taken back"
        assert watcher.send_undo()
        assert kit.until(watcher, lambda item: isinstance(item, Refusal)).code == "not_seated"
        assert bob.moves == 1 and ann.moves == 1  # nothing changed
        assert bob.send_undo()
        assert kit.until(ann, lambda item: isinstance(item, Undone)).colour == "green"  # everyone is told
        assert bob.send_undo()
        refused = kit.until(bob, lambda item: isinstance(item, Refusal))
        assert refused.message == "that move has already been taken back; only the last move can be, and only once"
    finally:
        for session in (ann, bob, watcher):
            session.close()


def test_too_late_once_the_next_seat_has_played(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server(bot_delay=0)
    ann = kit.seated(server.url, Intent("create", name="Ann", options=AGAINST_A_BOT), tmp_path / "a.json")
    try:
        assert ann.send_move("play ace out")  # as an older client does: no pause asked for, so none is offered
        heard: list[Any] = []
        kit.until(ann, lambda item: isinstance(item, Played) and item.colour == "green", seen=heard)
        assert not any(isinstance(item, UndoOffer) for item in heard)
        assert ann.send_undo()
        refused = kit.until(ann, lambda item: isinstance(item, Refusal))
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
    ((ev.TimedOut("red", "6"),), Mover.TIMER, "a timed-out turn cannot be taken back"),  # ON11
])
def test_moves_that_showed_cards_won_or_were_not_chosen_stand(events: tuple[ev.Event, ...], mover: Mover,
                                                               expected: str) -> None:
    reason = why_not(_last(events, mover), "red", False, str.capitalize)
    assert reason is not None and expected in reason
    assert why_not(_last(()), "red", False, str.capitalize) is None



def _news_log(session: Session) -> list[dict[str, Any]]:
    return [m for m in session.messages if m.get("type") in ("undo_offer", "moved")]


def test_the_mover_is_offered_the_pause_its_client_asked_for_and_the_bot_waits_from_its_ready(
        start_server: Any, tmp_path: Path, kit: Any) -> None:
    """Issue 12: after a person's move with a bot next, the moment to say undo, announced to that seat only."""
    server = start_server(bot_delay=0, undo_limit=3, ready_within=30)
    ann = Session([server.url], Intent("create", name="Ann", options=AGAINST_A_BOT), SeatStore(tmp_path / "a.json"),
                  retry=0.1, keep_messages=True)
    ann.start()
    try:
        kit.until(ann, lambda item: isinstance(item, Snapshot))
        assert ann.send_move("play ace out", undo_seconds=5)
        offer = kit.until(ann, lambda item: isinstance(item, UndoOffer))
        assert (offer.colour, offer.moves, offer.seconds) == ("red", 1, 3)  # at most the server's --undo-limit
        time.sleep(1.0)
        assert ann.moves == 1 and [m["type"] for m in _news_log(ann)] == ["moved", "undo_offer"]  # waits for ready
        assert ann.send_ready(1)
        readied = time.monotonic()
        green = kit.until(ann, lambda item: isinstance(item, Played) and item.colour == "green")
        assert 2.9 <= time.monotonic() - readied <= 6
        assert green.moves == 2
    finally:
        ann.close()


def test_no_pause_is_offered_when_a_person_is_next(start_server: Any, tmp_path: Path, kit: Any) -> None:
    server = start_server(bot_delay=0)
    ann = Session([server.url], Intent("create", name="Ann", options={**TWO_PEOPLE, "seed": 1}),
                  SeatStore(tmp_path / "a.json"), retry=0.1, keep_messages=True)
    ann.start()
    kit.until(ann, lambda item: isinstance(item, Snapshot))
    bob = Session([server.url], Intent("join", code=ann.code, name="Bob"), SeatStore(tmp_path / "b.json"), retry=0.1,
                  keep_messages=True)
    bob.start()
    try:
        kit.until(bob, lambda item: isinstance(item, Snapshot))
        assert bob.send_move("play ace out", undo_seconds=2)  # green (Bob) first; Ann, a person, is next
        kit.until(bob, lambda item: isinstance(item, Played))
        time.sleep(0.5)
        assert not any(m.get("type") == "undo_offer" for m in bob.messages + ann.messages)
        assert bob.send_undo()  # undo stays open until Ann acts, with no pause needed
        assert kit.until(bob, lambda item: isinstance(item, Undone)).colour == "green"
    finally:
        ann.close()
        bob.close()
