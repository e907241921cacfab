// The history of one's checks, kept in this browser only (localStorage): for each draft, its
// latest check: the two figures, the date, how many words, and its first words (never the whole
// text: the history is a list to recognise a draft by, not a copy of it). Live re-checks of the
// draft being written update its one entry rather than adding one per pause; a new draft (the
// text cleared, replaced, or a sample) starts a new entry. Searchable by words and date; cleared
// by one button; survives a reload.

const KEY = "uniqcheck.history";
/** Entries kept, newest first; older ones are dropped. */
export const HISTORY_MAX = 200;
/** Words of a draft's start kept in its entry. */
const FIRST_WORDS = 14;

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

function save(list) {
  try {
    if (list.length) localStorage.setItem(KEY, JSON.stringify(list));
    else localStorage.removeItem(KEY);
  } catch {
    // Full or disabled storage: the history is simply not kept.
  }
}

/**
 * @param {{ list: HTMLOListElement, search: HTMLInputElement, clear: HTMLButtonElement,
 *           empty: HTMLElement }} els
 * @param {{ t: (key: string, params?: object) => string, formatPercent: (v: number, d?: number) => string,
 *           formatDate: (d: Date) => string }} i18n
 */
export function createHistory(els, { t, formatPercent, formatDate }) {
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
      return e.first.toLowerCase().includes(query) || date.includes(query);
    });
    els.list.replaceChildren(
      ...shown.map((e) => {
        const li = document.createElement("li");
        li.className = "history-item";
        li.dataset.band = e.uniqueness >= 90 ? "high" : e.uniqueness >= 70 ? "mid" : "low";
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
    entries = [];
    save(entries);
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
      const entry = {
        id: draft,
        at: Date.now(),
        uniqueness: report.uniqueness,
        originality: typeof report.originality === "number" ? report.originality : null,
        words: report.words,
        first: firstWords(text),
      };
      entries = [entry, ...entries.filter((e) => e.id !== draft)].slice(0, HISTORY_MAX);
      save(entries);
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
