"""What a remote table says about the server, the line and the other people (the game's own sentences
come from voicejack.narration, exactly as at a local table)."""

from __future__ import annotations

from typing import Final

REMOTE_MESSAGES: Final[dict[str, str]] = {
    "created": "Your table code is {code}. Friends join with: voicejack join {url} {code}.",
    "seated": "You sit at table {code} as {colour}.",
    "back": "You are back at table {code}, as {colour}.",
    "watching": "You are watching table {code}. You hear everything that is public; nobody's cards.",
    "waiting": "Waiting for {count} more {players} to join. The match starts when every seat is taken.",
    "everyone": "Everyone is here. The match begins.",
    "seat.joined": "{name} joined, as {colour}.",
    "seat.left": "{name} left the table. A bot plays {colour} for now.",
    "seat.dropped": "{name} lost the connection. Their seat waits {grace} seconds for them, then a bot takes it.",
    "seat.bot": "{name} has not come back. A bot takes over {colour}.",
    "seat.back": "{name} is back.",
    "seat.back.next": "{name} is back and takes the seat over after this turn.",
    "seat.back.next.you": "A bot is finishing this turn for you; the next one is yours.",
    "seat.player": "{name} plays {colour} again.",
    "seat.slow": "{name} has been silent for {seconds} seconds. A bot plays this one turn for them.",
    "seat.slow.you": "You have been silent for {seconds} seconds. A bot plays this one turn for you.",
    "line.down": "The connection to the server was lost. Reconnecting by itself; your seat waits for you.",
    "line.down.watching": "The connection to the server was lost. Reconnecting by itself.",
    "line.back": "Connected again.",
    "unreachable": "The server at {url} cannot be reached. Trying again by itself.",
    "line.reached": "Connected to the server.",
    "line.final": "Cannot go on at this table: {reason}.",
    "refused": "The server refused: {reason}",
    "not_your_turn": "It is not your turn. Your command was not played.",
    "watching_only": "You are watching, so you hold no cards and cannot play or take back moves.",
    "in_flight": "Your move is on its way to the server.",
    "save": "This table is kept by the server; you can leave and come back with: voicejack join {url} {code}.",
    "save.watching": "This table is kept by the server; you can stop and listen again with: voicejack watch {url} {code}.",
    "quit": "You left the line. Your seat waits for you; come back with: voicejack join {url} {code}.",
    "quit.watching": "You stopped watching. Listen again with: voicejack watch {url} {code}.",
    "left": "You left the table. A bot plays your seat; come back with: voicejack join {url} {code}.",
}


def tell(key: str, **fields: object) -> str:
    return REMOTE_MESSAGES[key].format(**fields)
