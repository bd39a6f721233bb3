//! Small helpers every layer may use: clipping text for messages, a seeded
//! random number generator, what the processor can do.

#[cfg(target_arch = "x86_64")]
mod cpu;
mod rng;
mod text;

#[cfg(target_arch = "x86_64")]
pub(crate) use cpu::has_bit_instructions;
pub(crate) use rng::mix;
pub use rng::Rng;
pub use text::{clip, file_safe_name, printable, printable_lines, shown_char};
