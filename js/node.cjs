// The package's entry point for require() in Node.
const wasm = require("./node/uniqcheck.js");

module.exports = {
  Checker: wasm.Checker,
  readManifest: wasm.readManifest,
  parseExclusions: wasm.parseExclusions,
  version: wasm.version,
  packFormatVersion: wasm.packFormatVersion,
  canonicalizerVersion: wasm.canonicalizerVersion,
  initialize: async () => {},
  /** The Node build's module (Node has WebAssembly SIMD). */
  moduleUrl: () => require("node:url").pathToFileURL(require("node:path").join(__dirname, "node", "uniqcheck_bg.wasm")).href,
  /** See the ES module entry; loaded lazily because the loader is an ES module. */
  loadChecker: (manifestUrl, options) => import("./node.mjs").then((m) => m.loadChecker(manifestUrl, options)),
};
