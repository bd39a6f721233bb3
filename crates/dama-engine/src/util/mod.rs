//! Small helpers every layer may use: clipping text for messages, a seeded
//! random number generator.

mod rng;
mod text;

pub(crate) use rng::mix;
pub use rng::Rng;
pub use text::{clip, file_safe_name, printable, printable_lines, shown_char};
