//! The words of a `go` command.

use super::CommandError;
use crate::analysis::think::GoLimits;
use std::time::Duration;

/// The numbers a `go` command gives (those the engine reads).
pub(super) struct GoOptions {
    pub limits: GoLimits,
    pub mate: Option<u64>,
    pub perft: Option<u64>,
}

/// The words of `go` that take a number.
const GO_NUMBERS: [&str; 10] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "perft",
];
/// The words of `go` that take nothing.
const GO_FLAGS: [&str; 2] = ["infinite", "ponder"];

impl GoOptions {
    /// Reads them; a key without a whole number after it is an error, not
    /// ignored.
    pub fn parse(words: &[&str]) -> Result<GoOptions, CommandError> {
        let value = |key: &str| go_number::<u64>(words, key);
        let ms = |key: &str| value(key).map(|v| v.map(Duration::from_millis));
        let small = |key: &str| -> Result<Option<u32>, CommandError> {
            value(key)?
                .map(|v| {
                    u32::try_from(v).map_err(|_| CommandError(format!("go {key} {v} is too large")))
                })
                .transpose()
        };
        // A clock may go below zero in some GUIs: read it as no time left.
        let clock = |key: &str| {
            go_number::<i64>(words, key)
                .map(|v| v.map(|v| Duration::from_millis(v.max(0).unsigned_abs())))
        };
        let search_moves = match words.iter().position(|w| *w == "searchmoves") {
            Some(i) => words[i + 1..]
                .iter()
                .take_while(|w| !GO_NUMBERS.contains(w) && !GO_FLAGS.contains(w))
                .map(|w| w.to_string())
                .collect(),
            None => Vec::new(),
        };
        Ok(GoOptions {
            limits: GoLimits {
                wtime: clock("wtime")?,
                btime: clock("btime")?,
                winc: ms("winc")?,
                binc: ms("binc")?,
                moves_to_go: small("movestogo")?,
                movetime: ms("movetime")?,
                depth: small("depth")?,
                nodes: value("nodes")?,
                infinite: words.contains(&"infinite"),
                search_moves,
            },
            mate: value("mate")?,
            perft: value("perft")?,
        })
    }
}

/// The number after `key` in a `go` command's words, if `key` is there.
fn go_number<T: std::str::FromStr>(words: &[&str], key: &str) -> Result<Option<T>, CommandError> {
    let Some(i) = words.iter().position(|w| *w == key) else {
        return Ok(None);
    };
    match words.get(i + 1) {
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| CommandError(format!("go {key} needs a whole number, not '{v}'"))),
        None => Err(CommandError(format!("go {key} needs a number"))),
    }
}
