//! The game: move explanations, end-of-game rules, undo and redo.

use dama_engine::game::{EndReason, Game, GameResult, Outcome, PlayError};
use dama_engine::{MoveError, Rules};

fn rules(id: &str) -> Rules {
    Rules::builtin(id).unwrap()
}

/// Each case: variant, FEN, typed text; the answer is the error (or the move).
fn explain(cases: &[(&str, &str, &str)]) -> String {
    let mut out = String::new();
    for (variant, fen, text) in cases {
        let r = rules(variant);
        let pos = r.parse_fen(fen).unwrap();
        let answer = match r.resolve_move(&pos, text) {
            Ok(m) => format!("ok {}", r.format_move_full(&pos, &m)),
            Err(e) => e.to_string(),
        };
        out.push_str(&format!("{variant:<10} {fen:<28} {text:<14} => {answer}\n"));
    }
    out
}

#[test]
fn move_explanations() {
    let cases = [
        // Reading liberally.
        ("dama", "W:Wd3:Ba7", "d3-d4"),
        ("dama", "W:Wd3:Ba7", "d3d4"),
        ("dama", "W:Wd3:Ba7", "D3-D4"),
        ("dama", "W:Wd4:Bd5,f6,h7", "d4xd6"),
        ("dama", "W:Wd4:Bd5,e6", "d4:d6xf6"),
        ("dama", "W:Wd4:Bd5,e6", "d4xf6"),
        ("dama", "W:WKa5:Bb5,e5", "a5xf5"),
        ("dama", "W:WKa5:Bb5,e5", "a5xc5xf5"),
        ("dama", "W:WKd4:Bd6,f5,f3", "d4xf4"),
        // Why not.
        ("dama", "W:Wd3:Ba7", "e3-e4"),
        ("dama", "W:Wd3:Ba7", "a7-a6"),
        ("dama", "W:Wd3:Ba7", "d3-d2"),
        ("dama", "W:Wd3:Ba7", "d3-e4"),
        ("dama", "W:Wd3:Ba7", "d3-d5"),
        ("dama", "W:Wd3,d4:Ba7", "d3-d4"),
        ("dama", "W:Wd3,e4:Be5", "d3-d4"),
        ("dama", "W:Wd4,e4:Bd5,d7,e5", "d4xd6"),
        ("dama", "W:Wd4:Bd5,d7,f6", "d4xd6"),
        ("dama", "W:Wd4:Bd5,d7,f6,f8", "d4xd6xd8"),
        ("dama", "W:WKd1:Ba7", "d1-e2"),
        ("dama", "W:WKd1,d3:Ba7", "d1-d5"),
        ("dama", "W:WKd1:Ba7,d3,d4", "d1xd5"),
        ("dama", "W:WKd5:Bd3,d7", "d5xd8xd1"),
        ("dama", "W:Wd4:Bd3", "d4xd2"),
        ("dama", "W:Wd4:Ba7", "d4xd6"),
        ("dama", "W:Wd4,d5:Ba7", "d4xd6"),
        ("dama", "W:Wd4:Bd5,e5", "d4xd6xf6"),
        ("dama", "W:Wd4:Ba7,d5", "d4-e5"),
        ("dama", "W:Wd4:Ba7,d5", "d4-d9"),
        ("dama", "W:Wd4:Ba7,d5", "d4"),
        ("dama", "W:Wd4:Ba7,d5", "d4-e6"),
        ("dama", "B:Wd4:Ba7,d5", "a7-a8"),
        ("dama", "B:Wd4:Ba7,d5", "a7-b6"),
        ("armenian", "W:Wd4:Bh8", "d4-c3"),
        ("armenian", "W:WKd4:Bf6", "d4xg7"),
        ("croda", "W:We5:Bh8", "e5-d5"),
        ("croda", "W:WKd1:Bd3,f5,h4,b3", "d1xd5xh5xh3xa3"),
        ("keny", "W:Wd4,d5:Bh8", "d4-d6"),
        ("keny", "W:Wd4,c5:Bh8", "d4-d6"),
        ("keny", "W:Wd4:Bd5,c4,b5", "d4xb4"),
        ("keny-majority", "W:Wd4:Bd5,c4,b5", "d4xd6"),
        ("dameo", "W:Wd1,d2:Bh8", "d1-d4"),
        ("dameo", "W:Wd1,d2:Bh8", "d1-d3"),
        ("dama-promote-and-continue", "W:Wd6:Bd7,c8", "d6xd8"),
        ("armenian-schmidt", "W:WKd4:Bh8", "d4-d7"),
    ];
    insta::assert_snapshot!(explain(&cases));
}
