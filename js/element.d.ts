// Types of uniqcheck/element: the <uniq-check> custom element.
import type { CheckOptions, Disguise, Report } from "./web/uniqcheck.js";
import type { ReportPanel, StretchKind } from "./ui/index.js";
import type { TextMap } from "./textmap.js";
export { TextMap, domText } from "./textmap.js";

/**
 * How <uniq-check> talks to an editor. Built in: <textarea>/<input> and contenteditable; another
 * editor (TinyMCE, Tiptap, ...) needs only these few methods, set as `element.adapter` before
 * the element is connected.
 */
export interface UniqCheckAdapter<R = unknown> {
  /** The text to check and, when fragments can be shown in place, its map back to the editor. */
  read(): { text: string; map: TextMap<R> | null };
  /**
   * Calls `onChange` on every edit; returns the unsubscribe function. `typing: false` (a paste, a
   * drop, an undo: a whole edit) has a live check start at once; otherwise, or without an
   * argument, it starts after a pause in typing.
   */
  subscribe(onChange: (edit?: { typing: boolean }) => void): () => void;
  /**
   * Shows the fragments (copies), the rewrites and the translations in the editor (without
   * changing its content), in three distinct styles, and may flag `disguises` (words mixing
   * alphabets, invisible characters: the sketch's, offsets in the same text); optional.
   * `translations` comes last so that an adapter written before them still works (it shows none).
   */
  highlight?(
    fragments: Report["fragments"],
    map: TextMap<R> | null,
    colourOf: (sourceId: string) => number,
    rewrites: Report["rewrites"],
    disguises: Disguise[],
    translations: Report["translations"],
  ): void;
  /**
   * Removes the highlights (the element went away, or the text changed and they do not follow
   * edits).
   */
  clear?(): void;
  /**
   * True when the highlights move with the text as it is edited (live DOM ranges, an editor's
   * own markers): they then stay in place until the next report replaces them instead of being
   * cleared at every edit. Absent or false: `clear` is called on each edit.
   */
  followsEdits?: boolean;
  /**
   * Stretch `index` of `kind` (a fragment, a rewrite or a translation) was hovered (select: false)
   * or chosen (select: true) in the panel; for one paragraph of a stretch spanning several,
   * `fragment` holds that paragraph's `start` and `end`.
   */
  reveal?(fragment: Report["fragments"][number], options: { select: boolean }, index: number, kind?: StretchKind): void;
  /** The highlighted stretch under viewport point (x, y), for its tooltip; optional. */
  hitTest?(x: number, y: number): StretchHit | null;
  /** The highlighted stretch holding the caret, for its tooltip and the caret line; optional. */
  caretHit?(): StretchHit | null;
  /** Or just the caret's offset in the text (null: not in the field), for the caret line. */
  caretOffset?(): number | null;
}

/** A highlighted stretch found at a point or at the caret, and the box to place its tooltip at. */
export interface StretchHit {
  kind: StretchKind;
  /** Its index in `report.fragments`, `report.rewrites` or `report.translations`. */
  index: number;
  rect: DOMRect;
}

/** The adapter for a <textarea> or <input>: panel only (and its caret line), choosing a fragment selects it. */
export function textareaAdapter(field: HTMLTextAreaElement | HTMLInputElement): UniqCheckAdapter<never>;
/**
 * The adapter for a contenteditable: fragments, rewrites and translations painted with the CSS
 * Custom Highlight API (`uniqcheck-cN`, `uniqcheck-rw-cN`, `uniqcheck-tr-cN` by source colour N).
 */
export function contentEditableAdapter(field: HTMLElement): UniqCheckAdapter<Node>;

/**
 * `<uniq-check for="field-id" manifest="/packs/manifest.json" lang="ru" debounce="400" live>`.
 * Exclusions: `exclude-quotes`, `exclude-domains="my-site.ru client.ru"`,
 * `exclude-urls="https://client.ru/page"` (space-separated), or the `checkOptions` property.
 * Fires `uniqcheck-report` (detail: `{ report, text }`) after each check.
 */
export class UniqCheckElement extends HTMLElement {
  /**
   * The engine's options for the next checks (overrides the `exclude-*` attributes). With
   * `exclude.quotes`, a contenteditable's `<blockquote>` and `<q>` count as quotations too.
   */
  checkOptions?: CheckOptions;
  /** A custom adapter; set before the element is connected. */
  adapter?: UniqCheckAdapter;
  /** The last report, and the text it is for. */
  readonly report: Report | null;
  readonly text: string | null;
  readonly panel: ReportPanel;
  /** Check while typing (the `live` attribute's initial value; the switch in the element). */
  live: boolean;
  /** Checks the field's current text now. */
  check(): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "uniq-check": UniqCheckElement;
  }
  interface HTMLElementEventMap {
    "uniqcheck-report": CustomEvent<{ report: Report; text: string }>;
  }
}
