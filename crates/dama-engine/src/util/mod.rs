//! Small helpers every layer may use: clipping text for messages, a seeded
//! random number generator, what the processor can do.

mod cpu;
mod rng;
mod text;

pub(crate) use cpu::has_bit_instructions;
pub(crate) use rng::mix;
pub use rng::Rng;
pub use text::{clip, file_safe_name, printable, printable_lines, shown_char};
