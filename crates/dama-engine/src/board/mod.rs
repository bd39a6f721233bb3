//! The board: squares and sets of squares, directions, how the generator
//! numbers a board's squares and its geometry tables, positions and moves.
//! Nothing here knows a rule of any variant.

mod bits;
mod color;
mod direction;
mod layout;
mod moves;
mod node;
mod position;
mod square;
mod tables;

pub use bits::Bitboard;
pub(crate) use bits::{Bits, Ones};
pub use color::Color;
pub use direction::{AbsDir, DirSet};
pub use layout::{Layout, Width};
pub use moves::{Move, MoveList, MovePath};
pub(crate) use node::{Node, Ply, PlyList, Runs};
pub use position::{Piece, Position};
pub use square::{Square, Squares, MAX_SIDE};
pub(crate) use tables::{each_dir, opposite, over_dirs, AlongRay, Dirs, Tables, ALL_DIRS, DIAGONAL, ORTHOGONAL};
