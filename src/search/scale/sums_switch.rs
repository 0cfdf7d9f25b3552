//! When a run with [`Sums::Switch`] changes from weak to plain sums: once
//! it has searched a given number of nodes since the root's proof number
//! last reached a new low.

use crate::search::Pn;
use crate::search::guide::Sums;

/// The progress a switching run watches.
#[derive(Clone, Debug)]
pub(super) struct SumsSwitch {
    /// Nodes without progress that make the switch.
    after: Option<u64>,
    /// The root's lowest proof number so far.
    lowest: Pn,
    /// The run's nodes when it last fell.
    since: u64,
    /// The run's nodes when it switched.
    switched_at: Option<u64>,
}

impl SumsSwitch {
    /// The watch for a run with `sums` (a no-op unless [`Sums::Switch`]).
    pub fn new(sums: Sums) -> SumsSwitch {
        SumsSwitch {
            after: match sums {
                Sums::Switch { after } => Some(after.max(1)),
                _ => None,
            },
            lowest: Pn::INFINITE,
            since: 0,
            switched_at: None,
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
            "sums: the root's proof number stayed at {} or more from node {} to node {nodes} of this run: plain sums from there on",
            self.lowest, self.since,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_once_after_enough_nodes_without_progress() {
        let mut watch = SumsSwitch::new(Sums::Switch { after: 300 });
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
    fn other_sums_never_switch() {
        let mut watch = SumsSwitch::new(Sums::Weak);
        for n in 0..100 {
            assert!(!watch.observe(Pn::new(5), n * 1_000_000));
        }
        assert!(watch.note().is_none());
    }
}
