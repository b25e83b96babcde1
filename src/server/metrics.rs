//! What an operator watches: the server's figures in Prometheus' text format at `/metrics` (when the server is
//! started with `--metrics`), `/healthz` (the process answers) and `/readyz` (the ledger answers). The figures are
//! counted where they happen — a connection opened, a command read, a refusal sent, a round written to the ledger,
//! a command's news sent out — and the ledger's pool is read when the figures are asked for.

use super::Shared;
use super::ledger::Store;
use crate::protocol::{ClientMessage, Refusal};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long `/readyz` waits for the ledger to answer.
const READY_WITHIN: Duration = Duration::from_secs(2);

/// The bounds of the command-to-news buckets, in seconds: from half a millisecond (a table's own work) to five
/// seconds (a ledger that has stalled).
const LATENCY_BUCKETS: [f64; 13] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Kind {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Moderated {
    action: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolState {
    state: &'static str,
}

/// The server's figures. Counting is a few atomic additions; with the figures off (no `--metrics`) nothing is
/// counted and `/metrics` is not served.
#[derive(Debug)]
pub struct Metrics {
    on: bool,
    registry: Registry,
    connections: Gauge,
    tables: Gauge,
    seated: Gauge,
    watching: Gauge,
    rounds: Counter,
    commands: Family<Kind, Counter>,
    refusals: Family<Reason, Counter>,
    latency: Histogram,
    pool: Family<PoolState, Gauge>,
    ledger_errors: Counter,
    moderation: Family<Moderated, Counter>,
}

impl Metrics {
    /// The figures, counted when `on`; `ledger_errors` is the ledger's own count of its failures
    /// ([`Store::failures`]).
    pub fn new(on: bool, ledger_errors: Counter) -> Metrics {
        let mut metrics = Metrics {
            on,
            registry: Registry::with_prefix("holecard"),
            connections: Gauge::default(),
            tables: Gauge::default(),
            seated: Gauge::default(),
            watching: Gauge::default(),
            rounds: Counter::default(),
            commands: Family::default(),
            refusals: Family::default(),
            latency: Histogram::new(LATENCY_BUCKETS),
            pool: Family::default(),
            ledger_errors,
            moderation: Family::default(),
        };
        metrics.registry.register(
            "connections",
            "WebSocket connections open",
            metrics.connections.clone(),
        );
        metrics
            .registry
            .register("tables", "Tables open", metrics.tables.clone());
        metrics.registry.register(
            "seated",
            "People seated at the tables (companions not counted)",
            metrics.seated.clone(),
        );
        metrics.registry.register(
            "watching",
            "People watching a table from no seat",
            metrics.watching.clone(),
        );
        metrics.registry.register(
            "rounds",
            "Rounds settled and written to the ledger",
            metrics.rounds.clone(),
        );
        metrics.registry.register(
            "commands",
            "Messages read from clients, by kind",
            metrics.commands.clone(),
        );
        metrics.registry.register(
            "refusals",
            "Refusals sent to clients, by reason",
            metrics.refusals.clone(),
        );
        metrics.registry.register(
            "command_to_news_seconds",
            "From a bet or a play read off its connection to its news in every member's outbox",
            metrics.latency.clone(),
        );
        metrics.registry.register(
            "ledger_pool_connections",
            "The ledger's pool of database connections, idle or in use",
            metrics.pool.clone(),
        );
        metrics.registry.register(
            "ledger_errors",
            "Times the ledger failed to answer the server (a query, a write, a connection)",
            metrics.ledger_errors.clone(),
        );
        metrics.registry.register(
            "moderation_actions",
            "Moderators' actions done (mute, timeout, kick, ban, pardon), by action",
            metrics.moderation.clone(),
        );
        metrics
    }

    /// A moderator's action, done.
    pub fn moderated(&self, action: crate::protocol::ModAction) {
        if self.on {
            self.moderation
                .get_or_create(&Moderated {
                    action: action.name(),
                })
                .inc();
        }
    }

    /// The tables this server opened.
    pub fn tables_open(&self, tables: usize) {
        if self.on {
            self.tables.set(tables as i64);
        }
    }

    /// A WebSocket opened: counted until the returned guard is dropped.
    pub fn connected(self: &Arc<Metrics>) -> Connected {
        if self.on {
            self.connections.inc();
        }
        Connected(self.clone())
    }

    /// A client's message read.
    pub fn command(&self, message: &ClientMessage) {
        if self.on {
            let kind = message.kind();
            self.commands.get_or_create(&Kind { kind }).inc();
        }
    }

    /// A refusal sent.
    pub fn refused(&self, code: Refusal) {
        if self.on {
            let reason = code.name();
            self.refusals.get_or_create(&Reason { reason }).inc();
        }
    }

    /// A table's people changed from `before` (seated, watching) to `now`.
    pub fn people(&self, before: (u32, u32), now: (u32, u32)) {
        if self.on && before != now {
            self.seated.inc_by(i64::from(now.0) - i64::from(before.0));
            self.watching.inc_by(i64::from(now.1) - i64::from(before.1));
        }
    }

    /// A round settled in the ledger.
    pub fn round_settled(&self) {
        if self.on {
            self.rounds.inc();
        }
    }

    /// A command read at `read` has had its news sent.
    pub fn news_sent(&self, read: Instant) {
        if self.on {
            self.latency.observe(read.elapsed().as_secs_f64());
        }
    }

    /// The figures in Prometheus' text format, the ledger's pool and failures read now.
    fn text(&self, store: &Store) -> Result<String, std::fmt::Error> {
        let (size, idle) = store.pool_connections();
        let idle = i64::from(idle.min(size));
        let state = |state| PoolState { state };
        self.pool.get_or_create(&state("idle")).set(idle);
        self.pool
            .get_or_create(&state("in_use"))
            .set(i64::from(size) - idle);
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// An open WebSocket, counted in `holecard_connections` while it lives.
pub struct Connected(Arc<Metrics>);

impl Drop for Connected {
    fn drop(&mut self) {
        if self.0.on {
            self.0.connections.dec();
        }
    }
}

/// `GET /metrics`.
pub(super) async fn metrics(State(shared): State<Arc<Shared>>) -> Response {
    match shared.metrics.text(&shared.store) {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
            )],
            text,
        )
            .into_response(),
        Err(_) => super::error::json_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the figures could not be written",
        ),
    }
}

/// `GET /healthz`: the process runs and answers.
pub(super) async fn healthz() -> Response {
    axum::Json(serde_json::json!({ "healthy": true })).into_response()
}

/// `GET /readyz`: the ledger answers a query within [`READY_WITHIN`]; 503 when it does not (the log says why).
pub(super) async fn readyz(State(shared): State<Arc<Shared>>) -> Response {
    let why = match tokio::time::timeout(READY_WITHIN, shared.store.ping()).await {
        Ok(Ok(())) => return axum::Json(serde_json::json!({ "ready": true })).into_response(),
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {} s", READY_WITHIN.as_secs()),
    };
    shared.store.failed("answering /readyz", &why);
    super::error::json_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the ledger is not answering",
    )
}
