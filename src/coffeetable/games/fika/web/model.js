// Fika's model: what the state and `legal` mean for the player now — the effect
// actions still possible with what was clicked (candidates), what a click on each
// card or spot would do (clickables), the swap set that can be confirmed (effect 4).
// Functions of the board (index.js), which holds the clicks so far: sel, pairs, half.

const SPOTS = 5;

/** The position of a column in its owner's reading order, 1..5. */
export function readPos(seat, column) { return seat === 1 ? SPOTS - column : column + 1; }

/** The keys a legal effect action touches: what must be clicked to choose it. */
export function effectTokens(action, me) {
  const tokens = [];
  if (action.supply != null) tokens.push(`supply:${action.supply}`);
  if (action.hand != null) tokens.push(`hand:${action.hand}`);
  if (action.group != null) tokens.push(`group:${action.group}`);
  if (action.column != null) tokens.push(`street:${action.column}`);
  if (action.spots) action.spots.forEach((s) => tokens.push(`cafe:${action.cafe}:${s}`));
  else if (action.spot != null) tokens.push(`cafe:${action.cafe ?? me}:${action.spot}`);
  return tokens;
}

/** The keys a move of `seat` touches (the review marks them on the board). */
export function moveTokens(action, seat) {
  if (action.type === 'pick') return [`hand:${action.card}`];
  if (action.type === 'place') return [`cafe:${seat}:${action.spot}`];
  if (action.type === 'effect') {
    if (action.swaps) return action.swaps.flatMap(([spot, card]) => [`cafe:${seat}:${spot}`, `hand:${card}`]);
    return effectTokens(action, seat);
  }
  return [];
}

function pairKey(spot, card) { return `${spot}/${card}`; }

/** The effect actions still possible with what was clicked so far. */
export function candidates(b) {
  const effects = b.byType('effect');
  if (b.effectNumber() === 4) {
    const chosen = b.pairs.map(([s, c]) => pairKey(s, c));
    return effects.filter((a) => {
      const keys = a.swaps.map(([s, c]) => pairKey(s, c));
      if (!chosen.every((k) => keys.includes(k))) return false;
      if (!b.half) return true;
      return a.swaps.some(([s, c]) => !chosen.includes(pairKey(s, c))
        && (b.half.spot != null ? s === b.half.spot : c === b.half.card));
    });
  }
  return effects.filter((a) => {
    const tokens = effectTokens(a, b.me);
    return b.sel.every((tok) => tokens.includes(tok));
  });
}

/** token -> what a click on it does, for every clickable thing now. */
export function clickables(b) {
  const out = new Map();
  if (!b.view || b.me == null) return out;
  for (const a of b.byType('pick')) out.set(`hand:${a.card}`, { send: a });
  for (const a of b.byType('place')) out.set(`cafe:${b.me}:${a.spot}`, { send: a });
  if (b.view.phase !== 'effect') return out;
  const cands = candidates(b);
  if (b.effectNumber() === 4) {
    const chosen = b.pairs.map(([s, c]) => pairKey(s, c));
    const usedSpots = b.pairs.map(([s]) => s);
    const usedCards = b.pairs.map(([, c]) => c);
    for (const a of cands) {
      for (const [s, c] of a.swaps) {
        if (chosen.includes(pairKey(s, c))) continue;
        if (b.half == null) {
          if (!usedSpots.includes(s)) out.set(`cafe:${b.me}:${s}`, { half: { spot: s } });
          if (!usedCards.includes(c)) out.set(`hand:${c}`, { half: { card: c } });
        } else if (b.half.spot != null && s === b.half.spot) {
          out.set(`hand:${c}`, { pair: [s, c] });
        } else if (b.half.card != null && c === b.half.card) {
          out.set(`cafe:${b.me}:${s}`, { pair: [s, c] });
        }
      }
    }
    return out;
  }
  for (const a of cands) {
    const tokens = effectTokens(a, b.me);
    const rest = tokens.filter((tok) => !b.sel.includes(tok));
    for (const tok of rest) {
      if (!out.has(tok)) out.set(tok, { add: tok });
      if (rest.length === 1) out.set(tok, { add: tok, send: a });
    }
  }
  return out;
}

/** Effect 4: the legal action made of exactly the chosen pairs, if any. */
export function confirmable(b) {
  if (b.effectNumber() !== 4 || !b.pairs.length || b.half) return null;
  const chosen = b.pairs.map(([s, c]) => pairKey(s, c)).sort().join();
  return b.byType('effect').find((a) => a.swaps.map(([s, c]) => pairKey(s, c)).sort().join() === chosen) || null;
}
