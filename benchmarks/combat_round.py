"""One round of close combat at the table, on an 80x24 pseudo-terminal.

Usage: ``.venv/bin/python benchmarks/combat_round.py [--quick]``

A fresh ``python -m ka_tui --db COPY-OF-DEMO``: close combat (``3``), a new
fight Mike Dunn vs Jeanne Moreau, then one round with every die typed from
the table (S0 §Close combat 1-6): the order of combat's faces, a card each,
the reveal, the round's faces, the damage. Played twice, on two copies:

- key by key: after each key this process reads what the app writes until
  250 ms pass with nothing; the key's latency is the time to its last byte;
- in one burst: every key of the round written to the terminal at once (a
  fast typist, or an SSH link delivering them in one read); the time is to
  the last byte of the last frame.

Both must leave the round's events in the campaign file (no key lost: the
burst is ``ok`` only when its fight log is the key-by-key one). Budgets: 100
ms from a key to its last byte, as ``keys.py`` (a decision: 0.1 s is where a
key stops feeling immediate); the burst, a decision too: no slower than
typing the round key by key.
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    PYTHON, PtySession, Row, median, row, run_on_demo, section, typed_and_burst,
    user_env)

KEY_MS = 100.0
# the new-fight list in name order from Arthur Hale: 5 down Mike Dunn, 2 up Jeanne Moreau
NEW_FIGHT = ["n", *["down"] * 5, "enter", "up", "up", "enter", "\x13"]  # ctrl+s
# S0 §1: Mike's 4d12 Combat Initiative (10s), Jeanne's Active Agility test 2d8
# (house rule cqc.agility_test); S0 §4: Mike's 3d12+1d20 (8s) beat Jeanne's
# 2d10 (2s); a Feint and a Defence: no save
ROUND = [*"10 10 10 10 2 2", "enter", "f", "b", "enter", "d", "b", "enter",
         "v", *"8 8 8 8 2 2", "enter", "enter"]
EVENTS = ["fight_started", "initiative", "card_entered", "card_entered", "cards_revealed",
          "dice_rolled", "round_resolved"]


def _log(db: Path) -> list[tuple[str, str]]:
    con = sqlite3.connect(db)
    try:
        return list(con.execute("SELECT kind, payload FROM fight_event ORDER BY seq"))
    finally:
        con.close()


def _session(demo: Path, folder: Path, name: str) -> tuple[PtySession, Path]:
    copy = folder / f"{name}.db"
    shutil.copy(demo, copy)
    s = PtySession([PYTHON, "-m", "ka_tui", "--db", str(copy)],
                   env=user_env(XDG_DATA_HOME=str(folder / name)))
    s.first_frame()
    s.settle(1.5, first_wait=1.5)
    s.key("3")
    s.settle(1.0, first_wait=1.0)
    for k in NEW_FIGHT:
        s.key(k)
    s.settle(1.0, first_wait=1.0)
    return s, copy


def round_rows(demo: Path, folder: Path) -> list[Row]:
    times, burst_ms, slow_db, fast_db = typed_and_burst(
        lambda name: _session(demo, folder, name), ROUND)
    slow, fast = _log(slow_db), _log(fast_db)
    whole = [k for k, _ in slow] == EVENTS
    typed_ms = sum(times) * 1000
    key_ms = median(times) * 1000
    return [
        row("close combat: keys for one round at the table", f"{len(ROUND)} keys", ""),
        row("close combat: one round key by key, key to last byte (median)", key_ms, "ms",
            f"< {KEY_MS:.0f} ms", key_ms < KEY_MS),
        row("close combat: one round key by key, slowest key", max(times) * 1000, "ms"),
        row("close combat: one round key by key, all keys", typed_ms, "ms"),
        row("close combat: the round in one burst, to its last byte", burst_ms, "ms",
            "<= key by key", burst_ms <= typed_ms),
        row("close combat: the burst's fight log is the key-by-key one",
            "same" if fast == slow and whole else f"{len(fast)} vs {len(slow)} events", "",
            "same", fast == slow and whole),
    ]


def rows(demo: Path, folder: Path, quick: bool = False) -> list[Row]:
    return [section("Close combat, one round at the table (80x24 pty)")] + round_rows(demo,
                                                                                     folder)


def main() -> int:
    return run_on_demo(rows, __doc__, "(the same: one round)")


if __name__ == "__main__":
    raise SystemExit(main())
