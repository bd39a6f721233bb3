//! The fuzzed entry points, shared with `crates/dama-engine/tests/fuzz_smoke.rs`
//! (which includes `entry.rs` by path, so both always run the same code).

pub mod entry;
