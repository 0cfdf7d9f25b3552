//! `uci` and `setoption`: the options the session offers and reads.

use super::{CommandError, Reply, Session, error};
use crate::Variant;
use crate::search::MAX_HASH_MB;
use std::path::PathBuf;
use std::time::Duration;

/// The most threads and lines the options take.
const MAX_THREADS: usize = 256;
const MAX_MULTIPV: usize = 256;
/// The default `Move Overhead`, in ms.
pub(super) const DEFAULT_OVERHEAD_MS: u64 = 30;
/// The default `Hash`, in MB.
pub(super) const DEFAULT_HASH_MB: usize = 256;

/// The answer to `uci`: the engine's name and its options, then `uciok`.
pub(super) fn identify() -> Vec<String> {
    let variants: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    vec![
        format!("id name ransom {}", env!("CARGO_PKG_VERSION")),
        "id author the ransom developers".into(),
        format!(
            "option name UCI_Variant type combo default chess {}",
            variants.join(" ")
        ),
        format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        format!("option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"),
        "option name Tablebases type string default tablebases".into(),
        "option name Proofs type string default proofs".into(),
        format!(
            "option name Store type string default {}",
            crate::solved::DEFAULT_DIR
        ),
        "uciok".into(),
    ]
}

/// A spin option's value: a whole number from `min` to `max`.
fn spin(value: &str, min: usize, max: usize) -> Result<usize, CommandError> {
    match value.trim().parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(CommandError(format!(
            "needs a whole number from {min} to {max}, not '{value}'"
        ))),
    }
}

impl Session {
    /// `setoption name NAME [value VALUE]`.
    pub(super) fn set_option(&mut self, line: &str) -> Reply {
        let rest = line.strip_prefix("setoption").unwrap_or("").trim();
        let Some(rest) = rest.strip_prefix("name") else {
            return error("expected 'setoption name NAME value VALUE'");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let done = Reply::Lines(Vec::new());
        match name.to_ascii_lowercase().as_str() {
            // Other programs' `giveaway` is antichess with castling; this
            // project's antichess has none (RULES A3): refused, not mixed up.
            "uci_variant" if value.eq_ignore_ascii_case("giveaway") => error(
                "UCI_Variant giveaway (antichess with castling, as other programs define it) is not supported: antichess here has no castling (RULES A3); use antichess",
            ),
            "uci_variant" => match value.parse::<Variant>() {
                Ok(v) => {
                    self.variant = v;
                    self.new_game_position();
                    done
                }
                Err(e) => error(e),
            },
            "hash" => match spin(value, 1, MAX_HASH_MB) {
                Ok(mb) => {
                    self.hash_mb = mb;
                    self.engine = None;
                    done
                }
                Err(_) => error(format!(
                    "Hash '{value}': the table size must be 1 to {MAX_HASH_MB} MB"
                )),
            },
            "threads" => match spin(value, 1, MAX_THREADS) {
                Ok(n) => {
                    self.threads = n;
                    done
                }
                Err(e) => error(format!("Threads {e}")),
            },
            "multipv" => match spin(value, 1, MAX_MULTIPV) {
                Ok(n) => {
                    self.multipv = n;
                    done
                }
                Err(e) => error(format!("MultiPV {e}")),
            },
            "move overhead" => match spin(value, 0, 5000) {
                Ok(ms) => {
                    self.move_overhead = Duration::from_millis(ms as u64);
                    done
                }
                Err(e) => error(format!("Move Overhead {e}")),
            },
            // GUIs send it whether or not it was offered; pondering is not
            // offered, so `go ponder` searches as a plain `go`.
            "ponder" => done,
            "tablebases" => self.set_knowledge_path(|s| &mut s.tablebases, value),
            "proofs" => self.set_knowledge_path(|s| &mut s.proofs, value),
            "store" => self.set_knowledge_path(|s| &mut s.store, value),
            _ => error(format!("unknown option '{name}'")),
        }
    }

    /// Sets one of the folders knowledge is read from; it is read again at
    /// the next `go` or `isready`.
    fn set_knowledge_path(
        &mut self,
        field: impl Fn(&mut Session) -> &mut PathBuf,
        value: &str,
    ) -> Reply {
        *field(self) = PathBuf::from(value);
        self.knowledge = None;
        Reply::Lines(Vec::new())
    }
}
