// The short rules of Espresso, one page per language (the full rules: ../RULES.md).

import { html } from '../../js/dom.js';
import { rulesPage } from '../../js/rules.js';
import { back, face, installSprite } from './cards.js';

function legend() {
  installSprite();
  const cards = ['red', 'green', 'blue', 'yellow'].map((colour, i) => face({ colour, value: i + 5, owner: i }));
  const backs = [0, 1, 2, 3, 4, 5].map((owner) => back(owner));
  return html`<div class="rules-cards">${cards}</div><div class="rules-cards small">${backs}</div>`;
}

const en = `
<h1>Espresso</h1>
<p class="lead">2 to 6 players, all at the same time. Empty your espresso stack first and call <b>FINITO!</b></p>
{legend}
<h2>Your cards</h2>
<p>Each player has a deck of 36 cards: four colours (red ♥ heart, green leaf, blue drop, yellow sun) with the numbers 0 to 8.
The back shows whose card it is: coffee, wine glass, ice cream, pizza, croissant or cake.
Each round you deal 9 cards as your <b>espresso stack</b> (only its top card can be played), 3 <b>help cards</b> face up, and keep the other 24 as your <b>hand</b>, face down.</p>
<h2>The centre</h2>
<p>A stack starts with a 0 and rises one by one in the same colour up to 8. There may be several stacks of a colour. A stack topped by an 8 is complete.</p>
<h2>There are no turns</h2>
<ul>
<li>Play the top of your espresso stack, one of your help cards (the espresso top then fills the empty place) or the top of your pile onto a stack, or start a new stack with a 0.</li>
<li>Flip: move 3 cards from your hand onto your pile. When the hand is empty, turn the pile over (recycle) and go on.</li>
<li>Stuck? If you placed no card during a whole pass through your hand, you may flip 2 at a time until you place one.</li>
<li>When two cards go for the same place, the first one to arrive wins; the other goes back: <i>too slow!</i></li>
</ul>
<h2>FINITO and scoring</h2>
<p>The round stops the moment someone's espresso stack is empty. Each card in the centre scores 1 point for its owner (the back decides); the FINITO caller scores 5 more. The match ends after the round in which someone reaches the target (100 by default): the highest total wins.</p>
<h2>Variants</h2>
<p><b>Zero:</b> a stack may also start with a 1. Every 0 is a joker standing for the value the stack needs; you must at once put the next value on it, in any colour, which sets the stack's new colour. Never two 0s in a row, and no joker on a 7.</p>
<p><b>Chaos:</b> you may take another player's help card or the top of their pile, and play it to the centre at once. It still scores for its owner.</p>
<h2>Playing here</h2>
<p>Click a card (or drag it), then a highlighted stack. Keys: <kbd>1</kbd><kbd>2</kbd><kbd>3</kbd> help cards, <kbd>E</kbd> espresso, <kbd>P</kbd> pile, <kbd>Space</kbd> flip, <kbd>R</kbd> recycle; then <kbd>1</kbd>…<kbd>9</kbd> for a highlighted stack or <kbd>N</kbd> for a new one, <kbd>Esc</kbd> to cancel.</p>
<p>On a touch screen: tap a card, then a highlighted stack, or drag the card onto it; tap your hand to flip three cards, the empty hand to recycle your pile.</p>`;

const fr = `
<h1>Espresso</h1>
<p class="lead">De 2 à 6 joueurs, tous en même temps. Videz votre pile espresso le premier et criez <b>FINITO !</b></p>
{legend}
<h2>Vos cartes</h2>
<p>Chaque joueur a un paquet de 36 cartes : quatre couleurs (rouge ♥ cœur, vert feuille, bleu goutte, jaune soleil) avec les nombres de 0 à 8.
Le dos indique à qui appartient la carte : café, verre de vin, glace, pizza, croissant ou gâteau.
À chaque manche, vous formez votre <b>pile espresso</b> de 9 cartes (seule la carte du dessus se joue), posez 3 <b>cartes d’aide</b> face visible et gardez les 24 autres face cachée : c’est votre <b>main</b>.</p>
<h2>Le centre</h2>
<p>Une pile commence par un 0 et monte d’un en un dans la même couleur jusqu’à 8. Il peut y avoir plusieurs piles d’une couleur. Une pile terminée par un 8 est complète.</p>
<h2>Pas de tours de jeu</h2>
<ul>
<li>Jouez le dessus de votre pile espresso, une carte d’aide (le dessus de l’espresso prend aussitôt sa place) ou le dessus de votre défausse sur une pile, ou commencez une nouvelle pile avec un 0.</li>
<li>Retourner : passez 3 cartes de votre main sur votre défausse. Quand la main est vide, retournez la défausse pour en refaire une main.</li>
<li>Bloqué ? Si vous n’avez posé aucune carte pendant tout un tour de votre main, vous pouvez retourner 2 cartes à la fois jusqu’à ce que vous en posiez une.</li>
<li>Quand deux cartes visent la même place, la première arrivée l’emporte ; l’autre revient : <i>trop lent !</i></li>
</ul>
<h2>FINITO et décompte</h2>
<p>La manche s’arrête dès que la pile espresso d’un joueur est vide. Chaque carte au centre rapporte 1 point à son propriétaire (le dos fait foi) ; celui qui crie FINITO marque 5 points de plus. La partie s’arrête à la fin de la manche où quelqu’un atteint le score visé (100 par défaut) : le plus haut total gagne.</p>
<h2>Variantes</h2>
<p><b>Zéro :</b> une pile peut aussi commencer par un 1. Chaque 0 est un joker qui vaut la valeur attendue par la pile ; il faut aussitôt poser dessus la valeur suivante, de n’importe quelle couleur, qui devient la couleur de la pile. Jamais deux 0 de suite, et pas de joker sur un 7.</p>
<p><b>Chaos :</b> vous pouvez prendre une carte d’aide d’un autre joueur ou le dessus de sa défausse, et la jouer aussitôt au centre. Elle rapporte toujours à son propriétaire.</p>
<h2>Jouer ici</h2>
<p>Cliquez sur une carte (ou faites-la glisser), puis sur une pile en surbrillance. Touches : <kbd>1</kbd><kbd>2</kbd><kbd>3</kbd> cartes d’aide, <kbd>E</kbd> espresso, <kbd>P</kbd> défausse, <kbd>Espace</kbd> retourner, <kbd>R</kbd> reprendre la défausse ; puis <kbd>1</kbd>…<kbd>9</kbd> pour une pile en surbrillance ou <kbd>N</kbd> pour une nouvelle, <kbd>Échap</kbd> pour annuler.</p>
<p>Sur un écran tactile : touchez une carte, puis une pile en surbrillance, ou faites glisser la carte dessus ; touchez votre main pour retourner trois cartes, la main vide pour reprendre la défausse.</p>`;

const de = `
<h1>Espresso</h1>
<p class="lead">2 bis 6 Spieler, alle gleichzeitig. Leere zuerst deinen Espresso-Stapel und ruf <b>FINITO!</b></p>
{legend}
<h2>Deine Karten</h2>
<p>Jeder hat 36 Karten: vier Farben (rot ♥ Herz, grün Blatt, blau Tropfen, gelb Sonne) mit den Zahlen 0 bis 8.
Die Rückseite zeigt, wem die Karte gehört: Kaffee, Weinglas, Eis, Pizza, Croissant oder Kuchen.
In jeder Runde legst du 9 Karten als deinen <b>Espresso-Stapel</b> aus (nur die oberste Karte ist spielbar), 3 <b>Hilfskarten</b> offen daneben, und behältst die übrigen 24 verdeckt als deine <b>Hand</b>.</p>
<h2>Die Mitte</h2>
<p>Ein Stapel beginnt mit einer 0 und steigt in derselben Farbe Schritt für Schritt bis 8. Es darf mehrere Stapel einer Farbe geben. Ein Stapel mit einer 8 obenauf ist fertig.</p>
<h2>Keine Spielzüge</h2>
<ul>
<li>Lege die oberste Karte deines Espresso-Stapels, eine Hilfskarte (die oberste Espresso-Karte rückt sofort nach) oder die oberste Karte deiner Ablage auf einen Stapel, oder beginne mit einer 0 einen neuen.</li>
<li>Aufdecken: lege 3 Karten von deiner Hand auf deine Ablage. Ist die Hand leer, dreh die Ablage um und mach weiter.</li>
<li>Festgefahren? Hast du während eines ganzen Durchgangs durch deine Hand keine Karte gelegt, darfst du je 2 aufdecken, bis du wieder eine legst.</li>
<li>Wollen zwei Karten auf denselben Platz, gewinnt die erste; die andere geht zurück: <i>zu langsam!</i></li>
</ul>
<h2>FINITO und Wertung</h2>
<p>Die Runde endet, sobald ein Espresso-Stapel leer ist. Jede Karte in der Mitte bringt ihrem Besitzer 1 Punkt (die Rückseite entscheidet); wer FINITO ruft, bekommt 5 Punkte dazu. Die Partie endet nach der Runde, in der jemand das Ziel erreicht (100 Punkte, einstellbar): die höchste Summe gewinnt.</p>
<h2>Varianten</h2>
<p><b>Zero:</b> Ein Stapel darf auch mit einer 1 beginnen. Jede 0 ist ein Joker und zählt als der Wert, den der Stapel braucht; darauf muss sofort der nächste Wert in beliebiger Farbe folgen, die dann die Farbe des Stapels ist. Nie zwei 0 hintereinander, und kein Joker auf eine 7.</p>
<p><b>Chaos:</b> Du darfst eine Hilfskarte eines anderen Spielers oder die oberste Karte seiner Ablage nehmen und sofort in die Mitte spielen. Sie zählt weiter für ihren Besitzer.</p>
<h2>Hier spielen</h2>
<p>Klicke eine Karte an (oder zieh sie), dann einen hervorgehobenen Stapel. Tasten: <kbd>1</kbd><kbd>2</kbd><kbd>3</kbd> Hilfskarten, <kbd>E</kbd> Espresso, <kbd>P</kbd> Ablage, <kbd>Leertaste</kbd> aufdecken, <kbd>R</kbd> Ablage umdrehen; dann <kbd>1</kbd>…<kbd>9</kbd> für einen hervorgehobenen Stapel oder <kbd>N</kbd> für einen neuen, <kbd>Esc</kbd> zum Abbrechen.</p>
<p>Auf einem Touchscreen: tippe auf eine Karte, dann auf einen hervorgehobenen Stapel, oder ziehe die Karte darauf; tippe auf deine Hand, um drei Karten aufzudecken, auf die leere Hand, um die Ablage umzudrehen.</p>`;

const es = `
<h1>Espresso</h1>
<p class="lead">De 2 a 6 jugadores, todos a la vez. Vacía primero tu pila espresso y grita <b>¡FINITO!</b></p>
{legend}
<h2>Tus cartas</h2>
<p>Cada jugador tiene una baraja de 36 cartas: cuatro colores (rojo ♥ corazón, verde hoja, azul gota, amarillo sol) con los números del 0 al 8.
El reverso dice de quién es la carta: café, copa de vino, helado, pizza, cruasán o tarta.
En cada ronda repartes 9 cartas como tu <b>pila espresso</b> (solo se juega la carta de arriba), 3 <b>cartas de ayuda</b> boca arriba, y guardas las otras 24 boca abajo como tu <b>mano</b>.</p>
<h2>El centro</h2>
<p>Una pila empieza con un 0 y sube de uno en uno en el mismo color hasta el 8. Puede haber varias pilas de un color. Una pila con un 8 encima está completa.</p>
<h2>No hay turnos</h2>
<ul>
<li>Juega la carta de arriba de tu pila espresso, una carta de ayuda (la de arriba del espresso ocupa enseguida su lugar) o la de arriba de tu descarte sobre una pila, o empieza una pila nueva con un 0.</li>
<li>Voltear: pasa 3 cartas de tu mano a tu descarte. Cuando la mano se acaba, da la vuelta al descarte y sigue.</li>
<li>¿Atascado? Si no colocaste ninguna carta durante toda una vuelta de tu mano, puedes voltear de 2 en 2 hasta que coloques una.</li>
<li>Cuando dos cartas van al mismo sitio, gana la que llega primero; la otra vuelve: <i>¡demasiado lento!</i></li>
</ul>
<h2>FINITO y puntuación</h2>
<p>La ronda se detiene en cuanto la pila espresso de alguien queda vacía. Cada carta del centro da 1 punto a su dueño (decide el reverso); quien grita FINITO suma 5 más. La partida termina al final de la ronda en que alguien alcanza el objetivo (100 por defecto): gana el total más alto.</p>
<h2>Variantes</h2>
<p><b>Cero:</b> una pila también puede empezar con un 1. Cada 0 es un comodín que vale lo que la pila necesita; encima hay que poner enseguida el valor siguiente, de cualquier color, que pasa a ser el color de la pila. Nunca dos 0 seguidos, y ningún comodín sobre un 7.</p>
<p><b>Caos:</b> puedes tomar una carta de ayuda de otro jugador o la de arriba de su descarte y jugarla enseguida al centro. Sigue puntuando para su dueño.</p>
<h2>Jugar aquí</h2>
<p>Haz clic en una carta (o arrástrala) y luego en una pila resaltada. Teclas: <kbd>1</kbd><kbd>2</kbd><kbd>3</kbd> cartas de ayuda, <kbd>E</kbd> espresso, <kbd>P</kbd> descarte, <kbd>Espacio</kbd> voltear, <kbd>R</kbd> recuperar el descarte; luego <kbd>1</kbd>…<kbd>9</kbd> para una pila resaltada o <kbd>N</kbd> para una nueva, <kbd>Esc</kbd> para cancelar.</p>
<p>En una pantalla táctil: toca una carta y luego una pila resaltada, o arrastra la carta encima; toca tu mano para voltear tres cartas, la mano vacía para recuperar el descarte.</p>`;

const page = (text) => () => rulesPage(text, legend);

export default { en: page(en), fr: page(fr), de: page(de), es: page(es) };
