//! A WebAssembly module for `benches/peers/compare.sh`: what the npm package does not expose on
//! its own, timed from Node. Our sketch alone (set + K = 128 MinHash of shingle hashes the
//! pipeline made beforehand) and our candidate lookup alone (`Corpus::candidates` on a draft
//! analysed beforehand, documents kept as the store keeps them: their keys and records), the same
//! engine code as the package's, built with the same profile.
//! Native builds compile nothing here.

#[cfg(target_arch = "wasm32")]
mod wasm {
    use uniqcheck::sketch::{shingle_set, Sketch};
    use uniqcheck::{CheckOptions, Corpus, Document, Format, Params, SourceInfo};
    use wasm_bindgen::prelude::*;

    /// Documents' shingle hashes, a corpus of documents' records, and analysed drafts.
    #[wasm_bindgen]
    pub struct Bench {
        params: Params,
        hashes: Vec<Vec<u64>>,
        corpus: Corpus,
        numbers: Vec<u32>,
        drafts: Vec<Document>,
    }

    impl Default for Bench {
        fn default() -> Self {
            Self::new()
        }
    }

    #[wasm_bindgen]
    impl Bench {
        /// An empty bench with `Params::default()`.
        #[wasm_bindgen(constructor)]
        pub fn new() -> Bench {
            let params = Params::default();
            Bench {
                corpus: Corpus::new(params).unwrap(),
                params,
                hashes: Vec::new(),
                numbers: Vec::new(),
                drafts: Vec::new(),
            }
        }

        /// Runs the pipeline on `text` and keeps its shingle hashes; returns how many (0: refused).
        #[wasm_bindgen(js_name = addText)]
        pub fn add_text(&mut self, text: &str) -> u32 {
            match Document::analyze(text, Format::Plain, &self.params, usize::MAX) {
                Ok(d) => {
                    self.hashes
                        .push(d.shingles.iter().map(|s| s.hash).collect());
                    d.shingles.len() as u32
                }
                Err(_) => 0,
            }
        }

        /// Sketches every kept list of shingle hashes once; returns the sum of the set sizes.
        #[wasm_bindgen(js_name = sketchAll)]
        pub fn sketch_all(&self) -> u32 {
            self.hashes
                .iter()
                .map(|h| Sketch::from_set(&shingle_set(h.iter().copied()), self.params.k).set_size)
                .sum()
        }

        /// Analyses document number `number` and adds it to the corpus as the store keeps it
        /// (`Corpus::add_record`); returns false when the text is refused (empty or binary).
        #[wasm_bindgen(js_name = addDocument)]
        pub fn add_document(&mut self, number: u32, text: &str) -> bool {
            let Ok(d) = Document::analyze(text, Format::Plain, &self.params, usize::MAX) else {
                return false;
            };
            let info = SourceInfo {
                id: number.to_string(),
                ..SourceInfo::default()
            };
            self.corpus.add_record(info, &d);
            self.numbers.push(number);
            true
        }

        /// Analyses and keeps a draft; returns its index.
        #[wasm_bindgen(js_name = addDraft)]
        pub fn add_draft(&mut self, text: &str) -> Result<u32, JsError> {
            let d = Document::analyze(text, Format::Plain, &self.params, usize::MAX)
                .map_err(|e| JsError::new(&e.to_string()))?;
            self.drafts.push(d);
            Ok(self.drafts.len() as u32 - 1)
        }

        /// The candidate lookup for draft `i`: the numbers of the documents found, best first.
        pub fn candidates(&self, i: usize) -> Vec<u32> {
            self.corpus
                .candidates(&self.drafts[i], &CheckOptions::default())
                .iter()
                .map(|c| self.numbers[c.id as usize])
                .collect()
        }
    }
}
