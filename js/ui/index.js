// uniqcheck/ui: the report components shared by the copywriter's page and the editor
// integrations. Styles: uniqcheck/ui/report.css (or ensureStyles()).
export { createReportView, createReportPanel, ensureStyles, band, PALETTE_SIZE, STRETCH_KINDS, stretchesOf, marksLegend, figuresHelp, corpusLine, disguisesSentence, excludedSentence, uncheckedSentence, leftOutSentence } from "./report.js";
export { createTip } from "./tip.js";
export { createTranslator, describeError, messages, normalizeLang, fill, countedPhrase, LANGUAGES, BAND_HIGH, BAND_MID } from "./i18n.js";
export { createCheckRunner, DEBOUNCE_MS } from "./runner.js";
