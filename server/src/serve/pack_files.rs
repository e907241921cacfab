//! `/packs/manifest.json` and `/packs/<shard>.uqp`: the sketch packs browsers download.
//!
//! The manifest is small and changes with every write, so it is served `no-cache` with a strong
//! `ETag` computed from its bytes: a browser revalidates it on every check and gets a 304 with no
//! body when nothing changed. Shards are named by their content hash, so a name always means the
//! same bytes: they are served `immutable` for a year and never revalidated.
//!
//! Both are read from the packs folder on every request (the writer replaces them atomically), so
//! what is served is always what is on disk, even if another process wrote it. Shard names are
//! checked against `^[0-9a-f]{16}\.uqp$` before the file system is touched.

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

/// `GET /packs/{name}`: a shard, if `name` is a shard name and the file exists.
pub async fn shard(
    State(state): State<AppState>,
    Path(name): Path<String>,
    req: Request,
) -> Response {
    if !is_shard_name(&name) {
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

/// `^[0-9a-f]{16}\.uqp$`.
pub fn is_shard_name(name: &str) -> bool {
    name.strip_suffix(".uqp").is_some_and(|stem| {
        stem.len() == 16 && stem.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
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
    fn shard_names() {
        assert!(is_shard_name("0123456789abcdef.uqp"));
        for bad in [
            "0123456789ABCDEF.uqp",
            "0123456789abcde.uqp",
            "0123456789abcdef0.uqp",
            "0123456789abcdef.uqp.bak",
            "../3456789abcdef.uqp",
            "manifest.json",
            "",
        ] {
            assert!(!is_shard_name(bad), "{bad}");
        }
    }

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
