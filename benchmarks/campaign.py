"""Campaign mode: time to the first frame of the overview and of the
journal with its data, on a big campaign.

Usage: ``.venv/bin/python benchmarks/campaign.py [--runs N]``

The campaign: the demo plus 200 missions (each with two people aboard and five
battles linked), 1,000 battles' worth of events (each battle a copy of the
demo battle's ``battle_started`` and a ``battle_ended``, plus 20 steps) and
5,000 journal entries. Each run opens the app headless at 80×24 (Textual's
Pilot, the real screens and store), then times

- overview: from pressing ``5`` (the mode's screen is made on that key) to the
  refresh after the overview shows its rows;
- journal: from pressing ``j`` to the refresh after the journal shows its rows;
- store reads alone (``overview``, ``journal.entries``, one mission's debrief).

Budget: under 300 ms to the first frame of each (the issue's "no visible stall").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MISSIONS, BATTLES, ENTRIES, STEPS = 200, 1000, 5000, 20


def build(path: Path) -> None:
    from ka_tui.store.demo import create_demo

    create_demo(path).close()
    con = sqlite3.connect(path)
    with con:
        started = con.execute("SELECT payload FROM battle_event WHERE kind = "
                              "'battle_started'").fetchone()[0]
        ended = json.dumps({"data": {"aircraft": [], "airmen": [], "victories": [],
                                     "losses": [], "turns": 3}, "faces": [], "log": []})
        step = json.dumps({"data": {"unit": "Tempest KA-A"}, "faces": [[6, 3]],
                           "log": ["a step"]})
        for b in range(BATTLES):
            bid = con.execute("INSERT INTO battle (name, status) VALUES (?, 'ended')",
                              (f"Battle {b}",)).lastrowid
            rows = [(bid, 1, "battle_started", started)]
            rows += [(bid, 2 + i, "phase_ended", step) for i in range(STEPS)]
            rows.append((bid, STEPS + 2, "battle_ended", ended))
            con.executemany("INSERT INTO battle_event (battle_id, seq, kind, payload) "
                            "VALUES (?, ?, ?, ?)", rows)
        first_battle = BATTLES and con.execute("SELECT min(id) FROM battle WHERE name = "
                                               "'Battle 0'").fetchone()[0]
        for m in range(MISSIONS):
            day = (date(1944, 6, 7) + timedelta(days=m)).isoformat()
            mid = con.execute("INSERT INTO mission (name, day, kind, status) VALUES "
                              "(?, ?, 'patrol', 'flown')", (f"Sortie {m}", day)).lastrowid
            con.execute("INSERT INTO mission_member VALUES (?, 1, 1)", (mid,))
            con.execute("INSERT INTO mission_member VALUES (?, 2, 2)", (mid,))
            for k in range(5):
                con.execute("INSERT INTO mission_link (mission_id, battle_id) VALUES (?, ?)",
                            (mid, first_battle + m * 5 + k))
        seq = con.execute("SELECT max(seq) FROM journal_event").fetchone()[0]
        entries = []
        for i in range(ENTRIES):
            payload = {"day": (date(1944, 6, 7) + timedelta(days=i // 25)).isoformat(),
                       "text": f"Entry {i}: the squadron flew, a long line of text "
                               f"about what happened\nand a second line.",
                       "characters": [1 + i % 11], "aircraft": [1 + i % 6],
                       "mission": None}
            entries.append((seq + 1 + i, "note", json.dumps(payload, sort_keys=True)))
        con.executemany("INSERT INTO journal_event (journal_id, seq, kind, payload, created_at)"
                        " VALUES (1, ?, ?, ?, '1944-07-01T00:00:00Z')", entries)
    con.close()


async def run_once(path: Path) -> tuple[tuple[float, float], tuple[float, float]]:
    from ka_tui.app import KaApp

    app = KaApp(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        out = []
        for key, loads in (("5", 1), ("j", 2)):
            t0, c0 = time.perf_counter(), time.process_time()
            await pilot.press(key)
            while getattr(app.screen, "loaded", 0) < loads:
                await asyncio.sleep(0.001)
            done = asyncio.get_running_loop().create_future()
            app.screen.call_after_refresh(lambda: done.set_result(time.perf_counter()))
            out.append(((await done) - t0, time.process_time() - c0))
        return out[0], out[1]


def store_reads(path: Path) -> dict[str, float]:
    from ka_tui.store import campaign_state, journal, missions
    from ka_tui.store.db import CampaignDB

    db = CampaignDB(path)
    times = {}
    for name, call in (("overview", lambda: campaign_state.overview(db)),
                       ("journal, newest 500", lambda: journal.entries(db, newest_first=True,
                                                                       limit=500)),
                       ("journal, all 5,000+", lambda: journal.entries(db)),
                       ("debrief (5 battles)", lambda: missions.debrief_of(db, 4)),
                       ("missions list", lambda: missions.list_missions(db))):
        t0 = time.perf_counter()
        call()
        times[name] = time.perf_counter() - t0
    db.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ka-campaign-bench-"))
    try:
        path = tmp / "big.db"
        t0 = time.perf_counter()
        build(path)
        print(f"built: {MISSIONS} missions, {BATTLES} battles × {STEPS + 2} events, "
              f"{ENTRIES} journal entries in {time.perf_counter() - t0:.1f} s "
              f"({path.stat().st_size / 1e6:.1f} MB)")
        for name, t in store_reads(path).items():
            print(f"store read {name:<22} {t * 1000:7.1f} ms")
        runs = [asyncio.run(run_once(path)) for _ in range(args.runs + 1)]
        cold, warm = runs[0], runs[1:]
        for i, name in enumerate(("overview", "journal")):
            median = statistics.median(r[i][0] for r in warm) * 1000
            cpu = statistics.median(r[i][1] for r in warm) * 1000
            verdict = "ok" if median < 300 else "OVER BUDGET"
            print(f"first frame {name:<9} median {median:6.1f} ms wall, {cpu:6.1f} ms CPU "
                  f"of {args.runs} runs (budget 300 ms) {verdict}; first visit in the "
                  f"process (with the mode's import): {cold[i][0] * 1000:.0f} ms wall, "
                  f"{cold[i][1] * 1000:.0f} ms CPU")
        try:
            import os

            print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        except OSError:
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
