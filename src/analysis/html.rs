//! `report.html`: one self-contained page (no script, no network, inline SVG) per analysed
//! batch: for each game the players' summaries, the equity graph, luck per roll, the turn
//! list with the marked errors, and a board for each marked turn with the played turn (red)
//! and the best turn (green) drawn on it. Every text from a game file (ids, names) is
//! escaped.

use super::classify::{TurnClass, ERROR_THRESHOLDS, LUCK_THRESHOLDS};
use super::report::{GameAnalysis, PlayerSummary, TurnAnalysis};
use std::fmt::Write;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:72rem}\
h1{font-size:1.5rem}h2{font-size:1.25rem;border-top:1px solid #ccc;padding-top:1rem}\
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;text-align:right}\
th{background:#f4f4f4}td.l,th.l{text-align:left}tr.doubtful{background:#fff6d5}tr.bad{background:#ffe2c6}\
tr.veryBad{background:#ffc9c9}.boards{display:flex;flex-wrap:wrap;gap:1rem}\
figure{margin:0}figcaption{font-size:.85rem;max-width:320px}.key{font-size:.85rem;color:#555}";

/// The page for `games` (a section each).
pub fn report_html(games: &[GameAnalysis]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Dice Chess analysis</title><style>{STYLE}</style></head><body>\n\
         <h1>Dice Chess analysis: {} game{}</h1>\n<p class=\"key\">Equities are the mover's \
         win probability. Errors are marked doubtful from {:.2}, bad from {:.2} and very bad from \
         {:.2} given away (GNU Backgammon's thresholds, halved to the win-probability scale); a \
         roll is lucky from ±{:.2} and very lucky from ±{:.2}.</p>\n",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        ERROR_THRESHOLDS[0],
        ERROR_THRESHOLDS[1],
        ERROR_THRESHOLDS[2],
        LUCK_THRESHOLDS[0],
        LUCK_THRESHOLDS[1],
    );
    for (i, g) in games.iter().enumerate() {
        game_section(&mut h, g, i);
    }
    h.push_str("</body></html>\n");
    h
}

fn game_section(h: &mut String, g: &GameAnalysis, index: usize) {
    let result = match g.result {
        Some(1) => "1–0",
        Some(-1) => "0–1",
        Some(_) => "½–½",
        None => "aborted",
    };
    let _ = write!(
        h,
        "<section class=\"game\" id=\"game-{index}\"><h2>{} — {} vs {}: {result} ({})</h2>\n\
         <p class=\"key\">{} turns; evaluator {}, depth {}.</p>\n",
        esc(&g.game_id),
        esc(&g.white.name),
        esc(&g.black.name),
        esc(&g.termination),
        g.turns.len(),
        esc(&g.evaluator),
        g.depth
    );
    summary_table(h, &g.white, &g.black);
    equity_graph(h, g, index);
    luck_bars(h, g);
    turn_table(h, g);
    marked_boards(h, g, index);
    h.push_str("</section>\n");
}

fn summary_table(h: &mut String, w: &PlayerSummary, b: &PlayerSummary) {
    h.push_str(
        "<table class=\"summary\"><tr><th class=\"l\">player</th><th>turns</th><th>decisions</th>\
         <th>total error</th><th>error per decision</th><th>doubtful</th><th>bad</th>\
         <th>very bad</th><th>luck</th><th>result</th><th>luck-adjusted</th>\
         <th class=\"l\">worst turns</th></tr>\n",
    );
    for p in [w, b] {
        let opt = |v: Option<f64>| v.map_or("—".to_owned(), |v| format!("{v:.3}"));
        let worst: Vec<String> = p
            .worst
            .iter()
            .map(|t| format!("{} ({:.3})", t.turn_number, t.error))
            .collect();
        let _ = writeln!(
            h,
            "<tr><td class=\"l\">{} ({})</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.4}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{:+.3}</td><td>{}</td><td>{}</td>\
             <td class=\"l\">{}</td></tr>",
            esc(&p.name),
            if p.color == "w" { "White" } else { "Black" },
            p.turns,
            p.decisions,
            p.total_error,
            p.mean_error,
            p.doubtful,
            p.bad,
            p.very_bad,
            p.total_luck,
            opt(p.result),
            opt(p.luck_adjusted_result),
            worst.join(", ")
        );
    }
    h.push_str("</table>\n");
}

/// White's win probability after every turn, a dot per turn coloured by its class.
fn equity_graph(h: &mut String, g: &GameAnalysis, index: usize) {
    let curve = g.white_equity_curve();
    let (width, height, pad) = (720.0, 220.0, 30.0);
    // Turn i (0-based) at x(i); one turn alone sits at the left edge.
    let n = curve.len().max(2) - 1;
    let x = |i: usize| pad + (width - 2.0 * pad) * i as f64 / n as f64;
    let y = |p: f64| pad + (height - 2.0 * pad) * (1.0 - p);
    let _ = write!(
        h,
        "<figure><svg class=\"equity-graph\" id=\"graph-{index}\" xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
         aria-label=\"White's win probability by turn\">\
         <rect x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#ccc\"/>\
         <line x1=\"{pad}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" stroke=\"#bbb\" stroke-dasharray=\"4 4\"/>\
         <text x=\"4\" y=\"{}\" font-size=\"11\">100%</text><text x=\"4\" y=\"{}\" font-size=\"11\">50%</text>\
         <text x=\"4\" y=\"{}\" font-size=\"11\">0%</text>",
        width - 2.0 * pad,
        height - 2.0 * pad,
        width - pad,
        y(0.5),
        y(0.5),
        y(1.0) + 4.0,
        y(0.5) + 4.0,
        y(0.0) + 4.0,
    );
    let points: Vec<String> = curve
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(*p)))
        .collect();
    let _ = write!(
        h,
        "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2\" points=\"{}\"/>",
        points.join(" ")
    );
    for (i, t) in g.turns.iter().enumerate() {
        if t.class.marked() {
            let _ = write!(
                h,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{}\"><title>turn {}: {} ({:.3})</title></circle>",
                x(i),
                y(curve[i]),
                class_colour(t.class),
                t.turn_number,
                t.class.name(),
                t.error
            );
        }
    }
    h.push_str("</svg><figcaption>White's win probability after each turn (dots: marked errors).</figcaption></figure>\n");
}

/// Each roll's luck for its mover, as a bar above (lucky) or below (unlucky) the axis.
fn luck_bars(h: &mut String, g: &GameAnalysis) {
    let (width, height, pad) = (720.0, 120.0, 30.0);
    let n = g.turns.len().max(1);
    let bar = (width - 2.0 * pad) / n as f64;
    let mid = height / 2.0;
    // A very lucky roll (0.3) fills the half height.
    let scale = (height / 2.0 - 10.0) / super::classify::LUCK_THRESHOLDS[1];
    let _ = write!(
        h,
        "<figure><svg class=\"luck\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"Luck per roll\">\
         <line x1=\"{pad}\" x2=\"{}\" y1=\"{mid}\" y2=\"{mid}\" stroke=\"#999\"/>",
        width - pad
    );
    for (i, t) in g.turns.iter().enumerate() {
        let len = (t.luck.abs() * scale).min(mid - 2.0);
        let top = if t.luck >= 0.0 { mid - len } else { mid };
        let fill = if t.active_color == "w" {
            "#d9b36c"
        } else {
            "#444"
        };
        let _ = write!(
            h,
            "<rect x=\"{:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{len:.1}\" fill=\"{fill}\">\
             <title>turn {} ({}): luck {:+.3}</title></rect>",
            pad + bar * i as f64,
            (bar - 1.0).max(1.0),
            t.turn_number,
            dice_letters(&t.dice),
            t.luck
        );
    }
    h.push_str("</svg><figcaption>Luck per roll (light: White's rolls, dark: Black's; up is lucky for the roller).</figcaption></figure>\n");
}

fn turn_table(h: &mut String, g: &GameAnalysis) {
    h.push_str(
        "<table class=\"turns\"><tr><th>turn</th><th class=\"l\">side</th><th class=\"l\">dice</th>\
         <th class=\"l\">played</th><th class=\"l\">best</th><th>before</th><th>luck</th>\
         <th>best</th><th>played</th><th>error</th><th class=\"l\">class</th></tr>\n",
    );
    for t in &g.turns {
        let _ = writeln!(
            h,
            "<tr class=\"{}\"><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td>\
             <td class=\"l\">{}</td><td class=\"l\">{}</td><td>{:.3}</td><td>{:+.3}</td>\
             <td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td class=\"l\">{}</td></tr>",
            t.class.name(),
            t.turn_number,
            esc(&t.active_color),
            dice_letters(&t.dice),
            esc(&moves_text(&t.moves)),
            esc(&moves_text(&t.best_moves)),
            t.equity_before,
            t.luck,
            t.best_equity,
            t.played_equity,
            t.error,
            t.class.name()
        );
    }
    h.push_str("</table>\n");
}

fn marked_boards(h: &mut String, g: &GameAnalysis, index: usize) {
    let marked: Vec<&TurnAnalysis> = g.turns.iter().filter(|t| t.class.marked()).collect();
    if marked.is_empty() {
        h.push_str("<p>No marked errors.</p>\n");
        return;
    }
    h.push_str("<div class=\"boards\">\n");
    for t in marked {
        h.push_str("<figure class=\"marked\">");
        board_svg(h, t, &format!("g{index}t{}", t.turn_number));
        let _ = writeln!(
            h,
            "<figcaption>Turn {} ({}, {}): played <b style=\"color:#c0392b\">{}</b> ({:.3}), \
             best <b style=\"color:#1e8449\">{}</b> ({:.3}): {} {:.3}; king risk {:.3} vs {:.3}.</figcaption></figure>",
            t.turn_number,
            if t.active_color == "w" { "White" } else { "Black" },
            dice_letters(&t.dice),
            esc(&moves_text(&t.moves)),
            t.played_equity,
            esc(&moves_text(&t.best_moves)),
            t.best_equity,
            t.class.name(),
            t.error,
            t.king_risk,
            t.best_king_risk
        );
    }
    h.push_str("</div>\n");
}

/// The position before the turn, with the played (red) and best (green) micro-moves as
/// arrows.
fn board_svg(h: &mut String, t: &TurnAnalysis, id: &str) {
    let sq = 36.0;
    let size = sq * 8.0;
    let _ = write!(
        h,
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" \
         viewBox=\"0 0 {size} {size}\"><defs>\
         <marker id=\"{id}p\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#c0392b\"/></marker>\
         <marker id=\"{id}b\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"#1e8449\"/></marker></defs>"
    );
    for rank in 0..8 {
        for file in 0..8 {
            let light = (rank + file) % 2 == 0;
            let _ = write!(
                h,
                "<rect x=\"{}\" y=\"{}\" width=\"{sq}\" height=\"{sq}\" fill=\"{}\"/>",
                file as f64 * sq,
                rank as f64 * sq,
                if light { "#eed9b6" } else { "#b58863" }
            );
        }
    }
    let placement = t.fen_before.split(' ').next().unwrap_or("");
    for (r, row) in placement.split('/').take(8).enumerate() {
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else if file < 8 {
                let _ = write!(
                    h,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{:.0}\" text-anchor=\"middle\">{}</text>",
                    (file as f64 + 0.5) * sq,
                    (r as f64 + 0.82) * sq,
                    sq * 0.85,
                    glyph(c)
                );
                file += 1;
            }
        }
    }
    for (moves, colour, marker) in [
        (&t.moves, "#c0392b", format!("{id}p")),
        (&t.best_moves, "#1e8449", format!("{id}b")),
    ] {
        for m in moves {
            if let (Some(from), Some(to)) = (
                square_centre(m.get(0..2), sq),
                square_centre(m.get(2..4), sq),
            ) {
                let _ = write!(
                    h,
                    "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" \
                     stroke-width=\"4\" stroke-opacity=\"0.75\" marker-end=\"url(#{marker})\"/>",
                    from.0, from.1, to.0, to.1
                );
            }
        }
    }
    h.push_str("</svg>");
}

/// The centre of a square named in UCI (`e4`), White at the bottom.
fn square_centre(name: Option<&str>, sq: f64) -> Option<(f64, f64)> {
    let b = name?.as_bytes();
    let (f, r) = (b.first()?.checked_sub(b'a')?, b.get(1)?.checked_sub(b'1')?);
    (f < 8 && r < 8).then_some(((f as f64 + 0.5) * sq, (7.0 - r as f64 + 0.5) * sq))
}

fn glyph(c: char) -> &'static str {
    match c {
        'K' => "♔",
        'Q' => "♕",
        'R' => "♖",
        'B' => "♗",
        'N' => "♘",
        'P' => "♙",
        'k' => "♚",
        'q' => "♛",
        'r' => "♜",
        'b' => "♝",
        'n' => "♞",
        'p' => "♟",
        _ => "?",
    }
}

fn class_colour(c: TurnClass) -> &'static str {
    match c {
        TurnClass::VeryBad => "#c0392b",
        TurnClass::Bad => "#e67e22",
        _ => "#f1c40f",
    }
}

/// Faces as piece letters: `1 5 6` → `PQK`.
fn dice_letters(faces: &[u8]) -> String {
    faces
        .iter()
        .map(|f| match f {
            1 => 'P',
            2 => 'N',
            3 => 'B',
            4 => 'R',
            5 => 'Q',
            6 => 'K',
            _ => '?',
        })
        .collect()
}

fn moves_text(moves: &[String]) -> String {
    if moves.is_empty() {
        "pass".to_owned()
    } else {
        moves.join(" ")
    }
}

/// HTML text escaping.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_squares_are_placed() {
        assert_eq!(esc("<a href='x'>&"), "&lt;a href=&#39;x&#39;&gt;&amp;");
        assert_eq!(square_centre(Some("a1"), 10.0), Some((5.0, 75.0)));
        assert_eq!(square_centre(Some("h8"), 10.0), Some((75.0, 5.0)));
        assert_eq!(square_centre(Some("i9"), 10.0), None);
        assert_eq!(square_centre(None, 10.0), None);
        assert_eq!(dice_letters(&[1, 5, 6]), "PQK");
    }
}
