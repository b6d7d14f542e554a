"""Data safety, one test group per numbered problem, with real files:
1. import lets in only what the app can use; 2. any nesting depth is refused
cleanly; 3. files are private whatever the umask (group-shared on request);
4. a read-only campaign opens read-only; 5. checking a file creates nothing
beside it; 6. ``--db`` into a missing folder is refused.
Rules touched: S0 §Close combat (a fight's log replayed), R-1 (a battle's).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from ka_tui import cli
from ka_tui.store.db import ReadOnlyCampaign, check_file, create_campaign, open_campaign
from ka_tui.store.errors import NewerSchema, NotACampaign, StoreError, ValidationError
from ka_tui.store.migrations import SCHEMA_VERSION
from ka_tui.store.paths import data_dir
from ka_tui.store.roll_log import RollEntry, append_roll
from ka_tui.store.transfer import export_campaign, import_campaign, read_document
from tests.store import log_shortcuts as logs

FIXTURES = Path(__file__).parent.parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent.parent


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


# ------------------------------------------------------------ 1. what import lets in

@pytest.mark.parametrize("fixture, path, message", [
    ("import-bad-fight.json", "fights[0].events[0].payload.rules.cqc", "expected an object"),
    ("import-bad-roll.json", "roll_log[0].faces[0][0]", "expected a whole number"),
    # a mission's confirmed debrief is typed as the store reads it (store/debriefs.py)
    ("import-bad-debrief.json", "history.missions[1].debrief.pilots[2]", "expected an object"),
])
def test_a_bad_export_is_refused_naming_the_bad_value_and_the_file(
        tmp_path: Path, fixture: str, path: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """S0 §Close combat: a fight whose house rules are not a table cannot replay."""
    target = tmp_path / "x.db"
    with pytest.raises(ValidationError) as err:
        import_campaign(FIXTURES / fixture, target)
    assert (err.value.field, err.value.message) == (path, message)
    assert str(err.value) == f"{path}: {message}"
    assert _beside(target) == []
    assert cli.main(["import", str(FIXTURES / fixture), "--db", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"ka-tui: {path}: {message} (in {FIXTURES / fixture}; nothing was imported)" in err
    assert err.count("\n") == 1
    assert _beside(target) == []


def _good(tmp_path: Path, demo_db: Path) -> dict[str, Any]:
    from tests.store.test_transfer import store_fight_and_battle

    with open_campaign(demo_db) as db:
        store_fight_and_battle(db)
        append_roll(db, RollEntry("Ann", "Piloting", "2d10", ((10, 3), (10, 9)), "pass"))
        out = tmp_path / "good.json"
        export_campaign(db, out)
    return json.loads(out.read_text())


def _flown(tmp_path: Path, demo_db: Path) -> dict[str, Any]:
    """The demo with a mission flown from a battle and confirmed (a kill,
    wounds, a damaged Spitfire queued for repair), exported."""
    from ka_tui.store import missions
    from tests.campaign_fixtures import DAY, MOREAU, SPIT, add_enemy, fly_bounce

    with open_campaign(demo_db) as db:
        enemy = add_enemy(db)
        mid = missions.create_mission(db, "Bounce", DAY, "intercept", "",
                                      [(MOREAU, SPIT), (enemy.pilot, enemy.aircraft)])
        fly_bounce(db, mid, enemy)
        missions.confirm_debrief(db, mid, "Clean kill.")
        out = tmp_path / "flown.json"
        export_campaign(db, out)
    return json.loads(out.read_text())


def _ended(d: dict[str, Any]) -> dict[str, Any]:
    """The data of the document's last battle's ``battle_ended`` event."""
    [end] = [e for e in d["battles"][-1]["events"] if e["kind"] == "battle_ended"]
    return end["payload"]["data"]


def _index(rows: list[dict[str, Any]], **key: Any) -> int:
    return next(i for i, r in enumerate(rows) if all(r.get(k) == v for k, v in key.items()))


@pytest.mark.parametrize("edit, path, message", [
    # the aircraft's damage table (RULES-NOTES C/D), in the roster and in an outcome
    (lambda d: d["aircraft"][1].update(damage={"effects": {"engine": "x"}}),
     "aircraft[1].damage.effects.engine", "expected a whole number"),
    (lambda d: d["aircraft"][1].update(damage=[]), "aircraft[1].damage", "expected an object"),
    # the profile's lists (S0 §Flight card: the manoeuvre dial: the turn mode)
    (lambda d: d["aircraft"][0]["manoeuvres"][0].__setitem__(1, "1"),
     "aircraft[0].manoeuvres[0][1]", "expected a whole number"),
    (lambda d: d["aircraft"][0].update(turn_mode=[[1]]), "aircraft[0].turn_mode[0][1]",
     "is missing"),
    (lambda d: _ended(d)["aircraft"][0].update(damage={"lost": "sunk"}),
     "battles[1].events[5].payload.data.aircraft[0].damage.lost", "must be "),
    (lambda d: _ended(d)["aircraft"].append("x"),
     "battles[1].events[5].payload.data.aircraft[2]", "expected an object"),
    # R-1: the rules' values a battle's events hold (rules/air/codec.py), by their path
    (lambda d: d["battles"][1]["events"][0]["payload"]["data"]["units"][0]["damage"].update(
        hull_hits="1"), "battles[1].events[0].payload.data.units[0].damage.hull_hits",
     "expected a whole number"),
    (lambda d: d["battles"][1]["events"][0]["payload"]["data"]["units"][0].update(pilot=[]),
     "battles[1].events[0].payload.data.units[0].pilot", "expected an object"),
    (lambda d: d["battles"][1]["events"][2]["payload"]["data"]["plan"][0].update(step="Warp"),
     "battles[1].events[2].payload.data.plan[0]", "unknown plan step 'Warp'"),
    (lambda d: d["battles"][1]["events"][2]["payload"]["data"]["plan"][0].update(hexes=1),
     "battles[1].events[2].payload.data.plan[0].hexes", "unknown field"),
    # a wound count the people's records read
    (lambda d: _ended(d)["airmen"][0].update(wounds=7),
     "battles[1].events[5].payload.data.airmen[0].wounds", "less than or equal to 6"),
    (lambda d: _ended(d)["losses"][0].pop("cause"),
     "battles[1].events[5].payload.data.losses[0].cause", "is missing"),
    # the confirmed debrief, field by field as store/debriefs.py reads it
    (lambda d: d["history"]["missions"][3]["debrief"]["pilots"][0].update(kills="x"),
     "history.missions[3].debrief.pilots[0].kills", "expected a whole number"),
    (lambda d: d["history"]["missions"][3]["debrief"]["aircraft"][0].pop("name"),
     "history.missions[3].debrief.aircraft[0].name", "is missing"),
    (lambda d: d["history"]["missions"][3]["debrief"].update(battles=-1),
     "history.missions[3].debrief.battles", "greater than or equal to 0"),
    # the journal's entries and the repair queue
    (lambda d: d["history"]["journal"][-1]["payload"].update(characters="all"),
     "history.journal[-1].payload.characters", "expected a list"),
    (lambda d: d["history"]["repairs"][-1].update(days_total="3"),
     "history.repairs[1].days_total", "expected a whole number"),
])
def test_every_json_value_the_campaign_stores_is_checked_naming_its_path(
        tmp_path: Path, demo_db: Path, edit: Any, path: str, message: str) -> None:
    doc = _flown(tmp_path, demo_db)
    edit(doc)
    err = _refused(tmp_path, doc)
    path = path.replace("journal[-1]", f"journal[{len(doc['history']['journal']) - 1}]")
    assert err.field == path and message in err.message, str(err)


def _fought(tmp_path: Path, demo_db: Path) -> dict[str, Any]:
    """The demo with one close-combat round played to its end, exported: its
    ``fights[0].events[6]`` is the ``round_resolved`` with the round report."""
    from tests.store.test_transfer import store_resolved_round

    with open_campaign(demo_db) as db:
        store_resolved_round(db)
        out = tmp_path / "fought.json"
        export_campaign(db, out)
    doc: dict[str, Any] = json.loads(out.read_text())
    assert doc["fights"][0]["events"][6]["kind"] == "round_resolved"
    return doc


def _report(d: dict[str, Any]) -> dict[str, Any]:
    report: dict[str, Any] = d["fights"][0]["events"][6]["payload"]["report"]
    return report


def _contest(d: dict[str, Any]) -> dict[str, Any]:
    contest: dict[str, Any] = _report(d)["pairings"][0]["contest"]
    return contest


REPORT = "fights[0].events[6].payload.report"


@pytest.mark.parametrize("edit, path, message", [
    # S0 §Close combat 4-6: the round report (an audit copy of the round), typed as
    # rules/cqc/report.py writes it, down to each action's fate and each effect
    (lambda d: _contest(d)["standings"].__setitem__(0, "lucky"),
     f"{REPORT}.pairings[0].contest.standings[0]", "expected 'won', "),
    (lambda d: _contest(d).update(successes=[4, "0"]),
     f"{REPORT}.pairings[0].contest.successes[1]", "expected a whole number"),
    (lambda d: _contest(d).update(pools=[[12, 7], [10]]),
     f"{REPORT}.pairings[0].contest.pools[0][1]", "a d7 is not a die"),
    (lambda d: _report(d)["pairings"][0]["fates"][0]["unit"].pop("owner"),
     f"{REPORT}.pairings[0].fates[0].unit.owner", "is missing"),
    (lambda d: _report(d)["pairings"][0]["fates"][0].update(outcome="maybe"),
     f"{REPORT}.pairings[0].fates[0].outcome", "expected 'effect', "),
    (lambda d: _report(d)["pairings"][0]["effects"][0].update(kind="fireworks"),
     f"{REPORT}.pairings[0].effects[0].kind", "expected 'ap_loss', "),
    (lambda d: _report(d)["pairings"][0]["effects"].insert(0, "x"),
     f"{REPORT}.pairings[0].effects[0]", "expected an object"),
    (lambda d: _report(d)["lines"].append(5), f"{REPORT}.lines[-1]", "expected text"),
    (lambda d: _report(d).update(surprise=1), f"{REPORT}.surprise", "unknown field"),
    (lambda d: _report(d).update(faces=[[12, 13]]), f"{REPORT}.faces[0]",
     "13 is not a face of a d12"),
])
def test_a_round_report_is_checked_naming_its_path(
        tmp_path: Path, demo_db: Path, edit: Any, path: str, message: str) -> None:
    doc = _fought(tmp_path, demo_db)
    path = path.replace("lines[-1]", f"lines[{len(_report(doc)['lines'])}]")
    edit(doc)
    err = _refused(tmp_path, doc)
    assert err.field == path and message in err.message, str(err)


@pytest.mark.parametrize("edit, path, message", [
    # what an ended fight wrote to the roster (RULES-NOTES B), by character id
    (lambda d: d["k_points"].update(x=0), "k_points", "'x' is not a character's id"),
    (lambda d: d["k_points"].update({"07": 0}), "k_points", "'07' is not a character's id"),
    (lambda d: d["k_points"].update({"4": "0"}), "k_points.4", "expected a whole number"),
    (lambda d: d.update(weapon_moves=[[1, "Mike", "Sten gun"]]), "weapon_moves[0][1]",
     "expected a whole number"),
])
def test_a_fight_s_outcome_is_checked_naming_its_path(
        tmp_path: Path, demo_db: Path, edit: Any, path: str, message: str) -> None:
    from tests.store.test_transfer import store_ended_fight

    with open_campaign(demo_db) as db:
        store_ended_fight(db)
        export_campaign(db, tmp_path / "ended.json")
    doc = json.loads((tmp_path / "ended.json").read_text())
    (tmp_path / "ended.json").unlink()
    [index] = [i for i, e in enumerate(doc["fights"][0]["events"]) if e["kind"] == "fight_ended"]
    edit(doc["fights"][0]["events"][index]["payload"])
    err = _refused(tmp_path, doc)
    assert err.field == f"fights[0].events[{index}].payload.{path}", str(err)
    assert message in err.message, str(err)


def test_a_round_report_an_earlier_version_wrote_imports(
        tmp_path: Path, demo_db: Path) -> None:
    """Reports written before the Passive skills (S0 §Skills, Passive) counted
    in a round have no ``bonuses``, ``passives`` or ``passives_left_out``."""
    doc = _fought(tmp_path, demo_db)
    for pairing in _report(doc)["pairings"]:
        for key in ("bonuses", "passives", "passives_left_out"):
            del pairing["contest"][key]
    source = tmp_path / "old.json"
    source.write_text(json.dumps(doc))
    import_campaign(source, tmp_path / "new.db").db.close()
    con = sqlite3.connect(tmp_path / "new.db")
    [(payload,)] = con.execute(
        "SELECT payload FROM fight_event WHERE kind = 'round_resolved'").fetchall()
    con.close()
    assert "passives" not in json.loads(payload)["report"]["pairings"][0]["contest"]


def test_a_refusal_quoting_a_value_with_a_tab_and_a_newline_is_one_line(
        tmp_path: Path, demo_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What a message quotes from the document is shown escaped: it can neither
    break the line nor drive the terminal."""
    doc = _flown(tmp_path, demo_db)
    for c in doc["characters"][:2]:
        c["name"] = "Ann\tB\nC\x1b[2J"
    source = tmp_path / "in.json"
    source.write_text(json.dumps(doc))
    assert cli.main(["import", str(source), "--db", str(tmp_path / "new.db")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "\t" not in err, err
    assert "two characters are called Ann\\tB\\nC\\x1b[2J" in err, err


def test_a_repair_without_its_optional_fields_takes_their_defaults(
        tmp_path: Path, demo_db: Path) -> None:
    """The schema's defaults (queued, no day done) are the import's: the
    reference checks read them so, not as a missing key."""
    doc = _flown(tmp_path, demo_db)
    job = doc["history"]["repairs"][-1]
    del job["status"], job["days_done"]
    source = tmp_path / "in.json"
    source.write_text(json.dumps(doc))
    result = import_campaign(source, tmp_path / "new.db")
    try:
        con = sqlite3.connect(tmp_path / "new.db")
        assert con.execute("SELECT status, days_done FROM repair WHERE id = ?",
                           (job["id"],)).fetchall() == [("queued", 0)]
        con.close()
    finally:
        result.db.close()


def _renumbered(events: list[dict[str, Any]], fight: dict[str, Any]) -> None:
    """The fight's first event deleted, the rest renumbered 1, 2, … (no gap)."""
    fight["events"] = [e | {"seq": i + 1} for i, e in enumerate(events)]


def _refused(tmp_path: Path, doc: Any) -> ValidationError:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(ValidationError) as err:
        import_campaign(bad, tmp_path / "new.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    return err.value


@pytest.mark.parametrize("edit, path, words", [
    # S0 §Close combat: the fight's log replays or the document is refused
    (lambda d: _renumbered(d["fights"][0]["events"][1:], d["fights"][0]),
     "fights[0].events[0]", "does not replay"),
    (lambda d: d["fights"][0]["events"][1].update(seq=7), "fights[0].events", "without a gap"),
    (lambda d: d["fights"][0]["events"][0]["payload"]["fight"].update(pairings=[]),
     "fights[0].events[0].payload.fight.pairings", "at least 1"),
    (lambda d: d["fights"][0]["events"][0]["payload"]["fight"]["pairings"][0].update(a="99"),
     "fights[0].events[0]", "does not replay"),
    (lambda d: d["fights"][0]["events"][1]["payload"].update(faces=[[12, 13]]),
     "fights[0].events[1].payload.faces[0]", "13 is not a face of a d12"),
    (lambda d: d["fights"][0]["events"][1]["payload"].update(faces=[[12, 1]]),
     "fights[0].events[1]", "does not replay"),
    (lambda d: d["fights"][0]["events"][1].update(kind="gossip"),
     "fights[0].events[1]", "unknown event kind"),
    (lambda d: d["fights"][0].update(events=[]), "fights[0].events", "at least 1"),
    # the battle's logged faces are its only dice
    (lambda d: d["battles"][0]["events"][1]["payload"]["faces"].append([6, 1]),
     "battles[0].events[1]", "does not replay"),
    (lambda d: d["battles"][0]["events"][0]["payload"]["data"].update(units=[{"id": 1}]),
     "battles[0].events[0].payload.data.units[0].id", "expected text"),
    (lambda d: d["battles"][0]["events"][0].update(kind="turn_started"),
     "battles[0].events[0].payload.data.aircraft", "unknown field"),  # the first key
    # rows as the forms check them, and the roll log's faces
    (lambda d: d["roll_log"].append(dict(d["roll_log"][0])), "roll_log", "used twice"),
    (lambda d: d["roll_log"][0].update(faces=[[10, 0]]), "roll_log[0].faces[0]",
     "0 is not a face"),
    (lambda d: d["roll_log"][0].update(created_at="yesterday"), "roll_log[0].created_at",
     "UTC time"),
    (lambda d: d["characters"][0].update(strength=10**30), "characters[0].strength",
     "less than or equal to 9223372036854775807"),
    (lambda d: d["characters"][0].update(strength=-3), "characters[0].strength",
     "must be 0–12"),
    (lambda d: d["characters"][0].update(id=-4), "characters[0].id", "greater than or equal"),
    (lambda d: d["characters"][0].update(notes=5), "characters[0].notes", "expected text"),
    (lambda d: d.update(schema_version=SCHEMA_VERSION + 1), "schema_version",
     "Upgrade ka-tui"),
])
def test_a_document_the_app_cannot_use_is_refused_with_its_path(
        tmp_path: Path, demo_db: Path, edit: Any, path: str, words: str) -> None:
    doc = _good(tmp_path, demo_db)
    edit(doc)
    err = _refused(tmp_path, doc)
    assert err.field == path, str(err)
    assert words in err.message, str(err)


def test_a_good_document_with_a_fight_and_a_battle_imports(tmp_path: Path,
                                                            demo_db: Path) -> None:
    doc = _good(tmp_path, demo_db)
    good = tmp_path / "ok.json"
    good.write_text(json.dumps(doc))
    result = import_campaign(good, tmp_path / "copy.db")
    result.db.close()
    assert len(read_document(good)["fight_event"]) == 2



def test_a_battle_that_recorded_no_rules_is_checked_under_the_document_s_rules(
        tmp_path: Path, demo_db: Path) -> None:
    """R-1: the import replays a battle log that recorded no air house rules as
    the app will (``rows_to_rules.battle_fallback``: the campaign's rules, here
    the document's). Under the defaults the log replays; under the document's
    hits on 6+ its logged shot's dice are not used, and the battle screen could
    not load it: the import refuses it (it used to check under the defaults)."""
    from ka_tui.store import battles
    from ka_tui.store.campaign import house_rules, set_house_rules
    from tests.store.test_battles import store_unrecorded_battle

    with open_campaign(demo_db) as db:
        battle_id, _ = store_unrecorded_battle(db)
        index = [b.id for b in logs.list_battles(db)].index(battle_id)
        out = tmp_path / "doc.json"
        export_campaign(db, out)
        set_house_rules(db, house_rules(db).with_changes("air", firepower_hit_on=6))
        export_campaign(db, tmp_path / "strict.json")
    imported = import_campaign(out, tmp_path / "ok.db")
    with imported.db as db:
        assert battles.load_battle(db, battle_id).state.turn == 2
    err = _refused(tmp_path, json.loads((tmp_path / "strict.json").read_text()))
    assert err.field.startswith(f"battles[{index}].events["), str(err)
    assert "does not replay" in err.message

def test_the_document_models_know_every_field_and_event_kind_of_the_rules() -> None:
    """S0 §Close combat / R-1: a field or kind added to the rules must be added
    to ``schema_doc`` too (else its exports would be refused)."""
    from dataclasses import fields

    from ka_tui.rules.air.battle import BattleEventKind
    from ka_tui.rules.cqc import Fight, Fighter
    from ka_tui.rules.cqc.card import CqcCard
    from ka_tui.rules.cqc.log import FightEventKind
    from ka_tui.store import schema_doc as sd

    assert set(sd.FighterDoc.model_fields) == {f.name for f in fields(Fighter)}
    assert set(sd.FightStateDoc.model_fields) == set(Fight.start(
        [Fighter.new("1", "A", strength=3, agility=3, cc_number=3, cc_pool=(12,)),
         Fighter.new("2", "B", strength=3, agility=3, cc_number=3, cc_pool=(12,))],
        [("1", "2")]).to_dict())
    assert set(sd.CardDoc.model_fields) >= set(CqcCard("1", "2", ()).to_dict())
    assert set(sd.FIGHT_PAYLOADS) == {k.value for k in FightEventKind}
    assert set(sd.BATTLE_DATA) == {k.value for k in BattleEventKind}
    # the round report (rules/cqc/report.py): its to_dict keys are its fields
    from ka_tui.rules.cqc.negation import ActionUnit
    from ka_tui.rules.cqc.report import ContestRecord, PairingReport, RoundReport
    from ka_tui.rules.cqc.resolution import ActionFate, Effect

    for cls, doc in ((RoundReport, sd.RoundReportDoc), (PairingReport, sd.PairingReportDoc),
                     (ContestRecord, sd.ContestRecordDoc), (ActionFate, sd.ActionFateDoc),
                     (ActionUnit, sd.ActionUnitDoc), (Effect, sd.EffectDoc)):
        assert set(doc.model_fields) == {f.name for f in fields(cls)}, cls.__name__


def _free_values(node: Any, here: str = "") -> list[str]:
    """Where the JSON schema lets any value in: a schema with no type, no
    reference and no choice (pydantic's ``JsonValue`` or ``Any``), or an object
    open to any key with any value."""
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _free_values(v, f"{here}[{i}]")]
    if not isinstance(node, dict):
        return []
    out = []
    shape = set(node) - {"title", "description", "default", "examples"}
    if not shape:
        out.append(here or "document")
    if node.get("additionalProperties") is True or (
            node.get("type") == "object" and "properties" not in node
            and "additionalProperties" not in node):
        out.append(here)
    for key, value in node.items():
        if key not in ("default", "examples"):
            out += _free_values(value, f"{here}/{key}")
    return out


def test_no_json_value_the_campaign_stores_is_free_in_the_schema() -> None:
    """Every JSON value of the document (house rules, the profile's lists,
    damage, roll faces, every event payload down to the round report,
    debriefs, journal entries) has a shape; an empty object such as a turn's
    ``{}`` data is closed to any key."""
    from ka_tui.store import schema_doc as sd

    schema = sd.Document.model_json_schema()
    free = [p for p in _free_values(schema)
            if not p.endswith("/properties")]  # a model with no field: {"properties": {}}
    assert free == []
    assert all(d.get("additionalProperties") is False for d in schema["$defs"].values()
               if d.get("type") == "object" and "properties" in d)


# ------------------------------------------------------------ 2. nesting

@pytest.mark.parametrize("depth", [250, 1_000, 100_000])
def test_any_nesting_depth_is_refused_cleanly(tmp_path: Path, depth: int,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    deep = "[" * depth + "]" * depth
    bad = tmp_path / "deep.json"
    bad.write_text('{"format": "ka-tui-campaign", "schema_version": 2, "campaign": '
                   '{"name": "X", "notes": ' + deep + '}}')
    with pytest.raises(ValidationError, match="nested deeper than 200 levels"):
        import_campaign(bad, tmp_path / "x.db")
    assert cli.main(["import", str(bad), "--db", str(tmp_path / "x.db")]) == 2
    err = capsys.readouterr().err
    assert "nested deeper" in err and "RecursionError" not in err
    assert not (tmp_path / "x.db").exists()


# ------------------------------------------------------------ 3. private files

@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_campaign_side_files_backups_and_folders_are_private_under_umask_022(
        tmp_path: Path, umask_022: None) -> None:
    folder = tmp_path / "new" / "folder"
    db = create_campaign(folder / "c.db", "Private")
    with db.transaction():
        pass
    con = sqlite3.connect(folder / "c.db")  # keep the WAL and SHM alive to look at them
    con.execute("SELECT 1 FROM campaign").fetchall()
    assert _mode(folder / "c.db") == 0o600
    assert _mode(Path(f"{folder / 'c.db'}-wal")) == 0o600
    assert _mode(Path(f"{folder / 'c.db'}-shm")) == 0o600
    assert _mode(folder) == 0o700
    con.close()
    db.close()
    from ka_tui.store.backups import take_backup

    b = take_backup(folder / "c.db", "manual")
    assert _mode(b.path) == 0o600
    assert _mode(b.path.parent) == 0o700 and _mode(b.path.parent.parent) == 0o700


def test_an_old_world_readable_campaign_and_data_folder_are_tightened(
        tmp_path: Path, demo_db: Path, umask_022: None) -> None:
    os.chmod(demo_db, 0o644)
    data_dir().mkdir(parents=True)
    os.chmod(data_dir(), 0o755)
    open_campaign(demo_db).close()
    assert _mode(demo_db) == 0o600
    assert cli.main(["--where"]) == 0
    assert _mode(data_dir()) == 0o700


def test_shared_group_makes_a_campaign_group_read_write_and_it_stays_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask_022: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "shared" / "c.db"
    # the app's startup read (a forked child) takes the day's backup
    monkeypatch.setattr(cli, "_need_terminal", lambda: None)
    monkeypatch.setattr(cli, "gm_app",
                        lambda path, flags, read: SimpleNamespace(run=read.result))
    assert cli.main(["--shared-group", "--new", "Shared", "--db", str(path)]) == 0
    assert _mode(path) == 0o660
    assert _mode(path.parent) & 0o770 == 0o770
    assert cli.main(["--db", str(path)]) == 0  # opened again without the option
    assert _mode(path) == 0o660
    [backup] = (tmp_path / "shared" / "backups" / "c").iterdir()
    assert _mode(backup) == 0o660


# ------------------------------------------------------------ 4. read-only campaigns

def test_read_only_through_sqlites_read_only_open(demo_db: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Root ignores file modes; this is SQLite's ``mode=ro`` open, asked for."""
    with open_campaign(demo_db, read_only=True) as db:
        assert db.read_only == "opened with --read-only"
        with db.read() as s:
            from ka_tui.store.models import CharacterRow

            assert s.get(CharacterRow, 1) is not None
        with pytest.raises(ReadOnlyCampaign, match="^Read-only campaign .*nothing can be "
                                                   "changed or logged"):
            append_roll(db, RollEntry("Ann", "x", "1d12", ((12, 3),), "pass"))
        with pytest.raises(ReadOnlyCampaign):
            logs.new_fight(db, "No")
        con = db.connect()
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            con.execute("INSERT INTO fight (name) VALUES ('x')")
        con.close()
        export_campaign(db, demo_db.parent / "out.json")
    assert json.loads((demo_db.parent / "out.json").read_text())["campaign"]["name"]


_AS_NOBODY = r"""
import json, os, sys
from pathlib import Path
from ka_tui.store.db import create_campaign, open_campaign, check_file, ReadOnlyCampaign
from ka_tui.store.roll_log import RollEntry, append_roll
from ka_tui.store.transfer import export_campaign
from ka_tui import cli
base = Path(sys.argv[1]); out = {}
create_campaign(base / "f" / "c.db", "Mine").close()
os.chmod(base / "f" / "c.db", 0o444)  # 1. a read-only file
db = open_campaign(base / "f" / "c.db"); out["file"] = db.read_only
try:
    append_roll(db, RollEntry("A", "x", "1d12", ((12, 3),), "pass")); out["file_write"] = "written"
except ReadOnlyCampaign as e:
    out["file_write"] = str(e)
db.close()
out["file_beside"] = sorted(os.listdir(base / "f"))
os.chmod(base / "f" / "c.db", 0o644)
os.chmod(base / "f", 0o555)  # 2. a read-only folder
db = open_campaign(base / "f" / "c.db"); out["folder"] = db.read_only
with db.read() as s:
    pass
db.close()
out["export"] = cli.main(["export", str(base / "out.json"), "--db", str(base / "f" / "c.db")])
out["folder_beside"] = sorted(os.listdir(base / "f"))
print(json.dumps(out))
"""


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder the user nobody may write (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="ka-ro-"))
    os.chmod(folder, 0o777)
    try:
        yield folder
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def _python_for_nobody() -> str | None:
    """An interpreter the user nobody may run (the venv's may sit in /root)."""
    for candidate in (sys.executable, f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}"):
        ok = subprocess.run(["runuser", "-u", "nobody", "--", candidate, "-c", "pass"],
                            capture_output=True, timeout=60)
        if ok.returncode == 0:
            return candidate
    return None


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("runuser"),
                    reason="needs root to run the check as the user nobody")
def test_read_only_file_and_folder_as_a_user_who_is_not_root(shared_tmp: Path) -> None:
    python = _python_for_nobody()
    if python is None:
        pytest.skip("no Python the user nobody may run")
    packages = [p for p in sys.path if p.endswith("site-packages")]
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": os.pathsep.join([str(ROOT), *packages]),
           "HOME": str(shared_tmp), "XDG_DATA_HOME": str(shared_tmp / "data")}
    run = subprocess.run(["runuser", "-u", "nobody", "--", python, "-c", _AS_NOBODY,
                          str(shared_tmp)], capture_output=True, text=True, env=env,
                         cwd=shared_tmp, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["file"] == "the file is read-only"
    assert out["file_write"].startswith("Read-only campaign (the file is read-only)")
    assert out["file_beside"] == ["c.db"]  # immutable open: no -wal/-shm
    assert out["folder"] == "its folder is read-only"
    assert out["export"] == 0
    assert out["folder_beside"] == ["c.db"]
    assert json.loads((shared_tmp / "out.json").read_text())["campaign"]["name"] == "Mine"


# ------------------------------------------------------------ 5. checking creates nothing

def _wal_mode_damaged(path: Path) -> None:
    create_campaign(path, "Bad").close()
    data = bytearray(path.read_bytes())
    data[100:108] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"  # the schema page's b-tree header
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("spoil, error", [
    (lambda p: (create_campaign(p, "New").close(), _user_version(p, SCHEMA_VERSION + 3)),
     NewerSchema),
    (_wal_mode_damaged, NotACampaign),
])
def test_a_refused_file_gains_nothing_beside_it(tmp_path: Path, spoil: Any,
                                                error: type[StoreError]) -> None:
    path = tmp_path / "c.db"
    spoil(path)
    assert _beside(path) == ["c.db"]
    before = path.read_bytes()
    with pytest.raises(error):
        open_campaign(path)
    with pytest.raises(error):
        check_file(path)
    assert cli.main(["--db", str(path)]) == 2
    assert _beside(path) == ["c.db"]
    assert path.read_bytes() == before


def _user_version(path: Path, version: int) -> None:
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {version}")
    con.commit()
    con.close()
    for side in ("-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)


# ------------------------------------------------------------ 6. a typo creates nothing

@pytest.mark.parametrize("argv", [[], ["export", "x.json"], ["backups"]])
def test_db_in_a_missing_folder_is_refused(tmp_path: Path, argv: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "typo" / "c.db"
    assert cli.main(["--db", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert f"no such folder: {path.parent}; use --new NAME or create the folder" in err
    assert not path.parent.exists()


def test_new_and_demo_may_create_the_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "_run_app", lambda p, flags: 0)
    assert cli.main(["--new", "Fresh", "--db", str(tmp_path / "a" / "c.db")]) == 0
    assert cli.main(["--demo", "--db", str(tmp_path / "b" / "d.db")]) == 0
    assert check_file(tmp_path / "a" / "c.db").name == "Fresh"
    assert check_file(tmp_path / "b" / "d.db").version == SCHEMA_VERSION
