// Sounds made by the page itself (Web Audio oscillators, no files): your turn,
// a card landing, FINITO, the end of a match. A switch in the top bar mutes them
// (remembered by this browser). js/table.js calls play(name) on the messages it
// passes to the board. window.coffeetable.sounds counts what was asked and what
// was played, per sound, so tests can tell without listening.

const KEY = 'coffeetable.sound.muted';
// [frequency Hz, start s, length s, type] per note
const SOUNDS = {
  turn: [[660, 0, 0.12, 'sine'], [880, 0.12, 0.16, 'sine']],
  card: [[220, 0, 0.06, 'triangle']],
  finito: [[523, 0, 0.12, 'square'], [659, 0.12, 0.12, 'square'], [784, 0.24, 0.25, 'square']],
  end: [[392, 0, 0.2, 'sine'], [523, 0.2, 0.2, 'sine'], [659, 0.4, 0.4, 'sine']],
};

export const counts = {
  asked: { turn: 0, card: 0, finito: 0, end: 0 },
  played: { turn: 0, card: 0, finito: 0, end: 0 },
};
let audio = null;
let lastCard = 0;
const listeners = new Set();

export function muted() {
  try { return localStorage.getItem(KEY) === '1'; } catch { return false; }
}

export function setMuted(value) {
  try { localStorage.setItem(KEY, value ? '1' : '0'); } catch { /* private mode */ }
  for (const fn of listeners) fn(Boolean(value));
}

export function onMuteChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Play one of the sounds (unless muted, or the page cannot make sound). */
export function play(name) {
  const notes = SOUNDS[name];
  if (!notes) return;
  counts.asked[name] += 1;
  if (muted()) return;
  if (name === 'card') {
    const now = performance.now();
    if (now - lastCard < 60) return; // a burst of cards: one click
    lastCard = now;
  }
  counts.played[name] += 1;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    for (const [freq, at, length, type] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.12, start + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + length + 0.02);
    }
  } catch { /* no audio here: the page goes on silently */ }
}
