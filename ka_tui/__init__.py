"""ka-tui: a keyboard-driven campaign manager for King's Angels."""

__version__ = "0.1.0"
