// The report components: the two figures (uniqueness, originality), the ranked sources, the copied
// fragments, the rewritten and the translated passages, and the content of the tooltip a
// highlighted stretch shows. Everything here renders from the engine's Report; nothing is
// recomputed in JS except display (a count of the passages listed is a count, not a figure).
//
// One module for every host: the copywriter's page (www/, which lays the elements out itself),
// the CKEditor 5 plugin and the <uniq-check> element (which use createReportPanel below). The
// language comes in as a translator (./i18n.js), so this file never reads global page state.

import { createTranslator, BAND_HIGH, BAND_MID } from "./i18n.js";

/** Copied fragments (and rewrites, and translations) listed before "show all". */
export const LIST_MAX = 200;

/**
 * The kinds of highlighted stretch, in the order a host looks for one at a point (the engine
 * never lets them overlap, so the order only saves work): each with the report's list of them (a
 * source's own pairs of a rewrite or a translation have the same name), its panel's heading and
 * hint, the class of its samples (list items take the kind's own name), the hook revealing one,
 * and its words. A new kind is a row here and one in each host's table of marks.
 */
const STRETCHES = {
  fragment: {
    list: "fragments",
    heading: "fragments",
    hint: null,
    style: "copy",
    legend: "legendCopy",
    reveal: "onRevealFragment",
    none: "fragmentsNone",
    label: "fragmentLabel",
    tip: "tipCopy",
    caret: "caretIn",
  },
  rewrite: {
    list: "rewrites",
    heading: "rewrites",
    hint: "rewritesHint",
    style: "rewrite",
    legend: "legendRewrite",
    reveal: "onRevealRewrite",
    none: "rewritesNone",
    label: "rewriteLabel",
    tip: "tipRewrite",
    caret: "caretInRewrite",
    count: "sourceRewrites",
  },
  translation: {
    list: "translations",
    heading: "translations",
    hint: "translationsHint",
    style: "translation",
    legend: "legendTranslation",
    reveal: "onRevealTranslation",
    none: "translationsNone",
    label: "translationLabel",
    tip: "tipTranslation",
    caret: "caretInTranslation",
    count: "sourceTranslations",
  },
};

/** The kinds of highlighted stretch: "fragment" (a copy), "rewrite", "translation". */
export const STRETCH_KINDS = Object.freeze(Object.keys(STRETCHES));

/**
 * The stretches of `kind` in `report` (or a source's pairs, `SourceMatch.rewrites` and
 * `.translations`, for those kinds): `[]` when there are none, or when the engine that wrote it
 * predates the kind (a report without `translations`).
 */
export function stretchesOf(report, kind) {
  return report?.[STRETCHES[kind]?.list] ?? [];
}

/** Colours for sources, in rank order (report.css defines .c0 … .c7 for marks and swatches). */
export const PALETTE_SIZE = 8;

/** The band of a figure in per cent (uniqueness and originality alike): BAND_HIGH, BAND_MID. */
export function band(uniqueness) {
  if (uniqueness >= BAND_HIGH) return "high";
  if (uniqueness >= BAND_MID) return "mid";
  return "low";
}

/**
 * @param {{ score: HTMLElement, value: HTMLElement, method: HTMLElement, sources: HTMLOListElement,
 *           sourcesEmpty: HTMLElement, fragments: HTMLOListElement, originality?: HTMLElement,
 *           rewrites?: HTMLOListElement, translations?: HTMLOListElement }} els `value` and
 *        `originality` are the figures' numbers: a `.figure` element around one gets its band
 *        (data-band) and its value (--value, 0..1)
 * @param {{ onFocusSource?: (id: string|null) => void, onRevealFragment?: (i: number, opts?: object) => void,
 *           onRevealRewrite?: (i: number, opts?: object) => void,
 *           onRevealTranslation?: (i: number, opts?: object) => void, onUnreveal?: () => void }} hooks
 * @param {{ t: (key: string, params?: object) => string, formatPercent: (v: number, digits?: number) => string,
 *           formatNumber: (v: number, digits?: number) => string }} [i18n] the language (default English);
 *        the page passes its own, whose language can switch, and calls render() after a switch
 */
export function createReportView(els, hooks = {}, i18n = createTranslator("en")) {
  const { t, formatPercent, formatNumber } = i18n;
  hooks = { onFocusSource() {}, onRevealFragment() {}, onRevealRewrite() {}, onRevealTranslation() {}, onUnreveal() {}, ...hooks };
  let report = null;
  let text = "";
  let focused = null;
  let rank = new Map();
  /** The lists shown whole (by kind: "fragment", "rewrite", ...) after "show all"; reset by a new report. */
  const expanded = new Set();

  function colourOf(id) {
    return (rank.get(id) ?? 0) % PALETTE_SIZE;
  }

  function titleOf(id) {
    const s = report?.sources.find((x) => x.id === id);
    return s ? s.title || s.url || t("sourceUntitled") : id;
  }

  function sourceOf(id) {
    return report?.sources.find((x) => x.id === id) ?? null;
  }

  /**
   * "Title (27,9 %)" for each id: the names a copied fragment is labelled with; for a rewrite or
   * a translation, "Title (дословно 27,9 %)": the share is what the source's copies cover, not
   * the stretch named.
   */
  function names(ids, kind = "fragment") {
    return ids.map((id) => {
      const s = sourceOf(id);
      if (!s) return id;
      const share = formatPercent(s.share * 100);
      return kind === "fragment" ? `${titleOf(id)} (${share})` : t("sourceNameCopied", { title: titleOf(id), share });
    });
  }

  /**
   * "рерайт: 2 фрагмента", "перевод: 1 фрагмент": how many of the report's rewritten and
   * translated stretches name source `id` (what its marks show), for each kind it has any of.
   */
  function passagesOf(id) {
    const parts = [];
    for (const kind of STRETCH_KINDS) {
      const { count } = STRETCHES[kind];
      if (!count) continue;
      const n = stretchesOf(report, kind).filter((f) => f.sources.includes(id)).length;
      if (n > 0) parts.push(t(count, { count: n }));
    }
    return parts;
  }

  function setFigure(el, v) {
    if (!el) return;
    el.textContent = v == null ? "—" : formatPercent(v);
    el.dataset.band = v == null ? "none" : band(v);
    const figure = el.closest(".figure");
    if (figure) {
      figure.dataset.band = el.dataset.band;
      figure.style.setProperty("--value", v == null ? "0" : String(Math.min(1, Math.max(0, v / 100))));
    }
  }

  function renderScore() {
    // Both figures come from the report as they are: uniqueness (copies only, the figure
    // copywriters know) and originality (neither copied nor rewritten, never above it).
    setFigure(els.value, report ? report.uniqueness : null);
    // A report without originality (an engine before rewrites) shows "—", never a stand-in.
    setFigure(els.originality, typeof report?.originality === "number" ? report.originality : null);
    if (!report) {
      els.score.dataset.band = "none";
      els.method.textContent = "";
      return;
    }
    els.score.dataset.band = band(report.uniqueness);
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
        // Per source: how much is copied (its share, the engine's) and how many of the rewritten
        // and translated passages shown come from it.
        const parts = [t("sourceCopied", { share: formatPercent(s.share * 100) }), ...passagesOf(s.id)];
        parts.push(t("sourceWords", { words: s.words }));
        words.textContent = parts.join(" · ");
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

  /**
   * One list of highlighted stretches of `kind`: the copies (`fragments`), the rewrites or the
   * translations; each a button that previews the stretch in the text on hover and focus and
   * selects it there when chosen.
   */
  function renderStretches(list, kind) {
    if (!list) return;
    const spec = STRETCHES[kind];
    const items = stretchesOf(report, kind);
    const refocus = list.contains(document.activeElement) ? { ...document.activeElement.dataset } : null;
    if (report && items.length === 0) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t(spec.none);
      list.replaceChildren(li);
      return;
    }
    const reveal = hooks[spec.reveal];
    // A long draft can have thousands: the first LIST_MAX are listed, the rest on request (a
    // list of thousands of buttons would hold up the page for nothing).
    const shown = expanded.has(kind) ? items : items.slice(0, LIST_MAX);
    list.replaceChildren(
      ...shown.map((f, i) => {
        const li = document.createElement("li");
        const who = names(f.sources, kind);
        // A stretch over several paragraphs is listed paragraph by paragraph: each piece quoted
        // whole (or cut in its middle when long), each one jumping to its own paragraph.
        const parts = paragraphs(f);
        if (parts.length > 1) li.className = "fragment-group";
        parts.forEach(([start, end], k) => {
          const b = document.createElement("button");
          b.type = "button";
          b.className = `fragment c${colourOf(f.sources[0])}`;
          // Rewrites and translations are told apart from copies by the item's border too
          // (report.css), not by colour alone.
          if (kind !== "fragment") b.classList.add(kind);
          b.dataset.index = String(i);
          b.dataset.piece = String(k);
          if (focused !== null && !f.sources.includes(focused)) b.classList.add("dimmed");
          const piece = parts.length > 1 ? t("fragmentPiece", { k: k + 1, m: parts.length }) : "";
          const label = t(spec.label, { n: i + 1, sources: who.join("; ") });
          b.setAttribute("aria-label", piece ? `${label} (${piece})` : label);
          const quote = document.createElement("q");
          quote.textContent = excerpt(text.slice(start, end));
          const from = document.createElement("span");
          from.className = "fragment-sources";
          from.textContent = [piece, ...who].filter(Boolean).join(" · ");
          b.append(quote, from);
          const range = parts.length > 1 ? [start, end] : null;
          // Hover and focus preview the stretch in the text; activating it selects it there.
          b.addEventListener("mouseenter", () => reveal(i, { range }));
          b.addEventListener("focus", () => reveal(i, { range }));
          b.addEventListener("mouseleave", () => hooks.onUnreveal());
          b.addEventListener("blur", () => hooks.onUnreveal());
          b.addEventListener("click", () => reveal(i, { select: true, range }));
          li.append(b);
        });
        return li;
      }),
    );
    if (shown.length < items.length) {
      const li = document.createElement("li");
      const more = document.createElement("button");
      more.type = "button";
      more.className = "link-button uq-more";
      more.textContent = t("showAll", { n: formatNumber(items.length) });
      more.addEventListener("click", () => {
        expanded.add(kind);
        renderFragments();
        list.querySelector(`button[data-index="${LIST_MAX}"]`)?.focus();
      });
      li.append(more);
      list.append(li);
    }
    if (refocus) list.querySelector(`button[data-index="${refocus.index}"][data-piece="${refocus.piece}"]`)?.focus();
  }

  /** The paragraphs (lines) of stretch `f` that hold text, as [start, end) offsets. */
  function paragraphs(f) {
    const out = [];
    let at = f.start;
    for (const part of text.slice(f.start, f.end).split(/(\n+)/)) {
      if (part.trim() && !part.startsWith("\n")) out.push([at, at + part.length]);
      at += part.length;
    }
    return out.length > 0 ? out : [[f.start, f.end]];
  }

  function renderFragments() {
    for (const kind of STRETCH_KINDS) renderStretches(els[STRETCHES[kind].list], kind);
  }

  /**
   * What a highlighted stretch is and where it comes from, for the tooltip: copy, rewrite or
   * translation, each source's title, address and copied share, and (for a rewrite or a
   * translation) where the source passage is, when the report knows: packs and stores hold no
   * text, so in a browser it never does.
   */
  function tipContent(kind, i) {
    const spec = STRETCHES[kind];
    const f = spec ? stretchesOf(report, kind)[i] : null;
    const box = document.createElement("div");
    if (!f) return box;
    const head = document.createElement("p");
    head.className = "uq-tip-head";
    const sample = document.createElement("span");
    sample.className = `uq-sample ${spec.style} c${colourOf(f.sources[0])}`;
    sample.setAttribute("aria-hidden", "true");
    head.append(sample, t(spec.tip));
    box.append(head);
    const list = document.createElement("ul");
    list.className = "uq-tip-sources";
    let textless = false;
    for (const id of f.sources) {
      const s = sourceOf(id);
      const li = document.createElement("li");
      const title = document.createElement("strong");
      title.textContent = titleOf(id);
      li.append(title);
      if (s?.url) {
        const url = document.createElement("span");
        url.className = "uq-tip-url";
        url.textContent = s.url;
        li.append(url);
      }
      if (s) {
        const meta = document.createElement("span");
        meta.className = "uq-tip-meta";
        const parts = [t("tipSourceShare", { share: formatPercent(s.share * 100) }), ...passagesOf(id)];
        meta.textContent = parts.join(" · ");
        li.append(meta);
      }
      if (kind !== "fragment" && s) {
        // The source's passages of this kind around this stretch: where the source text is known
        // (a server comparing texts) say where; otherwise (packs, a store) say why it is not shown.
        const at = stretchesOf(s, kind).find((p) => p.draft[0] < f.end && f.start < p.draft[1]);
        if (at?.source) {
          const where = document.createElement("span");
          where.className = "uq-tip-meta";
          where.textContent = t("tipSourceAt", { start: formatNumber(at.source[0]), end: formatNumber(at.source[1]) });
          li.append(where);
        } else {
          textless = true;
        }
      }
      list.append(li);
    }
    box.append(list);
    if (textless) {
      const note = document.createElement("p");
      note.className = "uq-tip-note";
      note.textContent = t("tipNoSourceText");
      box.append(note);
    }
    return box;
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
      expanded.clear();
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
      return describeStretch("fragment", i);
    },
    /** Names and shares of the sources of rewrite `i`, for the caret line. */
    describeRewrite(i) {
      return describeStretch("rewrite", i);
    },
    /** Names and shares of the sources of translation `i`, for the caret line. */
    describeTranslation(i) {
      return describeStretch("translation", i);
    },
    /** The caret line's sentence for stretch `i` of `kind` ("The caret is in a passage rewritten from: …"). */
    caretLine(kind, i) {
      return STRETCHES[kind] ? t(STRETCHES[kind].caret, { sources: describeStretch(kind, i) }) : "";
    },
    /** The tooltip's content for stretch `i` of `kind` ("fragment", "rewrite", "translation"). */
    tipContent,
  };

  function describeStretch(kind, i) {
    const f = stretchesOf(report, kind)[i];
    return f ? names(f.sources, kind).join("; ") : "";
  }
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
 * <uniq-check> element): the two figures with their legend and a status line, the sources, the
 * copied fragments, the rewritten and the translated passages, built from the same
 * createReportView as the page.
 * The caller places `element` wherever it likes.
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
  // The figures are a polite live region: a screen reader hears each new result once.
  const live = el("div", "score-live");
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  const figures = el("div", "figures");
  const figure = (name) => {
    const box = el("div", "figure");
    box.dataset.figure = name;
    box.dataset.band = "none";
    box.title = t(`${name}Help`);
    const number = el("span", "score-value", "—");
    const bar = el("span", "figure-bar");
    bar.setAttribute("aria-hidden", "true");
    box.append(el("span", "score-label", t(name)), number, bar, el("span", "figure-note", t(`${name}Note`)));
    figures.append(box);
    return number;
  };
  const value = figure("uniqueness");
  const originality = figure("originality");
  const method = el("span", "score-method");
  live.append(figures, method);
  const state = el("p", "uq-state muted small");
  // Which source the stretch under the caret comes from (the page's caret line): for keyboard
  // and screen-reader users of an editor, where a tooltip alone would not be heard.
  const caret = el("p", "uq-caret small");
  caret.setAttribute("aria-live", "polite");
  // What the figures are measured against ("30 документам, база от …"), beside them.
  const corpus = el("p", "uq-corpus small");
  // Words mixing alphabets and invisible characters in the text (the sketch's disguises).
  const disguised = el("p", "uq-disguises small");
  disguised.hidden = true;
  // What the check left out: sources on the writer's list, quoted words (CheckOptions.exclude).
  const excluded = el("p", "uq-excluded small");
  excluded.hidden = true;
  score.append(live, corpus, marksLegend(t), figuresHelp(t), state, caret, excluded, disguised);

  const heading = `h${Math.min(6, Math.max(1, headingLevel))}`;
  const sourcesBox = el("div", "panel");
  const sourcesEmpty = el("p", "muted", t("sourcesEmpty"));
  const sources = el("ol", "sources");
  sourcesBox.append(el(heading, "", t("sources")), sourcesEmpty, sources);
  // One box per kind of stretch; its list is `ol.fragments`, and `.rewrites`, `.translations`…
  // for the others (the report view fills each by the report's list of the same name).
  const lists = {};
  const boxes = STRETCH_KINDS.map((kind) => {
    const { list, heading: title, hint } = STRETCHES[kind];
    const box = el("div", "panel");
    lists[list] = el("ol", kind === "fragment" ? "fragments" : `fragments ${list}`);
    box.append(el(heading, "", t(title)));
    if (hint) box.append(el("p", "muted small uq-hint", t(hint)));
    box.append(lists[list]);
    return box;
  });
  element.append(score, sourcesBox, ...boxes);

  const view = createReportView({ score, value, originality, method, sources, sourcesEmpty, ...lists }, hooks, i18n);
  return {
    element,
    view,
    /** The status line under the figure: a key of ./i18n.js (stateChecking, stateDone, ...). */
    setState(key, params = {}) {
      state.textContent = key ? t(key, params) : "";
      element.dataset.state = key ?? "";
    },
    /** The line saying what the figures are measured against: the checker's manifest. */
    setCorpus(manifest) {
      corpus.textContent = corpusLine(manifest, i18n);
    },
    /** The caret line: what the stretch under the editor's caret matches ("" clears it). */
    setCaret(sentence) {
      if (caret.textContent !== sentence) caret.textContent = sentence;
    },
    /** A report for `text` (or null: nothing checked). */
    show(report, text) {
      if (!report) this.setDisguises([], "");
      excluded.textContent = leftOutSentence(report, t);
      excluded.hidden = !excluded.textContent;
      view.show(report, text);
    },
    /** Says how many words of `text` mix alphabets and how many invisible characters it hides. */
    setDisguises(disguises, text) {
      const sentence = disguisesSentence(disguises ?? [], text ?? "", t);
      disguised.hidden = !sentence;
      disguised.textContent = sentence;
    },
  };
}

/**
 * "Смешанные алфавиты и скрытые символы: 2 слова со смешанными алфавитами, 3 невидимых символа…"
 * for a sketch's `disguises` of `text` ("" when there are none). Invisible characters are counted
 * one by one (code points), words mixing alphabets once each.
 * @param {{ start: number, end: number, kind: "mixed_script" | "invisible" }[]} disguises
 * @param {string} text
 * @param {(key: string, params?: object) => string} t
 * @param {string} [key] the sentence around the counts (the page's says where they are marked)
 */
export function disguisesSentence(disguises, text, t, key = "disguisesFound") {
  const mixed = disguises.filter((d) => d.kind === "mixed_script").length;
  const hidden = disguises
    .filter((d) => d.kind === "invisible")
    .reduce((n, d) => n + [...text.slice(d.start, d.end)].length, 0);
  const parts = [];
  if (mixed) parts.push(t("disguiseMixed", { n: mixed }));
  if (hidden) parts.push(t("disguiseHidden", { n: hidden }));
  return parts.length ? t(key, { parts: parts.join(", ") }) : "";
}

/**
 * What a check left out, in `t`'s language ("" when nothing was): the report's `excluded`
 * (CheckOptions.exclude), "Исключено из проверки: 1 источник по вашему списку; 31 слово в цитатах…".
 * @param {{ sources: number, quoted_words: number } | undefined} excluded
 */
export function excludedSentence(excluded, t) {
  const parts = [];
  if (excluded?.sources) parts.push(t("excludedSources", { n: excluded.sources }));
  if (excluded?.quoted_words) parts.push(t("excludedQuoted", { n: excluded.quoted_words }));
  return parts.length ? t("excludedNote", { parts: parts.join("; ") }) : "";
}

/**
 * What a check that reached its bound of candidates left unchecked ("" when it did not): the
 * report's `capped` and `unchecked` ("Не проверено (достигнут предел проверки): 12 документов…").
 * @param {{ capped?: boolean, unchecked?: number } | null | undefined} report
 * @param {(key: string, params?: object) => string} t
 */
export function uncheckedSentence(report, t) {
  return report?.capped && report.unchecked > 0 ? t("uncheckedNote", { n: report.unchecked }) : "";
}

/**
 * Everything a check left out, in `t`'s language: [excludedSentence] of the report's `excluded`,
 * then [uncheckedSentence]; "" when it left nothing out.
 * @param {{ excluded?: { sources: number, quoted_words: number }, capped?: boolean, unchecked?: number } | null | undefined} report
 * @param {(key: string, params?: object) => string} t
 */
export function leftOutSentence(report, t) {
  return [excludedSentence(report?.excluded, t), uncheckedSentence(report, t)].filter(Boolean).join(" ");
}

/**
 * "Проверено по 30 документам, база от 24 ноября 2026 г.": what the figures are measured against,
 * from a pack manifest (its `documents` and `generated`, Unix seconds or a date string); "" without one.
 * @param {{ documents: number, generated: number | string } | null | undefined} manifest
 * @param {{ t: (key: string, params?: object) => string, lang?: string }} i18n
 */
export function corpusLine(manifest, { t, lang = "en" }) {
  if (!manifest || typeof manifest.documents !== "number") return "";
  const g = typeof manifest.generated === "number" ? new Date(manifest.generated * 1000) : new Date(manifest.generated);
  const date = Number.isNaN(g.getTime()) ? String(manifest.generated ?? "") : new Intl.DateTimeFormat(lang, { dateStyle: "long" }).format(g);
  return t("corpusNear", { documents: manifest.documents, date });
}

/**
 * The legend of the highlights: a copy (solid), a rewrite (tinted, dashed underline) and a
 * translation (tinted, dotted underline).
 */
export function marksLegend(t) {
  const p = document.createElement("p");
  p.className = "legend marks-legend";
  for (const kind of STRETCH_KINDS) {
    const { style, legend } = STRETCHES[kind];
    const item = document.createElement("span");
    item.className = "legend-item";
    const sample = document.createElement("span");
    sample.className = `uq-sample ${style} c0`;
    sample.setAttribute("aria-hidden", "true");
    item.append(sample, t(legend));
    p.append(item);
  }
  return p;
}

/** "What these figures mean": both definitions and the bands, folded under a summary. */
export function figuresHelp(t) {
  const details = document.createElement("details");
  details.className = "figures-help";
  const summary = document.createElement("summary");
  summary.textContent = t("figuresHelp");
  const para = (key) => {
    const p = document.createElement("p");
    p.textContent = t(key);
    return p;
  };
  const bands = document.createElement("p");
  bands.className = "legend";
  for (const b of ["High", "Mid", "Low"]) {
    const span = document.createElement("span");
    span.className = `band band-${b.toLowerCase()}`;
    span.textContent = t(`band${b}`);
    bands.append(span);
  }
  details.append(summary, para("uniquenessHelp"), para("originalityHelp"), bands);
  return details;
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
