"""What applying a move reports: the events narration and sound rely on."""

from __future__ import annotations

from voicejack.engine import SAFE_OFFSET, Move, MoveKind, marble_id
from voicejack.engine import events as ev

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1 = marble_id("blue", 1)
GREEN1 = marble_id("green", 1)


def only(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def test_queen_walk_lists_all_twelve_cells_in_order(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["Q"]})
    _, events = apply_phrase(state, "play queen red one")
    played = events[0]
    assert isinstance(played, ev.CardPlayed) and played.card == "Q" and played.colour == "red"
    assert played.move.phrase == "play queen red one" and played.ace_value is None and not played.forces_burn
    (walk,) = only(events, ev.MarbleWalked)
    assert walk.path == tuple(range(11, 23)) and len(walk.path) == 12
    assert walk.start == 10 and walk.end == 22 and not walk.backward and not walk.sweep
    assert events[-1] == ev.TurnPassed("blue")


def test_walk_path_wraps_from_75_to_0(position, apply_phrase) -> None:
    state = position(marbles={"blue": [70]}, hands={"blue": ["8"]}, turn="blue")
    _, events = apply_phrase(state, "play eight blue one")
    (walk,) = only(events, ev.MarbleWalked)
    assert walk.path == (71, 72, 73, 74, 75, 0, 1, 2)


def test_walk_into_safe_zone_path_and_event(position, apply_phrase) -> None:
    state = position(marbles={"green": [35]}, hands={"green": ["6"]}, turn="green")
    _, events = apply_phrase(state, "play six green one")
    (walk,) = only(events, ev.MarbleWalked)
    assert walk.path == (36, 37, SAFE_OFFSET + 1, SAFE_OFFSET + 2, SAFE_OFFSET + 3, SAFE_OFFSET + 4)
    assert only(events, ev.EnteredSafeZone) == [ev.EnteredSafeZone(GREEN1, 4)]


def test_moving_inside_the_lane_is_not_entering(position, apply_phrase) -> None:
    state = position(marbles={"red": ["safe 1", 10]}, hands={"red": ["2"]})
    _, events = apply_phrase(state, "play two red one")
    assert only(events, ev.EnteredSafeZone) == []
    (walk,) = only(events, ev.MarbleWalked)
    assert walk.path == (SAFE_OFFSET + 2, SAFE_OFFSET + 3)


def test_backward_path(position, apply_phrase) -> None:
    state = position(marbles={"red": [2]}, hands={"red": ["4"]})
    _, events = apply_phrase(state, "play four red one")
    assert only(events, ev.MarbleWalked) == [ev.MarbleWalked(RED1, 2, (1, 0, 75, 74), True, "red")]


def test_ace_value_is_reported(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["A"]})
    for phrase, value in (("play ace red one one", 1), ("play ace red one eleven", 11), ("play ace out", None)):
        _, events = apply_phrase(state, phrase)
        assert events[0].ace_value == value


def test_capture_reports_whose_marble_where_and_by_what(position, apply_phrase) -> None:
    state = position(marbles={"red": [30], "blue": [31, 32]}, hands={"red": ["A"]})
    after, events = apply_phrase(state, "play ace red one one")
    assert only(events, ev.MarbleCaptured) == [ev.MarbleCaptured(BLUE1, 31, RED1, "red", "landed")]
    # the walk comes before the capture it causes
    kinds = [type(e) for e in events]
    assert kinds.index(ev.MarbleWalked) < kinds.index(ev.MarbleCaptured)


def test_split_events_in_order(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, 30]}, hands={"red": ["7"]})
    _, events = apply_phrase(state, "play seven red two three red one four")
    walks = only(events, ev.MarbleWalked)
    assert [(w.marble, w.path) for w in walks] == [(RED2, (31, 32, 33)), (RED1, (11, 12, 13, 14))]


def test_swap_event(position, apply_phrase) -> None:
    state = position(marbles={"red": [10], "blue": [40]}, hands={"red": ["J"]})
    _, events = apply_phrase(state, "play jack red one blue one")
    assert events[1:] == [ev.MarblesSwapped(RED1, BLUE1, 10, 40, "red"), ev.TurnPassed("blue")]


def test_out_event(position, apply_phrase) -> None:
    state = position(hands={"red": ["K"]})
    _, events = apply_phrase(state, "play king out")
    assert events[1:] == [ev.MarbleCameOut(RED1, 0, "red"), ev.TurnPassed("blue")]


def test_finish_and_win_events_two_players(position, apply_phrase) -> None:
    state = position(
        marbles={"red": [73, "safe 2", "safe 3", "safe 4"]}, hands={"red": ["3"]}, players=2, teams=False,
    )
    _, events = apply_phrase(state, "play three red one")
    assert events[-2:] == [ev.EnteredSafeZone(RED1, 1), ev.Won(("red",))]


def test_player_finished_then_turn_passes(position, apply_phrase) -> None:
    state = position(marbles={"red": [73, "safe 2", "safe 3", "safe 4"]}, hands={"red": ["3"]}, teams=True)
    _, events = apply_phrase(state, "play three red one")
    assert events[-3:] == [ev.EnteredSafeZone(RED1, 1), ev.PlayerFinished("red", "green"), ev.TurnPassed("blue")]


def test_history_and_last_card(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["5", "9"]})
    after, _ = apply_phrase(state, "play nine red one")
    played = Move("9", MoveKind.WALK, RED1, 9)
    assert after.history[-1] == ("red", played)  # the history holds moves, not their phrases
    assert after.last_card is not None
    assert (after.last_card.colour, after.last_card.card, after.last_card.move) == ("red", "9", played)
    assert after.last_card.phrase == "play nine red one"
    assert after.discard[-1] == "9" and after.hands["red"] == ["5"]
    # play is pure: the original state is untouched
    assert state.hands["red"] == ["5", "9"] and state.marbles[RED1] == 10 and state.history == []
