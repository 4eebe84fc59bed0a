"""VoiceJack: Jackaroo played by ear and by voice."""

__version__ = "0.1.0"
