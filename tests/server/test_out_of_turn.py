"""What a remote seat or a spectator hears when they say something that is not theirs to say: the local
table's words (whose turn it is, by name), that the match has not begun, or that a spectator holds no
cards; and the table never changes (R12: only the player to act plays)."""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from server_wire import next_message, send

from voicejack.engine import legal_moves
from voicejack.remote.session import Intent, SeatStore, Session
from voicejack.remote.table import RemoteConfig, RemoteTable
from voicejack.server.protocol import state_from_view
from voicejack.language import Heard
from voicejack.table.inputs import END_OF_INPUT, InputHub, KeyboardSource, Utterance
from voicejack.table.presenter import Presenter

#: Red (Ann) plays first with this seed; nobody moves during a test (the bot delay is a minute).
TWO_PEOPLE = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "human"], "seed": 5}
NOT_BOBS_TURN = "It is Ann's turn, not yours. Your command was not played."
WATCHING = "You are watching, so you hold no cards and cannot play or take back moves."


class Transcript(Presenter):
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cues: list[str] = []
        self.heard: list[str] = []  # lines and cues (as "<cue>") in the order they came
        super().__init__(None, write=self._write)

    def _write(self, line: str) -> None:
        self.lines.append(line)
        self.heard.append(line)

    def cue(self, name: str) -> None:
        self.cues.append(name)
        self.heard.append(f"<{name}>")


class Terminal:
    """A client at a terminal, run on its own thread: the test types lines whenever it likes (through a pipe,
    or all at once from ``typed``), and everything the player hears is kept in ``said``."""

    def __init__(self, url: str, intent: Intent, store: SeatStore, typed: list[str] | None = None) -> None:
        self.hub = InputHub()
        self._write: int | None = None
        if typed is None:
            read, self._write = os.pipe()
            self.hub.add(KeyboardSource(os.fdopen(read), live=True))
        else:
            self.hub.add(KeyboardSource(io.StringIO("".join(line + "\n" for line in typed)), live=True))
        self.said = Transcript()
        self.table = RemoteTable(Session([url], intent, store, retry=0.1), self.said, self.hub, RemoteConfig(url))
        self.status: list[int] = []
        self._thread = threading.Thread(target=lambda: self.status.append(self.table.run()), daemon=True)
        self._thread.start()

    def type(self, line: str) -> None:
        assert self._write is not None
        os.write(self._write, line.encode() + b"\n")

    def wait_until(self, holds: Callable[[list[str]], bool], timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not holds(self.said.lines) and time.monotonic() < deadline:
            time.sleep(0.05)

    def hang_up(self, timeout: float = 20) -> list[int]:
        """Stop typing (end of input) and wait for the client to finish; its exit statuses."""
        if self._write is not None:
            os.close(self._write)
        self._thread.join(timeout)
        self.hub.close()
        return self.status


def _typed_at(url: str, intent: Intent, lines: list[str], store: Path) -> tuple[int, Transcript, Session]:
    """A client typing ``lines`` at a terminal (answered whenever they come, as a person types), then hanging up."""
    client = Terminal(url, intent, SeatStore(store), typed=lines)
    status = client.hang_up(30)
    assert status, "the client did not finish its lines"
    return status[0], client.said, client.table.session


def _moves(url: str, code: str) -> int:
    with connect(url, open_timeout=5, proxy=None) as ws:
        send(ws, {"type": "watch", "code": code})
        return int(next_message(ws, "state")["view"]["moves"])


@pytest.fixture
def ann_at_table(start_server: Any) -> Iterator[tuple[str, ClientConnection, str]]:
    """The server's address, Ann's connection (she created the table, red) and the table code."""
    server = start_server(bot_delay=60)
    with connect(server.url, open_timeout=5, proxy=None) as ann:
        send(ann, {"type": "create", "name": "Ann", **TWO_PEOPLE})
        yield server.url, ann, next_message(ann, "joined")["code"]


def test_a_seated_player_out_of_turn_hears_whose_turn_it_is_by_name(ann_at_table: Any, tmp_path: Path) -> None:
    url, _, code = ann_at_table
    lines = ["play king out", "options", "seven", "my cards"]
    status, said, _ = _typed_at(url, Intent("join", code=code, name="Bob"), lines, tmp_path / "bob.json")
    assert status == 0
    assert said.lines.count(NOT_BOBS_TURN) == 3  # the move, the options and the card alone, as at a local table
    assert not any("red's turn" in line or line.startswith("It is not your turn") for line in said.lines)
    assert any(line.startswith("You hold ") for line in said.lines)  # his own cards he may always hear
    assert said.cues.count("turned-back") == 3
    assert _moves(url, code) == 0


def test_a_spectator_is_told_they_hold_no_cards_and_never_hears_the_players_hand_checked(
        ann_at_table: Any, tmp_path: Path) -> None:
    url, _, code = ann_at_table
    with connect(url, open_timeout=5, proxy=None) as bob:
        send(bob, {"type": "join", "code": code, "name": "Bob"})
        next_message(bob, "state")
        lines = ["my cards", "options", "play seven red one", "seven", "undo", "read the board", "save the game",
                 "leave the table"]
        status, said, _ = _typed_at(url, Intent("watch", code=code), lines, tmp_path / "w.json")
    assert status == 0
    assert said.lines.count(WATCHING) == 5
    # "You have no seven" would be an answer about Ann's hand, which the spectator does not see.
    assert not any(line.startswith(("You have no", "It is not your turn", "Leave the table")) for line in said.lines)
    assert any(line.startswith("It is Ann's turn.") for line in said.lines)  # the board is public
    assert f"you can stop and listen again with: voicejack watch {url} {code}." in said.lines[-2]
    assert said.lines[-1] == f"You stopped watching. Listen again with: voicejack watch {url} {code}."
    assert _moves(url, code) == 0


class Microphone:
    """Hands the client what a recogniser would, whenever the test says (``hear``), until ``end``."""

    live = True

    def start(self, push: Callable[[Any], None]) -> None:
        self.push = push

    def hear(self, heard: Heard) -> None:
        self.push(Utterance(heard))

    def end(self) -> None:
        self.push(END_OF_INPUT)

    def set_grammar(self, grammar: Any) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_spectator_is_asked_about_a_command_heard_doubted_and_stays(ann_at_table: Any, tmp_path: Path) -> None:
    """Issue 12: a doubted command is asked about ("Did you say ...?"); a spectator once hung up on any
    confirmation of a command, taking it for "leave"."""
    url, _, code = ann_at_table
    watcher = Terminal(url, Intent("watch", code=code), SeatStore(tmp_path / "w.json"))
    microphone = Microphone()
    watcher.hub.add(microphone)
    watcher.wait_until(lambda lines: any(line.startswith("You are watching") for line in lines))
    microphone.hear(Heard("whose turn is it", (0.5,) * 4, doubted=True))
    watcher.wait_until(lambda lines: "Did you say whose turn is it? Yes or no." in lines)
    watcher.type("yes")
    watcher.wait_until(lambda lines: "Ann's turn." in lines)
    microphone.end()
    status = watcher.hang_up(30)
    lines = watcher.said.lines
    asked = lines.index("Did you say whose turn is it? Yes or no.")
    assert lines[asked + 1] == "Ann's turn."
    assert status == [0]


def test_before_every_seat_is_taken_the_player_to_act_hears_that_the_match_has_not_begun(
        start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=60)
    lines = ["whose turn is it", "options", "option one", "play ten red one"]
    status, said, session = _typed_at(server.url, Intent("create", name="Ann", options=TWO_PEOPLE), lines,
                                      tmp_path / "ann.json")
    assert status == 0
    waiting = "Waiting for 1 more player to join. The match starts when every seat is taken."
    assert said.lines.count(waiting) == 5  # on sitting down, then once for each line
    assert not any(line.startswith(("Your turn", "Your options", "Option 1", "It is not your turn"))
                   for line in said.lines)
    assert session.code is not None and _moves(server.url, session.code) == 0


def test_a_server_not_reached_yet_is_said_so_not_called_a_lost_connection(
        start_server: Any, kit: Any, tmp_path: Path) -> None:
    port = kit.free_port()
    url = f"ws://127.0.0.1:{port}"
    options = {**TWO_PEOPLE, "seats": ["human", "bot"]}
    ann = Terminal(url, Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"),
                   typed=[])  # nothing typed: hangs up once seated
    said = ann.said
    ann.wait_until(bool, timeout=10)
    start_server(port=port)  # the friend's server comes up a moment later
    assert ann.hang_up(30) == [0]
    assert said.lines[0] == f"The server at {url} cannot be reached. Trying again by itself."
    assert said.lines[1] == "Connected to the server."
    assert not any("was lost" in line for line in said.lines)
    assert any(line.startswith("Your table code is ") for line in said.lines)


def _bot_match(url: str, until: Callable[[dict[str, Any]], bool]) -> str:
    """The code of a two-bot match (Ann against Bob) created here and followed until a move's view meets ``until``."""
    bots = {"players": 2, "teams": False, "mode": "regular", "seats": ["bot", "bot"], "seed": 5, "names": ["Ann", "Bob"]}
    with connect(url, open_timeout=5, proxy=None) as creator:
        send(creator, {"type": "create", **bots})
        code = str(next_message(creator, "watching")["code"])
        while not until(next_message(creator, "moved")["view"]):
            pass
    return code


def test_coming_in_mid_match_tells_whose_turn_it_is_not_who_played_first(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0.3)
    code = _bot_match(server.url, lambda view: int(view["moves"]) >= 2)
    status, said, session = _typed_at(server.url, Intent("watch", code=code), [], tmp_path / "w.json")
    assert status == 0 and session.moves >= 2
    assert not any("plays first" in line or " deals, and " in line for line in said.lines)
    assert any(line in ("Ann's turn.", "Bob's turn.") for line in said.lines[:8])
    assert "Two players: Ann against Bob." in said.lines  # still who plays what, for someone new to the table


def test_coming_to_a_finished_match_tells_who_won_not_who_played_first(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    code = _bot_match(server.url, lambda view: view["winner"] is not None)
    status, said, _ = _typed_at(server.url, Intent("watch", code=code), [], tmp_path / "w.json")
    assert status == 0
    assert not any("plays first" in line or " deals, and " in line for line in said.lines)
    assert said.lines[-1].startswith("The match is over: ")


def test_a_hand_that_can_only_be_burned_is_not_announced_as_the_players_turn(start_server: Any, tmp_path: Path) -> None:
    """R30: with every marble at home and no card to bring one out, the whole hand goes at once; as at a local
    table the player is told the burn, with no turn cue or prompt for a turn there is nothing to decide in."""
    server = start_server(bot_delay=0.3)
    options = {**TWO_PEOPLE, "seats": ["human", "bot"]}  # red leads, holding two threes, a five and a ten
    ann = Terminal(server.url, Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"))
    said = ann.said  # a person at a terminal who types nothing
    ann.wait_until(lambda lines: any("burned your whole hand" in line for line in lines))
    assert ann.hang_up() == [0]
    burned = next(i for i, line in enumerate(said.heard) if "burned your whole hand" in line)
    assert said.heard[burned].startswith("You could not move and burned your whole hand: two threes, a five and a ten.")
    assert not any(line.startswith("Your turn") or line == "<your-turn>" for line in said.heard[:burned])


def test_a_player_who_joins_is_called_by_their_name_at_once(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=60)
    options = {**TWO_PEOPLE, "seed": 2}  # green leads
    ann = Terminal(server.url, Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"))
    said, table = ann.said, ann.table

    def wait_for(text: str) -> None:
        ann.wait_until(lambda lines: text in lines)
        assert text in said.lines, said.lines

    wait_for("Waiting for 1 more player to join. The match starts when every seat is taken.")
    assert table.session.code is not None
    with connect(server.url, open_timeout=5, proxy=None) as bob:
        send(bob, {"type": "join", "code": table.session.code, "name": "Bob"})
        bobs_view = next_message(bob, "state")["view"]
        wait_for("Bob joined, as green.")
        seen = table.session.state
        assert seen is not None and seen.seat("green").name == "Bob"  # the view the next move is told from
        ann.type("whose turn is it")
        wait_for("Bob's turn.")
        send(bob, {"type": "move", "phrase": legal_moves(state_from_view(bobs_view))[0].phrase, "seen": 0})
        ann.wait_until(lambda lines: any(line.startswith("Bob ") for line in lines))
        status = ann.hang_up()
    assert status == [0]
    assert any(line.startswith("Bob ") for line in said.lines)  # his first move is told by his name too
    assert not any("Green" in line for line in said.lines[said.lines.index("Bob joined, as green."):])


def test_say_that_again_repeats_the_last_move_or_answer_as_at_a_local_table(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {**TWO_PEOPLE, "seats": ["human", "bot"], "seed": 2}  # the bot (green) leads
    ann = Terminal(server.url, Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"))

    def typed(line: str, then: Any) -> list[str]:
        """What is said after typing ``line``, once ``then`` holds for it."""
        start = len(ann.said.lines)
        if line:
            ann.type(line)
        ann.wait_until(lambda lines: then(lines[start:]))
        return ann.said.lines[start:]

    typed("", lambda new: any(line.startswith("Your turn, red.") for line in new))
    told = typed("play ace out", lambda new: any(line.startswith("Your turn, red.") for line in new))
    again = typed("say that again", lambda new: any(line.startswith("Your turn, red.") for line in new))
    assert told[0].startswith("You played an ace") and told[0] in again  # her move and what came after it...
    assert not any(line.startswith(("Your table code", "This match is played")) for line in again)  # ...not the start
    board = typed("read the board", lambda new: "Say next for the next line." in new)
    again = typed("say that again", lambda new: "Say next for the next line." in new)
    assert again == board  # the answer to the last command, and nothing older
    assert ann.hang_up() == [0]


def test_no_to_a_numbered_option_goes_back_to_the_options_as_at_a_local_table(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {**TWO_PEOPLE, "seats": ["human", "bot"], "seed": 2}  # the bot burns its hand, then it is Ann's turn
    lines = ["options", "1", "no"]  # a bare number is confirmed first
    ann = Terminal(server.url, Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"))
    said = ann.said
    ann.wait_until(lambda said: any(line.startswith("Your turn, red.") for line in said))
    for line in lines:
        ann.type(line)
    ann.wait_until(lambda said: said[-1].startswith(("Your options. ", "Cancelled")))
    assert ann.hang_up() == [0]
    confirm = next((i for i, line in enumerate(said.lines) if line.startswith("Option 1: ")), None)
    assert confirm is not None, "\n".join(said.lines)
    first = said.lines[said.lines.index("Your options.") + 1]
    assert said.lines[confirm + 1] == f"Your options. {first}"  # asked again, with the list, not "Cancelled."


def test_back_while_a_bot_plays_the_turn_the_player_is_told_the_next_one_is_theirs(
        start_server: Any, tmp_path: Path) -> None:
    server = start_server(grace=0.3, bot_delay=3)
    options = {**TWO_PEOPLE, "seed": 1}  # Bob (green) leads, with an ace to bring a marble out
    store = SeatStore(tmp_path / "bob.json")
    with connect(server.url, open_timeout=5, proxy=None) as ann:
        send(ann, {"type": "create", "name": "Ann", **options})
        code = next_message(ann, "joined")["code"]
        with connect(server.url, open_timeout=5, proxy=None) as first_line:
            send(first_line, {"type": "join", "code": code, "name": "Bob"})
            store.put(code, "green", next_message(first_line, "joined")["token"])
        while next_message(ann, "seat")["event"] != "bot":  # Bob's line dropped; after the grace a bot plays his turn
            pass
        bob = Terminal(server.url, Intent("join", code=code), store)
        said = bob.said
        assert next_message(ann, "moved")["colour"] == "green"  # the bot's turn for him
        send(ann, {"type": "move", "phrase": "play king out"})
        bob.wait_until(lambda lines: any(line.startswith("Your turn, green.") for line in lines))
        assert bob.hang_up() == [0]
    told = said.lines.index("A bot is finishing this turn for you; the next one is yours.")
    played = next(i for i, line in enumerate(said.lines) if line.startswith("You played an ace"))
    turns = [i for i, line in enumerate(said.lines) if line.startswith("Your turn, green.")]
    assert told < played < turns[0] and len(turns) == 1  # no prompt for the bot's turn; his own turn once
