//! The SQL of each storage primitive: [`Storage`] once for the connection and its
//! transactions, [`Transaction`] for [`SqliteTx`]. Lists of ids are passed as one `rarray`
//! parameter; the statements a write repeats are prepared once per connection (`prepare_cached`).

use rusqlite::types::Value;
use rusqlite::vtab::array;
use rusqlite::{params, OptionalExtension};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::LazyLock;
use uniqcheck::index::DocId;

use super::{Sql, SqliteTx};
use crate::backend::{BlobKind, DocumentRow, RecordRow, RunInfo, Storage, Transaction};
use crate::document::{Known, StoredDocument};
use crate::error::{Result, StoreError};
use crate::runs;

/// A `rarray` parameter of integers.
fn int_array(values: impl IntoIterator<Item = i64>) -> array::Array {
    Rc::new(values.into_iter().map(Value::Integer).collect())
}

/// The statements of each kind of blob, by table: (by id, by `rarray` of ids, by range with a
/// limit, orphans, insert, update, delete a range).
struct BlobSql {
    one: &'static str,
    many: &'static str,
    range: &'static str,
    orphan: &'static str,
    insert: &'static str,
    update: &'static str,
    delete: &'static str,
}

/// [`BlobSql`] of `kind`'s table.
fn blob_sql(kind: BlobKind) -> &'static BlobSql {
    const CHUNKS: BlobSql = BlobSql {
        one: "SELECT data FROM chunks WHERE id = ?1",
        many: "SELECT c.id, c.data FROM rarray(?1) AS k CROSS JOIN chunks AS c ON c.id = k.value",
        range: "SELECT id, data FROM chunks WHERE id BETWEEN ?1 AND ?2 ORDER BY id LIMIT ?3",
        orphan: "SELECT id FROM chunks WHERE (id >> 32) NOT IN (SELECT id FROM runs) LIMIT 1",
        insert: "INSERT INTO chunks (id, data) VALUES (?1, ?2)",
        update: "UPDATE chunks SET data = ?2 WHERE id = ?1",
        delete: "DELETE FROM chunks WHERE id BETWEEN ?1 AND ?2",
    };
    const SPILLS: BlobSql = BlobSql {
        one: "SELECT data FROM spills WHERE id = ?1",
        many: "SELECT s.id, s.data FROM rarray(?1) AS k CROSS JOIN spills AS s ON s.id = k.value",
        range: "SELECT id, data FROM spills WHERE id BETWEEN ?1 AND ?2 ORDER BY id LIMIT ?3",
        orphan: "SELECT id FROM spills WHERE (id >> 32) NOT IN (SELECT id FROM runs) LIMIT 1",
        insert: "INSERT INTO spills (id, data) VALUES (?1, ?2)",
        update: "UPDATE spills SET data = ?2 WHERE id = ?1",
        delete: "DELETE FROM spills WHERE id BETWEEN ?1 AND ?2",
    };
    match kind {
        BlobKind::Chunk => &CHUNKS,
        BlobKind::Spill => &SPILLS,
    }
}

/// Reads an `(id, url, title, record)` row as a [`RecordRow`] (the blob in place).
fn record_row<'r>(row: &'r rusqlite::Row<'_>) -> Result<RecordRow<'r>> {
    Ok(RecordRow {
        id: row.get(0)?,
        url: row.get_ref(1)?.as_str().map_err(rusqlite::Error::from)?,
        title: row.get_ref(2)?.as_str().map_err(rusqlite::Error::from)?,
        record: row.get_ref(3)?.as_blob().map_err(rusqlite::Error::from)?,
    })
}

/// Hands over each `(id, data)` row of `rows`.
fn visit_blobs(
    mut rows: rusqlite::Rows<'_>,
    mut visit: impl FnMut(i64, &[u8]) -> Result<()>,
) -> Result<()> {
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let blob = row.get_ref(1)?.as_blob().map_err(rusqlite::Error::from)?;
        visit(id, blob)?;
    }
    Ok(())
}

impl<T: Sql> Storage for T {
    fn name(&self) -> &str {
        self.store_name()
    }

    fn meta(&self, key: &str) -> Result<Option<String>> {
        Ok(self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()?)
    }

    fn find(&self, url: &str) -> Result<Option<(Known, Vec<u8>)>> {
        Ok(self
            .conn()
            .prepare_cached("SELECT id, text_hash, title, keys FROM documents WHERE url = ?1")?
            .query_row([url], |r| {
                Ok((
                    Known {
                        id: r.get(0)?,
                        text_hash: r.get(1)?,
                        title: r.get(2)?,
                    },
                    r.get(3)?,
                ))
            })
            .optional()?)
    }

    fn known_all(&self) -> Result<HashMap<String, Known>> {
        let mut stmt = self
            .conn()
            .prepare("SELECT url, id, text_hash, title FROM documents")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Known {
                    id: r.get(1)?,
                    text_hash: r.get(2)?,
                    title: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn get(&self, id: i64) -> Result<Option<StoredDocument>> {
        Ok(self
            .conn()
            .prepare_cached(
                "SELECT id, url, title, text_hash, words, added, updated FROM documents WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok(StoredDocument {
                    id: r.get(0)?,
                    url: r.get(1)?,
                    title: r.get(2)?,
                    text_hash: r.get(3)?,
                    words: r.get(4)?,
                    added: r.get(5)?,
                    updated: r.get(6)?,
                })
            })
            .optional()?)
    }

    fn document_keys(&self, id: i64) -> Result<Option<(String, Vec<u8>)>> {
        Ok(self
            .conn()
            .prepare_cached("SELECT url, keys FROM documents WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    fn exact_documents(&self, exact: u64, docs: &mut Vec<DocId>) -> Result<()> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT id FROM documents WHERE exact = ?1")?;
        for doc in stmt.query_map([exact as i64], |r| r.get::<_, i64>(0))? {
            docs.push(doc? as DocId);
        }
        Ok(())
    }

    fn records(
        &self,
        ids: &[DocId],
        mut visit: impl FnMut(RecordRow<'_>) -> Result<()>,
    ) -> Result<()> {
        let mut stmt = self.conn().prepare_cached(
            "SELECT id, url, title, record FROM documents WHERE id IN rarray(?1)",
        )?;
        let mut rows = stmt.query([int_array(ids.iter().map(|&id| id as i64))])?;
        while let Some(row) = rows.next()? {
            visit(record_row(row)?)?;
        }
        Ok(())
    }

    fn all_records<E: From<StoreError>>(
        &self,
        mut visit: impl FnMut(RecordRow<'_>, i64) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT id, url, title, record, rev FROM documents ORDER BY id")
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([]).map_err(StoreError::from)?;
        while let Some(row) = rows.next().map_err(StoreError::from)? {
            let rev: i64 = row.get(4).map_err(StoreError::from)?;
            visit(record_row(row)?, rev)?;
        }
        Ok(())
    }

    fn count(&self) -> Result<usize> {
        let n: i64 = self
            .conn()
            .query_row("SELECT COUNT(*) FROM documents", [], |r| r.get(0))?;
        Ok(n as usize)
    }

    fn totals(&self) -> Result<(i64, i64, i64)> {
        Ok(self.conn().query_row(
            "SELECT COUNT(*), COALESCE(SUM(words), 0), COALESCE(SUM(LENGTH(record)), 0)
             FROM documents",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?)
    }

    fn runs(&self, list: usize) -> Result<Vec<RunInfo>> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT id, rows, bits FROM runs WHERE list = ?1 ORDER BY id")?;
        let runs = stmt.query_map([list as i64], |r| {
            Ok(RunInfo {
                id: r.get(0)?,
                rows: r.get(1)?,
                bits: r.get::<_, i64>(2)?.clamp(0, i64::from(runs::MAX_BITS)) as u32,
            })
        })?;
        Ok(runs.collect::<rusqlite::Result<_>>()?)
    }

    fn blob(&self, kind: BlobKind, id: i64) -> Result<Option<Vec<u8>>> {
        Ok(self
            .conn()
            .prepare_cached(blob_sql(kind).one)?
            .query_row([id], |r| r.get(0))
            .optional()?)
    }

    fn blobs(
        &self,
        kind: BlobKind,
        ids: &[i64],
        visit: impl FnMut(i64, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let mut stmt = self.conn().prepare_cached(blob_sql(kind).many)?;
        let rows = stmt.query([int_array(ids.iter().copied())])?;
        visit_blobs(rows, visit)
    }

    fn blob_range(
        &self,
        kind: BlobKind,
        first: i64,
        last: i64,
        limit: usize,
        visit: impl FnMut(i64, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut stmt = self.conn().prepare_cached(blob_sql(kind).range)?;
        let rows = stmt.query([first, last, limit])?;
        visit_blobs(rows, visit)
    }

    fn orphan(&self, kind: BlobKind) -> Result<Option<i64>> {
        Ok(self
            .conn()
            .query_row(blob_sql(kind).orphan, [], |r| r.get(0))
            .optional()?)
    }
}

/// The `documents` columns a write sets besides the URL and `added`, in the order of
/// [`DocumentRow`]'s fields, bound after the URL (a new document) or the id (a known one).
const WRITTEN_COLUMNS: [&str; 8] = [
    "title",
    "text_hash",
    "words",
    "exact",
    "updated",
    "record",
    "rev",
    "keys",
];

/// The statement that writes a document's row from [`WRITTEN_COLUMNS`] (bound as ?2, ?3, …):
/// `insert`, a new one (?1 the URL; `added` is `updated`), returning its id; otherwise the
/// update of a known one (?1 its id). `OR ROLLBACK`: a failed write fails its whole batch
/// anyway, and without the default `ABORT` SQLite needs no statement journal to undo the one
/// statement, a copy of each page the row touches (a tenth of the row writes' time).
fn written_sql(insert: bool) -> String {
    let at = |i: usize| format!("?{}", i + 2);
    if insert {
        let updated = WRITTEN_COLUMNS
            .iter()
            .position(|&c| c == "updated")
            .unwrap_or(0);
        let values: Vec<String> = (0..WRITTEN_COLUMNS.len()).map(at).collect();
        format!(
            "INSERT OR ROLLBACK INTO documents (url, added, {}) VALUES (?1, {}, {}) RETURNING id",
            WRITTEN_COLUMNS.join(", "),
            at(updated),
            values.join(", ")
        )
    } else {
        let sets: Vec<String> = WRITTEN_COLUMNS
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = {}", at(i)))
            .collect();
        format!(
            "UPDATE OR ROLLBACK documents SET {} WHERE id = ?1",
            sets.join(", ")
        )
    }
}

/// [`written_sql`] of a new document and of a known one, made once.
static INSERT_SQL: LazyLock<String> = LazyLock::new(|| written_sql(true));
static UPDATE_SQL: LazyLock<String> = LazyLock::new(|| written_sql(false));

/// The values of [`WRITTEN_COLUMNS`], in its order, after `first` (the URL or the id).
macro_rules! written_values {
    ($first:expr, $row:expr) => {
        params![
            $first,
            $row.title,
            $row.text_hash,
            $row.words,
            $row.exact,
            $row.updated,
            $row.record,
            $row.rev,
            $row.keys
        ]
    };
}

impl Transaction for SqliteTx<'_> {
    fn insert_document(&self, url: &str, row: &DocumentRow<'_>) -> Result<i64> {
        Ok(self
            .tx
            .prepare_cached(&INSERT_SQL)?
            .query_row(written_values!(url, row), |r| r.get(0))?)
    }

    fn update_document(&self, id: i64, row: &DocumentRow<'_>) -> Result<()> {
        self.tx
            .prepare_cached(&UPDATE_SQL)?
            .execute(written_values!(id, row))?;
        Ok(())
    }

    fn delete_document(&self, id: i64) -> Result<()> {
        self.tx
            .execute("DELETE FROM documents WHERE id = ?1", [id])?;
        Ok(())
    }

    fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        self.tx
            .execute("UPDATE meta SET value = ?2 WHERE key = ?1", [key, value])?;
        Ok(())
    }

    fn bump_changes(&self) -> Result<()> {
        self.tx.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'changes'",
            [],
        )?;
        Ok(())
    }

    fn next_run_id(&self) -> Result<i64> {
        Ok(self
            .tx
            .query_row("SELECT COALESCE(MAX(id), 0) + 1 FROM runs", [], |r| {
                r.get(0)
            })?)
    }

    fn insert_run(&self, list: usize, level: u32, run: &RunInfo) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO runs (id, list, level, rows, bits) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![run.id, list as i64, level, run.rows, run.bits])?;
        Ok(())
    }

    fn set_run_rows(&self, id: i64, rows: i64) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE runs SET rows = ?2 WHERE id = ?1")?
            .execute([id, rows])?;
        Ok(())
    }

    fn delete_run(&self, id: i64) -> Result<()> {
        self.tx
            .prepare_cached("DELETE FROM runs WHERE id = ?1")?
            .execute([id])?;
        Ok(())
    }

    fn insert_blob(&self, kind: BlobKind, id: i64, data: &[u8]) -> Result<()> {
        self.tx
            .prepare_cached(blob_sql(kind).insert)?
            .execute(params![id, data])?;
        Ok(())
    }

    fn update_blob(&self, kind: BlobKind, id: i64, data: &[u8]) -> Result<()> {
        self.tx
            .prepare_cached(blob_sql(kind).update)?
            .execute(params![id, data])?;
        Ok(())
    }

    fn delete_blobs(&self, kind: BlobKind, first: i64, last: i64) -> Result<()> {
        self.tx
            .prepare_cached(blob_sql(kind).delete)?
            .execute([first, last])?;
        Ok(())
    }

    fn commit(self) -> Result<()> {
        let path = self.name.to_owned();
        self.tx
            .commit()
            .map_err(|source| StoreError::Write { path, source })
    }
}
