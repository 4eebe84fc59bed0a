"""A whole match played by voice through the real loop, while three other people at the table keep talking.

The match runs in a child process (voice_table.py): ALSA reads the .asoundrc that defines the virtual
microphone once, when PortAudio starts, so the microphone needs a process with its own HOME. There the
room is streamed into the microphone in real time from before the first deal to the win, the game listens
with its own VoiceInput, VoiceSource, InputHub and Match, and a scripted player speaks when the game waits
for it. This test reads the child's report and checks what a player depends on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("voice_table.py")


def play_by_voice(work: Path) -> dict:
    env = {**os.environ, "HOME": str(work), "PYTHONPATH": str(REPO)}
    env.pop("XDG_CONFIG_HOME", None)
    out = work / "report.json"
    done = subprocess.run(
        [sys.executable, str(CHILD), "--out", str(out), "--pipe", str(work / "mic.pipe")],
        capture_output=True, text=True, check=False, timeout=1080, cwd=REPO, env=env,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    report: dict = json.loads(out.read_text())
    return report


def summary(report: dict) -> str:
    counts = report["counts"]
    lines = [
        f"{report['winner']} won after {report['turns']} turns in {report['seconds']:.0f} s; "
        f"{report['voice_moves']} of red's {report['red_moves']} moves by voice",
        "utterances: " + ", ".join(f"{kind} {number}" for kind, number in counts.items())
        + f" (of {sum(counts.values())})",
        f"the microphone: {report['stream']['captured'] / 16_000:.0f} s at {report['stream']['rate']:.0f} samples/s",
        "misheard moves the player took back: " + (", ".join(
            f"turn {t['turn']} heard as {t['heard']!r}" + (" (undone)" if t["turn"] in report["undone"] else "")
            for t in report["take_backs"]) or "none"),
    ]
    misheard = Counter((u["said"], u["heard"], u["outcome"]) for u in report["utterances"] if u["outcome"] != "right")
    lines += [f"  {outcome}: said {said!r}, heard {heard!r} x{n}" for (said, heard, outcome), n in misheard.items()]
    lines += [f"WRONG MOVE: meant {w['meant']!r}, heard {w['heard_as']!r}, played {w['played']!r}"
              for w in report["wrong_moves"]]
    return "\n".join(lines)


@pytest.mark.slow
def test_a_whole_match_is_played_by_voice_while_three_others_talk(tmp_path: Path) -> None:
    report = play_by_voice(tmp_path)
    print(summary(report))
    stream = report["stream"]
    # The microphone really streamed: every sample the room wrote, in order, at 16 kHz, from start to end.
    assert stream["error"] is None and stream["whole"], stream
    assert 15_500 < stream["rate"] < 16_500, stream
    # A slip: the room's writer was held up over 0.25 s (a loaded machine) and went on from then, the
    # stream still whole; the microphone simply heard nothing new meanwhile. A few at most.
    assert stream["slips"] <= 3, stream

    assert report["winner"] is not None, "the match should be won by voice alone"
    # Each of red's moves is the one the player meant and said that turn (R30's whole-hand burn, which the
    # game plays without asking, aside) or, at worst, exactly what the recogniser heard: the loop itself
    # (stale grammars, answers held while the game talked, the others' talk) never makes a move up.
    # Known, and left to the recogniser and the language's confirmation rules (issue 12, "never the wrong
    # move"): pocketsphinx, through the others' talk, hears another legal move with high confidence about
    # once a match, and it is played at once. Seen: "play seven red one" heard as "play seven red one two"
    # (0.98; a seven split with its rest implied) and "play six red four" as "play six red one".
    # Once such hearings are confirmed or taken back, this becomes: assert report["wrong_moves"] == [].
    for wrong in report["wrong_moves"]:
        assert wrong["heard_as"], wrong
    assert len(report["wrong_moves"]) <= max(2, report["red_moves"] // 10), report["wrong_moves"]
    assert report["voice_moves"] + report["forced_moves"] + len(report["wrong_moves"]) == report["red_moves"]
    assert report["voice_moves"] >= 15

    utterances = report["utterances"]
    for index, utterance in enumerate(utterances):
        if utterance["outcome"] in ("asked", "rejected"):
            # Misheard: the game asked, or said it did not catch it, and the player went on in the same turn.
            assert utterance["game_said"], utterance
            following = utterances[index + 1] if index + 1 < len(utterances) else None
            assert following is not None and following["turn"] == utterance["turn"], (utterance, following)
    # "take that back", heard as undo, took the move back at once: undo's moment (undo_seconds) is long
    # enough for the player to answer a misheard move through the others' talk.
    for take_back in report["take_backs"]:
        assert take_back["turn"] in report["undone"] or not take_back["undo"], take_back
    # The others' talk alone (the player's own words, "take that back" included, aside) never became a move,
    # a command or a question.
    acted_on = [heard for heard in report["others_heard"] if heard["kind"] != "nothing"]
    assert acted_on == [], acted_on
