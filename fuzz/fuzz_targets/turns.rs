//! Turn paths under the maximum dice rule (docs/rules.md §2, §4, §5, §7) on positions reached
//! from the bytes.
//!
//! Input layout (every read past the end yields 0, so any byte string is valid):
//!
//! * byte 0, the mode: bit 7 clear = one of the built-in DFENs in `STARTS` (index
//!   `byte % STARTS.len()`); bit 7 set = a raw placement built from the following bytes (see
//!   [`raw_position`]). Bit 6 set = colour-flip the start position.
//! * one byte: the number of random turns to play first, `byte % (MAX_TURNS + 1)`; each turn
//!   reads 3 dice bytes (`byte % 6 + 1`) and 2 bytes that pick a legal path by index (none:
//!   pass); every micro-move and end of turn is key-checked.
//! * then 3 dice bytes for the final roll, which gets the full check, and 2 bytes that pick
//!   the path checked against the checked APIs.
//!
//! Checked on the final rolled position: no panic; the Zobrist key equals a recomputation after
//! every micro-move of every path and after the end of the turn; DFEN round trip; no duplicate
//! path, no path a prefix of another; king-capture paths end with their only king capture;
//! every other path spends the maximum cost over all legal paths and leaves no payable
//! micro-move; pass iff no payable first move; `legal_first_moves` = distinct first moves;
//! the colour flip maps the legal paths (UCI, ranks mirrored) onto the flip's legal paths;
//! the chosen path passes the checked `play`, `play_turn` and `TurnTree`.
#![no_main]

use dicechess::board::{Dice, Position};
use dicechess::rules::{
    generate, has_payable_move, legal_first_moves, legal_paths, play_turn, MicroMove, MoveKind,
    TurnPath, TurnTree,
};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

/// At most this many random turns before the final roll (keeps each input bounded in time).
const MAX_TURNS: u8 = 8;

/// Skip the full check (and pass instead of moving) when a rough upper bound on the number of
/// paths exceeds this: 3 dice for 20 queens would otherwise enumerate millions of paths.
const PATH_BOUND: u64 = 50_000;

/// Varied starting positions (docs/rules.md §3 DFEN, no dice).
const STARTS: &[&str] = &[
    // Start position.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Promotion.
    "k7/4P3/8/8/8/8/8/4K3 w - - 0 1",
    // Castling both ways, both sides.
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    // E.p.-rich: three Black targets on rank 6 for White.
    "rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq a6c6e6 0 1",
    // Sparse pawn endgame.
    "8/2k5/3p4/p2P1p2/P2P1P2/8/8/4K3 w - - 0 1",
    // Black to move with a White target on rank 3 (e.p. for Black).
    "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    // Black promotions, captures on the last rank, White castling rights.
    "4k3/8/8/8/8/8/1p4p1/R3K2R b KQ - 0 1",
    // Kings close: king captures by several types.
    "8/8/3k4/2P1n3/3K4/8/8/8 w - - 0 1",
    // Pawns on back ranks and a king-less side (accepted DFEN).
    "P6p/8/8/8/8/8/8/p3K2P w - - 0 1",
    // Position 3 of the perft suite (rook endgame with pawns).
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Crowded middle game with targets on both ranks.
    "r1bqk2r/pp1n1ppp/2pbpn2/3pP3/2PP4/2N2N2/PP3PPP/R1BQKB1R w KQkq d6c3 0 1",
    // Maximum dice rule with a king capture: with P+N+N only a8=N then Nxc7 (cost 2) is legal;
    // promoting to Q/R/B leaves the knight dice unpayable (cost 1).
    "8/Ppk5/1P6/8/8/8/8/7K w - - 0 1",
    // Tight corners: castling into a rook-file king capture, blocked pawns, few moves.
    "4k3/8/8/8/8/8/p6p/R3K2R w KQ - 0 1",
];

/// Reads bytes; 0 past the end.
struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn roll(&mut self) -> Dice {
        let faces = [self.next() % 6 + 1, self.next() % 6 + 1, self.next() % 6 + 1];
        Dice::from_faces(&faces).expect("three faces in 1..=6")
    }
}

/// A raw placement written as DFEN, so arbitrary boards (missing or extra kings, pawns on the
/// back ranks, contradicting rights, targets on any rank) go through the public parser:
/// one byte `n` = number of drops (`n % 33`), then two bytes per drop (square `& 63`, piece
/// `% 12` of `PNBRQKpnbrqk`; later drops replace earlier ones); then side (bit 0), castling
/// (low 4 bits of one byte), e.p. targets (one count byte `% 4`, then one square byte each),
/// and the half-move clock (`% 128`).
fn raw_position(b: &mut Bytes) -> Position {
    const LETTERS: &[u8; 12] = b"PNBRQKpnbrqk";
    let mut board = [0u8; 64];
    for _ in 0..b.next() % 33 {
        let sq = (b.next() & 63) as usize;
        board[sq] = LETTERS[(b.next() % 12) as usize];
    }
    let mut placement = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                0 => empty += 1,
                c => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(char::from(c));
                }
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if b.next() & 1 == 0 { "w" } else { "b" };
    let rights_bits = b.next();
    let mut rights: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|&(i, _)| rights_bits & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect();
    if rights.is_empty() {
        rights.push('-');
    }
    let mut targets: Vec<u8> = (0..b.next() % 4).map(|_| b.next() & 63).collect();
    targets.sort_unstable();
    targets.dedup();
    let mut ep = String::new();
    for t in &targets {
        ep.push(char::from(b'a' + t % 8));
        ep.push(char::from(b'1' + t / 8));
    }
    if ep.is_empty() {
        ep.push('-');
    }
    let halfmove = b.next() % 128;
    let dfen = format!("{placement} {side} {rights} {ep} {halfmove} 1");
    Position::from_dfen(&dfen).unwrap_or_else(|e| panic!("raw DFEN {dfen:?} rejected: {e}"))
}

/// A rough upper bound on the number of paths: (payable first moves + 1) ^ dice.
fn too_many_paths(pos: &Position) -> bool {
    let dice = pos.dice();
    let mask = dice.type_mask();
    let castle = dice.contains(6) && dice.contains(4);
    let n = generate(pos, mask, castle).count(pos) as u64 + 1;
    n.saturating_pow(dice.len() as u32) > PATH_BOUND
}

/// One micro-move's UCI content as a number: from, to and the promotion type (0 = none).
fn move_code(m: MicroMove, mirror: bool) -> u64 {
    let flip = if mirror { 56 } else { 0 };
    let promo = match m.kind {
        MoveKind::Promotion(t) => t.face() as u64,
        _ => 0,
    };
    ((m.from.to_u8() ^ flip) as u64) << 9 | ((m.to.to_u8() ^ flip) as u64) << 3 | promo
}

/// A path's UCI micro-moves as a number (15 bits each, plus the length).
fn path_code(moves: &[MicroMove], mirror: bool) -> u64 {
    moves
        .iter()
        .fold(moves.len() as u64, |acc, &m| acc << 15 | move_code(m, mirror))
}

fn check_key(p: &Position, what: &dyn Fn() -> String) {
    assert_eq!(p.key(), p.compute_key(), "incremental key wrong {}", what());
}

/// Check every property on a position with dice; returns its legal paths.
fn check(pos: &Position) -> Vec<TurnPath> {
    let dfen = pos.to_dfen();
    check_key(pos, &|| format!("at {dfen}"));
    assert_eq!(
        Position::from_dfen(&dfen).as_ref(),
        Ok(pos),
        "DFEN round trip of {dfen}"
    );

    let paths = legal_paths(pos);
    let pool = pos.dice();

    // Pass iff nothing is payable.
    assert_eq!(
        paths.is_empty(),
        !has_payable_move(pos),
        "pass/payable disagree at {dfen}"
    );

    // No duplicates; no path a proper prefix of another (codes include the length, so a
    // prefix has its own code).
    let mut set = HashSet::with_capacity(paths.len());
    for p in &paths {
        assert!(
            (1..=3).contains(&p.moves().len()),
            "path {p} has {} moves at {dfen}",
            p.moves().len()
        );
        assert!(set.insert(path_code(&p.moves(), false)), "duplicate path {p} at {dfen}");
    }
    for p in &paths {
        for k in 1..p.moves().len() {
            assert!(
                !set.contains(&path_code(&p.moves()[..k], false)),
                "path {} is a prefix of path {p} at {dfen}",
                p.moves()[..k]
                    .iter()
                    .map(|m| m.uci())
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
    }

    let best = paths.iter().map(|p| p.cost()).max().unwrap_or(0);
    let mut seen_non_king = false;
    for p in &paths {
        let cost: u8 = p.moves().iter().map(|m| m.cost()).sum();
        assert_eq!(p.cost(), cost, "cost of {p} at {dfen}");
        assert!(cost as usize <= pool.len(), "{p} spends more than the pool at {dfen}");

        let mut cur = *pos;
        let mut kings = 0;
        for (i, &m) in p.moves().iter().enumerate() {
            let face = m.piece.face();
            assert!(cur.dice().contains(face), "{p}: move {i} unpaid at {dfen}");
            if m.kind == MoveKind::Castle {
                assert!(
                    m.piece.face() == 6 && cur.dice().contains(4),
                    "{p}: castling unpaid at {dfen}"
                );
            }
            if cur.captures_king(m) {
                kings += 1;
                assert_eq!(i + 1, p.moves().len(), "{p}: king captured before the end at {dfen}");
            }
            cur = cur.play_unchecked(m);
            check_key(&cur, &|| format!("after {} of {p} at {dfen}", i + 1));
            assert_eq!(
                cur.side_to_move(),
                pos.side_to_move(),
                "{p}: side changed inside the turn at {dfen}"
            );
        }
        assert_eq!(
            cur.dice().len() + cost as usize,
            pool.len(),
            "{p}: dice left do not match the cost at {dfen}"
        );
        if p.captures_king() {
            assert_eq!(kings, 1, "{p} flagged as king capture at {dfen}");
            assert!(!seen_non_king, "king path {p} listed after a non-king path at {dfen}");
        } else {
            seen_non_king = true;
            assert_eq!(kings, 0, "{p} captures a king but is not flagged at {dfen}");
            assert_eq!(cost, best, "{p} costs {cost}, the maximum is {best} at {dfen}");
            assert!(
                !has_payable_move(&cur),
                "{p} is incomplete: a payable move is left at {dfen}"
            );
        }
        let end = cur.end_turn();
        check_key(&end, &|| format!("after the end of turn of {p} at {dfen}"));
        assert_eq!(p.end_position(pos), end, "end_position of {p} at {dfen}");
        assert!(end.dice().is_empty(), "dice left after the end of {p} at {dfen}");
        assert_eq!(end.side_to_move(), pos.side_to_move().opponent());
    }

    // Legal first moves = distinct first moves of the paths, in path order.
    let mut firsts: Vec<MicroMove> = Vec::new();
    for p in &paths {
        if !firsts.contains(&p.moves()[0]) {
            firsts.push(p.moves()[0]);
        }
    }
    assert_eq!(legal_first_moves(pos), firsts, "legal_first_moves at {dfen}");

    // Colour flip maps the paths (UCI, ranks mirrored) onto the flip's paths.
    let flipped = pos.flip_colors();
    check_key(&flipped, &|| format!("of the flip of {dfen}"));
    assert_eq!(flipped.flip_colors(), *pos, "flip is not an involution at {dfen}");
    let mut ours: Vec<u64> = paths.iter().map(|p| path_code(&p.moves(), true)).collect();
    let mut theirs: Vec<u64> = legal_paths(&flipped)
        .iter()
        .map(|p| path_code(&p.moves(), false))
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert!(
        ours == theirs,
        "colour flip changes the legal paths at {dfen} (flip {}): {} vs {} paths",
        flipped.to_dfen(),
        ours.len(),
        theirs.len()
    );
    paths
}

/// The checked APIs agree with the chosen path (or the pass).
fn check_chosen(pos: &Position, chosen: Option<&TurnPath>) -> Position {
    let dfen = pos.to_dfen();
    match chosen {
        None => {
            let end = pos.end_turn();
            assert_eq!(play_turn(pos, &[]), Ok(end), "pass refused at {dfen}");
            assert!(TurnTree::new(pos).is_leaf(), "tree of a pass at {dfen}");
            end
        }
        Some(p) => {
            let mut cur = *pos;
            for &m in p.moves().iter() {
                assert_eq!(cur.play(m), Ok(cur.play_unchecked(m)), "play({m}) of {p} at {dfen}");
                cur = cur.play_unchecked(m);
            }
            let end = p.end_position(pos);
            assert_eq!(play_turn(pos, &p.moves()), Ok(end), "play_turn({p}) at {dfen}");
            let tree = TurnTree::new(pos);
            assert!(
                tree.follow(&p.moves()).is_some_and(|t| t.is_leaf()),
                "the turn tree does not end {p} at {dfen}"
            );
            end
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes { data, at: 0 };
    let mode = b.next();
    let mut pos = if mode & 0x80 == 0 {
        Position::from_dfen(STARTS[mode as usize % STARTS.len()]).expect("built-in DFEN")
    } else {
        raw_position(&mut b)
    };
    if mode & 0x40 != 0 {
        pos = pos.flip_colors();
    }
    check_key(&pos, &|| format!("at start {}", pos.to_dfen()));

    // Random turns: enumerate, pick one, play it (the full check is kept for the final roll,
    // which keeps the run rate up; every position of the game is still key-checked).
    let turns = b.next() % (MAX_TURNS + 1);
    for _ in 0..turns {
        let rolled = pos.with_dice(b.roll());
        let pick = u16::from_le_bytes([b.next(), b.next()]) as usize;
        if too_many_paths(&rolled) {
            pos = rolled.end_turn();
            continue;
        }
        let paths = legal_paths(&rolled);
        pos = match paths.len() {
            0 => rolled.end_turn(),
            n => {
                let p = &paths[pick % n];
                let mut cur = rolled;
                for (i, &m) in p.moves().iter().enumerate() {
                    cur = cur.play_unchecked(m);
                    check_key(&cur, &|| format!("after {} of {p} at {}", i + 1, rolled.to_dfen()));
                }
                cur.end_turn()
            }
        };
        check_key(&pos, &|| format!("after a turn: {}", pos.to_dfen()));
    }

    // The final roll: every property, then the checked APIs on one path picked by the bytes.
    let rolled = pos.with_dice(b.roll());
    let pick = u16::from_le_bytes([b.next(), b.next()]) as usize;
    if !too_many_paths(&rolled) {
        let paths = check(&rolled);
        let chosen = (!paths.is_empty()).then(|| &paths[pick % paths.len()]);
        check_chosen(&rolled, chosen);
    }
});
