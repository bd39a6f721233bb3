//! Variants by name or file: the built-in list, loading with `extends`
//! (reading the chain, merging it, deserializing with recovery, locating
//! findings), and compiling with every check, including those that need the
//! move generator.

mod builtin;
mod compile;
mod load;
mod recovery;
mod spans;

pub use builtin::{builtin_names, builtin_text, BUILTIN};
pub use load::looks_like_path;
pub use load::{
    load, load_file, load_text, read_text, LoadError, Loaded, Origin, SourceFile, MAX_CHAIN, MAX_DIAGNOSTICS,
    MAX_FILE_BYTES,
};
