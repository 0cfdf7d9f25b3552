//! Walking every line of a Losing-chess proof PGN.

/// A PGN tree walker, as tools built on python-chess walk a file: every
/// line (main line and variations) replayed from the FEN tag; returns how
/// many lines end in a game the rules have decided and how many stop
/// before (at a transposition comment, say).
pub fn walk_pgn_lines(pgn: &str) -> (usize, usize) {
    use ransom::notation::{fen, san};
    use ransom::position::Position;
    use ransom::variants::Antichess;
    let fen_tag = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .expect("a FEN tag");
    let root: Antichess = fen::parse_position(fen_tag).unwrap();
    let movetext: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    // Comments dropped, brackets as tokens.
    let mut text = String::new();
    let mut in_comment = false;
    for c in movetext.chars() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            '(' | ')' if !in_comment => text.push_str(&format!(" {c} ")),
            _ if !in_comment => text.push(c),
            _ => {}
        }
    }
    let tokens: Vec<&str> = text
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .collect();
    fn line(tokens: &[&str], at: &mut usize, start: Antichess, ends: &mut (usize, usize)) {
        let mut before = start.clone();
        let mut pos = start;
        while *at < tokens.len() {
            match tokens[*at] {
                "(" => {
                    *at += 1;
                    line(tokens, at, before.clone(), ends);
                }
                ")" => {
                    *at += 1;
                    break;
                }
                "--" => panic!("no passes in Losing chess"),
                move_text => {
                    *at += 1;
                    let m =
                        san::parse(&pos, move_text).unwrap_or_else(|e| panic!("{move_text}: {e}"));
                    before = pos.clone();
                    pos.play_unchecked(m);
                }
            }
        }
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome_given(&legal).is_some() {
            ends.0 += 1;
        } else {
            ends.1 += 1;
        }
    }
    let mut ends = (0, 0);
    line(&tokens, &mut 0, root, &mut ends);
    ends
}
