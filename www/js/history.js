// The history of one's checks, kept in this browser only (localStorage): for each draft, its
// latest check: the two figures, the date, how many words, its first words (what the list shows)
// and its text (when under TEXT_MAX characters, within TEXT_BUDGET for the whole history: the
// oldest entries lose their text first, keeping their first words), so that a past draft can be
// found by any of its words and opened again. Live re-checks of the draft being written update its one
// entry rather than adding one per pause; a new draft (the text cleared, replaced, or a sample)
// starts a new entry. Searchable by words and date; cleared by one button; survives a reload.

import { band } from "/pkg/ui/report.js";

const KEY = "uniqcheck.history";
/** Entries kept, newest first; older ones are dropped. */
export const HISTORY_MAX = 200;
/** Words of a draft's start kept in its entry. */
const FIRST_WORDS = 14;
/** A draft's text is kept in its entry up to this length (a longer one keeps its first words only). */
export const TEXT_MAX = 50_000;
/** Characters of text kept by the whole history (localStorage holds about five million). */
export const TEXT_BUDGET = 1_000_000;

/** The first words of `text` (at most FIRST_WORDS, at most 160 characters), whitespace folded. */
export function firstWords(text) {
  const words = text.slice(0, 2000).trim().split(/\s+/).slice(0, FIRST_WORDS).join(" ");
  return words.length > 160 ? `${words.slice(0, 159)}…` : words;
}

function load() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((e) => e && typeof e.first === "string" && typeof e.at === "number") : [];
  } catch {
    return []; // no storage, or not ours: an empty history
  }
}

const withoutText = ({ text, ...rest }) => rest;

/** Drops the texts of the oldest entries past TEXT_BUDGET characters (their first words stay). */
function withinBudget(list) {
  let kept = 0;
  return list.map((e) => {
    if (typeof e.text !== "string") return e;
    kept += e.text.length;
    if (kept <= TEXT_BUDGET) return e;
    return withoutText(e);
  });
}

/**
 * Stores `list`; returns what was stored. When storage is full (the draft and other pages share
 * it), the texts of the newest entries are kept, as many as fit (halving), the rest keep their
 * figures and first words.
 */
function save(list) {
  let texts = list.filter((e) => typeof e.text === "string").length;
  for (;;) {
    let n = 0;
    const kept = list.map((e) => (typeof e.text !== "string" || n++ < texts ? e : withoutText(e)));
    try {
      if (kept.length) localStorage.setItem(KEY, JSON.stringify(kept));
      else localStorage.removeItem(KEY);
      return kept;
    } catch {
      // Full storage: fewer texts. Disabled storage: the history lives as long as the page.
      if (texts === 0) return list;
      texts = Math.floor(texts / 2);
    }
  }
}

/**
 * @param {{ list: HTMLOListElement, search: HTMLInputElement, clear: HTMLButtonElement,
 *           empty: HTMLElement }} els
 * @param {{ t: (key: string, params?: object) => string, formatPercent: (v: number, d?: number) => string,
 *           formatDate: (d: Date) => string, onOpen?: (text: string) => void }} options
 *   `onOpen` puts an entry's text back in the editor (entries with a text get an "Open" button).
 */
export function createHistory(els, { t, formatPercent, formatDate, onOpen = null }) {
  let entries = load();
  let draft = newId();

  function newId() {
    return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  function render() {
    const query = els.search.value.trim().toLowerCase();
    const shown = entries.filter((e) => {
      if (!query) return true;
      const date = formatDate(new Date(e.at)).toLowerCase();
      return e.first.toLowerCase().includes(query) || date.includes(query) || (e.text?.toLowerCase().includes(query) ?? false);
    });
    els.list.replaceChildren(
      ...shown.map((e) => {
        const li = document.createElement("li");
        li.className = "history-item";
        li.dataset.band = band(e.uniqueness);
        const figure = document.createElement("span");
        figure.className = "history-figure";
        figure.textContent = formatPercent(e.uniqueness);
        figure.title = t("uniqueness");
        const body = document.createElement("span");
        body.className = "history-body";
        const first = document.createElement("span");
        first.className = "history-first";
        first.textContent = e.first;
        const meta = document.createElement("span");
        meta.className = "history-meta";
        const parts = [formatDate(new Date(e.at))];
        if (typeof e.originality === "number") parts.push(`${t("originality")} ${formatPercent(e.originality)}`);
        parts.push(t("historyWords", { words: e.words }));
        meta.textContent = parts.join(" · ");
        body.append(first, meta);
        li.append(figure, body);
        if (onOpen && typeof e.text === "string") {
          // Puts the text back in the editor (an undoable edit); its next check updates this entry.
          const open = document.createElement("button");
          open.type = "button";
          open.className = "link-button history-open";
          open.textContent = t("historyOpen");
          open.setAttribute("aria-label", `${t("historyOpen")}: ${e.first}`);
          open.addEventListener("click", () => {
            draft = e.id;
            onOpen(e.text);
          });
          li.append(open);
        }
        return li;
      }),
    );
    els.empty.hidden = shown.length > 0;
    els.empty.textContent = entries.length ? t("historyNoMatch") : t("historyEmpty");
    els.clear.disabled = entries.length === 0;
    els.search.disabled = entries.length === 0 && !query;
  }

  els.search.addEventListener("input", render);
  els.clear.addEventListener("click", () => {
    entries = save([]);
    render();
  });
  // Another tab of the page checked something: show it here too.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) {
      entries = load();
      render();
    }
  });
  render();

  return {
    /** A check of the current draft finished: its entry (new, or this draft's) goes on top. */
    record({ text, report }) {
      // A text the history holds whole is that entry's draft (undone back to it, pasted again).
      const known = entries.find((e) => e.id !== draft && e.text === text);
      if (known) draft = known.id;
      const entry = {
        id: draft,
        at: Date.now(),
        uniqueness: report.uniqueness,
        originality: typeof report.originality === "number" ? report.originality : null,
        words: report.words,
        first: firstWords(text),
        ...(text.length <= TEXT_MAX ? { text } : {}),
      };
      entries = save(withinBudget([entry, ...entries.filter((e) => e.id !== draft)].slice(0, HISTORY_MAX)));
      render();
    },
    /** A draft restored at start-up continues its entry (the latest one, if it starts alike). */
    resume(text) {
      if (entries[0] && entries[0].first === firstWords(text)) draft = entries[0].id;
    },
    /** The next check is of another draft (cleared, replaced, a sample). */
    newDraft() {
      draft = newId();
    },
    get entries() {
      return entries.slice();
    },
    render,
  };
}
