// Types of uniqcheck/ui: the report components shared by the page and the editor integrations.
import type { CheckOptions, Disguise, Excluded, Manifest, Report, SourceMatch, UniqcheckError } from "../web/uniqcheck.js";
import type { WorkerChecker } from "../worker-client.js";
import type { LoadProgress } from "../index.js";

export type Language = "ru" | "en";

/** Strings and number formats in one language (`createTranslator`). */
export interface Translator {
  /** The language (plural rules of counts such as "2 фрагмента"); English when absent. */
  readonly lang?: Language;
  /**
   * The string `key` with its placeholders filled: `{name}` is `params[name]`; `{name:phrase}` is
   * the number `params[name]` with the counted phrase's word in the right form ("21 слово").
   */
  t(key: string, params?: Record<string, string | number>): string;
  formatNumber(value: number, digits?: number): string;
  /** `87,5 %` / `87.5 %` (a narrow no-break space before the sign). */
  formatPercent(value0to100: number, digits?: number): string;
}

export const LANGUAGES: readonly Language[];
/** Every string of the report components, by language. */
export const messages: Record<Language, Record<string, string>>;
/** "ru" for any Russian tag, else "en". */
export function normalizeLang(tag: string | null | undefined): Language;
/**
 * Fills `{name}` placeholders; `{name:phrase}` asks `counted(phrase, params[name])` (without it,
 * the value alone).
 */
export function fill(
  template: string,
  params?: Record<string, string | number>,
  counted?: ((phrase: string, n: number) => string) | null,
): string;
/**
 * `n` with the form of counted phrase `key` for its number in `lang` (Intl.PluralRules: "21 слово",
 * "22 слова", "25 слов"): `lookup(key + "." + category)`, falling back to `key.other`.
 */
export function countedPhrase(
  lookup: (key: string) => string | undefined,
  lang: string,
  key: string,
  n: number,
  number?: (n: number) => string,
): string;
/**
 * What went wrong, in `t`'s language: translated by the error's stable `code` (messages
 * `error.<code>`), never its English message; an error without a known code gets `error.unknown`.
 */
export function describeError(error: unknown, t: Translator["t"]): string;
/** A translator for `lang`; `extra` adds or overrides strings per language. */
export function createTranslator(
  lang: string,
  extra?: Partial<Record<Language, Record<string, string>>>,
): Translator & { lang: Language; /** `n` with counted phrase `key` ("2 фрагмента"). */ plural(key: string, n: number): string };

/** Number of source colours (`.c0` … `.c7` in report.css). */
export const PALETTE_SIZE: number;
/** Where a figure's bands start, in per cent: "high" from `BAND_HIGH` (90), "mid" from `BAND_MID` (70). */
export const BAND_HIGH: number;
export const BAND_MID: number;
/** A figure's band (uniqueness and originality alike): `BAND_HIGH` and above high, `BAND_MID` and above mid, else low. */
export function band(uniqueness: number): "high" | "mid" | "low";

/** A kind of highlighted stretch: a copy (`report.fragments`), a rewrite or a translation. */
export type StretchKind = "fragment" | "rewrite" | "translation";
/** Every kind, in the order hosts look for a stretch at a point or at the caret. */
export const STRETCH_KINDS: readonly StretchKind[];
/**
 * The report's stretches of `kind` (`fragments`, `rewrites`, `translations`), or a source's pairs
 * of a rewrite or a translation (`SourceMatch.rewrites`, `.translations`); `[]` when absent (a
 * report from an engine before translations).
 */
export function stretchesOf(report: Report | null | undefined, kind: StretchKind): Report["fragments"];
export function stretchesOf(source: SourceMatch | null | undefined, kind: "rewrite" | "translation"): SourceMatch["rewrites"];

/**
 * Where a report view renders. `value` and `originality` receive the figures' numbers (and their
 * band as `data-band`); a `.figure` element around one also gets `data-band` and `--value`
 * (0..1) for its bar. Without `originality`, `rewrites` or `translations`, those parts are simply
 * not shown.
 */
export interface ReportViewElements {
  score: HTMLElement;
  /** Uniqueness: the share not copied word for word. */
  value: HTMLElement;
  /** Originality: the share neither copied nor rewritten (never above uniqueness). */
  originality?: HTMLElement;
  method: HTMLElement;
  sources: HTMLOListElement;
  sourcesEmpty: HTMLElement;
  /** The copied fragments. */
  fragments: HTMLOListElement;
  /** The rewritten passages. */
  rewrites?: HTMLOListElement;
  /** The translated passages (from a source in the other language). */
  translations?: HTMLOListElement;
}

export interface ReportViewHooks {
  /** A source was chosen in the list (null: none): dim the other sources' highlights. */
  onFocusSource?(sourceId: string | null): void;
  /**
   * Fragment `i` was hovered or focused (`select: true`: activated): show it in the text. A
   * fragment spanning several paragraphs is listed paragraph by paragraph: `range` is the
   * `[start, end)` of the paragraph chosen (absent for a one-paragraph fragment).
   */
  onRevealFragment?(i: number, options?: { select?: boolean; range?: [number, number] | null }): void;
  /** Rewrite `i` (of `report.rewrites`) was hovered, focused or activated in the list (`range` as above). */
  onRevealRewrite?(i: number, options?: { select?: boolean; range?: [number, number] | null }): void;
  /** Translation `i` (of `report.translations`) was hovered, focused or activated in the list (`range` as above). */
  onRevealTranslation?(i: number, options?: { select?: boolean; range?: [number, number] | null }): void;
  onUnreveal?(): void;
}

export interface ReportView {
  /** The colour index (0 … PALETTE_SIZE − 1) of a source, by its rank in the report. */
  colourOf(sourceId: string): number;
  titleOf(sourceId: string): string;
  readonly report: Report | null;
  readonly focused: string | null;
  /** A new report for `text` (null: nothing checked). */
  show(report: Report | null, text: string): void;
  /** Re-renders (after a language switch). */
  render(): void;
  /** The names and shares of fragment `i`'s sources. */
  describe(i: number): string;
  /** The names and shares of rewrite `i`'s sources. */
  describeRewrite(i: number): string;
  /** The names and shares of translation `i`'s sources. */
  describeTranslation(i: number): string;
  /** The caret line's sentence for stretch `i` of `kind`: "The caret is in a passage translated from: …". */
  caretLine(kind: StretchKind, i: number): string;
  /**
   * The tooltip of a highlighted stretch: copy, rewrite or translation, each source's title,
   * address and copied share, and where the source passage is, or why it is not shown (packs and
   * stores hold no text).
   */
  tipContent(kind: StretchKind, i: number): HTMLElement;
}

/** Renders a report into elements the host laid out (the page). */
export function createReportView(els: ReportViewElements, hooks?: ReportViewHooks, i18n?: Translator): ReportView;

export interface ReportPanel {
  /** The panel (`section.uq-report.uq-panel`): place it anywhere. */
  readonly element: HTMLElement;
  readonly view: ReportView;
  /** The status line: a key of `messages` (stateChecking, stateDone, ...) and its parameters. */
  setState(key: string | null, params?: Record<string, string | number>): void;
  /** The caret line (a polite live region): what the stretch under the editor's caret matches; "" clears it. */
  setCaret(sentence: string): void;
  /** The line under the figures saying what they are measured against (`corpusLine`). */
  setCorpus(manifest: Manifest | null | undefined): void;
  /** The line counting the words of `text` that mix alphabets and its invisible characters (`disguisesSentence`). */
  setDisguises(disguises: Disguise[], text: string): void;
  /** Shows a report; the line of what it left out (`leftOutSentence`) comes with it. */
  show(report: Report | null, text: string): void;
}

/** A self-contained panel: both figures and their legend, status, sources, copied fragments, rewrites and translations. */
export function createReportPanel(options?: { i18n?: Translator; hooks?: ReportViewHooks; headingLevel?: number }): ReportPanel;

/**
 * What the figures are measured against, in the translator's language: "Проверено по
 * 30 документам, база от 24 ноября 2026 г." ("" without a manifest).
 */
export function corpusLine(
  manifest: Pick<Manifest, "documents" | "generated"> | null | undefined,
  i18n: Pick<Translator, "t" | "lang">,
): string;

/**
 * "Смешанные алфавиты и скрытые символы: 2 слова со смешанными алфавитами, 3 невидимых символа. …"
 * for a sketch's `disguises` of `text`, in `t`'s language ("" when there are none); `key` is the
 * sentence around the counts (default `disguisesFound`).
 */
export function disguisesSentence(disguises: Disguise[], text: string, t: Translator["t"], key?: string): string;

/**
 * What a check left out (the report's `excluded`, from `CheckOptions.exclude`), in `t`'s language:
 * "Исключено из проверки: 1 источник по вашему списку; 31 слово в цитатах …" ("" when nothing was).
 */
export function excludedSentence(excluded: Excluded | null | undefined, t: Translator["t"]): string;

/**
 * What a check that reached its bound of candidates left unchecked (the report's `capped` and
 * `unchecked`): "Не проверено (достигнут предел проверки): 12 документов …" ("" when it was not capped).
 */
export function uncheckedSentence(report: Pick<Report, "capped" | "unchecked"> | null | undefined, t: Translator["t"]): string;

/** `excludedSentence` of the report's `excluded`, then `uncheckedSentence`: all a check left out ("" when nothing). */
export function leftOutSentence(report: Report | null | undefined, t: Translator["t"]): string;

/** The legend of the highlights: a copy (solid fill), a rewrite (tint, dashed underline) and a translation (tint, dotted underline). */
export function marksLegend(t: Translator["t"]): HTMLParagraphElement;
/** "What these figures mean": both definitions and the bands, in a <details>. */
export function figuresHelp(t: Translator["t"]): HTMLDetailsElement;

/** The floating tooltip of highlighted stretches (`createTip`). */
export interface Tip {
  /** `div.uq-tip[role=tooltip]`, appended to the document's body when first shown. */
  readonly element: HTMLElement;
  /** Shows `content` next to `anchor` (below it, or above when there is no room); `key` avoids re-rendering the same content. */
  show(anchor: DOMRect | Element, content: Node, key?: string): void;
  /** Hides it (also on Escape and on any scroll). */
  hide(): void;
  /** The key of what is shown, or null. */
  readonly key: string | null;
}
export function createTip(doc?: Document): Tip;

/** Links report.css (shipped next to report.js) into `doc` once. */
export function ensureStyles(doc?: Document): void;

export const DEBOUNCE_MS: number;

export interface CheckRunnerOptions {
  manifestUrl?: string | URL;
  /** A WorkerChecker (or a promise of one) to share; otherwise one is started for manifestUrl. */
  checker?: WorkerChecker | Promise<WorkerChecker>;
  /** Milliseconds after the last change before a scheduled check starts (default 400). */
  debounce?: number;
  /** Also compute the sketch (word counts) for each text. */
  sketch?: boolean;
  workerUrl?: string | URL;
  /**
   * The `.wasm` the worker loads (a URL; default: the one `moduleUrl()` names in the worker): the
   * page's choice when it must agree with something else, e.g. what a service worker keeps offline.
   */
  wasm?: string | URL;
  /**
   * The engine's options for every check, e.g. `{ exclude: { domains: ["my-site.ru"], quotes: true } }`,
   * or a function of the text about to be checked giving them, read as each check starts (call
   * `now(text)` after a change).
   */
  checkOptions?: CheckOptions | ((text: string) => CheckOptions | undefined | Promise<CheckOptions | undefined>);
  /** Opening the packs (the page table): bytes fetched of `total`. */
  onProgress?(progress: LoadProgress): void;
  /** URLs of pack files the worker fetched (for a check or a download), e.g. for a service worker to keep. */
  onFetch?(urls: string[]): void;
  onStart?(text: string): void;
  onResult(result: { text: string; report: Report; sketch?: unknown; ms: number }): void;
  onEmpty?(text: string): void;
  /** A check failed (an empty text goes to `onEmpty` instead); `describeError` puts it into words. */
  onError?(error: UniqcheckError, text: string): void;
}

export interface CheckRunner {
  readonly ready: Promise<WorkerChecker>;
  /** The text changed: check it after the debounce pause (only the newest text is checked). */
  schedule(text: string): void;
  /** Check now. */
  now(text: string): void;
  cancel(): void;
}

/** One check at a time in a Web Worker; stale answers are dropped. */
export function createCheckRunner(options: CheckRunnerOptions): CheckRunner;
