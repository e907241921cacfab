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
// ranges painted by the browser: nothing is inserted into the content); a textarea cannot paint
// inside itself, so it gets the panel, and choosing a fragment selects it in the field. Any other
// editor (TinyMCE, Tiptap, ...) plugs in a thin adapter: set `element.adapter` before connecting
// it (see UniqCheckAdapter in element.d.ts).

import { createReportPanel, ensureStyles, PALETTE_SIZE } from "./ui/report.js";
import { createTranslator, describeError } from "./ui/i18n.js";
import { createCheckRunner } from "./ui/runner.js";
import { domText } from "./textmap.js";

// The mapping half of an adapter, for other editors' adapters.
export { TextMap, domText } from "./textmap.js";

/** A <textarea> or <input>: its value is the text, offsets are its own. */
export function textareaAdapter(field) {
  return {
    read: () => ({ text: field.value, map: null }),
    subscribe(onChange) {
      field.addEventListener("input", onChange);
      return () => field.removeEventListener("input", onChange);
    },
    reveal(fragment, { select }) {
      if (!select) return;
      field.focus({ preventScroll: false });
      field.setSelectionRange(fragment.start, fragment.end);
    },
  };
}

// Custom highlights are per document and painted by name (report.css: ::highlight(uniqcheck-cN));
// each element keeps its own ranges here and the registry is the union.
const painted = new Map(); // owner → Range[][] by colour

function repaint() {
  if (!globalThis.CSS?.highlights || typeof Highlight === "undefined") return;
  for (let c = 0; c < PALETTE_SIZE; c++) {
    const ranges = [...painted.values()].flatMap((byColour) => byColour[c] ?? []);
    if (ranges.length) CSS.highlights.set(`uniqcheck-c${c}`, new Highlight(...ranges));
    else CSS.highlights.delete(`uniqcheck-c${c}`);
  }
}

/** A contenteditable element: text from its DOM, fragments painted as custom highlights. */
export function contentEditableAdapter(field) {
  const owner = {};
  let ranges = [];
  return {
    read() {
      const map = domText(field);
      return { text: map.text, map };
    },
    subscribe(onChange) {
      field.addEventListener("input", onChange);
      return () => field.removeEventListener("input", onChange);
    },
    highlight(fragments, map, colourOf) {
      const byColour = [];
      ranges = fragments.map((f) => {
        const r = map?.rangeOf(f.start, f.end);
        if (!r) return null;
        const range = document.createRange();
        range.setStart(r.start.ref, r.start.offset);
        range.setEnd(r.end.ref, r.end.offset);
        (byColour[colourOf(f.sources[0]) % PALETTE_SIZE] ??= []).push(range);
        return range;
      });
      painted.set(owner, byColour);
      repaint();
    },
    clear() {
      ranges = [];
      painted.delete(owner);
      repaint();
    },
    reveal(fragment, { select }, i) {
      const range = ranges[i];
      if (!range) return;
      range.startContainer.parentElement?.scrollIntoView({ block: "nearest" });
      if (select) {
        field.focus();
        const sel = getSelection();
        sel.removeAllRanges();
        sel.addRange(range.cloneRange());
      }
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
    this._adapter =
      this.adapter ??
      (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement
        ? textareaAdapter(target)
        : contentEditableAdapter(target));
    this._start();
  }

  disconnectedCallback() {
    this._unsubscribe?.();
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

  _start() {
    const lang = this.getAttribute("lang") ?? document.documentElement.lang ?? navigator.language;
    const i18n = createTranslator(lang);
    ensureStyles(document);
    this._live = this.hasAttribute("live");
    let current = { text: "", map: null };
    const panel = createReportPanel({
      i18n,
      hooks: {
        onRevealFragment: (i, opts = {}) => {
          const f = this.report?.fragments[i];
          if (f) this._adapter.reveal?.(f, { select: Boolean(opts.select) }, i);
        },
      },
    });
    this.panel = panel;

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
      onStart: () => panel.setState("stateChecking"),
      onResult: ({ text, report, ms }) => {
        // Offsets are valid only for the text as it still is: read it again and compare.
        current = this._adapter.read();
        if (current.text !== text) return;
        this.report = report;
        this.text = text;
        panel.show(report, text);
        this._adapter.highlight?.(report.fragments, current.map, panel.view.colourOf);
        panel.setState("stateDone", { words: i18n.formatNumber(report.words), ms });
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
    this._runner.ready.catch((err) => panel.setState("loadError", { message: describeError(err, i18n.t) }));

    this._unsubscribe = this._adapter.subscribe(() => {
      // Old highlights no longer line up with the edited text: drop them until the next report.
      this._adapter.clear?.();
      if (this._live) this._runner.schedule(this._adapter.read().text);
      else if (this.report) panel.setState("stateStale");
    });
    if (this._live && this._adapter.read().text.trim()) this.check();
  }
}

if (!customElements.get("uniq-check")) customElements.define("uniq-check", UniqCheckElement);
