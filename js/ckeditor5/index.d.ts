// Types of uniqcheck/ckeditor5: the CKEditor 5 plugin (ckeditor5 is a peer dependency).
import type { Plugin, Model, ModelRange, ModelElement } from "ckeditor5";
import type { CheckOptions, Report } from "../web/uniqcheck.js";
import type { WorkerChecker } from "../worker-client.js";
import type { ReportPanel, Translator } from "../ui/index.js";
import type { TextMap } from "../textmap.js";

/** `uniqcheck` in the editor configuration. */
export interface UniqCheckConfig {
  /** The packs' manifest on a uniqcheck server (`uniqcheck serve`; another origin needs `--cors`). Default `/packs/manifest.json`. */
  manifestUrl?: string;
  /** The panel's and buttons' language; default the editor's UI language. */
  language?: "ru" | "en";
  /** Milliseconds of quiet before a live check (default 400). */
  debounce?: number;
  /** Start in live mode (check while typing). Default false: the toolbar button checks. */
  live?: boolean;
  /** Where to put the report panel: an element or a selector; default right after the editor; false: nowhere (use `plugin.panel.element`). */
  panel?: HTMLElement | string | false;
  /** Link the package's report.css into the document (default true). */
  styles?: boolean;
  /** A WorkerChecker to share between several editors on one page. */
  checker?: WorkerChecker | Promise<WorkerChecker>;
  /**
   * The engine's options for every check: e.g. `{ exclude: { domains: ["client.ru"], urls: [...],
   * quotes: true } }` leaves out the writer's own sites and quotations (the report's `excluded`
   * says how much); with `quotes`, the editor's block quotes are quotations too.
   */
  checkOptions?: CheckOptions;
}

declare module "ckeditor5" {
  interface EditorConfig {
    uniqcheck?: UniqCheckConfig;
  }
  interface PluginsMap {
    UniqCheck: UniqCheck;
  }
}

/**
 * Toolbar items `uniqCheck` (check now) and `uniqCheckLive` (the live switch); copied fragments,
 * rewrites and translations highlighted with editing-only markers (`uniqcheck:<i>`,
 * `uniqcheck-rewrite:<i>`, `uniqcheck-translation:<i>`; classes `uniqcheck-mark`,
 * `uniqcheck-rewrite`, `uniqcheck-translation`): getData() and the undo stack never change.
 * Hovering a highlight, or moving the caret into one, shows its source in a tooltip. Events:
 * `ready` ({ checker }), `report` ({ report, text }).
 */
export class UniqCheck extends Plugin {
  static get pluginName(): "UniqCheck";
  /** Observable: check while typing. */
  live: boolean;
  /** Observable: a check is running. */
  readonly isChecking: boolean;
  /** The last report shown and the text it is for. */
  readonly report: Report | null;
  readonly text: string | null;
  readonly panel: ReportPanel;
  readonly i18n: Translator;
  /** The worker checker, once its packs are loaded. */
  readonly checker?: WorkerChecker;
  /**
   * The engine's options for the next checks (from `config.uniqcheck.checkOptions`; set it to
   * change them, then `check()`). With `exclude.quotes`, block quotes count as quotations.
   */
  checkOptions?: CheckOptions;
  /** The plain text checked: the model's text blocks joined with "\n\n". */
  getText(): string;
  /** Checks the current content now. */
  check(): void;
  /** Outlines fragment `i` (−1: none) and scrolls to it; `select` also selects it. */
  reveal(i: number, options?: { select?: boolean }): void;
  /** Outlines rewrite `i` (−1: none) and scrolls to it; `select` also selects it. */
  revealRewrite(i: number, options?: { select?: boolean }): void;
  /** Outlines translation `i` (−1: none) and scrolls to it; `select` also selects it. */
  revealTranslation(i: number, options?: { select?: boolean }): void;
  /** Removes the report and every highlight. */
  clear(): void;
}

/** The text of a model root with its map back to model positions (`{ ref: element, offset }`). */
export function modelText(model: Model, rootName?: string): TextMap<ModelElement>;
/** A text range of `map` as a model range, or null. */
export function toModelRange(model: Model, map: TextMap<ModelElement>, start: number, end: number): ModelRange | null;
