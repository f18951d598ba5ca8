//! Reconnect delays: exponential with jitter, never shorter than the server's `Retry-After`.

use std::time::Duration;

/// Exponential backoff: `first`, doubling per failure up to `cap`, each delay drawn from
/// [50 %, 100 %] of the step (so clients that failed together do not return together), and
/// back to `first` after a success.
#[derive(Clone, Debug)]
pub struct Backoff {
    first: Duration,
    cap: Duration,
    failures: u32,
    state: u64,
}

impl Backoff {
    /// A backoff from `first` to `cap`, its jitter seeded by `seed`.
    pub fn new(first: Duration, cap: Duration, seed: u64) -> Backoff {
        Backoff {
            first,
            cap: cap.max(first),
            failures: 0,
            state: seed | 1,
        }
    }

    /// The delay before the next attempt after a failure; `retry_after` (the server's) is a
    /// floor, still capped by ten times `cap`.
    pub fn next_delay(&mut self, retry_after: Option<Duration>) -> Duration {
        let step = self
            .first
            .saturating_mul(1u32 << self.failures.min(20))
            .min(self.cap);
        self.failures = self.failures.saturating_add(1);
        // xorshift64: jitter only, no need for quality.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        let fraction = 0.5 + 0.5 * (self.state >> 11) as f64 / (1u64 << 53) as f64;
        let jittered = step.mul_f64(fraction);
        match retry_after {
            Some(r) => jittered.max(r.min(self.cap.saturating_mul(10))),
            None => jittered,
        }
    }

    /// Forget the failures (after a success).
    pub fn reset(&mut self) {
        self.failures = 0;
    }

    /// Failures since the last success.
    pub fn failures(&self) -> u32 {
        self.failures
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_to_the_cap_and_honour_retry_after() {
        let ms = Duration::from_millis;
        let mut b = Backoff::new(ms(100), ms(1000), 7);
        let mut steps = Vec::new();
        for _ in 0..8 {
            steps.push(b.next_delay(None));
        }
        for (i, d) in steps.iter().enumerate() {
            let step = ms(100 * (1 << i.min(10))).min(ms(1000));
            assert!(*d >= step / 2 && *d <= step, "{i}: {d:?} vs {step:?}");
        }
        assert!(b.next_delay(Some(Duration::from_secs(5))) >= Duration::from_secs(5));
        assert!(b.next_delay(Some(Duration::from_secs(3600))) <= Duration::from_secs(10));
        b.reset();
        assert_eq!(b.failures(), 0);
        assert!(b.next_delay(None) <= ms(100));
    }
}
