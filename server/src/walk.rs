//! Walking folders of texts: the files `check --against` compares with and `index` stores.
//!
//! Guarantees: each root is walked sorted by file name (a stable order, so ids and reports do not
//! depend on the file system); hidden files and folders (a name starting with `.`) are skipped
//! below a root; symbolic links are followed; a file named directly as a root is taken whatever
//! its name (the user asked for it). Inside folders, one rule ([`pass_over`]) decides which
//! files are texts: those with one of the caller's extensions or none (a mail or news archive
//! names its posts by number: 20 Newsgroups' `82757`), except READMEs and a folder's licence and
//! project files (`LICENSE`, `COPYING`, `Makefile`, …: they describe or build the folder; they are
//! not published texts). Every other file is returned as
//! [`PassedOver`] with the reason, so a caller can say what it left out; what cannot be read is
//! reported, never fatal.

use std::path::{Path, PathBuf};
use walkdir::{DirEntry, WalkDir};

/// A file found under a root.
#[derive(Debug, Clone)]
pub struct Found {
    /// The path as walked (under the root as given).
    pub path: PathBuf,
    /// The path relative to its root; the file name for a file named directly.
    pub rel: PathBuf,
    /// Size in bytes (0 when unknown).
    pub size: u64,
}

/// A place that could not be walked, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    /// The path that failed.
    pub place: String,
    /// The I/O error, in words.
    pub reason: String,
}

/// A file inside a folder that is not taken as a text.
#[derive(Debug, Clone)]
pub struct PassedOver {
    /// The path as walked.
    pub path: PathBuf,
    /// Why, in words (the head, before " (", is the same for every file passed over alike).
    pub reason: String,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// The texts.
    pub found: Vec<Found>,
    /// What could not be walked.
    pub unreadable: Vec<Unreadable>,
    /// Files inside folders that are not texts.
    pub passed_over: Vec<PassedOver>,
}

/// Names (without extension, any case) of the files that describe or build a folder rather than
/// being published in it.
const PROJECT_FILES: [&str; 12] = [
    "license",
    "licence",
    "copying",
    "notice",
    "authors",
    "contributors",
    "changelog",
    "changes",
    "makefile",
    "dockerfile",
    "gemfile",
    "procfile",
];

/// Why a file inside a folder is not a text, or `None` when it is one: it has one of
/// `extensions` (any case) or none, and is neither a README nor a licence or project file.
pub fn pass_over(path: &Path, extensions: &[&str]) -> Option<String> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.eq_ignore_ascii_case("readme") {
        return Some("a README, not a published text (name it to index it anyway)".to_owned());
    }
    if PROJECT_FILES.iter().any(|p| stem.eq_ignore_ascii_case(p)) {
        return Some(
            "a licence or project file, not a published text (name it to index it anyway)"
                .to_owned(),
        );
    }
    let extension = path.extension()?;
    let extension = extension.to_string_lossy();
    if extensions
        .iter()
        .any(|e| e.eq_ignore_ascii_case(&extension))
    {
        return None;
    }
    Some(format!("not a text file type (.{extension})"))
}

/// The files under `roots`, as described in the module doc.
pub fn text_files(roots: &[PathBuf], extensions: &[&str]) -> Walk {
    let mut walk = Walk::default();
    for root in roots {
        let entries = WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !is_hidden(e));
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    walk.unreadable.push(Unreadable {
                        place: e.path().unwrap_or(root).display().to_string(),
                        reason: e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string()),
                    });
                    continue;
                }
            };
            if entry.file_type().is_dir() {
                continue;
            }
            if entry.depth() > 0 {
                if let Some(reason) = pass_over(entry.path(), extensions) {
                    walk.passed_over.push(PassedOver {
                        path: entry.into_path(),
                        reason,
                    });
                    continue;
                }
            }
            let rel = if entry.depth() == 0 {
                PathBuf::from(entry.file_name())
            } else {
                entry
                    .path()
                    .strip_prefix(root)
                    .map_or_else(|_| entry.path().to_owned(), Path::to_owned)
            };
            walk.found.push(Found {
                size: entry.metadata().map_or(0, |m| m.len()),
                rel,
                path: entry.into_path(),
            });
        }
    }
    walk
}

fn is_hidden(entry: &DirEntry) -> bool {
    entry.depth() > 0
        && entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_hidden_skipped_and_named_files_taken() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (p, body) in [
            ("b.txt", "b"),
            ("a.txt", "a"),
            ("c.png", "c"),
            ("README.md", "r"),
            ("LICENSE", "l"),
            (".hidden/x.txt", "x"),
            ("sub/d.txt", "dd"),
            ("sub/table.tsv", "t"),
        ] {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        }
        let roots = [root.to_owned(), root.join("c.png"), root.join("LICENSE")];
        let walk = text_files(&roots, &["txt"]);
        let rels: Vec<String> = walk
            .found
            .iter()
            .map(|f| f.rel.display().to_string())
            .collect();
        assert_eq!(rels, ["a.txt", "b.txt", "sub/d.txt", "c.png", "LICENSE"]);
        assert_eq!(walk.found[2].size, 2);
        assert!(walk.unreadable.is_empty());
        let passed: Vec<String> = walk
            .passed_over
            .iter()
            .map(|p| p.path.strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(passed, ["LICENSE", "README.md", "c.png", "sub/table.tsv"]);
        let walk = text_files(&[root.join("missing")], &["txt"]);
        assert!(walk.found.is_empty());
        assert_eq!(walk.unreadable.len(), 1);
        assert!(walk.unreadable[0].place.ends_with("missing"));
    }

    #[test]
    fn texts_are_known_extensions_but_no_readme() {
        let ext = ["txt", "text", "md", "html", "htm"];
        for p in ["a.txt", "b.MD", "c.html", "d.HTM", "e.text"] {
            assert_eq!(pass_over(Path::new(p), &ext), None, "{p}");
        }
        for p in ["a.png", "b.pdf", "c.docx", "d.rs", "e.csv", "f.tsv"] {
            let reason = pass_over(Path::new(p), &ext).unwrap();
            assert!(
                reason.starts_with("not a text file type ("),
                "{p}: {reason}"
            );
        }
        // A news or mail archive's posts have no extension: texts.
        for p in ["82757", "dir/notes"] {
            assert_eq!(pass_over(Path::new(p), &ext), None, "{p}");
        }
        for p in [
            "LICENSE",
            "COPYING",
            "Makefile",
            "licence.txt",
            "CHANGELOG.md",
        ] {
            let reason = pass_over(Path::new(p), &ext).unwrap();
            assert!(
                reason.starts_with("a licence or project file"),
                "{p}: {reason}"
            );
        }
        for p in ["README", "README.md", "sub/readme.txt", "Readme.markdown"] {
            let reason = pass_over(Path::new(p), &ext).unwrap();
            assert!(reason.starts_with("a README"), "{p}: {reason}");
        }
    }
}
