// The package's entry point for require() in Node.
const wasm = require("./node/uniqcheck.js");

module.exports = {
  Checker: wasm.Checker,
  readManifest: wasm.readManifest,
  version: wasm.version,
  packFormatVersion: wasm.packFormatVersion,
  canonicalizerVersion: wasm.canonicalizerVersion,
  initialize: async () => {},
  /** See the ES module entry; loaded lazily because the loader is an ES module. */
  loadChecker: (manifestUrl, options) => import("./node.mjs").then((m) => m.loadChecker(manifestUrl, options)),
};
