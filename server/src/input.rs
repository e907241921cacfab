//! Reading one input (a file, or standard input for `-`) into text the engine can take:
//! bytes → [`crate::decode`] → text, plus its [`Format`] (as given, or as the engine's
//! [`detect_format`] tells), and the wording of the errors about it, so every subcommand names
//! the offending file the same way.

use crate::decode::{decode, Decoded, EncodingEvidence};
use crate::options::{FormatArg, TextArgs};
use anyhow::{anyhow, Context, Result};
use encoding_rs::Encoding;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use uniqcheck::canonicalize::detect_format;
use uniqcheck::Format;

/// An input text, decoded.
#[derive(Debug, Clone)]
pub struct Input {
    /// How the input is named in messages and output: the path as given, or "standard input".
    pub name: String,
    /// The file, or `None` for standard input.
    pub path: Option<PathBuf>,
    /// The decoded text (offsets in output count in this text).
    pub text: String,
    /// How it is written.
    pub format: Format,
    /// The encoding it was decoded from.
    pub encoding: &'static Encoding,
    /// How that encoding was chosen (output says when it was a guess).
    pub evidence: EncodingEvidence,
}

/// The name of standard input in messages.
pub const STDIN_NAME: &str = "standard input";

/// True for the path `-`, which means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The largest raw input that could still decode to at most `max_text` bytes of UTF-8: UTF-16
/// halves ASCII text, nothing shrinks more. Anything larger is refused without being read whole.
fn raw_limit(max_text: usize) -> u64 {
    (max_text as u64).saturating_mul(2).saturating_add(4)
}

fn too_large(name: &str, size: u64, limit: usize) -> anyhow::Error {
    anyhow!("{name}: too large: {size} bytes, the limit is {limit} bytes (see --max-size)")
}

/// Reads and decodes `path` (or standard input for `-`).
///
/// Errors name the input: unreadable, too large, binary.
pub fn read(
    path: &Path,
    args: &TextArgs,
    forced: Option<&'static Encoding>,
    max_text: usize,
) -> Result<Input> {
    let bytes = read_bytes(path, max_text)?;
    from_bytes(path, bytes, args, forced)
}

/// How `path` is named in messages: the path as given, or "standard input" for `-`.
fn name_of(path: &Path) -> String {
    if is_stdin(path) {
        STDIN_NAME.to_owned()
    } else {
        path.display().to_string()
    }
}

/// The bytes of `path` (or standard input for `-`), the first half of [`read`]: what needs
/// the file system, so an indexer can read on one thread and decode on others.
///
/// Errors name the input: unreadable, a directory, too large to decode to `max_text` bytes.
pub fn read_bytes(path: &Path, max_text: usize) -> Result<Vec<u8>> {
    let name = name_of(path);
    let limit = raw_limit(max_text);
    let mut bytes = Vec::new();
    if is_stdin(path) {
        io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
    } else {
        let file = File::open(path).with_context(|| format!("cannot open {name}"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read {name}"))?;
        if meta.is_dir() {
            return Err(anyhow!("{name}: is a directory, not a text file"));
        }
        if meta.len() > limit {
            return Err(too_large(&name, meta.len(), max_text));
        }
        // Room for the whole file and the byte that tells its end: one read, no regrowing.
        bytes.reserve_exact(meta.len() as usize + 1);
        // `take` guards against files that grow while being read (logs, pipes, /dev/zero).
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
    }
    if bytes.len() as u64 > limit {
        return Err(too_large(&name, bytes.len() as u64, max_text));
    }
    Ok(bytes)
}

/// Decodes the `bytes` read from `path` ([`read_bytes`]), the second half of [`read`].
///
/// Errors name the input: binary, or not decodable.
pub fn from_bytes(
    path: &Path,
    bytes: Vec<u8>,
    args: &TextArgs,
    forced: Option<&'static Encoding>,
) -> Result<Input> {
    let stdin = is_stdin(path);
    let name = name_of(path);
    let Decoded {
        text,
        encoding,
        evidence,
        lossy,
    } = decode(bytes, forced).map_err(|e| anyhow!("{name}: {e}"))?;
    match evidence {
        EncodingEvidence::DamagedUtf8 { invalid, cut } => {
            let mut what = Vec::new();
            if invalid > 0 {
                what.push(format!(
                    "{invalid} invalid byte sequence{}",
                    if invalid == 1 { "" } else { "s" }
                ));
            }
            if cut {
                what.push("a last character cut short (was the file truncated?)".to_owned());
            }
            crate::warn(format_args!(
                "{name}: read as UTF-8 although it has {}; replaced with U+FFFD",
                what.join(" and ")
            ));
        }
        // A guess is shown in the human output of the commands that print the input's name
        // ([`crate::output`]); here only when it also lost bytes.
        _ if lossy => {
            let how = match evidence {
                EncodingEvidence::Guessed => " (a guess: use --encoding if it is wrong)",
                _ => "",
            };
            crate::warn(format_args!(
                "{name}: some bytes are not valid {}{how} and were replaced with U+FFFD",
                encoding.name()
            ))
        }
        _ => {}
    }
    let format = match args.format {
        FormatArg::Plain => Format::Plain,
        FormatArg::Html => Format::Html,
        FormatArg::Auto => {
            let extension = path.extension().and_then(|e| e.to_str());
            detect_format(extension.filter(|_| !stdin), &text)
        }
    };
    Ok(Input {
        name,
        path: (!stdin).then(|| path.to_owned()),
        text,
        format,
        encoding,
        evidence,
    })
}

/// Turns an engine error about the input `name` into a message that names it. With `detail`,
/// the engine's own explanation is kept as the cause (for the one input a command is about);
/// without, the message stands alone (for one-line warnings about skipped sources).
pub fn explain(name: &str, e: uniqcheck::Error, detail: bool) -> anyhow::Error {
    let head = match &e {
        uniqcheck::Error::Binary { .. } => format!("{name}: looks like binary data, not text"),
        uniqcheck::Error::Empty => return anyhow!("{name}: empty, there are no words to check"),
        uniqcheck::Error::EmptyInComparison { side } => {
            return anyhow!(
                "{name}: empty, there are no words to compare (it is the {} text, the {})",
                side.position(),
                side.name()
            )
        }
        uniqcheck::Error::TooLarge { size, limit } => {
            return anyhow!(
            "{name}: too large: {size} bytes of text, the limit is {limit} bytes (see --max-size)"
        )
        }
        uniqcheck::Error::InvalidParameter { .. } | uniqcheck::Error::InvalidOption { .. } => {
            return anyhow::Error::new(e)
        }
    };
    if detail {
        anyhow::Error::new(e).context(head)
    } else {
        anyhow!(head)
    }
}

/// The English–Russian table of `--bilingual FILE`, read and checked against `params`
/// (`None`: no file named).
pub fn bilingual(
    path: Option<&Path>,
    params: &uniqcheck::Params,
) -> Result<Option<std::sync::Arc<uniqcheck::bilingual::Bilingual>>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read the bilingual table {}", path.display()))?;
    let table = uniqcheck::bilingual::Bilingual::decode(&bytes)
        .with_context(|| format!("{} is not a table uniqcheck can use", path.display()))?;
    table.check(params.stemming)?;
    Ok(Some(std::sync::Arc::new(table)))
}
