//! Probing the tables from inside a search: at every node, cheaply.
//!
//! The search holds a [`NodeTables`]: the tables, the index's squares built
//! once, and the most pieces of any table in the folder (looked up once).
//! A node with more pieces costs one population count; a node within the
//! tables costs a map lookup and an index computation. A slice read once
//! stays in memory; a slice without a file (or with a bad one) is
//! remembered as missing, so the file system is asked once per material.

use std::collections::HashSet;

use crate::board::{Bits, Node};
use crate::endgame::index::{Material, Squares, MAX_EGTB_PIECES};
use crate::endgame::value::{Entry, INVALID};
use crate::endgame::{TableValue, Tablebase};
use crate::rules::Pack;

impl Tablebase {
    /// The slices of the folder that have a file (not read yet), fewest
    /// pieces first.
    pub fn available(&self) -> Vec<Material> {
        Material::up_to(MAX_EGTB_PIECES)
            .into_iter()
            .filter(|m| self.dir.join(m.file_name()).is_file())
            .collect()
    }

    /// The most pieces of any slice with a file, or `None` when the folder
    /// holds no table of these rules.
    pub fn max_pieces(&self) -> Option<u8> {
        self.available().iter().map(Material::pieces).max()
    }

    /// The entry of `n`, or `None` when its slice is not available; a
    /// slice that cannot be read is remembered in `missing` and never
    /// looked for again.
    #[inline]
    fn node_entry<B: Bits>(&mut self, sq: &Squares, missing: &mut HashSet<Material>, n: &Node<B>) -> Option<Entry> {
        let m = Material::of(n);
        if let Some(data) = self.loaded.get(&m) {
            let shape = sq.shape(m)?;
            return data.get(sq.index_of(&shape, n)? as usize).copied();
        }
        if missing.contains(&m) {
            return None;
        }
        match self.entry(sq, n) {
            Ok(e) => Some(e),
            Err(_) => {
                missing.insert(m);
                None
            }
        }
    }
}

/// The tables as a search probes them at its nodes ([`NodeTables::probe`]).
#[derive(Debug)]
pub(crate) struct NodeTables {
    tables: Tablebase,
    sq: Squares,
    /// The most pieces of any available slice (0: none).
    max_pieces: u32,
    missing: HashSet<Material>,
}

impl NodeTables {
    /// Ready to probe `tables` at nodes in the word of `pack` (the tables'
    /// rules). Looks in the folder once for the slices it holds.
    pub(crate) fn new<B: Bits>(tables: Tablebase, pack: &Pack<B>) -> NodeTables {
        let max_pieces = if tables.rules.kings().max_consecutive_moves != 0 {
            // Such rules cannot be tabled (a position depends on the kings' runs).
            0
        } else {
            tables.max_pieces().unwrap_or(0) as u32
        };
        NodeTables {
            tables,
            sq: Squares::new(pack),
            max_pieces,
            missing: HashSet::new(),
        }
    }

    /// The tables, for the root's answer.
    pub(crate) fn tables(&mut self) -> &mut Tablebase {
        &mut self.tables
    }

    /// The most pieces a position can have to be probed (0: none can).
    #[inline(always)]
    pub(crate) fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The value of `n` for its side to move, if the tables hold it (the
    /// history-level draw rules left aside: see [`ASSUMPTION`](crate::endgame::ASSUMPTION)).
    /// Allocates nothing once the slice is in memory.
    #[inline]
    pub(crate) fn probe<B: Bits>(&mut self, n: &Node<B>) -> Option<TableValue> {
        if n.occupied().ones() > self.max_pieces {
            return None;
        }
        let e = self.tables.node_entry(&self.sq, &mut self.missing, n)?;
        (e != INVALID).then(|| TableValue::from_entry(e))
    }
}
