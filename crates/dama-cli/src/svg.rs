//! Board diagrams as SVG text: the position, and moves drawn as arrows along
//! their full path with the captured pieces crossed out and numbered in the
//! order they are taken.

use std::fmt::Write;

use dama_engine::{Color, Move, MovePath, Piece, Position, Rules, Square};

/// Side of a square, in SVG user units.
const SQ: f64 = 48.0;
/// Room for the rank numbers on the left and the file letters below.
const MARGIN: f64 = 22.0;

/// Arrow colors, one per move drawn.
const ARROWS: [&str; 4] = ["#1f5fbf", "#2e8b3a", "#8e44ad", "#d35400"];

/// What to draw besides the position.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Black at the bottom.
    pub flip: bool,
    /// A line of text under the board.
    pub caption: Option<String>,
}

/// One move to draw: the move and the path to show (its first path).
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The move.
    pub mv: Move,
    /// Its path.
    pub path: MovePath,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG document.
pub fn diagram(rules: &Rules, pos: &Position, moves: &[Drawn], opts: &Options) -> String {
    let (w, h) = (rules.width() as f64, rules.height() as f64);
    let caption_h = if opts.caption.is_some() { 26.0 } else { 0.0 };
    let width = MARGIN + w * SQ + 6.0;
    let height = 6.0 + h * SQ + MARGIN + caption_h;
    let x0 = MARGIN;
    let y0 = 6.0;
    // Center of a square on the drawing.
    let center = |sq: Square| -> (f64, f64) {
        let (f, r) = (sq.file() as f64, sq.rank() as f64);
        let (col, row) = if opts.flip { (w - 1.0 - f, r) } else { (f, h - 1.0 - r) };
        (x0 + (col + 0.5) * SQ, y0 + (row + 0.5) * SQ)
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&title(rules, pos, moves)));
    s.push_str("<defs>\n");
    for (i, c) in ARROWS.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<marker id="head{i}" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>"#
        );
    }
    s.push_str("</defs>\n");
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );

    // Squares. Boards that use every square are drawn in one color (as the
    // orthogonal games are played); on the others, playable squares are dark.
    let all = rules.board().count() as f64 == w * h;
    for r in 0..rules.height() {
        for f in 0..rules.width() {
            let Some(sq) = Square::new(f, r) else { continue };
            let (cx, cy) = center(sq);
            let playable = rules.board().contains(sq);
            let fill = if all {
                "#f0d9a8"
            } else if playable {
                "#b58863"
            } else {
                "#f0d9b5"
            };
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#,
                cx - SQ / 2.0,
                cy - SQ / 2.0
            );
        }
    }
    if all {
        for i in 0..=rules.width() {
            let x = x0 + i as f64 * SQ;
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{y0}" x2="{x}" y2="{}" stroke="#8a6a3a" stroke-width="1"/>"##,
                y0 + h * SQ
            );
        }
        for i in 0..=rules.height() {
            let y = y0 + i as f64 * SQ;
            let _ = writeln!(
                s,
                r##"<line x1="{x0}" y1="{y}" x2="{}" y2="{y}" stroke="#8a6a3a" stroke-width="1"/>"##,
                x0 + w * SQ
            );
        }
    } else {
        let _ = writeln!(
            s,
            r##"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="none" stroke="#5a4020" stroke-width="1.5"/>"##,
            w * SQ,
            h * SQ
        );
    }

    // Coordinates.
    for f in 0..rules.width() {
        let Some(sq) = Square::new(f, 0) else { continue };
        let (cx, _) = center(sq);
        let _ = writeln!(
            s,
            r##"<text x="{cx}" y="{}" font-size="13" text-anchor="middle" fill="#444">{}</text>"##,
            y0 + h * SQ + 16.0,
            (b'a' + f) as char
        );
    }
    for r in 0..rules.height() {
        let Some(sq) = Square::new(0, r) else { continue };
        let (_, cy) = center(sq);
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="#444">{}</text>"##,
            MARGIN / 2.0,
            cy + 4.5,
            r + 1
        );
    }

    // Origin and destination of each move, tinted.
    for d in moves {
        for sq in [d.mv.from(), d.mv.to()] {
            let (cx, cy) = center(sq);
            let _ = writeln!(
                s,
                r##"<rect x="{}" y="{}" width="{SQ}" height="{SQ}" fill="#f5e663" fill-opacity="0.55"/>"##,
                cx - SQ / 2.0,
                cy - SQ / 2.0
            );
        }
    }

    // Pieces.
    for (sq, piece) in pos.iter() {
        let (cx, cy) = center(sq);
        let (fill, stroke, ring) = match piece.color() {
            Color::White => ("#fbfbf8", "#3a3a3a", "#3a3a3a"),
            Color::Black => ("#2b2b2b", "#000000", "#e8e8e8"),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
            SQ * 0.38
        );
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{ring}" stroke-width="1" stroke-opacity="0.6"/>"#,
            SQ * 0.27
        );
        if matches!(piece, Piece::King(_)) {
            s.push_str(&crown(cx, cy, SQ * 0.2));
        }
    }

    // Captured pieces: a red cross, numbered in capture order when one move is drawn.
    for d in moves {
        for (i, sq) in d.path.captures.iter().enumerate() {
            let (cx, cy) = center(*sq);
            let k = SQ * 0.3;
            let _ = writeln!(
                s,
                r##"<path d="M{},{} L{},{} M{},{} L{},{}" stroke="#d0202a" stroke-width="4.5" stroke-linecap="round"/>"##,
                cx - k,
                cy - k,
                cx + k,
                cy + k,
                cx - k,
                cy + k,
                cx + k,
                cy - k
            );
            if moves.len() == 1 && d.path.captures.len() > 1 {
                let (bx, by) = (cx + SQ * 0.33, cy - SQ * 0.33);
                let _ = writeln!(
                    s,
                    r##"<circle cx="{bx}" cy="{by}" r="8" fill="#d0202a"/><text x="{bx}" y="{}" font-size="11" font-weight="bold" text-anchor="middle" fill="#ffffff">{}</text>"##,
                    by + 4.0,
                    i + 1
                );
            }
        }
    }

    // Arrows along each path.
    for (i, d) in moves.iter().enumerate() {
        let color = ARROWS[i % ARROWS.len()];
        let mut pts: Vec<(f64, f64)> = std::iter::once(d.path.from)
            .chain(d.path.landings.iter().copied())
            .map(center)
            .collect();
        // Several moves from one square: spread their arrows a little,
        // counting only the moves from that square so that every arrow
        // starts inside it (at most 0.3 of a square from its center).
        let off = spread(moves, i);
        for p in &mut pts {
            p.0 += off;
            p.1 += off;
        }
        // Stop short of the last center so the head sits on the square.
        if let [.., a, b] = pts.as_mut_slice() {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len > 1.0 {
                let cut = (SQ * 0.22).min(len / 2.0);
                b.0 -= dx / len * cut;
                b.1 -= dy / len * cut;
            }
        }
        let d_attr: Vec<String> = pts
            .iter()
            .enumerate()
            .map(|(k, (x, y))| format!("{}{:.1},{:.1}", if k == 0 { "M" } else { "L" }, x, y))
            .collect();
        let _ = writeln!(
            s,
            r#"<path d="{}" fill="none" stroke="{color}" stroke-width="{:.1}" stroke-opacity="0.85" stroke-linejoin="round" stroke-linecap="round" marker-end="url(#head{})"/>"#,
            d_attr.join(" "),
            SQ * 0.11,
            i % ARROWS.len()
        );
        if let Some(&(x, y)) = pts.first() {
            let _ = writeln!(s, r#"<circle cx="{x:.1}" cy="{y:.1}" r="5" fill="{color}"/>"#);
        }
        // Where the piece touched down between jumps.
        if pts.len() > 2 {
            for &(x, y) in &pts[1..pts.len() - 1] {
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="4.5" fill="#ffffff" stroke="{color}" stroke-width="2.5"/>"##
                );
            }
        }
        if d.mv.promotes() {
            let (cx, cy) = center(d.mv.to());
            let _ = writeln!(
                s,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d4a017" stroke-width="3" stroke-dasharray="5,3"/>"##,
                SQ * 0.45
            );
        }
    }

    if let Some(c) = &opts.caption {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="14" text-anchor="middle" fill="#222">{}</text>"##,
            x0 + w * SQ / 2.0,
            y0 + h * SQ + MARGIN + 18.0,
            esc(c)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// How far (right and down, in user units) the arrow of `moves[i]` is moved
/// from the centers of its squares: the moves that start on the same square
/// are spread evenly around its center, 6 units apart when there is room,
/// never more than 0.3 of a square away; a move alone on its square is not
/// moved.
fn spread(moves: &[Drawn], i: usize) -> f64 {
    let Some(from) = moves.get(i).map(|d| d.path.from) else {
        return 0.0;
    };
    let same = |d: &&Drawn| d.path.from == from;
    let n = moves.iter().filter(same).count();
    if n < 2 {
        return 0.0;
    }
    let k = moves.iter().take(i).filter(same).count();
    let step = 6.0_f64.min(SQ * 0.6 / (n as f64 - 1.0));
    (k as f64 - (n as f64 - 1.0) / 2.0) * step
}

/// A small crown centered on `(cx, cy)`.
fn crown(cx: f64, cy: f64, r: f64) -> String {
    let pts = [
        (-1.0, 0.55),
        (-1.0, -0.45),
        (-0.5, 0.05),
        (0.0, -0.75),
        (0.5, 0.05),
        (1.0, -0.45),
        (1.0, 0.55),
    ];
    let d: Vec<String> = pts
        .iter()
        .map(|(x, y)| format!("{:.1},{:.1}", cx + x * r, cy + y * r))
        .collect();
    format!(
        "<polygon points=\"{}\" fill=\"#d4a017\" stroke=\"#7a5a00\" stroke-width=\"1\"/>\n",
        d.join(" ")
    )
}

fn title(rules: &Rules, pos: &Position, moves: &[Drawn]) -> String {
    let mut t = format!("{}: {}", rules.name(), rules.to_fen(pos));
    for d in moves {
        t.push_str(", ");
        t.push_str(&rules.format_path(&d.path, d.mv.is_capture()));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_pieces_arrows_and_captures() {
        let rules = Rules::builtin("dama").unwrap();
        let pos = rules.parse_fen("W:Wd6:Bd7,c8").unwrap();
        let m = rules.legal_moves(&pos).as_slice()[0];
        let path = rules.move_paths(&pos, &m)[0].clone();
        let svg = diagram(
            &rules,
            &pos,
            &[Drawn { mv: m, path }],
            &Options {
                caption: Some("a <b> & c".into()),
                ..Options::default()
            },
        );
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        // pieces (2 circles each), capture badges, start dot, landing dot on d8, promotion ring
        assert_eq!(svg.matches("<circle").count(), 3 * 2 + 2 + 1 + 1 + 1);
        assert!(svg.contains("marker-end"));
        assert!(svg.contains("a &lt;b&gt; &amp; c"));
        assert!(svg.contains("d6xd8xb8"));
    }

    /// (issue 37) Every arrow of `--all-moves` starts in its own origin
    /// square: the spread of the arrows that share an origin was computed
    /// over all the moves drawn, which put armenian's first arrows on
    /// rank 2 and one off the board.
    #[test]
    fn all_move_arrows_start_in_their_origin_squares() {
        for (id, fen) in [
            ("armenian", None),
            ("international", None),
            ("russian", Some("W:WKc1,Kg1:Bb8,h8")),
        ] {
            let rules = Rules::builtin(id).unwrap();
            let pos = fen.map_or_else(|| rules.start_position(), |f| rules.parse_fen(f).unwrap());
            let drawn: Vec<Drawn> = rules
                .legal_moves(&pos)
                .as_slice()
                .iter()
                .filter_map(|m| {
                    let path = rules.move_paths(&pos, m).into_iter().next()?;
                    Some(Drawn { mv: *m, path })
                })
                .collect();
            assert!(drawn.len() > 4, "{id}: {} moves", drawn.len());
            for flip in [false, true] {
                let svg = diagram(&rules, &pos, &drawn, &Options { flip, caption: None });
                let starts: Vec<(f64, f64)> = svg
                    .lines()
                    .filter_map(|l| l.strip_prefix("<path d=\"M"))
                    .filter_map(|l| {
                        let (x, rest) = l.split_once(',')?;
                        let y = rest.split([' ', '"']).next()?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect();
                assert_eq!(starts.len(), drawn.len(), "{id}: {svg}");
                let (w, h) = (rules.width() as f64, rules.height() as f64);
                for (d, (x, y)) in drawn.iter().zip(starts) {
                    let (f, r) = (d.path.from.file() as f64, d.path.from.rank() as f64);
                    let (col, row) = if flip { (w - 1.0 - f, r) } else { (f, h - 1.0 - r) };
                    let (left, top) = (MARGIN + col * SQ, 6.0 + row * SQ);
                    assert!(
                        x > left && x < left + SQ && y > top && y < top + SQ,
                        "{id} (flip {flip}): the arrow of {} starts at ({x}, {y}), outside its square {:?}",
                        rules.format_path(&d.path, d.mv.is_capture()),
                        (left, top, left + SQ, top + SQ)
                    );
                }
            }
        }
    }
}
