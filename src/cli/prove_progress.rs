//! `prove`'s progress: a live line on a terminal (indicatif), a plain line
//! every 10 s when stderr is not a terminal (every second with
//! `--progress`), JSON lines with `--progress-json`, nothing with `-q`.

use indicatif::{ProgressBar, ProgressStyle};
use ransom::proving::{RunObserver, StatusLine};
use ransom::search::scale::ScaleStatus;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Where progress goes.
pub struct ProgressDisplay {
    bar: Option<ProgressBar>,
    json: bool,
    quiet: bool,
    plain_every: Option<Duration>,
    last_plain: Instant,
    /// No warnings either (`-q`).
    silent: bool,
}

impl ProgressDisplay {
    /// `quiet`: nothing but notes on errors; `every_second`: plain lines
    /// each second; `json`: JSON lines.
    pub fn new(quiet: bool, every_second: bool, json: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && !json && terminal && !every_second).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let plain_every = (!quiet && !json && bar.is_none()).then(|| {
            if every_second {
                Duration::ZERO
            } else {
                Duration::from_secs(10)
            }
        });
        ProgressDisplay {
            bar,
            json,
            quiet: quiet && !json,
            plain_every,
            last_plain: Instant::now(),
            silent: false,
        }
    }

    /// Without warnings (`-q`).
    pub fn silent(mut self, silent: bool) -> Self {
        self.silent = silent;
        self
    }
}

impl RunObserver for ProgressDisplay {
    /// A line for the user, above the live line.
    fn note(&mut self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(format!("note: {text}")),
            None if !self.quiet && !self.json => errln!("note: {text}"),
            None => {}
        }
    }

    fn warn(&mut self, text: &str) {
        if !self.silent {
            match &self.bar {
                Some(bar) => bar.println(format!("warning: {text}")),
                None => errln!("warning: {text}"),
            }
        }
    }

    /// Shows a status: JSON lines, the live line, or a plain line now and then.
    fn status(&mut self, s: &ScaleStatus) {
        let line = StatusLine::of(s);
        if self.json {
            errln!("{}", serde_json::to_string(&line).unwrap_or_default());
            return;
        }
        let text = line.to_string();
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        } else if let Some(every) = self.plain_every
            && self.last_plain.elapsed() >= every
        {
            self.last_plain = Instant::now();
            errln!("{text}");
        }
    }

    /// Removes the live line.
    fn finish(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
