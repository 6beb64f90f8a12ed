// Where each player's beans came from, per round and per card, for the end screen.
//
// The view carries each player's total (`beans`) and the cards scored in the
// round being played (`scored`, with their printed beans, not what they earned:
// a card met twice earns twice). What each card earned is in the log's `scored`
// events ({seat, card, beans, matches, turned}); the `round_over` event ends
// round 1. The server retells the match's last 200 events on a reload, so the
// log may no longer reach back to round 1: round 1 is then the total less round 2
// (in a two-player game beans only ever come from scoring), without its cards.
// (For an exact split from the view alone the engine would have to carry each
// player's beans per round, and what each scored card earned.)

/** A scored event as a line of the breakdown. */
function earned(ev) {
  const line = { card: ev.card, beans: ev.beans || 0, matches: ev.matches || 1, turned: Boolean(ev.turned) };
  return ev.text ? { ...line, text: ev.text } : line; // the card's words, for its tooltip
}

function scoredBy(events, seat) {
  return events.filter((ev) => ev && ev.type === 'scored' && ev.seat === seat).map(earned);
}

const sum = (cards) => cards.reduce((total, c) => total + c.beans, 0);

/**
 * Per seat: {total, rounds: [{round, beans, cards}]}; beans or cards are null
 * where the log no longer tells them. Solo has one "round": the cards scored
 * (its beans are a budget: moves cost beans, so no per-round sum is shown).
 */
export function breakdown(view, events) {
  const log = events || [];
  if (view.solo) {
    const cards = scoredBy(log, 0);
    const complete = cards.length === view.players[0].scored.length;
    return [{ total: view.players[0].beans, rounds: [{ round: 1, beans: null, cards: complete ? cards : null }] }];
  }
  let cut = -1;
  log.forEach((ev, i) => { if (ev && ev.type === 'round_over') cut = i; });
  return view.players.map((p, seat) => {
    const total = p.beans;
    if (cut < 0) {
      // the log no longer holds the end of round 1 (or the game never got there)
      if (view.round === 1) {
        const cards = scoredBy(log, seat);
        return { total, rounds: [{ round: 1, beans: total, cards: sum(cards) === total ? cards : null }] };
      }
      return { total, rounds: [{ round: 1, beans: null, cards: null }, { round: 2, beans: null, cards: null }] };
    }
    const second = scoredBy(log.slice(cut + 1), seat);
    const first = scoredBy(log.slice(0, cut), seat);
    const secondBeans = sum(second);
    const firstBeans = total - secondBeans;
    return {
      total,
      rounds: [
        { round: 1, beans: firstBeans, cards: sum(first) === firstBeans ? first : null },
        { round: 2, beans: secondBeans, cards: second.length === p.scored.length ? second : null },
      ],
    };
  });
}
