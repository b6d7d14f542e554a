"""The plan keys of the air battle, as data (code, key, description): the GM's
map (``keys.py``, which adds the step each key plans) and the player's plan
pane bind the same keys. Light: the player's screen declares its
bindings from it without loading the air engine (a light first frame)."""

from __future__ import annotations

PLAN_KEYS: tuple[tuple[str, str, str], ...] = (
    ("forward", "f", "Forward one hex"),
    ("left", "left_square_bracket", "Turn left"),
    ("right", "right_square_bracket", "Turn right"),
    ("slide_left", "less_than_sign", "Slide-slip left"),
    ("slide_right", "greater_than_sign", "Slide-slip right"),
    ("thrust_up", "plus", "Thrust +1"),
    ("thrust_down", "minus", "Thrust -1"),
    ("climb", "c", "Climb (pay speed)"),
    ("climb_thrust", "C", "Climb (pay thrust)"),
    ("dive", "d", "Dive one level"),
    ("afterburner", "a", "Afterburner"),
    ("wm", "w", "Water-methanol"),
    ("land", "L", "Land"),
    ("takeoff", "T", "Take off"),
    ("figure", "m", "Aerobatic figure…"),
    ("evasive", "e", "Evasive on/off"),
    ("drop", "backspace", "Drop last step"),
    ("fill", "space", "Fly the rest straight"),
    ("clear", "delete", "Clear the plan"),
)
