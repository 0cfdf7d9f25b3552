//! `prove`'s progress: a live line on a terminal (indicatif), a plain line
//! every 10 s when stderr is not a terminal (every second with
//! `--progress`), JSON lines with `--progress-json`, nothing with `-q`.

use indicatif::{ProgressBar, ProgressStyle};
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
        }
    }

    /// A line for the user, above the live line.
    pub fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(format!("note: {text}")),
            None if !self.quiet && !self.json => errln!("note: {text}"),
            None => {}
        }
    }

    /// Shows a status.
    pub fn update(&mut self, s: &ScaleStatus) {
        if self.json {
            let line = serde_json::json!({
                "elapsed_s": s.elapsed.as_secs_f64(),
                "attacker": s.attacker.name(),
                "nodes": s.nodes,
                "earlier_nodes": s.earlier_nodes,
                "nodes_per_s": rate(s),
                "root_pn": s.root_pn.get(),
                "root_dn": s.root_dn.get(),
                "outer_nodes": s.outer_nodes,
                "leaf_searches": s.leaf_searches,
                "store_began_with": s.store_began_with,
                "store_positions": s.store_positions,
                "store_added": s.store_added,
                "store_bytes": s.store_bytes,
                "resumed": s.resumed,
            });
            errln!("{line}");
            return;
        }
        let text = line(s);
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
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn rate(s: &ScaleStatus) -> f64 {
    s.nodes as f64 / s.elapsed.as_secs_f64().max(1e-9)
}

fn line(s: &ScaleStatus) -> String {
    format!(
        "{:>7.1}s  {} win?  {} nodes  {:.0} nodes/s  root pn {} dn {}  outer tree {}  store {} positions (began with {}, +{} records) {}",
        s.elapsed.as_secs_f64(),
        s.attacker.name(),
        s.nodes,
        rate(s),
        s.root_pn,
        s.root_dn,
        s.outer_nodes,
        s.store_positions,
        s.store_began_with,
        s.store_added,
        indicatif::HumanBytes(s.store_bytes)
    )
}
