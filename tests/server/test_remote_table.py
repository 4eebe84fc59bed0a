"""The remote table front end against a real server: the same narration, prompts and commands as a local
table, driven by typed lines (a script), and the table code said for the phone."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any

from voicejack.remote.session import Intent, SeatStore, Session
from voicejack.remote.table import RemoteConfig, RemoteTable
from voicejack.language import Heard
from voicejack.table.inputs import InputHub, ScriptSource, Utterance
from voicejack.table.presenter import Presenter

ALWAYS_FIRST_OPTION = ("next", "read the board", *("next",) * 5, "green marbles", "what is the score", "last card",
                       "options", "option one")


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
    assert "in the pile" in text  # "read the board", then "next" line by line, answered from the seat's view
    assert "That was the last line." in text and "Green: " in text  # the end of the readout; green's own line
    assert "Say next for the next line." in text  # the readout's hint, as at a local table
    # Each turn begins with "next": no list is open, neither at the first turn nor after Ann's own move.
    assert text.count("There is no list to move through.") > 1
    assert any(line.startswith("Last card: ") and "cell" in line for line in said.lines)  # where it went
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


def test_play_with_server_and_join_on_the_command_line_play_a_match_between_two_people(
        start_server: Any, tmp_path: Path, kit: Any) -> None:
    import os
    import re
    import subprocess
    import time

    server = start_server(bot_delay=0)
    script = "options\n1\nyes\n" * 400
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "ann"), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    (tmp_path / "script.txt").write_text(script)
    heard = tmp_path / "ann.txt"
    with open(tmp_path / "script.txt") as stdin, open(heard, "w") as stdout:
        host = subprocess.Popen([*kit.voicejack, "play", "--server", server.url, "--players", "2", "--seats",
                                 "human,human", "--name", "Ann", "--no-sound", "--keyboard"], stdin=stdin,
                                stdout=stdout, stderr=subprocess.STDOUT, text=True, env=env)
    code = None
    deadline = time.monotonic() + 20
    while code is None and time.monotonic() < deadline:
        found = re.search(r"Your table code is ([a-z]+ [a-z]+ [a-z]+)\.", heard.read_text())
        code = found.group(1) if found else None
        time.sleep(0.05)
    assert code is not None, heard.read_text()
    joined = subprocess.run([*kit.voicejack, "join", server.url, *code.split(), "--name", "Bob", "--no-sound",
                             "--keyboard"], input=script, capture_output=True, text=True, timeout=90,
                            env={**env, "XDG_DATA_HOME": str(tmp_path / "bob")})
    host.wait(30)
    ann_heard = heard.read_text()
    assert host.returncode == 0 and joined.returncode == 0, joined.stdout + joined.stderr
    assert f"You sit at table {code} as green." in joined.stdout and "Your turn, green." in joined.stdout
    assert "Bob joined, as green." in ann_heard and "Your turn, red." in ann_heard
    assert "wins the match" in ann_heard or "win the match" in ann_heard
    # Bob's client kept his seat token for coming back, readable by him alone.
    store = tmp_path / "bob" / "voicejack" / "seats.json"
    assert code in store.read_text() and (store.stat().st_mode & 0o077) == 0


def test_join_and_watch_say_what_is_wrong_with_an_address_or_a_code(kit: Any) -> None:
    import subprocess

    for args, says in ((["join", "http://example.org", "amber", "tiger", "seven"], "starts with ws://"),
                       (["join", "ws://127.0.0.1:1", "amber", "tiger"], "is not a table code"),
                       (["watch", "ws://127.0.0.1:1", "amber", "tiger", "ninety"], "is not a table code")):
        result = subprocess.run([*kit.voicejack, *args], capture_output=True, text=True, timeout=30)
        assert result.returncode == 2 and says in result.stderr


def test_joining_a_table_that_does_not_exist_says_so_and_ends(start_server: Any, kit: Any, tmp_path: Path) -> None:
    import os
    import subprocess

    server = start_server()
    result = subprocess.run([*kit.voicejack, "join", server.url, "quiet", "whale", "one", "--no-sound", "--keyboard"],
                            input="", capture_output=True, text=True, timeout=30,
                            env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert result.returncode == 2
    assert "The server refused: there is no table quiet whale one" in result.stdout
    assert "Cannot go on at this table" in result.stdout


def test_a_server_table_plays_by_the_house_rules_it_was_created_with(start_server: Any, tmp_path: Path) -> None:
    """Issue 14 with issue 13: `--rules online` reaches the server, which plays and stores that rule set."""
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "rules": "online", "seats": ["human", "bot"], "seed": 9}
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options),
                            itertools.cycle(ALWAYS_FIRST_OPTION), tmp_path / "ann.json")
    assert host.run() == 0
    assert "This match is played by Jackaroo Online's rules." in said.text
    assert host.state is not None and host.state.rules.rule_set == "online"
    assert "win" in said.text.splitlines()[-1].lower()
    import subprocess
    import sys

    listed = subprocess.run([sys.executable, "-m", "voicejack", "tables", "--db", server.db], capture_output=True,
                            text=True, timeout=30).stdout  # the operator sees which house rules each table plays
    line = next(row for row in listed.splitlines() if row.startswith(str(host.session.code)))
    assert f"online ({host.state.rules.timer_seconds} s turns), regular, two players" in line


def test_a_table_the_rule_set_does_not_allow_is_refused(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "rules": "karooty", "seats": ["human", "bot"]}
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options), iter(()), tmp_path / "a.json")
    assert host.run() != 0
    assert "KA1" in said.text or "4 players in teams" in said.text, said.text


def test_undo_at_a_server_table_once_the_bot_has_played_says_why_not(start_server: Any, tmp_path: Path) -> None:
    """The server knows who asked: the bot's move came after yours, so it is too late; a sentence, the error cue."""
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 12}
    script = iter(("play ace out", "take that back", "quit"))  # red plays first (seed 12), then Green at once
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options), script, tmp_path / "a.json")
    host.run()
    assert "Green has played since, so it is too late to take your move back." in said.lines
    assert "turned-back" in said.cues
    assert not any("catch" in line for line in said.lines)


class Typist:
    """Typed lines that arrive when the player chooses (a live source), here as soon as a line is printed."""

    live = True

    def start(self, push: Any) -> None:
        self.push = push

    def type(self, line: str) -> None:
        self.push(Utterance(Heard(line, typed=True)))

    def set_grammar(self, grammar: Any) -> None:
        pass

    def close(self) -> None:
        pass


def test_take_that_back_at_a_server_table_while_the_bot_waits(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=5)  # the bot's pause before it plays is the moment to say it
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 12}
    typist = Typist()
    hub = InputHub()
    hub.add(typist)
    prompts = []

    def heard(line: str) -> None:
        said.lines.append(line)
        if line.startswith("Your turn, red."):
            prompts.append(line)
            for line in (["play ace out"] if len(prompts) == 1 else ["quit", "yes"]):
                typist.type(line)
        elif line.startswith("You played"):
            typist.type("take that back")

    said = Transcript()
    said._write = heard
    session = Session([server.url], Intent("create", name="Ann", options=options), SeatStore(tmp_path / "a.json"),
                      retry=0.1)
    host = RemoteTable(session, said, hub, RemoteConfig(server.url))
    host.run()
    assert "Took back your move: play ace out. Everything is as it was before it." in said.lines
    assert len(prompts) == 2  # the turn is red's again, prompted again
    assert host.state.history == [] and host.session.moves == 0


def _live_table(url: str, options: dict[str, Any], store: Path,
                react: Any) -> tuple[RemoteTable, Transcript, list[tuple[float, str]]]:
    """A remote table whose typist reacts (``react(line, typist)``) to each line as it is printed; timed lines."""
    typist = Typist()
    hub = InputHub()
    hub.add(typist)
    timed: list[tuple[float, str]] = []
    said = Transcript()

    def heard(line: str) -> None:
        said.lines.append(line)
        timed.append((time.monotonic(), line))
        react(line, typist)

    said._write = heard
    session = Session([url], Intent("create", name="Ann", options=options), SeatStore(store), retry=0.1)
    return RemoteTable(session, said, hub, RemoteConfig(url)), said, timed


def test_the_remote_table_announces_the_moment_to_take_a_move_back_as_a_local_table_does(
        start_server: Any, tmp_path: Path) -> None:
    """Issue 12: after your move, with a bot next, the pause for undo is said in the local game's words, and the
    bot waits that long from the moment it was said (the client's ready)."""
    server = start_server(bot_delay=0, ready_within=30)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 12}
    turns: list[str] = []

    def react(line: str, typist: Typist) -> None:
        if line.startswith("Your turn, red."):
            turns.append(line)
            for words in (["play ace out"] if len(turns) == 1 else ["quit", "yes"]):
                typist.type(words)

    host, said, timed = _live_table(server.url, options, tmp_path / "a.json", react)
    host.run()
    offer = "To undo that move, say take that back within 2 seconds."  # Settings' default --undo-seconds
    assert offer in said.lines
    offered_at = next(at for at, line in timed if line == offer)
    you_played = next(i for i, (_, line) in enumerate(timed) if line.startswith("You played"))
    green_at, green = next((at, line) for at, line in timed if line.startswith("Green could not move"))
    assert you_played < said.lines.index(offer) < said.lines.index(green)
    assert green_at - offered_at >= 1.9  # the bot waited the pause out


def test_the_turn_clock_at_a_remote_table_warns_ticks_and_burns(start_server: Any, tmp_path: Path) -> None:
    """ON11 at a server table: the client says it has told the turn, the server's clock runs from then; the
    warning is spoken and each last second ticks, as at a local table; the burn is told like a move."""
    server = start_server(bot_delay=0, ready_within=30)
    options = {"players": 2, "teams": False, "mode": "regular", "rules": "online", "seats": ["human", "bot"],
               "seed": 12, "turn_seconds": 3}

    def react(line: str, typist: Typist) -> None:
        if line.startswith("Time is up"):
            typist.type("quit")
            typist.type("yes")

    host, said, timed = _live_table(server.url, options, tmp_path / "a.json", react)
    host.run()
    assert "This match is played by Jackaroo Online's rules." in said.text
    assert "3 seconds left." in said.lines
    assert "Time is up: you burned a six at random." in said.lines  # seed 12: the engine's draw from 6, A, 3, 7
    assert said.cues.count("tick") == 2
    prompt_at = next(at for at, line in timed if line.startswith("Your turn, red."))
    burned_at = next(at for at, line in timed if line.startswith("Time is up"))
    assert burned_at - prompt_at >= 2.9


def test_a_table_with_an_expert_bot_seat_plays_through_the_server(start_server: Any, tmp_path: Path) -> None:
    """`--seats human,bot:expert` at a server table, as at a local one: the searching bot plays its seat."""
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot:expert:think=0.05"], "seed": 9}
    host, said = _front_end(server.url, Intent("create", name="Ann", options=options),
                            itertools.islice(itertools.cycle(("options", "option one")), 40), tmp_path / "ann.json")
    assert host.run() == 0
    assert any(line.startswith("Green played") for line in said.lines), said.text
    assert "refused" not in said.text and "Traceback" not in server.log


def test_ctrl_c_at_a_server_table_is_said_with_the_way_back_to_the_seat(start_server: Any, tmp_path: Path) -> None:
    server = start_server(bot_delay=0)
    options = {"players": 2, "teams": False, "mode": "regular", "seats": ["human", "bot"], "seed": 9}

    def typed_then_ctrl_c():
        yield "my cards"
        raise KeyboardInterrupt

    host, said = _front_end(server.url, Intent("create", name="Ann", options=options), typed_then_ctrl_c(),
                            tmp_path / "ann.json")
    assert host.run() == 130
    code = host.session.code
    assert said.lines[-1] == (f"Stopped. You left the line. Your seat waits for you; come back with: "
                              f"voicejack join {server.url} {code}.")
