//! Compiled rules: a validated variant, grouped as the generator reads it,
//! and the stages that compile a [`VariantSpec`](crate::spec::VariantSpec) into it.

mod compiled;
mod describe;

pub use compiled::*;
pub use describe::*;
