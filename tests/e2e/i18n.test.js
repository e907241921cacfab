// The interface's words, without a browser: counted phrases in Russian and English for the
// numbers whose forms differ, and the engine's error codes (src/error.rs) against the
// translations of uniqcheck/ui (js/ui/i18n.js). Needs no build: it reads the sources.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createTranslator, messages, describeError, BAND_HIGH, BAND_MID } from "../../js/ui/i18n.js";
import { leftOutSentence, band } from "../../js/ui/report.js";

const ROOT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const NUMBERS = [1, 2, 5, 21, 22, 25, 101, 111];

test("every counted phrase takes the right form for 1, 2, 5, 21, 22, 25, 101, 111", () => {
  const ru = createTranslator("ru");
  const en = createTranslator("en");
  const forms = (tr, key) => NUMBERS.map((n) => tr.plural(key, n));
  assert.deepEqual(forms(ru, "words"), ["1 слово", "2 слова", "5 слов", "21 слово", "22 слова", "25 слов", "101 слово", "111 слов"]);
  assert.deepEqual(forms(ru, "contentWords"), [
    "1 значимое слово",
    "2 значимых слова",
    "5 значимых слов",
    "21 значимое слово",
    "22 значимых слова",
    "25 значимых слов",
    "101 значимое слово",
    "111 значимых слов",
  ]);
  assert.deepEqual(forms(ru, "rewriteCount"), ["1 фрагмент", "2 фрагмента", "5 фрагментов", "21 фрагмент", "22 фрагмента", "25 фрагментов", "101 фрагмент", "111 фрагментов"]);
  assert.deepEqual(forms(ru, "documents"), ["1 документу", "2 документам", "5 документам", "21 документу", "22 документам", "25 документам", "101 документу", "111 документам"]);
  assert.deepEqual(forms(ru, "moreDocs"), ["1 документ", "2 документа", "5 документов", "21 документ", "22 документа", "25 документов", "101 документ", "111 документов"]);
  assert.deepEqual(forms(ru, "checks"), ["1 проверка", "2 проверки", "5 проверок", "21 проверка", "22 проверки", "25 проверок", "101 проверка", "111 проверок"]);
  assert.deepEqual(forms(ru, "mixedWords"), [
    "1 слово со смешанными алфавитами",
    "2 слова со смешанными алфавитами",
    "5 слов со смешанными алфавитами",
    "21 слово со смешанными алфавитами",
    "22 слова со смешанными алфавитами",
    "25 слов со смешанными алфавитами",
    "101 слово со смешанными алфавитами",
    "111 слов со смешанными алфавитами",
  ]);
  assert.deepEqual(forms(ru, "hiddenChars"), [
    "1 невидимый символ",
    "2 невидимых символа",
    "5 невидимых символов",
    "21 невидимый символ",
    "22 невидимых символа",
    "25 невидимых символов",
    "101 невидимый символ",
    "111 невидимых символов",
  ]);
  assert.deepEqual(forms(en, "words"), ["1 word", "2 words", "5 words", "21 words", "22 words", "25 words", "101 words", "111 words"]);
  assert.deepEqual(forms(en, "contentWords").slice(0, 2), ["1 content word", "2 content words"]);
  assert.deepEqual(forms(en, "documents").slice(0, 3), ["1 document", "2 documents", "5 documents"]);
  assert.deepEqual(forms(en, "checks").slice(0, 2), ["1 check", "2 checks"]);
  // Thousands are grouped as the language writes them.
  assert.equal(ru.plural("words", 1021), "1\u00a0021 слово");
  assert.equal(en.plural("words", 1021), "1,021 words");
});

test("every counted string of the interface uses a counted phrase both languages define", () => {
  assert.deepEqual(Object.keys(messages.en).sort(), Object.keys(messages.ru).sort(), "both languages have every string");
  for (const lang of ["ru", "en"]) {
    const tr = createTranslator(lang);
    // The strings that once said "42 слов", "103 значимых слов".
    assert.equal(tr.t("stateDone", { ms: 12, words: 22 }), lang === "ru" ? "Проверено за 12 мс: 22 значимых слова." : "Checked in 12 ms: 22 content words.");
    // Under a source: its copied content words, with their unit (stop words are not counted).
    assert.equal(tr.t("sourceWords", { words: 42 }), lang === "ru" ? "42 значимых слова" : "42 content words");
    assert.equal(tr.t("sourceWords", { words: 1 }), lang === "ru" ? "1 значимое слово" : "1 content word");
    assert.equal(tr.t("sourceRewrites", { count: 5 }), lang === "ru" ? "рерайт: 5 фрагментов" : "rewritten: 5 passages");
    assert.equal(tr.t("sourceTranslations", { count: 2 }), lang === "ru" ? "перевод: 2 фрагмента" : "translated: 2 passages");
    for (const [key, text] of Object.entries(messages[lang])) {
      for (const [, phrase] of text.matchAll(/\{\w+:([\w.]+)\}/g)) {
        const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
        for (const c of categories) assert.ok(`${phrase}.${c}` in messages[lang], `${lang}: ${key} needs ${phrase}.${c}`);
      }
    }
  }
});

test("every error code of the engine (src/error.rs) has Russian and English words, and nothing else does", () => {
  const source = readFileSync(join(ROOT_DIR, "src", "error.rs"), "utf8");
  const block = source.slice(source.indexOf("error_codes! {"));
  const codes = [...block.slice(0, block.indexOf("\n}\n")).matchAll(/^\s+[A-Z_]+ = "([a-z_]+)",/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 19 && codes.includes("binary_text") && codes.includes("pack_missing"), codes.join());
  for (const lang of ["ru", "en"]) {
    const translated = Object.keys(messages[lang])
      .filter((k) => k.startsWith("error.") && k !== "error.unknown")
      .map((k) => k.slice("error.".length));
    assert.deepEqual([...translated].sort(), [...codes].sort(), `${lang}: the translated codes are the engine's codes`);
  }
  // Each reads as Russian in the Russian interface, never the English message.
  const ru = createTranslator("ru");
  for (const code of codes) {
    const words = describeError(Object.assign(new Error("the input looks like binary data"), { code, status: 503 }), ru.t);
    assert.match(words, /[а-я]/, `${code}: ${words}`);
    assert.doesNotMatch(words, /binary data|\{\w+\}/, `${code}: ${words}`);
  }
});

test("a check past its bound of candidates says how many documents it left unchecked, after what was excluded", () => {
  const ru = createTranslator("ru");
  const en = createTranslator("en");
  assert.equal(leftOutSentence({ capped: false, unchecked: 0, excluded: { sources: 0, quoted_words: 0 } }, ru.t), "");
  assert.equal(leftOutSentence(null, en.t), "");
  const capped = { capped: true, unchecked: 1021, excluded: { sources: 1, quoted_words: 0 } };
  assert.equal(
    leftOutSentence(capped, ru.t),
    "Исключено из проверки: 1 источник по вашему списку. Не проверено (достигнут предел проверки): 1\u00a0021 документ с общими с текстом фрагментами. Уникальность может быть завышена.",
  );
  assert.equal(
    leftOutSentence({ ...capped, excluded: undefined, unchecked: 2 }, en.t),
    "Not checked (the check's limit was reached): 2 documents sharing text with the draft. Uniqueness may be overstated.",
  );
});

test("the bands' bounds are written once: band() and the ru and en legends follow BAND_HIGH and BAND_MID", () => {
  assert.deepEqual([BAND_HIGH, BAND_MID], [90, 70]);
  assert.deepEqual([100, BAND_HIGH, BAND_HIGH - 0.1, BAND_MID, BAND_MID - 0.1, 0].map(band), ["high", "high", "mid", "mid", "low", "low"]);
  assert.equal(createTranslator("ru").t("bandMid"), "70–90 % — стоит доработать");
  assert.equal(createTranslator("en").t("bandLow"), "< 70 % — heavily borrowed");
  for (const lang of ["ru", "en"]) {
    assert.ok(messages[lang].bandHigh.includes(`${BAND_HIGH} %`), lang);
    assert.ok(messages[lang].bandLow.includes(`${BAND_MID} %`), lang);
  }
});
