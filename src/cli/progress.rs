//! [`Progress`]: how every long command shows how far it is. On a terminal
//! an indicatif bar (or a spinner when the amount of work is not known),
//! with the elapsed time and, for a bar, the ETA; when stderr is not a
//! terminal, a plain line every 10 s (logs of batch jobs); with `-q`,
//! nothing. Lines printed through it appear above the bar.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ransom::text::PlainProgress;
use std::io::IsTerminal;
use std::time::Duration;

/// How often a plain line is written when stderr is not a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// A bar, a spinner, periodic plain lines, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: Option<PlainProgress>,
    /// See [`Progress::set_baseline`].
    baseline: u64,
}

impl Progress {
    /// Progress of `label` over `total` steps (`None`: not known, a
    /// spinner), hidden when `quiet`.
    pub fn new(label: &str, total: Option<u64>, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress::with_target(label, Some(total), quiet, terminal)
    }

    /// A spinner for work that counts nothing (its message and the elapsed
    /// time only), hidden when `quiet`.
    pub fn busy(label: &str, quiet: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress::with_target(label, None, quiet, terminal)
    }

    /// As [`Progress::new`] (`counts: Some(total)`) or [`Progress::busy`]
    /// (`counts: None`), told whether stderr is a terminal.
    fn with_target(
        label: &str,
        counts: Option<Option<u64>>,
        quiet: bool,
        terminal: bool,
    ) -> Progress {
        let total = counts.flatten();
        if quiet {
            return Progress {
                bar: None,
                plain: None,
                baseline: 0,
            };
        }
        if !terminal {
            return Progress {
                bar: None,
                plain: Some(PlainProgress::new(label, counts.is_some(), total)),
                baseline: 0,
            };
        }
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
        };
        bar.set_style(match counts {
            None => busy_style(),
            Some(_) => style(total.is_some()),
        });
        bar.set_prefix(label.to_owned());
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress {
            bar: Some(bar),
            plain: None,
            baseline: 0,
        }
    }

    /// The number of steps, once known.
    pub fn set_length(&mut self, total: u64) {
        if let Some(bar) = &self.bar {
            if bar.length().is_none() {
                bar.set_style(style(true));
            }
            bar.set_length(total);
        }
        if let Some(plain) = &mut self.plain {
            plain.total = Some(total);
        }
    }

    /// Steps done so far.
    pub fn set_position(&mut self, position: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(position);
        }
        if let Some(plain) = &mut self.plain {
            plain.position = position;
        }
        self.tick_plain();
    }

    /// Steps counted as done that took no time (work found already done,
    /// such as the tables a resumed build finds): left out of the rate that
    /// gives the ETA.
    pub fn set_baseline(&mut self, baseline: u64) {
        if let Some(plain) = &mut self.plain {
            plain.baseline = baseline;
        }
        if let Some(bar) = &self.bar
            && baseline != self.baseline
        {
            bar.reset_eta();
        }
        self.baseline = baseline;
    }

    /// One more step done.
    pub fn inc(&mut self, steps: u64) {
        let position = self.position() + steps;
        self.set_position(position);
    }

    fn position(&self) -> u64 {
        match (&self.bar, &self.plain) {
            (Some(bar), _) => bar.position(),
            (None, Some(plain)) => plain.position,
            (None, None) => 0,
        }
    }

    /// What is being done now (shown after the bar).
    pub fn set_message(&mut self, message: impl Into<String>) {
        let message = message.into();
        if let Some(bar) = &self.bar {
            bar.set_message(message);
        } else if let Some(plain) = &mut self.plain {
            plain.message = message;
            self.tick_plain();
        }
    }

    /// Writes a plain line when [`PLAIN_EVERY`] has passed since the last.
    fn tick_plain(&mut self) {
        if let Some(line) = self.plain.as_mut().and_then(|p| p.due(PLAIN_EVERY)) {
            errln!("{line}");
        }
    }

    /// A line for the user on stderr, above the bar.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => errln!("{line}"),
        }
    }

    /// Runs `f` (which writes to stdout or stderr) with the bar taken off
    /// the screen, so that its lines do not mix with the bar.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A spinner's look: what is being done and the elapsed time.
fn busy_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} {prefix} [{elapsed}] {wide_msg}")
        .expect("a valid progress template")
}

/// The bar's look: counted (bar, count, percent, ETA) or a spinner.
fn style(counted: bool) -> ProgressStyle {
    let template = if counted {
        "{spinner} {prefix} [{bar:25}] {human_pos}/{human_len} ({percent}%) [{elapsed}, ETA {eta}] {wide_msg}"
    } else {
        "{spinner} {prefix} {human_pos} [{elapsed}] {wide_msg}"
    };
    ProgressStyle::with_template(template)
        .expect("a valid progress template")
        .progress_chars("=> ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_give_the_count_the_share_and_an_eta() {
        let mut p = Progress::with_target("verify", Some(Some(200)), false, false);
        p.set_position(50);
        p.set_message("game 7");
        let line = p.plain.as_ref().unwrap().line();
        assert!(line.starts_with("verify: 50/200 (25.0%), ETA "), "{line}");
        assert!(line.contains("  game 7  ("), "{line}");
    }

    #[test]
    fn work_found_done_is_left_out_of_the_eta() {
        let mut p = Progress::with_target("tb build", Some(Some(200)), false, false);
        // A resumed build: half the positions are in tables found built.
        p.set_baseline(100);
        p.set_position(100);
        let line = p.plain.as_ref().unwrap().line_after(10.0);
        assert!(!line.contains("ETA"), "no rate before any work: {line}");
        // 50 positions in 10 s: the 50 left take 10 s more (not 3 s).
        p.set_position(150);
        let line = p.plain.as_ref().unwrap().line_after(10.0);
        assert!(line.contains("(75.0%), ETA 10 s"), "{line}");
    }

    #[test]
    fn quiet_shows_nothing_and_counts_nothing() {
        let mut p = Progress::with_target("build", Some(Some(10)), true, true);
        p.inc(3);
        assert!(p.bar.is_none() && p.plain.is_none());
        assert_eq!(p.position(), 0);
    }

    #[test]
    fn an_unknown_length_gives_a_plain_count() {
        let mut p = Progress::with_target("mate", Some(None), false, false);
        p.inc(5);
        p.inc(2);
        assert_eq!(
            p.plain.as_ref().unwrap().line().split("  ").next(),
            Some("mate: 7")
        );
    }

    #[test]
    fn busy_lines_give_the_message_and_the_time() {
        let mut p = Progress::with_target("store verify", None, false, false);
        p.set_message("antichess");
        let line = p.plain.as_ref().unwrap().line();
        assert!(line.starts_with("store verify: antichess  ("), "{line}");
    }
}
