// What the player may do, read from the server's `legal` list only: which
// cards can be picked, then (for a joker) which cards may follow, then which
// stacks take it. Positions are keys: "<owner>:espresso", "<owner>:pile",
// "<owner>:help:<slot>"; targets are "stack:<index>" or "new".

export function posKey(owner, source, slot) {
  return source === 'help' ? `${owner}:help:${slot}` : `${owner}:${source}`;
}

/** The position an action's card is taken from (owner omitted: the player's own). */
export function sourceKey(spec, me) {
  return posKey(spec.owner ?? me, spec.source, spec.slot);
}

/**
 * Where the player sees a joker's follower before the joker leaves. The follower
 * is read after the joker left: a help slot the joker emptied holds the card
 * that moved up from the espresso stack, which is now the espresso top.
 */
export function followerKey(action, me) {
  const follow = action.follow;
  const jokerOwner = action.owner ?? me;
  const followOwner = follow.owner ?? me;
  if (action.source === 'help' && follow.source === 'help' && follow.slot === action.slot
      && jokerOwner === followOwner) {
    return `${jokerOwner}:espresso`;
  }
  return sourceKey(follow, me);
}

export function targetKey(target) {
  return target === 'new' ? 'new' : `stack:${target}`;
}

/** Group the legal actions: {sources: Map(key -> {plays, jokers}), flips, recycle, ready}. */
export function analyse(legal, me) {
  const sources = new Map();
  const result = { sources, flips: [], recycle: null, ready: null };
  const entry = (key) => {
    if (!sources.has(key)) sources.set(key, { plays: [], jokers: [] });
    return sources.get(key);
  };
  for (const action of legal || []) {
    if (action.type === 'play') entry(sourceKey(action, me)).plays.push(action);
    else if (action.type === 'joker') entry(sourceKey(action, me)).jokers.push(action);
    else if (action.type === 'flip') result.flips.push(action);
    else if (action.type === 'recycle') result.recycle = action;
    else if (action.type === 'ready') result.ready = action;
  }
  result.flips.sort((a, b) => b.count - a.count);
  return result;
}

/**
 * For a selection {source, follower}, the next choices:
 * targets: Map(targetKey -> action) and followers: Set(positions).
 */
export function choices(analysis, selection, me) {
  const targets = new Map();
  const followers = new Set();
  const found = selection && analysis.sources.get(selection.source);
  if (!found) return { targets, followers };
  if (selection.follower) {
    for (const action of found.jokers) {
      if (followerKey(action, me) === selection.follower && !targets.has(targetKey(action.target))) {
        targets.set(targetKey(action.target), action);
      }
    }
  } else {
    for (const action of found.plays) targets.set(targetKey(action.target), action);
    for (const action of found.jokers) followers.add(followerKey(action, me));
  }
  return { targets, followers };
}

/** Targets in board order (stacks by index, then "new"): the order of the 1-9 keys. */
export function orderedTargets(targets) {
  const index = (key) => (key === 'new' ? Infinity : Number(key.slice(6)));
  return [...targets.keys()].sort((a, b) => index(a) - index(b));
}

/** The keyboard key that picks one of the player's own positions. */
export function keyForPosition(key, me) {
  if (key === `${me}:espresso`) return 'E';
  if (key === `${me}:pile`) return 'P';
  const help = key.match(/^(\d+):help:(\d)$/);
  if (help && Number(help[1]) === me) return String(Number(help[2]) + 1);
  return null;
}

/** The position a key picks ("1"-"3", "e", "p"), or null. */
export function positionForKey(key, me) {
  const k = key.toLowerCase();
  if (k === 'e') return `${me}:espresso`;
  if (k === 'p') return `${me}:pile`;
  if (k >= '1' && k <= '3') return `${me}:help:${Number(k) - 1}`;
  return null;
}

/** Whether two visible cards are the same card. */
export function sameCard(a, b) {
  return !!a && !!b && a.colour === b.colour && a.value === b.value && a.owner === b.owner;
}

/** The card lying at a position in a view, or null. */
export function cardAt(view, key) {
  const [owner, source, slot] = key.split(':');
  const player = view && view.players && view.players[Number(owner)];
  if (!player) return null;
  if (source === 'help') return player.help[Number(slot)] || null;
  return (player[source] && player[source].top) || null;
}
