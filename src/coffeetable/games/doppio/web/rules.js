// The short rules of Espresso Doppio, one page per language (the full rules: ../RULES.md).

import { html } from '../../js/dom.js';
import { rulesPage } from '../../js/rules.js';
import { COLOURS, KINDS, installCss, piece } from './pieces.js';

const NAMES = {
  en: { brown: 'brown', white: 'white', black: 'black', cup: 'cup', saucer: 'saucer', spoon: 'spoon' },
  fr: { brown: 'marron', white: 'blanc', black: 'noir', cup: 'tasse', saucer: 'soucoupe', spoon: 'cuillère' },
  de: { brown: 'braun', white: 'weiß', black: 'schwarz', cup: 'Tasse', saucer: 'Untertasse', spoon: 'Löffel' },
  es: { brown: 'marrón', white: 'blanco', black: 'negro', cup: 'taza', saucer: 'platillo', spoon: 'cucharilla' },
};

function legend(lang) {
  installCss();
  const n = NAMES[lang];
  const pieces = COLOURS.map((c) => KINDS.map((k) =>
    html`<figure><svg viewBox="0 0 40 40" aria-hidden="true">${piece(k, c)}</svg><figcaption>${n[k]} · ${n[c]}</figcaption></figure>`));
  return html`<div class="doppio-legend">${pieces}</div>`;
}

const pages = {
  en: `
<h1>Espresso Doppio</h1>
<p class="lead">2 players (or solo). Arrange 9 pieces on a path of 5 spaces to meet your objective cards and win the most coffee beans.</p>
{legend}
<h2>The law of the path</h2>
<p>After every action, no space holds two pieces of the same kind (two cups, two saucers or two spoons). Colours may mix.</p>
<h2>Set-up</h2>
<p>Each player gets 8 cards: 3 face up, 5 as their own pile. Players take turns placing one piece each: the 3 saucers, then the 3 cups, then the 3 spoons. During set-up a piece may not join a space holding a piece of its kind or of its colour. The player who placed second plays first.</p>
<h2>A turn</h2>
<ul>
<li>1 to 3 actions. <b>Move</b>: take one or more pieces from a space to another. <b>Exchange</b>: swap pieces of one space with pieces of another.</li>
<li>Then <b>score</b> any face-up card whose pattern is on the path, read as printed or turned 180° (right to left). Each separate match scores the card's beans again.</li>
<li>Refill to 3 face-up cards. <b>Undo</b> takes back moves until you score.</li>
</ul>
<h2>Rounds and the end</h2>
<p>When a player has scored all 8 cards, round 1 ends: each player's 8 cards go to the opponent and play goes on. The game ends when someone scores all 8 in round 2. Most beans wins; on a tie, the player who did <i>not</i> finish wins. The game also ends as soon as the bean reserve is empty (no bean is left to win); then a tie is shared.</p>
<h2>Solo</h2>
<p>All 16 cards in one pile, 3 face up, 3 beans. Each move or exchange costs 1 bean; score a card at any time. The game ends when your beans run out: 0–6 rather drink tea, 7–10 filter coffee, 11–13 French press, 14–15 espresso machine, 16+ real barista.</p>`,
  fr: `
<h1>Espresso Doppio</h1>
<p class="lead">2 joueurs (ou solo). Disposez 9 pièces sur un chemin de 5 cases pour réaliser vos cartes objectif et gagner le plus de grains de café.</p>
{legend}
<h2>La loi du chemin</h2>
<p>Après chaque action, aucune case ne contient deux pièces du même type (deux tasses, deux soucoupes ou deux cuillères). Les couleurs peuvent se mélanger.</p>
<h2>Mise en place</h2>
<p>Chacun reçoit 8 cartes : 3 visibles, 5 en pioche personnelle. On pose à tour de rôle une pièce : les 3 soucoupes, puis les 3 tasses, puis les 3 cuillères. Pendant la mise en place, une pièce ne rejoint pas une case qui contient une pièce de son type ou de sa couleur. Le second à poser joue en premier.</p>
<h2>Un tour</h2>
<ul>
<li>1 à 3 actions. <b>Déplacer</b> : prendre une ou plusieurs pièces d'une case et les poser sur une autre. <b>Échanger</b> : intervertir des pièces de deux cases.</li>
<li>Puis <b>marquer</b> les cartes visibles dont le motif est sur le chemin, lues à l'endroit ou tournées de 180° (de droite à gauche). Chaque réalisation distincte rapporte à nouveau les grains de la carte.</li>
<li>Compléter à 3 cartes visibles. <b>Annuler</b> reprend les déplacements tant que rien n'est marqué.</li>
</ul>
<h2>Manches et fin</h2>
<p>Quand un joueur a marqué ses 8 cartes, la manche 1 s'arrête : les 8 cartes de chacun passent à l'adversaire et le jeu continue. La partie finit quand quelqu'un marque ses 8 cartes en manche 2. Le plus de grains gagne ; en cas d'égalité, celui qui n'a <i>pas</i> fini gagne. La partie s'arrête aussi dès que la réserve de grains est vide (plus aucun grain à gagner) ; une égalité est alors partagée.</p>
<h2>Solo</h2>
<p>Les 16 cartes en une pioche, 3 visibles, 3 grains. Chaque déplacement ou échange coûte 1 grain ; marquez une carte à tout moment. La partie finit quand vous n'avez plus de grains : 0–6 vous préférez le thé, 7–10 café filtre, 11–13 cafetière à piston, 14–15 machine à espresso, 16+ vrai barista.</p>`,
  de: `
<h1>Espresso Doppio</h1>
<p class="lead">2 Personen (oder solo). Ordne 9 Teile auf einem Weg aus 5 Feldern, um deine Zielkarten zu erfüllen und die meisten Kaffeebohnen zu sammeln.</p>
{legend}
<h2>Das Gesetz des Weges</h2>
<p>Nach jeder Aktion liegen auf keinem Feld zwei Teile derselben Art (zwei Tassen, zwei Untertassen oder zwei Löffel). Farben dürfen sich mischen.</p>
<h2>Aufbau</h2>
<p>Jede Person erhält 8 Karten: 3 offen, 5 als eigenen Stapel. Abwechselnd wird je ein Teil gesetzt: die 3 Untertassen, dann die 3 Tassen, dann die 3 Löffel. Beim Aufbau darf ein Teil nicht auf ein Feld mit einem Teil seiner Art oder seiner Farbe. Wer als Zweites gesetzt hat, beginnt.</p>
<h2>Ein Zug</h2>
<ul>
<li>1 bis 3 Aktionen. <b>Ziehen</b>: ein oder mehrere Teile von einem Feld auf ein anderes. <b>Tauschen</b>: Teile zweier Felder vertauschen.</li>
<li>Dann offene Karten <b>werten</b>, deren Muster auf dem Weg liegt, wie gedruckt oder um 180° gedreht (von rechts nach links). Jede eigene Fundstelle bringt die Bohnen der Karte erneut.</li>
<li>Auf 3 offene Karten auffüllen. <b>Rückgängig</b> nimmt Züge zurück, bis gewertet wurde.</li>
</ul>
<h2>Runden und Ende</h2>
<p>Hat jemand alle 8 Karten gewertet, endet Runde 1: die 8 Karten jeder Person gehen an die andere, und es geht weiter. Das Spiel endet, wenn jemand in Runde 2 alle 8 Karten wertet. Die meisten Bohnen gewinnen; bei Gleichstand gewinnt, wer <i>nicht</i> fertig wurde. Das Spiel endet auch, sobald der Bohnenvorrat leer ist (keine Bohne mehr zu gewinnen); ein Gleichstand wird dann geteilt.</p>
<h2>Solo</h2>
<p>Alle 16 Karten als ein Stapel, 3 offen, 3 Bohnen. Jedes Ziehen oder Tauschen kostet 1 Bohne; werte Karten jederzeit. Ohne Bohnen endet das Spiel: 0–6 lieber Tee, 7–10 Filterkaffee, 11–13 French Press, 14–15 Espressomaschine, 16+ echte Barista.</p>`,
  es: `
<h1>Espresso Doppio</h1>
<p class="lead">2 jugadores (o solitario). Coloca 9 piezas en un camino de 5 casillas para cumplir tus cartas objetivo y ganar más granos de café.</p>
{legend}
<h2>La ley del camino</h2>
<p>Tras cada acción, ninguna casilla tiene dos piezas del mismo tipo (dos tazas, dos platillos o dos cucharillas). Los colores se pueden mezclar.</p>
<h2>Preparación</h2>
<p>Cada jugador recibe 8 cartas: 3 boca arriba y 5 como mazo propio. Por turnos se coloca una pieza: los 3 platillos, luego las 3 tazas, luego las 3 cucharillas. En la preparación, una pieza no va a una casilla con una pieza de su tipo o de su color. Empieza quien colocó en segundo lugar.</p>
<h2>Un turno</h2>
<ul>
<li>De 1 a 3 acciones. <b>Mover</b>: llevar una o varias piezas de una casilla a otra. <b>Intercambiar</b>: cambiar piezas de dos casillas.</li>
<li>Después <b>puntúa</b> las cartas boca arriba cuyo patrón esté en el camino, leídas al derecho o giradas 180° (de derecha a izquierda). Cada coincidencia distinta vuelve a dar los granos de la carta.</li>
<li>Repón hasta 3 cartas boca arriba. <b>Deshacer</b> anula movimientos hasta que puntúes.</li>
</ul>
<h2>Rondas y final</h2>
<p>Cuando un jugador ha puntuado sus 8 cartas, termina la ronda 1: las 8 cartas de cada uno pasan al rival y se sigue jugando. La partida acaba cuando alguien puntúa sus 8 cartas en la ronda 2. Gana quien tenga más granos; si hay empate, gana quien <i>no</i> terminó. La partida también acaba en cuanto la reserva de granos se vacía (ya no queda ningún grano por ganar); entonces el empate se comparte.</p>
<h2>Solitario</h2>
<p>Las 16 cartas en un mazo, 3 boca arriba, 3 granos. Cada movimiento o intercambio cuesta 1 grano; puntúa una carta cuando quieras. La partida acaba al quedarte sin granos: 0–6 prefieres el té, 7–10 café de filtro, 11–13 cafetera de émbolo, 14–15 cafetera espresso, 16+ auténtico barista.</p>`,
};

export default Object.fromEntries(Object.entries(pages).map(([lang, text]) =>
  [lang, () => rulesPage(text, () => legend(lang))]));
