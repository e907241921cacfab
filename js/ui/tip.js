// The tooltip of highlighted stretches: which source a copy or a rewrite comes from, shown when a
// mark is hovered or the caret (keyboard focus in the text) enters it. One floating element per
// host, positioned next to the mark; its content comes from the report view (tipContent), so this
// file only places and hides it. Styled by report.css (.uq-tip).

let count = 0;

/**
 * @param {Document} [doc]
 * @returns {{ element: HTMLElement, show(anchor: DOMRect | Element, content: Node, key?: string): void,
 *             hide(): void, readonly key: string | null }} `show` places `content` next to `anchor`;
 *          `key` names what is shown (a stretch), so the same one is not re-rendered, and one the
 *          reader dismissed with Escape stays dismissed while only it is asked for again
 */
export function createTip(doc = document) {
  const element = doc.createElement("div");
  element.className = "uq-tip";
  element.id = `uq-tip-${++count}`;
  element.setAttribute("role", "tooltip");
  element.hidden = true;
  let key = null;
  // Escape dismisses the tip (WCAG 1.4.13) until something else is shown or it is hidden anyway:
  // the same stretch does not pop it up again at the next key up of the caret still inside it.
  let dismissed = null;

  const onKey = (event) => {
    if (event.key !== "Escape") return;
    const was = key;
    hide();
    dismissed = was;
  };
  // The tip is placed for one scroll position: any scroll (the page, the field) hides it.
  const onScroll = () => hide();

  function hide() {
    dismissed = null;
    if (element.hidden) return;
    element.hidden = true;
    key = null;
    doc.removeEventListener("keydown", onKey, true);
    doc.removeEventListener("scroll", onScroll, true);
  }

  function show(anchor, content, newKey = null) {
    if (newKey !== null && newKey === dismissed) return;
    dismissed = null;
    if (!element.isConnected) doc.body.append(element);
    const rect = anchor instanceof Element ? anchor.getBoundingClientRect() : anchor;
    if (key === null || key !== newKey || element.hidden) element.replaceChildren(content);
    key = newKey;
    if (element.hidden) {
      element.hidden = false;
      doc.addEventListener("keydown", onKey, true);
      doc.addEventListener("scroll", onScroll, true);
    }
    // Below the mark when it fits, else above; never off the sides of the viewport.
    const view = doc.defaultView;
    const width = view.innerWidth;
    const height = view.innerHeight;
    const tip = element.getBoundingClientRect();
    const gap = 8;
    let top = rect.bottom + gap;
    if (top + tip.height > height - 4 && rect.top - gap - tip.height >= 4) top = rect.top - gap - tip.height;
    const left = Math.max(4, Math.min(rect.left, width - tip.width - 4));
    element.style.top = `${Math.round(top)}px`;
    element.style.left = `${Math.round(left)}px`;
  }

  return {
    element,
    show,
    hide,
    get key() {
      return key;
    },
  };
}
