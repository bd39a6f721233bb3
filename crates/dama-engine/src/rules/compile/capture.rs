//! Stage 4: captures. The capture rules and the kings' capture geometry,
//! with the checks on combinations that have no effect.

use crate::rules::compile::Findings;
use crate::rules::{CaptureRules, KingRange, KingRules, PieceValues, Priority, MAX_PIECE_VALUE};
use crate::spec::{CaptureRange, Code, Landing, Majority, VariantSpec};

/// The capture rules (`W0601`, `E0602`, `W0603`, `W0604`, `W0605`).
pub(crate) fn capture(spec: &VariantSpec, out: &mut Findings) -> CaptureRules {
    let c = &spec.capture;
    if !c.mandatory && (c.majority != Majority::None || !c.priority.is_empty()) {
        out.warning(
            Code::W0601,
            "capture.mandatory",
            "the majority rule and capture priorities have little meaning when capturing is optional",
        );
    }
    for (key, v) in [("capture.man_value", c.man_value), ("capture.king_value", c.king_value)] {
        if v == 0 || v > MAX_PIECE_VALUE {
            out.error(
                Code::E0602,
                key,
                format!("a piece value must be from 1 to {MAX_PIECE_VALUE}, not {v}"),
            );
        } else if v != 1 && c.majority != Majority::MaxValue {
            out.warning(
                Code::W0603,
                key,
                "piece values count only with majority = \"max_value\"; this one has no effect",
            );
        }
    }
    for (i, p) in c.priority.iter().enumerate() {
        if c.priority[..i].contains(p) {
            out.warning(
                Code::W0604,
                &format!("capture.priority[{i}]"),
                format!("\"{p}\" is listed twice; the second has no effect"),
            );
        }
    }
    exploding_king_captures(spec, out);
    CaptureRules {
        mandatory: c.mandatory,
        majority: c.majority,
        removal: c.removal,
        no_reversal: c.no_reversal,
        promote_mid_capture: c.promote_mid_capture,
        values: PieceValues {
            man: c.man_value.clamp(1, MAX_PIECE_VALUE),
            king: c.king_value.clamp(1, MAX_PIECE_VALUE),
        },
        priority: Priority::new(&c.priority),
    }
}

/// The kings' powers, with their move range from the pieces stage
/// (`W0404`, `W0403`).
pub(crate) fn kings(spec: &VariantSpec, range: KingRange, out: &mut Findings) -> KingRules {
    let k = &spec.kings;
    if k.landing_must_continue && k.landing == Landing::AdjacentBeyond {
        out.warning(
            Code::W0404,
            "kings.landing_must_continue",
            "landing_must_continue has no effect with landing = \"adjacent_beyond\": there is only one landing square",
        );
    }
    if k.capture_range == CaptureRange::Short && k.landing == Landing::AnyBeyond {
        out.warning(
            Code::W0403,
            "kings.landing",
            "with short king captures, landing = \"any_beyond\" still lets the king land anywhere beyond; use \"adjacent_beyond\" for a plain short leap",
        );
    }
    if k.halt_behind_king && k.landing == Landing::AdjacentBeyond {
        out.warning(
            Code::W0406,
            "kings.halt_behind_king",
            "halt_behind_king has no effect with landing = \"adjacent_beyond\": the king always lands right behind",
        );
    }
    KingRules {
        halt_behind_king: k.halt_behind_king && k.landing == Landing::AnyBeyond,
        range,
        capture_flying: k.capture_range == CaptureRange::Flying,
        landing_any: k.landing == Landing::AnyBeyond,
        landing_must_continue: k.landing_must_continue && k.landing == Landing::AnyBeyond,
        max_consecutive_moves: k.max_consecutive_moves,
    }
}

/// The most ways a king's capture may go on at each jump (landing squares
/// times directions) before [`exploding_king_captures`] warns.
const MAX_KING_BRANCHING: usize = 64;

/// `W0605`: kings that land on any square beyond, in so many directions on
/// so long a board that a capture sequence can go on in more than
/// [`MAX_KING_BRANCHING`] ways at each jump: the capture paths then grow
/// exponentially with the pieces taken (a king against a dozen men on
/// 16×16 can have tens of millions). The count is an upper bound of the
/// landings along the longest line times the directions a jump can take
/// after the first (all but the way back under `no_reversal`).
fn exploding_king_captures(spec: &VariantSpec, out: &mut Findings) {
    let k = &spec.kings;
    // A board of a size no variant may have is reported by the board stage
    // (E0201, E0202); a warning about its captures would only add noise.
    let side_ok = |v: u32| (1..=u32::from(crate::board::MAX_SIDE)).contains(&v);
    if k.landing != Landing::AnyBeyond || !side_ok(spec.board.width) || !side_ok(spec.board.height) {
        return;
    }
    let mut dirs: Vec<_> = k.captures.clone();
    dirs.sort();
    dirs.dedup();
    let turns = dirs.len().saturating_sub(usize::from(spec.capture.no_reversal));
    let landings = (spec.board.width.max(spec.board.height) as usize).saturating_sub(2);
    let branching = landings * turns;
    if branching > MAX_KING_BRANCHING {
        out.warning(
            Code::W0605,
            "kings.landing",
            format!(
                "a king's capture can go on in up to {branching} ways at each jump ({landings} landing squares \
                 × {turns} directions), so one position can have millions of capture paths: listing every move \
                 and perft can take hours (a search stays within its limits); landing = \"adjacent_beyond\", \
                 fewer capture directions or no_reversal = true keep the tree small"
            ),
        );
    }
}
