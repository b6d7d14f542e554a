"""Every private Textual and Rich name ka-tui uses, fenced in one package.

Textual keeps much of its machinery behind leading underscores. Where ka-tui
needed a gain only that machinery gives (fewer bytes on a thin SSH link, forms
that open in one layout pass, a footer that is not rebuilt ten times) or
needed to ask what Textual does not expose, it does it here and nowhere else:
the rest of the code calls the public functions and classes of these modules.

- ``tricks``: the switches, one per trick (``KA_TUI_TRICKS_OFF=NAME,...`` or
  ``all``); with every trick off the app is plain Textual, slower, never wrong;
- ``display`` and ``compositor``: the screen shadow's door to the terminal
  and what it reads of Textual's updates and Rich's styles;
- ``footer``, ``forms``, ``tabs``: opening a form or a dialog fast;
- ``terminal_input``: any bytes from a terminal leave the app running;
- ``resize``: a Resize of the size the app has lays nothing out again;
- ``css_refresh``: a mode's screen styled once as it is built, not again in
  full as it is first shown and visited again;
- ``app_state``: questions about the app Textual answers only privately;
- ``canary``: what each module relies on, checked by
  ``tests/test_textual_canary.py``, which names the trick to switch off when
  a Textual release changes one of them.

Each module's docstring tells what its trick does, why, the measured gain
(``benchmarks/tricks.py``: each figure with the trick on and off) and its
switch. Layering: below the widgets, screens and app, above the store; it
imports neither the store nor the rules (``[tool.importlinter]``).
"""
