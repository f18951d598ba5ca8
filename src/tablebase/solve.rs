//! Solving one table: the turn graph of the ending, built once from the rules' own all-roll
//! expansion, then value iteration over it.
//!
//! **The Bellman equation** (docs/tablebases.md "What a value means"). For an entry `s` with
//! the side to move about to roll, `V(s) = Σ_c (w_c / 216) · u_c`, over the classes `c` of
//! the 56 rolls that lead to the same answer ([`RollSets::classes`]):
//! * a class in which some legal turn captures the king: `u_c = 1`;
//! * otherwise `u_c = ½ + γ·(m_c − ½)` with `m_c = max (1 − V(t))` over the distinct positions
//!   `t` its legal turns end in (a pass ends in the same squares with the opponent to move).
//!
//! `γ` is the per-turn chance that play goes on rather than being adjudicated a draw: with
//! `γ < 1` the map is a contraction, so the iteration converges from any start to the one
//! fixed point, and a faster win is worth more than a slower one.
//!
//! **Why a graph.** The legal turns of an entry never change between iterations, so they are
//! generated once ([`expand_all_rolls`], the maximum dice rule included) and kept as entry
//! indices; an iteration is then a pass over `u32`s. Successors in an already solved table (a
//! captured piece, a promoted pawn) are folded into one constant per class at build time.
//! KQvK's graph holds about 170 successors per entry (docs/tablebases.md has the
//! measured sizes and times).
//!
//! **The iteration** updates values in place from all threads (`AtomicU64` holding `f64`
//! bits, relaxed): a Gauss–Seidel sweep, which converges to the same fixed point as the
//! two-array Jacobi sweep for a contraction and in fewer sweeps.

use super::error::SolveError;
use super::material::{locate, Material};
use super::set::Tablebases;
use super::table::Table;
use crate::rules::{expand_all_rolls, RollOutcome, RollSets, ROLLS, ROLL_DENOMINATOR};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a table is solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveConfig {
    /// Per-turn chance that the game goes on (`γ`, module documentation), in `(0, 1)`.
    pub discount: f64,
    /// Stop when no value changed by more than this in a sweep.
    pub tolerance: f64,
    /// Stop after this many sweeps even if not converged (the report says so).
    pub max_sweeps: u32,
}

impl Default for SolveConfig {
    /// `γ = 0.99` (an expected 100 more turns before a draw is declared, docs/tablebases.md),
    /// tolerance 10⁻⁹ (the values are stored to 1.5·10⁻⁵), at most 20,000 sweeps.
    fn default() -> Self {
        SolveConfig {
            discount: 0.99,
            tolerance: 1e-9,
            max_sweeps: 20_000,
        }
    }
}

/// What solving a table took and found.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveReport {
    /// The ending.
    pub material: Material,
    /// Entries that stand for a position.
    pub positions: usize,
    /// Successor entries kept in the graph.
    pub edges: usize,
    /// Value-iteration sweeps run.
    pub sweeps: u32,
    /// The largest change in the last sweep.
    pub last_delta: f64,
    /// Whether the last change is within the tolerance.
    pub converged: bool,
    /// Seconds spent building the turn graph.
    pub graph_secs: f64,
    /// Seconds spent iterating.
    pub iterate_secs: f64,
}

/// Where a solve is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveProgress {
    /// Graph building: entries done of the total.
    Graph {
        /// Entries done.
        done: usize,
        /// All entries.
        total: usize,
    },
    /// A finished sweep and its largest change.
    Sweep {
        /// Sweeps done.
        sweep: u32,
        /// The largest change in it.
        delta: f64,
    },
}

/// One class of rolls of one entry.
#[derive(Clone, Copy, Debug)]
struct Class {
    /// Weight out of 216.
    weight: u16,
    /// Some legal turn captures the king.
    capture: bool,
    /// `max (1 − V)` over successors in solved tables (−∞ when none).
    constant: f64,
    /// `succ[start..start + len]` of its block: successors in this table.
    start: u32,
    len: u32,
}

/// The turn graph of the entries `first..first + class_start.len() − 1`, kept block by
/// block: a 4-piece table's graph is gigabytes, and joining the blocks into one array would
/// hold it twice at the peak.
struct Block {
    first: usize,
    /// `classes[class_start[i]..class_start[i + 1]]` are entry `first + i`'s.
    class_start: Vec<u32>,
    classes: Vec<Class>,
    succ: Vec<u32>,
}

impl Block {
    /// Entries in the block.
    fn len(&self) -> usize {
        self.class_start.len() - 1
    }

    /// Whether local entry `i` has a turn graph (stands for a position).
    fn has(&self, i: usize) -> bool {
        self.class_start[i] != self.class_start[i + 1]
    }
}

const BLOCK: usize = 1 << 12;

fn build_block(
    material: Material,
    lower: &Tablebases,
    range: std::ops::Range<usize>,
    sets: &mut RollSets,
    class_buf: &mut Vec<(usize, u16)>,
) -> Result<Block, SolveError> {
    let mut block = Block {
        first: range.start,
        class_start: Vec::with_capacity(range.len() + 1),
        classes: Vec::new(),
        succ: Vec::new(),
    };
    block.class_start.push(0);
    for index in range {
        let Some(pos) = material.position(index) else {
            block.class_start.push(block.classes.len() as u32);
            continue;
        };
        expand_all_rolls(&pos, sets);
        sets.classes(class_buf);
        for &(roll, weight) in class_buf.iter() {
            let start = block.succ.len() as u32;
            let mut class = Class {
                weight,
                capture: false,
                constant: f64::NEG_INFINITY,
                start,
                len: 0,
            };
            let passed = [pos.end_turn()];
            let ends: &[crate::board::Position] = match sets.roll(roll) {
                RollOutcome::KingCapture => {
                    class.capture = true;
                    &[]
                }
                RollOutcome::Pass => &passed,
                RollOutcome::Moves(ends) => ends,
            };
            for end in ends {
                let at = locate(end).ok_or_else(|| SolveError::Outside {
                    material: material.name(),
                    dfen: end.to_dfen(),
                })?;
                if at.material == material {
                    block.succ.push(at.index as u32);
                } else {
                    let v = lower
                        .table(at.material)
                        .ok_or(SolveError::Missing {
                            material: material.name(),
                            needs: at.material.name(),
                        })?
                        .value_at(at.index)
                        .ok_or_else(|| SolveError::Outside {
                            material: material.name(),
                            dfen: end.to_dfen(),
                        })?;
                    class.constant = class.constant.max(1.0 - v);
                }
            }
            // Symmetric ends of a folded table can share an entry: keep each once.
            let succ = &mut block.succ[start as usize..];
            succ.sort_unstable();
            let kept = dedup_sorted(succ);
            block.succ.truncate(start as usize + kept);
            class.len = kept as u32;
            block.classes.push(class);
        }
        block.class_start.push(block.classes.len() as u32);
    }
    block.succ.shrink_to_fit();
    block.classes.shrink_to_fit();
    Ok(block)
}

/// Move the distinct values of sorted `v` to its front; their count.
fn dedup_sorted(v: &mut [u32]) -> usize {
    let mut kept = 0;
    for i in 0..v.len() {
        if kept == 0 || v[i] != v[kept - 1] {
            v[kept] = v[i];
            kept += 1;
        }
    }
    kept
}

fn build_graph(
    material: Material,
    lower: &Tablebases,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<Vec<Block>, SolveError> {
    let total = material.entries();
    let done = std::sync::atomic::AtomicUsize::new(0);
    (0..total.div_ceil(BLOCK))
        .into_par_iter()
        .map_init(
            || (RollSets::new(), Vec::new()),
            |(sets, buf), b| {
                let range = b * BLOCK..((b + 1) * BLOCK).min(total);
                let n = range.len();
                let block = build_block(material, lower, range, sets, buf);
                let d = done.fetch_add(n, Ordering::Relaxed) + n;
                progress(SolveProgress::Graph { done: d, total });
                block
            },
        )
        .collect()
}

/// The value of local entry `i` of `block` from the current values (module documentation).
#[inline]
fn backup(block: &Block, i: usize, values: &[AtomicU64], gamma: f64) -> f64 {
    let classes = &block.classes[block.class_start[i] as usize..block.class_start[i + 1] as usize];
    let mut sum = 0.0f64;
    for c in classes {
        let u = if c.capture {
            1.0
        } else {
            let succ = &block.succ[c.start as usize..c.start as usize + c.len as usize];
            let mut m = c.constant;
            for &j in succ {
                let v = f64::from_bits(values[j as usize].load(Ordering::Relaxed));
                m = m.max(1.0 - v);
            }
            0.5 + gamma * (m - 0.5)
        };
        sum += f64::from(c.weight) * u;
    }
    sum / f64::from(ROLL_DENOMINATOR)
}

/// Solve `material`'s table. `lower` must hold every table it reads (those before it in
/// [`Material::ALL`]); `progress` hears of the graph and of every sweep.
pub fn solve(
    material: Material,
    lower: &Tablebases,
    config: &SolveConfig,
    progress: &(dyn Fn(SolveProgress) + Sync),
) -> Result<(Table, SolveReport), SolveError> {
    if !(config.discount > 0.0 && config.discount < 1.0) {
        return Err(SolveError::Discount(config.discount));
    }
    debug_assert_eq!(ROLLS.len(), 56);
    let t0 = std::time::Instant::now();
    let graph = build_graph(material, lower, progress)?;
    let graph_secs = t0.elapsed().as_secs_f64();
    let t1 = std::time::Instant::now();
    let gamma = config.discount;
    let total = material.entries();
    let values: Vec<AtomicU64> = (0..total)
        .map(|_| AtomicU64::new(0.5f64.to_bits()))
        .collect();
    // Entries without a position stay at 0 (their value is never read).
    for block in &graph {
        for i in (0..block.len()).filter(|&i| !block.has(i)) {
            values[block.first + i].store(0f64.to_bits(), Ordering::Relaxed);
        }
    }
    let mut sweeps = 0;
    let mut delta = f64::INFINITY;
    while sweeps < config.max_sweeps && delta > config.tolerance {
        delta = graph
            .par_iter()
            .map(|block| {
                let mut delta = 0.0f64;
                for i in (0..block.len()).filter(|&i| block.has(i)) {
                    let new = backup(block, i, &values, gamma);
                    let slot = &values[block.first + i];
                    let old = f64::from_bits(slot.swap(new.to_bits(), Ordering::Relaxed));
                    delta = delta.max((new - old).abs());
                }
                delta
            })
            .reduce(|| 0.0, f64::max);
        sweeps += 1;
        progress(SolveProgress::Sweep {
            sweep: sweeps,
            delta,
        });
    }
    let exact: Vec<f64> = values
        .iter()
        .map(|v| f64::from_bits(v.load(Ordering::Relaxed)))
        .collect();
    let table =
        Table::from_values(material, config.discount, &exact).ok_or(SolveError::Outside {
            material: material.name(),
            dfen: String::from("(value count)"),
        })?;
    let report = SolveReport {
        material,
        positions: (0..total).filter(|&i| material.is_entry(i)).count(),
        edges: graph.iter().map(|b| b.succ.len()).sum(),
        sweeps,
        last_delta: delta,
        converged: delta <= config.tolerance,
        graph_secs,
        iterate_secs: t1.elapsed().as_secs_f64(),
    };
    Ok((table, report))
}
