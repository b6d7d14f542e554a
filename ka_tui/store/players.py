"""What a player at his own terminal reads and may write.

A player is named by ``ka-tui play --as NAME``: NAME is one of the campaign's
characters (full name, or a first name only one character has; any case).
He sees that character and the aircraft he flies or crews, the fights and
air battles he is in, and may write two things only: his own CQC card for
the round being planned (``send_card``), changeable until the GM reveals,
and the move plan of an aircraft he pilots in an air battle (``send_plan``),
changeable until the GM executes it.

Every fight a player reads goes through ``rules/cqc/log.py`` ``visible_to``
and every battle through ``rules/air/plans.py`` ``visible_to`` (the pure
projections): another side's unrevealed card or unexecuted plan never leaves
this module or ``store/player_data.py`` (the reads of his first frame: who he
is, his fights and battles, the fight shown). Plain-SQL reads and
``store/events.py`` appends; no SQLModel::

    view = player_view(db, "Arthur")             # his sheet, fights, open battles
    seen = send_plan(db, view.player, view.battles[0], "Tempest KA-A", plan)
    progress = send_card(db, view.player, view.fights[0], round_no, "3", cards)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ka_tui.rules.air import plans
from ka_tui.rules.air.battle import Battle
from ka_tui.rules.air.move_plan import Plan
from ka_tui.rules.cqc import CqcCard
from ka_tui.rules.cqc.log import FightEventKind, FightProgress, visible_to
from ka_tui.store import events as ev
from ka_tui.store.battles import LoadedBattle, load_battle
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import StoreError
from ka_tui.store.events import LogEvent, LogRef
from ka_tui.store.fights import load_progress
from ka_tui.store.player_data import (
    Player,
    PlayerBattle,
    PlayerFight,
    PlayerView,
    UnknownPlayer,
    battles_of,
    fighters_of,
    fights_of,
    find_player,
    first_view,
    player_progress,
)
from ka_tui.store.rows_to_rules import stored_payload


class NotYours(StoreError):
    """A player tried to write something that is not his own order."""


def player_battle(db: CampaignDB, battle: PlayerBattle) -> LoadedBattle:
    """The battle as this player may see it: replayed as the GM's, its log
    projected by ``rules/air/plans.py`` ``visible_to`` (another aircraft's
    plan is only "a plan is in"; the state is the same, plans change none)."""
    loaded = load_battle(db, battle.id)
    b = loaded.battle
    seen = Battle(b.battle_map, b.options, plans.visible_to(b.events, battle.units), b.state,
                  dict(b.checkpoints))
    return replace(loaded, battle=seen)


def player_view(db: CampaignDB, name: str, fight_index: int = 0,
                battle_index: int = 0) -> PlayerView:
    """The player's view (``PlayerView``), the indexes kept within what there is.
    A damaged battle log hides only the battles (``battles_of``) or that
    battle (``seen`` None); anything else raises."""
    view = first_view(db, name, fight_index, battle_index)
    return replace(view, seen=battle_seen(db, view))


def battle_seen(db: CampaignDB, view: PlayerView) -> LoadedBattle | None:
    """The battle ``view`` shows (``battle_index``) as he may see it
    (``player_battle``); None without one, or when its log is damaged (it
    hides only the battle)."""
    if not view.battles:
        return None
    try:
        return player_battle(db, view.battles[view.battle_index])
    except Exception:  # noqa: BLE001 — a damaged battle log hides only the battle
        return None


def send_plan(db: CampaignDB, player: Player, battle: PlayerBattle, unit: str, plan: Plan,
              evasive: bool = False) -> LoadedBattle:
    """His aircraft's move plan for this turn (R-1.2, R-3 … R-10),
    as a ``plan_sent`` event. One write transaction checks that he is the
    pilot of ``unit`` in this battle (``NotYours``), that the battle is open
    and that the rules take the plan on the log as it is now
    (``rules/air/plans.accept_plan``: the turn running, the aircraft not
    moved, the plan legal; else ``EventRefused`` with the engine's reason). Not
    by the log's position: the GM's steps and other players' plans may land
    between. Sent again, the newest plan is the one in. Returns the battle
    as he may see it now."""
    ref = LogRef.battle(battle.id)
    with db.batch():  # the checks and the append: one BEGIN IMMEDIATE
        head = next((h for h in ev.heads(db, ev.LogKind.BATTLE) if h.id == battle.id), None)
        if head is None or head.status != "open":
            raise StoreError("the battle has ended; no plan can be sent")
        done = ev.events(db, ref)
        start = done[0].payload.get("data", {}) if done and isinstance(done[0].payload,
                                                                          dict) else {}
        pilots = {str(u): int(xs[0]) for u, xs in start.get("airmen", {}).items() if xs}
        if pilots.get(unit) != player.character_id:
            raise NotYours("you can only send the plan of an aircraft you pilot")
        event = plans.plan_event(unit, plan, evasive, player.name.split()[0])
        ev.append(db, ref, LogEvent(event["kind"], stored_payload(event)), None)
    return player_battle(db, battle)


def send_card(db: CampaignDB, player: Player, fight: PlayerFight, round_no: int, owner: str,
              cards: Sequence[CqcCard]) -> FightProgress:
    """The player's card for ``round_no`` (S0 §Close combat 2): ``card_entered``
    the first time, ``card_changed`` after (until the reveal). One write
    transaction checks that ``owner`` is a fighter of ``player``'s character
    in this fight by the fight's own start (``NotYours``: the ``fight``
    object is the caller's, trusted for its id only), then the fight's rules
    (the round being played, not revealed, one card per fighter), not by the
    log's position: two players sending at once both land; a card the GM
    entered for him meanwhile refuses the send (``EventRefused``) and the
    screen reloads with it. Returns the fight as he may see it now."""
    log = LogRef.fight(fight.id)
    payload = {"round": int(round_no), "owner": owner, "cards": [c.to_dict() for c in cards]}
    with db.batch():  # the checks and the append: one BEGIN IMMEDIATE
        mine = fighters_of(db, fight.id, player.character_id)
        if owner not in mine:
            raise NotYours("you can only send your own character's card")
        now = load_progress(db, fight.id)
        kind = FightEventKind.CARD_CHANGED if owner in now.cards else FightEventKind.CARD
        ev.append(db, log, LogEvent(kind.value, payload), None)
    return player_progress(db, replace(fight, fighters=mine))


def own_cards(progress: FightProgress, fighters: Sequence[str]) -> dict[str, tuple[CqcCard, ...]]:
    """His cards in this round (what ``visible_to`` left him)."""
    return {fid: progress.cards[fid] for fid in fighters if fid in progress.cards}


__all__ = ["NotYours", "Player", "PlayerBattle", "PlayerFight", "PlayerView", "UnknownPlayer",
           "battle_seen", "battles_of", "fights_of", "find_player", "own_cards", "player_battle",
           "player_progress", "player_view", "send_card", "send_plan"]
