//! The wire's limits: how large a message, a name and a chat line may be, how long a dropped seat is held, and how
//! fast a client may send (the [`Allowance`] both ends keep).

/// The longest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024;

/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;

/// How long a dropped connection's seat (and name) wait for it to come back, in seconds.
pub const HOLD_SECONDS: u64 = 60;

/// Messages a client may send a second, on average.
pub const MESSAGES_PER_SECOND: f64 = 10.0;

/// Messages a client may send at once.
pub const MESSAGE_BURST: f64 = 30.0;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// An allowance of messages (a token bucket): `rate` a second on average, `burst` at once. The server keeps one per
/// connection at [`MESSAGES_PER_SECOND`] and [`MESSAGE_BURST`] and refuses past it; a well-behaved client keeps
/// one a little under that and waits.
#[derive(Clone, Copy, Debug)]
pub struct Allowance {
    rate: f64,
    burst: f64,
    tokens: f64,
    refilled: std::time::Instant,
}

impl Allowance {
    /// The server's: what a connection may send.
    pub fn server(now: std::time::Instant) -> Allowance {
        Allowance::new(MESSAGES_PER_SECOND, MESSAGE_BURST, now)
    }

    /// A client's that stays under the server's even when messages bunch up on the way.
    pub fn polite(now: std::time::Instant) -> Allowance {
        Allowance::new(MESSAGES_PER_SECOND * 0.8, MESSAGE_BURST / 2.0, now)
    }

    fn new(rate: f64, burst: f64, now: std::time::Instant) -> Allowance {
        Allowance {
            rate,
            burst,
            tokens: burst,
            refilled: now,
        }
    }

    fn refill(&mut self, now: std::time::Instant) {
        let earned = now.saturating_duration_since(self.refilled).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.refilled = now;
    }

    /// Takes one message's worth, if there is one.
    pub fn take(&mut self, now: std::time::Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How long until one message's worth is there.
    pub fn wait(&mut self, now: std::time::Instant) -> std::time::Duration {
        self.refill(now);
        std::time::Duration::from_secs_f64(((1.0 - self.tokens) / self.rate).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowance_gives_a_burst_then_its_rate_and_a_polite_one_stays_under_the_servers() {
        let start = std::time::Instant::now();
        let mut server = Allowance::server(start);
        assert_eq!((0..40).filter(|_| server.take(start)).count(), 30);
        let later = start + std::time::Duration::from_millis(250);
        assert!(server.wait(later).is_zero(), "2.5 messages earned");
        assert_eq!((0..10).filter(|_| server.take(later)).count(), 2);
        assert!((server.wait(later).as_secs_f64() - 0.05).abs() < 1e-6);
        // A client that sends whenever its polite allowance lets it is never refused by the server's, even when
        // its messages arrive all at once.
        let mut polite = Allowance::polite(start);
        let mut server = Allowance::server(start);
        let mut now = start;
        for _ in 0..1_000 {
            now += polite.wait(now);
            assert!(polite.take(now));
            assert!(server.take(now), "refused at {:?}", now - start);
        }
    }
}
