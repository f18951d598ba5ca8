//! Exact analysis (docs/rules.md §6): dice arithmetic, king- and queen-capture probability, king
//! threat, ADEP partitions, attacker types, piece values, safety, mobility, passed pawns,
//! piece diversity and budgeted queries.

mod adep;
mod attackers;
mod budget;
mod capture_reach;
mod dice_math;
mod diversity;
mod king_capture;
mod mobility;
mod pawns;
mod report;
mod safety;
mod values;

pub use adep::{
    all_partitions, partition, partitions_for, promotion_mode, AdepClass, Partition, PromotionMode,
};
pub use budget::{
    budgeted_first_king_capture, budgeted_king_capture_rolls, budgeted_legal_paths, Budget,
    Budgeted,
};
pub use dice_math::{probability_of_any_of, rolls_showing_any_of};
pub use king_capture::{
    capture_roll_mask, king_capture_probability, king_capture_rolls, king_threat,
    queen_capture_probability, queen_capture_rolls, CaptureTarget,
};

// primitives (helper)
pub use attackers::{attacker_types, availability_probability, available_rolls, type_count};
pub use diversity::{diversity_difference, piece_diversity, presence_mask};
pub use mobility::{all_moves_count, mobility, Mobility};
pub use pawns::{front_span, passed_pawns, PassedPawns};
pub use report::{
    probe_report, AdepClassReport, AdepReport, KingReport, MobilityReport, PassedPawnsReport,
    ProbeReport, SideReport,
};
pub use safety::{
    attacked_squares, attacks_by_type, hanging_material, hanging_squares, king_attacked,
};
pub use values::{PieceValues, MATERIAL_VALUES};
