"""Learn by playing: each game's guided first match (its script, ``script.py``), served
to the page that plays it on the game's real board (``api.py``), and who finished it."""
