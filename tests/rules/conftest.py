"""Fixtures for every rules test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ka_tui.rules.core import odds


@pytest.fixture(autouse=True)
def _odds_computed_afresh() -> Iterator[None]:
    """Each test computes the exact odds it checks (S0 §Skills, RULES-NOTES A)
    instead of reading what an earlier test left in ``core.odds``' caches.

    mutmut runs the clean tests in its parent process and forks one child per
    mutant from it: without this, a child inherits the cached joint standings
    of the unmutated code, and a mutant of a step the caches hold (the
    cancelling of criticals, the canceller profiles) passes every test."""
    odds.clear_cache()
    yield
