//! The board: squares, directions, the geometry tables of one board shape,
//! positions and moves. Nothing here knows a rule of any variant.

mod color;
mod direction;
mod moves;
mod position;
mod square;
mod tables;

pub use color::Color;
pub use direction::{shift, AbsDir, DirSet};
pub use moves::{Move, MoveList, MovePath};
pub use position::{Piece, Position};
pub use square::{Square, Squares};
pub(crate) use tables::{each_dir, over_dirs, AlongRay, Dirs, ALL_DIRS, DIAGONAL, ORTHOGONAL};
pub use tables::{Tables, OFF};
