//! `/packs/manifest.json` and the pack files under `/packs/`: what browsers fetch on demand.
//!
//! The manifest is small and changes with every write, so it is served `no-cache` with a strong
//! `ETag` computed from its bytes: a browser revalidates it on every check and gets a 304 with no
//! body when nothing changed. Every other pack file (page table, record list, index pages,
//! records) has a name that always means the same bytes: they are served `immutable` for a year
//! and never revalidated.
//!
//! Files are read from the packs folder on every request (the writer replaces them atomically),
//! so what is served is always what is on disk, even if another process wrote it. A path is
//! checked with the engine's [`uniqcheck::pack::is_pack_file`] before the file system is touched.

use super::static_files::not_found;
use super::AppState;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::fmt::Write;
use tower::ServiceExt;
use tower_http::services::ServeFile;
use uniqcheck::pack::is_pack_file;

/// `GET /packs/manifest.json`.
pub async fn manifest(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let bytes = match tokio::fs::read(state.packs.join("manifest.json")).await {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return not_found(),
        Err(e) => {
            crate::warn(format_args!("cannot read the pack manifest: {e}"));
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "cannot read the manifest\n",
            )
                .into_response();
        }
    };
    let etag = etag(&bytes);
    let cache = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag.clone()),
    ];
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|list| matches_etag(list, &etag))
    {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        bytes,
    )
        .into_response()
}

/// `GET /packs/{*path}`: a pack file, if `path` names one and the file exists.
pub async fn file(
    State(state): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    if !is_pack_file(&name) {
        return not_found();
    }
    let mut response = match ServeFile::new(state.packs.join(&name)).oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(never) => match never {},
    };
    let status = response.status();
    if status == StatusCode::NOT_FOUND {
        return not_found();
    }
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/octet-stream"),
        );
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
    }
    response
}

/// A strong ETag: the first 128 bits of the SHA-256 of the bytes, in hex, quoted.
fn etag(bytes: &[u8]) -> HeaderValue {
    let digest = Sha256::digest(bytes);
    let mut tag = String::with_capacity(34);
    tag.push('"');
    for b in &digest[..16] {
        let _ = write!(tag, "{b:02x}");
    }
    tag.push('"');
    HeaderValue::from_str(&tag).expect("hex digits and quotes are a valid header value")
}

/// `If-None-Match` uses the weak comparison (RFC 9110 §13.1.2): `W/` is ignored, `*` matches.
fn matches_etag(list: &str, etag: &HeaderValue) -> bool {
    let ours = etag.to_str().unwrap_or_default();
    list.split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match() {
        let tag = etag(b"{}");
        let t = tag.to_str().unwrap().to_owned();
        assert!(matches_etag(&t, &tag));
        assert!(matches_etag(&format!("\"x\", W/{t}"), &tag));
        assert!(matches_etag("*", &tag));
        assert!(!matches_etag("\"0000\"", &tag));
        assert_ne!(etag(b"{}"), etag(b"{ }"));
    }
}
