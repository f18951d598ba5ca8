//! Work budgets: bounding how much a query may compute.
//!
//! One unit of work is one move-generation call, one examined micro-move or one roll
//! iteration. A [`Budget`] is shared by any number of queries; once a charge does not fit,
//! it is exhausted for good ("sticky"), so every later query stops at once.

/// Something that pays for work. The turn and probe traversals are generic over it, so the
/// unbudgeted form ([`Unmetered`]) compiles to the plain traversal.
pub trait Meter {
    /// Pay `units`; `false` when they do not fit (the traversal must then stop).
    fn charge(&mut self, units: u64) -> bool;

    /// Whether this meter never runs out, so callers may skip counting what they would pay.
    const UNLIMITED: bool = false;
}

/// The meter that never runs out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unmetered;

impl Meter for Unmetered {
    const UNLIMITED: bool = true;

    #[inline(always)]
    fn charge(&mut self, _units: u64) -> bool {
        true
    }
}

/// A work budget with a limit, shared by the queries it is passed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    limit: u64,
    used: u64,
    exhausted: bool,
}

impl Budget {
    /// A fresh budget of `limit` units.
    pub fn new(limit: u64) -> Budget {
        Budget {
            limit,
            used: 0,
            exhausted: false,
        }
    }

    /// Units spent so far (equal to the limit once exhausted).
    pub fn used(&self) -> u64 {
        self.used
    }

    /// The limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Whether a charge has failed; stays true.
    pub fn is_exhausted(&self) -> bool {
        self.exhausted
    }
}

impl Meter for Budget {
    #[inline]
    fn charge(&mut self, units: u64) -> bool {
        if self.exhausted {
            return false;
        }
        if self.limit - self.used < units {
            self.used = self.limit;
            self.exhausted = true;
            return false;
        }
        self.used += units;
        true
    }
}

/// The result of a budgeted query: the value and the units this query used, or the units it
/// used before the budget ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Budgeted<T> {
    /// The query finished; its value equals the unbudgeted query's.
    Complete(T, u64),
    /// The budget ran out (or was already exhausted) after this many units of this query.
    Incomplete(u64),
}

impl<T> Budgeted<T> {
    /// The value, if complete.
    pub fn value(self) -> Option<T> {
        match self {
            Budgeted::Complete(v, _) => Some(v),
            Budgeted::Incomplete(_) => None,
        }
    }

    /// Units used by the query.
    pub fn used(&self) -> u64 {
        match self {
            Budgeted::Complete(_, u) | Budgeted::Incomplete(u) => *u,
        }
    }
}
