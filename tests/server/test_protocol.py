"""The protocol's pieces without a network: table codes, events and views read back on the client, and
that a client's view narrates exactly like the full table does at a local match."""

from __future__ import annotations

import json

import pytest

from voicejack.bots import make_bot
from voicejack.engine import apply_move, legal_moves, make_rules, new_game
from voicejack.narration import Narrator
from voicejack.server.codes import ADJECTIVES, ANIMALS, NUMBERS, new_code, normalise_code
from voicejack.server.protocol import (
    MAX_MESSAGE_BYTES, ProtocolError, decode, encode, event_from_json, event_to_json, state_from_view, view_of,
)


def test_table_codes_are_three_plain_words_read_back_however_typed() -> None:
    code = new_code()
    adjective, animal, number = code.split()
    assert adjective in ADJECTIVES and animal in ANIMALS and number in NUMBERS
    assert normalise_code("Amber-Tiger-7") == "amber tiger seven"
    assert normalise_code("  amber   tiger seven ") == "amber tiger seven"
    assert normalise_code("amber tiger") is None and normalise_code("amber tiger 99") is None
    assert len(set(ADJECTIVES)) * len(set(ANIMALS)) * len(set(NUMBERS)) > 20_000  # room for many tables


def test_messages_are_versioned_and_size_limited() -> None:
    assert json.loads(encode({"type": "state"}))["v"] == 1
    assert decode('{"v": 1, "type": "leave"}')["type"] == "leave"
    for raw, code in (("[]", "bad_message"), ('{"type": "leave"}', "version"), ('{"v": 1, "type": "fly"}', "bad_message"),
                      ("x" * (MAX_MESSAGE_BYTES + 1), "too_big"), ("{", "bad_message")):
        with pytest.raises(ProtocolError) as refused:
            decode(raw)
        assert refused.value.code == code


def _some_positions(seed: int, moves: int):  # type: ignore[no-untyped-def]
    state, _ = new_game(make_rules(4, True, "complex"), seed=seed)
    for number in range(moves):
        before = state.copy()
        move = make_bot("bot:easy", seed=number).choose(state, legal_moves(state))
        events = apply_move(state, move)
        yield before, events, state.copy()
        if state.winner is not None:
            return


def test_every_event_of_whole_matches_survives_the_trip() -> None:
    seen: set[str] = set()
    for before, events, after in _some_positions(3, 400):
        for event in events:
            assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
            seen.add(type(event).__name__)
    assert {"CardPlayed", "MarbleWalked", "Dealt", "TurnPassed"} <= seen


def test_a_seat_view_narrates_the_same_as_the_whole_table() -> None:
    """What a remote player hears is what a local player in that seat hears: outcomes, board, turn, hand."""
    narrator = Narrator()
    checked = 0
    for before, events, after in _some_positions(11, 250):
        for you in ("red", "blue", None):
            seen_before = state_from_view(view_of(before, 0, you, {}))
            seen_after = state_from_view(view_of(after, 1, you, {}))
            assert narrator.outcome(seen_before, events, seen_after, you) == narrator.outcome(before, events, after, you)
            assert narrator.board(seen_after, you) == narrator.board(after, you)
            assert narrator.turn_prompt(seen_after, you) == narrator.turn_prompt(after, you)
            assert narrator.score(seen_after, you) == narrator.score(after, you)
            if you is not None:
                assert narrator.hand(seen_after, you) == narrator.hand(after, you)
                if after.turn == you and after.winner is None:
                    assert [m.phrase for m in legal_moves(seen_after)] == [m.phrase for m in legal_moves(after)]
                    assert narrator.describe_options(seen_after, you) == narrator.describe_options(after, you)
            checked += 1
    assert checked > 300


def test_a_view_shows_only_its_own_hand() -> None:
    state, _ = new_game(make_rules(4, True), seed=4)
    view = view_of(state, 0, "blue", {})
    assert view["hand"] == state.hands["blue"]
    assert [p["cards"] for p in view["players"]] == [len(state.hands[c]) for c in state.rules.seats]
    assert view["pile"] == len(state.pile) and "rng" not in view and "discard" not in view
    assert view_of(state, 0, None, {})["hand"] is None


def test_a_broadcast_encoded_once_reads_as_each_receivers_own_view() -> None:
    from voicejack.server.protocol import encode_for_each

    state, _ = new_game(make_rules(4, True), seed=6)
    seats = {"red": {"control": "player", "connected": True}}
    texts = encode_for_each({"type": "moved", "colour": "red", "events": []}, view_of(state, 3, None, seats), state,
                            ["red", "blue", None, "red"])
    assert set(texts) == {"red", "blue", None}
    for you, text in texts.items():
        message = json.loads(text)
        assert message["v"] == 1 and message["type"] == "moved" and message["colour"] == "red"
        assert message["view"] == view_of(state, 3, you, seats)
