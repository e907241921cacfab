//! The JSON API under `/api`: health, add-or-replace a document (with its uniqueness at publish
//! time), read and delete one. Routes, bodies and errors are documented in `docs/SERVER.md`.
//!
//! Every store call runs in `spawn_blocking` holding the store's lock. `POST /api/documents`
//! checks the text against the store and writes it inside ONE such call, so concurrent posts are
//! serialised: each one's uniqueness is measured against exactly the documents written before it.
//! Bodies are parsed by [`ApiJson`], which turns every way a body can be wrong into the API's
//! JSON error (413 too large, 415 not JSON, 400 malformed, 408 too slow, naming the problem),
//! and keeps the memory they take within a [`BodyBudget`] (503 with `Retry-After` past it).

use super::auth::Writer;
use super::error::ApiError;
use super::AppState;
use crate::ingest;
use crate::store::{self, Decision, Store, Upsert};
use axum::body::HttpBody;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use uniqcheck::{CheckOptions, Document, Exclusions, OffsetConverter, Report, Unit};

/// The `/api` routes (nest them under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/documents", post(add))
        .route("/documents/{id}", get(read).delete(delete))
        .fallback(|| async { ApiError::not_found("no such API route; see docs/SERVER.md") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this route does not accept that method; see docs/SERVER.md",
            )
        })
}

/// The memory for request bodies in flight: each JSON body holds its share (its declared
/// length, else `--max-body`) from before it is read until its request is answered (the parsed
/// text lives that long). A body that does not fit gets a 503 with `Retry-After` instead of
/// waiting, so memory stays bounded however many writers arrive at once.
pub struct BodyBudget {
    /// One permit per KiB (tokio counts permits acquired at once in `u32`).
    kib: Arc<Semaphore>,
    total: usize,
}

impl BodyBudget {
    /// A budget of `bytes`.
    pub fn new(bytes: usize) -> Self {
        BodyBudget {
            kib: Arc::new(Semaphore::new(bytes.div_ceil(1024))),
            total: bytes,
        }
    }

    /// Holds `bytes` of the budget until the returned share is dropped; `None` when they are
    /// not free now.
    fn try_hold(&self, bytes: u64) -> Option<OwnedSemaphorePermit> {
        let kib = u32::try_from(bytes.div_ceil(1024)).ok()?;
        self.kib.clone().try_acquire_many_owned(kib).ok()
    }
}

/// A JSON body, with the API's errors for every way it can be wrong, and its share of the
/// [`BodyBudget`] (hold it for as long as the body's contents are alive).
pub struct ApiJson<T>(pub T, pub OwnedSemaphorePermit);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        // A declared length over the limit is refused before anything is read: otherwise the
        // server would wait for a body it is going to refuse anyway.
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > state.max_body as u64) {
            return Err(too_large());
        }
        if !is_json(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let share = declared.unwrap_or(state.max_body as u64);
        let Some(held) = state.bodies.try_hold(share) else {
            // Read and drop the body, so the client gets this answer rather than a connection
            // reset in the middle of its upload; bounded by the same deadline and size.
            let _ = tokio::time::timeout(
                state.body_timeout,
                read_body(req.into_body(), state.max_body, None),
            )
            .await;
            return Err(ApiError::busy(
                "busy",
                format!(
                    "the server is busy with other writes (their bodies fill its --body-budget \
                     of {} bytes); send this again in a moment",
                    state.bodies.total
                ),
            ));
        };
        // The deadline covers reading the body only: once it is in, the store's work is not cut
        // short (a write that had begun would land while the client was told it failed).
        let capacity = declared.map_or(0, |n| n as usize);
        let bytes = tokio::time::timeout(
            state.body_timeout,
            read_body(req.into_body(), state.max_body, Some(capacity)),
        )
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "body_timeout",
                format!(
                    "the request body did not arrive within {} s (the server's --body-timeout)",
                    state.body_timeout.as_secs_f64()
                ),
            )
        })??;
        match Json::<T>::from_bytes(&bytes) {
            Ok(Json(v)) => Ok(ApiJson(v, held)),
            Err(rejection) => Err(match &rejection {
                JsonRejection::JsonSyntaxError(e) => ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "malformed_json",
                    format!("the body is not valid JSON: {}", inner_message(e)),
                ),
                JsonRejection::JsonDataError(e) => ApiError::invalid(format!(
                    "the body is JSON but not the expected shape: {}",
                    inner_message(e)
                )),
                _ => ApiError::new(
                    rejection.status(),
                    "bad_body",
                    format!("cannot read the body: {}", rejection.body_text()),
                ),
            }),
        }
    }
}

/// `Content-Type: application/json`, or any `application/…+json`, parameters aside.
fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    essence.split_once('/').is_some_and(|(kind, subtype)| {
        kind.eq_ignore_ascii_case("application")
            && (subtype.eq_ignore_ascii_case("json")
                || subtype.to_ascii_lowercase().ends_with("+json"))
    })
}

/// Reads a body of at most `limit` bytes into one buffer (of `capacity` up front, so a body of
/// declared length is never copied into a bigger one), or drops its bytes as they come when
/// `capacity` is `None`.
async fn read_body(
    mut body: axum::body::Body,
    limit: usize,
    capacity: Option<usize>,
) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::with_capacity(capacity.unwrap_or(0).min(limit));
    let mut read = 0usize;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_body",
                format!("cannot read the body: {e}"),
            )
        })?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        read += data.len();
        if read > limit {
            return Err(too_large());
        }
        if capacity.is_some() {
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "body_too_large",
        "the body is larger than this server accepts (its --max-body)",
    )
}

/// serde's own message (path and position), without axum's generic prefix.
fn inner_message(e: &dyn std::error::Error) -> String {
    let mut deepest = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        deepest = s.to_string();
        source = s.source();
    }
    deepest
}

/// Runs `f` on the store in a blocking thread, holding its lock.
async fn with_store<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = state.store.clone();
    tokio::task::spawn_blocking(move || f(&mut super::lock(&store)))
        .await
        .map_err(|e| ApiError::internal("a store operation", anyhow::anyhow!("{e}")))?
}

async fn health(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (documents, changes) = with_store(&state, |store| {
        let count = store
            .count()
            .map_err(|e| ApiError::internal("counting documents", e))?;
        let changes = store
            .changes()
            .map_err(|e| ApiError::internal("reading the change counter", e))?;
        Ok((count, changes))
    })
    .await?;
    Ok(Json(json!({
        "status": "ok",
        "documents": documents,
        "changes": changes,
        "version": uniqcheck::VERSION,
        "format_version": uniqcheck::pack::FORMAT_VERSION,
    }))
    .into_response())
}

/// The body of `POST /api/documents`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AddBody {
    url: String,
    #[serde(default)]
    title: String,
    text: Option<String>,
    html: Option<String>,
    /// Unit of the offsets in the answer's report.
    #[serde(default = "default_units")]
    units: Unit,
    /// Sources and quotations the report leaves out (`{"urls", "domains", "quotes", "quoted"}`,
    /// `quoted` in `units` of the text); the document is stored whole either way.
    #[serde(default)]
    exclude: Exclusions,
}

fn default_units() -> Unit {
    Unit::Chars
}

/// The answer of `POST /api/documents`.
#[derive(Debug, Serialize)]
struct AddAnswer {
    id: i64,
    status: &'static str,
    uniqueness: f64,
    units: Unit,
    report: Report,
}

async fn add(
    State(state): State<AppState>,
    _writer: Writer,
    ApiJson(body, _held): ApiJson<AddBody>,
) -> Result<Response, ApiError> {
    let units = body.units;
    let mut opts = CheckOptions {
        max_text_bytes: state.max_body,
        exclude: body.exclude,
        bilingual: state.bilingual.clone(),
        ..CheckOptions::default()
    };
    opts.validate()
        .map_err(|e| ApiError::invalid(e.to_string()))?;
    let doc = ingest::from_api(body.url, body.title, body.text, body.html)
        .map_err(|e| ApiError::invalid(e.to_string()))?;
    // Quoted passages come in the answer's unit, as its offsets go out.
    opts.exclude
        .quoted_to_bytes(&doc.text, units)
        .map_err(|e| ApiError::invalid(e.to_string()))?;
    let max_bytes = state.max_body;
    let (upsert, report) = with_store(&state, move |store| {
        let params = *store.params();
        let mut draft = Document::analyze(&doc.text, doc.format, &params, max_bytes)?;
        draft.mark_quotations(&doc.text, doc.format, &opts.exclude);
        let report = store
            .check_document(&draft, &opts)
            .map_err(|e| ApiError::from_store("checking the document", e))?;
        let known = store
            .known(&doc.url)
            .map_err(|e| ApiError::internal("looking the url up", e))?;
        let mut report = match &known {
            // The document's own previous version (same url) must not make it look copied.
            Some(k) => report.without_source(&draft, &k.id.to_string(), &opts),
            None => report,
        };
        let converter = OffsetConverter::new(&doc.text, units);
        report.map_draft_offsets(|o| converter.convert(o));
        // Reuses the analysis made for the check.
        let upsert = match store::decide(known.as_ref(), &doc) {
            Decision::Unchanged(id) => Upsert::Unchanged(id),
            Decision::Add | Decision::Replace(_) => store
                .upsert_batch(vec![(doc, draft)])
                .map_err(|e| ApiError::from_store("storing the document", e))?
                .pop()
                .ok_or_else(|| {
                    ApiError::internal("storing the document", anyhow::anyhow!("no result"))
                })?,
        };
        Ok((upsert, report))
    })
    .await?;
    let (status, code) = match upsert {
        Upsert::Added(_) => ("added", StatusCode::CREATED),
        Upsert::Updated(_) => ("updated", StatusCode::OK),
        Upsert::Unchanged(_) => ("unchanged", StatusCode::OK),
    };
    if !matches!(upsert, Upsert::Unchanged(_)) {
        state.repacker.request();
    }
    let id = upsert.id();
    let answer = AddAnswer {
        id,
        status,
        uniqueness: report.uniqueness,
        units,
        report,
    };
    let location = [(header::LOCATION, format!("/api/documents/{id}"))];
    Ok((code, location, Json(answer)).into_response())
}

/// A document id from the path; anything else is "no such document".
fn parse_id(raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .map_err(|_| no_document(format_args!("{raw:?}")))
}

/// The answer for a document id that names no document (a read, a delete, a path that is no id).
fn no_document(id: impl std::fmt::Display) -> ApiError {
    ApiError::not_found(format!("no document with id {id}"))
}

async fn read(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let id = parse_id(&raw)?;
    let doc = with_store(&state, move |store| {
        store
            .get(id)
            .map_err(|e| ApiError::internal("reading a document", e))
    })
    .await?;
    match doc {
        Some(doc) => Ok(Json(doc).into_response()),
        None => Err(no_document(id)),
    }
}

async fn delete(
    State(state): State<AppState>,
    _writer: Writer,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let id = parse_id(&raw)?;
    let deleted = with_store(&state, move |store| {
        store
            .delete(id)
            .map_err(|e| ApiError::internal("deleting a document", e))
    })
    .await?;
    if !deleted {
        return Err(no_document(id));
    }
    state.repacker.request();
    Ok(StatusCode::NO_CONTENT.into_response())
}
