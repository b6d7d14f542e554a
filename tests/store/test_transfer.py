"""Export/import of a whole campaign as JSON: a round trip gives
identical data; a bad document is refused naming its first bad field, and
nothing is half-imported."""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.store import log_shortcuts as logs
from ka_tui.store.campaign import house_rules, set_house_rules
from ka_tui.store.db import open_campaign
from ka_tui.store.errors import NotACampaign, StoreError, ValidationError
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.models import RollLogRow
from ka_tui.store.transfer import export_campaign, import_campaign

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

_TABLES = ("campaign", "character", "skill", "weapon", "aircraft", "aircraft_crew",
           "roll_log", "fight", "fight_event", "battle", "battle_event",
           # the campaign between battles round-trips too
           "campaign_day", "mission", "mission_member", "mission_link", "person_state",
           "repair", "journal", "journal_event")
_JSON = {"campaign": ("house_rules",),
         "aircraft": ("manoeuvres", "test_echelons", "traits", "turn_mode", "damage"),
         "roll_log": ("faces", "explanation"), "fight_event": ("payload",),
         "battle_event": ("payload",), "mission": ("debrief",),
         "journal_event": ("payload",)}


def _dump(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, read straight from the file (JSON decoded)."""
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    out = {}
    try:
        for t in _TABLES:
            rows = [dict(r) for r in con.execute(f"SELECT * FROM {t} ORDER BY rowid")]
            for r in rows:
                for c in _JSON.get(t, ()):
                    r[c] = json.loads(r[c])
            out[t] = rows
    finally:
        con.close()
    return out


@pytest.fixture
def busy_demo(demo_db: Path) -> Path:
    """The demo plus house rules, a roll, a fight and a battle with events."""
    with open_campaign(demo_db) as db:
        set_house_rules(db, house_rules(db).with_changes("cqc", default_ap=8))
        with db.transaction() as s:
            s.add(RollLogRow(who="Ann", what="Piloting", pool="2d10", faces="[[10, 3], [10, 9]]",
                             result="1 success", explanation='["9 + 5 ≥ 13"]',
                             created_at="2026-01-02T03:04:05Z"))
        store_fight_and_battle(db)
    return demo_db


def store_fight_and_battle(db: CampaignDB) -> None:
    """A real fight (S0 §Close combat: started, initiative rolled) and a real
    battle (R-1: one whole turn), stored as the app stores them."""
    from ka_tui.rules.cqc import initiative_order
    from ka_tui.rules.core.dice import RandomDice
    from ka_tui.store import fights

    from tests.rules.test_battle import new_battle, play_one_turn

    fid = fights.start_fight(db, [(1, 6)])
    progress = fights.load_progress(db, fid)
    result = initiative_order(progress.start.fighters, RandomDice(3), progress.rules)
    fights.record_initiative(db, fid, result, typed=False)
    battle = new_battle()
    play_one_turn(battle, RandomDice(7))
    b = logs.new_battle(db, "Dawn patrol")
    assert b.id is not None
    for ev in battle.events:
        logs.append_battle_event(db, b.id, ev["kind"], {k: ev[k] for k in ("data", "faces", "log")})
    logs.end_battle(db, b.id)


def store_resolved_round(db: CampaignDB) -> int:
    """A fight with a round played to its end (S0 §Close combat 1-6: Mike's two
    Sten gun hits on Olga, her two saves), so its log holds a ``round_resolved``
    with the round report; returns the fight's id."""
    from tests.store.test_fights import MIKE_WINS, play_round, started

    fight_id, p = started(db)
    mike, _ = p.fight.order
    play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun")}, MIKE_WINS + [2, 12])
    return fight_id


def store_ended_fight(db: CampaignDB) -> int:
    """``store_resolved_round``'s fight played on to its end and ended (S0 §6:
    Olga's K-points reach 0), so its log ends with ``fight_ended``."""
    from ka_tui.store import fights
    from tests.store.test_fights import MIKE_WINS, play_round

    fight_id = store_resolved_round(db)
    mike, _ = fights.load_progress(db, fight_id).fight.order
    play_round(db, fight_id, {mike: dict(attack="2b", weapon="Sten gun")}, MIKE_WINS + [2, 2])
    fights.finish_fight(db, fight_id)
    return fight_id


def test_the_demo_with_a_resolved_round_exports_and_imports_unchanged(
        tmp_path: Path, demo_db: Path) -> None:
    """The stricter schema (every stored JSON value typed, the round reports
    and the fight's outcome too) takes the app's own export back: same rows,
    same document."""
    with open_campaign(demo_db) as db:
        store_ended_fight(db)
        export_campaign(db, tmp_path / "first.json")
    imported = import_campaign(tmp_path / "first.json", tmp_path / "copy.db")
    with imported.db as db:
        export_campaign(db, tmp_path / "again.json")
    assert _dump(tmp_path / "copy.db") == _dump(demo_db)
    first, again = (json.loads((tmp_path / n).read_text()) for n in ("first.json", "again.json"))
    assert again == first
    kinds = [e["kind"] for f in first["fights"] for e in f["events"]]
    assert kinds.count("round_resolved") == 2 and kinds[-1] == "fight_ended"


def test_round_trip_gives_identical_data(tmp_path: Path, busy_demo: Path) -> None:
    out = tmp_path / "campaign.json"
    with open_campaign(busy_demo) as db:
        export_campaign(db, out)
    imported = import_campaign(out, tmp_path / "copy.db")
    imported.db.close()
    assert imported.backup is None
    assert _dump(tmp_path / "copy.db") == _dump(busy_demo)
    doc = json.loads(out.read_text())
    assert doc["schema_version"] == SCHEMA_VERSION
    assert doc["campaign"]["house_rules"] == {"cqc": {"default_ap": 8}}


def _exported(tmp_path: Path, demo: Path) -> dict[str, Any]:
    out = tmp_path / "good.json"
    with open_campaign(demo) as db:
        export_campaign(db, out)
    return json.loads(out.read_text())


def _refused(tmp_path: Path, doc: Any) -> ValidationError:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(ValidationError) as err:
        import_campaign(bad, tmp_path / "bad.db")
    assert not (tmp_path / "bad.db").exists()
    assert [p.name for p in tmp_path.iterdir() if ".db" in p.name] == ["demo.db"]
    return err.value


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(schema_version=SCHEMA_VERSION + 1), "schema_version"),
    (lambda d: d.update(schema_version="2"), "schema_version"),
    (lambda d: d["campaign"].update(name=""), "campaign.name"),
    (lambda d: d["campaign"].update(house_rules={"cqc": {"default_ap": "six"}}),
     "campaign.house_rules.cqc.default_ap"),
    (lambda d: d["characters"][1].update(wounds=9), "characters[1].wounds"),
    (lambda d: d["characters"][1].update(agility="4"), "characters[1].agility"),
    (lambda d: d["characters"][1].update(charisma=4), "characters[1].charisma"),
    (lambda d: d["characters"][2].update(name=d["characters"][0]["name"].upper()),
     "characters[2].name"),
    (lambda d: d["characters"][0]["skills"][1].update(level="E", upgrades=2),
     "characters[0].skills[1].upgrades"),
    (lambda d: d["characters"][0]["weapons"][1].update(quick_slot=1),
     "characters[0].weapons[1].quick_slot"),
    (lambda d: d["aircraft"][0].update(pilot=999), "aircraft[0].pilot"),
    (lambda d: d["aircraft"][2].update(crew=[d["aircraft"][0]["pilot"]]), "aircraft[2].crew[0]"),
    (lambda d: d["aircraft"][1].update(dive_max=2), "aircraft[1].dive_max"),
    (lambda d: d["aircraft"][1].update(traits=[["laser", 1]]), "aircraft[1].traits[0][0]"),
    (lambda d: d["aircraft"][1].pop("name"), "aircraft[1].name"),
    (lambda d: d["characters"][-1].update(id=d["characters"][0]["id"]), "characters[10].id"),
])
def test_a_bad_document_names_its_first_bad_field_and_writes_nothing(
        tmp_path: Path, demo_db: Path, edit, field: str) -> None:
    doc = copy.deepcopy(_exported(tmp_path, demo_db))
    edit(doc)
    err = _refused(tmp_path, doc)
    assert err.field == field, str(err)


def test_not_json_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(ValidationError, match="not JSON"):
        import_campaign(bad, tmp_path / "x.db")


def test_import_refuses_to_overwrite_without_force(tmp_path: Path, demo_db: Path) -> None:
    doc = _exported(tmp_path, demo_db)
    (tmp_path / "in.json").write_text(json.dumps(doc))
    before = demo_db.read_bytes()
    with pytest.raises(StoreError, match="--force"):
        import_campaign(tmp_path / "in.json", demo_db)
    assert demo_db.read_bytes() == before


def test_import_with_force_replaces_and_keeps_a_backup(tmp_path: Path, demo_db: Path,
                                                       db_path: Path) -> None:
    (tmp_path / "in.json").write_text(json.dumps(_exported(tmp_path, demo_db)))
    result = import_campaign(tmp_path / "in.json", db_path, force=True)
    result.db.close()
    assert result.backup is not None and result.backup.exists()
    assert _dump(db_path)["character"] == _dump(demo_db)["character"]
    assert _dump(result.backup)["campaign"][0]["name"] == "Test campaign"


def test_force_never_overwrites_a_file_that_is_not_a_campaign(tmp_path: Path,
                                                              demo_db: Path) -> None:
    (tmp_path / "in.json").write_text(json.dumps(_exported(tmp_path, demo_db)))
    thesis = tmp_path / "thesis.db"
    thesis.write_text("years of work")
    with pytest.raises(NotACampaign):
        import_campaign(tmp_path / "in.json", thesis, force=True)
    assert thesis.read_text() == "years of work"


def test_export_keeps_an_existing_file_without_force(tmp_path: Path, demo_db: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("older export")
    with open_campaign(demo_db) as db:
        with pytest.raises(StoreError, match="--force"):
            export_campaign(db, out)
        assert out.read_text() == "older export"
        export_campaign(db, out, force=True)
    assert json.loads(out.read_text())["format"] == "ka-tui-campaign"


def test_a_minimal_hand_written_document_imports_with_defaults(tmp_path: Path) -> None:
    doc = {"format": "ka-tui-campaign", "schema_version": 1,
           "campaign": {"name": "Hand made"},
           "characters": [{"id": 7, "name": "Ann", "role": "pilot",
                           "skills": [{"id": 1, "name": "Piloting", "kind": "active",
                                       "number": 5, "level": "L", "legendary": True}]}],
           "aircraft": [{"id": 3, "name": "Kite", "pilot": 7}]}
    (tmp_path / "in.json").write_text(json.dumps(doc))
    import_campaign(tmp_path / "in.json", tmp_path / "hand.db").db.close()
    dump = _dump(tmp_path / "hand.db")
    assert dump["character"][0]["ap"] == 6 and dump["aircraft"][0]["pilot_id"] == 7
