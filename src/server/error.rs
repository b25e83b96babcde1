//! The server's one error for starting and serving: what the ledger said, a table that cannot open, a listener or a
//! runtime that could not start. Every message names what failed and where.

use super::ledger::LedgerError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use std::net::SocketAddr;
use thiserror::Error;

/// An error as every answer of the server gives it: its status and `{"error": "…"}`.
pub fn json_error(status: StatusCode, message: impl Into<String>) -> Response {
    #[derive(serde::Serialize)]
    struct Error {
        error: String,
    }
    let error = Error {
        error: message.into(),
    };
    (status, Json(error)).into_response()
}

/// Why the server could not start, or stopped serving.
#[derive(Debug, Error)]
pub enum ServerError {
    /// The ledger could not be opened or answered.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A table could not open (its ledger line, or its rules).
    #[error("{table}: {why}")]
    Table {
        /// The table's id.
        table: String,
        /// Why.
        why: String,
    },
    /// A level file that does not read.
    #[error("{0}")]
    Level(String),
    /// A route that is not a path.
    #[error("a route is a path, as /ws/a, not {0:?}")]
    Route(String),
    /// No token could be made (the operating system gave no randomness).
    #[error("no randomness for a token: {0}")]
    Token(String),
    /// The runtime could not start.
    #[error("starting the runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be listened on.
    #[error("listening on {addr}: {source}")]
    Listen {
        /// Where.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// Serving stopped on an error.
    #[error("serving: {0}")]
    Serve(std::io::Error),
}
