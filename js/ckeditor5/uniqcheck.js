// UniqCheck: uniqueness checks inside CKEditor 5.
//
// - "Check uniqueness" (toolbar item `uniqCheck`) and a live-mode switch (`uniqCheckLive`);
// - a side panel with the figure, the sources and the fragments: the package's own report
//   components (../ui/report.js), the very ones the copywriter's page renders;
// - matching fragments (copies) and rewrites highlighted in the editing view through model
//   MARKERS (groups `uniqcheck` and `uniqcheck-rewrite`) converted with markerToHighlight for the
//   editing pipeline only. Markers are not content: getData() returns exactly what it did before
//   a check, and they are added with usingOperation: false in a non-undoable change, so they
//   never become undo steps;
// - a tooltip naming the source of a highlighted stretch when the pointer is over it or the caret
//   moves into it (arrows, a click), and the same sentence in the panel's caret line.
//
// The text checked is built from the model (./modeltext.js); each fragment's UTF-16 [start, end)
// maps back to a model range, across bold, links and list items. Checks run in the package's Web
// Worker against packs downloaded from `manifestUrl` (a uniqcheck server, CORS allowed if it is on
// another origin): the draft never leaves the browser.

import { Plugin, ButtonView, SwitchButtonView } from "ckeditor5";
import { createReportPanel, ensureStyles, PALETTE_SIZE } from "../ui/report.js";
import { createTip } from "../ui/tip.js";
import { createTranslator, describeError } from "../ui/i18n.js";
import { createCheckRunner, DEBOUNCE_MS } from "../ui/runner.js";
import { modelText, toModelRange } from "./modeltext.js";
import { withQuotations } from "../textmap.js";

/** Marker names are `uniqcheck:<fragment index>`; markerToHighlight matches the group. */
const GROUP = "uniqcheck";
/** Rewrites: `uniqcheck-rewrite:<rewrite index>`, a group of their own. */
const REWRITES = "uniqcheck-rewrite";
/** Markers `uniqcheck-mixed:<i>`: the words mixing Cyrillic and Latin letters. */
const MIXED = "uniqcheck-mixed";

export class UniqCheck extends Plugin {
  static get pluginName() {
    return "UniqCheck";
  }

  init() {
    const editor = this.editor;
    editor.config.define("uniqcheck", {
      manifestUrl: "/packs/manifest.json",
      debounce: DEBOUNCE_MS,
      live: false,
      styles: true,
    });
    const config = editor.config.get("uniqcheck");
    this.i18n = createTranslator(config.language ?? editor.locale.uiLanguage);
    const { t } = this.i18n;

    /** Checks follow typing (after `debounce` ms) while true. Observable: the switch binds to it. */
    this.set("live", Boolean(config.live));
    /** A check is running. */
    this.set("isChecking", false);
    /** The last report shown, and the text it is for. */
    this.report = null;
    this.text = null;
    /** The engine's options for the next checks (a host may change them at any time). */
    this.checkOptions = config.checkOptions;
    this._fragments = [];
    this._rewrites = [];
    this._colourOf = () => 0;
    this._focused = null;
    this._active = -1;
    this._activeRewrite = -1;
    /** `{ version, map }`: the text map of one version of the document (_modelMap). */
    this._map = null;

    if (config.styles !== false) ensureStyles(document);

    // Highlights in the editing view only: the data pipeline never sees these markers.
    for (const group of [GROUP, REWRITES]) {
      editor.conversion.for("editingDowncast").markerToHighlight({
        model: group,
        view: ({ markerName }) => this._highlight(markerName),
      });
    }
    // Words mixing alphabets (the sketch's disguises): a red wavy underline, as on the page.
    editor.conversion.for("editingDowncast").markerToHighlight({ model: MIXED, view: { classes: "uniqcheck-mixed" } });

    this.panel = createReportPanel({
      i18n: this.i18n,
      hooks: {
        onFocusSource: (id) => {
          this._focused = id;
          this._restyle();
        },
        onRevealFragment: (i, opts) => this.reveal(i, opts),
        onRevealRewrite: (i, opts) => this.revealRewrite(i, opts),
        onUnreveal: () => {
          this.reveal(-1);
          this.revealRewrite(-1);
        },
      },
    });
    this._tip = createTip(document);
    this.panel.setState(this.live ? "stateIdle" : "stateManual");

    this._runner = createCheckRunner({
      manifestUrl: config.manifestUrl,
      checker: config.checker,
      debounce: config.debounce,
      checkOptions: (text) => {
        const options = typeof this.checkOptions === "function" ? this.checkOptions(text) : this.checkOptions;
        // The editor's block quotes, when the text checked is still the editor's.
        const map = this._modelMap();
        return map.text === text ? withQuotations(options, map) : options;
      },
      onStart: () => {
        this.isChecking = true;
        this.panel.setState("stateChecking");
      },
      sketch: true, // its disguises: words mixing alphabets, invisible characters
      onResult: ({ text, report, sketch, ms }) => {
        this.isChecking = false;
        this._apply(text, report, ms, sketch);
      },
      onEmpty: () => {
        this.isChecking = false;
        this._show(null, "");
        this.panel.setState("stateNoWords");
      },
      onError: (err) => {
        this.isChecking = false;
        this.panel.setState("stateError", { message: describeError(err, t) });
      },
    });
    this._runner.ready.then(
      (checker) => {
        this.checker = checker;
        this.panel.setCorpus(checker.manifest);
        this.fire("ready", { checker });
      },
      (err) => {
        this.panel.setState("loadError", { message: describeError(err, t) });
        // An unreachable server is the integrator's to fix: say it once, in the console too.
        console.warn(/^uniqcheck:/.test(err.message) ? err.message : `uniqcheck: ${err.message}`);
      },
    );

    editor.ui.componentFactory.add("uniqCheck", (locale) => {
      const button = new ButtonView(locale);
      button.set({ label: t("checkButton"), withText: true, tooltip: false, class: "uniqcheck-button" });
      button.bind("isEnabled").to(this, "isChecking", (busy) => !busy);
      this.listenTo(button, "execute", () => this.check());
      return button;
    });
    editor.ui.componentFactory.add("uniqCheckLive", (locale) => {
      const toggle = new SwitchButtonView(locale);
      toggle.set({ label: t("liveToggle"), withText: true, class: "uniqcheck-live" });
      toggle.bind("isOn").to(this, "live");
      this.listenTo(toggle, "execute", () => {
        this.live = !this.live;
      });
      return toggle;
    });

    this.on("change:live", (evt, name, on) => {
      if (on) this.check();
      else this.panel.setState(this.report ? "stateDone" : "stateManual", this._doneParams ?? {});
    });

    // Content changed: in live mode check again at once after the user's whole edit (a paste, a
    // drop, an undo: an undoable batch, not a typing one), after a pause otherwise (typing; data
    // set by code, whose first load the "ready" handler below checks); without live mode the
    // panel says the report is for an older text. Marker changes are not data changes: no loop.
    this.listenTo(editor.model.document, "change:data", (evt, batch) => {
      this._tip.hide();
      if (!this.live) {
        if (this.report) this.panel.setState("stateStale");
      } else if (batch?.isUndoable && !batch.isTyping) this._runner.now(this.getText());
      else this._runner.schedule(this.getText());
    });

    // The caret moved into a highlighted stretch by the user (arrows, a click: a direct change,
    // not typing): the tooltip names its source, and the caret line says it for screen readers.
    this.listenTo(editor.model.document.selection, "change:range", (evt, { directChange }) => {
      if (!directChange) return;
      const hit = this._markAtSelection();
      this.panel.setCaret(hit ? this._describe(hit.kind, hit.index) : "");
      if (!hit) {
        if (!this._hovering) this._tip.hide();
        return;
      }
      // The DOM selection is rendered after this change: place the tip on the next frame.
      requestAnimationFrame(() => {
        if (!editor.editing.view.document.isFocused) return;
        const sel = editor.editing.view.getDomRoot()?.ownerDocument.getSelection();
        let rect = sel?.rangeCount ? sel.getRangeAt(0).getBoundingClientRect() : null;
        if (!rect || (rect.width === 0 && rect.height === 0)) rect = this._markElement(hit.kind, hit.index)?.getBoundingClientRect();
        if (rect) this._tip.show(rect, this.panel.view.tipContent(hit.kind, hit.index), `${hit.kind}:${hit.index}`);
      });
    });
    this.listenTo(editor.editing.view.document, "change:isFocused", (evt, name, focused) => {
      if (!focused && !this._hovering) this._tip.hide();
    });

    // The panel goes where the integrator said (an element or a selector), else right after the
    // editor's own UI.
    editor.ui.once("ready", () => {
      const where = typeof config.panel === "string" ? document.querySelector(config.panel) : config.panel;
      if (where) where.append(this.panel.element);
      else if (config.panel !== false) editor.ui.element?.after(this.panel.element);
      this._hoverTips(editor.editing.view.getDomRoot());
    });
    // The initial data is loaded after the UI: a live editor checks it once the editor is ready.
    editor.once("ready", () => {
      if (this.live && this.getText().trim()) this.check();
    });
  }

  /** The plain text that is (or would be) checked: blocks joined with "\n\n". */
  getText() {
    return this._modelMap().text;
  }

  /**
   * The model's text map, walked once per version of the document (every operation bumps
   * `model.document.version`; our markers are set without operations), so the text scheduled,
   * the quotations sent with it and the offsets its report is mapped through come from one walk.
   */
  _modelMap() {
    const version = this.editor.model.document.version;
    if (this._map?.version !== version) this._map = { version, map: modelText(this.editor.model) };
    return this._map.map;
  }

  /** Checks the current content now (the toolbar button). */
  check() {
    this._runner.now(this.getText());
  }

  /**
   * Outlines fragment `i` in the editing view and scrolls it into view (-1: none); with
   * `select`, also selects it (selection changes are never undo steps).
   */
  reveal(i, { select = false } = {}) {
    const previous = this._active;
    this._active = i;
    this._reveal("fragment", previous, i, select);
  }

  /** Outlines rewrite `i` (-1: none), as `reveal` does for fragments. */
  revealRewrite(i, { select = false } = {}) {
    const previous = this._activeRewrite;
    this._activeRewrite = i;
    this._reveal("rewrite", previous, i, select);
  }

  /** Redraws stretches `previous` and `i` of `kind` ("fragment" or "rewrite") and shows `i`. */
  _reveal(kind, previous, i, select) {
    const group = kind === "rewrite" ? REWRITES : GROUP;
    const model = this.editor.model;
    for (const n of [previous, i]) {
      if (n >= 0 && model.markers.has(`${group}:${n}`)) this.editor.editing.reconvertMarker(`${group}:${n}`);
    }
    const marker = i >= 0 ? model.markers.get(`${group}:${i}`) : null;
    if (!marker) return;
    if (select) {
      model.change((writer) => writer.setSelection(marker.getRange()));
      this.editor.editing.view.focus();
      this.editor.editing.view.scrollToTheSelection();
    } else {
      this._markElement(kind, i)?.scrollIntoView({ block: "nearest" });
    }
  }

  /** Removes every highlight and the report (e.g. before publishing a screenshot). */
  clear() {
    this._show(null, null);
    this._setMarkers(null, [], []);
    this.panel.setState(this.live ? "stateIdle" : "stateManual");
  }

  destroy() {
    this._runner?.cancel();
    this._tip?.hide();
    this._tip?.element.remove();
    this._unhover?.();
    // A checker handed in by the integrator is theirs; the one we started is ours to stop.
    if (!this.editor.config.get("uniqcheck.checker")) this._runner?.ready.then((c) => c.terminate(), () => {});
    this.panel?.element.remove();
    super.destroy();
  }

  _apply(text, report, ms, sketch) {
    // The model may have changed while the worker checked (formatting, or text in manual mode):
    // the map of the model as it is now (a change since dropped the old one); if it still reads
    // the same, every offset is valid.
    const map = this._modelMap();
    if (map.text !== text) {
      if (!this.live) this.panel.setState("stateStale");
      return;
    }
    this._show(report, text);
    this.panel.setDisguises(sketch?.disguises ?? [], text);
    this._setMarkers(map, report.fragments, report.rewrites ?? [], sketch?.disguises ?? []);
    this._doneParams = { words: report.words, ms };
    this.panel.setState("stateDone", this._doneParams);
    this.fire("report", { report, text });
  }

  _show(report, text) {
    this._tip?.hide();
    this.panel.setCaret("");
    this.report = report;
    this.text = text;
    this.panel.show(report, text ?? "");
    this._colourOf = this.panel.view.colourOf;
  }

  _setMarkers(map, fragments, rewrites, disguises = []) {
    const model = this.editor.model;
    this._fragments = fragments;
    this._rewrites = rewrites;
    this._active = -1;
    this._activeRewrite = -1;
    // Not undoable, and no operations at all (usingOperation: false): undo/redo of the user's
    // edits is untouched, collaboration never sees them, getData() never contains them.
    model.enqueueChange({ isUndoable: false }, (writer) => {
      for (const group of [GROUP, REWRITES, MIXED]) {
        for (const marker of [...model.markers.getMarkersGroup(group)]) writer.removeMarker(marker);
      }
      if (!map) return;
      const mixed = disguises.filter((d) => d.kind === "mixed_script");
      for (const [group, list] of [[GROUP, fragments], [REWRITES, rewrites], [MIXED, mixed]]) {
        list.forEach((f, i) => {
          const range = toModelRange(model, map, f.start, f.end);
          if (range) writer.addMarker(`${group}:${i}`, { range, usingOperation: false, affectsData: false });
        });
      }
    });
  }

  /** Re-renders the highlights (a source was focused or unfocused in the panel). */
  _restyle() {
    for (const group of [GROUP, REWRITES]) {
      for (const marker of this.editor.model.markers.getMarkersGroup(group)) {
        this.editor.editing.reconvertMarker(marker);
      }
    }
  }

  /**
   * The highlight descriptor of marker `uniqcheck:<i>` (a copy: the source's colour, like the
   * page) or `uniqcheck-rewrite:<i>` (a rewrite: its tint and dashed underline).
   */
  _highlight(markerName) {
    const rewrite = markerName.startsWith(`${REWRITES}:`);
    const i = Number(markerName.slice((rewrite ? REWRITES : GROUP).length + 1));
    const f = (rewrite ? this._rewrites : this._fragments)[i];
    if (!f) return null;
    const classes = [rewrite ? "uniqcheck-rewrite" : "uniqcheck-mark", `c${this._colourOf(f.sources[0]) % PALETTE_SIZE}`];
    if (!rewrite && f.sources.length > 1) classes.push("multi");
    if (this._focused !== null && !f.sources.includes(this._focused)) classes.push("dim");
    if ((rewrite ? this._activeRewrite : this._active) === i) classes.push("active");
    const attributes = rewrite ? { "data-uniqcheck-rewrite": String(i) } : { "data-uniqcheck-fragment": String(i) };
    return { classes, attributes };
  }

  /** The first highlight piece of a stretch in the editing view's DOM. */
  _markElement(kind, i) {
    const attr = kind === "rewrite" ? "data-uniqcheck-rewrite" : "data-uniqcheck-fragment";
    return this.editor.editing.view.getDomRoot()?.querySelector(`[${attr}="${i}"]`) ?? null;
  }

  /** The stretch holding the selection's focus (a copy first), or null. */
  _markAtSelection() {
    const model = this.editor.model;
    const pos = model.document.selection.focus;
    if (!pos) return null;
    for (const marker of model.markers.getMarkersAtPosition(pos)) {
      const [group, n] = marker.name.split(":");
      if (group === GROUP) return { kind: "fragment", index: Number(n) };
      if (group === REWRITES) return { kind: "rewrite", index: Number(n) };
    }
    return null;
  }

  /** "The caret is in …" for the panel's caret line. */
  _describe(kind, i) {
    const { t } = this.i18n;
    return kind === "rewrite"
      ? t("caretInRewrite", { sources: this.panel.view.describeRewrite(i) })
      : t("caretIn", { sources: this.panel.view.describe(i) });
  }

  /** Hovering a highlight piece in the editing view shows its tooltip. */
  _hoverTips(root) {
    if (!root) return;
    const selector = "[data-uniqcheck-rewrite], [data-uniqcheck-fragment]";
    const over = (event) => {
      const el = event.target instanceof Element ? event.target.closest(selector) : null;
      if (!el || !root.contains(el)) return;
      const rewrite = el.hasAttribute("data-uniqcheck-rewrite");
      const i = Number(el.getAttribute(rewrite ? "data-uniqcheck-rewrite" : "data-uniqcheck-fragment"));
      const rects = [...el.getClientRects()];
      const rect = rects.find((r) => event.clientY >= r.top && event.clientY <= r.bottom) ?? el.getBoundingClientRect();
      this._hovering = true;
      this._tip.show(rect, this.panel.view.tipContent(rewrite ? "rewrite" : "fragment", i), `${rewrite ? "rewrite" : "fragment"}:${i}`);
    };
    const out = (event) => {
      const from = event.target instanceof Element ? event.target.closest(selector) : null;
      const to = event.relatedTarget instanceof Element ? event.relatedTarget.closest(selector) : null;
      if (from && to && from.getAttribute("data-uniqcheck-rewrite") === to.getAttribute("data-uniqcheck-rewrite") &&
          from.getAttribute("data-uniqcheck-fragment") === to.getAttribute("data-uniqcheck-fragment")) return;
      if (!to) {
        this._hovering = false;
        this._tip.hide();
      }
    };
    root.addEventListener("mouseover", over);
    root.addEventListener("mouseout", out);
    this._unhover = () => {
      root.removeEventListener("mouseover", over);
      root.removeEventListener("mouseout", out);
    };
  }
}
