// The JavaScript half of the facade (src/lib.rs): results the engine hands over as numbers,
// arrays of numbers (views of the module's memory, valid during the call only: everything is
// copied) and one string, made into the objects the package's TypeScript types describe. One call
// across the boundary builds a whole result, where serde-wasm-bindgen crossed it for every field,
// element and string (docs/PERFORMANCE.md, "wasm against native").
//
// Only `export function` declarations, no imports: scripts/build-pkg turns them into CommonJS for
// the package's Node build.

/**
 * A `Sketch`: the same keys, in the same order, with the same values, as the engine's serde
 * serialization made before. `strings` holds, one after the other, the exact hash, the top words,
 * the water words and the disguises' kinds; `lengths` their lengths in UTF-16 code units. `counts`
 * holds the top words' counts (the first `topCount`), then the water words'; `spans` each
 * disguise's start and end.
 */
export function sketchResult(words, allWords, shingles, fingerprints, setSize, minhash, statsWords, contentWords, water, nauseaClassic, nauseaAcademic, strings, lengths, counts, topCount, spans) {
  let at = 0;
  let piece = 0;
  const next = () => strings.slice(at, (at += lengths[piece++]));
  const exact = next();
  const sketch = new Array(minhash.length);
  for (let i = 0; i < minhash.length; i++) sketch[i] = minhash[i];
  const topWords = [];
  const waterWords = [];
  for (let i = 0; i < counts.length; i++) (i < topCount ? topWords : waterWords).push({ word: next(), count: counts[i] });
  const disguises = [];
  for (let i = 0; i < spans.length; i += 2) disguises.push({ start: spans[i], end: spans[i + 1], kind: next() });
  return {
    words,
    allWords,
    shingles,
    fingerprints,
    exact,
    setSize,
    minhash: sketch,
    stats: { words: statsWords, contentWords, water, nauseaClassic, nauseaAcademic, topWords, waterWords },
    disguises,
  };
}
