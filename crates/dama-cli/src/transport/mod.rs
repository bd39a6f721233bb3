//! The transports of the protocols the play tier speaks: DXP over TCP,
//! the Hub protocol over standard input and output.

pub mod dxp;
pub mod hub;
