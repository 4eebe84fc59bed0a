"""Taking a move back ("undo", "take that back") through the real loop: the position restored exactly and
saved, the refusals (each with its own sentence and the error cue), and the announced pause before a bot."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from voicejack.audio.cuenames import Cue
from voicejack.engine import GameState, MoveKind, apply_move, legal_moves, legal_phrases, make_rules, new_game
from voicejack.engine.state import Seat
from voicejack.table.listening import make_gate
from voicejack.table.settings import Settings
from voicejack.tablefile import save_table, table_from_dict

TOO_LATE = "has played since, so it is too late to take that move back."
OFFER_FIRST = "To undo that move, say take that back within"


def table_text(state: GameState, path: Path) -> str:
    save_table(state, path)
    return path.read_text(encoding="utf-8")


def two_humans(seed: int = 1) -> GameState:
    """Ann (red) and Bo (green) share one device; with seeds 1 and 10 each of the first two moves is a choice
    (no hand burned for want of a move, R30)."""
    state, _ = new_game(make_rules(2, False, "regular"), seed=seed,
                        seats=(Seat("red", "Ann", "human"), Seat("green", "Bo", "human")))
    return state


def last_card_of_the_deal(make: Callable[[int], GameState], turn: str | None = None) -> GameState:
    """A position in which the player to act (``turn``, if given) holds the deal's last card and has a choice
    what to do with it (it is not a hand burned for want of a move, R30): their move empties every hand (R10)."""
    for seed in range(1, 60):
        state = make(seed)
        while sum(len(hand) for hand in state.hands.values()) != 1:
            apply_move(state, legal_moves(state)[0])
        if (state.winner is None and legal_moves(state)[0].kind is not MoveKind.BURN_HAND
                and turn in (None, state.turn)):
            return state
    raise AssertionError("no such position in the first seeds")


def test_undo_restores_the_table_exactly_and_saves_it(tmp_path: Path, kit) -> None:
    """Everything in the table file (board, hands, pile, discard, history, turn, dealer, generator) is as before."""
    state = two_humans()
    mover = state.turn
    scratch = tmp_path / "before.json"
    before = table_text(state, scratch)
    phrase = legal_phrases(state)[0]
    saved = tmp_path / "s.json"
    seen: dict[str, str] = {}

    def lines() -> Iterator[str]:
        yield phrase
        yield "undo"  # the other player's turn: nobody has acted since
        seen["autosave"] = saved.read_text(encoding="utf-8")
        seen["turn"] = state.turn

    match, _, transcript = kit.run_match(state, lines(), saved, announce=False)
    assert seen["autosave"] == before  # the autosave was rewritten with the restored position
    assert seen["turn"] == mover
    assert table_text(match.state, scratch) == before
    assert match.state.history == []
    name = state.seat(mover).name
    told = transcript.lines.index(f"Took back {name}'s move: {phrase}. Everything is as it was before it.")
    assert transcript.lines[told + 1] == f"<cue {Cue.YOUR_TURN}>"  # then the turn is theirs again, prompted
    assert transcript.lines[told + 2] == f"{name}, over to you."


def test_the_same_move_can_be_played_again_after_undo(tmp_path: Path, kit) -> None:
    """The generator is restored too, so the match goes on exactly as if the move had been played once."""
    plain = two_humans(seed=10)
    phrase = legal_phrases(plain)[0]
    apply_move(plain, legal_moves(plain)[0])
    expected = table_text(plain, tmp_path / "plain.json")
    state = two_humans(seed=10)
    seen: dict[str, str] = {}

    def lines() -> Iterator[str]:
        yield from (phrase, "take that back", phrase)
        seen["replayed"] = table_text(state, tmp_path / "after.json")

    kit.run_match(state, lines(), tmp_path / "s.json", announce=False)
    assert seen["replayed"] == expected


def test_typed_forms_of_undo(tmp_path: Path, kit) -> None:
    for words in ("take it back", "undo that", "undo the last move", "take back"):
        state = two_humans()
        _, _, transcript = kit.run_match(state, [legal_phrases(state)[0], words], tmp_path / "s.json",
                                         announce=False)
        assert any(line.startswith("Took back ") for line in transcript.lines), words
        assert state.history == [], words


def test_nothing_to_take_back_at_the_start(tmp_path: Path, kit) -> None:
    state = two_humans()
    before = table_text(state, tmp_path / "before.json")
    _, _, transcript = kit.run_match(state, ["undo"], tmp_path / "s.json", announce=False)
    said = transcript.lines.index("There is no move to take back yet.")
    assert transcript.lines[said - 1] == f"<cue {Cue.TURNED_BACK}>"
    assert table_text(state, tmp_path / "after.json") == before


def test_only_once(tmp_path: Path, kit) -> None:
    state = two_humans()
    _, _, transcript = kit.run_match(state, [legal_phrases(state)[0], "undo", "undo"], tmp_path / "s.json",
                                     announce=False)
    assert "That move has already been taken back: only the last move can be, and only once." in transcript.lines


def test_refused_after_a_deal(tmp_path: Path, kit) -> None:
    """R10: the last card of a deal brings a new deal (R9); new cards were shown, so it stands."""
    state = last_card_of_the_deal(two_humans)
    phrase = legal_phrases(state)[0]
    seen: dict[str, str] = {}

    def lines() -> Iterator[str]:
        yield phrase
        seen["after"] = table_text(state, tmp_path / "after.json")
        yield "undo"
        seen["refused"] = table_text(state, tmp_path / "refused.json")

    _, _, transcript = kit.run_match(state, lines(), tmp_path / "s.json", announce=False)
    assert "That move ended the deal and new cards were dealt, so it cannot be taken back." in transcript.lines
    assert seen["refused"] == seen["after"]
    assert state.history[-1][1].phrase == phrase


def test_refused_once_another_player_has_acted(tmp_path: Path, kit) -> None:
    """You against a bot, typing from a script (no pause): the bot plays at once, and then it is too late."""
    state = kit.two_player_state(seed=12)  # your turn first
    assert state.turn == "red"
    seen: dict[str, str] = {}

    def lines() -> Iterator[str]:
        yield legal_phrases(state)[0]
        seen["after"] = table_text(state, tmp_path / "after.json")
        yield "undo"
        seen["refused"] = table_text(state, tmp_path / "refused.json")

    _, _, transcript = kit.run_match(state, lines(), tmp_path / "s.json", announce=False)
    assert f"Green {TOO_LATE}" in transcript.lines
    assert [colour for colour, _ in state.history] == ["red", "green"]
    assert seen["refused"] == seen["after"]


def test_refused_for_a_bots_move(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=1)  # Green, a bot, plays first
    assert state.turn == "green"
    _, _, transcript = kit.run_match(state, ["undo"], tmp_path / "s.json", announce=False)
    assert "That was Green's move; only your own last move can be taken back." in transcript.lines
    assert [colour for colour, _ in state.history] == ["green"]


def test_refused_for_the_winning_move(tmp_path: Path, kit) -> None:
    """R38: the match is over once won; "undo" said while the win is being told changes nothing."""
    state = table_from_dict({
        "format": "voicejack-table/1", "mode": "regular", "turn": "red",
        "players": [{"colour": "red", "name": "Ann", "kind": "human", "hand": ["A", "9"]},
                    {"colour": "green", "name": "Bo", "kind": "human", "hand": ["9", "9"]}],
        "marbles": {"red": ["safe 2", "safe 3", "safe 4", 75], "green": ["home"] * 4},
    })
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.25)
    audio.when_said(lambda text, seat: text.endswith("over to you."), lambda: source.type("play ace red four one"))
    audio.when_said(lambda text, seat: "wins" in text, lambda: source.type("undo"))
    outcome = match.run(announce_start=False)
    assert outcome.winner == ("red",)
    assert "That move won the match; a winning move cannot be taken back." in printed.text
    assert match.state.winner == ("red",)


def test_refused_for_a_timed_out_turn(tmp_path: Path, kit) -> None:
    """ON11: the turn timer burned the card, not the player."""
    state, _ = new_game(make_rules(2, False, rule_set="online", turn_seconds=2), seed=12,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    assert state.turn == "red"
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", seconds_per_word=0.05)
    audio.when_said(lambda text, seat: text.startswith("Time is up"),
                    lambda: source.type("undo", "quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert "The turn timer burned that card, not you: a timed-out turn cannot be taken back." in printed.text
    assert state.history[0][1].phrase == "time out"


def test_a_resumed_turn_keeps_the_time_that_was_left(tmp_path: Path, kit) -> None:
    """ON11: taking a move back gives back the clock as it stood, not a fresh turn's worth of time."""
    import time

    state, _ = new_game(make_rules(2, False, rule_set="online", turn_seconds=3), seed=12,
                        seats=(Seat("red", "You", "human"), Seat("green", "Green", "bot")))
    phrase = legal_phrases(state)[0]
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json",
                                                   settings=Settings(undo_seconds=5.0))

    def think_then_move() -> None:
        time.sleep(1.3)  # more than a second of the three goes by before the move
        source.type(phrase)

    audio.when_said(lambda text, seat: text.endswith("seconds left."), think_then_move)
    audio.when_said(lambda text, seat: text.startswith(OFFER_FIRST), lambda: source.type("undo"))
    audio.when_said(lambda text, seat: text.startswith("Time is up"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    warnings = [line for _, line in printed.lines if line.endswith("seconds left.")]
    assert warnings[0] == "3 seconds left."
    took_back = printed.first("Took back your move")
    resumed = [line for at, line in printed.lines if at > took_back and line.endswith("seconds left.")]
    assert resumed and int(resumed[0].split()[0]) <= 2
    assert state.history[0][1].phrase == "time out"  # the rest of the clock ran out


# ---------------------------------------------------------------------------- the pause before a bot


def test_typed_undo_in_the_pause_before_the_bot_plays(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)  # your turn first, Green (a bot) next
    before = table_text(state, tmp_path / "before.json")
    phrase = legal_phrases(state)[0]
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=5.0))
    audio.when_said(lambda text, seat: text.startswith("Your turn"), lambda: source.type(phrase))
    audio.when_said(lambda text, seat: text.startswith(OFFER_FIRST), lambda: source.type("take that back"))
    audio.when_said(lambda text, seat: text.startswith("Took back"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert f"Took back your move: {phrase}. Everything is as it was before it." in printed.text
    assert "To undo that move, say take that back within 5 seconds." in printed.text
    assert table_text(match.state, tmp_path / "after.json") == before
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == before


def test_the_pause_is_announced_in_full_once_then_briefly(tmp_path: Path, kit) -> None:
    state, _ = new_game(make_rules(4, True, "regular"), seed=8)  # you (red) and three bots
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=0.05))
    prompts = 0

    def move() -> None:
        nonlocal prompts
        prompts += 1
        if prompts < 3:
            audio.when_said(lambda text, seat: text.startswith("Your turn"), move)  # again at the next prompt
        source.type(*(["options", "1", "yes"] if prompts < 3 else ["quit", "yes"]), gap=0.1)

    audio.when_said(lambda text, seat: text.startswith("Your turn"), move)
    match.run(announce_start=False)
    red_moves = sum(colour == "red" for colour, _ in match.state.history)
    assert red_moves >= 2
    lines = [line for _, line in printed.lines]
    assert sum(line.startswith(OFFER_FIRST) for line in lines) == 1
    assert lines.count("You can still take that back.") >= 1


def test_no_pause_when_switched_off(tmp_path: Path, kit) -> None:
    state = kit.two_player_state(seed=12)
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=0))
    audio.when_said(lambda text, seat: text.startswith("Your turn"),
                    lambda: source.type("options", "1", "yes", "quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert match.state.history[0][0] == "red"
    assert OFFER_FIRST not in printed.text


def test_no_pause_when_the_next_seat_is_a_person(tmp_path: Path, kit) -> None:
    """Undo stays open until they act; nobody has to wait."""
    state = two_humans()
    first = state.turn
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=5.0))
    audio.when_said(lambda text, seat: text.endswith("over to you."),
                    lambda: source.type(legal_phrases(state)[0]))
    audio.when_said(lambda text, seat: text.startswith(state.seat(state.rules.next_seat(first)).name + ", over"),
                    lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert match.state.history[0][0] == first
    assert OFFER_FIRST not in printed.text


def test_no_pause_after_a_move_that_dealt(tmp_path: Path, kit) -> None:
    state = last_card_of_the_deal(kit.two_player_state, turn="red")
    dealt_at = len(state.history)
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=5.0))
    audio.when_said(lambda text, seat: text.startswith("Your turn"),
                    lambda: source.type(legal_phrases(state)[0]))
    audio.when_said(lambda text, seat: text.startswith("Your turn") and len(state.history) > dealt_at,
                    lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert len(match.state.history) > dealt_at
    assert OFFER_FIRST not in printed.text


def test_bots_only_tables_never_pause(tmp_path: Path, kit) -> None:
    state, _ = new_game(make_rules(2, False, "regular"), seed=4,
                        seats=(Seat("red", "Red", "bot"), Seat("green", "Green", "bot")))
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=30.0))
    outcome = match.run(announce_start=False)
    assert outcome.winner is not None  # with a 30 second pause per move this would never finish in the test run
    assert OFFER_FIRST not in printed.text and "You can still take that back." not in printed.text


def test_the_options_say_when_undo_would_take_a_move_back(tmp_path: Path, kit) -> None:
    state = two_humans()  # Bo (green) plays first, then it is Ann's turn at the same device
    _, _, transcript = kit.run_match(state, [legal_phrases(state)[0], "options"], tmp_path / "s.json",
                                     announce=False)
    question = transcript.lines.index("Your options.")
    assert "You can also say take that back, to undo Bo's move." in transcript.lines[question:]
    first = two_humans()
    _, _, transcript = kit.run_match(first, ["options"], tmp_path / "t.json", announce=False)
    assert not any("take that back" in line for line in transcript.lines)  # nothing to take back: not offered


def test_help_names_undo_and_the_shared_device_rule(tmp_path: Path, kit) -> None:
    state = two_humans()
    _, _, transcript = kit.run_match(state, ["help"], tmp_path / "s.json", announce=False)
    assert "take that back, or undo my move, puts it back until the next player acts" in transcript.text
    assert "when several people share this device, it takes back whoever moved last" in transcript.text


@pytest.mark.parametrize(("mode", "offer"), [
    ("open", "To undo that move, say take that back within 5 seconds."),
    ("wake", "To undo that move, say Jackaroo, take that back within 5 seconds."),
    ("push", "To undo that move, press Enter and say take that back within 5 seconds."),
])
def test_the_pause_says_how_to_take_it_back_in_the_listening_mode(tmp_path: Path, kit, mode: str, offer: str) -> None:
    """In wake mode "take that back" alone is table talk and ignored, and in push mode nothing is heard before
    Enter: before, the offer told every player to just say "take that back", and the bot played meanwhile."""
    state = kit.two_player_state(seed=12)  # your turn first, Green (a bot) next
    phrase = legal_phrases(state)[0]
    match, audio, source, printed = kit.live_match(state, tmp_path / "s.json", settings=Settings(undo_seconds=5.0))
    source.gate = make_gate(Settings(listen=mode))  # the microphone's gate, as VoiceSource carries it
    audio.when_said(lambda text, seat: text.startswith("Your turn"), lambda: source.type(phrase))
    audio.when_said(lambda text, seat: text.startswith("To undo"), lambda: source.type("take that back"))
    audio.when_said(lambda text, seat: text.startswith("Took back"), lambda: source.type("quit", "yes", gap=0.2))
    match.run(announce_start=False)
    assert offer in printed.text
