// TextMap: the plain text an editor adapter hands to the engine, and the way back from the
// engine's UTF-16 offsets to the editor's own positions.
//
// The engine only sees text ("JS never tokenizes": DESIGN.md). An editor keeps its content in a
// tree (CKEditor 5's model, a contenteditable's DOM, ProseMirror's document), so an adapter walks
// that tree once, appending each run of text together with where it came from, and joins blocks
// with "\n\n". A fragment [start, end) of the report then maps back to a start and an end
// position in the tree, whatever formatting (bold, links, list items) lies in between. This file
// knows nothing about any editor: a position is just `{ ref, offset }`, whatever the adapter
// passed in (a model element and an offset in it, a DOM node and an offset in it, ...).

export class TextMap {
  constructor() {
    /** The text to check. */
    this.text = "";
    /** Runs of mapped text, in order: [start, end) in `text`, from `offset` in `ref`. */
    this.segments = [];
    this._pendingBreak = false;
    /**
     * [start, end) of the text's quotations that have no quotation marks in it (block quotes,
     * <q>): what adapters hand to the engine as `exclude.quoted` (withQuotations).
     */
    this.quoted = [];
  }

  /**
   * Appends `str`, which starts at `offset` in `ref`: character k of it is at `offset + k` there
   * (true of a CKEditor model text node in its parent, a DOM text node, and of a one-character
   * stand-in for an inline object or a line break, mapped to the offset before it).
   */
  appendText(str, ref, offset) {
    if (!str) return;
    if (this._pendingBreak && this.text.length > 0) this.text += "\n\n";
    this._pendingBreak = false;
    const start = this.text.length;
    this.text += str;
    this.segments.push({ start, end: this.text.length, ref, offset });
  }

  /**
   * Ends the current block: the next text, if any, starts after "\n\n", the separator the engine
   * and the page use between paragraphs. Repeated calls (empty blocks, nested blocks) add one.
   */
  breakBlock() {
    this._pendingBreak = true;
  }

  /**
   * Appends whatever `fill` appends as one quotation (an editor's block quote, a <q>): the
   * engine then counts its words as quoted when the check excludes quotations. Nested ones
   * overlap; the engine takes their union.
   */
  quotation(fill) {
    // Where the next text starts: after the pending block break, if any.
    const start = this.text.length + (this._pendingBreak && this.text.length > 0 ? 2 : 0);
    fill();
    if (this.text.length > start) this.quoted.push([start, this.text.length]);
  }

  /**
   * Where text offset `at` is in the tree. `side` decides offsets between two runs (a block
   * break, the boundary of two text nodes): "start" takes the beginning of the next run, "end"
   * the end of the previous one, so a range never leaks into a neighbouring block.
   * @returns {{ ref: any, offset: number } | null}
   */
  locate(at, side = "start") {
    const segs = this.segments;
    if (segs.length === 0) return null;
    if (side === "start") {
      // The first run that ends after `at`.
      let lo = 0;
      let hi = segs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (segs[mid].end > at) hi = mid;
        else lo = mid + 1;
      }
      if (lo === segs.length) return null;
      const s = segs[lo];
      return { ref: s.ref, offset: s.offset + Math.max(0, at - s.start) };
    }
    // The last run that starts before `at`.
    let lo = -1;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segs[mid].start < at) lo = mid;
      else hi = mid - 1;
    }
    if (lo < 0) return null;
    const s = segs[lo];
    return { ref: s.ref, offset: s.offset + Math.min(s.end, at) - s.start };
  }

  /** A fragment's [start, end) as two tree positions, or null when it covers no text. */
  rangeOf(start, end) {
    if (!(start < end) || start < 0 || end > this.text.length) return null;
    const from = this.locate(start, "start");
    const to = this.locate(end, "end");
    if (!from || !to) return null;
    // A fragment that lies entirely in a gap between runs maps to an inverted pair: nothing.
    const first = this.segments.findIndex((s) => s.end > start);
    const last = this.segments.findLastIndex((s) => s.start < end);
    if (first < 0 || last < first) return null;
    return { start: from, end: to };
  }
}

/** Block-level HTML elements: text on either side of one is a separate paragraph. */
const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE DD DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION TABLE TD TH TR UL".split(
    " ",
  ),
);
const SKIP = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);
/** Elements whose text is a quotation (HTML's own; the engine reads them so in HTML drafts). */
const QUOTATIONS = new Set(["BLOCKQUOTE", "Q"]);

/**
 * `options` for a check of `map.text`, with `map`'s quotations added to `exclude.quoted` when
 * the check leaves quotations out (`exclude.quotes`); otherwise `options` as they are.
 * @template {{ exclude?: { quotes?: boolean, quoted?: [number, number][] } }} O
 * @param {O | undefined} options
 * @param {TextMap} map
 * @returns {O | undefined}
 */
export function withQuotations(options, map) {
  if (!options?.exclude?.quotes || map.quoted.length === 0) return options;
  const quoted = [...(options.exclude.quoted ?? []), ...map.quoted];
  return { ...options, exclude: { ...options.exclude, quoted } };
}

/**
 * The TextMap of a DOM subtree (a contenteditable): text nodes map to themselves, <br> is "\n"
 * mapped to its place in the parent, block elements are separated by "\n\n".
 */
export function domText(root) {
  const map = new TextMap();
  const walk = (node) => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i];
      if (child.nodeType === 3) {
        map.appendText(child.data, child, 0);
      } else if (child.nodeType === 1) {
        if (SKIP.has(child.nodeName)) continue;
        if (child.nodeName === "BR") {
          map.appendText("\n", node, i);
          continue;
        }
        const block = BLOCKS.has(child.nodeName);
        if (block) map.breakBlock();
        if (QUOTATIONS.has(child.nodeName)) map.quotation(() => walk(child));
        else walk(child);
        if (block) map.breakBlock();
      }
    }
  };
  walk(root);
  return map;
}
