// The page's two languages. Static text is marked in index.html with data-i18n="key" (text) and
// data-i18n-attr="attr:key;attr:key" (attributes); dynamic text asks t(key, params). The choice
// comes from localStorage (the switch), else from navigator.language.
//
// The report's strings (figure, sources, fragments, check states) live in the package's
// uniqcheck/ui module, shared with the editor plugins; this file adds the page's own strings and
// keeps the page's current language.

import { messages, fill, countedPhrase } from "/pkg/ui/i18n.js";

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
    placeholder: "Вставьте или напишите текст — вставленный проверяется сразу, набранный — как только вы остановитесь.",
    cWords: "Слов",
    cChars: "Символов",
    cCharsNoSpaces: "Без пробелов",
    cWater: "Вода",
    waterTip: "«Вода» — доля стоп-слов (предлогов, союзов, местоимений и т. п.): 1 − значимые слова / все слова.",
    exportJson: "Скачать отчёт (JSON)",
    print: "Печать / PDF",
    corpusInfo: "Проверка по {documents:documents} — база обновлена {date}.",
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
    translationsHintPage:
      "Фрагменты, переведённые из источника на другом языке (английский ↔ русский). Наведите указатель на текст, подчёркнутый точками, или поставьте в него курсор, чтобы увидеть источник.",
    cNauseaClassic: "Тошнота классическая",
    cNauseaAcademic: "Тошнота академическая",
    nauseaClassicTip: "Классическая тошнота — квадратный корень из числа повторов самого частого значимого слова (все формы слова считаются вместе), как у Advego.",
    nauseaAcademicTip: "Академическая тошнота — доля в тексте десяти самых частых повторяющихся значимых слов, в процентах от всех слов, как у Advego. Обычно 7–9 %; выше 10–12 % текст кажется переспамленным.",
    nauseaTip: "«Тошнота» — как часто повторяются слова: классическая — √ числа повторов самого частого слова, академическая — доля самых частых слов.",
    wordStats: "Слова за цифрами: частые слова и «вода»",
    topWords: "Самые частые слова",
    topWordsNote: "По ним считается тошнота; формы одного слова сложены вместе.",
    waterWords: "Стоп-слова («вода»)",
    waterWordsNote: "Предлоги, союзы, местоимения и частицы: из них состоит «вода».",
    wordsNone: "Нет слов.",
    timesLabel: "встречается {n:times}",
    "times.one": "{n} раз",
    "times.few": "{n} раза",
    "times.many": "{n} раз",
    "times.other": "{n} раза",
    disguiseNote: "Смешанные алфавиты и скрытые символы: {parts}. Они отмечены в тексте красным. Проверка видит сквозь них (сводит к обычным буквам), но текст с ними выглядит подделанным, чтобы обмануть проверку.",
    caretInMixed: "Курсор в слове со смешанными алфавитами: русские и латинские буквы вперемешку.",
    caretInInvisible: "Здесь невидимые символы (пробел нулевой ширины, мягкий перенос и т. п.).",
    history: "История проверок",
    historySearch: "Найти в истории",
    historyClear: "Очистить историю",
    historyEmpty: "Проверок пока не было.",
    historyNoMatch: "Ничего не найдено.",
    historyWords: "{words:words}",
    historyOpen: "Открыть",
    historyPrivacy: "История хранится только в этом браузере: цифра, дата и сам текст (до 50 000 знаков).",
    exclusions: "Исключения",
    excludeQuotes: "Не считать заимствованием текст в кавычках («…», „…“, \"…\")",
    excludeListLabel: "Не искать на сайтах и страницах (по одному в строке): домен — весь сайт с поддоменами, адрес со страницей — только она",
    excludeApply: "Применить",
    excludeNote: "Хранится только в этом браузере.",
    excludeOnQuotes: "цитаты",
    excludeOnSites: "{n:sites}",
    excludeRefused: "Строка {line}: «{text}» — не адрес сайта или страницы, она не применяется.",
    excludeTooMany: "Строка {line}: больше 1000 сайтов и страниц, она не применяется.",
    "sites.one": "{n} сайт или страница",
    "sites.few": "{n} сайта или страницы",
    "sites.many": "{n} сайтов или страниц",
    "sites.other": "{n} сайта или страницы",
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
    placeholder: "Paste or type your text — pasted text is checked at once, typed text whenever you pause.",
    cWords: "Words",
    cChars: "Characters",
    cCharsNoSpaces: "Without spaces",
    cWater: "Water",
    waterTip: "“Water” is the share of stop words (prepositions, conjunctions, pronouns…): 1 − content words / all words.",
    exportJson: "Download report (JSON)",
    print: "Print / PDF",
    corpusInfo: "Checked against {documents:documents}, indexed {date}.",
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
    translationsHintPage:
      "Passages translated from a source in the other language (English ↔ Russian). Point at the dotted underline in the text, or move the caret into it, to see the source.",
    cNauseaClassic: "Nausea, classic",
    cNauseaAcademic: "Nausea, academic",
    nauseaClassicTip: "Classic nausea: the square root of how often the most frequent content word occurs (all forms of a word together), as Advego counts it.",
    nauseaAcademicTip: "Academic nausea: the share of the text taken by its ten most frequent repeated content words, in percent of all words, as Advego counts it. Usually 7–9 %; above 10–12 % a text reads as keyword-stuffed.",
    nauseaTip: "“Nausea” is how much words repeat: classic is √ of the top word's count, academic the share of the most frequent words.",
    wordStats: "The words behind the figures: frequent words and “water”",
    topWords: "Most frequent words",
    topWordsNote: "Nausea is counted from these; the forms of a word are added up.",
    waterWords: "Stop words (“water”)",
    waterWordsNote: "Prepositions, conjunctions, pronouns and particles: what “water” is made of.",
    wordsNone: "No words.",
    timesLabel: "occurs {n:times}",
    "times.one": "{n} time",
    "times.other": "{n} times",
    disguiseNote: "Mixed alphabets and hidden characters: {parts}. They are marked in red in the text. The check sees through them (it folds them into plain letters), but a text holding them looks doctored to fool a checker.",
    caretInMixed: "The caret is in a word mixing alphabets: Cyrillic and Latin letters side by side.",
    caretInInvisible: "Invisible characters here (a zero-width space, a soft hyphen or the like).",
    history: "Check history",
    historySearch: "Search the history",
    historyClear: "Clear the history",
    historyEmpty: "No checks yet.",
    historyNoMatch: "Nothing found.",
    historyWords: "{words:words}",
    historyOpen: "Open",
    historyPrivacy: "The history is kept in this browser only: the figure, date and the text itself (up to 50,000 characters).",
    exclusions: "Exclusions",
    excludeQuotes: "Do not count text in quotation marks (“…”, «…», \"…\") as copied",
    excludeListLabel: "Do not search these sites and pages (one a line): a domain is the whole site with its subdomains, an address with a path only that page",
    excludeApply: "Apply",
    excludeNote: "Kept in this browser only.",
    excludeOnQuotes: "quotations",
    excludeOnSites: "{n:sites}",
    excludeRefused: "Line {line}: “{text}” is not a site or page address; it is left out.",
    excludeTooMany: "Line {line}: more than 1,000 sites and pages; it is left out.",
    "sites.one": "{n} site or page",
    "sites.few": "{n} sites or pages",
    "sites.many": "{n} sites or pages",
    "sites.other": "{n} sites or pages",
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

/** The text for `key` in the current language, with {name} and {name:phrase} placeholders filled. */
export function t(key, params = {}) {
  return fill(dict[lang][key] ?? dict.en[key] ?? key, params, plural);
}

/** `n` with the counted phrase `key` in the current language: "21 слово", "22 слова", "25 слов". */
export function plural(key, n) {
  return countedPhrase((k) => dict[lang][k] ?? dict.en[k], lang, key, n, (x) => formatNumber(x));
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
// One formatter per language and precision: making one costs far more than using it (a long
// report formats a thousand numbers).
const numberFormats = new Map();
export function formatNumber(n, digits = 0) {
  const key = `${lang} ${digits}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(lang, { maximumFractionDigits: digits })));
  return format.format(n);
}

export function formatPercent(value0to100, digits = 1) {
  // A narrow no-break space before "%", as both Russian and English typesetting accept.
  return `${formatNumber(value0to100, digits)}\u202f%`;
}

const dateFormats = new Map();
export function formatDate(date) {
  let format = dateFormats.get(lang);
  if (!format) dateFormats.set(lang, (format = new Intl.DateTimeFormat(lang, { dateStyle: "long", timeStyle: "short" })));
  return format.format(date);
}
