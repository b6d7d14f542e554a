"""Shared fixtures: the user's data dir is never touched by tests."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles. ``dev`` is the everyday run: 100 examples
# where a test sets none, and ``tests.rules.hypothesis_counts.scaled(n)`` = n
# where it does. ``nightly`` (HYPOTHESIS_PROFILE=nightly, for a nightly or a
# long local run) runs ten times as many of each; too_slow is allowed there
# because the heavier generators take their time. Neither has a per-example
# deadline: on the shared 2-core machines a loaded moment made the 200 ms
# default fail tests that set none (seen: the map-format round trip); the
# suite's time budget is what keeps the tests fast.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("nightly", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the README's test command) starts two workers per core.

    A UI test spends much of its time waiting, not computing: Textual's Pilot
    sleeps at least 2 × 20 ms after every key until the app is idle. With one
    worker per core those waits leave the cores idle; with two, another test
    computes meanwhile (on 2 cores the UI tests took 282 s instead of
    388 s). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still wins when set."""
    wanted = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if wanted:
        return int(wanted)
    return 2 * max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                   else (os.cpu_count() or 1))


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory,
                        monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point platformdirs (XDG on Linux, HOME elsewhere) at a per-test temp dir."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    return home


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh, empty campaign file (current schema) in ``tmp_path``."""
    from ka_tui.store.db import create_campaign

    path = tmp_path / "test.db"
    create_campaign(path, "Test campaign").close()
    return path


@pytest.fixture(scope="session")
def _demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ka_tui.store.demo import create_demo

    path = tmp_path_factory.mktemp("demo-template") / "demo.db"
    create_demo(path).close()  # closing checkpoints the WAL: the .db alone is whole
    return path


@pytest.fixture
def demo_db(tmp_path: Path, _demo_template: Path) -> Path:
    """The demo campaign (deterministic content) in ``tmp_path``, a fresh copy per test."""
    path = tmp_path / "demo.db"
    shutil.copyfile(_demo_template, path)
    return path
