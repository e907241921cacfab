//! The engine's layering, checked from its source: no two top-level modules of `src/` import each
//! other, directly or through others. Cycles are how a crate's stages fuse into one knot (a value
//! type that pulls in the pipeline, a stage that needs its own consumer); this test names the
//! cycle a change would add, with the references that make it.
//!
//! What counts: every `crate::module` reference in non-test code (test modules, `#[cfg(test)] mod
//! …`, may use anything), names re-exported at the crate root (`crate::Params`) counted as their
//! module's, comments left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `source` without its comments and without its test modules: everything from the first
/// `#[cfg(test)]` that opens a module (tests come last in this crate's files). A file named
/// `tests.rs` is all test code.
fn code_of(path: &Path, source: &str) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let mut code = String::new();
    let mut test_attribute = false;
    for line in source.lines() {
        let line = line.split("//").next().unwrap_or("");
        let trimmed = line.trim();
        let item = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .fold(trimmed, |t, v| t.strip_prefix(v).unwrap_or(t));
        if test_attribute && item.starts_with("mod ") {
            break;
        }
        if !trimmed.is_empty() {
            test_attribute = trimmed == "#[cfg(test)]";
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The identifiers right after each `crate::` in `code`, and those inside a `crate::{…}` group.
fn crate_references(code: &str) -> Vec<&str> {
    let ident = |s: &str| -> usize {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let item = item.trim();
                out.push(&item[..ident(item)]);
            }
        } else {
            out.push(&rest[..ident(rest)]);
        }
    }
    out
}

/// Names re-exported at the crate root (`pub use module::{A, B};` in lib.rs) → their module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        let names = names.trim_start_matches('{').trim_end_matches('}');
        for name in names.split(',') {
            let name = name.trim().rsplit("::").next().unwrap_or("").trim();
            if !name.is_empty() {
                out.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    out
}

/// Top-level module → the top-level modules its non-test code references, each with one file
/// that does.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    let reexports = root_reexports(&lib);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let top = |path: &Path| -> String {
        let rel = path.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        first.trim_end_matches(".rs").to_owned()
    };
    let modules: BTreeSet<String> = files.iter().map(|f| top(f)).collect();
    let mut graph: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in &files {
        let from = top(file);
        if from == "lib" {
            continue;
        }
        let code = code_of(file, &fs::read_to_string(file).unwrap());
        for name in crate_references(&code) {
            let to = reexports.get(name).map_or(name, String::as_str);
            if to != from && modules.contains(to) && to != "lib" {
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to.to_owned())
                    .or_insert_with(|| file.clone());
            }
        }
    }
    graph
}

/// A cycle through `graph`, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeMap<String, PathBuf>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeMap<String, PathBuf>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(m) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|p| p == m).unwrap();
                let mut cycle = path[start..].to_vec();
                cycle.push(m.to_owned());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(m.to_owned(), Mark::Open);
        path.push(m.to_owned());
        for next in graph.get(m).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(m.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for m in graph.keys() {
        if let Some(cycle) = visit(m, graph, &mut marks, &mut Vec::new()) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn no_import_cycle_among_the_engines_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    // The check itself must see the layers it guards: a graph without edges would pass anything.
    assert!(graph.get("check").is_some_and(|e| e.contains_key("index")));
    assert!(graph.get("index").is_some_and(|e| e.contains_key("pair")));
    if let Some(cycle) = find_cycle(&graph) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]].display()))
            .collect();
        panic!(
            "the engine's modules import each other in a circle:\n  {}\nmove the shared part \
             into a module below both (docs/ARCHITECTURE.md, \"Modules of the engine\")",
            steps.join("\n  ")
        );
    }
}

#[test]
fn the_cycle_finder_finds_a_cycle_and_the_reference_reader_reads_groups() {
    let mut graph: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(a.into())
            .or_default()
            .insert(b.into(), PathBuf::new());
    }
    let cycle = find_cycle(&graph).unwrap();
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4);
    graph.get_mut("c").unwrap().remove("a");
    assert_eq!(find_cycle(&graph), None);
    let code = code_of(
        Path::new("x.rs"),
        "use crate::{pair::Finding, Params};\n// crate::report\nfn f() { crate::hash::mix(1) }\n\
         #[cfg(test)]\npub(crate) mod tests { use crate::index; }\n",
    );
    assert_eq!(crate_references(&code), ["pair", "Params", "hash"]);
}
