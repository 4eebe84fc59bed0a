"""Narration: everything the player hears about options, outcomes and the board, as text.

All wording lives in ``catalogue.py``; ``Narrator`` picks the facts and the
point of view ("you" for the listener, names for everybody else).
"""

from voicejack.narration.catalogue import ENGLISH, Catalogue
from voicejack.narration.narrator import Narrator, Verbosity

__all__ = ["ENGLISH", "Catalogue", "Narrator", "Verbosity"]
