"""Tournaments on the site: the API (``routes``), its rules (``service``) and the runner
that plays them (``runner``); the pairing rules are ``coffeetable.tournaments``, the
rows ``coffeetable.store.tournaments``."""
