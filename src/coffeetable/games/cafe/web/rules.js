// The short rules of Café, one page per language (the full rules: ../RULES.md).

import { html } from '../../js/dom.js';
import { rulesPage } from '../../js/rules.js';
import { COLOURS, S, cardSvg, cube, glyph, installCss } from './icons.js';

const NAMES = {
  en: {
    bean: 'bean: produce', dry: 'drying', roast: 'roasting', cup: 'cup: an action', ship: 'ship', card: 'a plan card with a café',
    colours: { red: 'red ▲', yellow: 'yellow ◎', green: 'green ◆', black: 'black ✚' }, cube: 'and its cube',
  },
  fr: {
    bean: 'grain : produire', dry: 'séchage', roast: 'torréfaction', cup: 'tasse : une action', ship: 'navire', card: 'une carte avec un café',
    colours: { red: 'rouge ▲', yellow: 'jaune ◎', green: 'vert ◆', black: 'noir ✚' }, cube: 'et son cube',
  },
  de: {
    bean: 'Bohne: anbauen', dry: 'Trocknen', roast: 'Rösten', cup: 'Tasse: eine Aktion', ship: 'Schiff', card: 'eine Karte mit Café',
    colours: { red: 'Rot ▲', yellow: 'Gelb ◎', green: 'Grün ◆', black: 'Schwarz ✚' }, cube: 'und ihr Würfel',
  },
  es: {
    bean: 'grano: producir', dry: 'secado', roast: 'tueste', cup: 'taza: una acción', ship: 'barco', card: 'una carta con un café',
    colours: { red: 'rojo ▲', yellow: 'amarillo ◎', green: 'verde ◆', black: 'negro ✚' }, cube: 'y su cubo',
  },
};

// C01 as cards.py lists it, to show what a card looks like.
const SAMPLE = { id: 'C01', rows: ['yyd', 'Cou'], cafe: { name: 'Martinho da Arcada', need: { red: 1, yellow: 2 }, points: 4 }, cup: true };

function legend(lang) {
  installCss();
  const n = NAMES[lang];
  const icon = (name, icon, colour) => html`<figure><svg class="cf-svg" viewBox="0 0 ${S} ${S}" aria-hidden="true">
    <rect class="sq sq-${icon}" width="${S}" height="${S}"/>${glyph(icon, colour)}</svg><figcaption>${name}</figcaption></figure>`;
  // a bean of each colour with its cube: both carry the colour's mark
  const beans = COLOURS.map((c) => html`<figure class="bean-fig" data-testid="legend-${c}" data-colour="${c}">
    <svg class="cf-svg" viewBox="0 0 ${S + 20} ${S}" aria-hidden="true"><rect class="sq sq-bean" width="${S}" height="${S}"/>${glyph('bean', c)}
      ${cube(c, S + 4, S / 2 - 7, 14)}</svg>
    <figcaption><b>${n.colours[c]}</b><br>${n.bean}, ${n.cube}</figcaption></figure>`);
  return html`<div class="cafe-legend">${beans}${icon(n.dry, 'dry')}${icon(n.roast, 'roast')}${icon(n.cup, 'cup')}${icon(n.ship, 'ship')}
    <figure class="card">${cardSvg(SAMPLE)}<figcaption>${n.card}</figcaption></figure></div>`;
}

const pages = {
  en: `
<h1>Café</h1>
<p class="lead">1 to 4 players, 8 rounds. Build a coffee company from overlapping plan cards: produce beans, dry them, roast them and deliver the coffee to cafés.</p>
{legend}
<h2>The cards</h2>
<p>A plan card has 3 × 2 squares. A square shows a bean (red, yellow, green or black), drying, roasting, a cup, a ship, part of a café (what it needs and its points) or nothing. Each company starts with a start card and one cube of each colour in its warehouse.</p>
<p>Each colour also has its own mark, on its beans and on its cubes: red ▲, yellow ◎, green ◆, black ✚.</p>
<h2>A round</h2>
<ul>
<li><b>Draft</b>: the Master shows 3 cards. Starting left of the Master, each player takes one (the row is refilled at once); the Master picks last. Solo: keep 1 of 3.</li>
<li>A card with a cup costs 1 cube of any colour from your warehouse, unless your area shows 2 or more ships. If you cannot pay, you cannot take a cup card (if all three need paying, you take one free).</li>
<li><b>Place</b> it at once: it must cover 2, 3 or 4 squares of your area, in any of 4 rotations, on the grid. Cubes on covered squares go back to the supply; a café with a covered cell is lost.</li>
<li><b>Actions</b>: everyone at once, one action per visible cup (1 to 8). Unused actions are lost.</li>
</ul>
<h2>Areas and actions</h2>
<p>An area is a group of touching squares with the same icon (beans: the same colour). Each action uses one <i>empty</i> area.</p>
<ul>
<li><b>Produce</b>: a cube of the area's colour on each of its beans.</li>
<li><b>Dry</b>: choose a colour; all its cubes from the beans go onto a drying area.</li>
<li><b>Roast</b>: choose a colour; all its cubes from drying go onto a roasting area.</li>
<li><b>Deliver</b>: all the cubes of a roasting area go to cafés that still need them, the rest to the warehouse.</li>
</ul>
<h2>Scoring</h2>
<p>After round 8: each complete café scores its points. In the warehouse, the scarcest colour scores 2 points a cube and the next scarcest 1 point a cube (2a + b). Ties: most cubes on roasting squares, then on drying squares. Solo: under 12 apprentice, 12–15 roaster, 16–19 merchant, 20–23 coffee baron, 24+ legend of the Chiado.</p>
<h2>Playing here</h2>
<p>Click a card in the draft row (a cup card asks which cube pays). A ghost of the card follows your mouse over your area and stands only where it may go: turn it with R, a right-click, the wheel or the buttons, and click to place it. In the actions phase the areas you may use are outlined by action; click one (dry and roast ask for a colour; deliver asks where each cube goes), or Pass.</p>
<p>On a touch screen, tap instead: a tap on your area shows the card at the nearest spot where it may go, the ⟲ ⟳ buttons turn it, and a second tap on it, or Place here, places it.</p>`,
  fr: `
<h1>Café</h1>
<p class="lead">1 à 4 joueurs, 8 manches. Bâtissez une entreprise de café avec des cartes qui se chevauchent : produisez des grains, séchez-les, torréfiez-les et livrez le café aux cafés.</p>
{legend}
<h2>Les cartes</h2>
<p>Une carte a 3 × 2 cases. Une case montre un grain (rouge, jaune, vert ou noir), un séchage, une torréfaction, une tasse, un navire, une partie d’un café (sa demande et ses points) ou rien. Chaque entreprise commence avec une carte de départ et un cube de chaque couleur dans son entrepôt.</p>
<p>Chaque couleur a aussi sa propre marque, sur ses grains et sur ses cubes : rouge ▲, jaune ◎, vert ◆, noir ✚.</p>
<h2>Une manche</h2>
<ul>
<li><b>Sélection</b> : le Maître révèle 3 cartes. En commençant à sa gauche, chacun en prend une (la rangée est complétée aussitôt) ; le Maître choisit en dernier. En solo : gardez 1 carte sur 3.</li>
<li>Une carte avec une tasse coûte 1 cube de n’importe quelle couleur de votre entrepôt, sauf si votre zone montre 2 navires ou plus. Sans pouvoir payer, pas de carte à tasse (si les trois sont payantes, vous en prenez une gratuitement).</li>
<li><b>Posez</b>-la aussitôt : elle doit couvrir 2, 3 ou 4 cases de votre zone, dans l’une des 4 orientations, sur la grille. Les cubes des cases couvertes retournent à la réserve ; un café dont une case est couverte est perdu.</li>
<li><b>Actions</b> : tous en même temps, une action par tasse visible (1 à 8). Les actions non utilisées sont perdues.</li>
</ul>
<h2>Zones et actions</h2>
<p>Une zone est un groupe de cases voisines au même symbole (grains : même couleur). Chaque action utilise une zone <i>vide</i>.</p>
<ul>
<li><b>Produire</b> : un cube de la couleur de la zone sur chacun de ses grains.</li>
<li><b>Sécher</b> : choisissez une couleur ; tous ses cubes des grains vont sur une zone de séchage.</li>
<li><b>Torréfier</b> : choisissez une couleur ; tous ses cubes du séchage vont sur une zone de torréfaction.</li>
<li><b>Livrer</b> : tous les cubes d’une zone de torréfaction vont aux cafés qui les demandent encore, le reste à l’entrepôt.</li>
</ul>
<h2>Décompte</h2>
<p>Après la manche 8 : chaque café complet rapporte ses points. Dans l’entrepôt, la couleur la plus rare rapporte 2 points par cube et la suivante 1 point par cube (2a + b). Égalité : le plus de cubes sur la torréfaction, puis sur le séchage. En solo : moins de 12 apprenti, 12–15 torréfacteur, 16–19 négociant, 20–23 baron du café, 24+ légende du Chiado.</p>
<h2>Jouer ici</h2>
<p>Cliquez une carte de la rangée (une carte à tasse demande avec quel cube payer). Un fantôme de la carte suit la souris sur votre zone et ne se place qu’aux endroits permis : tournez-le avec R, un clic droit, la molette ou les boutons, et cliquez pour poser. Pendant les actions, les zones utilisables sont entourées selon l’action ; cliquez-en une (sécher et torréfier demandent une couleur ; livrer demande où va chaque cube), ou passez.</p>
<p>Sur un écran tactile, touchez plutôt : toucher votre zone y montre la carte à l’endroit permis le plus proche, les boutons ⟲ ⟳ la tournent, et un second toucher dessus, ou Poser ici, la pose.</p>`,
  de: `
<h1>Café</h1>
<p class="lead">1 bis 4 Personen, 8 Runden. Baue ein Kaffeeunternehmen aus überlappenden Planungskarten: Bohnen anbauen, trocknen, rösten und den Kaffee an Cafés liefern.</p>
{legend}
<h2>Die Karten</h2>
<p>Eine Planungskarte hat 3 × 2 Felder. Ein Feld zeigt eine Bohne (rot, gelb, grün oder schwarz), Trocknen, Rösten, eine Tasse, ein Schiff, einen Teil eines Cafés (was es braucht und seine Punkte) oder nichts. Jedes Unternehmen beginnt mit einer Startkarte und einem Würfel jeder Farbe im Lager.</p>
<p>Jede Farbe hat auf ihren Bohnen und Würfeln auch ein eigenes Zeichen: Rot ▲, Gelb ◎, Grün ◆, Schwarz ✚.</p>
<h2>Eine Runde</h2>
<ul>
<li><b>Auswahl</b>: der Meister deckt 3 Karten auf. Links vom Meister beginnend nimmt jede Person eine (die Reihe wird sofort aufgefüllt); der Meister wählt zuletzt. Solo: behalte 1 von 3.</li>
<li>Eine Karte mit Tasse kostet 1 Würfel beliebiger Farbe aus deinem Lager, außer dein Bereich zeigt 2 oder mehr Schiffe. Wer nicht zahlen kann, nimmt keine Karte mit Tasse (verlangen alle drei Zahlung, nimmt man eine kostenlos).</li>
<li><b>Lege</b> sie sofort: sie muss 2, 3 oder 4 Felder deines Bereichs überdecken, in einer von 4 Drehungen, im Raster. Würfel auf überdeckten Feldern gehen in den Vorrat zurück; ein Café mit überdecktem Feld ist verloren.</li>
<li><b>Aktionen</b>: alle gleichzeitig, eine Aktion pro sichtbarer Tasse (1 bis 8). Ungenutzte Aktionen verfallen.</li>
</ul>
<h2>Bereiche und Aktionen</h2>
<p>Ein Bereich ist eine Gruppe benachbarter Felder mit demselben Symbol (Bohnen: dieselbe Farbe). Jede Aktion nutzt einen <i>leeren</i> Bereich.</p>
<ul>
<li><b>Anbauen</b>: ein Würfel in der Farbe des Bereichs auf jede seiner Bohnen.</li>
<li><b>Trocknen</b>: wähle eine Farbe; alle ihre Würfel von den Bohnen kommen auf einen Trockenbereich.</li>
<li><b>Rösten</b>: wähle eine Farbe; alle ihre Würfel vom Trocknen kommen auf einen Röstbereich.</li>
<li><b>Liefern</b>: alle Würfel eines Röstbereichs gehen an Cafés, die sie noch brauchen, der Rest ins Lager.</li>
</ul>
<h2>Wertung</h2>
<p>Nach Runde 8: jedes vollständige Café bringt seine Punkte. Im Lager bringt die seltenste Farbe 2 Punkte pro Würfel und die nächstseltene 1 Punkt pro Würfel (2a + b). Gleichstand: die meisten Würfel auf Röstfeldern, dann auf Trockenfeldern. Solo: unter 12 Lehrling, 12–15 Röster, 16–19 Händler, 20–23 Kaffeebaron, 24+ Legende des Chiado.</p>
<h2>Hier spielen</h2>
<p>Klicke eine Karte der Auslage (eine Karte mit Tasse fragt, welcher Würfel zahlt). Ein Geist der Karte folgt der Maus über deinem Bereich und steht nur dort, wo sie liegen darf: drehe ihn mit R, Rechtsklick, dem Mausrad oder den Knöpfen und klicke zum Legen. In der Aktionsphase sind die nutzbaren Bereiche je Aktion umrandet; klicke einen (Trocknen und Rösten fragen nach einer Farbe; Liefern fragt, wohin jeder Würfel geht) oder passe.</p>
<p>Auf einem Touchscreen tippst du stattdessen: ein Tippen auf deinen Bereich zeigt die Karte an der nächsten erlaubten Stelle, die Knöpfe ⟲ ⟳ drehen sie, und ein zweites Tippen darauf oder „Hier legen“ legt sie.</p>`,
  es: `
<h1>Café</h1>
<p class="lead">De 1 a 4 jugadores, 8 rondas. Construye una empresa de café con cartas que se solapan: produce granos, sécalos, tuéstalos y entrega el café a los cafés.</p>
{legend}
<h2>Las cartas</h2>
<p>Una carta tiene 3 × 2 casillas. Una casilla muestra un grano (rojo, amarillo, verde o negro), secado, tueste, una taza, un barco, parte de un café (lo que pide y sus puntos) o nada. Cada empresa empieza con una carta inicial y un cubo de cada color en su almacén.</p>
<p>Cada color tiene además su propia marca, en sus granos y en sus cubos: rojo ▲, amarillo ◎, verde ◆, negro ✚.</p>
<h2>Una ronda</h2>
<ul>
<li><b>Selección</b>: el Maestro muestra 3 cartas. Empezando a su izquierda, cada jugador toma una (la fila se repone enseguida); el Maestro elige el último. En solitario: quédate 1 de 3.</li>
<li>Una carta con taza cuesta 1 cubo de cualquier color de tu almacén, salvo que tu zona muestre 2 barcos o más. Si no puedes pagar, no puedes tomar una carta con taza (si las tres piden pago, tomas una gratis).</li>
<li><b>Colócala</b> enseguida: debe cubrir 2, 3 o 4 casillas de tu zona, en una de las 4 orientaciones, sobre la cuadrícula. Los cubos de las casillas cubiertas vuelven a la reserva; un café con una casilla cubierta se pierde.</li>
<li><b>Acciones</b>: todos a la vez, una acción por taza visible (de 1 a 8). Las acciones no usadas se pierden.</li>
</ul>
<h2>Zonas y acciones</h2>
<p>Una zona es un grupo de casillas vecinas con el mismo símbolo (granos: el mismo color). Cada acción usa una zona <i>vacía</i>.</p>
<ul>
<li><b>Producir</b>: un cubo del color de la zona en cada uno de sus granos.</li>
<li><b>Secar</b>: elige un color; todos sus cubos de los granos pasan a una zona de secado.</li>
<li><b>Tostar</b>: elige un color; todos sus cubos del secado pasan a una zona de tueste.</li>
<li><b>Entregar</b>: todos los cubos de una zona de tueste van a los cafés que aún los necesitan, el resto al almacén.</li>
</ul>
<h2>Puntuación</h2>
<p>Tras la ronda 8: cada café completo da sus puntos. En el almacén, el color más escaso da 2 puntos por cubo y el siguiente 1 punto por cubo (2a + b). Empate: más cubos en el tueste y luego en el secado. En solitario: menos de 12 aprendiz, 12–15 tostador, 16–19 comerciante, 20–23 barón del café, 24+ leyenda del Chiado.</p>
<h2>Jugar aquí</h2>
<p>Haz clic en una carta de la fila (una carta con taza pregunta qué cubo paga). Un fantasma de la carta sigue al ratón por tu zona y solo aparece donde puede ir: gíralo con R, clic derecho, la rueda o los botones, y haz clic para colocarla. En la fase de acciones, las zonas que puedes usar se resaltan según la acción; haz clic en una (secar y tostar piden un color; entregar pregunta adónde va cada cubo), o pasa.</p>
<p>En una pantalla táctil, toca: un toque en tu zona muestra la carta en el lugar permitido más cercano, los botones ⟲ ⟳ la giran, y un segundo toque sobre ella, o Colocar aquí, la coloca.</p>`,
};

export default Object.fromEntries(Object.entries(pages).map(([lang, text]) =>
  [lang, () => rulesPage(text, () => legend(lang))]));
