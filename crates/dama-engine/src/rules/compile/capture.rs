//! Stage 4: captures. The capture rules and the kings' capture geometry,
//! with the checks on combinations that have no effect.

use crate::rules::compile::Findings;
use crate::rules::{CaptureRules, KingRange, KingRules};
use crate::spec::{CaptureRange, Code, Landing, Majority, VariantSpec};

/// The capture rules (`W0601`).
pub(crate) fn capture(spec: &VariantSpec, out: &mut Findings) -> CaptureRules {
    let c = &spec.capture;
    if !c.mandatory && c.majority != Majority::None {
        out.warning(
            Code::W0601,
            "capture.mandatory",
            "the majority rule has little meaning when capturing is optional",
        );
    }
    CaptureRules {
        mandatory: c.mandatory,
        majority: c.majority,
        removal: c.removal,
        no_reversal: c.no_reversal,
        promote_mid_capture: c.promote_mid_capture,
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
    KingRules {
        range,
        capture_flying: k.capture_range == CaptureRange::Flying,
        landing_any: k.landing == Landing::AnyBeyond,
        landing_must_continue: k.landing_must_continue && k.landing == Landing::AnyBeyond,
        max_consecutive_moves: k.max_consecutive_moves,
    }
}
