//! `VariantSpec` → `Rules`: one small stage per part of the variant file,
//! run in order. Each stage reads the spec (and what earlier stages built),
//! reports what it finds wrong with a dotted key path, and returns its part
//! of the compiled rules; a finding never stops the later stages, so every
//! problem is reported at once. The stages that need the move generator
//! (is the initial position playable?) run after this, in
//! [`Rules::compile`](crate::Rules::compile).

mod board;
mod capture;
mod end;
mod findings;
mod pieces;
mod promotion;
mod setup;

use board::Board;
use findings::Findings;
use promotion::Promotion;

use crate::board::{Bits, DirSet, Layout, Tables, Width};
use crate::rules::{Geometry, Pack, Packing, Rules, SearchPlan, SideRules};
use crate::spec::{Diagnostic, VariantSpec};

/// Runs every stage; returns the rules and the warnings, or every finding
/// when there is an error.
pub(crate) fn compile(spec: &VariantSpec) -> Result<(Rules, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut out = Findings::default();
    let board = board::board(spec, &mut out);
    let dirs = pieces::directions(spec, &mut out);
    let range = pieces::king_range(spec, &board, &mut out);
    let promotion = promotion::promotion(spec, &board, &mut out);
    pieces::check_powers(spec, &mut out);
    let capture = capture::capture(spec, &mut out);
    let kings = capture::kings(spec, range, &mut out);
    let start = setup::setup(spec, &board, &promotion, &mut out);
    let end = end::end(spec, &mut out);
    if out.has_errors() {
        return Err(out.0);
    }
    let sides = [0, 1].map(|c| SideRules {
        man_steps: dirs.man_steps[c],
        man_captures: dirs.man_captures[c],
        man_friendly_jumps: dirs.man_friendly_jumps[c],
        man_linear: dirs.man_linear[c],
        king_moves: dirs.king_moves[c],
        king_captures: dirs.king_captures[c],
        promotion: promotion.squares[c],
    });
    let used = DirSet(sides[0].all_directions().0 | sides[1].all_directions().0);
    let layout = Layout::new(board.width, board.height, board.mask);
    let track = kings.max_consecutive_moves != 0;
    let mut start = start;
    start.0.runs.track = track;
    let men = pieces::men(spec);
    let plan = SearchPlan::new(&capture, &men, &kings);
    let packing = match layout.width() {
        Width::W64 => Packing::W64(Box::new(pack(&board, &layout, &sides, used, track, plan))),
        Width::W128 => Packing::W128(Box::new(pack(&board, &layout, &sides, used, track, plan))),
        Width::W256 => Packing::W256(Box::new(pack(&board, &layout, &sides, used, track, plan))),
    };
    let geometry = Geometry {
        width: board.width,
        height: board.height,
        board: board.mask,
        step: board.step,
        layout,
        packing,
        numeric: board.numeric,
        numbers: board.numbers,
    };
    let rules = Rules {
        spec: spec.clone(),
        geometry,
        sides,
        men,
        kings,
        capture,
        end,
        start,
    };
    Ok((rules, out.0))
}

/// The generator's tables and sets for the word `B`.
fn pack<B: Bits>(
    board: &Board,
    layout: &Layout,
    sides: &[SideRules; 2],
    used: DirSet,
    track_runs: bool,
    plan: SearchPlan,
) -> Pack<B> {
    let tables = Tables::new(
        layout,
        board.mask,
        |s, d| board.step[d.index()][s.index() as usize],
        [sides[0].king_moves, sides[1].king_moves],
        [sides[0].king_captures, sides[1].king_captures],
        used,
    );
    Pack {
        tables,
        board: layout.pack(board.mask),
        promotion: [layout.pack(sides[0].promotion), layout.pack(sides[1].promotion)],
        layout: layout.clone(),
        track_runs,
        plan,
    }
}
