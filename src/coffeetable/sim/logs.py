"""Match logs on disk: one JSON file per match, the form ``coffeetable replay FILE`` reads."""

from __future__ import annotations

import json
from pathlib import Path

from coffeetable.engine import MatchLog


def save_log(log: MatchLog, path: str | Path) -> Path:
    """Write ``log`` as JSON to ``path`` (folders made as needed); returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(log.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    return target


def load_log(path: str | Path) -> MatchLog:
    """Read a log written by ``save_log``."""
    return MatchLog.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
