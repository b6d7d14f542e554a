"""The one table of readings (``rules/readings.py``, docs/rules/READINGS.md):
every house-rule option of ``rules/core/options.py`` has its row, every row
quotes seed text that is really in the seed files (S0 in ``000_…txt``, R-x in
``002_….en.md``), and the docs table is the table."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.cqc.initiative import ORDER_LADDER
from ka_tui.rules.readings import READINGS, markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def _plain(text: str) -> str:
    """Whitespace collapsed; the translation's Markdown marks dropped."""
    text = text.replace("\xa0", " ").replace("**", "").replace("`", "")
    return re.sub(r"\s+", " ", text).strip()


S0 = _plain((DOCS / "000_eef22a3699908b4c.txt").read_text(encoding="utf-8"))
R_TEXT = _plain((DOCS / "002_cf897e368c97703a.en.md").read_text(encoding="utf-8"))


def option_names() -> set[str]:
    rules = HouseRules()
    return {f"{section.name}.{f.name}" for section in fields(rules)
            for f in fields(getattr(rules, section.name))}


def test_every_house_rule_option_has_its_row() -> None:
    listed = {r.option for r in READINGS if r.option}
    assert option_names() - listed == set()
    assert listed - option_names() == set()      # no row names an option that is not


def test_every_row_quotes_the_seed_it_cites() -> None:
    wrong = []
    for r in READINGS:
        text = S0 if r.where.startswith("S0") else R_TEXT
        assert r.where.startswith(("S0 §", "R-")), r.where
        if _plain(r.quote) not in text:
            wrong.append(f"{r.where}: {r.quote!r}")
        assert r.does and r.why, r
    assert wrong == []


def test_the_docs_table_is_the_table() -> None:
    """docs/rules/READINGS.md is written by ``python -m ka_tui.rules.readings``."""
    assert (DOCS / "READINGS.md").read_text(encoding="utf-8") == markdown()


def test_readings_the_seeds_leave_open_are_listed() -> None:
    """The readings a rules review found in code only, each with its row."""
    readings = [r for r in READINGS if not r.option]
    text = {f"{r.where}: {r.does}" for r in readings}

    def listed(where: str, *words: str) -> bool:
        return any(t.startswith(where) and all(w in t for w in words) for t in text)

    assert listed("R-6", "same level")                     # collisions at one level only
    assert listed("R-6", "passes through")                 # along the path
    assert listed("R-6", "10+ when any object")            # any large object in the hex
    assert any(r.option == "air.collision_damage_extra" and "random other" in r.does
               for r in READINGS)                          # who collides with whom
    assert listed("R-10", "one level above")               # the approach height
    assert listed("S0 §Traits", "Bulky", "unprepared strip", "open ground")
    assert listed("R-10", "declines")                      # no go-around after a miss <= 3
    assert any(r.option == "cqc.passive_fight_skills" and "the highest counts" in r.does
               for r in READINGS)                          # several Passives
    assert listed("R-1.2", "side moving second plans")     # planning after watching
    assert listed("R-5", "counted after waking")           # campaign: healing
    assert any(r.option == "campaign.repair_crews" and "first come" in r.does
               for r in READINGS)                          # the repair queue
    assert listed("R-1.3", "no open repair job may fly")
    assert listed("R-5", "missing")
    assert listed("R-1.4", "empty tank is a disabled engine")
    assert listed("R-10", "next larger row")               # three engines


def test_the_order_of_combat_ladder_is_the_listed_reading() -> None:
    """S0 §Close combat 1: ORDER_LADDER, rung by rung, is what the table says."""
    row = next(r for r in READINGS if "ORDER_LADDER" in r.does)
    words = ["critical fail last", "failed test below a passed one", "more successes",
             "higher number of the skill tested", "higher Agility", "d12 roll-off"]
    assert all(w in row.does for w in words)
    assert len(ORDER_LADDER) == 5
