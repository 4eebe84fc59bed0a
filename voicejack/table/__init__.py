"""The table: a whole match by voice or keyboard, with bots."""
