//! Compiled rules: a validated variant, grouped as the generator reads it
//! (geometry, sides, men, kings, capture, end, start), and the stages that
//! compile a [`VariantSpec`](crate::spec::VariantSpec) into it.

mod compile;
mod compiled;
mod describe;
mod groups;
mod plan;

pub(crate) use compile::compile;
pub use compiled::Rules;
pub use describe::Section;
pub(crate) use groups::Ranking;
pub use groups::{
    CaptureRules, EndRules, Geometry, KingRange, KingRules, MaterialDraw, MaterialPattern, MenRules, PieceValues,
    Priority, SideMaterial, SideRules, MAX_PIECE_VALUE,
};
pub(crate) use groups::{Pack, Packing};
pub(crate) use plan::SearchPlan;

/// Runs `$e` with `$p` bound to the rules' [`Pack`] for the word their
/// board is compiled for: the one place that word is read at run time, on
/// entry to the generator, never per node.
macro_rules! with_pack {
    ($rules:expr, $p:ident => $e:expr) => {
        match &$rules.geometry().packing {
            $crate::rules::Packing::W64(pack) => {
                let $p = &**pack;
                $e
            }
            $crate::rules::Packing::W128(pack) => {
                let $p = &**pack;
                $e
            }
            $crate::rules::Packing::W256(pack) => {
                let $p = &**pack;
                $e
            }
        }
    };
}
pub(crate) use with_pack;
