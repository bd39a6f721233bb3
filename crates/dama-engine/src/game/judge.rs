//! The end of the game as the position alone decides it: a side to move
//! without a legal move (`end.no_legal_move`; with `"pass"`, a side
//! without pieces, or both sides blocked), a king on the board where the
//! first to crown wins (`end.crowning`), and the lone-piece rules
//! (`end.lone_piece`, `end.lone_piece_unless_capture`, `end.king_vs_king`).
//!
//! [`Game`](crate::game::Game) judges every position of a game with these,
//! and the search judges every node with them, so the two can never
//! disagree on what these rules say. The rules that depend on the history
//! (threefold repetition, the no-capture and kings-only ply limits) are
//! judged by each from its own record of the game.

use crate::board::Position;
use crate::board::{Bits, Color, Node};
use crate::game::{EndReason, GameResult, Outcome};
use crate::rules::{with_pack, Pack, Rules};
use crate::spec::{CrowningEnd, KingVsKing, LonePiece, NoMoveResult};

impl Rules {
    /// How the game ends when the side to move in `pos` has no legal move:
    /// `end.no_legal_move` says who wins, and the reason says whether the
    /// side had pieces left.
    ///
    /// ```
    /// use dama_engine::{Color, EndReason, GameResult, Rules};
    ///
    /// let rules = Rules::builtin("dama").unwrap();
    /// // Black's last man, on a2, is blocked by White's men.
    /// let pos = rules.parse_fen("B:Wa1,a3,b2,c2:Ba2").unwrap();
    /// assert!(rules.legal_moves(&pos).is_empty());
    /// let end = rules.no_move_outcome(&pos);
    /// assert_eq!(end.result, GameResult::WhiteWins);
    /// assert_eq!(end.reason, EndReason::NoLegalMove(Color::Black));
    /// ```
    pub fn no_move_outcome(&self, pos: &Position) -> Outcome {
        let us = pos.side_to_move();
        let reason = if pos.count(us) == 0 {
            EndReason::NoPieces(us)
        } else {
            EndReason::NoLegalMove(us)
        };
        let result = match self.end().no_legal_move {
            // A side that passes when blocked has no legal move only when
            // it has no pieces left: it has lost.
            NoMoveResult::Loss | NoMoveResult::Pass => GameResult::win_for(!us),
            NoMoveResult::Win => GameResult::win_for(us),
            NoMoveResult::Draw => GameResult::Draw,
        };
        Outcome::new(result, reason)
    }

    /// With `end.no_legal_move = "pass"`, the end of a position whose side
    /// to move can only pass: a draw when the other side, after the pass,
    /// could only pass too (neither side can ever move again: our reading
    /// of Schmidt's rule, which says only that a blocked player passes),
    /// else `None` (the pass is played and the game goes on). `None` too
    /// under the other values, and when the side to move has a move.
    ///
    /// ```
    /// use dama_engine::{EndReason, GameResult, Rules};
    ///
    /// let rules = Rules::builtin("armenian-schmidt").unwrap();
    /// // White's sixteen men fill ranks 6 and 7 under Black's eight on rank 8.
    /// let white = "a6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
    /// let black = "a8,b8,c8,d8,e8,f8,g8,h8";
    /// // White is blocked and passes; Black's king on d3 can move: the game goes on.
    /// let pos = rules.parse_fen(&format!("W:W{white}:B{black},Kd3")).unwrap();
    /// let legal = rules.legal_moves(&pos);
    /// assert!(legal.len() == 1 && legal.as_slice()[0].is_pass());
    /// assert_eq!(rules.pass_outcome(&pos), None);
    /// // Without the king, Black's men are blocked too: a draw.
    /// let pos = rules.parse_fen(&format!("W:W{white}:B{black}")).unwrap();
    /// let end = rules.pass_outcome(&pos).unwrap();
    /// assert_eq!((end.result, end.reason), (GameResult::Draw, EndReason::BothBlocked));
    /// ```
    pub fn pass_outcome(&self, pos: &Position) -> Option<Outcome> {
        with_pack!(self, p => self.both_blocked_in(p, &p.node(pos)))
            .then(|| Outcome::new(GameResult::Draw, EndReason::BothBlocked))
    }

    /// Whether, with `end.no_legal_move = "pass"`, the side to move has
    /// pieces but no move and the other side, after the pass, neither.
    #[inline]
    pub(crate) fn both_blocked_in<B: Bits>(&self, p: &Pack<B>, pos: &Node<B>) -> bool {
        if !self.end().passes() {
            return false;
        }
        let blocked = |n: &Node<B>| {
            !n.pieces(n.side_to_move()).is_empty() && !self.has_capture_in(p, n) && !self.has_quiet_in(p, n)
        };
        let mut other = *pos;
        other.side = !other.side;
        blocked(pos) && blocked(&other)
    }

    /// With `end.crowning = "wins"`, the end of a position with a king on
    /// the board: the side that crowned it has won. The side that has just
    /// moved is looked at first, so a position given with kings on both
    /// sides is won by the side that moved last. `None` when no king stands
    /// on the board, and under `end.crowning = "none"`.
    ///
    /// ```
    /// use dama_engine::{Color, EndReason, GameResult, Rules};
    ///
    /// let rules = Rules::builtin("breakthrough").unwrap();
    /// let pos = rules.parse_fen("B:WK3:B20,25").unwrap();
    /// let end = rules.crowning_outcome(&pos).unwrap();
    /// assert_eq!((end.result, end.reason), (GameResult::WhiteWins, EndReason::Crowned(Color::White)));
    /// assert_eq!(rules.crowning_outcome(&rules.start_position()), None);
    /// ```
    #[inline]
    pub fn crowning_outcome(&self, pos: &Position) -> Option<Outcome> {
        if self.end().crowning != CrowningEnd::Wins || pos.all_kings().is_empty() {
            return None;
        }
        let last = !pos.side_to_move();
        let winner = if pos.kings(last).is_empty() { !last } else { last };
        Some(Outcome::new(GameResult::win_for(winner), EndReason::Crowned(winner)))
    }

    /// The end the lone-piece rules give `pos`, or `None` when they let the
    /// game go on. They apply only when each side has exactly one piece, and
    /// (with `end.lone_piece_unless_capture`) only when the side to move
    /// cannot capture. Then `end.lone_piece = "king_beats_lone_man"` gives a
    /// lone king against a lone man to the king's side,
    /// `"one_each_draw"` makes any one piece each a draw, and
    /// `end.king_vs_king = "draw"` makes one king each a draw.
    ///
    /// As at every turn, a side without a legal move is judged first, by
    /// `end.no_legal_move`: when each side has one piece and a lone-piece
    /// rule could apply (the variant has one, and no capture waives it),
    /// `has_move` is called once to ask whether the side to move has a legal
    /// move, and if it has none the answer is [`Rules::no_move_outcome`].
    /// It is not called otherwise, so a search can pass a move generation
    /// and pay for it only in the rare positions with one piece each; a
    /// caller that knows its legal moves passes the answer.
    ///
    /// ```
    /// use dama_engine::{EndReason, GameResult, Rules};
    ///
    /// // Turkish draughts: a lone king beats a lone man, unless the side to move can capture.
    /// let rules = Rules::builtin("dama").unwrap();
    /// let has_move = |fen: &str| {
    ///     let pos = rules.parse_fen(fen).unwrap();
    ///     (!rules.legal_moves(&pos).is_empty(), pos)
    /// };
    /// let (moves, pos) = has_move("W:WKa1:Bh7");
    /// let end = rules.lone_piece_outcome(&pos, || moves).unwrap();
    /// assert_eq!((end.result, end.reason), (GameResult::WhiteWins, EndReason::KingBeatsLoneMan));
    /// // The king can take the man on d5: the game goes on.
    /// let (moves, pos) = has_move("W:WKd1:Bd5");
    /// assert_eq!(rules.lone_piece_outcome(&pos, || moves), None);
    /// // Two men: the game goes on.
    /// let pos = rules.parse_fen("W:Wa2:Bh7").unwrap();
    /// assert_eq!(rules.lone_piece_outcome(&pos, || true), None);
    /// // More than one piece a side: `has_move` is not even asked.
    /// let start = rules.start_position();
    /// assert_eq!(rules.lone_piece_outcome(&start, || unreachable!()), None);
    ///
    /// // The same two men, in the variant where one piece each is a draw.
    /// let rules = Rules::builtin("dama-one-each-draw").unwrap();
    /// let end = rules.lone_piece_outcome(&pos, || true).unwrap();
    /// assert_eq!((end.result, end.reason), (GameResult::Draw, EndReason::OneEach));
    /// ```
    #[inline]
    pub fn lone_piece_outcome(&self, pos: &Position, has_move: impl FnOnce() -> bool) -> Option<Outcome> {
        if pos.count(Color::White) != 1 || pos.count(Color::Black) != 1 {
            return None;
        }
        let end = self.end();
        if end.lone_piece == LonePiece::None && end.king_vs_king == KingVsKing::None {
            return None;
        }
        if end.lone_piece_unless_capture && self.has_capture(pos) {
            return None;
        }
        if !has_move() {
            return Some(self.no_move_outcome(pos));
        }
        let wk = !pos.kings(Color::White).is_empty();
        let bk = !pos.kings(Color::Black).is_empty();
        match end.lone_piece {
            LonePiece::KingBeatsLoneMan if wk != bk => {
                let winner = if wk { Color::White } else { Color::Black };
                return Some(Outcome::new(GameResult::win_for(winner), EndReason::KingBeatsLoneMan));
            }
            LonePiece::OneEachDraw => return Some(Outcome::new(GameResult::Draw, EndReason::OneEach)),
            _ => {}
        }
        if end.king_vs_king == KingVsKing::Draw && wk && bk {
            return Some(Outcome::new(GameResult::Draw, EndReason::KingVsKing));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Color;
    use crate::board::Position;
    use crate::board::{Move, MoveList};
    use crate::game::{EndReason, GameResult, Outcome};
    use crate::movegen::random_move;
    use crate::rules::Rules;
    use crate::spec::{KingVsKing, LonePiece};
    use crate::util::Rng;

    /// The lone-piece judgement as `Game` wrote it before it was shared
    /// with the search (asking its move list, where the search asked the
    /// capture test), kept as an independent reference.
    fn reference(rules: &Rules, pos: &Position, legal: &MoveList) -> Option<Outcome> {
        let end = rules.end();
        if legal.is_empty() {
            return Some(rules.no_move_outcome(pos));
        }
        if pos.count(Color::White) != 1 || pos.count(Color::Black) != 1 {
            return None;
        }
        if end.lone_piece_unless_capture && legal.iter().any(Move::is_capture) {
            return None;
        }
        let (wk, bk) = (!pos.kings(Color::White).is_empty(), !pos.kings(Color::Black).is_empty());
        match end.lone_piece {
            LonePiece::KingBeatsLoneMan if wk != bk => {
                let winner = if wk { Color::White } else { Color::Black };
                return Some(Outcome::new(GameResult::win_for(winner), EndReason::KingBeatsLoneMan));
            }
            LonePiece::OneEachDraw => return Some(Outcome::new(GameResult::Draw, EndReason::OneEach)),
            _ => {}
        }
        (end.king_vs_king == KingVsKing::Draw && wk && bk)
            .then(|| Outcome::new(GameResult::Draw, EndReason::KingVsKing))
    }

    /// Along random playouts of every shipped variant, the capture test
    /// agrees with the legal moves, and the shared judgement (as the game
    /// calls it, and as the search calls it) agrees with the reference.
    #[test]
    fn lone_piece_rules_judge_as_before() {
        let (mut total, mut one_each, mut ended) = (0, 0, 0);
        for (id, _) in crate::variant::BUILTIN {
            let rules = Rules::builtin(id).unwrap();
            let mut rng = Rng::new(11);
            for _ in 0..200 {
                let mut pos = rules.start_position();
                for _ in 0..300 {
                    total += 1;
                    let legal = rules.legal_moves(&pos);
                    let fen = || format!("{id}: {}", rules.to_fen(&pos));
                    assert_eq!(rules.has_capture(&pos), legal.iter().any(Move::is_capture), "{}", fen());
                    let expected = reference(&rules, &pos, &legal);
                    let as_game = if legal.is_empty() {
                        Some(rules.no_move_outcome(&pos))
                    } else {
                        rules.lone_piece_outcome(&pos, || true)
                    };
                    assert_eq!(as_game, expected, "{}", fen());
                    let as_search = rules.lone_piece_outcome(&pos, || !rules.legal_moves(&pos).is_empty());
                    if as_search.is_some() {
                        assert_eq!(as_search, expected, "{}", fen());
                    }
                    if pos.count(Color::White) == 1 && pos.count(Color::Black) == 1 {
                        one_each += 1;
                        ended += usize::from(expected.is_some());
                    }
                    let Some(m) = random_move(&rules, &pos, &mut rng) else {
                        break;
                    };
                    pos = pos.after(&m);
                }
            }
        }
        assert!(total > 100_000, "{total} positions");
        assert!(
            ended > 0,
            "one piece each {one_each} times, ended by the rules {ended} times"
        );
    }
}
