"""The player's own view (issue 14): ``PlayerScreen``."""
