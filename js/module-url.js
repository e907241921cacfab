// @ts-check
// Which of the package's two WebAssembly modules this browser runs, apart from the glue, so that a
// page can ask without loading the engine (www/app.js, for its worker and service worker).

/**
 * A module of one function returning a SIMD value (`i8x16.popcnt` of `i8x16.splat 0`):
 * `WebAssembly.validate` accepts it exactly where the engine has WebAssembly SIMD.
 */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/**
 * The URL of the module this engine runs: `web/uniqcheck_bg.wasm`, built with WebAssembly SIMD, where
 * the engine has it (every current browser); otherwise `web/uniqcheck_nosimd_bg.wasm`, the same code
 * without SIMD (Safari before 16.4, Chrome before 91, Firefox before 89 refuse the first). Both
 * give the same results. Each URL is written out in full so that bundlers ship both files.
 */
export function moduleUrl() {
  const url = WebAssembly.validate(SIMD_PROBE)
    ? new URL("./web/uniqcheck_bg.wasm", import.meta.url)
    : new URL("./web/uniqcheck_nosimd_bg.wasm", import.meta.url);
  return url.href;
}
