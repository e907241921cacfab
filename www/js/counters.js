// The counters copywriters expect next to a text: words, characters with and without spaces, and
// "water". Characters are counted here (Unicode code points, as text.ru and Advego count them:
// an emoji is one character); words come from the engine's own tokenizer via sketch(), so the
// page never disagrees with the check about what a word is.

import { formatNumber, formatPercent } from "./i18n.js";

/** Characters of `text`, with and without whitespace (any Unicode space, tabs, newlines). */
export function countChars(text) {
  let all = 0;
  let noSpaces = 0;
  for (const ch of text) {
    all += 1;
    if (!/\s/u.test(ch)) noSpaces += 1;
  }
  return { all, noSpaces };
}

/** Water = share of stop words = 1 − content words / all words; null when there are no words. */
export function water(sketch) {
  if (!sketch || !sketch.allWords) return null;
  return 1 - sketch.words / sketch.allWords;
}

/**
 * @param {{ words: HTMLElement, chars: HTMLElement, noSpaces: HTMLElement, water: HTMLElement }} els
 */
export function createCounters(els) {
  let last = { text: "", sketch: null };
  function render() {
    const { all, noSpaces } = countChars(last.text);
    els.chars.textContent = formatNumber(all);
    els.noSpaces.textContent = formatNumber(noSpaces);
    els.words.textContent = last.sketch ? formatNumber(last.sketch.allWords) : last.text.trim() ? "…" : "0";
    const w = water(last.sketch);
    els.water.textContent = w === null ? "—" : formatPercent(w * 100, 0);
  }
  return {
    /** Characters update at once; words and water once the engine's sketch for this text arrives. */
    setText(text) {
      last = { text, sketch: null };
      render();
    },
    setSketch(text, sketch) {
      if (text !== last.text) return; // a stale answer
      last = { text, sketch };
      render();
    },
    snapshot() {
      const { all, noSpaces } = countChars(last.text);
      return {
        words: last.sketch?.allWords ?? null,
        contentWords: last.sketch?.words ?? null,
        characters: all,
        charactersWithoutSpaces: noSpaces,
        water: water(last.sketch),
      };
    },
    render,
  };
}
