// Exclusions (issue 19): quotations and the writer's own sites, as text.ru, Advego and Copyleaks
// offer. The page only keeps the settings (localStorage) and turns them into the engine's
// `exclude` check option; the engine reads the list (`parseExclusions`: which lines apply, which
// it leaves out and why, so that a typo never breaks checking), applies it (what matches a URL or
// domain, what a quotation is) and its report says what was left out.

const STORE_KEY = "uniqcheck.exclude";

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? "null");
    if (saved && typeof saved === "object") {
      return { quotes: Boolean(saved.quotes), list: typeof saved.list === "string" ? saved.list : "" };
    }
  } catch {
    // No storage or a damaged entry: nothing is excluded.
  }
  return { quotes: false, list: "" };
}

function save(settings) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(settings));
  } catch {
    // Not kept: applied to this visit's checks only.
  }
}

/** What an empty list applies: nothing. */
const NOTHING = { exclusions: { urls: [], domains: [], quotes: false }, refused: [] };

/** Typing pauses this long before the list is read again to name its bad lines. */
const TYPING_MS = 300;

/**
 * @param {{ quotes: HTMLInputElement, list: HTMLTextAreaElement, apply: HTMLButtonElement,
 *           summary: HTMLElement, refused: HTMLUListElement }} els
 * @param {{ t: (key: string, params?: object) => string,
 *           parse: (text: string) => Promise<import("/pkg/web/uniqcheck.js").ParsedExclusions>,
 *           onChange: () => void }} deps
 *   `parse`: the engine's `parseExclusions` (in the checker's worker): which lines of the list
 *   apply and which it leaves out, and why. `onChange`: the settings changed (check again).
 */
export function createExclusions(els, { t, parse, onChange }) {
  let settings = load();
  els.quotes.checked = settings.quotes;
  els.list.value = settings.list;
  /** The engine's reading of the saved list (a promise: the worker answers). */
  let applied = read(settings.list);
  /** `applied`'s answer once it came: checks then take their options at once, in their task. */
  let appliedNow = null;
  settle();
  /** The reading shown under the box: of the applied list, or of what is being typed. */
  let shown = applied;
  let typing = 0;

  /**
   * The engine's reading of `list`; nothing when it is empty or cannot be read (the worker
   * failed: then no check runs either), never an error.
   */
  function read(list) {
    if (!list.trim()) return Promise.resolve(NOTHING);
    return parse(list).catch(() => NOTHING);
  }

  /** Keeps `applied`'s answer once it comes, unless a newer list replaced it meanwhile. */
  function settle() {
    const reading = applied;
    appliedNow = null;
    reading.then((value) => {
      if (reading === applied) appliedNow = value;
    });
  }

  /** The check options of a reading of the list. */
  function optionsOf({ exclusions: { urls, domains } }) {
    if (!settings.quotes && !urls.length && !domains.length) return undefined;
    return { exclude: { urls, domains, quotes: settings.quotes } };
  }

  /** The bad lines of `reading`, named in the interface's language. */
  function showRefused({ refused }) {
    els.refused.replaceChildren(
      ...refused.map((r) => {
        const li = document.createElement("li");
        li.textContent =
          r.reason === "too_many" ? t("excludeTooMany", { line: r.line }) : t("excludeRefused", { line: r.line, text: r.text });
        return li;
      }),
    );
    els.refused.hidden = refused.length === 0;
  }

  async function render() {
    const reading = shown;
    const { exclusions } = await applied;
    const n = exclusions.urls.length + exclusions.domains.length;
    const parts = [];
    if (settings.quotes) parts.push(t("excludeOnQuotes"));
    if (n) parts.push(t("excludeOnSites", { n: n }));
    els.summary.textContent = parts.length ? `${t("exclusions")}: ${parts.join(", ")}` : t("exclusions");
    const typed = await reading;
    // A newer reading may have started meanwhile: it shows itself.
    if (reading === shown) showRefused(typed);
  }

  function commit() {
    clearTimeout(typing);
    const next = { quotes: els.quotes.checked, list: els.list.value.trim() };
    if (next.quotes === settings.quotes && next.list === settings.list) return;
    if (next.list !== settings.list) {
      applied = read(next.list);
      settle();
    }
    shown = applied;
    settings = next;
    save(settings);
    render();
    onChange();
  }

  // Validated as typed: the bad lines are named before "Apply", which leaves them out.
  els.list.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      shown = read(els.list.value);
      render();
    }, TYPING_MS);
  });
  els.quotes.addEventListener("change", commit);
  els.apply.addEventListener("click", commit);
  render();

  return {
    /**
     * The engine's check options for the current settings (`undefined`: nothing excluded): only
     * the list's good lines apply. A promise of them until the engine has read the list.
     */
    checkOptions() {
      return appliedNow ? optionsOf(appliedNow) : applied.then(optionsOf);
    },
    render,
  };
}
