"""The campaign row: name, notes and its house rules (RULES-NOTES: per campaign).

::

    rules = house_rules(db)                      # defaults overlaid with what it stores
    rules = stored_rules(read)                   # the same, in a plain-read snapshot
    set_house_rules(db, rules.with_changes("cqc", default_ap=8))   # only the changes stored
    rename_campaign(db, "Operation Dawn"); set_campaign_notes(db, "…")
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ka_tui.rules.core.options import HouseRules
from ka_tui.store.db import CampaignDB
from ka_tui.store.errors import NotACampaign, StoreError, ValidationError
from ka_tui.store.limits import NAME_MAX, TEXT_MAX

if TYPE_CHECKING:
    from ka_tui.store.models import CampaignRow
    from ka_tui.store.plain_read import PlainRead


def get_campaign(db: CampaignDB) -> CampaignRow:
    from ka_tui.store.models import CampaignRow

    with db.read() as s:
        row = s.get(CampaignRow, 1)
    if row is None:
        raise NotACampaign(f"{db.path} has no campaign row")
    return row


def house_rules(source: CampaignDB | CampaignRow) -> HouseRules:
    """The campaign's ``HouseRules`` (defaults overlaid with what it stores).
    From a ``CampaignDB`` by plain SQL (no SQLModel: a player's first read)."""
    if isinstance(source, CampaignDB):
        with source.plain_read() as read:
            return stored_rules(read)
    return _rules_of(source.house_rules)


def stored_rules(read: PlainRead) -> HouseRules:
    """The campaign's ``HouseRules`` read in a plain-read snapshot (inside a
    write's transaction too: ``PlainRead.on_session``)."""
    found = read.execute("SELECT house_rules FROM campaign WHERE id = 1").fetchall()
    if not found:
        raise NotACampaign(f"{read.path or 'the campaign file'} has no campaign row")
    return _rules_of(str(found[0][0]))


def _rules_of(stored: str) -> HouseRules:
    try:
        return HouseRules.from_dict(json.loads(stored))
    except ValueError as e:
        raise StoreError(f"the campaign's house rules cannot be read: {e}") from None


def changed_rules(rules: HouseRules) -> dict[str, Any]:
    """Only the options that differ from the defaults, by section.

    Stored this way, a campaign keeps the GM's choices while options added to
    ``options.py`` later simply take their defaults.
    """
    mine, base = rules.to_dict(), HouseRules().to_dict()
    out: dict[str, Any] = {}
    for section, values in mine.items():
        diff = {k: v for k, v in values.items() if base.get(section, {}).get(k) != v}
        if diff:
            out[section] = diff
    return out


def set_house_rules(db: CampaignDB, rules: HouseRules) -> CampaignRow:
    from ka_tui.store.models import CampaignRow

    with db.transaction() as s:
        row = s.get(CampaignRow, 1)
        if row is None:
            raise NotACampaign(f"{db.path} has no campaign row")
        row.house_rules = json.dumps(changed_rules(rules), sort_keys=True)
        s.add(row)
        return row


def rename_campaign(db: CampaignDB, name: str) -> CampaignRow:
    name = name.strip()
    if not name:
        raise ValidationError("name", "a name is required")
    if len(name) > NAME_MAX:
        raise ValidationError("name", f"at most {NAME_MAX} characters")
    return _update(db, name=name)


def set_campaign_notes(db: CampaignDB, notes: str) -> CampaignRow:
    if len(notes) > TEXT_MAX:
        raise ValidationError("notes", f"at most {TEXT_MAX} characters")
    return _update(db, notes=notes)


def _update(db: CampaignDB, **values: str) -> CampaignRow:
    from ka_tui.store.models import CampaignRow

    with db.transaction() as s:
        row = s.get(CampaignRow, 1)
        if row is None:
            raise NotACampaign(f"{db.path} has no campaign row")
        row.sqlmodel_update(values)
        s.add(row)
        return row
