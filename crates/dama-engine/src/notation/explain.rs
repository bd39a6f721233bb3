//! Why a move text names no legal move.
//!
//! The generator is the only interpreter of the rules, so an explanation
//! asks it rather than re-implementing them: the text is compared with the
//! legal moves (a capture stopped too early), then with the moves of the
//! same rules with one rule relaxed ([`Probe`]): if the text becomes legal
//! without the majority rule, without compulsory capture, with turning
//! back allowed, with immediate removal, with men crowned mid-capture going
//! on, or with flying kings, that rule is the reason. Only what no rule
//! parameter decides is checked square by square: the squares must lie on
//! a line, the way must be free, a capture must jump exactly one enemy
//! piece, and the piece must have the direction it tries.

// Panic audit (rel, issue 7): this module reads user input, so it may not
// unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use crate::board::{AbsDir, Bitboard, Color, DirSet, Move, MovePath, Piece, Position, Square};
use crate::notation::{DirKind, IllegalReason, MoveText};
use crate::rules::{KingRange, Rules};
use crate::spec::{CaptureRange, Landing, Majority, MidCapturePromotion, Range, Removal, VariantSpec};

/// A rule that may be what forbids a move: the spec changed so that the
/// rule no longer applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Probe {
    /// `capture.no_reversal = false`.
    Reversal,
    /// `capture.removal = "immediate"`.
    Removal,
    /// `capture.promote_mid_capture`: the man goes on (as a man or a king).
    CrownedGoesOn(MidCapturePromotion),
    /// `kings.move_range = "flying"`.
    KingRange,
    /// `kings.capture_range = "flying"`.
    KingCaptureRange,
    /// `kings.landing = "any_beyond"`.
    KingLanding,
}

impl Probe {
    /// The probes that can apply to these rules, in the order they are asked.
    fn all(rules: &Rules) -> Vec<Probe> {
        let c = rules.capture();
        let k = rules.kings();
        let mut out = Vec::new();
        if c.no_reversal {
            out.push(Probe::Reversal);
        }
        if c.removal == Removal::EndOfMove {
            out.push(Probe::Removal);
        }
        if c.promote_mid_capture == MidCapturePromotion::Stop {
            out.push(Probe::CrownedGoesOn(MidCapturePromotion::ContinueAsMan));
            out.push(Probe::CrownedGoesOn(MidCapturePromotion::PromoteAndContinue));
        }
        if k.range != KingRange::Flying {
            out.push(Probe::KingRange);
        }
        if !k.capture_flying {
            out.push(Probe::KingCaptureRange);
        }
        if !k.landing_any {
            out.push(Probe::KingLanding);
        }
        out
    }

    /// Switches the rule off in `spec`.
    fn relax(self, spec: &mut VariantSpec) {
        match self {
            Probe::Reversal => spec.capture.no_reversal = false,
            Probe::Removal => spec.capture.removal = Removal::Immediate,
            Probe::CrownedGoesOn(p) => spec.capture.promote_mid_capture = p,
            Probe::KingRange => spec.kings.move_range = Range::Flying,
            Probe::KingCaptureRange => spec.kings.capture_range = CaptureRange::Flying,
            Probe::KingLanding => spec.kings.landing = Landing::AnyBeyond,
        }
    }
}

impl Rules {
    /// These rules with a change to the spec (to ask "would it be legal if …?").
    fn relaxed(&self, change: impl FnOnce(&mut VariantSpec)) -> Option<Rules> {
        let mut spec = self.spec().clone();
        change(&mut spec);
        crate::rules::compile(&spec).ok().map(|(r, _)| r)
    }

    /// Whether `mt` names a legal move of `pos`, or stops on the way of
    /// one, once the choice between captures (the majority rule and the
    /// priorities) is lifted.
    fn legal_without_choice(&self, pos: &Position, mt: &MoveText) -> bool {
        self.relaxed(|s| {
            s.capture.majority = Majority::None;
            s.capture.priority.clear();
        })
        .is_some_and(|r| {
            r.legal_moves(pos)
                .iter()
                .any(|m| r.text_names(pos, mt, m) || r.text_stops_on(pos, mt, m))
        })
    }

    /// Whether `mt` names `m` in `pos` under these rules.
    fn text_names(&self, pos: &Position, mt: &MoveText, m: &Move) -> bool {
        m.from() == mt.squares[0]
            && Some(&m.to()) == mt.squares.last()
            && (mt.squares.len() == 2 || self.move_paths(pos, m).iter().any(|p| mt.matches_path(p)))
    }

    /// Whether `mt` stops early on a path of `m`.
    fn text_stops_on(&self, pos: &Position, mt: &MoveText, m: &Move) -> bool {
        m.from() == mt.squares[0] && m.is_capture() && self.move_paths(pos, m).iter().any(|p| mt.matches_path_prefix(p))
    }

    /// A path of a legal move of these rules that `mt` names, if any.
    fn named_path(&self, pos: &Position, mt: &MoveText) -> Option<MovePath> {
        self.legal_moves(pos)
            .iter()
            .filter(|m| self.text_names(pos, mt, m))
            .find_map(|m| self.move_paths(pos, m).into_iter().find(|p| mt.matches_path(p)))
    }

    /// Why `mt`, which names no legal move of `pos`, is illegal, in the
    /// game's terms (see the module documentation for how it is found).
    pub fn explain_illegal(&self, pos: &Position, mt: &MoveText) -> IllegalReason {
        use IllegalReason as R;
        let from = mt.squares[0];
        let us = pos.side_to_move();
        let piece = match pos.piece_at(from) {
            None => {
                return R::NoPiece {
                    square: self.square_name(from),
                }
            }
            Some(p) if p.color() != us => {
                return R::NotYourPiece {
                    square: self.square_name(from),
                    owner: p.color(),
                }
            }
            Some(p) => p,
        };
        let legal = self.legal_moves(pos);
        let capture_moves: Vec<Move> = legal.iter().filter(|m| m.is_capture()).copied().collect();
        let captures = self.format_moves_full(pos, &capture_moves);
        let max = legal.iter().map(Move::capture_count).max().unwrap_or(0);

        // A capture stopped where the piece can (must) go on.
        let stopped: Vec<Move> = legal
            .iter()
            .filter(|m| self.text_stops_on(pos, mt, m))
            .copied()
            .collect();
        let continuations = self.format_moves_full(pos, &stopped);
        if !continuations.is_empty() {
            return R::Unfinished { continuations };
        }
        // Legal but for the capture priorities.
        if !self.capture().priority.is_empty() && !captures.is_empty() {
            if let Some(r) = self.relaxed(|s| s.capture.priority.clear()) {
                if r.legal_moves(pos).iter().any(|m| r.text_names(pos, mt, m)) {
                    return R::NotPreferred {
                        order: self.capture_order_words(),
                        captures,
                    };
                }
            }
        }
        // Legal but for the majority rule by value.
        if self.capture().majority == Majority::MaxValue && max > 0 && self.legal_without_choice(pos, mt) {
            return R::NotPreferred {
                order: self.capture_order_words(),
                captures,
            };
        }
        // Legal but for the majority rule.
        if self.capture().majority == Majority::MaxPieces && max > 0 && self.legal_without_choice(pos, mt) {
            return R::NotMaximum { count: max, captures };
        }
        // Legal but for compulsory capture.
        if self.capture().mandatory && !captures.is_empty() {
            if let Some(r) = self.relaxed(|s| {
                s.capture.mandatory = false;
                s.capture.majority = Majority::None;
                s.capture.priority.clear();
            }) {
                let rl = r.legal_moves(pos);
                if rl.iter().any(|m| !m.is_capture() && r.text_names(pos, mt, m)) {
                    return R::CaptureMandatory { captures };
                }
            }
        }
        // Legal but for one other rule (neither capture rule hiding it).
        for probe in Probe::all(self) {
            let Some(r) = self.relaxed(|s| {
                probe.relax(s);
                s.capture.mandatory = false;
                s.capture.majority = Majority::None;
                s.capture.priority.clear();
            }) else {
                continue;
            };
            if let Some(path) = r.named_path(pos, mt) {
                return self.probe_reason(probe, piece, &path, us);
            }
        }
        // Square by square.
        match self.explain_steps(pos, mt, piece.is_king()) {
            Err(reason) => return reason,
            Ok(Some(taken)) if taken > 0 => {
                if taken < max && self.capture().majority == Majority::MaxPieces {
                    return R::NotMaximum { count: max, captures };
                }
                let from_here: Vec<Move> = legal
                    .iter()
                    .filter(|m| m.from() == from && m.is_capture())
                    .copied()
                    .collect();
                let cont = self.format_moves_full(pos, &from_here);
                if !cont.is_empty() && self.capture().mandatory {
                    return R::Unfinished { continuations: cont };
                }
            }
            Ok(_) => {
                if self.capture().mandatory && !captures.is_empty() {
                    return R::CaptureMandatory { captures };
                }
            }
        }
        R::Other {
            piece: if piece.is_king() { "king" } else { "man" },
            square: self.square_name(from),
            moves: self.format_moves_full(
                pos,
                &legal.iter().filter(|m| m.from() == from).copied().collect::<Vec<_>>(),
            ),
        }
    }

    /// The reason a probe names, given the path that it makes legal.
    fn probe_reason(&self, probe: Probe, piece: Piece, path: &MovePath, us: Color) -> IllegalReason {
        use IllegalReason as R;
        match probe {
            Probe::Reversal => R::Reversal,
            Probe::Removal => {
                // The first piece captured earlier that a later jump passes
                // or lands on (it would still stand there).
                let mut at = path.from;
                for (j, &l) in path.landings.iter().enumerate() {
                    let earlier = &path.captures[..j.min(path.captures.len())];
                    let mut passed = self.between(at, l);
                    passed.push(l);
                    if let Some(q) = passed.into_iter().find(|q| earlier.contains(q)) {
                        return R::CapturedTwice {
                            square: self.square_name(q),
                        };
                    }
                    at = l;
                }
                // It stood in the way of a landing square instead.
                R::CapturedTwice {
                    square: path.captures.first().map_or_else(String::new, |&q| self.square_name(q)),
                }
            }
            Probe::CrownedGoesOn(_) => {
                let promo = self.side(us).promotion;
                let (_, inner) = path.landings.split_last().unwrap_or((&path.from, &[]));
                let square = inner.iter().find(|l| promo.contains(**l)).copied().unwrap_or(path.from);
                R::CrownedStops {
                    square: self.square_name(square),
                }
            }
            Probe::KingRange => R::TooFar {
                king: piece.is_king(),
                max: match self.kings().range {
                    KingRange::Steps(n) => n as u32,
                    KingRange::Flying => u32::MAX,
                },
            },
            Probe::KingCaptureRange => R::KingCaptureShort,
            Probe::KingLanding => R::KingLandingAdjacent,
        }
    }

    /// The direction from `a` to `b` and the number of steps of the board's
    /// step table between them (an orthogonal step on a dark-squares board
    /// is two squares), if `b` lies on a line from `a`.
    fn line_between(&self, a: Square, b: Square) -> Option<(AbsDir, u32)> {
        let d = line_direction(a, b)?;
        let mut s = a;
        let mut n = 0;
        while let Some(t) = self.step(s, d) {
            n += 1;
            if t == b {
                return Some((d, n));
            }
            s = t;
        }
        None
    }

    /// The squares strictly between `a` and `b` on the line joining them
    /// (none if they share no line), in steps of the board's step table.
    fn between(&self, a: Square, b: Square) -> Vec<Square> {
        let Some((d, n)) = self.line_between(a, b) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut s = a;
        for _ in 1..n {
            let Some(t) = self.step(s, d) else {
                break;
            };
            out.push(t);
            s = t;
        }
        out
    }

    /// Checks the text's steps against the board and the pieces' directions.
    /// `Err` gives the first problem; `Ok(Some(n))` means a well-formed
    /// capture of `n` pieces, `Ok(None)` a well-formed non-capturing move.
    /// What a rule parameter decides (removal timing, turning back, crowning
    /// mid-capture, the kings' ranges) was asked of the generator before,
    /// so here a captured piece is taken off at once, the piece may turn,
    /// a crowned man may go on with a man's or a king's directions, and a
    /// king's range is not checked.
    fn explain_steps(&self, pos: &Position, mt: &MoveText, king: bool) -> Result<Option<u32>, IllegalReason> {
        use IllegalReason as R;
        let us = pos.side_to_move();
        let side = *self.side(us);
        let from = mt.squares[0];
        let mut occ = pos.occupied() & !from.bit();
        let own = pos.pieces(us) & !from.bit();
        let mut enemy = pos.pieces(!us);
        let mut taken = 0u32;
        // Whether the piece may use a king's / a man's directions now.
        let (mut as_king, as_man) = (king, !king);
        let name = |s: Square| self.square_name(s);
        let n_steps = mt.squares.len() - 1;
        for w in mt.squares.windows(2) {
            let (a, b) = (w[0], w[1]);
            if a == b {
                return Err(R::Stays { square: name(a) });
            }
            let chain = !king && !side.man_friendly_jumps.is_empty() && self.men().friendly_jump_chain;
            let Some((d, n)) = self.line_between(a, b) else {
                if chain && n_steps == 1 && !mt.capture {
                    return Ok(None);
                }
                return Err(R::NotALine {
                    from: name(a),
                    to: name(b),
                });
            };
            let between = self.between(a, b);
            let enemies: Vec<Square> = between.iter().copied().filter(|q| enemy.contains(q)).collect();
            if enemies.is_empty() && n_steps == 1 {
                // Nothing to capture on the way.
                let capture_dirs = if king { side.king_captures } else { side.man_captures };
                let capture_shape = capture_dirs.contains(d) && (n == 2 || (king && self.kings().capture_flying));
                if mt.capture && capture_shape {
                    if let Some(q) = between.iter().find(|q| own.contains(**q)) {
                        return Err(R::OwnPiece { square: name(*q) });
                    }
                    return Err(R::NothingToCapture {
                        from: name(a),
                        to: name(b),
                    });
                }
                self.explain_quiet(pos, a, b, d, n, king, occ)?;
                return Ok(None);
            }
            if occ.contains(b) {
                return Err(R::Occupied { square: name(b) });
            }
            if let Some(q) = between.iter().find(|q| own.contains(**q)) {
                return Err(R::OwnPiece { square: name(*q) });
            }
            let v = match enemies.as_slice() {
                [] => {
                    return Err(R::NothingToCapture {
                        from: name(a),
                        to: name(b),
                    })
                }
                [v] => *v,
                _ => {
                    return Err(R::TwoPieces {
                        from: name(a),
                        to: name(b),
                    })
                }
            };
            let king_ok = as_king && side.king_captures.contains(d);
            let man_ok = as_man && side.man_captures.contains(d) && n == 2;
            if !king_ok && !man_ok {
                return Err(if as_king {
                    R::KingDirection {
                        kind: dir_kind(d, us, side.king_captures),
                        capture: true,
                        only: only_lines(side.king_captures),
                    }
                } else if !side.man_captures.contains(d) {
                    R::ManDirection {
                        kind: dir_kind(d, us, side.man_captures),
                        capture: true,
                    }
                } else {
                    R::ManCaptureShape
                });
            }
            enemy &= !v.bit();
            occ &= !v.bit();
            taken += 1;
            if !king && side.promotion.contains(b) {
                as_king = true;
            }
        }
        Ok(Some(taken))
    }

    /// Checks a one-step non-capturing move.
    #[allow(clippy::too_many_arguments)]
    fn explain_quiet(
        &self,
        pos: &Position,
        a: Square,
        b: Square,
        d: AbsDir,
        n: u32,
        king: bool,
        occ: Bitboard,
    ) -> Result<(), IllegalReason> {
        use IllegalReason as R;
        let us = pos.side_to_move();
        let side = self.side(us);
        let name = |s: Square| self.square_name(s);
        if king {
            if !side.king_moves.contains(d) {
                return Err(R::KingDirection {
                    kind: dir_kind(d, us, side.king_moves),
                    capture: false,
                    only: only_lines(side.king_moves),
                });
            }
            if occ.contains(b) {
                return Err(R::Occupied { square: name(b) });
            }
            if let Some(q) = self.between(a, b).into_iter().find(|q| occ.contains(q)) {
                return Err(R::Blocked { square: name(q) });
            }
            return Ok(());
        }
        let all = union(union(side.man_steps, side.man_linear), side.man_friendly_jumps);
        if !all.contains(d) {
            return Err(R::ManDirection {
                kind: dir_kind(d, us, all),
                capture: false,
            });
        }
        if occ.contains(b) {
            return Err(R::Occupied { square: name(b) });
        }
        if n == 1 {
            if !side.man_steps.contains(d) {
                return Err(R::ManDirection {
                    kind: dir_kind(d, us, side.man_steps),
                    capture: false,
                });
            }
            return Ok(());
        }
        if side.man_linear.contains(d) {
            return Err(R::LinearMove);
        }
        if side.man_friendly_jumps.contains(d) && n == 2 {
            let mid = self.step(a, d).map_or_else(String::new, name);
            return Err(R::FriendlyJump {
                square: mid,
                over_kings: self.men().friendly_jump_over_kings,
            });
        }
        Err(R::TooFar { king: false, max: 1 })
    }
}

impl MoveText {
    /// Whether this text describes the path up to a landing square before its
    /// end (the capture stopped early).
    fn matches_path_prefix(&self, path: &MovePath) -> bool {
        (1..path.landings.len()).any(|k| {
            self.matches_path(&MovePath {
                from: path.from,
                landings: path.landings[..k].to_vec(),
                captures: path.captures[..k.min(path.captures.len())].to_vec(),
            })
        })
    }
}

/// The direction from `a` to `b` and the distance, if they share a rank, file or diagonal.
fn line_direction(a: Square, b: Square) -> Option<AbsDir> {
    let df = b.file() as i32 - a.file() as i32;
    let dr = b.rank() as i32 - a.rank() as i32;
    if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    AbsDir::ALL
        .into_iter()
        .find(|d| d.delta() == (df.signum() as i8, dr.signum() as i8))
}

/// How the mover sees direction `d`, named against the directions it has.
fn dir_kind(d: AbsDir, us: Color, allowed: DirSet) -> DirKind {
    let (mut df, mut dr) = d.delta();
    if us == Color::Black {
        (df, dr) = (-df, -dr);
    }
    if df == 0 {
        return if dr > 0 { DirKind::Forward } else { DirKind::Backward };
    }
    if dr == 0 {
        return DirKind::Sideways;
    }
    if !allowed.iter().any(|a| !a.is_orthogonal()) {
        return DirKind::Diagonal;
    }
    if dr > 0 {
        DirKind::DiagonalForward
    } else {
        DirKind::DiagonalBackward
    }
}

/// "along ranks and files" / "diagonally" when every direction of `set` is of one kind.
fn only_lines(set: DirSet) -> Option<&'static str> {
    if set.is_empty() {
        None
    } else if set.iter().all(AbsDir::is_orthogonal) {
        Some("along ranks and files")
    } else if set.iter().all(|d| !d.is_orthogonal()) {
        Some("diagonally")
    } else {
        None
    }
}

fn union(a: DirSet, b: DirSet) -> DirSet {
    DirSet(a.0 | b.0)
}
