// The strings and number formats of the report components, in Russian and English.
//
// Shared by the copywriter's page (www/js/i18n.js adds its own strings and keeps the page's current
// language) and by the editor integrations (the CKEditor 5 plugin, <uniq-check>), which each get a
// fixed language from their configuration. Nothing here touches the document or localStorage: the
// host decides the language, this module only translates.

export const LANGUAGES = ["ru", "en"];

/**
 * Where a figure's bands start (uniqueness and originality alike), in per cent: at BAND_HIGH and
 * above "high", from BAND_MID "mid", below it "low". The one place they are written: `band()`
 * (report.js), the legends below and the page's history read them.
 */
export const BAND_HIGH = 90;
export const BAND_MID = 70;

/** Report, panel and check-state strings; `{name}` placeholders are filled by t(). */
export const messages = {
  ru: {
    uniqueness: "Уникальность",
    originality: "Оригинальность",
    uniquenessNote: "не скопировано дословно",
    originalityNote: "не скопировано и не переписано",
    uniquenessHelp:
      "Уникальность — доля значимых слов текста, которые не совпадают с источниками дословно. Эту цифру показывают привычные сервисы проверки (например, text.ru).",
    originalityHelp:
      "Оригинальность — доля значимых слов, которые не скопированы и не переписаны: рерайт (слова переставлены или заменены синонимами) и перевод из источника на другом языке её тоже снижают. Она не бывает выше уникальности.",
    figuresHelp: "Что значат эти цифры",
    legendCopy: "копия — совпадает дословно",
    legendRewrite: "рерайт — переписано из источника",
    legendTranslation: "перевод — переведено из источника",
    bandHigh: `≥ ${BAND_HIGH} % — уникальный`,
    bandMid: `${BAND_MID}–${BAND_HIGH} % — стоит доработать`,
    bandLow: `< ${BAND_MID} % — много заимствований`,
    method: "метод: {method}",
    "method.shingles": "шинглы",
    "method.short": "короткий текст",
    "method.exact": "точный дубликат",
    stateIdle: "Начните писать — проверка запускается после паузы.",
    stateChecking: "Проверяем…",
    stateDone: "Проверено за {ms} мс: {words:contentWords}.",
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
    sourceCopied: "дословно: {share} текста",
    sourceNameCopied: "{title} (дословно {share})",
    sourceWords: "{words:contentWords}",
    sourceExact: "точная копия",
    sourceFocus: "Показать фрагменты этого источника",
    sourceUntitled: "Без названия",
    fragments: "Скопировано дословно",
    fragmentsHint: "Выберите фрагмент, чтобы перейти к нему в тексте.",
    fragmentsNone: "Нет совпавших фрагментов.",
    fragmentLabel: "Фрагмент {n}: {sources}",
    fragmentPiece: "абзац {k} из {m}",
    showAll: "Показать все ({n})",
    caretIn: "Курсор во фрагменте, совпадающем с: {sources}",
    sourceRewrites: "рерайт: {count:rewriteCount}",
    sourceTranslations: "перевод: {count:rewriteCount}",
    // Counted phrases: "{name:key}" in a string is params[name] (a number) with key's form for it
    // (key.one, key.few, key.many, key.other: Intl.PluralRules' categories for the language).
    "words.one": "{n} слово",
    "words.few": "{n} слова",
    "words.many": "{n} слов",
    "words.other": "{n} слова",
    "contentWords.one": "{n} значимое слово",
    "contentWords.few": "{n} значимых слова",
    "contentWords.many": "{n} значимых слов",
    "contentWords.other": "{n} значимого слова",
    "documents.one": "{n} документу",
    "documents.few": "{n} документам",
    "documents.many": "{n} документам",
    "documents.other": "{n} документа",
    disguiseMixed: "{n:mixedWords}",
    disguiseHidden: "{n:hiddenChars}",
    disguisesFound:
      "Смешанные алфавиты и скрытые символы: {parts}. Проверка видит сквозь них, но текст с ними выглядит подделанным, чтобы обмануть проверку.",
    // What the check left out (CheckOptions.exclude; the report's `excluded`).
    excludedNote: "Исключено из проверки: {parts}.",
    excludedSources: "{n:sources} по вашему списку",
    excludedQuoted: "{n:words} в цитатах (не считаются заимствованием)",
    // A check that reached its bound of candidates (the report's `capped` and `unchecked`).
    uncheckedNote: "Не проверено (достигнут предел проверки): {n:moreDocs} с общими с текстом фрагментами. Уникальность может быть завышена.",
    "moreDocs.one": "{n} документ",
    "moreDocs.few": "{n} документа",
    "moreDocs.many": "{n} документов",
    "moreDocs.other": "{n} документа",
    "sources.one": "{n} источник",
    "sources.few": "{n} источника",
    "sources.many": "{n} источников",
    "sources.other": "{n} источника",
    "checks.one": "{n} проверка",
    "checks.few": "{n} проверки",
    "checks.many": "{n} проверок",
    "checks.other": "{n} проверки",
    "mixedWords.one": "{n} слово со смешанными алфавитами",
    "mixedWords.few": "{n} слова со смешанными алфавитами",
    "mixedWords.many": "{n} слов со смешанными алфавитами",
    "mixedWords.other": "{n} слова со смешанными алфавитами",
    "hiddenChars.one": "{n} невидимый символ",
    "hiddenChars.few": "{n} невидимых символа",
    "hiddenChars.many": "{n} невидимых символов",
    "hiddenChars.other": "{n} невидимого символа",
    "rewriteCount.one": "{n} фрагмент",
    "rewriteCount.few": "{n} фрагмента",
    "rewriteCount.many": "{n} фрагментов",
    "rewriteCount.other": "{n} фрагмента",
    rewrites: "Переписано (рерайт)",
    rewritesHint: "Фрагменты, пересказанные близко к источнику: слова переставлены или заменены.",
    rewritesNone: "Рерайта не найдено.",
    rewriteLabel: "Рерайт {n}: {sources}",
    caretInRewrite: "Курсор в переписанном фрагменте (рерайт) из: {sources}",
    translations: "Переведено из источника",
    translationsHint: "Фрагменты, переведённые из источника на другом языке (английский ↔ русский).",
    translationsNone: "Переводов не найдено.",
    translationLabel: "Перевод {n}: {sources}",
    caretInTranslation: "Курсор во фрагменте, переведённом из источника: {sources}",
    tipCopy: "Копия: совпадает дословно",
    tipRewrite: "Рерайт: переписано из источника",
    tipTranslation: "Перевод из источника",
    tipSourceShare: "дословно {share} текста",
    tipNoSourceText: "Исходный абзац здесь не показан: база в браузере хранит отпечатки текстов, а не сами тексты. Откройте источник по ссылке в списке источников.",
    tipSourceAt: "В источнике: символы {start}–{end} (сам текст источника в браузере недоступен).",
    checkButton: "Проверить уникальность",
    liveToggle: "Проверять на лету",
    panelLabel: "Проверка уникальности",
    corpusNear: "Проверено по {documents:documents}, база от {date}",
    // Errors, by their stable `code` (describeError); each fits after "Ошибка проверки: ".
    "error.empty_text": "в тексте нет слов для проверки",
    "error.binary_text": "это похоже на двоичные данные, а не на текст",
    "error.text_too_large": "текст слишком большой для проверки",
    "error.invalid_parameter": "параметры базы текстов вне допустимых пределов; пересоберите базу",
    "error.invalid_option": "неверная настройка проверки",
    "error.invalid_argument": "неверный аргумент (ошибка интеграции)",
    "error.pack_magic": "по этому адресу лежит не база текстов uniqcheck; проверьте адрес",
    "error.pack_version": "база текстов собрана другой версией uniqcheck; обновите страницу или пересоберите базу",
    "error.pack_truncated": "база текстов загрузилась не полностью; обновите страницу",
    "error.pack_checksum": "база текстов повреждена (не сходится контрольная сумма); обновите страницу",
    "error.pack_corrupt": "база текстов повреждена; пересоберите её",
    "error.pack_params": "база текстов собрана с другими параметрами; пересоберите её",
    "error.pack_canonicalizer": "база текстов собрана по другой версии правил обработки текста; пересоберите её",
    "error.manifest_invalid": "описание базы текстов (manifest.json) повреждено или это не база uniqcheck",
    "error.pack_missing": "нужная часть базы текстов не загрузилась; проверьте связь и повторите проверку",
    "error.fetch_failed": "нет связи с сервером (или он не разрешает доступ с этого сайта)",
    "error.http_status": "сервер ответил ошибкой HTTP {status}",
    "error.worker_failed": "фоновая проверка не запустилась; обновите страницу",
    "error.internal": "внутренняя ошибка uniqcheck; сообщите о ней разработчикам",
    "error.unknown": "непредвиденная ошибка ({message})",
  },
  en: {
    uniqueness: "Uniqueness",
    originality: "Originality",
    uniquenessNote: "not copied word for word",
    originalityNote: "neither copied nor rewritten",
    uniquenessHelp:
      "Uniqueness is the share of the text's content words that do not match a source word for word: the figure familiar checkers (text.ru and the like) show.",
    originalityHelp:
      "Originality is the share of content words neither copied nor rewritten: a rewrite (words reordered or swapped for synonyms) and a translation from a source in the other language lower it too. It is never above uniqueness.",
    figuresHelp: "What these figures mean",
    legendCopy: "copy — matches word for word",
    legendRewrite: "rewrite — reworded from a source",
    legendTranslation: "translation — translated from the source",
    bandHigh: `≥ ${BAND_HIGH} % — unique`,
    bandMid: `${BAND_MID}–${BAND_HIGH} % — worth a rewrite`,
    bandLow: `< ${BAND_MID} % — heavily borrowed`,
    method: "method: {method}",
    "method.shingles": "shingles",
    "method.short": "short text",
    "method.exact": "exact duplicate",
    stateIdle: "Start writing — the check runs whenever you pause.",
    stateChecking: "Checking…",
    stateDone: "Checked in {ms} ms: {words:contentWords}.",
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
    sourceCopied: "copied: {share} of the text",
    sourceNameCopied: "{title} ({share} copied)",
    sourceWords: "{words:contentWords}",
    sourceExact: "exact copy",
    sourceFocus: "Show this source's fragments",
    sourceUntitled: "Untitled",
    fragments: "Copied word for word",
    fragmentsHint: "Choose a fragment to jump to it in the text.",
    fragmentsNone: "No matching fragments.",
    fragmentLabel: "Fragment {n}: {sources}",
    fragmentPiece: "paragraph {k} of {m}",
    showAll: "Show all ({n})",
    caretIn: "The caret is in a fragment matching: {sources}",
    sourceRewrites: "rewritten: {count:rewriteCount}",
    sourceTranslations: "translated: {count:rewriteCount}",
    // English needs one and other; few and many repeat other so both tables have the same keys.
    "words.one": "{n} word",
    "words.few": "{n} words",
    "words.many": "{n} words",
    "words.other": "{n} words",
    "contentWords.one": "{n} content word",
    "contentWords.few": "{n} content words",
    "contentWords.many": "{n} content words",
    "contentWords.other": "{n} content words",
    "documents.one": "{n} document",
    "documents.few": "{n} documents",
    "documents.many": "{n} documents",
    "documents.other": "{n} documents",
    disguiseMixed: "{n:mixedWords}",
    disguiseHidden: "{n:hiddenChars}",
    disguisesFound:
      "Mixed alphabets and hidden characters: {parts}. The check sees through them, but a text holding them looks doctored to fool a checker.",
    excludedNote: "Left out of the check: {parts}.",
    excludedSources: "{n:sources} on your list",
    excludedQuoted: "{n:words} in quotations (not counted as copied)",
    uncheckedNote: "Not checked (the check's limit was reached): {n:moreDocs} sharing text with the draft. Uniqueness may be overstated.",
    "moreDocs.one": "{n} document",
    "moreDocs.few": "{n} documents",
    "moreDocs.many": "{n} documents",
    "moreDocs.other": "{n} documents",
    "sources.one": "{n} source",
    "sources.few": "{n} sources",
    "sources.many": "{n} sources",
    "sources.other": "{n} sources",
    "checks.one": "{n} check",
    "checks.few": "{n} checks",
    "checks.many": "{n} checks",
    "checks.other": "{n} checks",
    "mixedWords.one": "{n} word mixing alphabets",
    "mixedWords.few": "{n} words mixing alphabets",
    "mixedWords.many": "{n} words mixing alphabets",
    "mixedWords.other": "{n} words mixing alphabets",
    "hiddenChars.one": "{n} invisible character",
    "hiddenChars.few": "{n} invisible characters",
    "hiddenChars.many": "{n} invisible characters",
    "hiddenChars.other": "{n} invisible characters",
    "rewriteCount.one": "{n} passage",
    "rewriteCount.few": "{n} passages",
    "rewriteCount.many": "{n} passages",
    "rewriteCount.other": "{n} passages",
    rewrites: "Rewritten passages",
    rewritesHint: "Passages reworded closely from a source: words reordered or replaced.",
    rewritesNone: "No rewritten passages.",
    rewriteLabel: "Rewrite {n}: {sources}",
    caretInRewrite: "The caret is in a passage rewritten from: {sources}",
    translations: "Translated from the source",
    translationsHint: "Passages translated from a source in the other language (English ↔ Russian).",
    translationsNone: "No translated passages.",
    translationLabel: "Translation {n}: {sources}",
    caretInTranslation: "The caret is in a passage translated from: {sources}",
    tipCopy: "Copy: matches word for word",
    tipRewrite: "Rewrite: reworded from a source",
    tipTranslation: "Translated from the source",
    tipSourceShare: "{share} of the text copied word for word",
    tipNoSourceText: "The source passage is not shown: the database in the browser holds fingerprints of texts, not the texts. Open the source from its link in the sources list.",
    tipSourceAt: "In the source: characters {start}–{end} (the source's text is not available in the browser).",
    checkButton: "Check uniqueness",
    liveToggle: "Live check",
    panelLabel: "Uniqueness check",
    corpusNear: "Checked against {documents:documents}, indexed {date}",
    // Errors, by their stable `code` (describeError); each fits after "The check failed: ".
    "error.empty_text": "the text has no words to check",
    "error.binary_text": "this looks like binary data, not text",
    "error.text_too_large": "the text is too large to check",
    "error.invalid_parameter": "the text database's parameters are out of range; rebuild it",
    "error.invalid_option": "a check option is invalid",
    "error.invalid_argument": "an argument of the wrong type (an integration bug)",
    "error.pack_magic": "this address does not hold a uniqcheck text database; check it",
    "error.pack_version": "the text database was built by another version of uniqcheck; reload the page or rebuild it",
    "error.pack_truncated": "the text database was not downloaded in full; reload the page",
    "error.pack_checksum": "the text database is damaged (its checksum does not match); reload the page",
    "error.pack_corrupt": "the text database is corrupt; rebuild it",
    "error.pack_params": "the text database was built with other parameters; rebuild it",
    "error.pack_canonicalizer": "the text database was built with another version of the text rules; rebuild it",
    "error.manifest_invalid": "the text database's description (manifest.json) is damaged or not a uniqcheck one",
    "error.pack_missing": "a part of the text database the check needs was not downloaded; check the connection and try again",
    "error.fetch_failed": "cannot reach the server (or it does not allow this site)",
    "error.http_status": "the server answered with HTTP error {status}",
    "error.worker_failed": "the background checker did not start; reload the page",
    "error.internal": "an internal uniqcheck error; please report it",
    "error.unknown": "an unexpected error ({message})",
  },
};

/** "ru" for any Russian tag ("ru-RU"), else "en": the two languages the strings exist in. */
export function normalizeLang(tag) {
  return String(tag ?? "").toLowerCase().startsWith("ru") ? "ru" : "en";
}

/**
 * Fills `{name}` placeholders; an unknown name stays visible rather than vanishing. A counted
 * placeholder `{name:key}` asks `counted(key, params[name])` for the phrase (a number with its
 * word in the right form); without `counted`, the number alone.
 */
export function fill(template, params = {}, counted = null) {
  return template.replace(/\{(\w+)(?::([\w.]+))?\}/g, (whole, name, key) => {
    if (!(name in params)) return whole;
    return key && counted ? counted(key, params[name]) : String(params[name]);
  });
}

/** One PluralRules per language: making one costs far more than asking it (a long report asks often). */
const pluralRules = new Map();

/**
 * `n` with the form of `key` its number takes in `lang` ("21 слово", "22 слова", "25 слов";
 * "1 word", "2 words"): `lookup(key + "." + category)` for Intl.PluralRules' category, falling back
 * to `key.other`, its `{n}` filled with `number(n)`.
 * @param {(key: string) => string | undefined} lookup
 * @param {string} lang
 * @param {string} key
 * @param {number} n
 * @param {(n: number) => string} [number]
 */
export function countedPhrase(lookup, lang, key, n, number = String) {
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  const category = rules.select(Number(n));
  const template = lookup(`${key}.${category}`) ?? lookup(`${key}.other`) ?? `{n} ${key}`;
  return fill(template, { n: number(n) });
}

/**
 * What went wrong, in the words of `t`'s language: an error the package threw is translated by its
 * stable `code` (its English `message` is for developers: the console, logs). An error without a
 * known code (a browser's or Node's own) gets a generic sentence with its message.
 * @param {unknown} err
 * @param {(key: string, params?: Record<string, unknown>) => string} t
 */
export function describeError(err, t) {
  const key = `error.${err?.code}`;
  if (key in messages.en) return t(key, { status: err.status ?? "?" });
  return t("error.unknown", { message: err?.message ?? String(err) });
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
  const formats = [];
  const number = (n, digits = 0) => (formats[digits] ??= new Intl.NumberFormat(code, { maximumFractionDigits: digits })).format(n);
  const counted = (key, n) => countedPhrase((k) => table[k], code, key, n, number);
  return {
    lang: code,
    t: (key, params) => fill(table[key] ?? key, params, counted),
    /** `n` with the form of counted phrase `key` ("21 слово"): see countedPhrase. */
    plural: (key, n) => counted(key, n),
    formatNumber: number,
    // A narrow no-break space before "%", as both Russian and English typesetting accept.
    formatPercent: (value0to100, digits = 1) => `${number(value0to100, digits)}\u202f%`,
  };
}
