"""``python -m benchmarks [--quick]``: every benchmark in one run, one table.

Figure, measured value, budget, ``ok`` or ``MISS``. The bare-Textual reference
(Header, one Static, Footer) is measured in this same run, interleaved with
the first frames it is compared with (``startup.py``), and again with every
process pinned to one CPU (``one_core.py``: first frames, CPU to the first
frame, each mode's first and later visit, idle bytes); the table server's
first frames over SSH and in a browser are compared with a local
``play --as`` measured in rounds with them (``table_server.py``). Pseudo-terminal
figures (first frames, forms' bytes, bytes and latency per key, memory) drive
a fresh process on an 80x24 pty; compute figures (odds, plan validation, store)
run headless in this process. ``tricks.py`` shows each Textual trick
(``ka_tui/textual_compat``) on and off. Each module also runs alone
(``python benchmarks/keys.py``...). Exit status 1 when a row misses its budget.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from benchmarks.common import Row, print_table, row, section


def _guard(name: str, make: Callable[[], list[Row]]) -> list[Row]:
    """A benchmark that fails gives a MISS row naming the error, not no table."""
    try:
        return make()
    except Exception as error:  # noqa: BLE001
        traceback.print_exc()
        return [section(name), row(f"{name}: did not run", f"{type(error).__name__}: {error}"[:60],
                                   "", "runs", False)]


def form_rows(quick: bool) -> list[Row]:
    """``benchmarks/forms.py`` (the forms and dialogs), when it exists."""
    if not (Path(__file__).parent / "forms.py").exists():
        return [section("Forms and dialogs"),
                row("forms and dialogs: benchmarks/forms.py", "not on this branch", "",
                    "< 150 ms, < 12 KB", None)]
    forms = importlib.import_module("benchmarks.forms")
    runs = 2 if quick else 5
    if hasattr(forms, "rows"):
        params = inspect.signature(forms.rows).parameters
        found = forms.rows(quick) if params else forms.rows()
    else:
        found = forms.run(runs=runs)
    out = [section("Forms and dialogs (benchmarks/forms.py)")]
    for r in found:
        if isinstance(r, Row):
            out.append(r)
        elif len(r) == 5:
            out.append(Row(*r))
        else:                                   # (figure, measured text, budget, ok)
            figure, measured, budget, ok = r
            out.append(Row(figure, str(measured).strip(), "", str(budget).strip() or "-", ok))
    return out


def campaign_rows(quick: bool) -> list[Row]:
    """``benchmarks/campaign.py`` (the campaign mode on a big campaign),
    wrapped: headless first frames of the overview and the journal, store reads."""
    import asyncio
    import statistics

    campaign = importlib.import_module("benchmarks.campaign")
    out = [section("Campaign mode, big campaign (benchmarks/campaign.py, headless)")]
    with tempfile.TemporaryDirectory(prefix="ka-campaign-") as name:
        path = Path(name) / "big.db"
        campaign.build(path)
        for what, took in campaign.store_reads(path).items():
            out.append(row(f"campaign store read: {what}", took * 1000, "ms"))
        runs = [asyncio.run(campaign.run_once(path)) for _ in range(1 + (2 if quick else 5))]
        for i, what in enumerate(("overview", "journal")):
            ms = statistics.median(r[i][0] for r in runs[1:]) * 1000
            out.append(row(f"campaign: key to first frame of the {what}", ms, "ms", "< 300 ms",
                           ms < 300))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs and keys (2 runs per first frame instead of 5)")
    args = parser.parse_args()
    quick = args.quick
    began = time.perf_counter()
    from benchmarks import (air_table_turn, air_turn, combat_round, keys, memory, odds,
                            one_core, propagation, startup, store_timings, tactics, tricks)

    load_at_start = os.getloadavg()[0]

    table: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="ka-bench-") as name:
        folder = Path(name)
        print("making the campaigns (demo, 1,000 characters)...", file=sys.stderr)
        campaigns = startup.Campaigns(folder)
        runs = 2 if quick else 5
        print("first frames...", file=sys.stderr)
        table += _guard("first frame", lambda: startup.rows(campaigns, runs)[1])
        print("one core: first frames, modes, idle screens...", file=sys.stderr)
        table += _guard("one core", lambda: one_core.rows(quick)[""])
        print("forms and dialogs...", file=sys.stderr)
        table += _guard("forms", lambda: form_rows(quick))
        print("keys...", file=sys.stderr)
        table += _guard("keys", lambda: keys.rows(campaigns.demo, folder, quick))
        print("a close-combat round and an air-battle turn at the table...", file=sys.stderr)
        table += _guard("close-combat round",
                        lambda: combat_round.rows(campaigns.demo, folder, quick))
        table += _guard("air-battle turn",
                        lambda: air_table_turn.rows(campaigns.demo, folder, quick))
        print("memory...", file=sys.stderr)
        table += _guard("memory", lambda: memory.rows(campaigns.demo, campaigns.large, folder))
        print("Textual tricks on and off...", file=sys.stderr)
        table += _guard("tricks", lambda: tricks.rows(campaigns.demo, folder, quick))
    print("live views across processes...", file=sys.stderr)
    table += _guard("propagation", lambda: propagation.rows(quick))
    print("the table server (SSH, browser)...", file=sys.stderr)
    from benchmarks import table_server

    table += _guard("table server", lambda: table_server.rows(quick))
    if (Path(__file__).parent / "campaign.py").exists():
        print("campaign mode...", file=sys.stderr)
        table += _guard("campaign", lambda: campaign_rows(quick))
    print("compute...", file=sys.stderr)
    table += _guard("odds", lambda: odds.rows(quick))
    table += _guard("air", lambda: air_turn.rows(quick))
    table += _guard("tactics", lambda: tactics.rows(quick))
    table += _guard("store", lambda: store_timings.rows(quick))
    load = os.getloadavg()[0]
    print(f"ka-tui benchmarks{' (--quick)' if quick else ''}: {os.cpu_count()} CPUs, "
          f"load average {load_at_start:.2f} at the start, {load:.2f} at the end, "
          f"{time.perf_counter() - began:.0f} s")
    if max(load_at_start, load) > 0.5 * (os.cpu_count() or 1):
        print("the machine was busy: absolute times are longer than on an idle one; "
              "the first frames are compared with bare Textual measured in the same rounds")
    misses = print_table(table)
    print(f"{misses} row(s) MISS their budget" if misses else "every row within its budget")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
