// UniqCheck: uniqueness checks inside CKEditor 5.
//
// - "Check uniqueness" (toolbar item `uniqCheck`) and a live-mode switch (`uniqCheckLive`);
// - a side panel with the figure, the sources and the fragments: the package's own report
//   components (../ui/report.js), the very ones the copywriter's page renders;
// - matching fragments (copies), rewrites and translations highlighted in the editing view
//   through model MARKERS (groups `uniqcheck`, `uniqcheck-rewrite` and `uniqcheck-translation`)
//   converted with markerToHighlight for the editing pipeline only. Markers are not content:
//   getData() returns exactly what it did before a check, and they are added with
//   usingOperation: false in a non-undoable change, so they never become undo steps;
// - a tooltip naming the source of a highlighted stretch when the pointer is over it or the caret
//   moves into it (arrows, a click), and the same sentence in the panel's caret line.
//
// The text checked is built from the model (./modeltext.js); each fragment's UTF-16 [start, end)
// maps back to a model range, across bold, links and list items. Checks run in the package's Web
// Worker against packs downloaded from `manifestUrl` (a uniqcheck server, CORS allowed if it is on
// another origin): the draft never leaves the browser.

import { Plugin, ButtonView, SwitchButtonView } from "ckeditor5";
import { createReportPanel, ensureStyles, PALETTE_SIZE, STRETCH_KINDS, stretchesOf } from "../ui/report.js";
import { createTip } from "../ui/tip.js";
import { createTranslator, describeError } from "../ui/i18n.js";
import { createCheckRunner, DEBOUNCE_MS } from "../ui/runner.js";
import { modelText, toModelRange } from "./modeltext.js";
import { withQuotations } from "../textmap.js";

/**
 * The highlighted stretches' markers, by kind: `<group>:<index in the report's list>` (a group per
 * kind: markerToHighlight matches the group), drawn with the kind's class (report.css: a copy
 * solid, a rewrite tinted with a dashed underline, a translation with a dotted one) and naming
 * the index in the kind's data attribute, which hovering reads back.
 */
const MARKS = {
  fragment: { group: "uniqcheck", className: "uniqcheck-mark", attribute: "data-uniqcheck-fragment" },
  rewrite: { group: "uniqcheck-rewrite", className: "uniqcheck-rewrite", attribute: "data-uniqcheck-rewrite" },
  translation: { group: "uniqcheck-translation", className: "uniqcheck-translation", attribute: "data-uniqcheck-translation" },
};
/** The kinds this plugin marks, in the package's order. */
const KINDS = STRETCH_KINDS.filter((kind) => MARKS[kind]);
/** The kind of a marker group, or undefined. */
const kindOfGroup = (group) => KINDS.find((kind) => MARKS[kind].group === group);
/** An object holding a fresh `make()` for each kind (no stretches, none outlined). */
const perKind = (make) => Object.fromEntries(KINDS.map((kind) => [kind, make()]));
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
    /** The report's stretches by kind, as marked, and the one outlined of each kind (-1: none). */
    this._stretches = perKind(() => []);
    this._active = perKind(() => -1);
    this._colourOf = () => 0;
    this._focused = null;
    /** `{ version, map }`: the text map of one version of the document (_modelMap). */
    this._map = null;

    if (config.styles !== false) ensureStyles(document);

    // Highlights in the editing view only: the data pipeline never sees these markers.
    for (const kind of KINDS) {
      editor.conversion.for("editingDowncast").markerToHighlight({
        model: MARKS[kind].group,
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
        onRevealTranslation: (i, opts) => this.revealTranslation(i, opts),
        onUnreveal: () => {
          for (const kind of KINDS) this._reveal(kind, -1, false);
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
      this.panel.setCaret(hit ? this.panel.view.caretLine(hit.kind, hit.index) : "");
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
    this._reveal("fragment", i, select);
  }

  /** Outlines rewrite `i` (-1: none), as `reveal` does for fragments. */
  revealRewrite(i, { select = false } = {}) {
    this._reveal("rewrite", i, select);
  }

  /** Outlines translation `i` (-1: none), as `reveal` does for fragments. */
  revealTranslation(i, { select = false } = {}) {
    this._reveal("translation", i, select);
  }

  /** Outlines stretch `i` of `kind` (-1: none): redraws the one outlined before and `i`, and shows `i`. */
  _reveal(kind, i, select) {
    const previous = this._active[kind];
    this._active[kind] = i;
    const { group } = MARKS[kind];
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
    this._setMarkers(null, null);
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
    this._setMarkers(map, report, sketch?.disguises ?? []);
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

  /** Marks the stretches of `report` (null: none) and the words of `disguises` mixing alphabets. */
  _setMarkers(map, report, disguises = []) {
    const model = this.editor.model;
    this._stretches = Object.fromEntries(KINDS.map((kind) => [kind, stretchesOf(report, kind)]));
    this._active = perKind(() => -1);
    const groups = [...KINDS.map((kind) => MARKS[kind].group), MIXED];
    // Not undoable, and no operations at all (usingOperation: false): undo/redo of the user's
    // edits is untouched, collaboration never sees them, getData() never contains them.
    model.enqueueChange({ isUndoable: false }, (writer) => {
      for (const group of groups) {
        for (const marker of [...model.markers.getMarkersGroup(group)]) writer.removeMarker(marker);
      }
      if (!map) return;
      const mixed = disguises.filter((d) => d.kind === "mixed_script");
      const lists = [...KINDS.map((kind) => [MARKS[kind].group, this._stretches[kind]]), [MIXED, mixed]];
      for (const [group, list] of lists) {
        list.forEach((f, i) => {
          const range = toModelRange(model, map, f.start, f.end);
          if (range) writer.addMarker(`${group}:${i}`, { range, usingOperation: false, affectsData: false });
        });
      }
    });
  }

  /** Re-renders the highlights (a source was focused or unfocused in the panel). */
  _restyle() {
    for (const kind of KINDS) {
      for (const marker of this.editor.model.markers.getMarkersGroup(MARKS[kind].group)) {
        this.editor.editing.reconvertMarker(marker);
      }
    }
  }

  /**
   * The highlight descriptor of marker `<group>:<i>` (MARKS): a copy in the source's colour, like
   * the page; a rewrite or a translation in its tint with its own underline.
   */
  _highlight(markerName) {
    const [group, n] = markerName.split(":");
    const kind = kindOfGroup(group);
    const i = Number(n);
    const f = kind ? this._stretches[kind][i] : null;
    if (!f) return null;
    const { className, attribute } = MARKS[kind];
    const classes = [className, `c${this._colourOf(f.sources[0]) % PALETTE_SIZE}`];
    // A copy of several sources is hatched; the others name their sources in the tooltip only.
    if (kind === "fragment" && f.sources.length > 1) classes.push("multi");
    if (this._focused !== null && !f.sources.includes(this._focused)) classes.push("dim");
    if (this._active[kind] === i) classes.push("active");
    return { classes, attributes: { [attribute]: String(i) } };
  }

  /** The first highlight piece of a stretch in the editing view's DOM. */
  _markElement(kind, i) {
    return this.editor.editing.view.getDomRoot()?.querySelector(`[${MARKS[kind].attribute}="${i}"]`) ?? null;
  }

  /** The stretch holding the selection's focus, or null. */
  _markAtSelection() {
    const model = this.editor.model;
    const pos = model.document.selection.focus;
    if (!pos) return null;
    for (const marker of model.markers.getMarkersAtPosition(pos)) {
      const [group, n] = marker.name.split(":");
      const kind = kindOfGroup(group);
      if (kind) return { kind, index: Number(n) };
    }
    return null;
  }

  /** Hovering a highlight piece in the editing view shows its tooltip. */
  _hoverTips(root) {
    if (!root) return;
    const selector = KINDS.map((kind) => `[${MARKS[kind].attribute}]`).join(", ");
    /** The stretch a highlight piece belongs to, as the tooltip's key ("rewrite:3"), or null. */
    const keyOf = (el) => {
      const kind = el && KINDS.find((k) => el.hasAttribute(MARKS[k].attribute));
      return kind ? `${kind}:${el.getAttribute(MARKS[kind].attribute)}` : null;
    };
    const over = (event) => {
      const el = event.target instanceof Element ? event.target.closest(selector) : null;
      if (!el || !root.contains(el)) return;
      const key = keyOf(el);
      const [kind, i] = key.split(":");
      const rects = [...el.getClientRects()];
      const rect = rects.find((r) => event.clientY >= r.top && event.clientY <= r.bottom) ?? el.getBoundingClientRect();
      this._hovering = true;
      this._tip.show(rect, this.panel.view.tipContent(kind, Number(i)), key);
    };
    const out = (event) => {
      const from = event.target instanceof Element ? event.target.closest(selector) : null;
      const to = event.relatedTarget instanceof Element ? event.relatedTarget.closest(selector) : null;
      // Moving between the pieces of one stretch (across bold, a link) keeps its tooltip.
      if (from && to && keyOf(from) === keyOf(to)) return;
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
