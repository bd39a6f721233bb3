//! What the processor running us can do beyond the baseline the binary is
//! built for: the tree walks compile a second copy of their hot loop for
//! the bit instructions (`popcnt`, `tzcnt`/`lzcnt`, `blsr`, `andn`, …) that
//! every x86-64 processor of the last decade has, and choose it at run
//! time, so that one binary is both portable and fast. Other processors
//! run the portable code (this module is compiled for x86-64 only).

/// Whether the walks may run their copy compiled for the bit instructions
/// of x86-64-v3 (`popcnt`, `bmi1`, `bmi2`, `lzcnt`): the processor has
/// them, and `DAMA_PORTABLE` is not set (which forces the baseline copy,
/// for comparing the two). Asked once per walk; the answer is cached.
#[inline]
pub(crate) fn has_bit_instructions() -> bool {
    use std::sync::OnceLock;
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        std::env::var_os("DAMA_PORTABLE").is_none()
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
    })
}
