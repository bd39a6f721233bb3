//! Stage 6: the end of the game (`W0801`, `W0802`).

use crate::rules::compile::Findings;
use crate::rules::EndRules;
use crate::spec::{Code, VariantSpec};

/// The end-of-game rules.
pub(crate) fn end(spec: &VariantSpec, out: &mut Findings) -> EndRules {
    let e = &spec.end;
    for (plies, key) in [
        (e.no_capture_draw_plies, "end.no_capture_draw_plies"),
        (e.kings_only_draw_plies, "end.kings_only_draw_plies"),
    ] {
        if plies == 1 {
            out.warning(
                Code::W0801,
                key,
                "a limit of 1 ply draws every game after its first move",
            );
        }
    }
    let (nc, ko) = (e.no_capture_draw_plies, e.kings_only_draw_plies);
    if nc != 0 && ko != 0 && ko >= nc {
        out.warning(
            Code::W0802,
            "end.kings_only_draw_plies",
            format!("a kings-only limit of {ko} plies never applies: {nc} plies without a capture draw first"),
        );
    }
    EndRules {
        no_legal_move: e.no_legal_move,
        threefold_repetition: e.threefold_repetition,
        lone_piece: e.lone_piece,
        lone_piece_unless_capture: e.lone_piece_unless_capture,
        king_vs_king: e.king_vs_king,
        no_capture_draw_plies: e.no_capture_draw_plies,
        kings_only_draw_plies: e.kings_only_draw_plies,
    }
}
