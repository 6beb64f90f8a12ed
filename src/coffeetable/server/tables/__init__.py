"""The tables: a live table's actor and its parts, and the table socket's messages.

- ``table``: ``Table``, one match and the actor that applies its actions in order,
  built from parts: ``audience`` (its clients, and what each of them is sent),
  ``clock`` (the chess clock), ``stand_ins`` (bots that play for absent people),
  ``idle`` (the idle rule's timer), ``abandon`` (closing a table nobody watches);
- ``bot_tasks``: the bots' tasks; ``chat``: the table's chat;
- ``face``: the Protocols through which the parts, seating and the cluster see a
  table (``TableFace`` and one per part);
- ``seats``: seats; ``seating``: where accounts meet tables (rated or not, who may
  sit, a signed-in player's seat, a match's summary); ``submission``: what goes
  through the queue; ``reaction``: programs held to a person's pace in real-time games;
- ``connections``: one socket's client (its outbox, its rates); ``client_rates``:
  actions and chat counted per seat and per address;
- ``inbox``: what a client sends (a frame checked, a message handed to the table);
  ``wire``: what the server sends, and the refusal codes.
"""
