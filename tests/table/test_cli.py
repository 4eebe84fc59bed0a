"""The game as people start it: plain `voicejack` (the README's first command), `play`, `resume`, `demo`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def voicejack(tmp_path: Path, *args: str, typed: str = "", timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "-m", "voicejack", *args], input=typed, capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_plain_voicejack_starts_a_match_against_bots_and_says_how_to_play(tmp_path: Path) -> None:
    result = voicejack(tmp_path, typed="my cards\nquit\nyes\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Welcome to VoiceJack." in out
    # No microphone on this machine: the game says it falls back to typing, and why.
    assert "Typing, because" in out
    assert "Two teams: you and Green against Blue and Yellow." in out
    assert "Quit the match, yes or no?" in out
    saved = tmp_path / "data" / "voicejack" / "autosave.json"
    assert "Match saved to" in out and saved.exists()
    assert "Traceback" not in result.stderr


def test_resume_continues_the_autosave(tmp_path: Path) -> None:
    first = voicejack(tmp_path, "play", "--players", "2", "--seed", "4", "--no-sound", typed="quit\nyes\n")
    assert first.returncode == 0, first.stderr
    saved = json.loads((tmp_path / "data" / "voicejack" / "autosave.json").read_text())
    resumed = voicejack(tmp_path, "resume", "--no-sound", typed="where is red one\nquit\nyes\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Match resumed from" in resumed.stdout
    assert "red 1" in resumed.stdout.lower()
    again = json.loads((tmp_path / "data" / "voicejack" / "autosave.json").read_text())
    assert again["pile"] == saved["pile"] and again["marbles"] == saved["marbles"]


def test_resume_without_a_save_says_so(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "resume")
    assert result.returncode == 2
    assert "no saved match" in result.stderr and "Traceback" not in result.stderr


def test_resume_of_a_broken_file_is_one_message(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    result = voicejack(tmp_path, "resume", str(broken))
    assert result.returncode == 2
    assert "not valid JSON" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args,message", [
    (["play", "--players", "3"], "invalid choice"),
    (["play", "--seats", "human,bot"], "--seats lists 2 seats for 4 players"),
    (["play", "--seats", "human,robot,bot,bot"], "seat kind 'robot'"),
    (["play", "--seats", "human,bot:genius,bot,bot"], "unknown bot kind 'bot:genius'"),
    (["play", "--players", "2", "--free-for-all"], "--free-for-all needs 4 players"),
    (["play", "--listen", "loud"], "invalid choice: 'loud'"),
    (["play", "--wake-sensitivity", "2"], "2 is not from 0 to 1"),
    (["play", "--wake-word", "r2d2"], "one or more words of plain letters"),
    (["play", "--undo-seconds", "-1"], "-1 is not from 0 to 60 seconds"),
    (["play", "--undo-seconds", "soon"], "'soon' is not a number of seconds"),
    # Before: a negative timeout handed the player's seat to a bot at their first prompt ("silent for -5 seconds").
    (["play", "--silence-timeout", "-5"], "-5 is not from 0 to 86400 seconds"),
    (["resume", "--silence-timeout", "-1"], "-1 is not from 0 to 86400 seconds"),
    (["play", "--rate", "-3"], "-3 is not from 90 to 400 words a minute"),
    (["play", "--rate", "fast"], "'fast' is not a whole number of words a minute"),
])
def test_bad_options_are_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = voicejack(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_demo_plays_a_whole_match_between_bots(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "demo", "--players", "2", "--seed", "3", "--no-sound")
    assert result.returncode == 0, result.stderr
    assert "wins the match" in result.stdout


def test_settings_are_remembered_between_runs(tmp_path: Path) -> None:
    voicejack(tmp_path, "play", "--no-sound", "--seed", "1", typed="slower\nbrief\nquit\nyes\n")
    settings = json.loads((tmp_path / "config" / "voicejack" / "settings.json").read_text())
    assert settings["speech_rate"] == 150 and settings["brief"] is True
    # The first run left an unfinished match: "yes" replaces it with the new one.
    second = voicejack(tmp_path, "play", "--no-sound", "--seed", "1", typed="yes\nfaster\nquit\nyes\n")
    assert "Speech rate 175 words a minute." in second.stdout


def test_two_humans_share_one_device_and_take_turns_by_name(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "play", "--players", "2", "--seats", "human,human", "--names", "Ann,Sam",
                       "--seed", "2", "--no-sound", typed="quit\nyes\n")
    assert result.returncode == 0, result.stderr
    assert "Ann" in result.stdout and "Sam" in result.stdout
    assert "Sam, over to you." in result.stdout or "Ann, over to you." in result.stdout


def test_typed_undo_at_a_shared_device(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "play", "--players", "2", "--seats", "human,human", "--names", "Ann,Sam",
                       "--seed", "1", "--no-sound", "--undo-seconds", "0.5", typed="play ace out\nundo\nquit\nyes\n")
    assert result.returncode == 0, result.stderr
    assert "Took back Sam's move: play ace out. Everything is as it was before it." in result.stdout
    saved = json.loads((tmp_path / "data" / "voicejack" / "autosave.json").read_text())
    assert saved["history"] == [] and saved["turn"] == "green"


def test_a_new_match_asks_before_replacing_an_unfinished_save(tmp_path: Path) -> None:
    voicejack(tmp_path, "play", "--players", "2", "--seed", "4", "--no-sound", typed="quit\nyes\n")
    saved_path = tmp_path / "data" / "voicejack" / "autosave.json"
    saved = json.loads(saved_path.read_text())
    kept = voicejack(tmp_path, "play", "--players", "2", "--seed", "9", "--no-sound", typed="no\nquit\nyes\n")
    assert kept.returncode == 0, kept.stderr
    assert f"An unfinished match is saved in {saved_path}. Start a new match and replace it? Yes or no." in kept.stdout
    assert "Then we carry on with the saved match. Next time, voicejack resume goes straight to it." in kept.stdout
    assert "Match resumed from" in kept.stdout
    assert json.loads(saved_path.read_text())["pile"] == saved["pile"]  # the saved match is the one played on
    replaced = voicejack(tmp_path, "play", "--players", "2", "--seed", "9", "--no-sound", typed="yes\nquit\nyes\n")
    assert "This match is played in the regular version." in replaced.stdout
    assert json.loads(saved_path.read_text())["pile"] != saved["pile"]


def test_quitting_names_the_file_given_with_save(tmp_path: Path) -> None:
    mine = tmp_path / "mine.json"
    result = voicejack(tmp_path, "play", "--players", "2", "--seed", "4", "--no-sound", "--save", str(mine),
                       typed="quit\nyes\n")
    assert f"Match saved to {mine}. Resume it with: voicejack resume {mine}." in result.stdout
    assert mine.exists()


def test_no_sound_card_is_said_plainly(tmp_path: Path) -> None:
    """This machine has no sound card: the player hears why, without PortAudio's jargon."""
    result = voicejack(tmp_path, "play", "--players", "2", "--seed", "4", typed="quit\nyes\n")
    assert result.returncode == 0, result.stderr
    assert "No sound card was found, so nothing is played aloud: everything is printed." in result.stdout
    assert "device -1" not in result.stdout + result.stderr


NEARLY_WON = {
    "format": "voicejack-table/1", "mode": "regular", "teams": False,
    "players": [{"colour": "red", "kind": "human", "hand": ["2", "3"]}, {"colour": "green", "hand": ["9"]}],
    "marbles": {"red": ["safe 2", "safe 3", "safe 4", 73], "green": ["home"] * 4},
    "turn": "red", "seed": 1,
}


@pytest.mark.parametrize("answer,then", [("yes", "This match is played in the regular version."),
                                         ("no", "Thank you for playing.")])
def test_after_a_win_another_match_is_offered(tmp_path: Path, answer: str, then: str) -> None:
    table = tmp_path / "nearly.json"
    table.write_text(json.dumps(NEARLY_WON))
    typed = f"play three red four\n{answer}\nquit\nyes\n"
    result = voicejack(tmp_path, "resume", str(table), "--no-sound", typed=typed)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You win the match!" in out and "Another match? Yes or no." in out
    assert then in out[out.index("Another match?"):]


def test_a_player_who_asked_for_the_keyboard_is_not_told_why_and_brief_welcomes_briefly(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "play", "--players", "2", "--seed", "4", "--no-sound", "--keyboard", "--brief",
                       typed="quit the game\nyes\n")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first == "VoiceJack. Type a move, like play nine red two, or type help."
    assert "Typing, because" not in result.stdout


def interrupted(tmp_path: Path, args: list[str], typed: str, ready: str, times: int = 1) -> tuple[int, str, str]:
    """Run voicejack, type ``typed``, press Ctrl-C once ``ready`` has been printed ``times`` times."""
    import signal
    import threading
    import time

    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    # Ctrl-C reaches the game as at a terminal even when the test run itself was started with SIGINT ignored
    # (in the background, or under nohup), which the game would otherwise inherit.
    game = subprocess.Popen([sys.executable, "-m", "voicejack", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    guard = threading.Timer(120, game.kill)  # a game that never gets there fails the test instead of hanging it
    guard.start()
    try:
        assert game.stdin is not None and game.stdout is not None
        game.stdin.write(typed)
        game.stdin.flush()
        seen = ""
        while seen.count(ready) < times:
            line = game.stdout.readline()
            assert line, f"the game ended before it was interrupted: {seen}"
            seen += line
        time.sleep(0.3)  # it is waiting for the player now
        game.send_signal(signal.SIGINT)
        out, err = game.communicate(timeout=60)
    finally:
        guard.cancel()
        game.kill()
    return game.returncode, seen + out, err


def test_ctrl_c_at_the_table_is_said_and_the_match_is_saved(tmp_path: Path) -> None:
    # "my cards" answered: the game waits for the player's move
    status, out, err = interrupted(tmp_path, ["play", "--players", "2", "--seed", "4", "--no-sound", "--keyboard"],
                                   "my cards\n", "You hold", times=2)
    assert status == 130
    saved = tmp_path / "data" / "voicejack" / "autosave.json"
    assert f"Stopped. The match is saved to {saved}. Resume it with: voicejack resume." in out
    assert "Traceback" not in err and saved.exists()


def test_ctrl_c_when_another_match_is_offered_is_said(tmp_path: Path) -> None:
    table = tmp_path / "nearly.json"
    table.write_text(json.dumps(NEARLY_WON))
    status, out, err = interrupted(tmp_path, ["resume", str(table), "--no-sound", "--keyboard"],
                                   "play three red four\n", "Another match? Yes or no.")
    assert status == 130
    assert out.rstrip().endswith("Stopped.") and "Traceback" not in err
