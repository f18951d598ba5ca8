//! The 56 weighted roll multisets of three dice (docs/rules.md §6).

use crate::board::Dice;

/// One roll multiset and how many of the 216 ordered rolls give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightedRoll {
    /// The three faces, sorted ascending.
    pub faces: [u8; 3],
    /// 1 (all equal), 3 (two equal) or 6 (all different); the weights sum to 216.
    pub weight: u8,
}

impl WeightedRoll {
    /// The roll as a dice pool.
    #[inline]
    pub fn dice(&self) -> Dice {
        Dice::from_faces(&self.faces).unwrap_or(Dice::EMPTY)
    }
}

/// Three dice rolled in order, each face `next_u64() % 6 + 1`: the one roll of every game
/// loop and rollout. The faces are a function of the generator's stream alone, which is what
/// makes games reproducible from a seed (the modulo's bias, under 2^-60, is part of that
/// stream and stays).
pub fn roll_faces(rng: &mut impl rand_core::Rng) -> [u8; 3] {
    [0u8; 3].map(|_| (rng.next_u64() % 6) as u8 + 1)
}

const fn build_rolls() -> [WeightedRoll; 56] {
    let mut out = [WeightedRoll {
        faces: [0; 3],
        weight: 0,
    }; 56];
    let mut n = 0;
    let mut a = 1u8;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            let mut c = b;
            while c <= 6 {
                let weight = if a == c {
                    1
                } else if a == b || b == c {
                    3
                } else {
                    6
                };
                out[n] = WeightedRoll {
                    faces: [a, b, c],
                    weight,
                };
                n += 1;
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// The 56 sorted multisets in lexicographic order (`[1,1,1]`, `[1,1,2]`, …, `[6,6,6]`), with
/// weights out of 216.
pub const ROLLS: [WeightedRoll; 56] = build_rolls();

/// The denominator of every roll probability.
pub const ROLL_DENOMINATOR: u32 = 216;
