# mypy: disable-error-code="valid-type, call-overload, misc"
# (the row and section models are made at import time from models.py and options.py)
"""The campaign export document, described once as pydantic models.

::

    raw, document = parse(text)                  # ValidationError at the first bad path
    Document.model_json_schema()                 # the format, for a reader of the file

``transfer.py`` writes this document and reads it back through these models;
the import's replay check and every error path use them too. A value that
does not fit is named by its path (``fights[2].events[0].payload.rules.cqc:
expected an object``).

- The document's parts, and each row table's JSON and implied columns, are the
  table registry's (``tables.py``); ``Document`` is checked against it.
- Row models are made from the SQLModel tables (``models.py``): one field per
  column, with the column's type and default; the JSON columns get their own
  shape (roll faces, event payloads): none is free JSON (a JSON column without
  its shape here is an error at import); unknown keys are refused. Validation is
  strict JSON: ``"4"`` is not a number, ``1`` is not ``true``.
- House rules: one model per section of ``rules/core/options.py``, made from the
  option dataclasses (so a new option is known here at once).
- Fight events: one payload model per kind of ``store/fights.py`` (the
  round report ``round_resolved`` keeps as an audit copy too, as
  ``rules/cqc/report.py`` writes it); battle
  events: ``{"data", "faces", "log"}`` with one ``data`` model per kind of
  ``rules/air/battle.py``. An event's ``kind`` chooses its payload model. The
  outcome a battle writes back (``battle_ended``: each aircraft with its damage
  table, each airman's wounds, the victories and losses) is typed as
  ``store/battles.py``'s records; the aircraft's ``damage`` column likewise.
- The campaign between battles: a mission's confirmed debrief as
  ``store/debriefs.py`` reads it (built from the same dataclasses), journal
  entries, repairs, people's recovery.

Ranges the forms check (``field_checks.py``, ``limits.py``), uniqueness, references
and the rules replay are checked after this shape check, in ``transfer.py``.
The JSON text is parsed by pydantic's parser, which refuses nesting deeper
than 200 levels with a clear error instead of a ``RecursionError``.
"""

from __future__ import annotations

import dataclasses
import typing
from datetime import datetime
from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    create_model,
)
from pydantic import ValidationError as PydanticError

from ka_tui.rules.campaign.missions import Debrief, DebriefPilot, DebriefPlane
from ka_tui.rules.cqc.card import ActionKind, Grade
from ka_tui.rules.air.aircraft import Echelon, ManoeuvreKind, Trait
from ka_tui.rules.air.evasive import WeaponKind
from ka_tui.rules.air.move_plan import Step
from ka_tui.rules.air.units import AirUnit
from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.air.battle import BattleEventKind
from ka_tui.rules.cqc.log import FightEventKind
from ka_tui.rules.cqc.resolution import EffectKind, Outcome
from ka_tui.rules.cqc.standing import Standing
from ka_tui.rules.core.skill_tests import Decision
from ka_tui.store.errors import ValidationError
from ka_tui.store.limits import CHARACTER_RANGES, NAME_MAX, QUICK_SLOTS, TEXT_MAX, WEAPON_RANGES
from ka_tui.store import tables
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.models import (
    AircraftRow,
    BattleRow,
    BattleEventRow,
    CharacterRow,
    FightRow,
    FightEventRow,
    RollLogRow,
    SkillRow,
    WeaponRow,
)

FORMAT = "ka-tui-campaign"
MAX_DEPTH = 200  # pydantic's JSON parser's own limit; an export needs about 12
STRICT = ConfigDict(strict=True, extra="forbid")

# ------------------------------------------------------------ small types

SqlInt = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
RowId = Annotated[int, Field(ge=1, le=2**63 - 1)]
Text = Annotated[str, Field(max_length=TEXT_MAX)]
Name = Annotated[str, Field(max_length=NAME_MAX * 4)]
DIE_SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)


def _stamp(value: str) -> str:
    try:
        datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise ValueError("expected a UTC time like 2026-01-02T03:04:05Z") from None
    return value


Stamp = Annotated[str, AfterValidator(_stamp)]


def _face(value: tuple[int, int]) -> tuple[int, int]:
    sides, face = value
    if sides not in DIE_SIDES:
        raise ValueError(f"a d{sides} is not a die ka-tui rolls")
    if not 1 <= face <= sides:
        raise ValueError(f"{face} is not a face of a d{sides}")
    return value


# (sides, face): every die a log stores
Face = Annotated[tuple[int, int], AfterValidator(_face)]
Die = Annotated[int, AfterValidator(lambda s: _face((s, 1))[0])]
Small = Annotated[int, Field(ge=0, le=99)]
Round = Annotated[int, Field(ge=1, le=9999)]
Fid = Annotated[str, Field(min_length=1, max_length=40)]


class Strict(BaseModel):
    model_config = STRICT


# ------------------------------------------------------------ house rules

def _section_model(cls: type[Any]) -> type[BaseModel]:
    """A pydantic model of one ``rules/core/options.py`` section: every option optional
    (the defaults come from ``HouseRules``), typed as the dataclass says."""
    hints = typing.get_type_hints(cls)
    fields_: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        fields_[f.name] = (Optional[hints[f.name]], None)
    model: type[BaseModel] = create_model(f"{cls.__name__}Doc", __config__=STRICT, **fields_)
    return model


_SECTIONS = {f.name: typing.get_type_hints(HouseRules)[f.name]
             for f in dataclasses.fields(HouseRules)}
HouseRulesDoc: type[BaseModel] = create_model(
    "HouseRulesDoc", __config__=STRICT,
    **{name: (Optional[_section_model(cls)], None) for name, cls in _SECTIONS.items()})


# ------------------------------------------------------------ fight events (store/fights.py)

class CqcWeaponDoc(Strict):
    name: Name
    damage: Annotated[int, Field(ge=WEAPON_RANGES["damage"][0], le=WEAPON_RANGES["damage"][1])]
    is_firearm: bool


def _rng(name: str) -> Any:
    lo, hi = CHARACTER_RANGES[name]
    return Annotated[int, Field(ge=lo, le=hi)]


class FighterDoc(Strict):
    """``rules/cqc_state.Fighter.to_dict()``: a roster character in a fight."""

    id: Fid
    name: Name
    strength: _rng("strength")
    agility: _rng("agility")
    cc_number: Annotated[int, Field(ge=0, le=12)]
    cc_pool: Annotated[list[Die], Field(min_length=1, max_length=12)]
    cc_legendary: bool = False
    resistance: _rng("resistance") = 0
    armour: _rng("armour") = 0
    k_points: _rng("k_points") = 10
    ap_max: _rng("ap") = 6
    ap: _rng("ap") = 6
    ap_retained: _rng("ap") = 0
    weapons: Annotated[list[CqcWeaponDoc], Field(max_length=QUICK_SLOTS * 4)] = []
    feint: Annotated[list[tuple[Fid, Small]], Field(max_length=40)] = []
    controlled_by: Optional[Fid] = None
    disengaged: bool = False
    out: bool = False
    ci_pool: Annotated[list[Die], Field(max_length=12)] = []
    ci_number: Annotated[int, Field(ge=0, le=12)] = 0
    passives: Annotated[list[tuple[Name, Annotated[int, Field(ge=0, le=12)]]],
                        Field(max_length=40)] = []  # Passive skills (S0 §Skills)
    cc_untrained: bool = False


class PairingDoc(Strict):
    a: Fid
    b: Fid
    ended: Optional[Text] = None


class FightStateDoc(Strict):
    """``rules/cqc_state.Fight.to_dict()``."""

    fighters: Annotated[list[FighterDoc], Field(min_length=2, max_length=40)]
    pairings: Annotated[list[PairingDoc], Field(min_length=1, max_length=40)]
    round: Round
    order: Annotated[list[Fid], Field(max_length=40)] = []


class CardDoc(Strict):
    """``rules/cqc_card.CqcCard.to_dict()``."""

    owner: Fid
    against: Fid
    lines: Annotated[list[tuple[ActionKind, Grade, Small]], Field(max_length=12)]
    weapon: Optional[Name] = None
    disarm_pick: Optional[Name] = None
    disengage: bool = False


class StartedPayload(Strict):
    fight: FightStateDoc
    rules: HouseRulesDoc = Field(default_factory=dict)
    characters: dict[Fid, RowId] = {}
    weapon_rows: dict[Fid, list[tuple[RowId, Name]]] = {}


class InitiativePayload(Strict):
    faces: Annotated[list[Face], Field(max_length=400)]
    order: Annotated[list[Fid], Field(max_length=40)] = []
    typed: bool = False


class ReorderPayload(Strict):
    """The order of combat rolled again at the start of a later round."""

    round: Round
    typed: bool = False
    faces: Annotated[list[Face], Field(max_length=400)]
    order: Annotated[list[Fid], Field(max_length=40)] = []


class CardPayload(Strict):
    round: Round
    owner: Fid
    cards: Annotated[list[CardDoc], Field(max_length=40)]


class RevealPayload(Strict):
    round: Round


class DicePayload(Strict):
    round: Round
    typed: bool = False
    faces: Annotated[list[Face], Field(max_length=2000)]
    labels: Annotated[list[Text], Field(max_length=2000)] = []


# The round report (``rules/cqc/report.py`` ``RoundReport.to_dict()``): an audit
# copy, the replay recomputes it. Earlier versions wrote no Passive skills
# (``bonuses``, ``passives``, ``passives_left_out``): their defaults.
Signed = Annotated[int, Field(ge=-99, le=99)]
FaceValue = Annotated[int, Field(ge=1, le=100)]
Lines = Annotated[list[Text], Field(max_length=4000)]


class ActionUnitDoc(Strict):
    """``rules/cqc/negation.ActionUnit``: one action on a card."""

    owner: Fid
    kind: ActionKind
    grade: Grade
    index: Annotated[int, Field(ge=1, le=99)] = 1


class ActionFateDoc(Strict):
    """``rules/cqc/resolution.ActionFate``: what became of one action."""

    unit: ActionUnitDoc
    against: Fid
    outcome: Outcome
    rule: Text
    effect: Text = ""
    cancelled_by: Annotated[list[ActionUnitDoc], Field(max_length=99)] = []


class EffectDoc(Strict):
    """``rules/cqc/resolution.Effect``: something that happens to a fighter."""

    kind: EffectKind
    fighter: Fid
    source: Fid
    amount: Annotated[int, Field(ge=0, le=99_999_999)] = 0
    weapon: Optional[Name] = None
    rule: Text = ""
    text: Text = ""
    faces: Annotated[list[FaceValue], Field(max_length=400)] = []


class ContestRecordDoc(Strict):
    """``rules/cqc/report.ContestRecord``: a pairing's opposed test (S0 §4)."""

    a: Fid
    b: Fid
    numbers: tuple[Signed, Signed]
    pools: tuple[Annotated[list[Die], Field(max_length=40)],
                 Annotated[list[Die], Field(max_length=40)]]
    faces: tuple[Annotated[list[FaceValue], Field(max_length=40)],
                 Annotated[list[FaceValue], Field(max_length=40)]]
    successes: tuple[Small, Small]
    standings: tuple[Standing, Standing]
    winner: Optional[Fid]
    decided_by: Decision
    rolloff: Annotated[list[tuple[FaceValue, FaceValue]], Field(max_length=400)]
    rule: Text
    lines: Lines
    bonuses: tuple[Signed, Signed] = (0, 0)
    passives: Annotated[list[Text], Field(max_length=40)] = []
    passives_left_out: Annotated[list[Text], Field(max_length=40)] = []


class PairingReportDoc(Strict):
    a: Fid
    b: Fid
    contest: ContestRecordDoc
    fates: Annotated[list[ActionFateDoc], Field(max_length=400)]
    effects: Annotated[list[EffectDoc], Field(max_length=400)]


class RoundReportDoc(Strict):
    round: Round
    pairings: Annotated[list[PairingReportDoc], Field(max_length=40)]
    effects: Annotated[list[EffectDoc], Field(max_length=400)]
    faces: Annotated[list[Face], Field(max_length=2000)]
    dice_labels: Annotated[list[Text], Field(max_length=2000)] = []
    lines: Lines


class ResolvedPayload(Strict):
    round: Round
    report: RoundReportDoc  # an audit copy: the replay recomputes it
    after: FightStateDoc


def _row_id_text(value: str) -> str:
    if not (value.isascii() and value.isdigit() and value[0] != "0"
            and int(value) <= 2**63 - 1):
        raise ValueError(f"{value!r} is not a character's id (a whole number as text)")
    return value


# a JSON object's key naming a row: its id as text (``FightOutcome.to_dict``)
RowIdKey = Annotated[str, AfterValidator(_row_id_text)]


class EndedPayload(Strict):
    """``rules/cqc/log.FightOutcome.to_dict()``: each character's K-points now, by
    id, and the weapons Disarm took (weapon row, new owner, name)."""

    k_points: Annotated[dict[RowIdKey, Annotated[int, Field(ge=0, le=99)]],
                        Field(max_length=40)] = {}
    weapon_moves: Annotated[list[tuple[RowId, RowId, Name]], Field(max_length=400)] = []


def _event_model(base: type[Any], kind: str, payload: Any, name: str) -> type[BaseModel]:
    """A row model of an event table with ``kind`` fixed and its ``payload`` shape."""
    return _row_model(base, name, implied=("fight_id", "battle_id"),
                      override={"kind": (Literal[kind], ...), "payload": (payload, ...)})


# ------------------------------------------------------------ battle events (rules/air/battle.py)

# a unit in a battle is named by its aircraft's name (store/battles.py)
UnitId = Annotated[str, Field(min_length=1, max_length=NAME_MAX * 4)]


# The rules' values a battle event holds are ``rules/air/codec.py``'s ``encode`` of
# the rules' dataclasses; pydantic reads the same type hints its ``decode`` does
# (strict, no unknown field), so a refusal names the value inside one
# (``…data.units[0].damage.hull_hits``) rather than only the event that does not
# replay. A plan is ``plan_to_json``: each step a dataclass's fields and its name.


def _step_model(cls: type[Any]) -> type[BaseModel]:
    hints = typing.get_type_hints(cls)
    fields_: dict[str, Any] = {"step": (Literal[cls.__name__], ...)}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            fields_[f.name] = (hints[f.name], f.default)
        elif f.default_factory is not dataclasses.MISSING:
            fields_[f.name] = (hints[f.name], Field(default_factory=f.default_factory))
        else:
            fields_[f.name] = (hints[f.name], ...)
    model: type[BaseModel] = create_model(f"{cls.__name__}StepDoc", __config__=STRICT,
                                          **fields_)
    return model


STEP_NAMES = tuple(c.__name__ for c in typing.get_args(Step))
PlanDoc = Annotated[list[Annotated[Union[tuple(_step_model(c) for c in typing.get_args(Step))],
                                   Field(discriminator="step")]], Field(max_length=60)]


class BattleStartedData(Strict):
    units: Annotated[list[AirUnit], Field(min_length=1, max_length=60)]
    map: Optional[Annotated[str, Field(max_length=200_000)]] = None
    rules: Optional[_section_model(_SECTIONS["air"])] = None  # the air house rules
    # store/battles.py: the map's name, the roster rows behind each unit
    map_name: Name = ""
    aircraft: dict[UnitId, RowId] = {}
    airmen: dict[UnitId, Annotated[list[RowId], Field(max_length=40)]] = {}


class NoData(Strict):
    pass


class MoveData(Strict):
    unit: UnitId
    plan: PlanDoc
    evasive: bool = False


class PlanData(Strict):
    """A player's sent move plan (``rules/air/plans.py``)."""

    unit: UnitId
    plan: PlanDoc
    evasive: bool = False
    by: Text = ""


class TacticData(Strict):
    """The tactic the GM set for an aircraft or a side (``rules/air/tactics/log.py``)."""

    scope: Literal["unit", "side"]
    name: UnitId
    tactic: Literal["aggressive", "cautious", "break_off"]


class ShotData(Strict):
    shooter: UnitId
    target: UnitId
    weapon: WeaponKind = WeaponKind.GUNS


class RamData(Strict):
    attacker: UnitId
    target: UnitId


class PhaseData(Strict):
    phase: Literal["movement", "shooting", "heat", "end"]


class VictoryDoc(Strict):
    """Who shot down (or rammed) whom (store/battles.py ``Victory``)."""

    turn: Annotated[int, Field(ge=0, le=99_999)]
    how: Literal["shot", "ram"]
    aircraft_id: RowId
    pilot_id: RowId
    victim_id: RowId
    victim_pilot_id: RowId
    victor: UnitId
    victim: UnitId


Count = Annotated[int, Field(ge=0, le=99_999_999)]


class DamageDoc(Strict):
    """An aircraft's damage table: the ``aircraft.damage`` column and a battle
    outcome's (``rows_to_rules.damage_of``, ``battles.lost_of``): the location
    effects in force and where the hull hits landed (RULES-NOTES C/D), and once
    lost, how and in which battle."""

    effects: Annotated[dict[Name, Count], Field(max_length=60)] = {}
    hits: Annotated[dict[Name, Count], Field(max_length=60)] = {}
    lost: Literal["", "destroyed", "crashed", "written off"] = ""
    lost_in: Optional[RowId] = None


class AircraftOutcomeDoc(Strict):
    """store/battles.py ``AircraftOutcome``: an aircraft as the battle left it."""

    aircraft_id: RowId
    name: Name
    hull_hits: Count
    damage: DamageDoc
    fuel_left: Count
    ammo_left: Count
    overheat: Annotated[int, Field(ge=0, le=12)]
    lost: Literal["", "destroyed", "crashed"]


class AirmanOutcomeDoc(Strict):
    """store/battles.py ``AirmanOutcome``: wounds and consciousness (R-5)."""

    character_id: RowId
    name: Name
    wounds: Annotated[int, Field(ge=0, le=6)]
    conscious: bool
    # rules/campaign/crash.py CrashFate: the GM's answer after a crash
    crash_fate: Literal["", "as_flown", "wounded", "killed", "missing"] = ""
    missing: bool = False


class LossDoc(Strict):
    """store/battles.py ``Loss``: an aircraft out of the battle."""

    turn: Annotated[int, Field(ge=0, le=99_999)]
    aircraft_id: RowId
    name: Name
    state: Literal["destroyed", "crashed"]
    cause: Literal["shot", "ram", "collision", "crash", "damage"]


class BattleEndedData(Strict):
    """The outcome written back to the campaign (store/battles.py ``BattleOutcome``)."""

    aircraft: Annotated[list[AircraftOutcomeDoc], Field(max_length=60)] = []
    airmen: Annotated[list[AirmanOutcomeDoc], Field(max_length=600)] = []
    victories: Annotated[list[VictoryDoc], Field(max_length=600)] = []
    losses: Annotated[list[LossDoc], Field(max_length=60)] = []
    turns: Annotated[int, Field(ge=0, le=99_999)] = 0


def _battle_payload(data: type[BaseModel], name: str) -> type[BaseModel]:
    return create_model(name, __config__=STRICT, data=(data, ...),
                        faces=(Annotated[list[Face], Field(max_length=2000)], []),
                        log=(Annotated[list[Text], Field(max_length=2000)], []))


FIGHT_PAYLOADS: dict[str, type[BaseModel]] = {
    FightEventKind.STARTED.value: StartedPayload,
    FightEventKind.INITIATIVE.value: InitiativePayload,
    FightEventKind.REORDER.value: ReorderPayload,
    FightEventKind.CARD.value: CardPayload, FightEventKind.CARD_CHANGED.value: CardPayload,
    FightEventKind.REVEALED.value: RevealPayload,
    FightEventKind.DICE.value: DicePayload, FightEventKind.RESOLVED.value: ResolvedPayload,
    FightEventKind.ENDED.value: EndedPayload,
}
BATTLE_DATA: dict[str, type[BaseModel]] = {
    BattleEventKind.STARTED.value: BattleStartedData, BattleEventKind.TURN.value: NoData,
    BattleEventKind.MOVE.value: MoveData, BattleEventKind.SHOT.value: ShotData,
    BattleEventKind.RAM.value: RamData, BattleEventKind.PHASE_ENDED.value: PhaseData,
    BattleEventKind.ENDED.value: BattleEndedData, BattleEventKind.PLAN.value: PlanData,
    BattleEventKind.TACTIC.value: TacticData,
}
assert set(FIGHT_PAYLOADS) == {k.value for k in FightEventKind}, "a fight event kind lacks a model"
assert set(BATTLE_DATA) == {k.value for k in BattleEventKind}, "a battle event kind lacks a model"
EVENT_KINDS = frozenset(FIGHT_PAYLOADS) | frozenset(BATTLE_DATA)


# ------------------------------------------------------------ rows

# From the table registry (tables.py): the columns holding JSON text (JSON
# values in the document), and those the document carries by nesting or under
# another key rather than as fields.
_JSON_COLUMNS = {tables.model_of(t): t.json_columns for t in tables.row_tables()
                 if t.json_columns}
IMPLIED = {tables.model_of(t): t.implied for t in tables.row_tables() if t.implied}


def _column_type(annotation: Any) -> Any:
    if annotation is int:
        return SqlInt
    if annotation is str:
        return Text
    if annotation == Optional[int]:
        return Optional[SqlInt]
    if annotation == Optional[str]:
        return Optional[Text]
    return annotation


def _row_model(table: type[Any], name: str, *, implied: tuple[str, ...] = (),
               override: dict[str, Any] | None = None,
               extra: dict[str, Any] | None = None) -> type[BaseModel]:
    """One field per column of ``table`` (type and default from ``models.py``)."""
    override = override or {}
    fields_: dict[str, Any] = {}
    for col, info in table.model_fields.items():
        if col in implied or col in IMPLIED.get(table, ()):
            continue
        if col in override:
            fields_[col] = override[col]
        elif col == "id":
            fields_[col] = (RowId, ...)
        elif col == "created_at":
            fields_[col] = (Optional[Stamp], None)
        elif col in _JSON_COLUMNS.get(table, ()):
            # no stored JSON value is left free: each has its shape here
            raise TypeError(f"{name}.{col} holds JSON: give its shape (override=)")
        elif info.is_required():
            fields_[col] = (_column_type(info.annotation), ...)
        else:
            fields_[col] = (_column_type(info.annotation), info.get_default(call_default_factory=True))
    fields_.update(extra or {})
    model: type[BaseModel] = create_model(name, __config__=STRICT, **fields_)
    return model


SkillDoc = _row_model(SkillRow, "SkillDoc")
WeaponDoc = _row_model(WeaponRow, "WeaponDoc")
CharacterDoc = _row_model(CharacterRow, "CharacterDoc", extra={
    "skills": (list[SkillDoc], []),
    "weapons": (list[WeaponDoc], [])})
AircraftDoc = _row_model(AircraftRow, "AircraftDoc", override={
    # the profile's lists as rows_to_rules.to_profile reads them (S0 §Flight card,
    # R-3.4); their values' ranges are validate_profile's, checked after
    "manoeuvres": (Annotated[list[tuple[ManoeuvreKind, Small, bool]], Field(max_length=99)], []),
    "test_echelons": (Annotated[list[Echelon], Field(max_length=6)], []),
    "traits": (Annotated[list[tuple[Trait, Optional[Small]]], Field(max_length=16)], []),
    "turn_mode": (Annotated[list[tuple[Small, Small]], Field(max_length=40)], []),
    "damage": (DamageDoc, Field(default_factory=dict))}, extra={
    "pilot": (Optional[RowId], None),
    "crew": (list[RowId], [])})
RollFaces = list[Union[Face, Annotated[int, Field(ge=1, le=1000)]]]
RollDoc = _row_model(RollLogRow, "RollDoc", override={
    "faces": (Annotated[RollFaces, Field(max_length=2000)], []),
    "explanation": (Annotated[list[Text], Field(max_length=2000)], [])})

FightEventDoc = Annotated[
    Union[tuple(_event_model(FightEventRow, kind, payload, f"FightEvent_{kind}")
                for kind, payload in FIGHT_PAYLOADS.items())],
    Field(discriminator="kind")]
BattleEventDoc = Annotated[
    Union[tuple(_event_model(BattleEventRow, kind,
                             _battle_payload(data, f"BattlePayload_{kind}"),
                             f"BattleEvent_{kind}")
                for kind, data in BATTLE_DATA.items())],
    Field(discriminator="kind")]
FightDoc = _row_model(FightRow, "FightDoc", override={
    "status": (Literal["open", "ended"], "open")}, extra={
    "events": (Annotated[list[FightEventDoc], Field(min_length=1)], ...)})
BattleDoc = _row_model(BattleRow, "BattleDoc", override={
    "status": (Literal["open", "ended"], "open")}, extra={
    "events": (Annotated[list[BattleEventDoc], Field(min_length=1)], ...)})


class CampaignDoc(Strict):
    name: Annotated[str, Field(max_length=NAME_MAX * 4)]
    notes: Text = ""
    house_rules: HouseRulesDoc = Field(default_factory=dict)


class MapDoc(Strict):
    """A saved battle map (store/maps.py): its name and text map; the text is
    parsed by the import (line and column of a bad line)."""

    name: Name
    text: Annotated[str, Field(min_length=1, max_length=200_000)]
    notes: Text = ""


# ------------------------------------------------------------ the campaign between battles
# (store/campaign_transfer.py checks references and writes these)

def _day(value: str) -> str:
    from datetime import date

    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValueError("must be a date YYYY-MM-DD") from None
    return value


Day = Annotated[str, AfterValidator(_day)]


def _debrief_model(cls: type[Any]) -> type[BaseModel]:
    """A pydantic model of one debrief record (``rules/campaign/missions.py``),
    field by field as ``debriefs.field_rule`` says: the read's own shape."""
    from ka_tui.store import debriefs

    def typed(kind: Any, low: int, high: int) -> Any:
        if isinstance(kind, tuple):
            item = kind[0]
            inner = typed(item, 0, debriefs.COUNT_MAX if item is not str else TEXT_MAX)
            return list[inner]
        if kind is int:
            return Annotated[int, Field(ge=low, le=high)]
        if kind is str:
            return Annotated[str, Field(max_length=high)]
        if kind is bool:
            return bool
        return _DEBRIEF_MODELS[kind]

    fields_: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        hint = typed(*debriefs.field_rule(cls, f.name))
        if f.default is not dataclasses.MISSING:
            fields_[f.name] = (hint, list(f.default) if isinstance(f.default, tuple)
                               else f.default)
        else:
            fields_[f.name] = (hint, ...)
    model: type[BaseModel] = create_model(f"{cls.__name__}Doc", __config__=STRICT, **fields_)
    _DEBRIEF_MODELS[cls] = model
    return model


_DEBRIEF_MODELS: dict[type[Any], type[BaseModel]] = {}
DebriefPilotDoc = _debrief_model(DebriefPilot)
DebriefPlaneDoc = _debrief_model(DebriefPlane)
ConfirmedDebriefDoc = _debrief_model(Debrief)


class NoDebrief(Strict):
    """A mission's debrief before it is confirmed: ``{}``."""


# a confirmed debrief (``store/debriefs.py``), or ``{}`` until then; the branch
# is chosen by the value, so a refusal names the confirmed debrief's own path
_DEBRIEF_TAGS = ("no-debrief", "confirmed-debrief")
DebriefDoc = Annotated[
    Union[Annotated[NoDebrief, Tag(_DEBRIEF_TAGS[0])],
          Annotated[ConfirmedDebriefDoc, Tag(_DEBRIEF_TAGS[1])]],
    Discriminator(lambda v: _DEBRIEF_TAGS[0] if v == {} else _DEBRIEF_TAGS[1])]


class MissionMemberDoc(Strict):
    character_id: RowId
    aircraft_id: Optional[RowId] = None


class MissionDoc(Strict):
    id: RowId
    name: Name
    day: Day
    kind: Literal["patrol", "escort", "intercept", "ground attack", "reconnaissance",
                  "transfer", "other"] = "patrol"
    briefing: Text = ""
    status: Literal["planned", "flown", "aborted"] = "planned"
    debrief: DebriefDoc = Field(default_factory=dict)  # store/debriefs.py
    debrief_notes: Text = ""
    members: list[MissionMemberDoc] = []
    battles: list[RowId] = []
    fights: list[RowId] = []


class RepairDoc(Strict):
    id: RowId
    aircraft_id: RowId
    queued_on: Day
    days_total: Annotated[int, Field(ge=0, le=9999)]
    days_done: Annotated[int, Field(ge=0, le=9999)] = 0
    cost: Count = 0
    status: Literal["queued", "done", "written off"] = "queued"


class PersonStateDoc(Strict):
    character_id: RowId
    rest_days: Annotated[int, Field(ge=0, le=9999)] = 0
    missing: bool = False
    days_out: Annotated[int, Field(ge=0, le=999_999)] = 0


class JournalPayloadDoc(Strict):
    day: Day
    text: Annotated[str, Field(min_length=1, max_length=TEXT_MAX)]
    characters: list[RowId] = []
    aircraft: list[RowId] = []
    mission: Optional[RowId] = None


class JournalEntryDoc(Strict):
    seq: Annotated[int, Field(ge=1)]
    kind: Literal["mission", "battle", "fight", "death", "kill", "wound", "repair", "time",
                  "note"]
    payload: JournalPayloadDoc
    created_at: Optional[Stamp] = None


class HistoryDoc(Strict):
    """The campaign between battles: its date, missions, repairs, people's
    recovery and the journal (its entries in ``seq`` order)."""

    day: Day = "1944-06-01"
    missions: list[MissionDoc] = []
    repairs: list[RepairDoc] = []
    people: list[PersonStateDoc] = []
    journal: list[JournalEntryDoc] = []



class Document(Strict):
    """The whole export (``transfer.campaign_document``)."""

    format: Literal["ka-tui-campaign"]
    schema_version: Annotated[int, Field(ge=1, le=SCHEMA_VERSION)]
    campaign: CampaignDoc
    characters: list[CharacterDoc] = []
    aircraft: list[AircraftDoc] = []
    roll_log: list[RollDoc] = []
    fights: list[FightDoc] = []
    battles: list[BattleDoc] = []
    maps: list[MapDoc] = []
    history: HistoryDoc = Field(default_factory=HistoryDoc)


assert tuple(Document.model_fields) == ("format", "schema_version", *tables.parts()), \
    "the document's parts are not the table registry's (tables.py)"


# ------------------------------------------------------------ errors

_MESSAGES = {
    "dict_type": "expected an object", "model_type": "expected an object",
    "model_attributes_type": "expected an object",
    "list_type": "expected a list", "tuple_type": "expected a list",
    "int_type": "expected a whole number", "int_from_float": "expected a whole number",
    "int_parsing": "expected a whole number",
    "string_type": "expected text", "bool_type": "expected true or false",
    "missing": "is missing", "extra_forbidden": "unknown field",
    "none_required": "expected null",
    # the rules' dataclasses in a battle event (rules/air/codec.py)
    "dataclass_type": "expected an object", "dataclass_exact_type": "expected an object",
    "unexpected_keyword_argument": "unknown field", "missing_argument": "is missing",
}


def path_of(loc: tuple[int | str, ...]) -> str:
    """``('fights', 2, 'events', 0, 'fight_started', 'payload')`` ->
    ``fights[2].events[0].payload`` (a union's tag is not part of the path)."""
    out = ""
    previous: int | str | None = None
    # a bad key of an object: the path names the object, the message the key
    loc = tuple(p for i, p in enumerate(loc)
                if p != "[key]" and loc[i + 1: i + 2] != ("[key]",))
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(previous, int) and (part in EVENT_KINDS or part in STEP_NAMES or part.startswith(
                ("tuple[", "list[", "function-after", "int", "constrained-int"))):
            pass  # a discriminated union's or plain union's branch name
        elif part.startswith(("tuple[", "function-after[", "constrained-")) or part in (
                "int", "str", "bool", *_DEBRIEF_TAGS):
            pass
        else:
            out += f".{part}" if out else str(part)
        previous = part
    return out or "document"


def refusal(error: PydanticError) -> ValidationError:
    """The first problem pydantic found, as the store's ``ValidationError``."""
    first = error.errors(include_url=False)[0]
    kind = first["type"]
    if kind == "json_invalid":
        detail = str(first.get("ctx", {}).get("error", first["msg"]))
        if "recursion limit" in detail:
            return ValidationError("document", f"nested deeper than {MAX_DEPTH} levels "
                                               f"({detail}); not a ka-tui export")
        return ValidationError("document", f"not JSON ({detail})")
    message = _MESSAGES.get(kind)
    if message is None:
        message = first["msg"]
        if kind == "union_tag_invalid" and first.get("ctx", {}).get("discriminator") == "'step'":
            message = f"unknown plan step {first['input'].get('step')!r}"
        elif kind == "union_tag_invalid":
            message = f"unknown event kind {first.get('input', {}).get('kind')!r}" \
                if isinstance(first.get("input"), dict) else "unknown event kind"
        elif kind == "literal_error" and first["loc"] and first["loc"][-1] == "format":
            message = f"must be {FORMAT!r} (is this a ka-tui export?)"
        elif kind == "less_than_equal" and first["loc"] == ("schema_version",):
            message = (f"the file is schema version {first.get('input')}; this ka-tui "
                       f"reads up to {SCHEMA_VERSION}. Upgrade ka-tui to import it.")
        elif kind == "value_error":
            message = message.removeprefix("Value error, ")
        elif kind.startswith("enum"):
            message = message.replace("Input should be", "expected")
        else:
            message = message.replace("Input should be", "must be")
    return ValidationError(path_of(tuple(first["loc"])), message)


def parse(text: str | bytes) -> tuple[Any, Document]:
    """The raw JSON data and the typed document; ``ValidationError`` at the first
    bad path (nesting, JSON syntax, a type, an unknown key, a missing one)."""
    from pydantic_core import from_json

    try:
        doc = Document.model_validate_json(text)
    except PydanticError as e:
        raise refusal(e) from None
    return from_json(text), doc


def as_enum_value(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value
