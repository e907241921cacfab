// The writing area: a plain <textarea> (native caret, undo, IME, spellcheck, mobile keyboards)
// over an aria-hidden mirror that repeats its text with <mark>s where fragments (copies) and
// rewrites match, and where the text hides look-alike letters or invisible characters. The
// mirror shares the textarea's box and typography (style.css: .editor .field), is sized to the
// textarea's client area (so a scrollbar never shifts the wrapping) and scrolls with it. The marks
// sit under the textarea, so the pointer never reaches them: hovering is found by hit-testing
// their boxes (markAtPoint), the caret by offsets (fragmentAt, rewriteAt).
//
// Large texts (issue 19: a 1 MB paste froze the page): the mirror is only filled when there is
// something to show (a report's marks; printing), never while typing; it is built in blocks that
// end at a line break (a block boundary there wraps exactly like the textarea's line break) and
// appended two per animation frame, so no frame lays out more than ~33,000 characters; no
// layout is ever read while building (the box is synced from the ResizeObserver's callback only).

/** Characters per mirror block (cut at the next line break), and blocks laid out per frame. */
const BLOCK_CHARS = 16_384;
const BLOCKS_PER_FRAME = 2;
/** Above this, a pasted text skips the editing command (slow on a megabyte) for setRangeText. */
const EXEC_COMMAND_MAX = 100_000;

/**
 * @param {{ textarea: HTMLTextAreaElement, backdrop: HTMLElement, mirror: HTMLElement }} els
 * @param {{ onInput: (text: string) => void, onCaret: (offset: number) => void,
 *           onHover?: (hit: { kind: "fragment" | "rewrite", index: number, rect: DOMRect } | null) => void }} hooks
 */
export function createEditor({ textarea, backdrop, mirror }, { onInput, onCaret, onHover = () => {} }) {
  let fragments = [];
  let rewrites = [];
  let disguises = [];
  let colourOf = () => 0;
  let focusSource = null;
  /** The mirror's build: a generation (a newer render cancels an older one) and its frame. */
  let generation = 0;
  let frame = 0;
  let pending = null; // the blocks still to append: { text, segments, at, seg }
  let active = null; // what reveal() outlines, re-applied to blocks appended later

  // Pasting keeps only the text: a web page's markup, styles and images never reach the draft. A
  // textarea's own paste of text/plain does exactly that: let it, up to EXEC_COMMAND_MAX
  // characters (it keeps the undo stack). Inserted here: an HTML-only clipboard, a paste event a
  // script dispatched (which the browser never performs), and a long text, with setRangeText: the
  // browser's own paste, like execCommand("insertText"), spends twice as long as setting the text
  // on a megabyte (0.4 s against 0.2 s in Chromium), and its frame is the longest of the paste.
  textarea.addEventListener("paste", (event) => {
    const data = event.clipboardData;
    if (!data) return;
    let text = data.getData("text/plain");
    if (text && event.isTrusted && text.length <= EXEC_COMMAND_MAX) return;
    if (!text && data.types.includes("text/html")) text = htmlToText(data.getData("text/html"));
    if (!text) return;
    event.preventDefault();
    insertText(text.replace(/\r\n?/g, "\n"));
  });

  textarea.addEventListener("input", () => {
    // The old marks no longer line up with the edited text: drop them (and the mirror's text,
    // which nothing shows until the next report) rather than lay the whole text out again.
    fragments = [];
    rewrites = [];
    disguises = [];
    clearMirror();
    onInput(textarea.value);
  });
  // Hovering a mark (through the textarea above it), at most once a frame.
  let pointer = null;
  let hoverFrame = 0;
  textarea.addEventListener("mousemove", (event) => {
    pointer = [event.clientX, event.clientY];
    if (!hoverFrame) {
      hoverFrame = requestAnimationFrame(() => {
        hoverFrame = 0;
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
  // The box follows the textarea's client area. Read here only: the observer runs after layout,
  // so these reads cost nothing, where reading them after each render forced a full layout.
  let borders = null;
  new ResizeObserver(() => {
    borders ??= getComputedStyle(textarea);
    backdrop.style.top = borders.borderTopWidth;
    backdrop.style.left = borders.borderLeftWidth;
    backdrop.style.width = `${textarea.clientWidth}px`;
    backdrop.style.height = `${textarea.clientHeight}px`;
    syncScroll();
  }).observe(textarea);

  function insertText(text) {
    textarea.focus();
    if (text.length > EXEC_COMMAND_MAX || !document.execCommand?.("insertText", false, text)) {
      textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  function syncScroll() {
    backdrop.scrollTop = textarea.scrollTop;
    backdrop.scrollLeft = textarea.scrollLeft;
  }

  function clearMirror() {
    generation += 1;
    cancelAnimationFrame(frame);
    frame = 0;
    pending = null;
    mirror.replaceChildren();
  }

  /**
   * The marked stretches of the text, in order, never overlapping and never holding a line break:
   * each with the copy or rewrite it belongs to (or none) and the disguise it shows (or none).
   */
  function segmentsOf(text) {
    const stretches = [
      ...fragments.map((f, i) => ({ f, i, kind: "fragment" })),
      ...rewrites.map((f, i) => ({ f, i, kind: "rewrite" })),
    ]
      // Never trust offsets blindly: out of range, empty or overlapping ones are left out.
      .filter(({ f }) => f.start < f.end && f.end <= text.length)
      .sort((a, b) => a.f.start - b.f.start)
      .filter((s, k, all) => k === 0 || s.f.start >= all[k - 1].f.end);
    const hidden = disguises.filter((d) => d.start < d.end && d.end <= text.length);
    const cuts = new Set([0, text.length]);
    for (const { f } of stretches) cuts.add(f.start).add(f.end);
    for (const d of hidden) cuts.add(d.start).add(d.end);
    const points = [...cuts].sort((a, b) => a - b);
    const out = [];
    let s = 0;
    let h = 0;
    const open = [];
    for (let k = 0; k + 1 < points.length; k++) {
      const [a, b] = [points[k], points[k + 1]];
      while (s < stretches.length && stretches[s].f.end <= a) s++;
      const stretch = s < stretches.length && stretches[s].f.start <= a ? stretches[s] : null;
      while (h < hidden.length && hidden[h].start <= a) open.push(hidden[h++]);
      for (let o = open.length - 1; o >= 0; o--) if (open[o].end <= a) open.splice(o, 1);
      const kinds = [...new Set(open.map((d) => d.kind))];
      if (!stretch && kinds.length === 0) continue;
      // One piece per line: line breaks stay outside, so a blank line between two copied
      // paragraphs is not painted as a sliver (and a block boundary never cuts a mark).
      let from = a;
      for (const line of text.slice(a, b).split("\n")) {
        if (line) out.push({ start: from, end: from + line.length, stretch, kinds });
        from += line.length + 1;
      }
    }
    return out;
  }

  /** Fills the mirror for the current text and marks: at once when small, else frame by frame. */
  function render() {
    clearMirror();
    const text = textarea.value;
    if (!text) return;
    pending = { text, segments: segmentsOf(text), at: 0, seg: 0, gen: generation };
    appendBlocks(text.length <= BLOCK_CHARS * BLOCKS_PER_FRAME ? Infinity : BLOCKS_PER_FRAME);
  }

  function appendBlocks(count) {
    const job = pending;
    if (!job || job.gen !== generation) return;
    const { text, segments } = job;
    const out = document.createDocumentFragment();
    for (let n = 0; n < count && job.at < text.length; n++) {
      // A block ends just after a line break (or at the end): the next block starts a new line
      // exactly where the textarea does.
      const nl = text.indexOf("\n", Math.min(text.length, job.at + BLOCK_CHARS));
      const end = nl < 0 ? text.length : nl + 1;
      const block = document.createElement("div");
      let at = job.at;
      while (job.seg < segments.length && segments[job.seg].start < end) {
        const seg = segments[job.seg++];
        block.append(text.slice(at, seg.start), markOf(text, seg));
        at = seg.end;
      }
      // A trailing line break in a textarea opens a new line; in a div it does not, without this.
      block.append(text.slice(at, end) + (end === text.length ? "\u200b" : ""));
      out.append(block);
      job.at = end;
    }
    mirror.append(out);
    if (active) outline(active);
    syncScroll();
    if (job.at < text.length) {
      frame = requestAnimationFrame(() => appendBlocks(BLOCKS_PER_FRAME));
    } else {
      pending = null;
    }
  }

  function markOf(text, { start, end, stretch, kinds }) {
    const content = text.slice(start, end);
    const hid = (node) => {
      if (kinds.length === 0) return node;
      const span = document.createElement("span");
      span.className = `hid ${kinds.map((k) => (k === "mixed_script" ? "hid-mixed" : "hid-invisible")).join(" ")}`;
      span.dataset.start = String(start);
      span.append(node);
      return span;
    };
    if (!stretch) return hid(content);
    const { f, i, kind } = stretch;
    const mark = document.createElement("mark");
    mark.className = `c${colourOf(f.sources[0])}`;
    mark.dataset.start = String(start);
    if (kind === "rewrite") {
      mark.dataset.rewrite = String(i);
      mark.classList.add("rw");
    } else {
      mark.dataset.index = String(i);
      if (f.sources.length > 1) mark.classList.add("multi");
    }
    if (focusSource !== null && !f.sources.includes(focusSource)) mark.classList.add("dim");
    mark.append(hid(content));
    return mark;
  }

  /** Appends every block still pending, now (printing needs the whole text). */
  function flush() {
    if (pending) appendBlocks(Infinity);
  }

  function setFragments(next, colour, nextRewrites = [], nextDisguises = []) {
    fragments = next;
    rewrites = nextRewrites;
    disguises = nextDisguises;
    colourOf = colour;
    active = null;
    render();
  }

  const selectorOf = (kind, i) => (kind === "rewrite" ? `mark[data-rewrite="${i}"]` : `mark[data-index="${i}"]`);

  /** The mark under viewport point (x, y): its kind, index and the box of the piece hit. */
  function markAtPoint(x, y) {
    const box = textarea.getBoundingClientRect();
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) return null;
    // Only the blocks on screen: a long text has thousands of marks.
    for (const block of mirror.children) {
      const b = block.getBoundingClientRect();
      if (y < b.top || y > b.bottom) continue;
      for (const mark of block.querySelectorAll("mark")) {
        for (const rect of mark.getClientRects()) {
          if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) {
            const rewrite = mark.dataset.rewrite !== undefined;
            return { kind: rewrite ? "rewrite" : "fragment", index: Number(rewrite ? mark.dataset.rewrite : mark.dataset.index), rect };
          }
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

  /** Outlines the marks of `active` ({ kind, i, range }) that are in the mirror. */
  function outline({ kind, i, range }) {
    const parts = [...mirror.querySelectorAll(selectorOf(kind, i))].filter(
      (m) => !range || (Number(m.dataset.start) >= range[0] && Number(m.dataset.start) < range[1]),
    );
    for (const m of parts) m.classList.add("active");
    return parts;
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
    /**
     * The report's fragments (and rewrites) for the CURRENT text, the colour index of a source
     * id, and the sketch's disguises (look-alike letters, invisible characters) to flag.
     */
    setFragments,
    /** Puts the whole text in the mirror now (before printing). */
    flush,
    /** Dims every fragment but those of `sourceId` (null: none dimmed). */
    setFocusSource(sourceId) {
      focusSource = sourceId;
      render();
    },
    /**
     * Outlines fragment `i` (or rewrite `i`, with kind "rewrite") in the mirror and scrolls the
     * textarea so it is visible; with `select`, also selects it. With `range` ([start, end), one
     * paragraph of a stretch spanning several), only that piece.
     */
    reveal(i, { select = false, range = null } = {}, kind = "fragment") {
      for (const m of mirror.querySelectorAll("mark.active")) m.classList.remove("active");
      active = { kind, i, range };
      const parts = outline(active);
      const f = (kind === "rewrite" ? rewrites : fragments)[i];
      if (!f) return;
      const [start, end] = range ?? [f.start, f.end];
      const mark = parts[0];
      if (mark) {
        const top = mark.offsetTop;
        const view = textarea.clientHeight;
        if (top < textarea.scrollTop || top + mark.offsetHeight > textarea.scrollTop + view) {
          textarea.scrollTop = Math.max(0, top - view / 3);
        }
      }
      if (select) {
        textarea.focus({ preventScroll: Boolean(mark) });
        textarea.setSelectionRange(start, end);
      }
    },
    unreveal() {
      active = null;
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
    /** The disguise (look-alike letters, invisible characters) at UTF-16 offset `at`, or null. */
    disguiseAt(at) {
      return disguises.find((d) => at >= d.start && (at < d.end || (d.kind === "invisible" && at === d.end))) ?? null;
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
