"""The Table mode: the GM's view of the table server (``screens/table/screen.py``)."""
