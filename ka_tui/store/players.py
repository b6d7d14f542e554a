"""What a player at his own terminal reads and may write (issue 14).

A player is named by ``ka-tui play --as NAME``: NAME is one of the campaign's
characters (full name, or a first name only one character has; any case).
He sees that character and the aircraft he flies or crews, the fights he is
in, and may write one thing only: his own CQC card for the round being
planned (``send_card``), changeable until the GM reveals.

Every fight a player reads goes through ``rules/cqc/log.py`` ``visible_to``
(the pure projection): another side's unrevealed card never leaves this
module. Plain ``sqlite3`` reads and ``store/events.py`` appends; no SQLModel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ka_tui.rules.cqc import CqcCard
from ka_tui.rules.cqc.log import FightEventKind, FightProgress, visible_to
from ka_tui.store import events as ev
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogEvent, LogRef
from ka_tui.store.fights import load_progress
from ka_tui.store.roster_reads import load_character_full


class UnknownPlayer(StoreError):
    """``--as NAME`` names no character of the campaign (or more than one)."""


class NotYours(StoreError):
    """A player tried to write something that is not his own order."""


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
    """An air battle one of his aircraft or he himself is in."""

    id: int
    name: str
    status: str
    units: tuple[str, ...]


def find_player(db: CampaignDB, name: str) -> Player:
    """The character ``name`` plays (full name, or an unambiguous first name)."""
    wanted = name.strip().casefold()
    if not wanted:
        raise UnknownPlayer("--as needs a name: the character you play")
    con = db.connect()
    try:
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
        cid = int(found[0][0])
        seats = con.execute(
            "SELECT id, name, 'pilot' FROM aircraft WHERE pilot_id = ? UNION "
            "SELECT a.id, a.name, 'crew' FROM aircraft a JOIN aircraft_crew c "
            "ON c.aircraft_id = a.id WHERE c.character_id = ? ORDER BY 2", (cid, cid)).fetchall()
    finally:
        con.close()
    character = load_character_full(db, cid)
    return Player(str(character["name"]), character,
                  tuple((int(i), str(n), str(s)) for i, n, s in seats))


def fights_of(db: CampaignDB, character_id: int) -> list[PlayerFight]:
    """The fights the character is in (his fighter ids from the fight's start),
    open ones first, newest first."""
    out: list[PlayerFight] = []
    for head in ev.heads(db, ev.LogKind.FIGHT):
        done = ev.events(db, LogRef.fight(head.id))
        if not done or done[0].kind != FightEventKind.STARTED:
            continue
        chars = done[0].payload.get("characters", {}) if isinstance(done[0].payload, dict) \
            else {}
        mine = tuple(str(fid) for fid, cid in chars.items() if int(cid) == character_id)
        if mine:
            out.append(PlayerFight(head.id, head.name, head.status, mine))
    out.sort(key=lambda f: (f.status != "open", -f.id))
    return out


def battles_of(db: CampaignDB, player: Player) -> list[PlayerBattle]:
    """The air battles his aircraft (or he, as an airman) are in."""
    from ka_tui.store.battles import list_battles

    aircraft = {a[0] for a in player.aircraft}
    out: list[PlayerBattle] = []
    for summary in list_battles(db):
        done = ev.events(db, LogRef.battle(summary.id))
        data = done[0].payload.get("data", {}) if done and isinstance(done[0].payload,
                                                                        dict) else {}
        units = {str(u): int(a) for u, a in data.get("aircraft", {}).items()}
        airmen = {str(u): [int(x) for x in xs] for u, xs in data.get("airmen", {}).items()}
        mine = tuple(u for u in units if units[u] in aircraft
                     or player.character_id in airmen.get(u, []))
        if mine:
            out.append(PlayerBattle(summary.id, summary.name, summary.status, mine))
    return out


def player_progress(db: CampaignDB, fight: PlayerFight) -> FightProgress:
    """The fight as this player may see it (``visible_to``: no other side's
    card before the reveal)."""
    return visible_to(load_progress(db, fight.id), fight.fighters)


def send_card(db: CampaignDB, fight: PlayerFight, round_no: int, owner: str,
              cards: Sequence[CqcCard]) -> FightProgress:
    """The player's card for ``round_no`` (S0 §Close combat 2): ``card_entered``
    the first time, ``card_changed`` after (until the reveal). Checked by the
    fight's rules inside the write transaction (the round being played, not
    revealed, one card per fighter), not by the log's position: two players
    sending at once both land; a card the GM entered for him meanwhile
    refuses the send (``Refused``) and the screen reloads with it. Returns the
    fight as he may see it now."""
    if owner not in fight.fighters:
        raise NotYours("you can only send your own character's card")
    log = LogRef.fight(fight.id)
    payload = {"round": int(round_no), "owner": owner, "cards": [c.to_dict() for c in cards]}
    now = load_progress(db, fight.id)
    kind = FightEventKind.CARD_CHANGED if owner in now.cards else FightEventKind.CARD
    ev.append(db, log, LogEvent(kind.value, payload), None)
    return player_progress(db, fight)


def own_cards(progress: FightProgress, fighters: Sequence[str]) -> dict[str, tuple[CqcCard, ...]]:
    """His cards in this round (what ``visible_to`` left him)."""
    return {fid: progress.cards[fid] for fid in fighters if fid in progress.cards}


__all__ = ["NotYours", "Player", "PlayerBattle", "PlayerFight", "UnknownPlayer", "battles_of",
           "fights_of", "find_player", "own_cards", "player_progress", "send_card"]
