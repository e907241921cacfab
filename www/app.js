// The copywriter's page: wires the editor, the check runner (Web Worker), the report view, the
// counters, the language switch, exports and the service worker. Each concern lives in js/.

import { apply, t, setLang, currentLang, onLangChange, formatNumber, formatPercent, formatDate } from "./js/i18n.js";
import { createEditor } from "./js/editor.js";
// The report view and the check runner are the npm package's (uniqcheck/ui), the same modules the
// CKEditor 5 plugin and <uniq-check> use: one implementation of the figure, sources and fragments.
import { createReportView, corpusLine, disguisesSentence, leftOutSentence, STRETCH_KINDS, stretchesOf } from "/pkg/ui/report.js";
import { createCheckRunner } from "/pkg/ui/runner.js";
import { describeError } from "/pkg/ui/i18n.js";
import { createTip } from "/pkg/ui/tip.js";
import { moduleUrl } from "/pkg/module-url.js";
import { createCounters } from "./js/counters.js";
import { reportDocument, downloadJson, printReport } from "./js/export.js";
import { sampleFor } from "./js/sample.js";
import { createHistory } from "./js/history.js";
import { createExclusions } from "./js/exclusions.js";

const DRAFT_KEY = "uniqcheck.draft";
/** Set once the reader downloaded everything: the offline copy is then kept whole. */
const OFFLINE_KEY = "uniqcheck.offline";
const $ = (id) => document.getElementById(id);
// The packs: a manifest on this origin, named by the page (index.html) so that any static host
// serving a folder written by `uniqcheck pack -o DIR` works.
const MANIFEST_URL = new URL(
  document.querySelector('meta[name="uniqcheck-manifest"]')?.content || "/packs/manifest.json",
  location.href,
);
// The engine's module, with WebAssembly SIMD or without where the browser lacks it: chosen here
// once, for the worker and for the service worker's offline copy alike.
const WASM_URL = moduleUrl();

apply();

const state = {
  text: "",
  report: null,
  reportText: null,
  /** The disguises (look-alike letters, invisible characters) of the text the report is for. */
  disguises: [],
  manifest: null,
  checker: null,
  offline: false,
  // "Download everything": { phase: "idle" | "running" | "done" | "failed", loaded, total, error }.
  all: { phase: "idle" },
};

const counters = createCounters({
  words: $("c-words"),
  chars: $("c-chars"),
  noSpaces: $("c-nospace"),
  water: $("c-water"),
  nauseaClassic: $("c-nausea-classic"),
  nauseaAcademic: $("c-nausea-academic"),
  topWords: $("top-words"),
  waterWords: $("water-words"),
  details: $("word-stats"),
});

const checkHistory = createHistory(
  { list: $("history-list"), search: $("history-search"), clear: $("history-clear"), empty: $("history-empty") },
  // "Open": a past draft back in the editor, as one undoable edit; its next check updates its entry.
  { t, formatPercent, formatDate, onOpen: (text) => editor.setValue(text) },
);

const view = createReportView(
  {
    score: $("score"),
    value: $("score-value"),
    originality: $("originality-value"),
    method: $("score-method"),
    sources: $("sources"),
    sourcesEmpty: $("sources-empty"),
    fragments: $("fragments"),
    rewrites: $("rewrites"),
    translations: $("translations"),
  },
  {
    onFocusSource: (id) => editor.setFocusSource(id),
    onRevealFragment: (i, opts) => editor.reveal(i, opts),
    onRevealRewrite: (i, opts) => editor.reveal(i, opts, "rewrite"),
    onRevealTranslation: (i, opts) => editor.reveal(i, opts, "translation"),
    onUnreveal: () => editor.unreveal(),
  },
  // The page's translator follows the language switch (onLangChange re-renders below).
  {
    t,
    formatPercent,
    formatNumber,
    get lang() {
      return currentLang();
    },
  },
);

// Which source a highlighted stretch comes from: a tooltip when the pointer is over its mark or
// the caret moves into it (the caret line below the text says the same for screen readers).
const tip = createTip();
function showTip(kind, index, rect) {
  if (!rect || state.reportText !== editor.value) return tip.hide();
  tip.show(rect, view.tipContent(kind, index), `${kind}:${index}`);
}

const editor = createEditor(
  { parent: $("editor"), mirror: $("mirror"), label: $("draft-label"), describedBy: "caret-info counters-note" },
  {
    onInput: (text, { typing }) => {
      state.text = text;
      counters.setText(text);
      saveDraft(text);
      setCheckState(text.trim() ? "stateChecking" : "stateIdle");
      if (!text.trim()) {
        checkHistory.newDraft(); // what is written next is another text
        showReport(null, text);
        return;
      }
      if (typing) runner.schedule(text);
      else runner.now(text);
    },
    onCaret: (at) => {
      // The caret line: the keyboard (and screen reader) way to learn what a stretch matches.
      const current = state.reportText === editor.value;
      const hit = current ? editor.stretchAt(at) : null;
      const hidden = current ? editor.disguiseAt(at) : null;
      const lines = [];
      if (hit) lines.push(view.caretLine(hit.kind, hit.index));
      if (hidden) lines.push(t(hidden.kind === "mixed_script" ? "caretInMixed" : "caretInInvisible"));
      $("caret-info").textContent = lines.join(" ");
      if (hit) showTip(hit.kind, hit.index, editor.caretRect(at));
      else if (!hovering) tip.hide();
    },
    onHover: (hit) => {
      hovering = Boolean(hit);
      if (hit) showTip(hit.kind, hit.index, hit.rect);
      else tip.hide();
    },
  },
);
let hovering = false;
editor.setLanguage(currentLang(), t("placeholder"));
$("draft").addEventListener("blur", () => hovering || tip.hide());

const runner = createCheckRunner({
  manifestUrl: MANIFEST_URL,
  wasm: WASM_URL,
  checkOptions: () => exclusions.checkOptions(),
  sketch: true, // the counters' words and water come from the engine's own tokenizer
  onProgress: ({ loaded, total }) => showProgress(loaded, total),
  onFetch: keepOffline,
  onStart: () => setCheckState("stateChecking"),
  onResult: ({ text, report, sketch, ms }) => {
    counters.setSketch(text, sketch);
    showReport(report, text, sketch?.disguises ?? []);
    setCheckState("stateDone", { words: report.words, ms });
    renderCorpusInfo();
    checkHistory.record({ text, report });
  },
  onEmpty: (text) => {
    counters.setSketch(text, { words: 0, allWords: 0 });
    showReport(null, text);
    setCheckState(text.trim() ? "stateNoWords" : "stateIdle");
  },
  onError: (err) => {
    showReport(null, state.text);
    setCheckState("stateError", { error: err });
    console.warn("uniqcheck:", err.message);
  },
});

// Exclusions: kept by the page, read and applied by the engine (`parseExclusions` in the checker's
// worker, then the `exclude` check option) from the next check on; a change re-checks the text at
// once. After the runner: the list is read by its worker.
const exclusions = createExclusions(
  {
    quotes: $("exclude-quotes"),
    list: $("exclude-list"),
    apply: $("exclude-apply"),
    summary: $("exclusions-summary"),
    refused: $("exclude-refused"),
  },
  {
    t,
    parse: (text) => runner.ready.then((checker) => checker.parseExclusions(text)),
    onChange: () => {
      if (state.text.trim()) {
        setCheckState("stateChecking");
        runner.now(state.text);
      }
    },
  },
);

runner.ready.then(
  (checker) => {
    state.checker = checker;
    state.manifest = checker.manifest;
    $("loading").hidden = true;
    renderCorpusInfo();
    renderOffline();
    // The reader keeps everything: fetch what a new generation added (the rest comes from the
    // service worker's cache).
    let keepAll = false;
    try {
      keepAll = Boolean(localStorage.getItem(OFFLINE_KEY));
    } catch {
      // No storage: nothing was asked for.
    }
    if (keepAll) downloadAll({ quiet: true });
  },
  (err) => {
    $("loading").hidden = true;
    const box = $("load-error");
    box.hidden = false;
    box.textContent = t("loadError", withError({ error: err }));
    setCheckState("stateError", { error: err });
    console.warn(err.message);
  },
);

function showProgress(loaded, total) {
  const box = $("loading");
  const bar = $("progress");
  box.hidden = false;
  if (total > 0) {
    bar.max = total;
    bar.value = loaded;
    $("progress-text").textContent = `${formatNumber(loaded / 1024, 0)} / ${formatNumber(total / 1024, 0)} KiB`;
  } else {
    bar.removeAttribute("value"); // indeterminate until sizes are known
  }
}

function showReport(report, text, disguises = []) {
  state.report = report;
  state.reportText = report ? text : null;
  state.disguises = report ? disguises : [];
  tip.hide();
  view.show(report, text);
  editor.setStretches(Object.fromEntries(STRETCH_KINDS.map((kind) => [kind, stretchesOf(report, kind)])), view.colourOf, state.disguises);
  renderDisguises();
  renderExcluded();
  $("export-json").disabled = !report;
  $("print").disabled = !report;
}

/** Says how many words mix alphabets and how many invisible characters the text hides. */
function renderDisguises() {
  const note = $("disguise-note");
  note.textContent = disguisesSentence(state.disguises, state.reportText ?? "", t, "disguiseNote");
  note.hidden = !note.textContent;
}

/**
 * Says what the engine left out of the check shown: sources on the list, quoted words, and the
 * documents past the check's bound of candidates.
 */
function renderExcluded() {
  const note = $("excluded-note");
  note.textContent = leftOutSentence(state.report, t);
  note.hidden = !note.textContent;
}

/** `params` with its `error` put into words in the current language (again after a switch). */
const withError = (params) => (params.error ? { ...params, message: describeError(params.error, t) } : params);

let checkState = ["stateIdle", {}];
function setCheckState(key, params = {}) {
  checkState = [key, params];
  $("check-state").textContent = t(key, withError(params));
}

function renderCorpusInfo() {
  const m = state.manifest;
  if (!m) return;
  const generated = typeof m.generated === "number" ? new Date(m.generated * 1000) : new Date(m.generated);
  const date = Number.isNaN(generated.getTime()) ? String(m.generated) : formatDate(generated);
  const parts = [t("corpusInfo", { documents: m.documents, date })];
  // The same, short, beside the figures: what they are measured against.
  $("corpus-near").textContent = corpusLine(m, { t, lang: currentLang() });
  const fetched = state.checker?.loadedBytes;
  if (fetched) parts.push(t("corpusFetched", { loaded: kib(fetched), total: kib(m.index_bytes + m.record_bytes) }));
  if (state.offline) parts.push(t("corpusOffline"));
  $("corpus-info").textContent = parts.join(" ");
}

const kib = (bytes) => t("kib", { n: formatNumber(bytes / 1024, bytes < 10240 ? 1 : 0) });

// "Download everything for offline use": every index page and record into the worker's engine
// (no check fetches anything afterwards) and, through the service worker, into its cache.
function renderOffline() {
  const m = state.manifest;
  if (!m) return;
  const { phase, loaded = 0, total = 0, error } = state.all;
  $("offline").hidden = false;
  const button = $("offline-all");
  button.textContent = t("offlineAll", { size: kib(m.table.bytes + m.records.bytes + m.index_bytes + m.record_bytes) });
  button.hidden = phase === "done";
  button.disabled = phase === "running";
  const bar = $("offline-progress");
  bar.hidden = phase !== "running";
  bar.max = Math.max(total, 1);
  bar.value = Math.min(loaded, bar.max);
  $("offline-state").textContent =
    phase === "running"
      ? t("offlineProgress", { loaded: kib(loaded), total: kib(total) })
      : phase === "done"
        ? t("offlineDone")
        : phase === "failed"
          ? t("offlineFailed", { message: describeError(error, t) })
          : "";
}

async function downloadAll({ quiet = false } = {}) {
  const checker = state.checker;
  if (!checker || state.all.phase === "running") return;
  const previous = state.all;
  state.all = { phase: "running", loaded: 0, total: 0 };
  if (!quiet) renderOffline();
  try {
    await checker.downloadAll({
      onProgress: ({ loaded, total }) => {
        state.all = { phase: "running", loaded, total };
        if (!quiet) renderOffline();
      },
    });
    state.all = { phase: "done" };
    try {
      localStorage.setItem(OFFLINE_KEY, "1");
    } catch {
      // No storage: the copy is kept, just not refreshed by itself.
    }
  } catch (err) {
    // Quietly (a reload offline): what is cached stays usable; say nothing unless asked.
    state.all = quiet ? previous : { phase: "failed", error: err };
    if (!quiet) console.warn("uniqcheck:", err.message);
  }
  renderOffline();
  renderCorpusInfo();
}

// Pack files the worker fetched, for the service worker to keep (it caches what passes through
// it; the worker of a first visit starts before the service worker controls anything).
const toKeep = new Set();
function keepOffline(urls) {
  for (const u of urls) toKeep.add(u);
  const sw = navigator.serviceWorker?.controller;
  if (!sw || !toKeep.size) return;
  sw.postMessage({ type: "keep", urls: [...toKeep] });
  toKeep.clear();
}

// Drafts survive a reload (and an offline restart); they are stored only in this browser.
// Saved 300 ms after the last change (not at every key), and at once when the page is left or
// hidden: a reload or a closed tab right after a paste (whose report may come first) keeps it.
let saveTimer = 0;
let unsaved = null;
function saveDraft(text) {
  unsaved = text;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(flushDraft, 300);
}
function flushDraft() {
  clearTimeout(saveTimer);
  if (unsaved === null) return;
  const text = unsaved;
  unsaved = null;
  try {
    if (text) localStorage.setItem(DRAFT_KEY, text);
    else localStorage.removeItem(DRAFT_KEY);
  } catch {
    // Full or disabled storage: the draft is simply not kept.
  }
}
addEventListener("pagehide", flushDraft);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") flushDraft();
});

// Controls.
for (const b of document.querySelectorAll("[data-lang]")) {
  b.addEventListener("click", () => setLang(b.dataset.lang));
}
onLangChange(() => {
  tip.hide();
  editor.setLanguage(currentLang(), t("placeholder"));
  view.render();
  counters.render();
  checkHistory.render();
  renderDisguises();
  renderExcluded();
  exclusions.render();
  setCheckState(...checkState);
  renderCorpusInfo();
  renderOffline();
  const err = $("load-error");
  if (!err.hidden) err.textContent = t("loadError", withError(checkState[1]));
});
$("sample").addEventListener("click", () => {
  checkHistory.newDraft();
  editor.setValue(sampleFor(currentLang()));
});
$("clear").addEventListener("click", () => {
  checkHistory.newDraft();
  editor.setValue("");
});
$("export-json").addEventListener("click", () => {
  if (!state.report) return;
  downloadJson(
    reportDocument({
      text: state.reportText,
      report: state.report,
      counters: counters.snapshot(),
      manifest: state.manifest,
      lang: currentLang(),
      disguises: state.disguises,
    }),
  );
});
$("print").addEventListener("click", () => {
  editor.flush(); // a long text's print copy may still be filling in: the printed text is all of it
  printReport();
});
// On paper, the figures' definitions are printed unfolded (Ctrl+P as well as the button).
let helpWasOpen = false;
window.addEventListener("beforeprint", () => {
  editor.flush();
  helpWasOpen = $("figures-help").open;
  $("figures-help").open = true;
});
window.addEventListener("afterprint", () => ($("figures-help").open = helpWasOpen));
$("offline-all").addEventListener("click", () => downloadAll());

// A restored draft is checked at once (as soon as the packs are in).
let saved = "";
try {
  saved = localStorage.getItem(DRAFT_KEY) ?? "";
} catch {
  // No storage: start empty.
}
if (saved) {
  editor.restore(saved);
  checkHistory.resume(saved);
  state.text = saved;
  counters.setText(saved);
  setCheckState("stateWaiting");
  runner.now(saved);
} else {
  counters.setText("");
  setCheckState("stateIdle");
}

// Offline: the service worker caches the page, the package and the packs.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type === "manifest-source") {
      state.offline = data.offline;
      renderCorpusInfo();
    }
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => keepOffline([]));
  const manifestPath = MANIFEST_URL.origin === location.origin ? MANIFEST_URL.pathname : "/packs/manifest.json";
  const sw = new URL("/sw.js", location.href);
  sw.searchParams.set("manifest", manifestPath);
  // The module the worker loads, when it is not the default (the same script URL otherwise, so
  // that an installed service worker is not replaced for nothing).
  const wasmPath = new URL(WASM_URL).pathname;
  if (wasmPath !== "/pkg/web/uniqcheck_bg.wasm") sw.searchParams.set("wasm", wasmPath);
  navigator.serviceWorker.register(sw.pathname + sw.search).catch((err) => {
    // Not fatal: the page works online without it. A warning, not an error: nothing is broken.
    console.warn("uniqcheck: offline mode unavailable:", err.message);
  });
}
