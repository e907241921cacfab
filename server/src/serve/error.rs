//! The API's one error shape: `{"error": {"code": "...", "message": "..."}}` with the right status.
//!
//! Every failure a client can cause maps to a stable, lowercase `code` (what a program branches
//! on) and a `message` that says what was wrong and, where it helps, how to fix it (what a person
//! reads). Server-side failures are logged in full on stderr and answered with a generic
//! message, so paths and SQL never leak to clients.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use uniqcheck_store::StoreError;

/// An API failure, ready to be sent.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// The `WWW-Authenticate` challenge of a 401.
    challenge: Option<&'static str>,
    /// The `Retry-After` of a 503, in seconds.
    retry_after: Option<u32>,
}

impl ApiError {
    /// An error with any status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            challenge: None,
            retry_after: None,
        }
    }

    /// 400: the request is well-formed JSON but not a valid request.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request", message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 401 with a Bearer challenge; `invalid` says a token was given but is wrong (RFC 6750 §3.1).
    pub fn unauthorized(message: impl Into<String>, invalid: bool) -> Self {
        ApiError {
            challenge: Some(if invalid {
                "Bearer realm=\"uniqcheck\", error=\"invalid_token\""
            } else {
                "Bearer realm=\"uniqcheck\""
            }),
            ..Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
        }
    }

    /// 503 with `Retry-After: 1`: the server is at a limit (connections, memory for bodies)
    /// that frees up within moments; the same request may be sent again.
    pub fn busy(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            retry_after: Some(1),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, code, message)
        }
    }

    /// 500, after logging what really happened (the client only learns that something failed).
    pub fn internal(what: &str, err: impl Into<anyhow::Error>) -> Self {
        crate::warn(format_args!("{what}: {:#}", err.into()));
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("{what} failed on the server; the details are in the server's log"),
        )
    }

    /// A failure of the store: the engine's refusals (empty, binary, too large) are the client's
    /// doing (422); anything else is the server's (500).
    pub fn from_store(what: &str, err: StoreError) -> Self {
        match err {
            StoreError::Engine(e) | StoreError::Analysis { source: e, .. } => e.into(),
            err => Self::internal(what, err),
        }
    }
}

/// The engine's refusals keep the engine's codes (`uniqcheck::Error::code`), the same ones the
/// WebAssembly module throws.
impl From<uniqcheck::Error> for ApiError {
    fn from(e: uniqcheck::Error) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, e.code(), e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": { "code": self.code, "message": self.message } });
        let mut response = (self.status, Json(body)).into_response();
        if let Some(challenge) = self.challenge {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static(challenge),
            );
        }
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
