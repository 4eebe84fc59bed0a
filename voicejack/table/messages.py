"""What the table itself says (the game's own sentences live in voicejack.narration's catalogue).

Kept as templates in one place so a translation touches no logic.
"""

from __future__ import annotations

from typing import Final

TABLE_MESSAGES: Final[dict[str, str]] = {
    "welcome.voice": "Welcome to VoiceJack. Speak your moves, for example: play nine red two. Say help at any time.",
    "welcome.keyboard": "Welcome to VoiceJack. Type your moves, for example: play nine red two, or red 2 with the card first. Type help at any time.",
    "welcome.voice.brief": "VoiceJack. Say a move, like play nine red two, or say help.",
    "welcome.keyboard.brief": "VoiceJack. Type a move, like play nine red two, or type help.",
    "why.keyboard": "Typing, because {reason}.",
    "resumed": "Match resumed from {path}.",
    "help": (
        "Say or type a move, like play nine red two, or just name a card and answer the questions. "
        "Say what can I say to hear your moves with numbers, then option and a number to pick one. "
        "Also: read the board, then next, previous or again to move through it, {other}'s marbles, my cards, what is the score, last card, where is red one, whose turn is it, what are the rules, "
        "say that again, cancel, stop talking, speak slower, speak faster, volume up, volume down, "
        "less detail, more detail, save the game, leave the table, quit the game. "
        "Right after your move, take that back, or undo my move, puts it back until the next player acts "
        "(typed, undo is enough); when several people share this device, it takes back whoever moved last."
    ),
    "timer.warning": "{seconds} seconds left.",
    "options.none": "You have no move to choose: {what}.",
    "options.question": "Your options.",
    "over_to": "{name}, over to you.",
    "not_your_turn": "It is {player} turn, not yours. Your command was not played.",
    "nothing_pending": "There is no question waiting for an answer.",
    "cancelled": "Cancelled. {prompt}",
    "cancelled.out_of_turn": "Cancelled.",  # "no" to "quit?" or to a command asked about, out of turn
    "saved": "Saved to {path}.",
    "save_failed": "Could not save to {path}: {reason}. The match goes on.",
    "autosave_failed": "Autosave to {path} failed: {reason}.",
    "quit": "Match saved to {path}. Resume it with: {resume}.",
    "quit.unsaved": "The match could not be saved to {path}: {reason}. It ends here and cannot be resumed.",
    "left": "{player} left the table. A bot takes over that seat.",
    "silent": "{player} has been silent for {minutes}. A bot takes over that seat.",
    "left.you": "You left the table. A bot takes over your seat.",
    "silent.you": "You have been silent for {minutes}. A bot takes over your seat.",
    "rate": "Speech rate {rate} words a minute.",
    "volume": "Volume {percent} percent.",
    "brief": "Brief descriptions.",
    "full": "Full descriptions.",
    "stopped": "Input has ended. The match is saved to {path}. Resume it with: {resume}.",
    "stopped.unsaved": "Input has ended. The match could not be saved to {path}: {reason}.",
    "interrupted": "Stopped. The match is saved to {path}. Resume it with: {resume}.",
    "interrupted.unsaved": "Stopped. The match could not be saved to {path}: {reason}.",
    "interrupted.idle": "Stopped.",
    "empty": "I heard nothing. Say help for what you can say.",
    "not_caught": "I didn't catch that. Say it again, or say help for what you can say.",
    "empty.short": "I heard nothing.",
    "not_caught.short": "I didn't catch that.",
    "stale": "The game moved on while you were speaking. Please say that again.",
    "still_there": "Are you still there? Say anything to keep your seat.",
    "still_there.wake": "Are you still there? Say {wake} and anything, or type anything, to keep your seat.",
    "still_there.push": "Are you still there? Press Enter and say anything, or type anything, to keep your seat.",
    "still_there.paused": "Are you still there? Say {resume}, or type anything, to keep your seat.",
    "nothing_to_repeat": "Nothing has been said yet.",
    "readout.none": "There is no list to move through. Say read the board to start one.",
    "readout.end": "That was the last line. Say previous to go back.",
    "readout.start": "That was the first line. Say next to go on.",
    "readout.hint": "Say next for the next line.",
    "you_play": "You play {colour}.",
    "another": "Another match? Yes or no.",
    "goodbye": "Thank you for playing.",
    "overwrite": "An unfinished match is saved in {path}. Start a new match and replace it? Yes or no.",
    "resume_instead": "Then we carry on with the saved match. Next time, {resume} goes straight to it.",
    "yes_or_no": "Please answer yes or no.",
    "no_sound_card": "No sound card was found, so nothing is played aloud: everything is printed.",
    "no_sound_card.record": "No sound card was found: the match is recorded to {path} without being played aloud.",
    "settings_unsaved": "Your settings could not be kept for next time ({reason}); they hold until you quit.",
    "speech_off": "Speech recognition is off: {reason}. Type your moves instead.",
    # How the microphone listens (--listen; voicejack.speech.listening).
    "listen.open": "I act on everything I hear. At a talkative table, say stop listening, "
                   "or start the game with the option listen wake, or listen push.",
    "listen.wake": "Say {wake} before each command, like: {wake}, read the board. Or say {wake}, "
                   "wait for the tick, and then the command. I ignore everything else. The option listen changes this.",
    "listen.push": "To talk, press Enter, wait for the tick, and say one command. "
                   "I ignore everything else. The option listen changes this.",
    "listen.open.brief": "Listening to everything.",
    "listen.wake.brief": "Say {wake} first.",
    "listen.push.brief": "Press Enter to talk.",
    "listen.help.open": "Say stop listening to make me ignore the microphone, and start listening to come back.",
    "listen.help.wake": "Start each command with {wake}. Say {wake} stop listening to make me ignore the microphone, "
                        "and {wake} start listening to come back.",
    "listen.help.push": "Press Enter before each command. Say stop listening to make me ignore the microphone, "
                        "and start listening to come back.",
    "listen.stopped": "I have stopped listening to the microphone. "
                      "To bring me back, say {resume}, or type start listening.",
    "listen.already_stopped": "I was not listening to the microphone. "
                              "To bring me back, say {resume}, or type start listening.",
    "listen.started": "Listening again.",
    "listen.already": "I am listening already.",
    "listen.no_microphone": "No microphone is in use, so there is nothing to stop or start; typing works as always.",
    "listen.ready": "Listening.",
    "listen.timed_out.push": "Microphone closed. Press Enter to talk.",
    "listen.timed_out.wake": "I heard no command. Say {wake} again when you are ready.",
}


def say(key: str, **fields: object) -> str:
    return TABLE_MESSAGES[key].format(**fields)


def not_your_turn(player: str) -> str:
    """Why a move was turned back: whose turn it is, by name ("It is James' turn, not yours.")."""
    return say("not_your_turn", player=f"{player}'" if player.endswith("s") else f"{player}'s")
