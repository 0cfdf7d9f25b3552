//! Small pieces of the reports' text: counts with their noun, sizes and
//! durations as people read them, how a position was reached.

use crate::Variant;

/// `n` and the noun that goes with it: "1 legal move", "2 legal moves".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A size in bytes with a binary prefix: "512 B", "1.50 KiB", "3.25 GiB".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

/// `seconds` as "7 s", "12 min" or "3.4 h".
pub fn human_duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// `name` with its first letter capitalised (`white` → `White`).
pub fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or(String::new(), |c| {
        c.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// How a position was reached, for messages: "antichess after e2e4 e7e6",
/// "antichess start position", or "antichess position given by FEN".
pub fn reached_by(variant: Variant, start_fen: &str, line: &[String]) -> String {
    if !line.is_empty() {
        return format!("{} after {}", variant.name(), line.join(" "));
    }
    let start = crate::AnyPosition::start(variant);
    let start_fen_of_variant = crate::dispatch!(start, p => crate::notation::fen::write(&p));
    if start_fen == start_fen_of_variant {
        format!("{} start position", variant.name())
    } else {
        format!("{} position given by FEN", variant.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_counts_read_well() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(3 << 30), "3.00 GiB");
        assert_eq!(counted(1u64, "ply", "plies"), "1 ply");
        assert_eq!(counted(2u64, "ply", "plies"), "2 plies");
        assert_eq!(
            reached_by(Variant::Antichess, "x", &["e2e4".into()]),
            "antichess after e2e4"
        );
    }
}
