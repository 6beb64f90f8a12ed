// The Espresso board as markup: the players' areas, the centre stacks and the
// shortcut bar. Pure functions of a model; index.js decides when to draw.

import { attrs, html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { hintKey } from '../../js/board.js';
import { back, emblem, empty, face } from './cards.js';
import { keyForPosition, posKey } from './moves.js';

export function cardName(card) {
  if (!card) return '';
  const base = t('espresso.cardName', { colour: t(`espresso.colour.${card.colour}`), value: card.value });
  return card.as != null ? `${base} (${t('espresso.jokerAs', { n: card.as })})` : base;
}

/**
 * One place that can hold a card: it may be picked, be a joker's follower, or
 * wait for the server. faceDown: draw the owner's back when there is no card.
 */
function place(m, owner, source, slot, card, faceDown = false) {
  const key = posKey(owner, source, slot);
  const pickable = m.analysis.sources.has(key);
  const classes = ['place', `place-${source}`];
  if (pickable && !m.sel.follower) classes.push('pickable');
  if (m.sel.source === key) classes.push('selected');
  if (m.choices.followers.has(key)) classes.push('follower');
  if (m.sel.follower === key) classes.push('selected', 'following');
  if (m.pending.has(key)) classes.push('pending');
  const shortcut = owner === m.me ? keyForPosition(key, m.me) : null;
  const testid = `card-${owner}-${source}${source === 'help' ? `-${slot}` : ''}`;
  let drawn = empty();
  if (card) drawn = face(card, cardName(card));
  else if (faceDown) drawn = back(owner);
  return html`<div class="${classes.join(' ')}" data-pos="${key}" data-testid="${testid}"
      ${attrs({ 'data-card': card ? `${card.colour}-${card.value}` : null, 'data-key': shortcut })}>
    ${drawn}${shortcut ? html`<kbd class="key-hint">${shortcut}</kbd>` : ''}</div>`;
}

function label(text) {
  return html`<span class="area-label" title="${text}">${text}</span>`;
}

function countBadge(n, testid) {
  return html`<span class="count" data-testid="${testid}" data-count="${n}">${n}</span>`;
}

function livePoints(view, seat) {
  let n = 0;
  for (const stack of view.centre || []) for (const card of stack) if (card.owner === seat) n += 1;
  return n;
}

/** The hand deck: click it to flip, or (empty) to recycle the pile. */
function handDeck(m, seat, p) {
  const mine = seat === m.me;
  if (p.hand.count > 0) {
    const live = mine && m.analysis.flips.length;
    return html`<div class="place place-hand ${live ? 'actionable' : ''}" data-action="${mine ? 'flip' : ''}"
      data-testid="hand-${seat}">${back(seat)}${mine ? html`<kbd class="key-hint">␣</kbd>` : ''}</div>`;
  }
  const live = mine && m.analysis.recycle;
  const prompt = live ? html`<span class="recycle-label">${t('espresso.recycle')} <kbd>R</kbd></span>` : '';
  return html`<div class="place place-hand ${live ? 'actionable' : ''}" data-action="${mine ? 'recycle' : ''}"
    data-testid="hand-${seat}">${empty()}${prompt}</div>`;
}

function area(title, body, cls = '') {
  return html`<div class="area ${cls}">${label(title)}${body}</div>`;
}

function counted(placeHtml, count, testid) {
  return html`<div class="pile-wrap">${placeHtml}${countBadge(count, testid)}</div>`;
}

export function playerArea(m, seat) {
  const p = m.view.players[seat];
  const mine = seat === m.me;
  const name = m.names[seat] || t('espresso.seatName', { n: seat + 1 });
  const ready = p.ready && m.view.phase === 'ready'
    ? html`<span class="tag ok" data-testid="ready-mark-${seat}">${t('espresso.isReady')}</span>` : '';
  const stuck = p.stuck ? html`<span class="tag">${t('espresso.stuck')}</span>` : '';
  const score = t('espresso.scoreLine', { total: p.score, live: livePoints(m.view, seat) });
  const faceDown = m.view.phase === 'ready';
  const help = p.help.map((card, slot) => place(m, seat, 'help', slot, card, faceDown));
  return html`
    <section class="player ${mine ? 'me' : 'other'} seat-${seat}" data-testid="player-${seat}" data-seat="${seat}">
      <header>${emblem(seat)} <strong>${name}</strong>${mine ? html` <em>(${t('table.you')})</em>` : ''}
        <span class="score" data-testid="score-${seat}">${score}</span>${ready}${stuck}</header>
      <div class="areas">
        ${area(t('espresso.espresso'), counted(place(m, seat, 'espresso', null, p.espresso.top),
          p.espresso.count, `espresso-count-${seat}`))}
        ${area(t('espresso.help'), html`<div class="row">${help}</div>`, 'help')}
        ${area(t('espresso.pile'), counted(place(m, seat, 'pile', null, p.pile.top), p.pile.count, `pile-count-${seat}`))}
        ${area(t('espresso.hand'), counted(handDeck(m, seat, p), p.hand.count, `hand-count-${seat}`))}
      </div>
    </section>`;
}

function stack(m, cards, index) {
  const key = `stack:${index}`;
  const top = cards[cards.length - 1];
  const complete = top && (top.as ?? top.value) === 8;
  const label = m.targetLabels.get(key);
  const classes = ['stack', complete ? 'complete' : '', label ? 'target' : '', m.fresh.has(index) ? 'fresh' : ''];
  const under = cards.length > 1 ? html`<div class="under">${face(cards[cards.length - 2])}</div>` : '';
  return html`<div class="${classes.join(' ')}" data-target="${key}" data-testid="stack-${index}" data-count="${cards.length}"
      title="${t('espresso.stackNo', { n: index + 1 })}">
    ${under}<div class="top">${top ? face(top, cardName(top)) : empty()}</div>
    <span class="stack-no" aria-hidden="true">#${index + 1}</span>
    ${label ? html`<kbd class="target-key" data-testid="target-key-${index}">${label}</kbd>` : ''}</div>`;
}

export function centre(m) {
  const stacks = m.view.centre || [];
  const total = stacks.reduce((n, s) => n + s.length, 0);
  const newLabel = m.targetLabels.get('new');
  return html`
    <section class="centre" data-testid="centre" data-stacks="${stacks.length}" data-cards="${total}">
      ${stacks.map((cards, i) => stack(m, cards, i))}
      <div class="stack new-stack ${newLabel ? 'target' : ''}" data-target="new" data-testid="new-stack">
        <span>${t('espresso.newStack')}</span>${newLabel ? html`<kbd class="target-key">${newLabel}</kbd>` : ''}</div>
    </section>`;
}

export function hint(m) {
  let text = '';
  if (m.me == null) text = t('espresso.hintWatching');
  else if (m.view.phase !== 'play') text = '';
  else if (!m.canAct) text = t('espresso.hintWait');
  else if (m.sel.follower || (m.sel.source && !m.choices.followers.size)) text = t('espresso.hintTarget');
  else if (m.sel.source) text = t('espresso.hintFollower');
  else text = t(hintKey('espresso.hintPick'));
  return html`<p class="hint" data-testid="hint">${text}</p>`;
}

/** The keys, or on a touch-first device what a tap does (with the Flip 2 button when stuck). */
export function shortcuts(m) {
  if (m.me == null) return html``;
  const stuck = m.analysis.flips.some((f) => f.count === 2);
  const button = html`<button type="button" class="tiny" data-action="flip2" data-testid="flip-2">${t('espresso.flipN', { n: 2 })}</button>`;
  if (m.touch) {
    return html`<footer class="shortcuts touch-help" data-testid="shortcuts" data-touch="true">
      <span>${t('espresso.touchHelp')}</span>${stuck ? button : ''}</footer>`;
  }
  const flip2 = stuck ? html`${button} <kbd>⇧</kbd>+<kbd>␣</kbd>` : '';
  const item = (keys, label) => html`<span>${keys.map((k) => html`<kbd>${k}</kbd>`)} ${label}</span>`;
  return html`<footer class="shortcuts" data-testid="shortcuts">
    ${item(['1', '2', '3'], t('espresso.keys.help'))}
    ${item(['E'], t('espresso.keys.espresso'))}
    ${item(['P'], t('espresso.keys.pile'))}
    ${item(['␣'], t('espresso.keys.flip'))}
    ${item(['R'], t('espresso.keys.recycle'))}
    <span class="then">${t('espresso.keys.then')}</span>
    ${item(['1', '…', '9'], t('espresso.keys.stack'))}
    ${item(['N'], t('espresso.keys.new'))}
    ${item(['Esc'], t('espresso.keys.cancel'))}
    ${flip2}
  </footer>`;
}
