// The counters copywriters expect next to a text: words, characters with and without spaces,
// "water" and "nausea" (classic and academic), and the words behind the last two. Characters are
// counted here (Unicode code points, as text.ru and Advego count them: an emoji is one
// character); words, water and nausea come from the engine (sketch().stats, src/stats.rs), so
// the page never disagrees with the check about what a word is, and the rules live in one place.

import { formatNumber, formatPercent, t } from "./i18n.js";

/** Whitespace as /\s/u matches it, by UTF-16 code unit (every such character is in the BMP). */
function isSpace(c) {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Characters of `text`, with and without whitespace (any Unicode space, tabs, newlines). One pass
 * over code units, no allocation: a megabyte takes milliseconds (a regular expression per
 * character took a tenth of a second).
 */
export function countChars(text) {
  let all = 0;
  let spaces = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A low surrogate after a high one is the second half of one character.
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) continue;
    }
    all += 1;
    if (isSpace(c)) spaces += 1;
  }
  return { all, noSpaces: all - spaces };
}

/** Water as a share 0..1 (the engine's figure), or null when there are no words. */
export function water(sketch) {
  if (!sketch || !sketch.allWords) return null;
  return sketch.stats.water / 100;
}

/**
 * @param {{ words: HTMLElement, chars: HTMLElement, noSpaces: HTMLElement, water: HTMLElement,
 *           nauseaClassic?: HTMLElement, nauseaAcademic?: HTMLElement, topWords?: HTMLElement,
 *           waterWords?: HTMLElement, details?: HTMLElement }} els
 */
export function createCounters(els) {
  let last = { text: "", sketch: null, chars: { all: 0, noSpaces: 0 } };
  function render() {
    const { all, noSpaces } = last.chars;
    els.chars.textContent = formatNumber(all);
    els.noSpaces.textContent = formatNumber(noSpaces);
    els.words.textContent = last.sketch ? formatNumber(last.sketch.allWords) : last.text.trim() ? "…" : "0";
    const w = water(last.sketch);
    els.water.textContent = w === null ? "—" : formatPercent(w * 100, 0);
    const stats = last.sketch?.allWords ? last.sketch.stats : null;
    if (els.nauseaClassic) els.nauseaClassic.textContent = stats ? formatNumber(stats.nauseaClassic, 2) : "—";
    if (els.nauseaAcademic) els.nauseaAcademic.textContent = stats ? formatPercent(stats.nauseaAcademic, 1) : "—";
    list(els.topWords, stats?.topWords ?? []);
    list(els.waterWords, stats?.waterWords ?? []);
    if (els.details) els.details.hidden = !stats;
  }
  function list(el, words) {
    if (!el) return;
    el.replaceChildren(
      ...words.map(({ word, count }) => {
        const li = document.createElement("li");
        const w = document.createElement("span");
        w.className = "word";
        w.textContent = word;
        const n = document.createElement("span");
        n.className = "count";
        n.textContent = formatNumber(count);
        n.setAttribute("aria-label", t("timesLabel", { n: count }));
        li.append(w, n);
        return li;
      }),
    );
    if (words.length === 0) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = t("wordsNone");
      el.append(li);
    }
  }
  return {
    /** Characters update at once; words, water and nausea once the engine's sketch arrives. */
    setText(text) {
      last = { text, sketch: null, chars: countChars(text) };
      render();
    },
    setSketch(text, sketch) {
      if (text !== last.text) return; // a stale answer
      last = { ...last, sketch };
      render();
    },
    snapshot() {
      const { all, noSpaces } = last.chars;
      const stats = last.sketch?.stats ?? null;
      return {
        words: last.sketch?.allWords ?? null,
        contentWords: last.sketch?.words ?? null,
        characters: all,
        charactersWithoutSpaces: noSpaces,
        water: water(last.sketch),
        nauseaClassic: stats ? stats.nauseaClassic : null,
        nauseaAcademic: stats ? stats.nauseaAcademic / 100 : null,
        topWords: stats?.topWords ?? null,
        waterWords: stats?.waterWords ?? null,
      };
    },
    render,
  };
}
