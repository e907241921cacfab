// The page's two languages. Static text is marked in index.html with data-i18n="key" (text) and
// data-i18n-attr="attr:key;attr:key" (attributes); dynamic text asks t(key, params). The choice
// comes from localStorage (the switch), else from navigator.language.
//
// The report's strings (figure, sources, fragments, check states) live in the package's
// uniqcheck/ui module, shared with the editor plugins; this file adds the page's own strings and
// keeps the page's current language.

import { messages, fill } from "/pkg/ui/i18n.js";

const STORE_KEY = "uniqcheck.lang";

const own = {
  ru: {
    title: "uniqcheck — проверка уникальности текста",
    skip: "Перейти к тексту",
    tagline: "Уникальность текста — прямо в браузере. Текст никуда не отправляется.",
    language: "Язык интерфейса",
    loadingDone: "База загружена",
    draftSection: "Текст для проверки",
    resultSection: "Результат проверки",
    sourcesSection: "Источники и фрагменты",
    draftLabel: "Ваш текст",
    sample: "Вставить пример",
    clear: "Очистить",
    placeholder: "Вставьте или напишите текст — проверка начнётся сама, как только вы остановитесь.",
    cWords: "Слов",
    cChars: "Символов",
    cCharsNoSpaces: "Без пробелов",
    cWater: "Вода",
    waterTip: "«Вода» — доля стоп-слов (предлогов, союзов, местоимений и т. п.): 1 − значимые слова / все слова.",
    exportJson: "Скачать отчёт (JSON)",
    print: "Печать / PDF",
    corpusInfo: "Проверка по {documents} — база обновлена {date}.",
    corpusOffline: "Нет связи с сервером: проверяем по сохранённой базе.",
    corpusFetched: "Для проверок загружено {loaded} из {total}.",
    kib: "{n} КиБ",
    offlineAll: "Скачать всю базу для работы без сети ({size})",
    offlineProgress: "Скачиваем базу: {loaded} из {total}…",
    offlineDone: "Вся база сохранена в браузере: проверка работает и без сети.",
    offlineFailed: "Не удалось скачать всю базу: {message}",
    privacy: "Текст проверяется на вашем устройстве и никуда не отправляется; черновик хранится только в этом браузере.",
    printedAt: "Отчёт uniqcheck, {date}",
    rewritesHintPage:
      "Фрагменты, пересказанные близко к источнику: слова переставлены или заменены. Наведите указатель на подчёркнутый пунктиром текст или поставьте в него курсор, чтобы увидеть источник.",
  },
  en: {
    title: "uniqcheck — text uniqueness checker",
    skip: "Skip to the text",
    tagline: "Text uniqueness, right in your browser. Your text never leaves it.",
    language: "Interface language",
    loadingDone: "Database loaded",
    draftSection: "Text to check",
    resultSection: "Check result",
    sourcesSection: "Sources and fragments",
    draftLabel: "Your text",
    sample: "Paste an example",
    clear: "Clear",
    placeholder: "Paste or type your text — the check starts by itself whenever you pause.",
    cWords: "Words",
    cChars: "Characters",
    cCharsNoSpaces: "Without spaces",
    cWater: "Water",
    waterTip: "“Water” is the share of stop words (prepositions, conjunctions, pronouns…): 1 − content words / all words.",
    exportJson: "Download report (JSON)",
    print: "Print / PDF",
    corpusInfo: "Checked against {documents}, indexed {date}.",
    corpusOffline: "The server is unreachable: checking against the saved database.",
    corpusFetched: "{loaded} of {total} downloaded for checks so far.",
    kib: "{n} KiB",
    offlineAll: "Download the whole database for offline use ({size})",
    offlineProgress: "Downloading the database: {loaded} of {total}…",
    offlineDone: "The whole database is saved in this browser: checks work offline too.",
    offlineFailed: "Could not download the whole database: {message}",
    privacy: "Your text is checked on your device and never sent anywhere; the draft is kept only in this browser.",
    printedAt: "uniqcheck report, {date}",
    rewritesHintPage:
      "Passages reworded closely from a source: words reordered or replaced. Point at the dashed underline in the text, or move the caret into it, to see the source.",
  },
};

const dict = {
  ru: { ...messages.ru, ...own.ru },
  en: { ...messages.en, ...own.en },
};

let lang = pick();
const listeners = new Set();

function pick() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (saved && dict[saved]) return saved;
  } catch {
    // Storage can be disabled (private modes); the browser's language still decides.
  }
  const nav = (navigator.languages?.[0] ?? navigator.language ?? "en").toLowerCase();
  return nav.startsWith("ru") ? "ru" : "en";
}

export function currentLang() {
  return lang;
}

/** The text for `key` in the current language, with {name} placeholders filled. */
export function t(key, params = {}) {
  return fill(dict[lang][key] ?? dict.en[key] ?? key, params);
}

/** Switches the language, remembers it, re-labels the page and tells listeners (dynamic text). */
export function setLang(next) {
  if (!dict[next]) return;
  lang = next;
  try {
    localStorage.setItem(STORE_KEY, next);
  } catch {
    // Not remembered, still switched.
  }
  apply();
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

/** Applies the current language to every marked element under `root`. */
export function apply(root = document) {
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  for (const b of document.querySelectorAll("[data-lang]")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  }
}

// Numbers, percentages and dates in the interface's language (ru: "87,5 %", en: "87.5 %").
export function formatNumber(n, digits = 0) {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(n);
}

export function formatPercent(value0to100, digits = 1) {
  // A narrow no-break space before "%", as both Russian and English typesetting accept.
  return `${formatNumber(value0to100, digits)}\u202f%`;
}

export function formatDate(date) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" }).format(date);
}

/** "30 документов" / "30 documents", with the language's plural rules. */
export function documentsPhrase(n) {
  const forms = {
    ru: { one: "документу", few: "документам", many: "документам", other: "документам" },
    en: { one: "document", other: "documents" },
  }[lang];
  const rule = new Intl.PluralRules(lang).select(n);
  return `${formatNumber(n)} ${forms[rule] ?? forms.other}`;
}
