//! When a run with [`Sums::Switch`] changes from weak to plain sums: once
//! it has searched a given number of nodes since the root's proof number
//! last reached a new low.

use crate::search::Pn;
use crate::search::guide::Sums;

/// The progress a switching run watches. It belongs to the outer tree and
/// is kept in its checkpoint, so that a resumed search switches where an
/// uninterrupted one would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumsSwitch {
    /// Nodes without progress that make the switch (`None`: this run does
    /// not switch).
    after: Option<u64>,
    /// The root's lowest proof number so far.
    lowest: Pn,
    /// The search's nodes when it last fell.
    since: u64,
    /// The search's nodes when it switched.
    switched_at: Option<u64>,
}

impl Default for SumsSwitch {
    /// A watch that never switches, with no progress.
    fn default() -> Self {
        SumsSwitch {
            after: None,
            lowest: Pn::INFINITE,
            since: 0,
            switched_at: None,
        }
    }
}

impl SumsSwitch {
    /// Sets what this run switches by (a resumed search keeps the progress
    /// its checkpoint held; a run with other sums forgets it).
    pub fn arm(&mut self, sums: Sums) {
        match sums {
            Sums::Switch { after } => self.after = Some(after.max(1)),
            _ => *self = SumsSwitch::default(),
        }
    }

    /// The progress as a checkpoint keeps it: the lowest root proof
    /// number, the node it was reached at, the node of the switch.
    pub fn progress(&self) -> (Pn, u64, Option<u64>) {
        (self.lowest, self.since, self.switched_at)
    }

    /// A watch holding `progress` (from a checkpoint), not yet armed.
    pub fn with_progress(progress: (Pn, u64, Option<u64>)) -> SumsSwitch {
        let (lowest, since, switched_at) = progress;
        SumsSwitch {
            lowest,
            since,
            switched_at,
            ..SumsSwitch::default()
        }
    }

    /// Whether the run adds up plainly now.
    pub fn switched(&self) -> bool {
        self.switched_at.is_some()
    }

    /// Takes the root's proof number after a leaf search, with the run's
    /// `nodes` so far; true when this search makes the switch.
    pub fn observe(&mut self, root_pn: Pn, nodes: u64) -> bool {
        let Some(after) = self.after else {
            return false;
        };
        if self.switched() {
            return false;
        }
        if root_pn < self.lowest {
            self.lowest = root_pn;
            self.since = nodes;
            return false;
        }
        if nodes.saturating_sub(self.since) < after {
            return false;
        }
        self.switched_at = Some(nodes);
        true
    }

    /// What the report says of a switch, if one came.
    pub fn note(&self) -> Option<String> {
        let nodes = self.switched_at?;
        Some(format!(
            "sums: the root's proof number stayed at {} or more from node {} to node {nodes} of this search: plain sums from there on",
            self.lowest, self.since,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh watch armed for `sums`.
    fn watch_for(sums: Sums) -> SumsSwitch {
        let mut watch = SumsSwitch::default();
        watch.arm(sums);
        watch
    }

    #[test]
    fn switches_once_after_enough_nodes_without_progress() {
        let mut watch = watch_for(Sums::Switch { after: 300 });
        assert!(!watch.observe(Pn::new(10), 100));
        assert!(!watch.observe(Pn::new(12), 200));
        let restarted = !watch.observe(Pn::new(9), 300);
        assert!(restarted, "a new lowest restarts the count");
        assert!(!watch.observe(Pn::new(9), 400));
        assert!(!watch.observe(Pn::new(11), 599));
        assert!(watch.observe(Pn::new(10), 600));
        assert!(watch.switched());
        assert!(!watch.observe(Pn::new(10), 700), "it switches once");
        let note = watch.note().unwrap();
        assert!(
            note.contains("at 9 or more from node 300 to node 600"),
            "{note}"
        );
    }

    #[test]
    fn a_watch_rebuilt_from_its_progress_goes_on_where_it_was() {
        let mut watch = watch_for(Sums::Switch { after: 300 });
        assert!(!watch.observe(Pn::new(9), 100));
        let mut resumed = SumsSwitch::with_progress(watch.progress());
        resumed.arm(Sums::Switch { after: 300 });
        assert_eq!(resumed, watch);
        assert!(resumed.observe(Pn::new(9), 400));
        let mut switched = SumsSwitch::with_progress(resumed.progress());
        switched.arm(Sums::Switch { after: 300 });
        assert!(switched.switched(), "a switch made before the stop holds");
        switched.arm(Sums::Weak);
        assert!(!switched.switched(), "a run with other sums forgets it");
    }

    #[test]
    fn other_sums_never_switch() {
        let mut watch = watch_for(Sums::Weak);
        for n in 0..100 {
            assert!(!watch.observe(Pn::new(5), n * 1_000_000));
        }
        assert!(watch.note().is_none());
    }
}
