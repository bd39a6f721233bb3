//! The computer's answer to a draw offer, from its search of the position.

use dama_engine::search::MATE_BOUND;
use dama_engine::{Game, SearchResult};

/// Behind by this much or more (hundredths of a man), the computer accepts.
const BEHIND: i32 = 50;
/// Within this much of level, the computer accepts in an endgame or a stale position.
const LEVEL: i32 = 15;
/// Plies without a capture that make a position stale.
const STALE_PLIES: u32 = 30;

/// How the computer answers a draw offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawAnswer {
    /// Whether it accepts the draw.
    pub accept: bool,
    /// Its evaluation of the position, from its own point of view (the
    /// side offered the draw), in hundredths of a man; beyond
    /// ±[`MATE_BOUND`] a forced win or loss.
    pub score: i32,
}

/// How the computer answers a draw offered by the side to move of `game`.
/// `search` is its search of the current position, whose score is for the
/// side to move: the one offering. The computer's own view is the opposite.
///
/// From its view, the computer accepts when it is behind by half a man or
/// more (a forced loss included), or when the position is within 0.15 of a
/// man of level and is either an endgame (at most a third of the pieces of
/// the variant's initial position are left) or stale (30 plies or more
/// without a capture). Otherwise it declines and plays on.
///
/// ```
/// use dama_engine::{Engine, Game, Limits, Rules, SearchRoot};
/// use dama_play::answer_draw_offer;
///
/// let game = Game::new(Rules::builtin("dama").unwrap());
/// let mut engine = Engine::new(game.rules());
/// let search = engine.search(&SearchRoot::from_game(&game), &Limits::depth(2));
/// // Level at the start, but neither an endgame nor stale: played on.
/// let answer = answer_draw_offer(&game, &search);
/// assert!(!answer.accept);
/// assert_eq!(answer.score, -search.score);
/// ```
pub fn answer_draw_offer(game: &Game, search: &SearchResult) -> DrawAnswer {
    let score = -search.score;
    let pieces = game.position().occupied().count();
    let initial = game.rules().start_position().occupied().count();
    let endgame = pieces * 3 <= initial;
    let stale = game.no_capture_plies() >= STALE_PLIES;
    let accept = score <= -BEHIND || score < -MATE_BOUND || (score.abs() <= LEVEL && (endgame || stale));
    DrawAnswer { accept, score }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use dama_engine::search::MATE;
    use dama_engine::{random_move, Rng, Rules};

    /// A search result with this score for the side to move.
    fn scored(score: i32) -> SearchResult {
        SearchResult {
            best: None,
            score,
            depth: 1,
            seldepth: 1,
            nodes: 1,
            table_hits: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }

    fn accepts(game: &Game, offerer_score: i32) -> bool {
        let answer = answer_draw_offer(game, &scored(offerer_score));
        assert_eq!(answer.score, -offerer_score);
        answer.accept
    }

    #[test]
    fn accepts_when_behind_or_level_in_a_quiet_ending() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        let start = Game::new(Arc::clone(&rules));
        // The offering side's score: good for it means bad for the computer.
        assert!(accepts(&start, 50));
        assert!(accepts(&start, 400));
        assert!(accepts(&start, MATE - 7));
        assert!(!accepts(&start, 49));
        assert!(!accepts(&start, 0));
        assert!(!accepts(&start, -200));
        assert!(!accepts(&start, -(MATE - 7)));

        // An endgame: 4 pieces of the initial 32.
        let pos = rules.parse_fen("W:Wa2,b2:Bg7,h7").unwrap();
        let ending = Game::from_position(Arc::clone(&rules), pos);
        assert!(accepts(&ending, 0));
        assert!(accepts(&ending, 15));
        assert!(accepts(&ending, -15));
        assert!(!accepts(&ending, -16));
        assert!(!accepts(&ending, 16));
        assert!(accepts(&ending, 50));
    }

    #[test]
    fn a_stale_position_counts_like_an_ending() {
        let rules = Arc::new(Rules::builtin("dama").unwrap());
        // A random game, seeded, until 30 plies pass without a capture
        // while most pieces are still on the board.
        let stale = (0..1000u64)
            .find_map(|seed| {
                let mut rng = Rng::new(seed);
                let mut game = Game::new(Arc::clone(&rules));
                for _ in 0..200 {
                    if game.is_over() {
                        return None;
                    }
                    if game.no_capture_plies() >= STALE_PLIES {
                        return Some(game);
                    }
                    let m = random_move(&rules, game.position(), &mut rng)?;
                    game.play(m).ok()?;
                }
                None
            })
            .unwrap();
        let initial = rules.start_position().occupied().count();
        assert!(stale.position().occupied().count() * 3 > initial);
        assert!(accepts(&stale, 0));
        assert!(accepts(&stale, -15));
        assert!(!accepts(&stale, -16));
    }
}
