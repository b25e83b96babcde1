//! What every HTTP answer of the server holds to: the browser build's files and how long a browser may keep each,
//! no body larger than the server reads, and every error as JSON (`{"error": "…"}`), whichever part of the server
//! (or of axum under it) refused the request.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The largest body any request of the server's may carry (the API's JSON is far smaller).
pub const MAX_BODY_BYTES: u64 = 4 * 1024;

/// Refuses a request whose body is declared larger than [`MAX_BODY_BYTES`] before a byte of it is read.
pub(super) async fn no_large_bodies(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|bytes| bytes > MAX_BODY_BYTES) {
        return super::error::json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a request's body is at most {MAX_BODY_BYTES} bytes"),
        );
    }
    next.run(request).await
}

/// Any error answer that is not JSON already (axum's own refusals: a wrong method, a query that does not read, a
/// WebSocket request that is not one) becomes `{"error": "…"}` with its status and headers.
pub(super) async fn errors_as_json(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let said = axum::body::to_bytes(body, MAX_BODY_BYTES as usize)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let error = if said.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase()
    } else {
        said
    };
    let body = serde_json::json!({ "error": error }).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

/// A round's link (`/hand/TABLE/ROUND`, as the game gives it to share): the browser build, opened to watch that round
/// again (`/?hand=TABLE/ROUND`: the page's files are named from its root). The round itself comes from
/// `/api/hand/TABLE/ROUND`, which says when it is not kept.
pub(super) async fn watch_again(
    axum::extract::Path((table, round)): axum::extract::Path<(String, String)>,
) -> Response {
    let Ok(round) = round.parse::<u64>() else {
        return super::error::json_error(
            StatusCode::NOT_FOUND,
            format!("{round:?} is not a round's number"),
        );
    };
    // The game reads `hand=TABLE/ROUND` from the page's address: the path's own escapes, and its slash escaped too.
    let path = super::protocol::Replay::path(&table, round);
    let hand = path.trim_start_matches("/hand/").replacen('/', "%2F", 1);
    axum::response::Redirect::to(&format!("/?hand={hand}")).into_response()
}

/// No such page (no browser build is served here, or no route by that name).
pub(super) async fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such page here").into_response()
}

/// How long a browser may keep each file of the browser build: for good where the name carries a hash of the
/// contents (`scripts/build-web` names the module, its glue, the loader and the assets' folder so: a new build is new
/// names), and only after asking again otherwise (the page, the service worker), so a new build is seen at once.
/// The files themselves go out Brotli'd or gzipped where the build wrote a `.br` or `.gz` copy beside them and the
/// browser accepts it (`ServeDir`'s precompressed files, with `Vary: Accept-Encoding`).
pub(super) async fn keeping_rules(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let lasting = named_by_contents(request.uri().path());
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static(if lasting {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            }),
        );
    }
    response
}

/// Whether a path of the browser build names its file by the hash of its contents: under `assets/<hash>/`, or a
/// file name with a `.<hash>.` part (`holecard_bg.3f9c0a1b2c4d.wasm`), the hash being 12 lowercase hex digits.
pub fn named_by_contents(path: &str) -> bool {
    let hash = |part: &str| {
        part.len() == 12
            && part
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if let Some(rest) = path.strip_prefix("/assets/")
        && let Some((folder, file)) = rest.split_once('/')
        && hash(folder)
        && !file.is_empty()
    {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or_default();
    let parts: Vec<&str> = name.split('.').collect();
    parts.len() >= 3 && parts[1..parts.len() - 1].iter().any(|part| hash(part))
}

#[cfg(test)]
mod tests {
    use super::named_by_contents;

    #[test]
    fn only_files_named_by_their_contents_are_kept_for_good() {
        for lasting in [
            "/holecard_bg.0123456789ab.wasm",
            "/holecard.abcdef012345.js",
            "/loader.00000000ffff.js",
            "/assets/0123456789ab/cards/classic/AS.png",
        ] {
            assert!(named_by_contents(lasting), "{lasting}");
        }
        for asked_again in [
            "/",
            "/index.html",
            "/sw.js",
            "/manifest.webmanifest",
            "/holecard_bg.wasm",
            "/0123456789ab.js",
            "/holecard.0123456789AB.js",
            "/holecard.0123456789a.js",
            "/assets/0123456789ab/",
            "/assets/felt.png",
            "/assets/notahashhere/felt.png",
        ] {
            assert!(!named_by_contents(asked_again), "{asked_again}");
        }
    }
}
