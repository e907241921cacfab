// The stages of `Checker.sketch`'s work timed apart in V8: `examples/throughput.rs --stages` built
// for wasm32-wasip1 as scripts/build-pkg builds the module (simd128, opt-level 2, wasm-opt -O3)
// and run under Node's WASI, against the same example built natively: the same code on both
// sides, so that each stage's ratio can be read. One JSON line (ms, best of 9 by CPU time; under
// WASI the process's CPU time).
// Build and run (rustup target add wasm32-wasip1 once):
//   CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128 -C opt-level=2" \
//     cargo build --release --example throughput --target wasm32-wasip1
//   node_modules/.bin/wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext \
//     --enable-mutable-globals --enable-nontrapping-float-to-int --enable-multivalue \
//     --enable-reference-types target/wasm32-wasip1/release/examples/throughput.wasm -o /tmp/stages.wasm
//   cargo run --release --example throughput -- --stages FILE...     # native
//   node benches/wasm/stages.mjs /tmp/stages.wasm FILE...              # V8
import { readFileSync } from "node:fs";
import { WASI } from "node:wasi";
import { argv, env } from "node:process";
import { setFlagsFromString } from "node:v8";

// Optimised code from the start: V8 replaces a WebAssembly function's baseline code only when the
// function is next called (there is no on-stack replacement), and here each stage's loop over
// the texts is inlined into one call, which would run baseline code throughout; the package's
// functions, called once a text from JavaScript, run optimised code after the first few texts.
setFlagsFromString("--no-liftoff");

const [module, ...files] = argv.slice(2);
const wasi = new WASI({ version: "preview1", args: ["throughput", "--stages", ...files], env, preopens: { "/": "/" } });
const instance = await WebAssembly.instantiate(await WebAssembly.compile(readFileSync(module)), wasi.getImportObject());
wasi.start(instance);
