"""The player's own view: ``PlayerScreen``."""
