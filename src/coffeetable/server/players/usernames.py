"""Usernames: what is allowed, what counts as the same name, what is reserved.

The rules (documented for the sign-up form too):

- A username is normalised with Unicode NFKC first (so full-width
  ``Ｂｅａ`` is ``Bea``), then must be 3-20 characters of ASCII letters,
  digits, ``_``, ``-`` and ``.``; it starts with a letter, ends with a letter
  or digit, and never has two of ``_-.`` in a row. It is shown as typed.
- Two usernames are the same when their NFKC + casefold forms are equal
  (``name_key``: ``Bea`` and ``bea`` are one account).
- No look-alikes: ASCII only rules out mixed scripts (Cyrillic ``а`` in
  ``bеa``); ``skeleton`` is Unicode TR39's skeleton (NFD, each character
  replaced by its prototype from the whole confusables table, NFD again:
  ``0`` is ``O``, ``1``, ``I`` and ``|`` are ``l``, ``m`` is ``rn``) of the
  lower-cased name without ``_-.``, with a few look-alikes TR39 leaves out
  (``_SUPPLEMENT``: ``d`` is ``cl``, ``w`` is ``vv``, and ``i`` is ``l``,
  since case is folded first and ``I`` is ``l``). No two players may share a
  skeleton: once ``bea_b`` exists, ``Bea.b``, ``beab`` and ``bea-b`` are
  taken, as ``Iris`` takes ``lris`` and ``1ris``, ``dave`` takes ``clave``
  and ``modem`` takes ``modern``. The table ships as package data
  (``data/confusables.txt.gz``, derived from TR39's ``confusables.txt``).
- Reserved: the bots' names (``random``, ``greedy``, ``ismcts``, ``easy``,
  ``medium``, ``hard``, the levels ``beginner``, ``casual``, ``strong``,
  ``expert``), anything ending in ``bot``, and site words (``admin``,
  ``system``, ``guest``, ...), compared by skeleton, so ``adm1n`` and
  ``hard-b0t`` are refused too.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import unicodedata
from importlib import resources

MIN_LENGTH = 3
MAX_LENGTH = 20
#: The longest stored skeleton (``players.skeleton``); a username's is at most 40.
MAX_SKELETON = 40
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
#: TR39's prototypes (``confusables.txt``, UTS #39), as package data.
CONFUSABLES = "data/confusables.txt.gz"
#: Look-alikes TR39's table leaves out, as prototypes like its own (``m`` is ``rn``
#: there): ``cl`` reads as ``d`` and ``vv`` as ``w`` in most fonts; ``i`` is ``l``
#: because ``I`` is, and names are compared after case folding.
_SUPPLEMENT = {"d": "cl", "w": "vv", "i": "l"}
#: Separators that do not make a name look different.
_SEPARATORS = re.compile(r"[_.\-]")


class UsernameError(ValueError):
    """A username that is not allowed; the message says why."""


def normalize(raw: str) -> str:
    """NFKC and trimmed: the form that is checked and shown."""
    return unicodedata.normalize("NFKC", raw).strip()


def name_key(name: str) -> str:
    """The identity of a name: NFKC + casefold (``Bea`` is ``bea``)."""
    return unicodedata.normalize("NFKC", name).casefold()


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype: TR39's table, then ``_SUPPLEMENT``."""
    data = resources.files(__package__).joinpath(CONFUSABLES).read_bytes()
    table: dict[str, str] = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return {**table, **_SUPPLEMENT}


def skeleton(name: str) -> str:
    """The look-alike form: two names with one skeleton look alike (``dave``, ``clave``).

    TR39's skeleton (NFD, every character replaced by its prototype, NFD) of the
    NFKC, case-folded name without separators, folded again until nothing changes
    (a prototype may be upper case, ``0`` is ``O``).
    """
    table = prototypes()
    text = unicodedata.normalize("NFKC", name).casefold()
    for _ in range(4):  # one round suffices for ASCII, two for any name seen so far
        mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
        mapped = _SEPARATORS.sub("", unicodedata.normalize("NFD", mapped).casefold())
        if mapped == text:
            break
        text = mapped
    return text


def bot_skeleton(owner: str, short_name: str) -> str:
    """A bot account's skeleton, ``owner/bot`` in skeletons; hashed when longer than
    ``MAX_SKELETON`` (equal skeletons still give equal hashes)."""
    shape = f"{skeleton(owner)}/{skeleton(short_name)}"
    if len(shape) <= MAX_SKELETON:
        return shape
    return "#" + hashlib.sha256(shape.encode("utf-8")).hexdigest()[: MAX_SKELETON - 1]


@functools.cache
def _reserved_skeletons() -> frozenset[str]:
    return frozenset(skeleton(word) for word in RESERVED)


def is_reserved(name: str) -> bool:
    """True for bot names, names ending in ``bot`` and site words (by skeleton)."""
    shape = skeleton(name)
    return shape in _reserved_skeletons() or shape.endswith("bot")


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
