// The report components: the uniqueness figure, the ranked sources and the fragment list.
// Everything here renders from the engine's Report; nothing is recomputed in JS except display.
//
// One module for every host: the copywriter's page (www/, which lays the elements out itself),
// the CKEditor 5 plugin and the <uniq-check> element (which use createReportPanel below). The
// language comes in as a translator (./i18n.js), so this file never reads global page state.

import { createTranslator } from "./i18n.js";

/** Colours for sources, in rank order (report.css defines .c0 … .c7 for marks and swatches). */
export const PALETTE_SIZE = 8;

/** Bands of the figure; the legend in index.html says the same. */
export function band(uniqueness) {
  if (uniqueness >= 90) return "high";
  if (uniqueness >= 70) return "mid";
  return "low";
}

/**
 * @param {{ score: HTMLElement, value: HTMLElement, method: HTMLElement, sources: HTMLOListElement,
 *           sourcesEmpty: HTMLElement, fragments: HTMLOListElement }} els
 * @param {{ onFocusSource?: (id: string|null) => void, onRevealFragment?: (i: number, opts?: object) => void,
 *           onUnreveal?: () => void }} hooks
 * @param {{ t: (key: string, params?: object) => string, formatPercent: (v: number, digits?: number) => string,
 *           formatNumber: (v: number, digits?: number) => string }} [i18n] the language (default English);
 *        the page passes its own, whose language can switch, and calls render() after a switch
 */
export function createReportView(els, hooks = {}, i18n = createTranslator("en")) {
  const { t, formatPercent, formatNumber } = i18n;
  hooks = { onFocusSource() {}, onRevealFragment() {}, onUnreveal() {}, ...hooks };
  let report = null;
  let text = "";
  let focused = null;
  let rank = new Map();

  function colourOf(id) {
    return (rank.get(id) ?? 0) % PALETTE_SIZE;
  }

  function titleOf(id) {
    const s = report?.sources.find((x) => x.id === id);
    return s ? s.title || s.url || t("sourceUntitled") : id;
  }

  function renderScore() {
    if (!report) {
      els.score.dataset.band = "none";
      els.value.textContent = "—";
      els.method.textContent = "";
      return;
    }
    els.score.dataset.band = band(report.uniqueness);
    els.value.textContent = formatPercent(report.uniqueness);
    els.method.textContent = t("method", { method: t(`method.${report.method}`) });
  }

  function renderSources() {
    // Re-rendering replaces the buttons: keep the keyboard focus on the same source.
    const refocus = els.sources.contains(document.activeElement) ? document.activeElement.dataset.source : null;
    const list = report?.sources ?? [];
    els.sourcesEmpty.hidden = !report || list.length > 0;
    els.sources.replaceChildren(
      ...list.map((s) => {
        const li = document.createElement("li");
        li.className = "source";
        if (focused === s.id) li.classList.add("focused");
        if (focused !== null && focused !== s.id) li.classList.add("dimmed");

        const pick = document.createElement("button");
        pick.type = "button";
        pick.className = "source-title";
        pick.dataset.source = s.id;
        pick.setAttribute("aria-pressed", String(focused === s.id));
        pick.title = t("sourceFocus");
        const swatch = document.createElement("span");
        swatch.className = `swatch c${colourOf(s.id)}`;
        swatch.setAttribute("aria-hidden", "true");
        pick.append(swatch, s.title || t("sourceUntitled"));
        pick.addEventListener("click", () => {
          focused = focused === s.id ? null : s.id;
          hooks.onFocusSource(focused);
          renderSources();
          renderFragments();
        });

        const share = document.createElement("span");
        share.className = "source-share";
        share.textContent = formatPercent(s.share * 100);
        const bar = document.createElement("span");
        bar.className = `share-bar c${colourOf(s.id)}`;
        bar.style.setProperty("--share", String(Math.min(1, Math.max(0, s.share))));
        bar.setAttribute("aria-hidden", "true");

        const meta = document.createElement("p");
        meta.className = "source-meta";
        const words = document.createElement("span");
        words.textContent = `${t("sourceShare", { share: formatPercent(s.share * 100) })} · ${t("sourceWords", { words: formatNumber(s.words) })}`;
        meta.append(words);
        if (s.exact) {
          const badge = document.createElement("span");
          badge.className = "badge";
          badge.textContent = t("sourceExact");
          meta.append(" ", badge);
        }

        const row = document.createElement("div");
        row.className = "source-row";
        row.append(pick, share);
        li.append(row, bar);
        if (/^https?:\/\//i.test(s.url)) {
          // Only web addresses become links: a stored url could be anything (javascript: included).
          const a = document.createElement("a");
          a.href = s.url;
          a.rel = "noopener noreferrer";
          a.target = "_blank";
          a.className = "source-url";
          a.textContent = s.url;
          li.append(a);
        } else if (s.url) {
          const span = document.createElement("span");
          span.className = "source-url";
          span.textContent = s.url;
          li.append(span);
        }
        li.append(meta);
        return li;
      }),
    );
    if (refocus != null) {
      [...els.sources.querySelectorAll("button.source-title")].find((b) => b.dataset.source === refocus)?.focus();
    }
  }

  function renderFragments() {
    const refocus = els.fragments.contains(document.activeElement) ? document.activeElement.dataset.index : null;
    const list = report?.fragments ?? [];
    if (report && list.length === 0) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("fragmentsNone");
      els.fragments.replaceChildren(li);
      return;
    }
    els.fragments.replaceChildren(
      ...list.map((f, i) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = `fragment c${colourOf(f.sources[0])}`;
        b.dataset.index = String(i);
        if (focused !== null && !f.sources.includes(focused)) b.classList.add("dimmed");
        const names = f.sources.map((id) => {
          const s = report.sources.find((x) => x.id === id);
          return s ? `${titleOf(id)} (${formatPercent(s.share * 100)})` : id;
        });
        b.setAttribute("aria-label", t("fragmentLabel", { n: i + 1, sources: names.join("; ") }));
        const quote = document.createElement("q");
        quote.textContent = excerpt(text.slice(f.start, f.end));
        const who = document.createElement("span");
        who.className = "fragment-sources";
        who.textContent = names.join(" · ");
        b.append(quote, who);
        // Hover and focus preview the fragment in the text; activating it selects it there.
        b.addEventListener("mouseenter", () => hooks.onRevealFragment(i));
        b.addEventListener("focus", () => hooks.onRevealFragment(i));
        b.addEventListener("mouseleave", () => hooks.onUnreveal());
        b.addEventListener("blur", () => hooks.onUnreveal());
        b.addEventListener("click", () => hooks.onRevealFragment(i, { select: true }));
        li.append(b);
        return li;
      }),
    );
    if (refocus != null) els.fragments.querySelector(`button[data-index="${refocus}"]`)?.focus();
  }

  function render() {
    renderScore();
    renderSources();
    renderFragments();
  }

  return {
    colourOf,
    titleOf,
    get report() {
      return report;
    },
    get focused() {
      return focused;
    },
    /** A new report for `forText` (or null: nothing checked yet). */
    show(next, forText) {
      report = next;
      text = forText;
      rank = new Map((next?.sources ?? []).map((s, i) => [s.id, i]));
      if (focused !== null && !rank.has(focused)) {
        focused = null;
        hooks.onFocusSource(null);
      }
      render();
    },
    /** Re-labels after a language switch. */
    render,
    /** Names and shares of the sources of fragment `i`, for the caret line. */
    describe(i) {
      const f = report?.fragments[i];
      if (!f) return "";
      return f.sources
        .map((id) => {
          const s = report.sources.find((x) => x.id === id);
          return s ? `${titleOf(id)} (${formatPercent(s.share * 100)})` : id;
        })
        .join("; ");
    },
  };
}

/** A fragment's text for the list: whitespace folded, long ones cut in the middle at spaces. */
function excerpt(s, max = 160) {
  const flat = s.replace(/\s+/g, " ").trim();
  // By code points, so an emoji is never cut in half.
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const half = Math.floor((max - 1) / 2);
  const head = chars.slice(0, half).join("");
  const tail = chars.slice(-half).join("");
  const cutHead = head.lastIndexOf(" ") > half / 2 ? head.slice(0, head.lastIndexOf(" ")) : head;
  const cutTail = tail.indexOf(" ") >= 0 && tail.indexOf(" ") < half / 2 ? tail.slice(tail.indexOf(" ") + 1) : tail;
  return `${cutHead} … ${cutTail}`;
}

/**
 * A self-contained report panel for hosts without the page's layout (the CKEditor 5 plugin, the
 * <uniq-check> element): the figure with a status line, the sources and the fragments, built from
 * the same createReportView as the page. The caller places `element` wherever it likes.
 * @param {{ i18n?: ReturnType<typeof createTranslator>, hooks?: Parameters<typeof createReportView>[1],
 *           headingLevel?: number }} [options]
 */
export function createReportPanel({ i18n = createTranslator("en"), hooks = {}, headingLevel = 3 } = {}) {
  const { t } = i18n;
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const element = el("section", "uq-report uq-panel");
  element.setAttribute("aria-label", t("panelLabel"));

  const score = el("div", "score");
  score.dataset.band = "none";
  // The figure is a polite live region: a screen reader hears each new result once.
  const live = el("div", "score-live");
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  const value = el("span", "score-value", "—");
  const method = el("span", "score-method");
  live.append(el("span", "score-label", t("uniqueness")), value, method);
  const state = el("p", "uq-state muted small");
  score.append(live, state);

  const heading = `h${Math.min(6, Math.max(1, headingLevel))}`;
  const sourcesBox = el("div", "panel");
  const sourcesEmpty = el("p", "muted", t("sourcesEmpty"));
  const sources = el("ol", "sources");
  sourcesBox.append(el(heading, "", t("sources")), sourcesEmpty, sources);
  const fragmentsBox = el("div", "panel");
  const fragments = el("ol", "fragments");
  fragmentsBox.append(el(heading, "", t("fragments")), fragments);
  element.append(score, sourcesBox, fragmentsBox);

  const view = createReportView({ score, value, method, sources, sourcesEmpty, fragments }, hooks, i18n);
  return {
    element,
    view,
    /** The status line under the figure: a key of ./i18n.js (stateChecking, stateDone, ...). */
    setState(key, params = {}) {
      state.textContent = key ? t(key, params) : "";
      element.dataset.state = key ?? "";
    },
    /** A report for `text` (or null: nothing checked). */
    show: (report, text) => view.show(report, text),
  };
}

/**
 * Adds report.css (next to this module) to `doc` once, for hosts that do not link it themselves.
 * A bundler that understands `new URL(..., import.meta.url)` (Vite, webpack 5) emits it as an asset.
 */
export function ensureStyles(doc = document) {
  if (doc.querySelector("link[data-uniqcheck-styles]")) return;
  const link = doc.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./report.css", import.meta.url).href;
  link.dataset.uniqcheckStyles = "";
  doc.head.append(link);
}
