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

/// Progress as a plain line every so often (for logs, where a live bar
/// cannot be drawn): the count, its share and the time left, what is
/// being done, and the time so far.
#[derive(Clone, Debug)]
pub struct PlainProgress {
    /// What is being done ("tb build").
    pub label: String,
    /// Whether steps are counted (else only the message and the time).
    pub counting: bool,
    /// Steps in all, if known.
    pub total: Option<u64>,
    /// Steps done.
    pub position: u64,
    /// Steps counted as done that took no time (left out of the rate).
    pub baseline: u64,
    /// What is being done now.
    pub message: String,
    started: std::time::Instant,
    last: std::time::Instant,
}

impl PlainProgress {
    /// Progress of `label`, counting steps or not, over `total` if known.
    pub fn new(label: &str, counting: bool, total: Option<u64>) -> PlainProgress {
        let now = std::time::Instant::now();
        PlainProgress {
            label: label.to_string(),
            counting,
            total,
            position: 0,
            baseline: 0,
            message: String::new(),
            started: now,
            last: now,
        }
    }

    /// The line now, if `every` has passed since the last one.
    pub fn due(&mut self, every: std::time::Duration) -> Option<String> {
        if self.last.elapsed() < every {
            return None;
        }
        self.last = std::time::Instant::now();
        Some(self.line())
    }

    /// The line now.
    pub fn line(&self) -> String {
        self.line_after(self.started.elapsed().as_secs_f64())
    }

    /// The line when `elapsed` seconds have passed.
    pub fn line_after(&self, elapsed: f64) -> String {
        let mut parts = Vec::new();
        match self.total {
            Some(total) if total > 0 => {
                let done = self.position.min(total) as f64 / total as f64;
                let mut count = format!("{}/{total} ({:.1}%)", self.position, 100.0 * done);
                // The rate of this run's own work gives the time left.
                let worked = self.position.min(total).saturating_sub(self.baseline);
                if worked > 0 && done < 1.0 {
                    let left = total - self.position.min(total);
                    count += &format!(", ETA {:.0} s", elapsed * left as f64 / worked as f64);
                }
                parts.push(count);
            }
            _ if self.counting => parts.push(self.position.to_string()),
            _ => {}
        }
        if !self.message.is_empty() {
            parts.push(self.message.clone());
        }
        parts.push(format!("({elapsed:.0} s)"));
        format!("{}: {}", self.label, parts.join("  "))
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
