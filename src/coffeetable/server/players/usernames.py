"""Usernames: what is allowed, what counts as the same name, what is reserved.

The rules (documented for the sign-up form too):

- A username is normalised with Unicode NFKC first (so full-width
  ``Ｂｅａ`` is ``Bea``), then must be 3-20 characters of ASCII letters,
  digits, ``_``, ``-`` and ``.``; it starts with a letter, ends with a letter
  or digit, and never has two of ``_-.`` in a row. It is shown as typed.
- Two usernames are the same when their NFKC + casefold forms are equal
  (``name_key``: ``Bea`` and ``bea`` are one account).
- No look-alikes: ASCII only rules out mixed scripts (Cyrillic ``а`` in
  ``bеa``); within ASCII, ``skeleton`` lower-cases, folds the ASCII
  look-alikes of Unicode TR39's confusables table (``0``/``o``, ``1``/``I``/
  ``l``, and ``i`` with them since case is folded first; ``rn``/``m``,
  ``vv``/``w``) and drops ``_-.``. No two players may share a skeleton: once
  ``bea_b`` exists, ``Bea.b``, ``beab`` and ``bea-b`` are taken, as ``Iris``
  takes ``lris`` and ``1ris``.
- Reserved: the bots' names (``random``, ``greedy``, ``ismcts``, ``easy``,
  ``medium``, ``hard``, the levels ``beginner``, ``casual``, ``strong``,
  ``expert``), anything ending in ``bot``, and site words (``admin``,
  ``system``, ``guest``, ...), compared by skeleton, so ``adm1n`` and
  ``hard-b0t`` are refused too.
"""

from __future__ import annotations

import re
import unicodedata

MIN_LENGTH = 3
MAX_LENGTH = 20
_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*")
#: Names nobody may take: bot levels, then words of the site.
RESERVED = frozenset(
    {
        # the bots (coffeetable.bots.registry)
        "random",
        "greedy",
        "ismcts",
        "easy",
        "medium",
        "hard",
        "beginner",
        "casual",
        "strong",
        "expert",
        "openspiel",
        "bot",
        "bots",
        # the site
        "admin",
        "administrator",
        "root",
        "system",
        "server",
        "guest",
        "guests",
        "anonymous",
        "nobody",
        "player",
        "moderator",
        "mod",
        "staff",
        "support",
        "help",
        "official",
        "coffeetable",
        "coffee-table",
        "table",
        "lobby",
        "me",
        "api",
        "null",
        "none",
        "undefined",
        "spectator",
    }
)
#: Single ASCII look-alikes (TR39), folded after lower-casing.
_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})
#: Character sequences TR39 lists as confusable with one letter.
_SEQUENCES = (("rn", "m"), ("vv", "w"))


class UsernameError(ValueError):
    """A username that is not allowed; the message says why."""


def normalize(raw: str) -> str:
    """NFKC and trimmed: the form that is checked and shown."""
    return unicodedata.normalize("NFKC", raw).strip()


def name_key(name: str) -> str:
    """The identity of a name: NFKC + casefold (``Bea`` is ``bea``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def skeleton(name: str) -> str:
    """The look-alike form: confusables folded, separators dropped, lower case."""
    text = unicodedata.normalize("NFKC", name).casefold().translate(_FOLD)
    text = re.sub(r"[_.\-]", "", text)
    for sequence, letter in _SEQUENCES:
        text = text.replace(sequence, letter)
    return text


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED)


def is_reserved(name: str) -> bool:
    """True for bot names, names ending in ``bot`` and site words (by skeleton)."""
    shape = skeleton(name)
    return shape in _RESERVED_SKELETONS or shape.endswith("bot")


def check(raw: str) -> str:
    """The username to store (NFKC, as typed), or ``UsernameError`` saying why not."""
    name = normalize(raw)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise UsernameError(f"a username has {MIN_LENGTH} to {MAX_LENGTH} characters")
    if not name.isascii() or re.fullmatch(r"[A-Za-z0-9_.-]+", name) is None:
        raise UsernameError("a username uses only letters a-z, digits and _ - .")
    if _PATTERN.fullmatch(name) is None:
        raise UsernameError(
            "a username starts with a letter, ends with a letter or digit,"
            " and has no two of _ - . in a row"
        )
    if is_reserved(name):
        raise UsernameError("this username is reserved")
    return name
