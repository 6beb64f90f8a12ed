// What a lesson adds to a real board (js/learn.js drives it): the element the step is
// about gets a highlight and the lesson's box beside it; the element the player must
// press next carries `data-tutorial-target` (tests press it, people see it glow).
// The board redraws at will, so the marks are laid again after every redraw.

const TARGET = 'data-tutorial-target';

/**
 * Marks on `boardRoot` for the current step, and the lesson `box` placed beside the
 * step's element inside `page`. `step()` returns the step ({at, click, move}) or null.
 */
export class Tutor {
  constructor(page, boardRoot, box, step) {
    this.page = page;
    this.boardRoot = boardRoot;
    this.box = box;
    this.step = step;
    this.pressed = 0; // how many of the step's presses (click selectors) were made
    this.observer = new MutationObserver(() => this.mark());
    this.observer.observe(boardRoot, { childList: true, subtree: true });
    this.onPress = (event) => this.pressedAt(event);
    this.onKeyClick = (event) => { if (event.detail === 0) this.pressedAt(event); };
    this.onResize = () => this.place();
    // Capture: the press counts before the board redraws under it (Espresso acts on the press).
    boardRoot.addEventListener('pointerdown', this.onPress, true);
    boardRoot.addEventListener('click', this.onKeyClick, true);
    window.addEventListener('resize', this.onResize);
  }

  /** A new step (or a refused move): its presses start again, the lesson comes into view. */
  reset() {
    this.pressed = 0;
    this.mark();
    if (!this.box.hidden && typeof this.box.scrollIntoView === 'function') this.box.scrollIntoView({ block: 'nearest' });
  }

  pressedAt(event) {
    const step = this.step();
    const target = event.target.closest && event.target.closest(`[${TARGET}]`);
    if (!step || !step.move || !target) return;
    this.pressed = Math.min(this.pressed + 1, step.click.length - 1);
    queueMicrotask(() => this.mark());
  }

  /** Lay the marks again: the highlight, the target, the box's place. */
  mark() {
    const step = this.step();
    for (const el of this.boardRoot.querySelectorAll(`[${TARGET}]`)) el.removeAttribute(TARGET);
    for (const el of this.boardRoot.querySelectorAll('.tutorial-focus')) el.classList.remove('tutorial-focus');
    if (!step) return;
    const focus = step.at ? find(this.boardRoot, step.at) : null;
    if (focus) focus.classList.add('tutorial-focus');
    if (step.move) {
      const target = find(this.boardRoot, step.click[Math.min(this.pressed, step.click.length - 1)]);
      if (target) target.setAttribute(TARGET, '');
    }
    this.place(focus);
  }

  /** The box under the step's element, or above it when the window has no room below
   * (at the top of the board when the step names none). */
  place(focus = null) {
    const step = this.step();
    const el = focus || (step && step.at ? find(this.boardRoot, step.at) : null);
    const frame = this.page.getBoundingClientRect();
    const around = (el || this.boardRoot).getBoundingClientRect();
    const width = this.box.offsetWidth;
    const height = this.box.offsetHeight;
    const left = Math.max(0, Math.min(around.left - frame.left, frame.width - width));
    const roomBelow = window.innerHeight - around.bottom;
    const above = el && roomBelow < height + 16 && around.top > height + 16;
    let top = around.top - frame.top;
    if (el) top = above ? around.top - frame.top - height - 8 : around.bottom - frame.top + 8;
    // Never over what the player must press next: then under it.
    const target = this.boardRoot.querySelector(`[${TARGET}]`);
    const hit = target && target.getBoundingClientRect();
    if (hit && hit.top - frame.top < top + height && hit.bottom - frame.top > top
        && hit.left - frame.left < left + width && hit.right - frame.left > left) {
      top = hit.bottom - frame.top + 8;
    }
    this.box.style.left = `${Math.round(left)}px`;
    this.box.style.top = `${Math.round(Math.max(0, top))}px`;
  }

  destroy() {
    this.observer.disconnect();
    this.boardRoot.removeEventListener('pointerdown', this.onPress, true);
    this.boardRoot.removeEventListener('click', this.onKeyClick, true);
    window.removeEventListener('resize', this.onResize);
  }
}

/** The first element matching a script's selector, or null (a bad selector finds nothing). */
function find(root, selector) {
  try {
    return root.querySelector(selector);
  } catch {
    return null;
  }
}
