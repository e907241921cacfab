// uniqcheck/ckeditor5: the CKEditor 5 plugin. `ckeditor5` is a peer dependency: the plugin imports
// the editor's own classes, so it is never bundled twice next to the integrator's editor.
export { UniqCheck } from "./uniqcheck.js";
export { modelText, toModelRange } from "./modeltext.js";
