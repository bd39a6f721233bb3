//! What the capture search reads of the rules, worked out once when the
//! rules are compiled: starting a search (which the generator does at
//! nearly every node with a capture) then copies a reference instead of
//! reading and combining a dozen rule fields.

use crate::rules::{CaptureRules, KingRules, MenRules, PieceValues, Priority, Ranking};
use crate::spec::{Majority, MidCapturePromotion, Preference, Removal};

/// The capture rules as the search applies them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SearchPlan {
    /// How captures are ranked.
    pub(crate) ranking: Ranking,
    /// The majority rule, for the rank's key.
    pub(crate) majority: Majority,
    /// The pieces' values, for `majority = "max_value"`.
    pub(crate) values: PieceValues,
    /// The tie-breakers, for the rank's key.
    pub(crate) priority: Priority,
    /// Whether the key needs the order in which kings were taken (`kings_first`).
    pub(crate) track_order: bool,
    /// Whether a captured piece leaves the board at once.
    pub(crate) remove_at_once: bool,
    /// All ones when a piece may not turn 180° between two jumps, else 0.
    pub(crate) no_reversal: u8,
    /// Whether a king must land where its capture goes on.
    pub(crate) must_continue: bool,
    /// Whether a king ending its capture by taking a king lands right behind it.
    pub(crate) halt_behind_king: bool,
    /// Whether a king's landings beyond a piece are ever restricted (one of
    /// the two rules above).
    pub(crate) restrict_landings: bool,
    /// What a man crowned during a capture does.
    pub(crate) mid: MidCapturePromotion,
    /// Whether men may take kings.
    pub(crate) men_capture_kings: bool,
    /// Whether the search needs bookkeeping that the traditional games
    /// never ask for: a keyed rank (values or priorities), men that spare
    /// kings, or killer's halt. The search compiles it out otherwise.
    pub(crate) rich: bool,
}

impl SearchPlan {
    /// The plan of these rules.
    pub(crate) fn new(capture: &CaptureRules, men: &MenRules, kings: &KingRules) -> SearchPlan {
        let restrict = kings.landing_any && (kings.landing_must_continue || kings.halt_behind_king);
        let ranking = capture.ranking();
        SearchPlan {
            ranking,
            majority: capture.majority,
            values: capture.values,
            priority: capture.priority,
            track_order: capture.priority.contains(Preference::KingsFirst),
            remove_at_once: capture.removal == Removal::Immediate,
            no_reversal: if capture.no_reversal { 0xFF } else { 0 },
            must_continue: kings.landing_must_continue,
            halt_behind_king: kings.halt_behind_king,
            restrict_landings: restrict,
            mid: capture.promote_mid_capture,
            men_capture_kings: men.capture_kings,
            rich: ranking == Ranking::Keyed || !men.capture_kings || kings.halt_behind_king,
        }
    }

    /// Whether the rules rank captures at all (else any capture may be chosen).
    #[inline(always)]
    pub(crate) fn ranked(&self) -> bool {
        self.ranking != Ranking::Free
    }
}
