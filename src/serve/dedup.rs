//! Duplicate deliveries: a bounded cache keyed by (gameId, seat, version, type).
//!
//! The play server delivers one POST per decision, but its subscription can show one
//! version twice and a proxy may retry; the reference runtimes therefore share one
//! computation between identical in-flight deliveries and give a repeat the same answer.
//! A delivery with the same identity but other decision inputs (DFEN, increment, draw
//! permission, legal tree: never the ticking clocks) is a `stale_context` conflict. Failed
//! computations are forgotten so that a retry computes again. Process-local: not a durable
//! replay guard.

use super::reject::Rejection;
use super::wire::{DeliveryType, Seat};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::OnceCell;

/// A delivery's identity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The game.
    pub game_id: String,
    /// Our seat.
    pub seat: Seat,
    /// The state version.
    pub version: u64,
    /// The delivery type.
    pub kind: DeliveryType,
}

/// The answer body of a settled delivery, shared by its duplicates.
pub type Answer = Arc<Vec<u8>>;

/// The slot of one delivery: initialised once, by the first caller; the others wait.
pub type Slot = Arc<OnceCell<Answer>>;

struct Entry {
    fingerprint: [u8; 32],
    slot: Slot,
    created: Instant,
}

/// The cache (see the module docs).
pub struct Dedup {
    entries: Mutex<HashMap<Key, Entry>>,
    max_entries: usize,
    ttl: Duration,
}

impl Dedup {
    /// A cache of at most `max_entries` deliveries, each kept `ttl` after it arrived.
    pub fn new(max_entries: usize, ttl: Duration) -> Dedup {
        Dedup {
            entries: Mutex::new(HashMap::new()),
            max_entries: max_entries.max(1),
            ttl,
        }
    }

    /// The slot for `key`: a new one, or the existing one when `fingerprint` matches
    /// (`StaleContext` when it does not). When full, expired entries go first, then the
    /// oldest settled one; `Capacity` when every entry is still in flight.
    pub fn slot(&self, key: Key, fingerprint: [u8; 32], now: Instant) -> Result<Slot, Rejection> {
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = map.get(&key) {
            let live = now.duration_since(e.created) < self.ttl || !e.slot.initialized();
            if live {
                if e.fingerprint != fingerprint {
                    return Err(Rejection::StaleContext);
                }
                return Ok(e.slot.clone());
            }
            map.remove(&key);
        }
        if map.len() >= self.max_entries {
            let ttl = self.ttl;
            map.retain(|_, e| !e.slot.initialized() || now.duration_since(e.created) < ttl);
        }
        if map.len() >= self.max_entries {
            let oldest = map
                .iter()
                .filter(|(_, e)| e.slot.initialized())
                .min_by_key(|(_, e)| e.created)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    map.remove(&k);
                }
                None => return Err(Rejection::Capacity("every cached delivery is in flight")),
            }
        }
        let slot: Slot = Arc::new(OnceCell::new());
        map.insert(
            key,
            Entry {
                fingerprint,
                slot: slot.clone(),
                created: now,
            },
        );
        Ok(slot)
    }

    /// Drop `key` if it still holds `slot` and the slot never settled (its computation
    /// failed), so that a retry computes again.
    pub fn forget_failed(&self, key: &Key, slot: &Slot) {
        let mut map = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if map
            .get(key)
            .is_some_and(|e| Arc::ptr_eq(&e.slot, slot) && !e.slot.initialized())
        {
            map.remove(key);
        }
    }

    /// Entries held now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no entry is held.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(version: u64) -> Key {
        Key {
            game_id: "g".into(),
            seat: Seat::White,
            version,
            kind: DeliveryType::YourTurn,
        }
    }

    #[tokio::test]
    async fn repeats_share_a_slot_and_conflicts_are_stale() {
        let d = Dedup::new(2, Duration::from_secs(60));
        let t = Instant::now();
        let a = d.slot(key(1), [1; 32], t).unwrap();
        let b = d.slot(key(1), [1; 32], t).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(matches!(
            d.slot(key(1), [2; 32], t),
            Err(Rejection::StaleContext)
        ));
        // Full with both in flight: refused.
        d.slot(key(2), [1; 32], t).unwrap();
        assert!(matches!(
            d.slot(key(3), [1; 32], t),
            Err(Rejection::Capacity(_))
        ));
        // One settles: it makes room.
        a.set(Arc::new(b"x".to_vec())).unwrap();
        d.slot(key(3), [1; 32], t).unwrap();
        assert_eq!(d.len(), 2);
    }

    #[tokio::test]
    async fn failures_are_forgotten_and_entries_expire() {
        let d = Dedup::new(4, Duration::from_secs(10));
        let t = Instant::now();
        let a = d.slot(key(1), [1; 32], t).unwrap();
        d.forget_failed(&key(1), &a);
        assert!(d.is_empty());
        let a = d.slot(key(1), [1; 32], t).unwrap();
        a.set(Arc::new(b"x".to_vec())).unwrap();
        let later = t + Duration::from_secs(11);
        // Expired: a new slot, even with other inputs.
        let b = d.slot(key(1), [2; 32], later).unwrap();
        assert!(!Arc::ptr_eq(&a, &b));
    }
}
