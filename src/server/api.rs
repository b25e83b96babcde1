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
//! Logging in and changing a password take at most [`LoginLimits`] attempts a minute from one address and for one
//! name; over that, `429` with `Retry-After` (seconds).
//!
//! Tokens travel in bodies and the `Authorization` header, never in a URL, and are never logged. Every error is
//! `{"error": "what was wrong"}` with its status.

use super::Shared;
use super::store::{Account, AccountError, PlayedHand, Standing};
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post};
use governor::clock::Clock;
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

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

/// How many password attempts (logging in, changing a password) the server takes a minute: from one address, and
/// for one account name. Each may come at once; after that they come back one at a time over the minute. Over it,
/// the answer is `429 Too Many Requests` with `Retry-After`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginLimits {
    pub per_address: NonZeroU32,
    pub per_name: NonZeroU32,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits {
            per_address: NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN),
            per_name: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// The password attempts under way: a GCRA limiter (governor's) keyed by address, and one keyed by name.
pub(super) struct Attempts {
    by_address: governor::DefaultKeyedRateLimiter<IpAddr>,
    by_name: governor::DefaultKeyedRateLimiter<String>,
}

impl Attempts {
    pub(super) fn new(limits: LoginLimits) -> Attempts {
        Attempts {
            by_address: governor::RateLimiter::keyed(governor::Quota::per_minute(
                limits.per_address,
            )),
            by_name: governor::RateLimiter::keyed(governor::Quota::per_minute(limits.per_name)),
        }
    }

    /// Takes one attempt from `address` for the name `key`, or says how long to wait for the next. An attempt the
    /// address may not make is not counted against the name (nor is the name kept); a name is kept by at most its
    /// first [`MAX_KEY_CHARS`] characters, an IPv6 address by its /64 (what one client is given).
    fn take(&self, address: IpAddr, key: &str) -> Result<(), ApiError> {
        let clock = self.by_address.clock();
        let address = match address {
            IpAddr::V6(v6) => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
            v4 => v4,
        };
        let refused = match self.by_address.check_key(&address) {
            Err(not_until) => Some(not_until),
            Ok(()) => {
                let key: String = key.chars().take(MAX_KEY_CHARS).collect();
                self.by_name.check_key(&key).err()
            }
        };
        let Some(not_until) = refused else {
            return Ok(());
        };
        // Whole seconds, rounded up: retrying after them works.
        let wait = not_until.wait_time_from(clock.now());
        let seconds = wait.as_millis().div_ceil(1_000).max(1) as u64;
        Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many password attempts; try again in {seconds} s"),
            Some(seconds),
        ))
    }

    /// Forgets the addresses and names whose attempts are all back (kept a minute at most).
    pub(super) fn forget_old(&self) {
        self.by_address.retain_recent();
        self.by_name.retain_recent();
        self.by_address.shrink_to_fit();
        self.by_name.shrink_to_fit();
    }
}

/// The most of a name the attempts' memory keeps (a name has far fewer; a longer one is no account's).
const MAX_KEY_CHARS: usize = 64;

/// How often the attempts' memory is swept.
pub(super) const FORGET_ATTEMPTS_EVERY: Duration = Duration::from_secs(60);

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

/// An error as the API gives it: a status, `{"error": "…"}`, and the seconds to wait before trying again if any.
struct ApiError(StatusCode, String, Option<u64>);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Error {
            error: String,
        }
        let mut response = (self.0, Json(Error { error: self.1 })).into_response();
        if let Some(seconds) = self.2 {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        response
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError(status, message.into(), None)
}

fn account_error(e: AccountError) -> ApiError {
    match e {
        AccountError::Invalid(why) => error(StatusCode::BAD_REQUEST, why),
        AccountError::Taken | AccountError::LooksLike(_) => {
            error(StatusCode::CONFLICT, e.to_string())
        }
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
    let look = super::store::look_of(&c.name);
    let in_use = shared.sessions.lock().is_ok_and(|sessions| {
        sessions
            .values()
            .any(|s| s.account.is_none() && s.look == look)
    });
    if in_use {
        return Err(error(
            StatusCode::CONFLICT,
            "a guest is playing under that name (or one that looks like it) now",
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    credentials: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(credentials)?;
    shared
        .attempts
        .take(peer.ip(), &c.name.trim().to_lowercase())?;
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewPassword>, JsonRejection>,
) -> Result<Response, ApiError> {
    let account = authorized(&shared, &headers).await?;
    shared.attempts.take(peer.ip(), &account.key)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An address over its attempts spends nothing of the name it tried, and an IPv6 client is one /64.
    #[test]
    fn attempts_count_by_address_first_and_ipv6_by_its_64() {
        let limit = |n| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        let attempts = Attempts::new(LoginLimits {
            per_address: limit(2),
            per_name: limit(3),
        });
        let ip = |text: &str| text.parse::<IpAddr>().expect("an address");
        let (one, same_64, other, another) = (
            ip("2001:db8::1"),
            ip("2001:db8::ffff:1"),
            ip("2001:db9::1"),
            ip("192.0.2.7"),
        );
        assert!(attempts.take(one, "ann").is_ok());
        assert!(attempts.take(same_64, "bob").is_ok());
        let refused = attempts
            .take(same_64, "ann")
            .expect_err("the /64 has made its two");
        assert_eq!(refused.0, StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.2.is_some_and(|seconds| (1..=30).contains(&seconds)));
        // Ann's name was tried once (the refused attempt did not count): two more from elsewhere are taken.
        assert!(attempts.take(other, "ann").is_ok());
        assert!(attempts.take(other, "ann").is_ok());
        assert!(
            attempts.take(another, "ann").is_err(),
            "Ann's three are spent"
        );
        // A name is kept by its first characters only.
        let long = "x".repeat(5_000);
        assert!(attempts.take(another, &long).is_ok());
        assert!(attempts.by_name.len() <= 3);
    }
}
