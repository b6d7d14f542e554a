"""What a player's screen is given, as plain data, and who ``ka-tui play --as
NAME`` plays, checked before the app starts.

Light on purpose (plain SQL, no rules engine: the player's first frame):
the command line checks the name here before the player's screen is taken
over, and the player's startup read comes back from its child process as
these classes, so unpickling it loads no rules. The fight and battle as he
may see them (rules objects) ride along pickled (``PlayerView.later``) until
a pane shows them. The reads themselves are ``store/players.py``.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.store.errors import StoreError

if TYPE_CHECKING:
    import sqlite3

    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.plain_read import PlainRead


class UnknownPlayer(StoreError):
    """``--as NAME`` names no character of the campaign (or more than one)."""


@dataclass(frozen=True)
class Player:
    """The player's character (with ``skills`` and ``weapons``) and aircraft."""

    name: str
    character: dict[str, Any]
    aircraft: tuple[tuple[int, str, str], ...]  # (id, name, seat: pilot | crew)

    @property
    def character_id(self) -> int:
        return int(self.character["id"])


@dataclass(frozen=True)
class PlayerFight:
    """A fight the player is in: its id, name, status and his fighter ids."""

    id: int
    name: str
    status: str
    fighters: tuple[str, ...]


@dataclass(frozen=True)
class PlayerBattle:
    """An air battle one of his aircraft or he himself is in; ``piloted``:
    the units he is the pilot of (he sends their plans)."""

    id: int
    name: str
    status: str
    units: tuple[str, ...]
    piloted: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayerView:
    """Everything the player's screen shows, read at once: his character, his
    fights (``fight_index`` the one shown, ``progress`` it as he may see it)
    and his open air battles (``battle_index``, ``seen``). ``seen`` is None
    when that battle's log is damaged (it hides only the battle);
    ``prints``: the watcher's fingerprints taken just before (a startup read).
    ``cards_due``: the fight shown is open and not over (his screen opens on
    pane 2). ``later``: ``progress`` and ``seen`` pickled (``deferred``);
    ``details()`` gives them either way."""

    player: Player
    fights: list[PlayerFight]
    fight_index: int
    progress: FightProgress | None
    battles: list[PlayerBattle]
    battle_index: int
    seen: LoadedBattle | None
    prints: dict[str, int] | None = None
    cards_due: bool = False
    later: bytes | None = None

    def deferred(self) -> PlayerView:
        """The same view with the rules objects pickled: it unpickles without
        the rules engine (a startup read from the child process)."""
        return replace(self, progress=None, seen=None,
                       later=pickle.dumps((self.progress, self.seen),
                                          protocol=pickle.HIGHEST_PROTOCOL))

    def details(self) -> tuple[FightProgress | None, LoadedBattle | None]:
        """(progress, seen): loads the rules engine the first time for a
        deferred view."""
        if self.later is None:
            return self.progress, self.seen
        progress, seen = pickle.loads(self.later)
        object.__setattr__(self, "progress", progress)
        object.__setattr__(self, "seen", seen)
        object.__setattr__(self, "later", None)
        return progress, seen


def match_player(read: PlainRead | sqlite3.Connection, name: str) -> tuple[int, str]:
    """(character id, full name) of the character ``name`` plays: his full
    name, or a first name only one character has; any case."""
    wanted = name.strip().casefold()
    if not wanted:
        raise UnknownPlayer("--as needs a name: the character you play")
    rows = read.execute("SELECT id, name FROM character").fetchall()
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


def check_player(db_path: Path, name: str, *, read_only: bool = False) -> str:
    """Before the screen is taken over: refuse a campaign this user cannot
    write (a player's card is a write; ``read_only``: asked on the command
    line) and an unknown name; one found damaged inside (the day's integrity
    check, ``backups.check_pages_if_due``) opens read-only. Returns the
    character's full name. Raises ``StoreError`` (one line for the user)."""
    from ka_tui.store.backups import check_pages_if_due
    from ka_tui.store.db import check_file, open_campaign
    from ka_tui.store.files import DAMAGED, no_room, read_only_reason

    check_file(db_path)
    if not read_only:
        check_pages_if_due(db_path)
    reason = read_only_reason(db_path, asked=read_only)
    if reason == DAMAGED:  # he may read his sheet; the command line says why
        with open_campaign(db_path) as db, db.plain_read() as read:
            return match_player(read, name)[1]
    if reason is not None and reason == no_room(db_path):
        raise StoreError(f"{db_path} cannot be written ({reason}); a player sends cards: "
                         "space must be freed on that disk first")
    if reason is not None:
        raise StoreError(f"{db_path} cannot be written by you ({reason}); a player sends "
                         "cards, so ask the GM for group write access (README: Players "
                         "at their own terminals)")
    with open_campaign(db_path) as db, db.plain_read() as read:
        return match_player(read, name)[1]
