// The short rules of Fika, one page per language (the full rules: ../RULES.md).

import { html } from '../../js/dom.js';
import { rulesPage } from '../../js/rules.js';
import { face, group, installCss, installSprite } from './cards.js';

function legend() {
  installSprite();
  installCss();
  const cards = [['brown', 1], ['green', 4], ['pink', 6]].map(([colour, number]) => face({ id: 0, colour, number }));
  return html`<div class="rules-cards fika-legend">${cards}${group('bottom')}</div>`;
}

const en = `
<h1>Fika</h1>
<p class="lead">2 players. Two cafés face each other across a street of five cards. Best of three rounds: two tips win.</p>
{legend}
<h2>The cards</h2>
<p>18 café cards: three colours (brown with a coffee bean, green with a leaf, pink with a flower) and the numbers 1 to 6. A card's number gives its <b>effect</b> (when placed) and its <b>objective</b> (at scoring). The back of each card shows a customer group: one half with 2 cups, one with 3.</p>
<h2>A round</h2>
<ul>
<li>4 cards face up as the supply, 6 to each hand, the last 2 face down beside the street as the two groups.</li>
<li>Colour order: one player chooses the primary colour, the other the secondary; the third is what is left. (Later rounds: the loser of the last round chooses first.)</li>
<li>Each step, both players pick a hand card in secret; both are revealed. The higher number acts first; equal numbers go by colour order.</li>
<li>In that order each puts their card on an empty spot of their own café and may use its effect at once (or skip it).</li>
<li>When one café is full, the other player plays up to 2 more cards alone, whose effects cannot touch the opponent's café; they may stop early.</li>
</ul>
<h2>Effects</h2>
<ol>
<li>Swap a supply card with a card of either café.</li>
<li>Swap one of your café cards with the opponent's card opposite.</li>
<li>Swap a hand card with a group.</li>
<li>Swap 1 or 2 other cards of your café with hand cards.</li>
<li>Move a group onto an empty street card, its 3-cup half towards you.</li>
<li>Swap two spots within one café.</li>
</ol>
<h2>Scoring</h2>
<p>Each player reads their café left to right from their own seat; empty spots break adjacency. Each card whose objective is met scores its coins: 1: a pair side by side (5) · 2: a 1 and a 6 at the ends (6) · 3: a group in front of this card (7) · 4: three adjacent cards of one colour (7) · 5: three adjacent in sequence (8) · 6: four cards of one colour (9).
A group on a street card multiplies both cards of that column: ×3 for the player its 3-cup half faces, ×2 for the other. A 6 opposite an opponent's 1 counts as the best number 2–5 for its owner.
Most coins wins the round and a tip; a tie goes to the highest number in the primary colour, then the secondary, then the third.</p>
<h2>Playing here</h2>
<p>Click a colour, then a hand card to pick, then an empty spot of your café. For an effect, click the highlighted cards and spots (effect 4: pairs of café and hand cards, then Confirm), or Skip.</p>`;

const fr = `
<h1>Fika</h1>
<p class="lead">2 joueurs. Deux cafés se font face de part et d’autre d’une rue de cinq cartes. En deux manches gagnantes : deux pourboires gagnent.</p>
{legend}
<h2>Les cartes</h2>
<p>18 cartes café : trois couleurs (marron avec un grain de café, vert avec une feuille, rose avec une fleur) et les nombres 1 à 6. Le nombre d’une carte donne son <b>effet</b> (quand on la pose) et son <b>objectif</b> (au décompte). Le dos montre un groupe de clients : une moitié à 2 tasses, une à 3.</p>
<h2>Une manche</h2>
<ul>
<li>4 cartes face visible forment la réserve, 6 vont dans chaque main, les 2 dernières face cachée à côté de la rue : les deux groupes.</li>
<li>Ordre des couleurs : un joueur choisit la couleur principale, l’autre la secondaire ; la troisième est celle qui reste. (Ensuite, le perdant de la manche précédente choisit en premier.)</li>
<li>À chaque tour, les deux joueurs choisissent en secret une carte de leur main, révélées ensemble. Le plus grand nombre joue d’abord ; à égalité, l’ordre des couleurs décide.</li>
<li>Dans cet ordre, chacun pose sa carte sur un emplacement libre de son café et peut utiliser aussitôt son effet (ou passer).</li>
<li>Quand un café est plein, l’autre joueur joue seul jusqu’à 2 cartes de plus, dont les effets ne touchent pas le café adverse ; il peut s’arrêter avant.</li>
</ul>
<h2>Effets</h2>
<ol>
<li>Échanger une carte de la réserve avec une carte d’un des cafés.</li>
<li>Échanger une carte de votre café avec la carte adverse d’en face.</li>
<li>Échanger une carte de votre main avec un groupe.</li>
<li>Échanger 1 ou 2 autres cartes de votre café avec des cartes de votre main.</li>
<li>Déplacer un groupe sur une carte rue libre, la moitié à 3 tasses vers vous.</li>
<li>Échanger deux emplacements d’un même café.</li>
</ol>
<h2>Décompte</h2>
<p>Chacun lit son café de gauche à droite depuis sa place ; un emplacement vide coupe l’adjacence. Chaque carte dont l’objectif est atteint rapporte ses pièces : 1 : une paire voisine (5) · 2 : un 1 et un 6 aux bouts (6) · 3 : un groupe en face de cette carte (7) · 4 : trois cartes voisines d’une couleur (7) · 5 : trois voisines qui se suivent (8) · 6 : quatre cartes d’une couleur (9).
Un groupe sur une carte rue multiplie les deux cartes de cette colonne : ×3 pour le joueur vers qui regarde la moitié à 3 tasses, ×2 pour l’autre. Un 6 face à un 1 adverse compte comme le meilleur nombre de 2 à 5 pour son propriétaire.
Le plus de pièces gagne la manche et un pourboire ; en cas d’égalité, le plus grand nombre de la couleur principale l’emporte, puis la secondaire, puis la troisième.</p>
<h2>Jouer ici</h2>
<p>Cliquez une couleur, puis une carte de votre main pour la choisir, puis un emplacement libre de votre café. Pour un effet, cliquez les cartes et emplacements en surbrillance (effet 4 : des paires carte du café et carte de la main, puis Confirmer), ou Passer.</p>`;

const de = `
<h1>Fika</h1>
<p class="lead">2 Personen. Zwei Cafés liegen sich an einer Straße aus fünf Karten gegenüber. Zwei Trinkgelder gewinnen (höchstens drei Runden).</p>
{legend}
<h2>Die Karten</h2>
<p>18 Café-Karten: drei Farben (braun mit Kaffeebohne, grün mit Blatt, rosa mit Blume) und die Zahlen 1 bis 6. Die Zahl bestimmt den <b>Effekt</b> (beim Auslegen) und das <b>Ziel</b> (bei der Wertung). Die Rückseite zeigt eine Gästegruppe: eine Hälfte mit 2 Tassen, eine mit 3.</p>
<h2>Eine Runde</h2>
<ul>
<li>4 Karten offen als Vorrat, 6 in jede Hand, die letzten 2 verdeckt neben die Straße: die beiden Gruppen.</li>
<li>Farbreihenfolge: eine Person wählt die Hauptfarbe, die andere die Zweitfarbe; die dritte bleibt übrig. (Später wählt der Verlierer der letzten Runde zuerst.)</li>
<li>In jedem Schritt wählen beide geheim eine Handkarte, dann werden beide aufgedeckt. Die höhere Zahl ist zuerst dran; bei Gleichstand entscheidet die Farbreihenfolge.</li>
<li>In dieser Reihenfolge legt jeder seine Karte auf einen freien Platz seines Cafés und darf sofort ihren Effekt nutzen (oder auslassen).</li>
<li>Ist ein Café voll, spielt die andere Person allein bis zu 2 weitere Karten, deren Effekte das gegnerische Café nicht berühren; sie darf vorher aufhören.</li>
</ul>
<h2>Effekte</h2>
<ol>
<li>Eine Vorratskarte mit einer Karte eines Cafés tauschen.</li>
<li>Eine deiner Café-Karten mit der gegenüberliegenden Karte tauschen.</li>
<li>Eine Handkarte mit einer Gruppe tauschen.</li>
<li>1 oder 2 andere Karten deines Cafés mit Handkarten tauschen.</li>
<li>Eine Gruppe auf eine freie Straßenkarte legen, die 3-Tassen-Hälfte zu dir.</li>
<li>Zwei Plätze in einem Café vertauschen.</li>
</ol>
<h2>Wertung</h2>
<p>Jeder liest sein Café von links nach rechts von seinem Platz aus; leere Plätze unterbrechen die Nachbarschaft. Jede Karte mit erfülltem Ziel bringt ihre Münzen: 1: ein Paar nebeneinander (5) · 2: eine 1 und eine 6 außen (6) · 3: eine Gruppe vor dieser Karte (7) · 4: drei benachbarte Karten einer Farbe (7) · 5: drei benachbarte in Folge (8) · 6: vier Karten einer Farbe (9).
Eine Gruppe auf einer Straßenkarte vervielfacht beide Karten dieser Spalte: ×3 für die Person, zu der die 3-Tassen-Hälfte zeigt, ×2 für die andere. Eine 6 gegenüber einer gegnerischen 1 zählt als die für ihren Besitzer beste Zahl von 2 bis 5.
Die meisten Münzen gewinnen die Runde und ein Trinkgeld; bei Gleichstand gewinnt die höchste Zahl in der Hauptfarbe, dann Zweit-, dann Drittfarbe.</p>
<h2>Hier spielen</h2>
<p>Klicke eine Farbe, dann eine Handkarte zum Wählen, dann einen freien Platz deines Cafés. Für einen Effekt klickst du die hervorgehobenen Karten und Plätze (Effekt 4: Paare aus Café- und Handkarte, dann Bestätigen) oder Auslassen.</p>`;

const es = `
<h1>Fika</h1>
<p class="lead">2 jugadores. Dos cafés frente a frente a ambos lados de una calle de cinco cartas. Al mejor de tres rondas: dos propinas ganan.</p>
{legend}
<h2>Las cartas</h2>
<p>18 cartas de café: tres colores (marrón con un grano de café, verde con una hoja, rosa con una flor) y los números del 1 al 6. El número da su <b>efecto</b> (al colocarla) y su <b>objetivo</b> (al puntuar). El reverso muestra un grupo de clientes: una mitad con 2 tazas y otra con 3.</p>
<h2>Una ronda</h2>
<ul>
<li>4 cartas boca arriba forman la reserva, 6 van a cada mano y las 2 últimas boca abajo junto a la calle: los dos grupos.</li>
<li>Orden de colores: un jugador elige el color principal, el otro el secundario; el tercero es el que queda. (Después, el perdedor de la ronda anterior elige primero.)</li>
<li>En cada paso ambos eligen en secreto una carta de la mano, que se revelan a la vez. El número más alto actúa primero; si empatan, decide el orden de colores.</li>
<li>En ese orden, cada uno coloca su carta en un sitio libre de su café y puede usar su efecto en el acto (o pasar).</li>
<li>Cuando un café está lleno, el otro jugador juega solo hasta 2 cartas más, cuyos efectos no tocan el café rival; puede parar antes.</li>
</ul>
<h2>Efectos</h2>
<ol>
<li>Cambiar una carta de la reserva por una carta de cualquiera de los cafés.</li>
<li>Cambiar una carta de tu café por la carta rival de enfrente.</li>
<li>Cambiar una carta de tu mano por un grupo.</li>
<li>Cambiar 1 o 2 cartas más de tu café por cartas de tu mano.</li>
<li>Mover un grupo a una carta de calle libre, con la mitad de 3 tazas hacia ti.</li>
<li>Intercambiar dos sitios de un mismo café.</li>
</ol>
<h2>Puntuación</h2>
<p>Cada uno lee su café de izquierda a derecha desde su asiento; un sitio vacío corta la adyacencia. Cada carta con su objetivo cumplido da sus monedas: 1: una pareja contigua (5) · 2: un 1 y un 6 en los extremos (6) · 3: un grupo frente a esta carta (7) · 4: tres cartas contiguas de un color (7) · 5: tres contiguas seguidas (8) · 6: cuatro cartas de un color (9).
Un grupo en una carta de calle multiplica las dos cartas de esa columna: ×3 para el jugador hacia el que mira la mitad de 3 tazas, ×2 para el otro. Un 6 frente a un 1 rival cuenta como el mejor número del 2 al 5 para su dueño.
Quien tiene más monedas gana la ronda y una propina; en caso de empate gana el número más alto del color principal, luego el secundario y luego el tercero.</p>
<h2>Jugar aquí</h2>
<p>Haz clic en un color, luego en una carta de tu mano para elegirla y luego en un sitio libre de tu café. Para un efecto, haz clic en las cartas y sitios resaltados (efecto 4: parejas de carta del café y carta de la mano, y luego Confirmar), o Pasar.</p>`;

const page = (text) => () => rulesPage(text, legend);

export default { en: page(en), fr: page(fr), de: page(de), es: page(es) };
