//! Walking folders of texts: the files `check --against` compares with and `index` stores.
//!
//! Guarantees: each root is walked sorted by file name (a stable order, so ids and reports do not
//! depend on the file system); hidden files and folders (a name starting with `.`) are skipped
//! below a root; symbolic links are followed; a file named directly as a root is taken whatever
//! its extension (the user asked for it), files inside folders only when `wanted` says so; what
//! cannot be read is reported, never fatal.

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

/// The files under `roots`, as described in the module doc.
pub fn text_files(
    roots: &[PathBuf],
    wanted: impl Fn(&Path) -> bool,
) -> (Vec<Found>, Vec<Unreadable>) {
    let mut found = Vec::new();
    let mut unreadable = Vec::new();
    for root in roots {
        let walk = WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !is_hidden(e));
        for entry in walk {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    unreadable.push(Unreadable {
                        place: e.path().unwrap_or(root).display().to_string(),
                        reason: e
                            .io_error()
                            .map_or_else(|| e.to_string(), |io| io.to_string()),
                    });
                    continue;
                }
            };
            if entry.file_type().is_dir() || (entry.depth() > 0 && !wanted(entry.path())) {
                continue;
            }
            let rel = if entry.depth() == 0 {
                PathBuf::from(entry.file_name())
            } else {
                entry
                    .path()
                    .strip_prefix(root)
                    .map_or_else(|_| entry.path().to_owned(), Path::to_owned)
            };
            found.push(Found {
                size: entry.metadata().map_or(0, |m| m.len()),
                rel,
                path: entry.into_path(),
            });
        }
    }
    (found, unreadable)
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
            (".hidden/x.txt", "x"),
            ("sub/d.txt", "dd"),
        ] {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        }
        let txt = |p: &Path| p.extension().is_some_and(|e| e == "txt");
        let (found, unreadable) = text_files(&[root.to_owned(), root.join("c.png")], txt);
        let rels: Vec<String> = found.iter().map(|f| f.rel.display().to_string()).collect();
        assert_eq!(rels, ["a.txt", "b.txt", "sub/d.txt", "c.png"]);
        assert_eq!(found[2].size, 2);
        assert!(unreadable.is_empty());
        let (found, unreadable) = text_files(&[root.join("missing")], txt);
        assert!(found.is_empty());
        assert_eq!(unreadable.len(), 1);
        assert!(unreadable[0].place.ends_with("missing"));
    }
}
