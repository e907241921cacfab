//! Static files: the copywriter page (`www/`) at `/` and the npm package (`pkg/`) at `/pkg/`.
//!
//! `tower-http`'s `ServeDir` does the serving (ranges, conditional requests, `index.html`); this
//! module decides first whether a path may be served at all, so that nothing outside the folder
//! is ever reachable:
//! - the raw path is split on `/` **before** percent-decoding, so an encoded slash (`%2F`) or
//!   backslash cannot make new segments, and is refused;
//! - each decoded segment must be one plain file name: no `.`/`..` (however encoded), no NUL,
//!   no invalid UTF-8, and no hidden names (`.git`, `.env`: a leading dot is refused);
//! - the file (or the folder's `index.html`) must resolve, symlinks followed, inside the folder.
//!
//! Whatever fails answers a plain-text 404, exactly like a missing file, so probing learns nothing.
//! JavaScript and WebAssembly get the types browsers insist on for modules and streaming
//! compilation; every answer says `nosniff` and `no-cache` (the files are not content-hashed, so
//! browsers revalidate them, cheaply, with `If-Modified-Since`).

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use std::convert::Infallible;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// A folder served over HTTP.
#[derive(Debug, Clone)]
pub struct StaticDir {
    /// The folder as given.
    dir: PathBuf,
    /// The folder with symlinks resolved: everything served must be under it.
    real: PathBuf,
    /// Where it is mounted (`""` or `"/pkg"`), for redirects `ServeDir` makes from the
    /// prefix-stripped path.
    mount: &'static str,
}

impl StaticDir {
    /// A folder to serve at `mount`. Errors when it does not exist or is not a folder.
    pub fn new(dir: &Path, mount: &'static str) -> anyhow::Result<StaticDir> {
        let real = dir
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("cannot serve {}: {e}", dir.display()))?;
        anyhow::ensure!(
            real.is_dir(),
            "cannot serve {}: not a folder",
            dir.display()
        );
        Ok(StaticDir {
            dir: dir.to_path_buf(),
            real,
            mount,
        })
    }

    /// The folder as given.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// A tower service serving the folder (mount it with `nest_service` or `fallback_service`).
    pub fn service(
        self,
    ) -> impl tower::Service<
        Request,
        Response = Response,
        Error = Infallible,
        Future = impl Send + 'static,
    > + Clone
           + Send
           + Sync
           + 'static {
        let dir = Arc::new(self);
        tower::service_fn(move |req: Request| {
            let dir = dir.clone();
            async move { Ok::<_, Infallible>(dir.serve(req).await) }
        })
    }

    async fn serve(&self, req: Request) -> Response {
        let Some(relative) = safe_relative_path(req.uri().path()) else {
            return not_found();
        };
        if !self.resolves_inside(&relative).await {
            return not_found();
        }
        let mut response = match ServeDir::new(&self.dir).oneshot(req).await {
            Ok(r) => r.map(Body::new),
            Err(never) => match never {},
        };
        let status = response.status();
        if status == StatusCode::NOT_FOUND {
            return not_found();
        }
        let headers = response.headers_mut();
        if response_is_redirect(status) {
            // `/pkg/sub` → `ServeDir` saw `/sub` and redirects to `/sub/`: put the mount back.
            if let Some(location) = headers.get(header::LOCATION).and_then(|l| l.to_str().ok()) {
                if let Ok(v) = HeaderValue::from_str(&format!("{}{location}", self.mount)) {
                    headers.insert(header::LOCATION, v);
                }
            }
        }
        if let Some(kind) = module_type(&relative) {
            if headers.contains_key(header::CONTENT_TYPE) {
                headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
            }
        }
        headers.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }

    /// Whether `relative` (and, for a folder, its `index.html`) resolves inside the folder. A path
    /// that does not exist is "inside": `ServeDir` answers it with a 404.
    async fn resolves_inside(&self, relative: &Path) -> bool {
        let path = self.dir.join(relative);
        let inside = |p: &Path| {
            let p = p.to_path_buf();
            let root = self.real.clone();
            async move {
                match tokio::fs::canonicalize(&p).await {
                    Ok(real) => real.starts_with(&root),
                    Err(_) => tokio::fs::symlink_metadata(&p).await.is_err(),
                }
            }
        };
        if !inside(&path).await {
            return false;
        }
        match tokio::fs::metadata(&path).await {
            Ok(m) if m.is_dir() => inside(&path.join("index.html")).await,
            _ => true,
        }
    }
}

/// The relative file-system path for a raw (still percent-encoded) URL path, or `None` when any
/// segment is not a plain, visible file name.
pub fn safe_relative_path(raw: &str) -> Option<PathBuf> {
    let mut path = PathBuf::new();
    for segment in raw.split('/').filter(|s| !s.is_empty()) {
        let name = percent_decode_str(segment).decode_utf8().ok()?;
        if name.starts_with('.') || name.contains(['/', '\\', '\0']) {
            return None;
        }
        let mut components = Path::new(name.as_ref()).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(_)), None) => path.push(name.as_ref()),
            _ => return None,
        }
    }
    Some(path)
}

fn response_is_redirect(status: StatusCode) -> bool {
    status.is_redirection() && status != StatusCode::NOT_MODIFIED
}

/// The content type browsers require for ES modules and streaming WebAssembly compilation.
fn module_type(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "wasm" => Some("application/wasm"),
        "js" | "mjs" => Some("text/javascript; charset=utf-8"),
        _ => None,
    }
}

/// The plain 404 of everything outside the API.
pub fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "404 not found\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_kept() {
        assert_eq!(safe_relative_path("/"), Some(PathBuf::new()));
        assert_eq!(
            safe_relative_path("/js/app%20v2.mjs"),
            Some(PathBuf::from("js/app v2.mjs"))
        );
        assert_eq!(safe_relative_path("//a///b"), Some(PathBuf::from("a/b")));
    }

    #[test]
    fn traversal_encoded_slashes_and_hidden_names_are_refused() {
        for raw in [
            "/../etc/passwd",
            "/a/../../x",
            "/%2e%2e/x",
            "/%2E%2E/x",
            "/.%2e/x",
            "/a%2f..%2f..%2fx",
            "/a%2F..",
            "/a%5c..%5cx",
            "/.git/config",
            "/%2egit",
            "/a/./b",
            "/x%00.html",
            "/%ff",
        ] {
            assert_eq!(safe_relative_path(raw), None, "{raw}");
        }
    }
}
