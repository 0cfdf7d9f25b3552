//! Mate suites: EPD lines with `bm #N` or `dm N`, or TSV files with a
//! header naming an `fen` column and a length column (`N` or `mate`).

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateCase {
    /// The `id` operation or column, else `line <n>`.
    pub id: String,
    /// The position as FEN (EPD's four fields are accepted).
    pub fen: String,
    /// Moves to play from the FEN first (a TSV FEN followed by `moves ...`).
    pub moves: Vec<String>,
    /// The stated mate length: positive when the side to move mates,
    /// negative when it is mated.
    pub expected: i32,
    /// The line number in the file.
    pub line: usize,
    /// The EPD `c1` operation (a theme or comment), if any.
    pub comment: Option<String>,
}

/// A line of a suite that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct SuiteError {
    /// The line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Reads every case of an EPD or TSV mate suite. Blank lines and lines
/// starting with `#` are skipped.
pub fn read_suite(text: &str) -> Result<Vec<MateCase>, SuiteError> {
    let lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let mut cases = Vec::new();
    let mut tsv_columns: Option<Vec<String>> = None;
    for (number, line) in lines {
        if line.contains('\t') {
            match &tsv_columns {
                None => {
                    tsv_columns = Some(
                        line.split('\t')
                            .map(|c| c.trim().to_ascii_lowercase())
                            .collect(),
                    );
                }
                Some(columns) => cases.push(tsv_case(columns, line, number)?),
            }
        } else {
            cases.push(epd_case(line, number)?);
        }
    }
    Ok(cases)
}

fn tsv_case(columns: &[String], line: &str, number: usize) -> Result<MateCase, SuiteError> {
    let error = |reason: String| SuiteError {
        line: number,
        reason,
    };
    let cells: Vec<&str> = line.split('\t').collect();
    let cell = |names: &[&str]| {
        names
            .iter()
            .find_map(|name| columns.iter().position(|c| c == name))
            .and_then(|i| cells.get(i).map(|c| c.trim()))
    };
    let fen_cell = cell(&["fen"]).ok_or_else(|| error("no 'fen' column".to_string()))?;
    let length =
        cell(&["n", "mate", "dm"]).ok_or_else(|| error("no 'N' or 'mate' column".to_string()))?;
    let expected = parse_length(length).ok_or_else(|| error(bad_length(length)))?;
    let (fen, moves) = match fen_cell.split_once(" moves ") {
        Some((fen, moves)) => (fen, moves.split_whitespace().map(str::to_string).collect()),
        None => (fen_cell, Vec::new()),
    };
    Ok(MateCase {
        id: cell(&["id"]).map_or_else(|| format!("line {number}"), str::to_string),
        fen: fen.to_string(),
        moves,
        expected,
        line: number,
        comment: cell(&["theme", "c1"]).map(str::to_string),
    })
}

fn epd_case(line: &str, number: usize) -> Result<MateCase, SuiteError> {
    let error = |reason: String| SuiteError {
        line: number,
        reason,
    };
    let segments = split_operations(line);
    let mut segments = segments.into_iter();
    let first = segments.next().unwrap_or_default();
    let tokens: Vec<&str> = first.split_whitespace().collect();
    // An operation code among the first four fields means the position is
    // short of fields: say so rather than miss the operation.
    let is_code = |t: &&str| matches!(*t, "bm" | "dm" | "id" | "pv" | "c0" | "c1" | "moves");
    if let Some(at) = tokens.iter().take(4).position(is_code) {
        return Err(error(format!(
            "expected four FEN fields before '{}', found {} ('{}')",
            tokens[at],
            at,
            tokens[..at].join(" ")
        )));
    }
    if tokens.len() < 4 {
        return Err(error(
            "expected a position of at least four FEN fields".to_string(),
        ));
    }
    // Four EPD fields, plus the two move counters when they are numbers.
    let mut fen_len = 4;
    while fen_len < 6
        && tokens
            .get(fen_len)
            .is_some_and(|t| t.parse::<u32>().is_ok())
    {
        fen_len += 1;
    }
    let fen = tokens[..fen_len].join(" ");
    if tokens.get(fen_len) == Some(&"moves") {
        return Err(error(
            "an EPD line takes no 'moves' after its position (a TSV's fen column may)".to_string(),
        ));
    }
    let first_op = tokens[fen_len..].join(" ");
    let mut expected = None;
    let mut id = None;
    let mut comment = None;
    for op in std::iter::once(first_op.as_str()).chain(segments) {
        let op = op.trim();
        let (code, operand) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operand = operand.trim();
        match code {
            "bm" if operand.starts_with('#') => {
                let length = &operand[1..];
                expected = Some(parse_length(length).ok_or_else(|| error(bad_length(op)))?);
            }
            "dm" => expected = Some(parse_length(operand).ok_or_else(|| error(bad_length(op)))?),
            "id" => id = Some(operand.trim_matches('"').to_string()),
            "c1" => comment = Some(operand.trim_matches('"').to_string()),
            _ => {}
        }
    }
    let expected = expected.ok_or_else(|| error("no 'bm #N' or 'dm N' operation".to_string()))?;
    Ok(MateCase {
        id: id.unwrap_or_else(|| format!("line {number}")),
        fen,
        moves: Vec::new(),
        expected,
        line: number,
        comment,
    })
}

/// Splits an EPD line at the `;` that end operations, not at those inside
/// quoted operands.
fn split_operations(line: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&line[start..]);
    parts
}

fn parse_length(text: &str) -> Option<i32> {
    text.trim().parse().ok().filter(|&n: &i32| n != 0)
}

/// The message for a mate length that does not read.
fn bad_length(text: &str) -> String {
    format!(
        "bad mate length in '{text}': expected a whole number other than 0 (negative: the side to move is mated)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_epd_and_tsv_suites() {
        let epd = "# comment\n7k/8/6KQ/8/8/8/8/8 w - - bm #1; id \"q\"; c1 \"a; b\";\n8/8/8/8/8/8/8/k6K b - - 0 1 dm -2;\n";
        let cases = read_suite(epd).unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].fen, "7k/8/6KQ/8/8/8/8/8 w - -");
        assert_eq!((cases[0].expected, cases[0].id.as_str()), (1, "q"));
        assert_eq!(cases[0].comment.as_deref(), Some("a; b"));
        assert_eq!(cases[1].fen, "8/8/8/8/8/8/8/k6K b - - 0 1");
        assert_eq!(cases[1].expected, -2);

        let tsv = "id\tN\tfen\nm1\t2\tk7/8/8/8/8/8/8/K7[Q] w - - 0 1 moves a1a2\n";
        let cases = read_suite(tsv).unwrap();
        assert_eq!(cases[0].moves, vec!["a1a2".to_string()]);
        assert_eq!(cases[0].expected, 2);
        assert_eq!(cases[0].id, "m1");
    }

    #[test]
    fn rejects_lines_without_a_length() {
        let err = read_suite("7k/8/6KQ/8/8/8/8/8 w - - bm Qg7;\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.reason.contains("bm #N"), "{err}");
    }

    #[test]
    fn a_short_position_or_moves_are_named_not_taken_for_a_missing_length() {
        let err = read_suite("bad fen here bm #2;\n").unwrap_err();
        assert!(
            err.reason
                .contains("expected four FEN fields before 'bm', found 3 ('bad fen here')"),
            "{err}"
        );
        let err = read_suite("7k/8/6KQ/8/8/8/8/8 w - - moves h6g7 dm 1;\n").unwrap_err();
        assert!(err.reason.contains("takes no 'moves'"), "{err}");
    }

    #[test]
    fn names_a_length_that_does_not_read() {
        for (suite, shown) in [
            ("7k/8/6KQ/8/8/8/8/8 w - - bm #0;\n", "'bm #0'"),
            ("7k/8/6KQ/8/8/8/8/8 w - - dm x;\n", "'dm x'"),
            ("N\tfen\n0\t7k/8/6KQ/8/8/8/8/8 w - - 0 1\n", "'0'"),
        ] {
            let err = read_suite(suite).unwrap_err();
            assert!(err.reason.contains(shown), "{err}");
            assert!(err.reason.contains("other than 0"), "{err}");
        }
    }
}
