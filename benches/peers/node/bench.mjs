// Node side of benches/peers/compare.sh: npm `minhash` (MinHash + LshIndex) against our WebAssembly
// engine, on the documents `peers corpus` wrote. One JSON line per result, peak RSS last.
//
//   node bench.mjs sketch minhash|wasm CORPUS N RUNS   sketch throughput, first N documents, best of RUNS
//   node bench.mjs index minhash|wasm-check|wasm-candidates CORPUS RUNS
//
// `wasm` rows use the npm package in pkg/ (Checker.sketch, Checker.check) and, for what it does not
// expose alone (the sketch without the rest of the pipeline, the candidate lookup without the
// alignment), the bench module built from benches/peers/rust into target/peers/wasm (PEERS_WASM).
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const require = createRequire(import.meta.url);
const repo = new URL("../../..", import.meta.url).pathname;
// The index sizes, as the native side reads them (PEERS_SIZES: compare.sh's smoke run).
const SIZES = (process.env.PEERS_SIZES ?? "1000,10000,100000").split(",").map(Number);

/** Records `[u32 LE length][UTF-8]`, read one at a time (the corpus file never sits in memory). */
function* records(path, limit = Infinity) {
  const fd = openSync(path, "r");
  const head = Buffer.alloc(4);
  let pos = 0;
  try {
    for (let i = 0; i < limit; i++) {
      if (readSync(fd, head, 0, 4, pos) < 4) return;
      const len = head.readUInt32LE(0);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, pos + 4);
      pos += 4 + len;
      yield buf.toString("utf8");
    }
  } finally {
    closeSync(fd);
  }
}

// The peers' tokenization (gaoya's whitespace_split): the lowercased text split at ASCII
// whitespace and ASCII punctuation; word 4-shingles as strings joined by one space.
const WORD = /[^\t\n\f\r !-\/:-@\[-`{-~]+/g;
function shingles(text) {
  const w = text.toLowerCase().match(WORD) ?? [];
  const out = [];
  for (let i = 0; i + 4 <= w.length; i++) out.push(`${w[i]} ${w[i + 1]} ${w[i + 2]} ${w[i + 3]}`);
  return out;
}

function peakRssKb() {
  const m = readFileSync("/proc/self/status", "utf8").match(/^VmHWM:\s+(\d+)/m);
  return m ? +m[1] : 0;
}

function bestOf(runs, f) {
  let best = Infinity;
  let sum = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    sum = f();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return [best, sum];
}

function sketchLine(tool, row, docs, seconds, shingleCount) {
  const bytes = docs.reduce((n, t) => n + Buffer.byteLength(t), 0);
  console.log(JSON.stringify({
    tool, row, documents: docs.length, bytes, seconds: +seconds.toFixed(4),
    mb_per_s: +(bytes / seconds / 1e6).toFixed(3), docs_per_s: +(docs.length / seconds).toFixed(1),
    shingles: shingleCount, peak_rss_kb: peakRssKb(),
  }));
}

/** Query latency: per index size, the best of `runs` passes over the drafts (after a warm-up). */
class Latency {
  constructor() {
    Object.assign(this, { micros: [], candidates: [], found: [], build_seconds: [] });
  }
  measure(drafts, sources, runs, query) {
    let best = Infinity, total = 0, found = 0;
    for (let pass = 0; pass <= runs; pass++) {
      const t = performance.now();
      const results = drafts.map((_, i) => query(i));
      const s = (performance.now() - t) / 1000;
      if (pass > 0) best = Math.min(best, s);
      total = results.reduce((n, r) => n + r.length, 0);
      found = results.filter((r, i) => r.includes(sources[i])).length;
    }
    this.micros.push(+((best / drafts.length) * 1e6).toFixed(2));
    this.candidates.push(+(total / drafts.length).toFixed(1));
    this.found.push(found);
  }
  print(tool, row, drafts) {
    console.log(JSON.stringify({
      tool, row, sizes: SIZES, query_us: this.micros, candidates: this.candidates, found: this.found,
      drafts, build_seconds: this.build_seconds.map((s) => +s.toFixed(2)), peak_rss_kb: peakRssKb(),
    }));
  }
}

function drafts(dir) {
  const texts = [...records(join(dir, "drafts.bin"))];
  const sources = readFileSync(join(dir, "drafts.txt"), "utf8").trim().split("\n").map(Number);
  return { texts, sources };
}

// The npm package as scripts/build-pkg builds it, through its Node entry (what a consumer's
// `require("uniqcheck")` resolves: package.json's exports), never wasm-pack's output inside it.
const pkgDir = join(repo, "pkg");
const pkg = () => require(join(pkgDir, JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).exports["."].node.require));
// The bench module, built by compare.sh for wasm-bindgen's `web` target (ES modules: the glue and
// any JavaScript snippet of the crates it links load as they are), instantiated from its bytes.
async function benchModule() {
  const dir = resolve(repo, process.env.PEERS_WASM ?? "target/peers/wasm");
  const m = await import(join(dir, "uniqcheck_peers.js"));
  m.initSync({ module: readFileSync(join(dir, "uniqcheck_peers_bg.wasm")) });
  return m;
}
// Installed by compare.sh from this folder's package-lock.json into target/peers/node.
const { Minhash, LshIndex } = createRequire(join(repo, "target/peers/node/package.json"))("minhash");

function minhashOf(text) {
  const m = new Minhash(); // numPerm 128 by default
  for (const s of shingles(text)) m.update(s);
  return m;
}

// The same signature as minhashOf, bit for bit, about 3 times sooner: Minhash.update hashes the
// string again for each of the 128 permutations, and every `new Minhash()` draws the same
// permutations again (about 0.1 ms). This draws them once and hashes each string once, with the
// package's own hash and arithmetic. Only used to fill the 100,000-document index within the time
// budget (2 minutes instead of about 6 with the package itself); checked against minhashOf on the first
// documents before use. LshIndex keeps only the keys, so the index is the same either way.
// Sketch throughput is always measured with minhashOf.
const template = new Minhash();
function minhashOfHoisted(text) {
  const { permA, permB, prime } = template;
  const hashvalues = new Array(template.numPerm).fill(template.maxHash);
  for (const s of shingles(text)) {
    const h = template.hash(s);
    for (let i = 0; i < hashvalues.length; i++) {
      const v = (permA[i] * h + permB[i]) % prime;
      if (v < hashvalues[i]) hashvalues[i] = v;
    }
  }
  const m = Object.create(template);
  m.hashvalues = hashvalues;
  return m;
}

// LshIndex.query of minhash 0.0.9 throws (TypeError) when one of the query's bands is in no
// indexed document, which is the usual case for a new draft. This is its loop with that guard.
function lshQuery(index, m) {
  const matches = {};
  for (const band of index.getHashbands(m)) {
    for (const key of index.index[band] ?? []) matches[key] = true;
  }
  return Object.keys(matches);
}

const [mode, tool, dir, ...rest] = process.argv.slice(2);
if (mode === "sketch") {
  const [n, runs] = rest.map(Number);
  const docs = [...records(join(dir, "docs.bin"), n)];
  if (tool === "minhash") {
    const [s, count] = bestOf(runs, () => {
      let c = 0;
      for (const t of docs) {
        const m = new Minhash();
        for (const sh of shingles(t)) {
          m.update(sh);
          c++;
        }
      }
      return c;
    });
    sketchLine("minhash", "sketch", docs, s, count);
  } else if (tool === "wasm") {
    // The whole pipeline through the npm package (as benches/wasm/throughput.mjs measures it).
    const checker = new (pkg().Checker)();
    const [s, count] = bestOf(runs, () => {
      let c = 0;
      for (const t of docs) {
        try {
          c += checker.sketch(t).shingles;
        } catch {
          // empty or binary texts are refused, as natively
        }
      }
      return c;
    });
    sketchLine("ours-wasm", "pipeline", docs, s, count);
    // The sketch alone, on shingle hashes the pipeline made beforehand inside the module.
    const bench = new (await benchModule()).Bench();
    for (const t of docs) bench.addText(t);
    const [s2, sets] = bestOf(runs, () => bench.sketchAll());
    sketchLine("ours-wasm", "sketch", docs, s2, sets);
  } else throw new Error(`unknown tool ${tool}`);
} else if (mode === "index") {
  const [runs] = rest.map(Number);
  const { texts, sources } = drafts(dir);
  const lat = new Latency();
  let build = 0;
  if (tool === "minhash") {
    const queries = texts.map(minhashOf);
    const index = new LshIndex({ bandSize: 4 }); // 32 bands of 4 rows, as for every peer
    for (const t of records(join(dir, "docs.bin"), 200)) {
      const [a, b] = [minhashOf(t).hashvalues, minhashOfHoisted(t).hashvalues];
      if (a.some((v, i) => v !== b[i])) throw new Error("the hoisted minhash differs from the package's");
    }
    const docs = records(join(dir, "docs.bin"));
    let added = 0;
    for (const size of SIZES) {
      const t = performance.now();
      for (; added < size; added++) {
        const { value } = docs.next();
        index.insert(added, minhashOfHoisted(value));
      }
      build += (performance.now() - t) / 1000;
      lat.build_seconds.push(build);
      lat.measure(queries, sources, runs, (i) => lshQuery(index, queries[i]).map(Number));
    }
    lat.print("minhash", "lsh-query", queries.length);
  } else if (tool === "wasm-check") {
    // The npm package's Checker on the version-2 packs `peers corpus` wrote, one generation per
    // size, every page and record added before the first check (what "download everything"
    // leaves): the check then reads memory only. Build time is the adding, from disk.
    const packs = join(dir, "packs");
    let engine;
    for (const size of SIZES) {
      const t = performance.now();
      engine?.free();
      const manifest = JSON.parse(readFileSync(join(packs, `manifest-${size}.json`), "utf8"));
      engine = pkg().Checker.open(manifest, readFileSync(join(packs, manifest.table.name)));
      const list = readFileSync(join(packs, manifest.records.name));
      // Table parts and records, then the pages of the parts: until nothing is missing.
      for (let names = [...engine.allPages(), ...engine.recordsToFetch(list)]; names.length; names = engine.allPages()) {
        for (const name of names) engine.add(name, readFileSync(join(packs, name)));
      }
      build += (performance.now() - t) / 1000;
      lat.build_seconds.push(build);
      // Record numbers are document numbers + 1; a source's id is its document number.
      lat.measure(texts, sources, runs, (i) => engine.check(texts[i]).sources.map((s) => Number(s.id)));
    }
    lat.print("ours-wasm", "check", texts.length);
  } else if (tool === "wasm-candidates") {
    // The bench module's Corpus, documents added as the store keeps them (analysed here: the
    // build time includes the analysis, as the native row's does).
    const engine = new (await benchModule()).Bench();
    texts.forEach((t) => engine.addDraft(t));
    const docs = records(join(dir, "docs.bin"));
    let added = 0;
    for (const size of SIZES) {
      const t = performance.now();
      for (; added < size; added++) engine.addDocument(added, docs.next().value);
      build += (performance.now() - t) / 1000;
      lat.build_seconds.push(build);
      lat.measure(texts, sources, runs, (i) => Array.from(engine.candidates(i)));
    }
    lat.print("ours-wasm", "candidates", texts.length);
  } else throw new Error(`unknown tool ${tool}`);
} else {
  console.error("usage: node bench.mjs sketch minhash|wasm CORPUS N RUNS | index minhash|wasm-check|wasm-candidates CORPUS RUNS");
  process.exit(2);
}
