//! Listening: each connection is counted when it is accepted, before a byte of it is read, against a cap per client
//! (an IPv4 address, also mapped into IPv6, or an IPv6 /64) and a cap on all of them well under the process's file
//! limit; one over either is closed at once. A request's headers must arrive within the request time
//! ([`REQUEST_TIME`] by default; an idle keep-alive connection is closed after as long), and its body too; a body
//! declared larger than the server reads is refused before it is read. So no address can hold the server's files with half-sent requests,
//! and every other player can still come in.

use super::api::client_of;
use super::error::ServerError;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// How long a client may take to send a request's headers (and how long a kept-alive connection may sit idle), and
/// its body.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// Files the process keeps for itself (the ledger, its logs, the listener) below its limit.
const RESERVED_FILES: usize = 128;

/// How many connections the server holds at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// From one client, accepted (HTTP requests and WebSockets alike).
    pub per_client: usize,
    /// In all.
    pub total: usize,
}

impl Caps {
    /// `per_client` from one client, and as many in all as the process's file limit leaves room for.
    pub fn under_the_file_limit(per_client: usize) -> Caps {
        Caps {
            per_client,
            total: open_files_allowed().saturating_sub(RESERVED_FILES).max(16),
        }
    }
}

/// The process's limit on open files (its soft limit; a generous guess where there is none to read).
fn open_files_allowed() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct it is given, and nothing else.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            return usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
        }
    }
    1024
}

/// Raises the process's limit on open files to the most it may have (its hard limit), so a server started with a
/// low soft limit (1,024 is common) can hold its players; the limit it has afterwards.
pub fn raise_the_file_limit() -> usize {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct they are given, and nothing else.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0
                && limit.rlim_cur < limit.rlim_max
            {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
                    tracing::warn!(
                        "could not raise the open-file limit from {}",
                        limit.rlim_cur
                    );
                }
            }
        }
    }
    open_files_allowed()
}

/// The connections held now: by client, and in all.
#[derive(Default)]
struct Held {
    by_client: HashMap<IpAddr, usize>,
    total: usize,
}

/// One accepted connection, counted until it is dropped: by the connection's task, or by the WebSocket it becomes
/// (which takes it from the request's [`Tally`]).
pub struct Counted {
    held: Arc<Mutex<Held>>,
    client: IpAddr,
}

impl Counted {
    fn take(held: &Arc<Mutex<Held>>, client: IpAddr, caps: Caps) -> Option<Counted> {
        let mut now = held.lock().ok()?;
        let from_client = now.by_client.get(&client).copied().unwrap_or(0);
        if from_client >= caps.per_client || now.total >= caps.total {
            return None;
        }
        now.by_client.insert(client, from_client + 1);
        now.total += 1;
        Some(Counted {
            held: held.clone(),
            client,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        if let Ok(mut now) = self.held.lock() {
            now.total = now.total.saturating_sub(1);
            if let Some(count) = now.by_client.get_mut(&self.client) {
                *count -= 1;
                if *count == 0 {
                    now.by_client.remove(&self.client);
                }
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, each connection counted against `caps` as it is accepted.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    caps: Caps,
    request_time: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let held = Arc::new(Mutex::new(Held::default()));
    let (closing, closed) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of files (or another passing failure): the connections held are the server's to finish, so
                // it waits a moment rather than spin, and tries again.
                Err(e) => {
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(counted) = Counted::take(&held, client_of(peer.ip()), caps) else {
            // Over a cap: closed before anything of it is read.
            drop(stream);
            continue;
        };
        // Small messages go out at once: without TCP_NODELAY, Nagle's algorithm holds a message back until the last
        // one is acknowledged, and a client's delayed acknowledgement makes that 40 ms.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY on a connection: {e}");
        }
        let counted = Tally(Arc::new(Mutex::new(Some(counted))));
        let service = TowerToHyperService::new(
            app.clone()
                .layer(axum::Extension(ConnectInfo(peer)))
                .layer(axum::Extension(counted.clone())),
        );
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(request_time);
            let connection = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            let mut connection = std::pin::pin!(connection);
            loop {
                tokio::select! {
                    _ = connection.as_mut() => break,
                    changed = closed.changed() => {
                        if changed.is_err() || *closed.borrow() {
                            connection.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            // The connection is done, or has become a WebSocket (which took its count along).
            drop(counted);
        });
    }
    let _ = closing.send(true);
    Ok(())
}

/// A connection's count, in each of its requests: the request that becomes a WebSocket takes it, so the WebSocket
/// counts for as long as it is open.
#[derive(Clone)]
pub struct Tally(Arc<Mutex<Option<Counted>>>);

impl Tally {
    /// The connection's count, for whoever keeps the connection now.
    pub fn take(&self) -> Option<Counted> {
        self.0.lock().ok().and_then(|mut counted| counted.take())
    }
}

/// How many connections one client may have accepted at once: its WebSockets (`per_address`, refused with 429 at the
/// upgrade past it) and some room for requests to the API and for reconnecting.
pub fn accepted_per_client(per_address: usize) -> usize {
    per_address.saturating_mul(2).saturating_add(8)
}

/// The client a request came from, for a handler (put there by [`serve`]).
pub type Peer = ConnectInfo<SocketAddr>;
