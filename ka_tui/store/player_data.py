"""What a player's screen is given, as plain data, and who ``ka-tui play --as
NAME`` plays, checked before the app starts.

Light on purpose (plain SQL, no rules engine: the player's first frame):
the command line checks the name here before the player's screen is taken
over, and the player's startup read comes back from its child process as
these classes, so unpickling it loads no rules. The reads his first frame
needs are here too (``first_view``: who he is, his fights and his open air
battles, each log's first event only; the fight's rules only when he is in
one); the battle as he may see it (its replay through the air rules) is
``store/players.py``'s. The fight and battle as he may see them (rules
objects) ride along pickled (``PlayerView.later``) until a pane shows them.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ka_tui.store import events as ev
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogRef
from ka_tui.store.roster_reads import load_character_full

if TYPE_CHECKING:
    import sqlite3
    from concurrent.futures import Future

    from ka_tui.rules.cqc.log import FightProgress
    from ka_tui.store.battles import LoadedBattle
    from ka_tui.store.db import CampaignDB
    from ka_tui.store.plain_read import PlainRead

LATER_TIMEOUT = 60.0  # seconds a pane waits at most for the startup read's second part


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
    pane 2). ``later``: ``progress`` and ``seen`` pickled (``deferred``), or
    the future of those bytes (the startup read's second part, which the
    child sends after the first frame: ``startup_read.begin_player_read``);
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
    later: bytes | Future[bytes] | None = None

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
        blob = self.later if isinstance(self.later, bytes) else self._coming(self.later)
        progress, seen = pickle.loads(blob)
        object.__setattr__(self, "progress", progress)
        object.__setattr__(self, "seen", seen)
        object.__setattr__(self, "later", None)
        return progress, seen


    @staticmethod
    def _coming(later: Future[bytes]) -> bytes:
        """The startup read's second part, waited for (a pane shown before it came)."""
        try:
            return later.result(timeout=LATER_TIMEOUT)
        except Exception as error:  # noqa: BLE001 - the child died, or took too long
            raise StoreError(f"the fight and battle of the startup read did not come "
                             f"({type(error).__name__}: {error})") from None


def find_player(db: CampaignDB, name: str) -> Player:
    """The character ``name`` plays (full name, or an unambiguous first name)."""
    with db.plain_read() as read:
        cid = match_player(read, name)[0]
        seats = read.execute(
            "SELECT id, name, 'pilot' FROM aircraft WHERE pilot_id = ? UNION "
            "SELECT a.id, a.name, 'crew' FROM aircraft a JOIN aircraft_crew c "
            "ON c.aircraft_id = a.id WHERE c.character_id = ? ORDER BY 2", (cid, cid)).fetchall()
    character = load_character_full(db, cid)
    # his seat as the roster's detail says it: the aircraft he pilots, else crews
    seat = next((s for s in seats if s[2] == "pilot"), seats[0] if seats else None)
    if seat is not None:
        character["seat"] = (str(seat[2]), str(seat[1]))
    return Player(str(character["name"]), character,
                  tuple((int(i), str(n), str(s)) for i, n, s in seats))


def fights_of(db: CampaignDB, character_id: int) -> list[PlayerFight]:
    """The fights the character is in (his fighter ids from the fight's start),
    open ones first, newest first."""
    out: list[PlayerFight] = []
    for head in ev.heads(db, ev.LogKind.FIGHT):
        mine = fighters_of(db, head.id, character_id)
        if mine:
            out.append(PlayerFight(head.id, head.name, head.status, mine))
    out.sort(key=lambda f: (f.status != "open", -f.id))
    return out


def fighters_of(db: CampaignDB, fight_id: int, character_id: int) -> tuple[str, ...]:
    """The fighter ids the fight's start gives ``character_id`` (inside the
    caller's transaction when there is one)."""
    start = ev.first_event(db, LogRef.fight(fight_id))
    if start is None or start.kind != "fight_started":  # rules/cqc/log.py FightEventKind
        return ()
    chars = start.payload.get("characters", {}) if isinstance(start.payload, dict) else {}
    return tuple(str(fid) for fid, cid in chars.items()
                 if type(cid) is int and cid == character_id)


def battles_of(db: CampaignDB, player: Player) -> list[PlayerBattle]:
    """The air battles his aircraft (or he, as an airman) are in, open ones
    first, newest first (``battles.list_battles``' order)."""
    aircraft = {a[0] for a in player.aircraft}
    out: list[PlayerBattle] = []
    heads = sorted(ev.heads(db, ev.LogKind.BATTLE), key=lambda h: (h.status != "open", -h.id))
    for head in heads:
        first = ev.first_event(db, LogRef.battle(head.id))
        data = first.payload.get("data", {}) if first is not None and isinstance(
            first.payload, dict) else {}
        units = {str(u): int(a) for u, a in data.get("aircraft", {}).items()}
        airmen = {str(u): [int(x) for x in xs] for u, xs in data.get("airmen", {}).items()}
        mine = tuple(u for u in units if units[u] in aircraft
                     or player.character_id in airmen.get(u, []))
        piloted = tuple(u for u in mine if airmen.get(u, [None])[:1] == [player.character_id])
        if mine:
            out.append(PlayerBattle(head.id, head.name, head.status, mine, piloted))
    return out


def player_progress(db: CampaignDB, fight: PlayerFight) -> FightProgress:
    """The fight as this player may see it (``visible_to``: no other side's
    card before the reveal)."""
    from ka_tui.rules.cqc.log import visible_to
    from ka_tui.store.fights import load_progress

    return visible_to(load_progress(db, fight.id), fight.fighters)


def first_view(db: CampaignDB, name: str, fight_index: int = 0,
               battle_index: int = 0) -> PlayerView:
    """The player's view (``players.player_view``) but for the battle shown
    (``seen`` None: ``players.battle_seen`` replays it), the indexes kept
    within what there is. The fight's rules load only when he is in a fight;
    the air rules not at all. A damaged battle log hides only the battles."""
    player = find_player(db, name)
    fights = fights_of(db, player.character_id)
    try:
        battles = [b for b in battles_of(db, player) if b.status == "open"]
    except Exception:  # noqa: BLE001 — a damaged battle log hides only the battles
        battles = []
    index = min(fight_index, max(0, len(fights) - 1))
    progress = player_progress(db, fights[index]) if fights else None
    bindex = min(battle_index, max(0, len(battles) - 1))
    due = (progress is not None and progress.fight.over is False
           and fights[index].status == "open")
    return PlayerView(player, fights, index, progress, battles, bindex, None, cards_due=due)


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
