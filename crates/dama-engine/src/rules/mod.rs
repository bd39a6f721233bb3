//! Compiled rules: a validated variant, grouped as the generator reads it
//! (geometry, sides, men, kings, capture, end, start), and the stages that
//! compile a [`VariantSpec`](crate::spec::VariantSpec) into it.

mod compile;
mod compiled;
mod describe;
mod groups;

pub(crate) use compile::compile;
pub use compiled::Rules;
pub use describe::Section;
pub use groups::{CaptureRules, EndRules, Geometry, KingRange, KingRules, MenRules, SideRules};
