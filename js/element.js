// <uniq-check for="editor-id">: the framework-agnostic adapter. It checks the text of any
// <textarea> (or <input>) or contenteditable element and shows the package's report panel
// (../ui/report.js, the same components as the copywriter's page and the CKEditor 5 plugin).
//
//   <textarea id="body"></textarea>
//   <uniq-check for="body" manifest="/packs/manifest.json" lang="ru" live></uniq-check>
//   <script type="module">import "uniqcheck/element";</script>
//
// Attributes: `for` (the id of the field), `manifest` (the packs' manifest URL, default
// /packs/manifest.json), `lang` (ru|en; default the document's), `debounce` (ms), `live` (check
// while typing; without it, a "Check uniqueness" button). Changing them after connection is not
// supported: replace the element instead.
//
// Highlighting depends on the field: a contenteditable gets CSS Custom Highlights (registered
// ranges painted by the browser: nothing is inserted into the content), copies solid, rewrites
// tinted with a dashed underline and translations tinted with a dotted one, and a tooltip names
// the source of the stretch under the pointer or the caret; a textarea cannot paint inside
// itself, so it gets the panel (whose caret line names the source of the stretch under the
// caret), and choosing a fragment, a rewrite or a translation selects it in the field. Any other
// editor (TinyMCE, Tiptap, ...) plugs in a thin adapter: set `element.adapter` before connecting
// it (see UniqCheckAdapter in element.d.ts).

import { createReportPanel, ensureStyles, PALETTE_SIZE, STRETCH_KINDS, stretchesOf } from "./ui/report.js";
import { createTip } from "./ui/tip.js";
import { createTranslator, describeError } from "./ui/i18n.js";
import { createCheckRunner } from "./ui/runner.js";
import { domText, withQuotations } from "./textmap.js";

// The mapping half of an adapter, for other editors' adapters.
export { TextMap, domText } from "./textmap.js";

/**
 * Whether an `input` event is typing or deleting, which comes a key at a time (the check waits for
 * a pause), rather than a whole edit such as a paste, a drop or an undo (checked at once).
 */
function isTyping(event) {
  return /^(insertText|insertCompositionText|insertLineBreak|insertParagraph|delete)/.test(event?.inputType ?? "insertText");
}

/** A <textarea> or <input>: its value is the text, offsets are its own. */
export function textareaAdapter(field) {
  return {
    read: () => ({ text: field.value, map: null }),
    subscribe(onChange) {
      const listener = (event) => onChange({ typing: isTyping(event) });
      field.addEventListener("input", listener);
      return () => field.removeEventListener("input", listener);
    },
    reveal(fragment, { select }) {
      if (!select) return;
      field.focus({ preventScroll: false });
      field.setSelectionRange(fragment.start, fragment.end);
    },
    /** The caret's offset in the text (the element finds the stretch holding it). */
    caretOffset: () => (document.activeElement === field ? field.selectionStart : null),
  };
}

// Custom highlights are per document and painted by name, a name per kind and source colour
// (report.css: ::highlight(uniqcheck-cN) for copies, ::highlight(uniqcheck-rw-cN) for rewrites,
// ::highlight(uniqcheck-tr-cN) for translations); each element keeps its own ranges here and the
// registry is the union.
const HIGHLIGHTS = { fragment: "uniqcheck-c", rewrite: "uniqcheck-rw-c", translation: "uniqcheck-tr-c" };
/** The kinds painted, in the package's order (the order a point or the caret is looked up in). */
const KINDS = STRETCH_KINDS.filter((kind) => HIGHLIGHTS[kind]);
const painted = new Map(); // owner → { [kind]: Range[][] by colour, mixed: Range[] }

function repaint() {
  if (!globalThis.CSS?.highlights || typeof Highlight === "undefined") return;
  // Words mixing alphabets (report.css: ::highlight(uniqcheck-mixed), a red wavy underline).
  const mixed = [...painted.values()].flatMap((byKind) => byKind.mixed ?? []);
  if (mixed.length) CSS.highlights.set("uniqcheck-mixed", new Highlight(...mixed));
  else CSS.highlights.delete("uniqcheck-mixed");
  for (const kind of KINDS) {
    const prefix = HIGHLIGHTS[kind];
    for (let c = 0; c < PALETTE_SIZE; c++) {
      const ranges = [...painted.values()].flatMap((byKind) => byKind[kind]?.[c] ?? []);
      if (ranges.length) CSS.highlights.set(`${prefix}${c}`, new Highlight(...ranges));
      else CSS.highlights.delete(`${prefix}${c}`);
    }
  }
}

/** The client box of `range` holding viewport point (x, y), or null. */
function boxAt(range, x, y) {
  for (const rect of range.getClientRects()) {
    if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) return rect;
  }
  return null;
}

/** A contenteditable element: text from its DOM, its stretches of every kind painted as custom highlights. */
export function contentEditableAdapter(field) {
  const owner = {};
  /** The live ranges of the stretches painted, by kind, each list in the report's order. */
  let ranges = {};
  const toRanges = (list, map, colourOf, byColour) =>
    list.map((f) => {
      const r = map?.rangeOf(f.start, f.end);
      if (!r) return null;
      const range = document.createRange();
      range.setStart(r.start.ref, r.start.offset);
      range.setEnd(r.end.ref, r.end.offset);
      (byColour[colourOf(f.sources[0]) % PALETTE_SIZE] ??= []).push(range);
      return range;
    });
  const stretches = () => KINDS.flatMap((kind) => (ranges[kind] ?? []).map((range, index) => ({ kind, index, range })));
  return {
    // Live DOM ranges move with the text as it is edited: the highlights stay until the next report.
    followsEdits: true,
    read() {
      const map = domText(field);
      return { text: map.text, map };
    },
    subscribe(onChange) {
      const listener = (event) => onChange({ typing: isTyping(event) });
      field.addEventListener("input", listener);
      return () => field.removeEventListener("input", listener);
    },
    highlight(fragments, map, colourOf, rewrites = [], disguises = [], translations = []) {
      const lists = { fragment: fragments, rewrite: rewrites, translation: translations };
      const byColour = {};
      ranges = {};
      for (const kind of KINDS) ranges[kind] = toRanges(lists[kind] ?? [], map, colourOf, (byColour[kind] = []));
      // Invisible characters have no width to paint: the panel counts them.
      const words = disguises.filter((d) => d.kind === "mixed_script").map((d) => ({ ...d, sources: [] }));
      const mixed = toRanges(words, map, () => 0, []).filter(Boolean);
      painted.set(owner, { ...byColour, mixed });
      repaint();
    },
    clear() {
      ranges = {};
      painted.delete(owner);
      repaint();
    },
    reveal(fragment, { select }, i, kind = "fragment") {
      const range = ranges[kind]?.[i];
      if (!range) return;
      range.startContainer.parentElement?.scrollIntoView({ block: "nearest" });
      if (select) {
        field.focus();
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range.cloneRange());
      }
    },
    /** The painted stretch under viewport point (x, y): its kind, index and the box hit. */
    hitTest(x, y) {
      for (const { kind, index, range } of stretches()) {
        const rect = range && boxAt(range, x, y);
        if (rect) return { kind, index, rect };
      }
      return null;
    },
    /** The painted stretch holding the caret (a collapsed selection in the field), or null. */
    caretHit() {
      const sel = getSelection();
      if (!sel?.rangeCount || !sel.isCollapsed || !field.contains(sel.anchorNode)) return null;
      const { anchorNode: node, anchorOffset: offset } = sel;
      for (const { kind, index, range } of stretches()) {
        // Inside, or at its start; the position just after its last character is outside.
        if (!range || range.comparePoint(node, offset) !== 0) continue;
        if (node === range.endContainer && offset === range.endOffset) continue;
        const caret = sel.getRangeAt(0).getBoundingClientRect();
        const rect = caret.width || caret.height ? caret : range.getClientRects()[0];
        return { kind, index, rect };
      }
      return null;
    },
  };
}

export class UniqCheckElement extends HTMLElement {
  // Not class fields: a field would overwrite an `adapter` set on the element before it was
  // upgraded (an integrator's script may run before this module). `adapter`: a custom adapter
  // for another editor, set before the element is connected; `report`, `text`: the last report
  // and the text it is for.

  connectedCallback() {
    if (this._started) return;
    const target = this.getAttribute("for") && document.getElementById(this.getAttribute("for"));
    if (!target && !this.adapter) {
      // The field may come later in the document: try once more when it is parsed.
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", () => this.connectedCallback(), { once: true });
      } else {
        console.warn(`uniqcheck: <uniq-check for="${this.getAttribute("for")}"> names no element`);
      }
      return;
    }
    this._started = true;
    this._target = target || null;
    this._adapter =
      this.adapter ??
      (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement
        ? textareaAdapter(target)
        : contentEditableAdapter(target));
    this._start();
  }

  disconnectedCallback() {
    this._unsubscribe?.();
    this._unlisten?.();
    this._tip?.hide();
    this._tip?.element.remove();
    this._runner?.cancel();
    this._runner?.ready.then((c) => c.terminate(), () => {});
    this._adapter?.clear?.();
    this._started = false;
    this.replaceChildren();
  }

  /** Checks the field's current text now. */
  check() {
    this._runner.now(this._adapter.read().text);
  }

  get live() {
    return this._live;
  }

  set live(on) {
    this._live = Boolean(on);
    if (this._liveBox) this._liveBox.checked = this._live;
    if (this._live && this._runner) this.check();
  }

  /** The engine's exclusions from the `exclude-*` attributes (undefined: none). */
  _attributeOptions() {
    const list = (name) => (this.getAttribute(name) ?? "").split(/\s+/).filter(Boolean);
    const exclude = { urls: list("exclude-urls"), domains: list("exclude-domains"), quotes: this.hasAttribute("exclude-quotes") };
    return exclude.quotes || exclude.urls.length || exclude.domains.length ? { exclude } : undefined;
  }

  _start() {
    const lang = this.getAttribute("lang") ?? document.documentElement.lang ?? navigator.language;
    const i18n = createTranslator(lang);
    ensureStyles(document);
    this._live = this.hasAttribute("live");
    let current = { text: "", map: null };
    /** The panel's hook revealing stretch `i` of `kind` in the field. */
    const reveal = (kind) => (i, opts = {}) => {
      const f = stretchesOf(this.report, kind)[i];
      // One paragraph of a stretch spanning several (opts.range), or all of it.
      const piece = f && opts.range ? { ...f, start: opts.range[0], end: opts.range[1] } : f;
      if (f) this._adapter.reveal?.(piece, { select: Boolean(opts.select) }, i, kind);
    };
    const panel = createReportPanel({
      i18n,
      hooks: {
        onRevealFragment: reveal("fragment"),
        onRevealRewrite: reveal("rewrite"),
        onRevealTranslation: reveal("translation"),
      },
    });
    this.panel = panel;
    this._tip = createTip(document);

    // The controls: the check button and the live switch, as in the editor plugin.
    const bar = document.createElement("div");
    bar.className = "uq-controls";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = i18n.t("checkButton");
    button.addEventListener("click", () => this.check());
    const label = document.createElement("label");
    this._liveBox = document.createElement("input");
    this._liveBox.type = "checkbox";
    this._liveBox.checked = this._live;
    this._liveBox.addEventListener("change", () => (this.live = this._liveBox.checked));
    label.append(this._liveBox, " ", i18n.t("liveToggle"));
    bar.append(button, label);
    this.replaceChildren(bar, panel.element);
    panel.setState(this._live ? "stateIdle" : "stateManual");

    this._runner = createCheckRunner({
      manifestUrl: this.getAttribute("manifest") ?? "/packs/manifest.json",
      debounce: this.hasAttribute("debounce") ? Number(this.getAttribute("debounce")) : undefined,
      checkOptions: (text) => {
        const options = this.checkOptions ?? this._attributeOptions();
        // The field's block quotes and <q>, when the text checked is still the field's.
        const { map } = this._adapter.read();
        return map && map.text === text ? withQuotations(options, map) : options;
      },
      onStart: () => panel.setState("stateChecking"),
      sketch: true, // its disguises: words mixing alphabets, invisible characters
      onResult: ({ text, report, sketch, ms }) => {
        // Offsets are valid only for the text as it still is: read it again and compare.
        current = this._adapter.read();
        if (current.text !== text) return;
        this.report = report;
        this.text = text;
        this._tip.hide();
        panel.setCaret("");
        panel.show(report, text);
        panel.setDisguises(sketch?.disguises ?? [], text);
        this._adapter.highlight?.(
          stretchesOf(report, "fragment"),
          current.map,
          panel.view.colourOf,
          stretchesOf(report, "rewrite"),
          sketch?.disguises ?? [],
          stretchesOf(report, "translation"),
        );
        panel.setState("stateDone", { words: report.words, ms });
        this.dispatchEvent(new CustomEvent("uniqcheck-report", { detail: { report, text } }));
      },
      onEmpty: () => {
        this.report = null;
        panel.show(null, "");
        this._adapter.clear?.();
        panel.setState("stateNoWords");
      },
      onError: (err) => panel.setState("stateError", { message: describeError(err, i18n.t) }),
    });
    this._runner.ready.then(
      (checker) => panel.setCorpus(checker.manifest),
      (err) => panel.setState("loadError", { message: describeError(err, i18n.t) }),
    );

    this._unlisten = this._explainStretches(this._target, panel);
    this._unsubscribe = this._adapter.subscribe((edit) => {
      // Highlights that do not move with the text no longer line up with it: drop them until
      // the next report. Those that do (live ranges, editor markers) stay, as a spell checker's.
      if (!this._adapter.followsEdits) this._adapter.clear?.();
      this._tip.hide();
      panel.setCaret("");
      if (!this._live) {
        if (this.report) panel.setState("stateStale");
      } else if (edit?.typing === false) this._runner.now(this._adapter.read().text);
      else this._runner.schedule(this._adapter.read().text);
    });
    if (this._live && this._adapter.read().text.trim()) this.check();
  }

  /**
   * Which source a stretch comes from: the tooltip on hover and when the caret moves into a
   * painted stretch (adapters with hitTest/caretHit), and the panel's caret line wherever the
   * caret is known (those, or a textarea's caretOffset). Returns the function that stops it.
   */
  _explainStretches(target, panel) {
    // Pointer and key events come from the field named by `for`; a custom adapter without one
    // still gets the caret line through selectionchange (if it has caretHit or caretOffset).
    const field = target;
    const adapter = this._adapter;
    const sentence = (hit) => panel.view.caretLine(hit.kind, hit.index);
    const current = () => this.report && this.text === adapter.read().text;
    let hovering = false;
    let frame = 0;
    let pointer = null;
    const onMove = (event) => {
      pointer = [event.clientX, event.clientY];
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const hit = pointer && current() ? adapter.hitTest?.(...pointer) : null;
        hovering = Boolean(hit);
        if (hit) this._tip.show(hit.rect, panel.view.tipContent(hit.kind, hit.index), `${hit.kind}:${hit.index}`);
        else this._tip.hide();
      });
    };
    const onLeave = () => {
      pointer = null;
      hovering = false;
      this._tip.hide();
    };
    const onCaret = () => {
      if (!this.report) return;
      let hit = null;
      // Cheap tests first (is the caret in this field, in a stretch?), reading the text last.
      if (adapter.caretHit) {
        hit = adapter.caretHit();
        if (hit && !current()) hit = null;
        if (hit) this._tip.show(hit.rect, panel.view.tipContent(hit.kind, hit.index), `${hit.kind}:${hit.index}`);
        else if (!hovering) this._tip.hide();
      } else if (adapter.caretOffset) {
        const at = adapter.caretOffset();
        hit = at != null ? stretchAt(this.report, at) : null;
        if (hit && !current()) hit = null;
      }
      panel.setCaret(hit ? sentence(hit) : "");
    };
    const onBlur = () => hovering || this._tip.hide();
    const events = [
      [field, "mousemove", onMove],
      [field, "mouseleave", onLeave],
      [field, "blur", onBlur],
      [field, "keyup", onCaret],
      [field, "click", onCaret],
      [document, "selectionchange", onCaret],
    ].filter(([where]) => where);
    for (const [where, type, fn] of events) where.addEventListener(type, fn);
    return () => {
      cancelAnimationFrame(frame);
      for (const [where, type, fn] of events) where.removeEventListener(type, fn);
    };
  }
}

/** The stretch of `report` (of any kind: copy, rewrite, translation) holding text offset `at`, or null. */
function stretchAt(report, at) {
  for (const kind of STRETCH_KINDS) {
    const index = stretchesOf(report, kind).findIndex((f) => at >= f.start && at < f.end);
    if (index >= 0) return { kind, index };
  }
  return null;
}

if (!customElements.get("uniq-check")) customElements.define("uniq-check", UniqCheckElement);
