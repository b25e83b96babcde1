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
//! - `GET /api/history[?limit=N]` with the token → the account's own hands, newest first;
//! - `GET /api/hand/TABLE/ROUND` → the round as the table showed it (`protocol::Replay`), while it is kept; 404 after;
//! - moderators' (and admins'), with the token: `POST /api/moderation` `{"action", "name", "seconds", "reason",
//!   "address", "table"}` (as the WebSocket's `moderate`: mute, timeout, kick, ban, pardon) → `{"done": "…"}`;
//!   `GET /api/moderation/log[?limit=N]` → the moderation log, newest first; `GET /api/moderation/reports[?limit=N]`
//!   → the players' reports with their context, newest first. `403` for anyone else, `409` for a moderator acting on
//!   a moderator or an admin.
//!
//! Logging in and changing a password take at most [`LoginLimits`] attempts a minute from one address and for one
//! name (the name's counted in the ledger, so every server sharing it shares the limit), and registering a few a
//! minute from one address (also in the ledger); over that, `429` with `Retry-After` (seconds).
//!
//! Tokens travel in bodies and the `Authorization` header, never in a URL, and are never logged. Every error is
//! `{"error": "what was wrong"}` with its status.

use super::Shared;
use super::ledger::{Account, LedgerError, PlayedHand, Standing, Store};
use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
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
        .route("/api/hand/{table}/{round}", get(hand))
        .route("/api/moderation", post(moderate))
        .route("/api/moderation/log", get(moderation_log))
        .route("/api/moderation/reports", get(reports))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// How many password attempts (logging in, changing a password) the server takes a minute: from one address, and
/// for one account name; and how many accounts one address may make a minute. Each may come at once; after that
/// they come back one at a time over the minute. Over it, the answer is `429 Too Many Requests` with `Retry-After`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginLimits {
    pub per_address: NonZeroU32,
    pub per_name: NonZeroU32,
    pub registrations_per_address: NonZeroU32,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits {
            per_address: NonZeroU32::new(30).unwrap_or(NonZeroU32::MIN),
            per_name: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            registrations_per_address: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// One client as the limits count it: an IPv4 address as itself (also when it reaches an IPv6 listener, as
/// `::ffff:a.b.c.d`), an IPv6 address by its /64 (what one client is given).
pub fn client_of(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(std::net::Ipv6Addr::from(bits))
            }
        },
        v4 => v4,
    }
}

/// The password attempts under way: a GCRA limiter (governor's) keyed by client in this process, checked first;
/// then the name's, and an address's registrations, in the ledger.
pub(super) struct Attempts {
    by_address: governor::DefaultKeyedRateLimiter<IpAddr>,
    limits: LoginLimits,
}

impl Attempts {
    pub(super) fn new(limits: LoginLimits) -> Attempts {
        Attempts {
            by_address: governor::RateLimiter::keyed(governor::Quota::per_minute(
                limits.per_address,
            )),
            limits,
        }
    }

    /// Takes one password attempt from `address` for the name `key`, or says how long to wait for the next. An
    /// attempt the address may not make is not counted against the name (nor is the name kept); a name is kept by
    /// at most its first [`MAX_KEY_CHARS`] characters.
    async fn take(&self, store: &Store, address: IpAddr, key: &str) -> Result<(), ApiError> {
        let clock = self.by_address.clock();
        if let Err(not_until) = self.by_address.check_key(&client_of(address)) {
            return Err(too_many(not_until.wait_time_from(clock.now())));
        }
        let key: String = key.chars().take(MAX_KEY_CHARS).collect();
        let bucket = format!("name:{key}");
        match store.attempt(&bucket, self.limits.per_name.get()).await {
            Ok(None) => Ok(()),
            Ok(Some(wait)) => Err(too_many(wait)),
            Err(e) => Err(account_error(store)(e)),
        }
    }

    /// Takes one registration from `address`, or says how long to wait for the next.
    async fn register(&self, store: &Store, address: IpAddr) -> Result<(), ApiError> {
        let bucket = format!("register:{}", client_of(address));
        let per_minute = self.limits.registrations_per_address.get();
        match store.attempt(&bucket, per_minute).await {
            Ok(None) => Ok(()),
            Ok(Some(wait)) => Err(ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many accounts made from here; try again in {} s",
                    seconds_of(wait)
                ),
                Some(seconds_of(wait)),
            )),
            Err(e) => Err(account_error(store)(e)),
        }
    }

    /// Forgets the addresses whose attempts are all back (kept a minute at most).
    pub(super) fn forget_old(&self) {
        self.by_address.retain_recent();
        self.by_address.shrink_to_fit();
    }
}

/// Whole seconds, rounded up: retrying after them works.
fn seconds_of(wait: Duration) -> u64 {
    wait.as_millis().div_ceil(1_000).max(1) as u64
}

/// Too many password attempts: wait this long.
fn too_many(wait: Duration) -> ApiError {
    let seconds = seconds_of(wait);
    ApiError(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many password attempts; try again in {seconds} s"),
        Some(seconds),
    )
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
        let mut response = super::error::json_error(self.0, self.1);
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

/// What the ledger said, as an HTTP answer: its refusals with their status, an outage as 503 (the log hears why, and
/// the operator's figures count it).
fn account_error(store: &Store) -> impl Fn(LedgerError) -> ApiError + '_ {
    move |e| match e {
        e if e.is_outage() => {
            store.failed("answering the API", &e);
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server's ledger is not answering; try again soon",
            )
        }
        LedgerError::Invalid(why) => error(StatusCode::BAD_REQUEST, why),
        LedgerError::Taken
        | LedgerError::LooksLike(_)
        | LedgerError::GuestPlays(_)
        | LedgerError::AnAccountsName => error(StatusCode::CONFLICT, e.to_string()),
        LedgerError::WrongLogin => error(StatusCode::UNAUTHORIZED, e.to_string()),
        LedgerError::NotModerator => error(StatusCode::FORBIDDEN, e.to_string()),
        LedgerError::NoAccount => error(StatusCode::NOT_FOUND, e.to_string()),
        e => error(StatusCode::CONFLICT, e.to_string()),
    }
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    credentials: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(credentials)?;
    shared.attempts.register(&shared.store, peer.ip()).await?;
    // A guest playing under the name now keeps it until they leave: the ledger holds every name played under.
    let done = shared
        .store
        .register(&c.name, &c.password, shared.stake)
        .await
        .map_err(account_error(&shared.store))?;
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
        .take(&shared.store, peer.ip(), &c.name.trim().to_lowercase())
        .await?;
    let done = shared
        .store
        .log_in(&c.name, &c.password)
        .await
        .map_err(account_error(&shared.store))?;
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
        Ok(Some(session)) => Ok(session.account),
        Ok(None) => Err(error(
            StatusCode::UNAUTHORIZED,
            "that session has ended: log in again",
        )),
        Err(e) => Err(account_error(&shared.store)(e)),
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
        .map_err(account_error(&shared.store))?;
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
    shared
        .attempts
        .take(&shared.store, peer.ip(), &account.key)
        .await?;
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
            LedgerError::WrongLogin => error(StatusCode::UNAUTHORIZED, "that is not the password"),
            e => account_error(&shared.store)(e),
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
        .map_err(account_error(&shared.store))?;
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
        .map_err(account_error(&shared.store))?;
    Ok(Json(rows))
}

/// What a moderator's action did.
#[derive(Serialize)]
struct Done {
    done: String,
}

async fn moderate(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Json<super::ledger::Order>, JsonRejection>,
) -> Result<Json<Done>, ApiError> {
    let account = authorized(&shared, &headers).await?;
    let Json(order) = body.map_err(|e| {
        let why = format!(
            "the body must be JSON {{\"action\": \"mute|timeout|kick|ban|pardon\", \"name\": \"…\", \"seconds\": N, \
             \"reason\": \"…\", \"address\": false, \"table\": \"…\"}}: {}",
            e.body_text()
        );
        error(e.status(), why)
    })?;
    let done = super::moderation::act(&shared, &account.key, &order)
        .await
        .map_err(account_error(&shared.store))?;
    Ok(Json(Done { done }))
}

async fn moderation_log(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(limit): Query<Limit>,
) -> Result<Json<Vec<super::ledger::LogLine>>, ApiError> {
    let account = authorized(&shared, &headers).await?;
    let n = limit.limit.unwrap_or(100).min(MAX_ROWS);
    let rows = shared
        .store
        .moderation_log(&account.key, n)
        .await
        .map_err(account_error(&shared.store))?;
    Ok(Json(rows))
}

async fn reports(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Query(limit): Query<Limit>,
) -> Result<Json<Vec<super::ledger::Report>>, ApiError> {
    let account = authorized(&shared, &headers).await?;
    let n = limit.limit.unwrap_or(100).min(MAX_ROWS);
    let rows = shared
        .store
        .reports(&account.key, n)
        .await
        .map_err(account_error(&shared.store))?;
    Ok(Json(rows))
}

/// A round a casino kept, as its table showed it: anyone may watch it again (everything in it was shown to every
/// spectator at the table).
async fn hand(
    State(shared): State<Arc<Shared>>,
    Path((table, round)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let Ok(number) = round.parse::<u64>() else {
        return Err(error(
            StatusCode::BAD_REQUEST,
            format!("{round:?} is not a round's number"),
        ));
    };
    let kept = shared
        .store
        .replay(&table, number)
        .await
        .map_err(account_error(&shared.store))?;
    match kept {
        Some(json) => Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response()),
        None => Err(error(
            StatusCode::NOT_FOUND,
            match shared.keep_replays_days {
                0 => format!(
                    "round {number} at {table} is not kept here (this casino keeps no rounds to watch again)"
                ),
                days => format!(
                    "round {number} at {table} is not kept here (rounds are kept {days} days)"
                ),
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One client as the limits count it: an IPv4 address as itself, also mapped into IPv6 (every IPv4 client of
    /// a `[::]` listener is one), an IPv6 address by its /64.
    #[test]
    fn a_client_is_its_ipv4_address_or_its_ipv6_64() {
        let ip = |text: &str| text.parse::<IpAddr>().expect("an address");
        assert_eq!(client_of(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_of(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_ne!(
            client_of(ip("::ffff:192.0.2.7")),
            client_of(ip("::ffff:192.0.2.8")),
            "two IPv4 clients of an IPv6 listener are two"
        );
        assert_eq!(
            client_of(ip("2001:db8::1")),
            client_of(ip("2001:db8::ffff:1"))
        );
        assert_ne!(client_of(ip("2001:db8::1")), client_of(ip("2001:db9::1")));
    }
}
