// The writing area: a plain <textarea> (native caret, undo, IME, spellcheck, mobile keyboards)
// over an aria-hidden mirror that repeats its text with <mark>s where fragments (copies) and
// rewrites match. The mirror shares the textarea's box and typography (style.css: .editor
// .field), is sized to the textarea's client area (so a scrollbar never shifts the wrapping) and
// scrolls with it. The marks sit under the textarea, so the pointer never reaches them: hovering
// is found by hit-testing their boxes (markAtPoint), the caret by offsets (fragmentAt, rewriteAt).

/**
 * @param {{ textarea: HTMLTextAreaElement, backdrop: HTMLElement, mirror: HTMLElement }} els
 * @param {{ onInput: (text: string) => void, onCaret: (offset: number) => void,
 *           onHover?: (hit: { kind: "fragment" | "rewrite", index: number, rect: DOMRect } | null) => void }} hooks
 */
export function createEditor({ textarea, backdrop, mirror }, { onInput, onCaret, onHover = () => {} }) {
  let fragments = [];
  let rewrites = [];
  let colourOf = () => 0;
  let focusSource = null;

  // Pasting keeps only the text: a web page's markup, styles and images never reach the draft.
  // execCommand("insertText") keeps the browser's undo stack; setRangeText is the fallback.
  textarea.addEventListener("paste", (event) => {
    const data = event.clipboardData;
    if (!data) return;
    let text = data.getData("text/plain");
    if (!text && data.types.includes("text/html")) text = htmlToText(data.getData("text/html"));
    if (!text) return;
    event.preventDefault();
    insertText(text.replace(/\r\n?/g, "\n"));
  });

  textarea.addEventListener("input", () => {
    // The old marks no longer line up with the edited text: drop them until the next report.
    setFragments([], colourOf, []);
    onInput(textarea.value);
  });
  // Hovering a mark (through the textarea above it), at most once a frame.
  let pointer = null;
  let frame = 0;
  textarea.addEventListener("mousemove", (event) => {
    pointer = [event.clientX, event.clientY];
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (pointer) onHover(markAtPoint(...pointer));
      });
    }
  });
  textarea.addEventListener("mouseleave", () => {
    pointer = null;
    onHover(null);
  });
  textarea.addEventListener("scroll", syncScroll, { passive: true });
  for (const type of ["keyup", "click", "select", "focus"]) {
    textarea.addEventListener(type, () => onCaret(textarea.selectionStart));
  }
  new ResizeObserver(syncBox).observe(textarea);
  syncBox();

  function insertText(text) {
    textarea.focus();
    if (!document.execCommand?.("insertText", false, text)) {
      textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  function syncBox() {
    // clientWidth/Height exclude the scrollbar and the border: exactly where the text wraps.
    const cs = getComputedStyle(textarea);
    backdrop.style.top = cs.borderTopWidth;
    backdrop.style.left = cs.borderLeftWidth;
    backdrop.style.width = `${textarea.clientWidth}px`;
    backdrop.style.height = `${textarea.clientHeight}px`;
    syncScroll();
  }

  function syncScroll() {
    backdrop.scrollTop = textarea.scrollTop;
    backdrop.scrollLeft = textarea.scrollLeft;
  }

  function render() {
    const text = textarea.value;
    const out = document.createDocumentFragment();
    let at = 0;
    // Copies and rewrites never overlap (the engine's report): one pass over both, in order.
    const stretches = [
      ...fragments.map((f, i) => ({ f, i, kind: "fragment" })),
      ...rewrites.map((f, i) => ({ f, i, kind: "rewrite" })),
    ].sort((a, b) => a.f.start - b.f.start);
    for (const { f, i, kind } of stretches) {
      if (f.start < at || f.end > text.length || f.start >= f.end) continue; // never trust offsets blindly
      out.append(text.slice(at, f.start));
      // One <mark> per line of the stretch: line breaks stay outside, so a blank line between
      // two copied paragraphs is not painted as a sliver.
      for (const part of text.slice(f.start, f.end).split(/(\n+)/)) {
        if (part === "" || part.startsWith("\n")) {
          out.append(part);
          continue;
        }
        const mark = document.createElement("mark");
        mark.textContent = part;
        mark.className = `c${colourOf(f.sources[0])}`;
        if (kind === "rewrite") {
          mark.dataset.rewrite = String(i);
          mark.classList.add("rw");
        } else {
          mark.dataset.index = String(i);
          if (f.sources.length > 1) mark.classList.add("multi");
        }
        if (focusSource !== null && !f.sources.includes(focusSource)) mark.classList.add("dim");
        out.append(mark);
      }
      at = f.end;
    }
    // A trailing newline in a textarea opens a new line; in a div it does not, without this.
    out.append(text.slice(at) + "\u200b");
    mirror.replaceChildren(out);
    syncBox();
  }

  function setFragments(next, colour, nextRewrites = []) {
    fragments = next;
    rewrites = nextRewrites;
    colourOf = colour;
    render();
  }

  const selectorOf = (kind, i) => (kind === "rewrite" ? `mark[data-rewrite="${i}"]` : `mark[data-index="${i}"]`);

  /** The mark under viewport point (x, y): its kind, index and the box of the piece hit. */
  function markAtPoint(x, y) {
    const box = textarea.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
    for (const mark of mirror.querySelectorAll("mark")) {
      for (const rect of mark.getClientRects()) {
        if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) {
          const rewrite = mark.dataset.rewrite !== undefined;
          return { kind: rewrite ? "rewrite" : "fragment", index: Number(rewrite ? mark.dataset.rewrite : mark.dataset.index), rect };
        }
      }
    }
    return null;
  }

  /** The box of the caret at UTF-16 offset `at` (in the mirror, which lays the text out alike). */
  function caretRect(at) {
    const walker = document.createTreeWalker(mirror, NodeFilter.SHOW_TEXT);
    let seen = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const len = node.data.length;
      if (at <= seen + len) {
        const range = document.createRange();
        const offset = at - seen;
        // A collapsed range at a line's end has no box: measure the character before it.
        range.setStart(node, Math.max(0, offset - (offset === len ? 1 : 0)));
        range.setEnd(node, Math.min(len, Math.max(offset, 1)));
        return range.getBoundingClientRect();
      }
      seen += len;
    }
    return null;
  }

  return {
    textarea,
    get value() {
      return textarea.value;
    },
    /** Replaces the whole text (the sample, a restored draft, clearing), as one undoable edit. */
    setValue(text) {
      textarea.focus();
      textarea.select();
      if (text === "") {
        if (!document.execCommand?.("delete")) {
          textarea.value = "";
          textarea.dispatchEvent(new Event("input", { bubbles: true }));
        }
      } else {
        insertText(text);
      }
      textarea.setSelectionRange(0, 0);
      textarea.scrollTop = 0;
    },
    /** Sets the text without an input event (restoring a saved draft at start-up). */
    restore(text) {
      textarea.value = text;
      render();
    },
    /** The report's fragments (and rewrites) for the CURRENT text, and the colour index of a source id. */
    setFragments,
    /** Dims every fragment but those of `sourceId` (null: none dimmed). */
    setFocusSource(sourceId) {
      focusSource = sourceId;
      render();
    },
    /**
     * Outlines fragment `i` (or rewrite `i`, with kind "rewrite") in the mirror and scrolls the
     * textarea so it is visible; with `select`, also selects it.
     */
    reveal(i, { select = false } = {}, kind = "fragment") {
      for (const m of mirror.querySelectorAll("mark.active")) m.classList.remove("active");
      const parts = mirror.querySelectorAll(selectorOf(kind, i));
      if (parts.length === 0) return;
      for (const m of parts) m.classList.add("active");
      const mark = parts[0];
      const top = mark.offsetTop;
      const view = textarea.clientHeight;
      if (top < textarea.scrollTop || top + mark.offsetHeight > textarea.scrollTop + view) {
        textarea.scrollTop = Math.max(0, top - view / 3);
      }
      if (select) {
        const f = (kind === "rewrite" ? rewrites : fragments)[i];
        textarea.focus({ preventScroll: true });
        textarea.setSelectionRange(f.start, f.end);
      }
    },
    unreveal() {
      for (const m of mirror.querySelectorAll("mark.active")) m.classList.remove("active");
    },
    /** The index of the fragment containing UTF-16 offset `at`, or -1. */
    fragmentAt(at) {
      return fragments.findIndex((f) => at >= f.start && at < f.end);
    },
    /** The index of the rewrite containing UTF-16 offset `at`, or -1. */
    rewriteAt(at) {
      return rewrites.findIndex((f) => at >= f.start && at < f.end);
    },
    markAtPoint,
    caretRect,
  };
}

/** The visible text of pasted HTML (only when the clipboard has no text/plain flavour). */
function htmlToText(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  for (const el of doc.querySelectorAll("script, style, noscript, template")) el.remove();
  for (const el of doc.querySelectorAll("br")) el.replaceWith("\n");
  for (const el of doc.querySelectorAll("p, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote")) {
    el.append("\n");
  }
  return (doc.body?.textContent ?? "").replace(/\n{3,}/g, "\n\n").trim();
}
