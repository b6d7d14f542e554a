"""Example counts that follow the Hypothesis profile (no tests here).

``tests/conftest.py`` registers the profiles: ``dev`` (the default, 100
examples where a test sets none) and ``nightly`` (``HYPOTHESIS_PROFILE=nightly``,
ten times as many). A test that sets its own count writes ``scaled(n)``: n
under ``dev``, n × 10 under ``nightly``.
"""

from __future__ import annotations

from hypothesis import settings

BASE_EXAMPLES = 100


def scaled(n: int) -> int:
    """``n`` examples at the ``dev`` profile, proportionally more in heavier ones."""
    return max(1, n * settings().max_examples // BASE_EXAMPLES)
