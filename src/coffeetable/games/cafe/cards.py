"""Café's cards, as data: 4 start cards and 48 plan cards, as RULES.md (beside us) lists them.

A card is written compactly, top row / bottom row of the 3x2 card in
landscape, then its café (if it has one) as requirement = points::

    C01 yyd/Cou 2y+1r=4

Symbols: ``r y g k`` a bean of red / yellow / green / black (produce), ``d``
drying, ``o`` roasting, ``u`` cup (an action), ``s`` ship, ``C`` a café cell,
``.`` blank. All the ``C`` cells of one card are one café (two cells at most:
side by side, or one above the other as on C11 and C12). A café's id is its
card's id. Replacing a line here replaces a card; the rules read nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

COLOURS = ("red", "yellow", "green", "black")
LETTERS = {"r": "red", "y": "yellow", "g": "green", "k": "black"}
#: Square icons. A bean square also has a colour.
ICONS = {"d": "dry", "o": "roast", "u": "cup", "s": "ship", "C": "cafe", ".": "blank"}
ROUNDS = 8
CUBES_PER_COLOUR = 35
MIN_ACTIONS = 1
MAX_ACTIONS = 8
DISPLAY = 3
#: Ships in view from which a cup card is free.
FREE_CUPS_AT_SHIPS = 2
#: Solo ranks: (fewest points for the rank, its id), best last.
#: The ruling asked for 20/30/40/50, "to be tuned by simulation": greedy solo games score
#: 15.6 on average (10th-90th percentile 10-20, best 25), so those put 85% of them in the
#: first rank. 12/16/20/24 spread them: 13%, 34%, 35%, 14%, 3% (docs/benchmarks.md, "Café: bots and balance").
SOLO_RANKS = ((0, "apprentice"), (12, "roaster"), (16, "merchant"), (20, "baron"), (24, "legend"))

START_CARDS = """
A1 rdo/usC 1r+1y=3
A2 ydo/usC 1y+1g=3
A3 gdo/usC 1g+1k=3
A4 kdo/usC 1k+1r=3
"""

#: P19 and P20 are not the ruling's ``do./rgy`` and ``od./kry``: with a blank, three lone beans
#: and no cup, ship or café, greedy took them in 0-3% of the displays that showed them (other
#: cards: 4-88%). Their blank is now a bean joined to the one below it (a 2-square area).
PLAN_CARDS = """
C01 yyd/Cou 2y+1r=4
C02 rgd/oC. 1r+1g=3
C03 kkd/Cor 2k+1g=4
C04 ggo/dCu 2g+1y=4
C05 ryd/.Co 1y+1k=3
C06 kgo/Cd. 1k+1r+1y=5
C07 yro/dCk 1r+1y+1g=5
C08 gkd/.oC 1g+1r=3
C09 CCd/rro 2r+2y=6
C10 yCC/dog 2y+1g+1k=6
C11 Cgk/Cdo 2g+2k=6
C12 kkC/doC 3k+1r=6
C13 CCu/ydr 2y+2r+1k=7
C14 rCC/gdo 3r+2g=7
C15 CCo/kdu 2k+2g+1y=7
C16 gyd/CCo 1r+1y+1g+1k=8
S01 rsd/yyo
S02 gsd/kyo
S03 sdr/ouk
S04 dsk/gro
S05 yds/ogk
S06 skr/dou
S07 ros/dyg
S08 gds/kyo
S09 sru/ddy
S10 kys/odg
S11 dsg/ruo
S12 oks/rd.
P01 rru/ddo
P02 yyu/ddo
P03 ggu/ddo
P04 kku/ddo
P05 ryd/uog
P06 gkd/uoy
P07 urd/.dg
P08 uyk/odo
P09 rgu/oor
P10 kyu/o.o
P11 dud/rky
P12 ogu/yrd
P13 urk/gyd
P14 yug/ddk
P15 rkd/oud
P16 dgy/uo.
P17 rrg/kkd
P18 yyk/ggo
P19 doy/rgy
P20 odr/kyr
"""

#: Café names, after historic cafés of Lisbon and Porto (and two the rulings name).
CAFE_NAMES = {
    "A1": "A Brasileira",
    "A2": "Majestic",
    "A3": "Nicola",
    "A4": "Guarany",
    "C01": "Martinho da Arcada",
    "C02": "Pastelaria Suíça",
    "C03": "Versailles",
    "C04": "Chave d'Ouro",
    "C05": "Café Gelo",
    "C06": "Confeitaria Nacional",
    "C07": "Pastelaria Benard",
    "C08": "Café Tavares",
    "C09": "Café Imperial",
    "C10": "Café Piolho",
    "C11": "Café Progresso",
    "C12": "Confeitaria do Bolhão",
    "C13": "Café Ceuta",
    "C14": "Café Rialto",
    "C15": "Santa Cruz",
    "C16": "Vianna",
}

#: What each icon does, in the four languages of our rulebooks.
ICON_TEXTS: dict[str, dict[str, str]] = {
    "bean": {
        "en": "Produce: one cube of this colour on each bean of the area",
        "fr": "Produire : un cube de cette couleur sur chaque grain de la zone",
        "de": "Anbauen: ein Würfel dieser Farbe auf jede Bohne des Bereichs",
        "es": "Producir: un cubo de este color en cada grano de la zona",
    },
    "dry": {
        "en": "Dry: all cubes of one colour from the beans onto this area",
        "fr": "Sécher : tous les cubes d'une couleur des grains vers cette zone",
        "de": "Trocknen: alle Würfel einer Farbe von den Bohnen auf diesen Bereich",
        "es": "Secar: todos los cubos de un color de los granos a esta zona",
    },
    "roast": {
        "en": "Roast: all cubes of one colour from the drying areas onto this area",
        "fr": "Torréfier : tous les cubes d'une couleur du séchage vers cette zone",
        "de": "Rösten: alle Würfel einer Farbe vom Trocknen auf diesen Bereich",
        "es": "Tostar: todos los cubos de un color del secado a esta zona",
    },
    "cafe": {
        "en": "Café: deliver the cubes it asks for; complete, it scores its points",
        "fr": "Café : livrez-lui les cubes demandés ; complet, il rapporte ses points",
        "de": "Café: liefere die verlangten Würfel; vollständig bringt es seine Punkte",
        "es": "Café: entrégale los cubos que pide; completo, da sus puntos",
    },
    "cup": {
        "en": "Cup: one action a round (1 to 8 in all); a card with a cup costs a cube",
        "fr": "Tasse : une action par manche (1 à 8) ; une carte à tasse coûte un cube",
        "de": "Tasse: eine Aktion pro Runde (1 bis 8); eine Karte mit Tasse kostet einen Würfel",
        "es": "Taza: una acción por ronda (de 1 a 8); una carta con taza cuesta un cubo",
    },
    "ship": {
        "en": "Ship: with two or more in view, cup cards are free",
        "fr": "Navire : avec deux navires visibles ou plus, les cartes à tasse sont gratuites",
        "de": "Schiff: ab zwei sichtbaren Schiffen sind Karten mit Tasse kostenlos",
        "es": "Barco: con dos o más a la vista, las cartas con taza son gratis",
    },
    "blank": {"en": "Blank", "fr": "Vide", "de": "Leer", "es": "Vacío"},
}


@dataclass(frozen=True)
class Card:
    """One card: its 2 rows of 3 symbols as printed (landscape) and its café, if any."""

    id: str
    rows: tuple[str, str]
    #: colour -> cubes the café needs (empty: no café on this card)
    need: tuple[tuple[str, int], ...] = ()
    points: int = 0

    def __hash__(self) -> int:
        # By id alone (equal cards have equal ids): a card keys the cache of its orientations.
        return hash(self.id)

    # Cached: the draft asks them of every card on display at every take.
    @cached_property
    def has_cafe(self) -> bool:
        return bool(self.need)

    @cached_property
    def has_cup(self) -> bool:
        return any("u" in row for row in self.rows)

    @property
    def name(self) -> str | None:
        return CAFE_NAMES.get(self.id)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "rows": list(self.rows),
            "cafe": (
                {"name": self.name, "need": dict(self.need), "points": self.points}
                if self.has_cafe
                else None
            ),
            "cup": self.has_cup,
        }


def parse_card(line: str) -> Card:
    """A card from its compact line, e.g. ``"C01 yyd/Cou 2y+1r=4"``; ValueError if malformed."""
    parts = line.split()
    if len(parts) not in (2, 3):
        raise ValueError(f"a card is 'ID top/bottom [need=points]', not {line!r}")
    card_id, grid = parts[0], parts[1]
    rows = grid.split("/")
    if len(rows) != 2 or any(len(row) != 3 for row in rows):
        raise ValueError(f"card {card_id}: two rows of three symbols, not {grid!r}")
    for symbol in grid.replace("/", ""):
        if symbol not in LETTERS and symbol not in ICONS:
            raise ValueError(f"card {card_id}: unknown symbol {symbol!r}")
    cells = [(c, r) for r in range(2) for c in range(3) if rows[r][c] == "C"]
    if len(cells) == 2 and abs(cells[0][0] - cells[1][0]) + abs(cells[0][1] - cells[1][1]) != 1:
        raise ValueError(f"card {card_id}: the two café cells must touch")
    if len(cells) > 2:
        raise ValueError(f"card {card_id}: a café has one or two cells")
    if bool(cells) != (len(parts) == 3):
        raise ValueError(f"card {card_id}: a café needs a requirement, and only a café")
    if not cells:
        return Card(card_id, (rows[0], rows[1]))
    need_text, _, points = parts[2].partition("=")
    need: dict[str, int] = {}
    for term in need_text.split("+"):
        count, letter = term[:-1], term[-1]
        if letter not in LETTERS or not count.isdigit() or LETTERS[letter] in need:
            raise ValueError(f"card {card_id}: bad requirement {need_text!r}")
        need[LETTERS[letter]] = int(count)
    if not points.isdigit():
        raise ValueError(f"card {card_id}: bad points {points!r}")
    ordered = tuple((colour, need[colour]) for colour in COLOURS if colour in need)
    return Card(card_id, (rows[0], rows[1]), ordered, int(points))


def load(text: str) -> tuple[Card, ...]:
    """Every card of a block of lines (blank lines skipped)."""
    return tuple(parse_card(line) for line in text.strip().splitlines() if line.strip())


STARTS: tuple[Card, ...] = load(START_CARDS)
PLANS: tuple[Card, ...] = load(PLAN_CARDS)
BY_ID: dict[str, Card] = {card.id: card for card in STARTS + PLANS}
assert len(PLANS) == 48 and len(BY_ID) == 52


def solo_rank(points: int) -> str:
    """The solo rating of a final score."""
    return [name for least, name in SOLO_RANKS if points >= least][-1]
