//! A board diagram in text, as engines print for `d`: the eight ranks
//! with files and ranks marked, then the men held off the board
//! (crazyhouse holdings, Hostage airfields and prisons) and the FEN.
//! Drawn from the FEN, so it serves every variant alike.

/// The diagram of the position whose FEN is `fen` (as [`super::fen::write`]
/// writes it), one line a string.
pub fn diagram(fen: &str) -> Vec<String> {
    let placement = fen.split_whitespace().next().unwrap_or_default();
    let (board, held) = match placement.split_once('[') {
        Some((board, rest)) => (board, Some(rest.trim_end_matches(']'))),
        None => (placement, None),
    };
    let mut ranks: Vec<&str> = board.split('/').collect();
    // Holdings may also be written as a ninth rank.
    let ninth = (ranks.len() == 9).then(|| ranks.pop().unwrap_or_default());
    let mut lines = vec!["  +-----------------+".to_string()];
    for (i, rank) in ranks.iter().enumerate() {
        let mut row = String::new();
        for c in rank.chars() {
            match c {
                '1'..='8' => {
                    for _ in 0..c.to_digit(10).unwrap_or(0) {
                        row.push_str(" .");
                    }
                }
                '~' => {}
                _ => {
                    row.push(' ');
                    row.push(c);
                }
            }
        }
        lines.push(format!("{} |{row} |", 8 - i));
    }
    lines.push("  +-----------------+".into());
    lines.push("    a b c d e f g h".into());
    let shown = |men: &str| {
        if men.is_empty() {
            "-".to_string()
        } else {
            men.chars().map(String::from).collect::<Vec<_>>().join(" ")
        }
    };
    if let Some(text) = held.or(ninth) {
        match text.split_once('#') {
            Some((airfields, prisons)) => {
                lines.push(format!("airfields: {}", shown(airfields)));
                lines.push(format!("prisons:   {}", shown(prisons)));
            }
            None => lines.push(format!("in hand:   {}", shown(text))),
        }
    }
    lines.push(format!("fen: {fen}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_files_and_holdings_are_drawn() {
        let start = diagram("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start[1], "8 | r n b q k b n r |");
        assert_eq!(start[4], "5 | . . . . . . . . |");
        assert_eq!(start[10], "    a b c d e f g h");
        let house = diagram("8/8/8/8/8/8/8/K6k[Qp] w - - 0 1");
        assert!(house.contains(&"in hand:   Q p".to_string()), "{house:?}");
        let hostage = diagram("8/8/8/8/8/8/8/K6k[N#b] w - - 0 1");
        assert!(hostage.contains(&"airfields: N".to_string()));
        assert!(hostage.contains(&"prisons:   b".to_string()));
        let promoted = diagram("Q~7/8/8/8/8/8/8/K6k[] w - - 0 1");
        assert_eq!(promoted[1], "8 | Q . . . . . . . |");
        assert!(promoted.contains(&"in hand:   -".to_string()));
    }
}
