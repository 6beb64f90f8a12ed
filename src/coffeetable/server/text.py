"""Text from people (names, chat lines), made safe to keep and show.

The server never strips HTML characters (the pages escape what they show);
it removes what lets text pretend to be something else or hide: controls,
format characters (bidi overrides and isolates, zero-width characters, the
BOM), surrogates, private-use and unassigned characters, and stacks of
combining marks ("Zalgo" text). NFKC folds look-alike forms (full-width
letters) into the plain ones.
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: Unicode categories never kept: controls, format characters, surrogates,
#: private use, unassigned.
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: Combining marks kept on one letter (enough for any script).
_MARKS_PER_LETTER = 2


def clean_text(value: Any, limit: int) -> str:
    """``value`` as text: NFKC, without the characters above, white space collapsed
    to single spaces, trimmed, at most ``limit`` characters (may be empty)."""
    text = unicodedata.normalize("NFKC", str(value or ""))
    kept: list[str] = []
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in _DROPPED:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > _MARKS_PER_LETTER:
                continue
        else:
            marks = 0
        kept.append(char)
    return " ".join("".join(kept).split())[:limit].strip()
