"""Table codes: three short words that survive a phone line ("amber tiger seven").

Words are common, of one or two syllables, and no two sound alike, so a
friend can read the code aloud and the other can type or say it back.
"""

from __future__ import annotations

import secrets
from typing import Final

ADJECTIVES: Final = (
    "amber", "brave", "calm", "dusty", "eager", "fancy", "gentle", "happy", "icy", "jolly", "kind", "lucky",
    "mellow", "noble", "olive", "proud", "quick", "rusty", "silver", "tidy", "urban", "vivid", "windy", "young",
    "bold", "crisp", "daring", "early", "frosty", "golden", "hollow", "loud", "misty", "quiet", "rapid", "sunny",
)
ANIMALS: Final = (
    "badger", "camel", "dolphin", "eagle", "falcon", "gecko", "heron", "koala", "lemur", "moose", "otter", "panda",
    "rabbit", "salmon", "tiger", "turtle", "walrus", "zebra", "beaver", "donkey", "ferret", "goose", "hippo", "lion",
    "monkey", "parrot", "raven", "spider", "whale", "wolf", "bison", "cobra", "horse", "lizard", "pigeon", "shark",
)
NUMBERS: Final = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)
DIGITS: Final = {str(n): word for n, word in enumerate(NUMBERS, start=1)}


def new_code() -> str:
    return " ".join((secrets.choice(ADJECTIVES), secrets.choice(ANIMALS), secrets.choice(NUMBERS)))


def normalise_code(text: str) -> str | None:
    """The canonical code for what someone typed or said ("Amber-Tiger-7" -> "amber tiger seven"), or None."""
    words = text.lower().replace("-", " ").replace("_", " ").replace(",", " ").split()
    if len(words) != 3:
        return None
    adjective, animal, number = words
    number = DIGITS.get(number, number)
    if adjective not in ADJECTIVES or animal not in ANIMALS or number not in NUMBERS:
        return None
    return f"{adjective} {animal} {number}"
