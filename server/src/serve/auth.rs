//! Who may write: a bearer token for `POST` and `DELETE`, compared in constant time.
//!
//! Reads need no token: what the server publishes (packs, document metadata) is public by design.
//! Writes go through the [`Writer`] extractor, which handlers take before their body, so an
//! unauthenticated request is refused (401) before its body is read or parsed.
//!
//! The comparison hashes both tokens with SHA-256 and compares the digests with `subtle`, so its
//! time depends on neither the token's content nor its length.

use super::error::ApiError;
use super::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The server's write policy.
#[derive(Clone)]
pub enum Writes {
    /// Writes need `Authorization: Bearer <token>`; the SHA-256 of the token is kept.
    Token([u8; 32]),
    /// Anyone who can connect may write (`--no-auth`, loopback addresses only).
    Open,
    /// No writes at all (`--read-only`).
    ReadOnly,
}

impl Writes {
    /// Writes protected by `token`.
    pub fn token(token: &str) -> Writes {
        Writes::Token(Sha256::digest(token.as_bytes()).into())
    }

    /// How the policy is described in the start-up line.
    pub fn describe(&self) -> &'static str {
        match self {
            Writes::Token(_) => "writes need the bearer token",
            Writes::Open => "writes are OPEN to anyone who can connect (--no-auth)",
            Writes::ReadOnly => "read-only",
        }
    }
}

/// Proof that the request may write. Take it as a handler argument before the body.
pub struct Writer;

impl FromRequestParts<AppState> for Writer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let expected = match &state.writes {
            Writes::Open => return Ok(Writer),
            Writes::ReadOnly => {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "read_only",
                    "this server is read-only (started with --read-only)",
                ))
            }
            Writes::Token(digest) => digest,
        };
        let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
            return Err(ApiError::unauthorized(
                "writes need an Authorization: Bearer <token> header",
                false,
            ));
        };
        let given = value
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim());
        let Some(given) = given else {
            return Err(ApiError::unauthorized(
                "the Authorization header must be \"Bearer <token>\"",
                false,
            ));
        };
        let digest: [u8; 32] = Sha256::digest(given.as_bytes()).into();
        if bool::from(digest.ct_eq(expected)) {
            Ok(Writer)
        } else {
            Err(ApiError::unauthorized(
                "the bearer token is not valid",
                true,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_tokens_have_equal_digests_and_others_do_not() {
        let Writes::Token(a) = Writes::token("s3cret-token") else {
            unreachable!()
        };
        let Writes::Token(b) = Writes::token("s3cret-token") else {
            unreachable!()
        };
        let Writes::Token(c) = Writes::token("s3cret-tokeN") else {
            unreachable!()
        };
        assert!(bool::from(a.ct_eq(&b)));
        assert!(!bool::from(a.ct_eq(&c)));
    }
}
