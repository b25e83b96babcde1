//! The accounts' HTTP API, JSON in and out:
//!
//! - `POST /api/register` `{"name", "password"}` → `{"name", "token", "chips", "highscore"}` (409 if the name is
//!   taken, 400 if it or the password does not do);
//! - `POST /api/login` `{"name", "password"}` → the same (401 for a wrong name or password, not told apart);
//! - `POST /api/logout` with `Authorization: Bearer TOKEN` → 204: every session of the account ends at once, here
//!   and at the tables (a seat it holds, or one held for a dropped connection, is given up; its connections close);
//! - `POST /api/password` `{"password", "new_password"}` with the token → `{"name", "token", "chips", "highscore"}`:
//!   every session of the account ends the same way, and the caller gets a new token (401 for a wrong password,
//!   400 when the new one does not do);
//! - `GET /api/me` with the token → `{"name", "chips", "highscore"}`;
//! - `GET /api/leaderboard[?limit=N]` → the all-time highscores, best first (accounts only; guests are not kept);
//! - `GET /api/history[?limit=N]` with the token → the account's own hands, newest first.
//!
//! Tokens travel in bodies and the `Authorization` header, never in a URL, and are never logged. Every error is
//! `{"error": "what was wrong"}` with its status.

use super::Shared;
use super::store::{Account, AccountError, PlayedHand, Standing};
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most a request body may hold.
const MAX_BODY_BYTES: usize = 4 * 1024;

/// The most rows one request may ask for.
const MAX_ROWS: u32 = 1_000;

/// The API's routes.
pub(super) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/register", post(register))
        .route("/api/login", post(log_in))
        .route("/api/logout", post(log_out))
        .route("/api/password", post(change_password))
        .route("/api/me", get(me))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/history", get(history))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// A name and a password.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// A logged-in account.
#[derive(Serialize)]
struct LoggedIn {
    name: String,
    token: String,
    chips: crate::engine::Cents,
    highscore: crate::engine::Cents,
}

/// The password now, and the one it becomes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    password: String,
    new_password: String,
}

#[derive(Deserialize)]
struct Limit {
    limit: Option<u32>,
}

/// An error as the API gives it: a status, and `{"error": "…"}`.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Error {
            error: String,
        }
        (self.0, Json(Error { error: self.1 })).into_response()
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError(status, message.into())
}

fn account_error(e: AccountError) -> ApiError {
    match e {
        AccountError::Invalid(why) => error(StatusCode::BAD_REQUEST, why),
        AccountError::Taken => error(StatusCode::CONFLICT, e.to_string()),
        AccountError::WrongLogin => error(StatusCode::UNAUTHORIZED, e.to_string()),
        AccountError::Database(why) => ledger_down(&why),
    }
}

fn ledger_down(why: &str) -> ApiError {
    eprintln!("holecard-server: the ledger: {why}");
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server's ledger is not answering; try again soon",
    )
}

/// The body, or an error saying what is wrong with it.
fn body(credentials: Result<Json<Credentials>, JsonRejection>) -> Result<Credentials, ApiError> {
    credentials.map(|Json(c)| c).map_err(|e| {
        let why = format!(
            "the body must be JSON {{\"name\": \"…\", \"password\": \"…\"}}: {}",
            e.body_text()
        );
        error(e.status(), why)
    })
}

fn logged_in((account, token): (Account, String)) -> Response {
    Json(LoggedIn {
        name: account.name,
        token,
        chips: account.chips,
        highscore: account.highscore,
    })
    .into_response()
}

async fn register(
    State(shared): State<Arc<Shared>>,
    credentials: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(credentials)?;
    // A guest playing under the name now keeps it until they leave.
    let lower = c.name.trim().to_lowercase();
    let in_use = shared.sessions.lock().is_ok_and(|sessions| {
        sessions
            .values()
            .any(|s| s.account.is_none() && s.name.to_lowercase() == lower)
    });
    if in_use {
        return Err(error(
            StatusCode::CONFLICT,
            "a guest is playing under that name now",
        ));
    }
    let done = shared
        .store
        .register(&c.name, &c.password, shared.stake)
        .await
        .map_err(account_error)?;
    Ok(logged_in(done))
}

async fn log_in(
    State(shared): State<Arc<Shared>>,
    credentials: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(credentials)?;
    let done = shared
        .store
        .log_in(&c.name, &c.password)
        .await
        .map_err(account_error)?;
    Ok(logged_in(done))
}

/// The bearer token of a request, or the error to give.
fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            error(
                StatusCode::UNAUTHORIZED,
                "send the session token as `Authorization: Bearer TOKEN`",
            )
        })
}

/// The account a request's token is a session of.
async fn authorized(shared: &Shared, headers: &HeaderMap) -> Result<Account, ApiError> {
    let token = bearer(headers)?;
    match shared.store.session(token).await {
        Ok(Some(account)) => Ok(account),
        Ok(None) => Err(error(
            StatusCode::UNAUTHORIZED,
            "that session has ended: log in again",
        )),
        Err(e) => Err(ledger_down(&e)),
    }
}

async fn log_out(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let token = bearer(&headers)?;
    let ended = shared
        .store
        .log_out(token)
        .await
        .map_err(|e| ledger_down(&e))?;
    if let Some(key) = ended {
        shared.end_account(&key).await;
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn change_password(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Json<NewPassword>, JsonRejection>,
) -> Result<Response, ApiError> {
    let account = authorized(&shared, &headers).await?;
    let Json(body) = body.map_err(|e| {
        let why = format!(
            "the body must be JSON {{\"password\": \"…\", \"new_password\": \"…\"}}: {}",
            e.body_text()
        );
        error(e.status(), why)
    })?;
    let done = shared
        .store
        .change_password(&account.key, &body.password, &body.new_password)
        .await
        .map_err(|e| match e {
            AccountError::WrongLogin => error(StatusCode::UNAUTHORIZED, "that is not the password"),
            e => account_error(e),
        })?;
    shared.end_account(&account.key).await;
    Ok(logged_in(done))
}

async fn me(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Json<Account>, ApiError> {
    Ok(Json(authorized(&shared, &headers).await?))
}

async fn leaderboard(
    State(shared): State<Arc<Shared>>,
    Query(limit): Query<Limit>,
) -> Result<Json<Vec<Standing>>, ApiError> {
    let n = limit.limit.unwrap_or(100).min(MAX_ROWS);
    let rows = shared
        .store
        .leaderboard(n)
        .await
        .map_err(|e| ledger_down(&e))?;
    Ok(Json(rows))
}

async fn history(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(limit): Query<Limit>,
) -> Result<Json<Vec<PlayedHand>>, ApiError> {
    let account = authorized(&shared, &headers).await?;
    let n = limit.limit.unwrap_or(100).min(MAX_ROWS);
    let rows = shared
        .store
        .history(&account.key, n)
        .await
        .map_err(|e| ledger_down(&e))?;
    Ok(Json(rows))
}
