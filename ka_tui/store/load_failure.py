"""When a screen cannot load: one message naming what is damaged in the
campaign file and what the GM can do. Screens' loader workers catch *any*
exception and show ``load_failure(...)``'s text, so no screen hangs on
"Loading…"::

    except Exception as error:
        self.notify(str(load_failure("the roster", error, self.app)))

``find_damage`` reads the campaign as an export and runs the import's checks
(``schema_doc`` + ``transfer``) on it, so a campaign damaged in a way the open
checks missed (a roll-log row with a face that is not a number, a fight whose
log does not replay) is reported with the row named: ``roll log row 7``,
``fight 3 "Hangar brawl", event 2`` (the rows and their nouns: ``tables.py``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ka_tui.store.errors import NotACampaign, StoreError, ValidationError
from ka_tui.store.tables import top_row_tables

if TYPE_CHECKING:
    from ka_tui.store.db import CampaignDB

# the document's row parts (tables.py) and how a message names one row of each
_NOUN = {t.part: t.noun for t in top_row_tables()}
_HEAD = re.compile(rf"^({'|'.join(map(re.escape, _NOUN))})\[(\d+)\](.*)$")
WHAT_TO_DO = ("The rest of the campaign still works. To repair it, restore a backup "
              "(ka-tui backups; ka-tui restore FILE) or export it, fix the named value "
              "and import it.")


# the campaign between battles (``history`` in the document): how one row is named
_HISTORY = re.compile(r"^history\.(missions|repairs|journal|people)\[(\d+)\](.*)$")
_HISTORY_ROW = {"missions": ("mission", "id"), "repairs": ("repair", "id"),
                "journal": ("journal entry", "seq"), "people": ("the recovery of character",
                                                                "character_id")}


def _history_named(m: re.Match[str], doc: dict[str, Any]) -> str | None:
    part, index, rest = m.group(1), int(m.group(2)), m.group(3).lstrip(".")
    noun, key = _HISTORY_ROW[part]
    try:
        row = doc["history"][part][index]
        label = f"{noun} {row[key]}"
        if isinstance(row.get("name"), str):
            label += f" \"{row['name']}\""
    except (KeyError, IndexError, TypeError):
        return None
    return f"{label}, {rest}" if rest else label


def _named(path: str, doc: dict[str, Any]) -> str:
    """``fights[0].events[2].payload`` -> ``fight 3 "Hangar brawl", events[2].payload``;
    ``history.missions[1].debrief`` -> ``mission 2 "Bridge at Caen", debrief``."""
    h = _HISTORY.match(path)
    if h:
        return _history_named(h, doc) or path
    m = _HEAD.match(path)
    if not m:
        return path
    table, index, rest = m.group(1), int(m.group(2)), m.group(3).lstrip(".")
    try:
        row = doc[table][index]
        label = f"{_NOUN[table]} {row['id']}"
        if isinstance(row.get("name"), str):  # a roll log row has none
            label += f" \"{row['name']}\""
    except (KeyError, IndexError, TypeError):
        return path
    return f"{label}, {rest}" if rest else label


def find_damage(db: CampaignDB) -> str | None:
    """The first damaged value of the campaign, named for the GM; None if the
    import's checks find nothing wrong (or the file cannot be read at all)."""
    from ka_tui.store.transfer import campaign_document, validate_document

    try:
        doc = campaign_document(db)
    except StoreError as e:
        return str(e)
    except Exception as e:  # noqa: BLE001 — whatever it is, say it
        return f"{type(e).__name__}: {e}"
    try:
        validate_document(doc)
    except ValidationError as e:
        return f"{_named(e.field, doc)}: {e.message}"
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


def _open_db(source: object) -> CampaignDB | None:
    """The campaign handle of ``source``: a ``CampaignDB``, or the app holding one
    (only if already open: the diagnosis never opens a campaign)."""
    from ka_tui.store.db import CampaignDB

    if source is None or isinstance(source, CampaignDB):
        return source
    db = getattr(source, "_db", None)
    return db if isinstance(db, CampaignDB) else None


def load_failure(what: str, error: BaseException, source: object = None) -> StoreError:
    """One message for a screen that could not load ``what`` (any exception);
    ``source``: the open ``CampaignDB`` or the app, to look for the damage."""
    db = _open_db(source)
    if isinstance(error, (NotACampaign,)) or (isinstance(error, StoreError) and db is None):
        return StoreError(f"Cannot load {what}: {error}")
    detail = str(error) or type(error).__name__
    if not isinstance(error, StoreError):
        detail = f"{type(error).__name__}: {detail}"
    damage = None
    if db is not None:
        try:
            damage = find_damage(db)
        except Exception:  # noqa: BLE001 — the diagnosis must never be the next failure
            damage = None
    if damage:
        return StoreError(f"Cannot load {what}: the campaign is damaged at {damage}. "
                          f"{WHAT_TO_DO}")
    if isinstance(error, StoreError):
        return StoreError(f"Cannot load {what}: {error}")
    return StoreError(f"Cannot load {what} ({detail}). {WHAT_TO_DO}")
