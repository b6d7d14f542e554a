"""CSS one way: a screen's stylesheet is a ``.tcss`` file beside it
(``CSS_PATH``), a widget's is its ``DEFAULT_CSS``; and every ``.tcss`` a
screen names exists and parses."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen

import ka_tui.screens

def screen_classes() -> list[type[Screen[object]]]:
    found = []
    for info in pkgutil.walk_packages(ka_tui.screens.__path__, "ka_tui.screens."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Screen) and cls.__module__ == info.name:
                found.append(cls)
    return found


SCREENS = screen_classes()
THEME = App[None]().get_css_variables()


def test_the_screens_are_found() -> None:
    assert len(SCREENS) > 20


@pytest.mark.parametrize("cls", SCREENS, ids=lambda c: c.__name__)
def test_a_screen_keeps_its_css_in_a_tcss_beside_it(cls: type[Screen[object]]) -> None:
    assert "DEFAULT_CSS" not in cls.__dict__, (
        f"{cls.__module__}.{cls.__name__}: put its CSS in a .tcss beside it (CSS_PATH)")
    paths = cls.CSS_PATH if isinstance(cls.CSS_PATH, list) else [cls.CSS_PATH]
    here = Path(inspect.getfile(cls)).parent
    for path in paths:
        if path is None:
            continue
        full = Path(path) if Path(path).is_absolute() else here / path
        assert full.is_file(), f"{cls.__name__}: {full} is missing"
        sheet = Stylesheet(variables=THEME)
        sheet.read(full)
        sheet.parse()
