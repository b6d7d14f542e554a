"""Campaign mode (``5``/``F5``): overview, missions, debrief,
service records, repairs, time and the journal."""
