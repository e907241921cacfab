// A use of the npm package's public types, compiled by `tsc -p tests/types` (scripts/test): what a
// TypeScript user writes must type-check, and what the engine refuses must not.
import { Checker, loadChecker, type CheckOptions, type CheckerOptions, type UniqcheckError } from "../../pkg/index.js";
import { createWorkerChecker } from "../../pkg/worker-client.js";

const options: CheckOptions = {
  format: "html",
  gap: 4,
  maxCandidates: 50,
  exclude: { domains: ["example.com"], quotes: true, quoted: [[0, 10]] },
};
const params: CheckerOptions = { n: 4, stopWords: true, maxTextBytes: 1 << 20 };

export async function use(draft: string): Promise<number> {
  const checker = new Checker(params);
  const comparison = checker.compare(draft, "published", options);
  const sketch = checker.sketch(draft);
  const words: number = sketch.stats.topWords.length + comparison.fragments.length;
  {
    // The engine's memory is freed at the end of the block (Symbol.dispose).
    using disposable = new Checker();
    disposable.sketch(draft);
  }
  checker.free();
  const packs = await loadChecker("/packs/manifest.json", { checker: { maxTextBytes: 1 << 20 } });
  const report = await packs.check(draft, { exclude: { urls: ["https://example.com/a"] } });
  for (const f of report.fragments) draft.slice(f.start, f.end);
  const worker = await createWorkerChecker("/packs/manifest.json");
  const again = await worker.check(draft, options);
  worker.terminate();
  return report.uniqueness + again.originality + words;
}

export function codeOf(error: unknown): string | undefined {
  return (error as UniqcheckError).code;
}

// @ts-expect-error: not an option (the engine throws `invalid_option` for it)
const misspelt: CheckOptions = { shingleSize: 3 };
// @ts-expect-error: maxTextBytes is the checker's, not a check's
const perCheck: CheckOptions = { maxTextBytes: 10 };
// @ts-expect-error: a format the engine does not read
const pdf: CheckOptions = { format: "pdf" };
export { misspelt, perCheck, pdf };
