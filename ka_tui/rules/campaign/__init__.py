"""The campaign between battles: pure rules, plain values in and out.

The seeds stop at the end of a battle or a fight: R-5 counts a pilot's wounds
(6 = dead, unconscious below), R-1.3 an aircraft's hull hits and location
effects, S0 §Close combat spends K-points. Healing, coming to, K-points back,
repair time and cost, and who may fly a mission are house rules
(``rules/core/options.py`` ``CampaignOptions``), each function here names the
option it implements; the rest (healing counted after waking, the
first-come repair queue, a damaged aircraft without an open job may fly,
the missing) are listed readings in docs/rules/READINGS.md.

- ``people``: a person's state between battles, healing over days, readiness
  with why ("Kay — 2 wounds, fit in 3 days");
- ``repair``: what repairing an aircraft's damage by location takes, the queue,
  aircraft readiness, write-off advice;
- ``timeline``: advancing the campaign N days — the preview of what changes;
- ``missions``: the mission ready-check, the debrief summary, service records.
"""
