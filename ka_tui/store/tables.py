"""Every table of a campaign file, once: the registry the export, the import,
the schema document and the damage report iterate.

``TABLES`` lists each SQL table of ``migrations.py`` (in an order where a
row's parent comes first, the order the import writes them) with where the
export document (``transfer.py``, typed by ``schema_doc.py``) carries its rows::

    for table in TABLES:
        table.name      # "skill": the SQL table
        table.part      # "characters": the document's top-level list (or part)
        table.key       # "skills": its list inside its parent's document rows
        table.parent    # "character": the table whose rows hold its rows
        table.link      # "character_id": the column the nesting implies

How a part is carried (``Table.how``):

- ``rows``: table rows, one document object per row, read and written by
  ``transfer.py`` alone from this registry: the characters with their skills
  and weapons, the aircraft with their pilot and crew, the roll log, the
  fights and the battles with their events;
- ``campaign``: the one campaign row (name, notes, the house rules changed);
- ``maps``: the saved battle maps (``maps.document_rows``/``insert_document_rows``);
- ``history``: the campaign between battles (``campaign_transfer.py``);
- ``""``: not in the document (``note`` says why).

Adding a table: its migration, its ``…Row`` class in ``models.py``, one entry
here; ``tests/store/test_tables.py`` fails until every table of the schema
is listed. Light at import (no SQLModel): ``model_of`` imports the models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ka_tui.store import field_checks as checks
from ka_tui.store.errors import ValidationError

if TYPE_CHECKING:
    from sqlmodel import SQLModel

Check = Callable[[Mapping[str, Any]], list[ValidationError]]


@dataclass(frozen=True)
class Table:
    name: str                            # the SQL table
    how: str = "rows"                    # rows | campaign | maps | history | "" (see above)
    part: str = ""                       # the document's top-level key that carries it
    row: str = ""                        # its class in models.py ("": plain SQL only)
    key: str = ""                        # its list in the parent's document row
    parent: str = ""                     # the table its document rows nest under
    link: str = ""                       # its column naming the parent row
    noun: str = ""                       # one row in a message: "character", "roll log row"
    json_columns: tuple[str, ...] = ()   # JSON text in the file, JSON values in the document
    renamed: tuple[tuple[str, str], ...] = ()  # (column, document key): aircraft's pilot
    only: str = ""                       # the one column the document keeps (crew ids)
    order: tuple[str, ...] = ("id",)     # the export's row order
    check: Check | None = None           # the forms' field checks (field_checks.py)
    unique_names: bool = False           # no two rows share a name (any case)
    log: bool = False                    # a log head whose events replay through the rules
    note: str = ""

    @property
    def implied(self) -> tuple[str, ...]:
        """Columns the document carries by nesting or under another key."""
        return tuple(c for c in (self.link, *(c for c, _ in self.renamed)) if c)


TABLES: Final[tuple[Table, ...]] = (
    Table("ka_meta", how="", row="MetaRow",
          note="the file's own header (app, schema version): written by migrations"),
    Table("campaign", how="campaign", part="campaign", row="CampaignRow",
          json_columns=("house_rules",)),
    Table("character", part="characters", row="CharacterRow", noun="character",
          check=checks.character_errors, unique_names=True),
    Table("skill", part="characters", row="SkillRow", key="skills", parent="character",
          link="character_id", noun="skill", check=checks.skill_errors),
    Table("weapon", part="characters", row="WeaponRow", key="weapons", parent="character",
          link="character_id", noun="weapon", check=checks.weapon_errors),
    Table("aircraft", part="aircraft", row="AircraftRow", noun="aircraft",
          json_columns=("manoeuvres", "test_echelons", "traits", "turn_mode", "damage"),
          renamed=(("pilot_id", "pilot"),), check=checks.aircraft_errors, unique_names=True),
    Table("aircraft_crew", part="aircraft", row="AircraftCrewRow", key="crew",
          parent="aircraft", link="aircraft_id", only="character_id", noun="crew seat",
          order=("aircraft_id", "character_id")),
    Table("roll_log", part="roll_log", row="RollLogRow", noun="roll log row",
          json_columns=("faces", "explanation")),
    Table("fight", part="fights", row="FightRow", noun="fight", log=True),
    Table("fight_event", part="fights", row="FightEventRow", key="events", parent="fight",
          link="fight_id", noun="event", json_columns=("payload",), order=("fight_id", "seq")),
    Table("battle", part="battles", row="BattleRow", noun="battle", log=True),
    Table("battle_event", part="battles", row="BattleEventRow", key="events",
          parent="battle", link="battle_id", noun="event", json_columns=("payload",),
          order=("battle_id", "seq")),
    Table("battle_draft", how="", row="BattleDraftRow",
          note="the GM's plans being built, not yet flown: work in progress on this "
               "machine, like an unsaved form (store/battles.py drafts)"),
    Table("battle_map", how="maps", part="maps", noun="map"),
    Table("campaign_day", how="history", part="history", row="CampaignDayRow"),
    Table("mission", how="history", part="history", row="MissionRow", noun="mission"),
    Table("mission_member", how="history", part="history", row="MissionMemberRow"),
    Table("mission_link", how="history", part="history", row="MissionLinkRow"),
    Table("person_state", how="history", part="history", row="PersonStateRow"),
    Table("repair", how="history", part="history", row="RepairRow", noun="repair"),
    Table("journal", how="", row="JournalRow",
          note="the journal's one head row (id 1): made by its migration"),
    Table("journal_event", how="history", part="history", row="JournalEventRow",
          noun="journal entry"),
    # the table server's (store/table_seats.py): this machine's seats, not the campaign's
    Table("player_key", how="", row="PlayerKeyRow",
          note="players' public keys at this GM's table server: seated again after a move"),
    Table("player_pass", how="", row="PlayerPassRow",
          note="join codes and browser links: secrets, shown once, never exported"),
    Table("table_connection", how="", row="TableConnectionRow",
          note="who is connected to the table server now"),
    Table("table_server", how="", row="TableServerRow",
          note="the running table server (one per campaign)"),
)

_BY_NAME: Final[Mapping[str, Table]] = {t.name: t for t in TABLES}


def table(name: str) -> Table:
    return _BY_NAME[name]


def parts() -> tuple[str, ...]:
    """The export document's parts, in its order (after ``format`` and
    ``schema_version``)."""
    return tuple(dict.fromkeys(t.part for t in TABLES if t.part))


def row_tables() -> Iterator[Table]:
    """The tables ``transfer.py`` carries row by row, parents first."""
    return (t for t in TABLES if t.how == "rows")


def top_row_tables() -> Iterator[Table]:
    """The row tables that are a document part of their own (``characters``…)."""
    return (t for t in row_tables() if not t.parent)


def children(parent: Table) -> Iterator[Table]:
    return (t for t in TABLES if t.parent == parent.name)


def model_of(t: Table) -> type[SQLModel]:
    """The table's ``…Row`` class (imports SQLModel)."""
    from ka_tui.store import models

    model: type[SQLModel] = getattr(models, t.row)
    return model
