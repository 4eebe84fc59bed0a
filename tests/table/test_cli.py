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
    (["play", "--players", "2", "--free-for-all"], "--free-for-all needs 4 players"),
])
def test_bad_options_are_one_clear_line(tmp_path: Path, args, message) -> None:
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
    second = voicejack(tmp_path, "play", "--no-sound", "--seed", "1", typed="faster\nquit\nyes\n")
    assert "Speech rate 175 words a minute." in second.stdout


def test_two_humans_share_one_device_and_take_turns_by_name(tmp_path: Path) -> None:
    result = voicejack(tmp_path, "play", "--players", "2", "--seats", "human,human", "--names", "Ann,Sam",
                       "--seed", "2", "--no-sound", typed="quit\nyes\n")
    assert result.returncode == 0, result.stderr
    assert "Ann" in result.stdout and "Sam" in result.stdout
    assert "Sam, over to you." in result.stdout or "Ann, over to you." in result.stdout
