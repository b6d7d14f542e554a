"""The game rules of King's Angels, as pure Python.

Nothing here imports Textual, SQLModel or does I/O; every random outcome comes
from an injectable dice source (see ``dice.py``). Every rule cites its seed
section: ``S0 §…`` (seeds/000) or ``R-x.y`` (seeds/002, English translation).
"""
