"""Simulation: bots against bots, faster than real time.

- ``realtime``: the discrete-event simulator for real-time games (Espresso):
  reaction times on a virtual clock, races for a stack, "too slow" refusals.
- ``turns``: the plain turn loop for turn-based games.
- ``match``: one match of either kind, summed up.
- ``arena``: many matches on all cores and a results table
  (``coffeetable arena``).
- ``bench``: engine speed by random self-play (``coffeetable bench``).
- ``logs``: match logs as JSON files (``coffeetable replay FILE``).

Nothing here is imported by the engine or the games.
"""
