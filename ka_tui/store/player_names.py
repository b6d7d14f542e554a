"""Who ``ka-tui play --as NAME`` plays, checked before the app starts (issue 14).

Light on purpose (plain ``sqlite3``, no rules engine): the command line runs
it before the player's screen is taken over and before its startup read
begins (issue 13: first frame).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ka_tui.store.errors import StoreError


class UnknownPlayer(StoreError):
    """``--as NAME`` names no character of the campaign (or more than one)."""


def match_player(con: sqlite3.Connection, name: str) -> tuple[int, str]:
    """(character id, full name) of the character ``name`` plays: his full
    name, or a first name only one character has; any case."""
    wanted = name.strip().casefold()
    if not wanted:
        raise UnknownPlayer("--as needs a name: the character you play")
    rows = con.execute("SELECT id, name FROM character").fetchall()
    exact = [r for r in rows if str(r[1]).casefold() == wanted]
    first = [r for r in rows if str(r[1]).split()[0].casefold() == wanted]
    found = exact or first
    if not found:
        raise UnknownPlayer(f"no character called {name!r} in this campaign; ask the "
                            "GM which name to play as")
    if len(found) > 1:
        raise UnknownPlayer(f"{len(found)} characters are called {name!r}; give the "
                            "full name")
    return int(found[0][0]), str(found[0][1])


def check_player(db_path: Path, name: str) -> str:
    """Before the screen is taken over: refuse a campaign this user cannot
    write (a player's card is a write) and an unknown name. Returns the
    character's full name. Raises ``StoreError`` (one line for the user)."""
    from ka_tui.store.db import check_file, open_campaign
    from ka_tui.store.files import read_only_reason

    check_file(db_path)
    reason = read_only_reason(db_path)
    if reason is not None:
        raise StoreError(f"{db_path} cannot be written by you ({reason}); a player sends "
                         "cards, so ask the GM for group write access (README: Players "
                         "at their own terminals)")
    with open_campaign(db_path) as db:
        con = db.connect()
        try:
            return match_player(con, name)[1]
        finally:
            con.close()
