// Exclusions (issue 19): quotations and the writer's own sites, as text.ru, Advego and Copyleaks
// offer. The page only keeps the settings (localStorage) and turns them into the engine's
// `exclude` check option; the engine applies them (what matches a URL or domain, what a quotation
// is) and its report says what was left out.

const STORE_KEY = "uniqcheck.exclude";

/**
 * Splits the list the writer typed (one entry a line, or separated by spaces or commas) into the
 * engine's `urls` and `domains`: an entry with a path (`site.ru/page`) is one page, an entry
 * without one (`site.ru`, `https://site.ru/`) is a whole site with its subdomains.
 * The engine's `Exclusions::from_list` (src/exclude.rs) is this rule; this copy goes once the
 * WebAssembly facade hands it to the page (issue 32).
 */
export function parseList(text) {
  const urls = [];
  const domains = [];
  for (const entry of text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean)) {
    const rest = entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/#.*$/, "");
    const at = rest.search(/[/?]/);
    const path = at < 0 ? "" : rest.slice(at).replace(/\/+$/, "");
    if (path) urls.push(entry);
    else domains.push(entry);
  }
  return { urls, domains };
}

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

/**
 * @param {{ quotes: HTMLInputElement, list: HTMLTextAreaElement, apply: HTMLButtonElement,
 *           summary: HTMLElement }} els
 * @param {{ t: (key: string, params?: object) => string, onChange: () => void }} deps
 *   `onChange`: the settings changed (check again).
 */
export function createExclusions(els, { t, onChange }) {
  let settings = load();
  els.quotes.checked = settings.quotes;
  els.list.value = settings.list;

  function render() {
    const { urls, domains } = parseList(settings.list);
    const n = urls.length + domains.length;
    const parts = [];
    if (settings.quotes) parts.push(t("excludeOnQuotes"));
    if (n) parts.push(t("excludeOnSites", { n: n }));
    els.summary.textContent = parts.length ? `${t("exclusions")}: ${parts.join(", ")}` : t("exclusions");
  }

  function commit() {
    const next = { quotes: els.quotes.checked, list: els.list.value.trim() };
    if (next.quotes === settings.quotes && next.list === settings.list) return;
    settings = next;
    save(settings);
    render();
    onChange();
  }

  els.quotes.addEventListener("change", commit);
  els.apply.addEventListener("click", commit);
  render();

  return {
    /** The engine's check options for the current settings (`undefined`: nothing excluded). */
    checkOptions() {
      const { urls, domains } = parseList(settings.list);
      if (!settings.quotes && !urls.length && !domains.length) return undefined;
      return { exclude: { urls, domains, quotes: settings.quotes } };
    },
    render,
  };
}
