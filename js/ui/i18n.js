// The strings and number formats of the report components, in Russian and English.
//
// Shared by the copywriter's page (www/js/i18n.js adds its own strings and keeps the page's current
// language) and by the editor integrations (the CKEditor 5 plugin, <uniq-check>), which each get a
// fixed language from their configuration. Nothing here touches the document or localStorage: the
// host decides the language, this module only translates.

export const LANGUAGES = ["ru", "en"];

/** Report, panel and check-state strings; `{name}` placeholders are filled by t(). */
export const messages = {
  ru: {
    uniqueness: "Уникальность",
    bandHigh: "≥ 90 % — уникальный",
    bandMid: "70–90 % — стоит доработать",
    bandLow: "< 70 % — много заимствований",
    method: "метод: {method}",
    "method.shingles": "шинглы",
    "method.short": "короткий текст",
    "method.exact": "точный дубликат",
    stateIdle: "Начните писать — проверка запускается после паузы.",
    stateChecking: "Проверяем…",
    stateDone: "Проверено за {ms} мс: {words} значимых слов.",
    stateNoWords: "В тексте пока нет слов для проверки.",
    stateError: "Ошибка проверки: {message}",
    stateWaiting: "Ждём загрузки базы…",
    stateStale: "Текст изменился после проверки.",
    stateManual: "Нажмите «Проверить уникальность».",
    loading: "Загружаем базу текстов…",
    loadError: "Не удалось загрузить базу текстов: {message}",
    sources: "Источники",
    sourcesEmpty: "Совпадений не найдено.",
    sourceShare: "{share} текста",
    sourceWords: "{words} слов",
    sourceExact: "точная копия",
    sourceFocus: "Показать фрагменты этого источника",
    sourceUntitled: "Без названия",
    fragments: "Совпавшие фрагменты",
    fragmentsHint: "Выберите фрагмент, чтобы перейти к нему в тексте.",
    fragmentsNone: "Нет совпавших фрагментов.",
    fragmentLabel: "Фрагмент {n}: {sources}",
    caretIn: "Курсор во фрагменте, совпадающем с: {sources}",
    checkButton: "Проверить уникальность",
    liveToggle: "Проверять на лету",
    panelLabel: "Проверка уникальности",
  },
  en: {
    uniqueness: "Uniqueness",
    bandHigh: "≥ 90 % — unique",
    bandMid: "70–90 % — worth a rewrite",
    bandLow: "< 70 % — heavily borrowed",
    method: "method: {method}",
    "method.shingles": "shingles",
    "method.short": "short text",
    "method.exact": "exact duplicate",
    stateIdle: "Start writing — the check runs whenever you pause.",
    stateChecking: "Checking…",
    stateDone: "Checked in {ms} ms: {words} content words.",
    stateNoWords: "There are no words to check yet.",
    stateError: "The check failed: {message}",
    stateWaiting: "Waiting for the database…",
    stateStale: "The text has changed since the check.",
    stateManual: "Press “Check uniqueness”.",
    loading: "Downloading the text database…",
    loadError: "Could not load the text database: {message}",
    sources: "Sources",
    sourcesEmpty: "No matches found.",
    sourceShare: "{share} of the text",
    sourceWords: "{words} words",
    sourceExact: "exact copy",
    sourceFocus: "Show this source's fragments",
    sourceUntitled: "Untitled",
    fragments: "Matching fragments",
    fragmentsHint: "Choose a fragment to jump to it in the text.",
    fragmentsNone: "No matching fragments.",
    fragmentLabel: "Fragment {n}: {sources}",
    caretIn: "The caret is in a fragment matching: {sources}",
    checkButton: "Check uniqueness",
    liveToggle: "Live check",
    panelLabel: "Uniqueness check",
  },
};

/** "ru" for any Russian tag ("ru-RU"), else "en": the two languages the strings exist in. */
export function normalizeLang(tag) {
  return String(tag ?? "").toLowerCase().startsWith("ru") ? "ru" : "en";
}

/** Fills `{name}` placeholders; an unknown name stays visible rather than vanishing. */
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/**
 * The translator the report view expects: `t`, numbers and percentages in one fixed language.
 * `extra` adds or overrides strings (per language), as the page does with its own.
 * @param {string} lang
 * @param {Record<string, Record<string, string>>} [extra]
 */
export function createTranslator(lang, extra = {}) {
  const code = normalizeLang(lang);
  const table = { ...messages.en, ...(extra.en ?? {}), ...messages[code], ...(extra[code] ?? {}) };
  const number = (n, digits = 0) => new Intl.NumberFormat(code, { maximumFractionDigits: digits }).format(n);
  return {
    lang: code,
    t: (key, params) => fill(table[key] ?? key, params),
    formatNumber: number,
    // A narrow no-break space before "%", as both Russian and English typesetting accept.
    formatPercent: (value0to100, digits = 1) => `${number(value0to100, digits)}\u202f%`,
  };
}
