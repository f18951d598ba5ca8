//! The dice pool: a multiset of up to three faces.

use dicechess_kernels::PieceType;

/// A multiset of 0..=3 die faces (1 = pawn … 6 = king), stored sorted ascending with empty
/// slots (0) last, so equal pools have equal bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Dice([u8; 3]);

impl Dice {
    /// The empty pool.
    pub const EMPTY: Dice = Dice([0; 3]);

    /// A pool from up to three faces in any order; `None` if a face is outside 1..=6 or there
    /// are more than three.
    pub fn from_faces(faces: &[u8]) -> Option<Dice> {
        if faces.len() > 3 || faces.iter().any(|&f| !(1..=6).contains(&f)) {
            return None;
        }
        let mut d = [0u8; 3];
        d[..faces.len()].copy_from_slice(faces);
        Some(Dice::sorted(d))
    }

    /// A pool from three raw slots (0 = empty) that are already valid faces.
    fn sorted(mut d: [u8; 3]) -> Dice {
        // Sort ascending with zeros last: map 0 to 7 for the comparison.
        let k = |x: u8| if x == 0 { 7 } else { x };
        if k(d[0]) > k(d[1]) {
            d.swap(0, 1);
        }
        if k(d[1]) > k(d[2]) {
            d.swap(1, 2);
        }
        if k(d[0]) > k(d[1]) {
            d.swap(0, 1);
        }
        Dice(d)
    }

    /// The raw slots: faces ascending, then zeros.
    #[inline]
    pub const fn slots(self) -> [u8; 3] {
        self.0
    }

    /// Wrap slots known to be canonical (faces ascending, zeros last), as stored in a
    /// `Position`. Non-canonical slots give a pool whose queries are wrong but safe.
    #[inline]
    pub(crate) const fn from_canonical_slots(slots: [u8; 3]) -> Dice {
        Dice(slots)
    }

    /// Rebuild from raw slots as returned by [`Dice::slots`]; `None` if they are not canonical.
    pub fn from_slots(slots: [u8; 3]) -> Option<Dice> {
        let faces: [u8; 3] = slots;
        let n = faces.iter().take_while(|&&f| f != 0).count();
        let d = Dice::from_faces(&faces[..n])?;
        (d.0 == slots).then_some(d)
    }

    /// Number of dice in the pool.
    #[inline]
    pub const fn len(self) -> usize {
        (self.0[0] != 0) as usize + (self.0[1] != 0) as usize + (self.0[2] != 0) as usize
    }

    /// Whether the pool is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0[0] == 0
    }

    /// The faces, ascending.
    #[inline]
    pub fn faces(&self) -> &[u8] {
        &self.0[..self.len()]
    }

    /// How many dice show `face`.
    #[inline]
    pub const fn count(self, face: u8) -> u8 {
        (self.0[0] == face) as u8 + (self.0[1] == face) as u8 + (self.0[2] == face) as u8
    }

    /// Whether some die shows `face`.
    #[inline]
    pub const fn contains(self, face: u8) -> bool {
        face != 0 && (self.0[0] == face || self.0[1] == face || self.0[2] == face)
    }

    /// The 6-bit type mask of the faces present (bit `face - 1`).
    #[inline]
    pub const fn type_mask(self) -> u8 {
        // `(1 << f) >> 1` is `1 << (f − 1)` for a face and 0 for an empty slot.
        let d = self.0;
        ((1u8 << d[0]) >> 1) | ((1u8 << d[1]) >> 1) | ((1u8 << d[2]) >> 1)
    }

    /// The pool with one die of `face` removed (unchanged if none shows it).
    #[inline]
    pub const fn without(self, face: u8) -> Dice {
        let d = self.0;
        if d[0] == face {
            Dice([d[1], d[2], 0])
        } else if d[1] == face {
            Dice([d[0], d[2], 0])
        } else if d[2] == face {
            Dice([d[0], d[1], 0])
        } else {
            self
        }
    }

    /// The pool with one more die showing `face`; `None` if the pool is full or `face` is
    /// not 1..=6.
    #[inline]
    pub const fn plus(self, face: u8) -> Option<Dice> {
        if face == 0 || face > 6 || self.0[2] != 0 {
            return None;
        }
        let d = self.0;
        // Insert keeping faces ascending and empty slots last.
        let out = if d[0] == 0 || face < d[0] {
            [face, d[0], d[1]]
        } else if d[1] == 0 || face < d[1] {
            [d[0], face, d[1]]
        } else {
            [d[0], d[1], face]
        };
        Some(Dice(out))
    }

    /// Index into the Zobrist dice keys: `a·49 + b·7 + c` over the faces sorted ascending
    /// with empty slots as 0 *first* (so `[N]` is `0·49 + 0·7 + 2`) — the placement that the
    /// ecosystem's keys in `position_keys.json` use. Empty pool = 0.
    #[inline]
    pub const fn zobrist_index(self) -> usize {
        let d = self.0;
        let (a, b, c) = match self.len() {
            0 => (0, 0, 0),
            1 => (0, 0, d[0]),
            2 => (0, d[0], d[1]),
            _ => (d[0], d[1], d[2]),
        };
        a as usize * 49 + b as usize * 7 + c as usize
    }

    /// The letters in face order (P<N<B<R<Q<K), upper-case for White (`upper`).
    pub fn letters(self, upper: bool) -> String {
        self.faces()
            .iter()
            .map(|&f| face_letter(f, upper))
            .collect()
    }

    /// The opening-book / analytics key: letters sorted alphabetically (`BPR`), cased by the
    /// mover (docs/rules.md §3).
    pub fn alphabetical_key(self, upper: bool) -> String {
        let mut v: Vec<char> = self
            .faces()
            .iter()
            .map(|&f| face_letter(f, upper))
            .collect();
        v.sort_unstable();
        v.into_iter().collect()
    }
}

fn face_letter(face: u8, upper: bool) -> char {
    let c = PieceType::from_face(face).map_or('?', |p| p.letter());
    if upper {
        c.to_ascii_uppercase()
    } else {
        c
    }
}
