"""The canary: everything ``ka_tui/textual_compat`` relies on in Textual and
Rich is still there, with the shape it relies on (``textual_compat/canary.py``).

A failure names the private name or method that changed, the trick to switch
off meanwhile (``KA_TUI_TRICKS_OFF=NAME``) and the module to adapt. Runs alone
against any Textual (``pytest --noconftest tests/test_textual_canary.py``):
it imports neither the store nor the rest of the suite.
"""

from __future__ import annotations

import pytest
import textual

from ka_tui.textual_compat.canary import CHECKS, Check


def _id(check: Check) -> str:
    return f"{check.trick.value if check.trick else 'app'}:{check.run.__name__.strip('_')}"


@pytest.mark.parametrize("check", CHECKS, ids=_id)
def test_textual_still_has_what_a_trick_relies_on(check: Check) -> None:
    try:
        check.run()
    except Exception as error:  # noqa: BLE001 - every failure gets the advice
        pytest.fail(f"Textual {textual.__version__} changed {check.subject}: "
                    f"{type(error).__name__}: {error}\n-> {check.advice()}", pytrace=False)


def test_every_trick_has_a_canary_entry() -> None:
    from ka_tui.textual_compat.tricks import Trick

    assert {c.trick for c in CHECKS if c.trick is not None} == set(Trick)
