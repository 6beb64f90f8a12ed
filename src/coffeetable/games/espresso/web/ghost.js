// A card in flight: it flies from its place to the stack it was played on,
// and snaps back (with a word, e.g. "Too slow!") when the server refuses it.

const FLY_MS = 180;

function placeAt(el, rect) {
  el.style.left = `${rect.left}px`;
  el.style.top = `${rect.top}px`;
  el.style.width = `${rect.width}px`;
  el.style.height = `${rect.height}px`;
}

export class Ghost {
  /** A copy of a card's drawing (an svg), floating above the page from rect. */
  constructor(rect, drawing) {
    this.origin = rect;
    this.el = document.createElement('div');
    this.el.className = 'ghost';
    if (drawing) this.el.append(drawing.cloneNode(true));
    placeAt(this.el, this.origin);
    document.body.append(this.el);
  }

  /** Follow the pointer while dragging (offset: where the card was grabbed). */
  follow(x, y, offset) {
    this.el.classList.add('dragging');
    this.el.style.transition = 'none';
    this.el.style.left = `${x - offset.x}px`;
    this.el.style.top = `${y - offset.y}px`;
  }

  /** Fly onto an element (the target stack). */
  flyTo(target) {
    if (!target) return;
    const rect = target.getBoundingClientRect();
    this.el.classList.remove('dragging');
    this.el.style.transition = `left ${FLY_MS}ms ease-out, top ${FLY_MS}ms ease-out`;
    requestAnimationFrame(() => {
      this.el.style.left = `${rect.left + (rect.width - this.origin.width) / 2}px`;
      this.el.style.top = `${rect.top + (rect.height - this.origin.height) / 2}px`;
    });
  }

  /** The server took the card: fade away (the board now shows it). */
  land() {
    this.el.classList.add('landed');
    setTimeout(() => this.el.remove(), 250);
  }

  /** The server refused it: back to its place, with a word above it. */
  snapBack(word) {
    this.el.classList.remove('dragging');
    this.el.style.transition = `left ${FLY_MS * 1.5}ms ease-in, top ${FLY_MS * 1.5}ms ease-in`;
    placeAt(this.el, this.origin);
    if (word) {
      const label = document.createElement('span');
      label.className = 'ghost-word';
      label.setAttribute('data-testid', 'too-slow');
      label.textContent = word;
      this.el.append(label);
      this.el.classList.add('refused');
    }
    setTimeout(() => this.el.remove(), word ? 1400 : 300);
  }
}
