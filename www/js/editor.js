// The writing area: a CodeMirror 6 editor (www/vendor/codemirror/, copied from node_modules by
// scripts/build-pkg; www/index.html's import map names its modules). Fragments (copies),
// rewrites, translations and the text's disguises (look-alike letters, invisible characters) are
// mark decorations: the <mark>s sit in the text itself, so they line up with it by construction
// and the pointer reaches them. Editing, the caret, IME, mobile keyboards and undo (Ctrl+Z,
// Ctrl+Shift+Z / Ctrl+Y; a paste, the sample and clearing are undoable edits too) are the editor's.
//
// Why not a <textarea> (issue 19: "pasting 1 MB keeps every animation frame under 250 ms"):
// Chromium lays a textarea's whole text out in the frame that receives it (one inline formatting
// context; 200-350 ms for a megabyte, appended in pieces it costs as much per piece), while
// CodeMirror draws only the lines in view and estimates the height of the rest: the frame of a
// 1 MB Ctrl+V takes about 20 ms (docs/PERFORMANCE.md).
//
// Printing needs the whole text: `mirror` (shown in print only, display: none on screen, so
// filling it costs no layout) repeats the text with the same marks, built in blocks that end at a
// line break, two per animation frame after each report, and at once before printing (flush).

import { EditorView, Decoration, keymap, placeholder } from "@codemirror/view";
import { EditorState, StateField, StateEffect, Compartment } from "@codemirror/state";
import { history, historyKeymap, defaultKeymap } from "@codemirror/commands";
import { search, searchKeymap } from "@codemirror/search";

/** Characters per print-copy block (cut at the next line break), and blocks built per frame. */
const BLOCK_CHARS = 16_384;
const BLOCKS_PER_FRAME = 2;

/**
 * The editor's own words (its find and replace panel) in Russian; English is CodeMirror's.
 * Ctrl+F in the editor opens that panel: the browser's own find sees only the lines drawn.
 */
const PHRASES = {
  ru: {
    Find: "Найти",
    Replace: "Заменить на",
    next: "следующее",
    previous: "предыдущее",
    all: "все",
    "match case": "с учётом регистра",
    "by word": "слово целиком",
    regexp: "рег. выражение",
    replace: "заменить",
    "replace all": "заменить все",
    close: "закрыть",
    "current match": "текущее совпадение",
    "replaced $ matches": "заменено совпадений: $",
    "replaced match on line $": "заменено совпадение в строке $",
    "on line": "в строке",
    "Go to line": "Перейти к строке",
    go: "перейти",
  },
};

/**
 * How each kind of highlighted stretch is marked: the class beside its source's colour (style.css
 * draws a copy solid, `rw` tinted with a dashed underline, `tr` tinted with a dotted one) and the
 * data attribute holding its index in the report's list of that kind.
 */
const MARKS = {
  fragment: { className: null, index: "data-index" },
  rewrite: { className: "rw", index: "data-rewrite" },
  translation: { className: "tr", index: "data-translation" },
};
const KINDS = Object.keys(MARKS);
const noStretches = () => Object.fromEntries(KINDS.map((kind) => [kind, []]));

/** Replaces the marks shown (a DecorationSet). */
const setMarks = StateEffect.define();
/**
 * The marks of the last report. An edit moves them with the text it shifts (as a spell checker's
 * underlines move) instead of dropping them: they stay where they were until the next report
 * replaces them, so typing never makes the page flash. The report's offsets no longer hold then,
 * so nothing reads them back (the tooltip and the caret line wait for the new report).
 */
const marksField = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) if (effect.is(setMarks)) return effect.value;
    return tr.docChanged ? marks.map(tr.changes) : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * @param {{ parent: HTMLElement, mirror: HTMLElement, label?: HTMLElement, describedBy?: string }} els
 *   `parent` receives the editor (its editable element gets the id "draft"); `mirror` is the print copy.
 * @param {{ onInput: (text: string, edit: { typing: boolean }) => void, onCaret: (offset: number) => void,
 *           onHover?: (hit: { kind: "fragment" | "rewrite" | "translation", index: number, rect: DOMRect } | null) => void }} hooks
 */
export function createEditor({ parent, mirror, label, describedBy = "" }, { onInput, onCaret, onHover = () => {} }) {
  /** The report's stretches by kind (MARKS): { fragment: [...], rewrite: [...], translation: [...] }. */
  let stretches = noStretches();
  let disguises = [];
  let colourOf = () => 0;
  let focusSource = null;
  let active = null; // what reveal() outlines: { kind, i, range }
  /** The print copy's build: a generation (a newer render cancels an older one) and its frame. */
  let generation = 0;
  let frame = 0;
  let pending = null; // the blocks still to append: { text, segments, at, seg, gen }
  /** The document as one string, made once per version of it (a megabyte's join costs ms). */
  let text = null;
  /** Set while a reveal() scrolls: only the editor's own scroller moves, never the page. */
  let scrollOnlyEditor = false;
  const language = new Compartment();
  let lang = "ru";
  let placeholderWords = "";
  const languageExtensions = () => [
    EditorState.phrases.of(PHRASES[lang] ?? {}),
    placeholderWords ? placeholder(placeholderWords) : [],
  ];

  const extensions = () => [
    history(),
    search({ top: true }),
    keymap.of([...searchKeymap, ...defaultKeymap, ...historyKeymap]),
    EditorView.lineWrapping,
    language.of(languageExtensions()),
    marksField,
    EditorView.contentAttributes.of({
      id: "draft",
      spellcheck: "false",
      autocorrect: "off",
      autocapitalize: "off",
      ...(label?.id ? { "aria-labelledby": label.id } : {}),
      ...(describedBy ? { "aria-describedby": describedBy } : {}),
    }),
    EditorView.domEventHandlers({
      // Pasting keeps only the text: the editor's own paste takes text/plain (a web page's
      // markup, styles and images never reach the draft); an HTML-only clipboard is turned into
      // its visible text here, as one undoable edit like any paste.
      paste(event, v) {
        const data = event.clipboardData;
        if (!data || data.getData("text/plain") || !data.types.includes("text/html")) return false;
        const plain = htmlToText(data.getData("text/html"));
        event.preventDefault();
        if (plain) v.dispatch(v.state.replaceSelection(plain), { userEvent: "input.paste", scrollIntoView: true });
        return true;
      },
      focus: (_event, v) => {
        onCaret(v.state.selection.main.head);
        return false;
      },
      mousemove: (event) => {
        pointer = [event.clientX, event.clientY];
        hoverFrame ||= requestAnimationFrame(() => {
          hoverFrame = 0;
          if (pointer) onHover(markAtPoint(...pointer));
        });
        return false;
      },
      mouseleave: () => {
        pointer = null;
        onHover(null);
        return false;
      },
    }),
    // reveal() scrolls the text, not the page (the list the reader is in stays where it is): the
    // editor scrolls its own box and the page's as usual, and the page's position is put back
    // before anything is painted (the handler runs in the editor's measuring frame).
    EditorView.scrollHandler.of(() => {
      if (!scrollOnlyEditor) return false;
      scrollOnlyEditor = false;
      const [x, y] = [window.scrollX, window.scrollY];
      queueMicrotask(() => window.scrollTo(x, y));
      return false;
    }),
  ];

  let pointer = null;
  let hoverFrame = 0;
  const view = new EditorView({
    parent,
    state: EditorState.create({ doc: "", extensions: extensions() }),
    // Hooks run after the editor has updated (so they may read its layout or update it again).
    dispatchTransactions(trs, v) {
      v.update(trs);
      const changed = trs.some((tr) => tr.docChanged);
      if (changed) {
        text = null;
        stretches = noStretches();
        disguises = [];
        active = null;
        clearMirror();
        // Typing and deleting come a key at a time: the check waits for a pause. A paste, a drop,
        // the sample, undo and redo are whole edits: checked at once.
        const typing = trs.every((tr) => !tr.docChanged || tr.isUserEvent("input.type") || tr.isUserEvent("delete"));
        onInput(value(), { typing });
      }
      if (changed || trs.some((tr) => tr.selection)) onCaret(v.state.selection.main.head);
    },
  });
  label?.addEventListener("click", () => view.focus());

  const value = () => (text ??= view.state.doc.toString());

  /**
   * The report's copies, rewrites and translations that can be shown: in range, non-empty, not
   * overlapping (offsets are never trusted blindly), in order.
   */
  function stretchesOf(length) {
    return KINDS.flatMap((kind) => stretches[kind].map((f, i) => ({ f, i, kind })))
      .filter(({ f }) => f.start < f.end && f.end <= length)
      .sort((a, b) => a.f.start - b.f.start)
      .filter((s, k, all) => k === 0 || s.f.start >= all[k - 1].f.end);
  }

  /** The disguises that can be shown (in range, non-empty). */
  const hiddenOf = (length) => disguises.filter((d) => d.start < d.end && d.end <= length);

  /** [start, end) of each line of text[start, end): line breaks stay outside the marks. */
  function* lines(content, start, end) {
    let from = start;
    for (const line of content.slice(start, end).split("\n")) {
      if (line) yield [from, from + line.length];
      from += line.length + 1;
    }
  }

  /** The classes and data attributes of a mark of `stretch` starting at `start`. */
  function markSpec({ f, i, kind }, start) {
    const { className, index } = MARKS[kind];
    const classes = [`c${colourOf(f.sources[0])}`];
    const attributes = { "data-start": String(start), [index]: String(i) };
    if (className) classes.push(className);
    // A copy of several sources is hatched; the others name their sources in the tooltip only.
    if (kind === "fragment" && f.sources.length > 1) classes.push("multi");
    if (focusSource !== null && !f.sources.includes(focusSource)) classes.push("dim");
    if (active && active.kind === kind && active.i === i && (!active.range || (start >= active.range[0] && start < active.range[1]))) {
      classes.push("active");
    }
    return { class: classes.join(" "), attributes };
  }

  const hidClass = (kinds) => `hid ${kinds.map((k) => (k === "mixed_script" ? "hid-mixed" : "hid-invisible")).join(" ")}`;

  /** The editor's marks: one <mark> per line of each stretch, one span per disguise. */
  function decorations() {
    const content = value();
    const ranges = [];
    for (const stretch of stretchesOf(content.length)) {
      for (const [a, b] of lines(content, stretch.f.start, stretch.f.end)) {
        const { class: cls, attributes } = markSpec(stretch, a);
        ranges.push(Decoration.mark({ tagName: "mark", class: cls, attributes }).range(a, b));
      }
    }
    for (const d of hiddenOf(content.length)) {
      for (const [a, b] of lines(content, d.start, d.end)) {
        ranges.push(Decoration.mark({ class: hidClass([d.kind]), attributes: { "data-start": String(a) } }).range(a, b));
      }
    }
    return Decoration.set(ranges, true);
  }

  /** Shows the current marks in the editor, and rebuilds the print copy. */
  function render() {
    view.dispatch({ effects: setMarks.of(decorations()) });
    renderMirror();
  }

  // The print copy.

  function clearMirror() {
    generation += 1;
    cancelAnimationFrame(frame);
    frame = 0;
    pending = null;
    mirror.replaceChildren();
  }

  /**
   * The marked stretches of the text, in order, never overlapping and never holding a line break:
   * each with the copy, rewrite or translation it belongs to (or none) and the disguises it shows
   * (or none).
   */
  function segmentsOf(content) {
    const stretches = stretchesOf(content.length);
    const hidden = hiddenOf(content.length);
    const cuts = new Set([0, content.length]);
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
      for (const [from, to] of lines(content, a, b)) out.push({ start: from, end: to, stretch, kinds });
    }
    return out;
  }

  /**
   * Fills the print copy for the current text and marks: at once when small, else frame by frame
   * from the next frame on (the one showing a report has enough to do).
   */
  function renderMirror() {
    clearMirror();
    const content = value();
    if (!content) return;
    pending = { text: content, segments: null, at: 0, seg: 0, gen: generation };
    if (content.length <= BLOCK_CHARS * BLOCKS_PER_FRAME) appendBlocks(Infinity);
    else frame = requestAnimationFrame(() => appendBlocks(BLOCKS_PER_FRAME));
  }

  function appendBlocks(count) {
    const job = pending;
    if (!job || job.gen !== generation) return;
    job.segments ??= segmentsOf(job.text);
    const { text: content, segments } = job;
    const out = document.createDocumentFragment();
    for (let n = 0; n < count && job.at < content.length; n++) {
      const nl = content.indexOf("\n", Math.min(content.length, job.at + BLOCK_CHARS));
      const end = nl < 0 ? content.length : nl + 1;
      const block = document.createElement("div");
      let at = job.at;
      while (job.seg < segments.length && segments[job.seg].start < end) {
        const seg = segments[job.seg++];
        block.append(content.slice(at, seg.start), mirrorMark(content, seg));
        at = seg.end;
      }
      block.append(content.slice(at, end));
      out.append(block);
      job.at = end;
    }
    mirror.append(out);
    if (job.at < content.length) {
      frame = requestAnimationFrame(() => appendBlocks(BLOCKS_PER_FRAME));
    } else {
      pending = null;
    }
  }

  function mirrorMark(content, { start, end, stretch, kinds }) {
    let node = content.slice(start, end);
    if (kinds.length) {
      const span = document.createElement("span");
      span.className = hidClass(kinds);
      span.append(node);
      node = span;
    }
    if (!stretch) return node;
    const { class: cls, attributes } = markSpec(stretch, start);
    const mark = document.createElement("mark");
    mark.className = cls;
    for (const [k, v] of Object.entries(attributes)) mark.setAttribute(k, v);
    mark.append(node);
    return mark;
  }

  /** Appends every print-copy block still pending, now (printing needs the whole text). */
  function flush() {
    if (pending) appendBlocks(Infinity);
  }

  /** The mark under viewport point (x, y): its kind, index and the box of the piece hit. */
  function markAtPoint(x, y) {
    const hit = document.elementFromPoint(x, y);
    const mark = hit?.closest?.("mark");
    if (!mark || !view.contentDOM.contains(mark)) return null;
    const rects = [...mark.getClientRects()];
    const rect = rects.find((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) ?? rects[0];
    if (!rect) return null;
    const kind = KINDS.find((k) => mark.hasAttribute(MARKS[k].index));
    return kind ? { kind, index: Number(mark.getAttribute(MARKS[kind].index)), rect } : null;
  }

  /** The index of the stretch of `kind` containing UTF-16 offset `at`, or -1. */
  function indexAt(kind, at) {
    return stretches[kind].findIndex((f) => at >= f.start && at < f.end);
  }

  /** The box of the character at UTF-16 offset `at` (of the one before it at a line's end). */
  function caretRect(at) {
    if (at < 0 || at > view.state.doc.length) return null;
    const c = view.coordsAtPos(at, 1) ?? view.coordsAtPos(at, -1);
    return c ? new DOMRect(c.left, c.top, Math.max(1, c.right - c.left), c.bottom - c.top) : null;
  }

  return {
    /** The editor (CodeMirror's EditorView). */
    view,
    get value() {
      return value();
    },
    /** Replaces the whole text (the sample, clearing), as one undoable edit. */
    setValue(next) {
      view.focus();
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: next },
        selection: { anchor: 0 },
        userEvent: next ? "input.replace" : "delete",
      });
      view.scrollDOM.scrollTop = 0;
    },
    /** Sets the text without an input event or an undo step (restoring a saved draft at start-up). */
    restore(next) {
      view.setState(EditorState.create({ doc: next, extensions: extensions() }));
      text = null;
      render();
    },
    /** The interface's language ("ru", "en") and the text shown while the editor is empty, in it. */
    setLanguage(code, placeholderText) {
      lang = code;
      placeholderWords = placeholderText;
      view.dispatch({ effects: language.reconfigure(languageExtensions()) });
    },
    /**
     * The report's stretches for the CURRENT text, by kind (`{ fragment, rewrite, translation }`,
     * a kind left out shows none), the colour index of a source id, and the sketch's disguises
     * (look-alike letters, invisible characters) to flag.
     */
    setStretches(next, colour, nextDisguises = []) {
      stretches = { ...noStretches(), ...next };
      disguises = nextDisguises;
      colourOf = colour;
      active = null;
      render();
    },
    /** Puts the whole text in the print copy now (before printing). */
    flush,
    /** Dims every fragment but those of `sourceId` (null: none dimmed). */
    setFocusSource(sourceId) {
      focusSource = sourceId;
      render();
    },
    /**
     * Outlines fragment `i` (or stretch `i` of another kind: "rewrite", "translation") and
     * scrolls the text so it is visible; with `select`, also selects it. With `range` ([start,
     * end), one paragraph of a stretch spanning several), only that piece.
     */
    reveal(i, { select = false, range = null } = {}, kind = "fragment") {
      active = { kind, i, range };
      const f = stretches[kind]?.[i];
      const [start, end] = range ?? (f ? [f.start, f.end] : [0, 0]);
      const shown = f && end <= view.state.doc.length;
      scrollOnlyEditor = Boolean(shown);
      // Should the editor find nothing to scroll, the flag must not catch a later scroll.
      if (shown) requestAnimationFrame(() => requestAnimationFrame(() => (scrollOnlyEditor = false)));
      view.dispatch({
        effects: [setMarks.of(decorations()), ...(shown ? [EditorView.scrollIntoView(start, { y: "nearest", yMargin: 80 })] : [])],
        ...(shown && select ? { selection: { anchor: start, head: end } } : {}),
      });
      if (shown && select) view.focus();
    },
    unreveal() {
      if (!active) return;
      active = null;
      view.dispatch({ effects: setMarks.of(decorations()) });
    },
    /** The index of the fragment containing UTF-16 offset `at`, or -1. */
    fragmentAt: (at) => indexAt("fragment", at),
    /** The index of the rewrite containing UTF-16 offset `at`, or -1. */
    rewriteAt: (at) => indexAt("rewrite", at),
    /** The index of the translation containing UTF-16 offset `at`, or -1. */
    translationAt: (at) => indexAt("translation", at),
    /** The stretch containing UTF-16 offset `at` (`{ kind, index }`), or null. */
    stretchAt(at) {
      for (const kind of KINDS) {
        const index = indexAt(kind, at);
        if (index >= 0) return { kind, index };
      }
      return null;
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
