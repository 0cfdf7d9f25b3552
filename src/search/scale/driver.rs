//! Running the two-level search: worker threads that each take the
//! most-proving free leaf, search it with their own df-pn table, store what
//! they settled and hand the leaf's numbers back to the outer tree; and
//! the calling thread, which reports progress and writes checkpoints.

use super::checkpoint::{self, Totals};
use super::tree::{LeafOutcome, NodeId, OuterTree, initial_numbers};
use super::{ScaleConfig, ScaleStatus};
use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::search::dfpn::{DfPn, SearchResult, Settled};
use crate::search::engine::{Engine, Limits, SearchOptions};
use crate::search::guide::{Guide, Sums};
use crate::search::oracle::{Oracle, attacker_wins};
use crate::search::{Budget, Pn};
use crate::solved::{Record, Solved, SolvedStore, packed};
use crate::store::StoreError;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// The table of each thread's engine that orders outer nodes' moves.
const ENGINE_HASH_BYTES: usize = 16 << 20;

/// The engine's best `guide.engine_moves` moves in `pos` (a search of
/// `guide.engine_nodes` nodes, one line per move), best first.
fn engine_choice<P: Position>(engine: &Engine, pos: &P, guide: &Guide) -> Vec<Move> {
    let limits = Limits {
        nodes: Some(guide.engine_nodes.max(1)),
        ..Limits::default()
    };
    let options = SearchOptions {
        multipv: guide.engine_moves.max(1) as usize,
        ..SearchOptions::default()
    };
    let report = engine.search(pos, &[], &limits, &options, &mut |_| {});
    report
        .info
        .lines
        .iter()
        .filter_map(|line| line.pv.first().copied())
        .collect()
}

/// What the likely values did in this run, if they were on.
fn likely_note<P: Position>(tree: &OuterTree<P>, guide: &Guide) -> Option<String> {
    let start = guide.likely?.threshold;
    let now = tree.likely_threshold()?;
    Some(format!(
        "likely values: threshold {start} cp, raised {} times to {now} cp",
        tree.likely_raises
    ))
}

/// The engine's scores for `attacker` of the open `children` of a leaf (a
/// search of `nodes` nodes each; `None` for settled children), for a
/// guide's likely values.
fn likely_scores<P: Position>(
    engine: &Engine,
    children: &[(Move, P, Pn, Pn)],
    attacker: Color,
    nodes: u64,
) -> Vec<Option<i32>> {
    let limits = Limits {
        nodes: Some(nodes.max(1)),
        ..Limits::default()
    };
    children
        .iter()
        .map(|(_, pos, pn, dn)| {
            if pn.is_zero() || dn.is_zero() {
                return None;
            }
            let report = engine.search(pos, &[], &limits, &SearchOptions::default(), &mut |_| {});
            let value = report.info.lines.first()?.value;
            Some(if pos.turn() == attacker {
                value
            } else {
                -value
            })
        })
        .collect()
}

/// The state the threads share, behind one lock.
struct Shared<P> {
    tree: OuterTree<P>,
    /// Nodes searched by finished leaf searches of this run.
    used: u64,
    /// Nodes promised to leaf searches still running.
    reserved: u64,
    leaf_searches: u64,
    oracle_hits: u64,
    error: Option<StoreError>,
    /// Why the search stopped early, if it did for a reason other than a budget.
    halt: Option<String>,
    /// Nodes the earlier runs of this search spent (from its checkpoint).
    earlier_nodes: u64,
}

/// How one phase (one attacker) of the search ended.
pub(super) struct PhaseEnd<P> {
    pub result: SearchResult,
    pub nodes: u64,
    pub earlier_nodes: u64,
    pub leaf_searches: u64,
    pub outer_nodes: usize,
    pub root_numbers: (Pn, Pn),
    pub checkpoint: Option<PathBuf>,
    pub resumed: bool,
    pub oracle_hits: u64,
    pub notes: Vec<String>,
    /// With [`Phase::split`]: the open leaves chosen for jobs.
    pub frontier: Vec<FrontierLeaf<P>>,
}

/// An open leaf of the outer tree, chosen for a batch job.
#[derive(Clone, Debug)]
pub struct FrontierLeaf<P> {
    /// The moves from the searched position to the leaf.
    pub line: Vec<crate::moves::Move>,
    /// The leaf's position.
    pub pos: P,
    /// Its proof and disproof numbers.
    pub numbers: (Pn, Pn),
}

/// Everything a phase works with.
pub(super) struct Phase<'a, P: Position> {
    pub root: &'a P,
    pub attacker: Color,
    pub store: &'a SolvedStore,
    pub oracle: Option<&'a dyn Oracle<P>>,
    pub config: &'a ScaleConfig,
    pub started: Instant,
    /// Nodes already spent by earlier phases of this run.
    pub spent: u64,
    /// Stop once the outer tree offers this many distinct leaves worth
    /// searching ([`OuterTree::spread`]), and return them.
    pub split: Option<usize>,
}

impl<P: Position> Phase<'_, P> {
    /// What the store says of `pos` for the attacker: wins, has no forced
    /// win, or nothing known.
    fn known(&self, pos: &P) -> Option<bool> {
        self.store
            .get(pos.zobrist())
            .and_then(|s| s.attacker_wins(self.attacker, pos.turn()))
    }

    /// What the rules, the tables or the store say of `pos` for the
    /// attacker: wins, has no forced win, or nothing known. Never the
    /// checkpoint: it is only a guide to where the proof stands.
    fn settled_value(&self, pos: &P) -> Option<bool> {
        if let Some(outcome) = pos.outcome() {
            return Some(outcome.winner == Some(self.attacker));
        }
        if let Some(oracle) = self.oracle
            && let Some(wins) = attacker_wins(oracle, pos, self.attacker)
        {
            return Some(wins);
        }
        self.known(pos)
    }

    /// Whether the attacker wins `pos` by the rules, the tables or the store.
    fn known_win(&self, pos: &P) -> bool {
        self.settled_value(pos) == Some(true)
    }

    /// The checkpoint this search resumes and writes, in the store's
    /// folder for them (a batch job's: its staging folder, where the
    /// store's tree of its position was copied).
    fn checkpoint_path(&self) -> Option<PathBuf> {
        let name = checkpoint::file_name(self.root.zobrist(), self.attacker);
        self.store.checkpoints().map(|d| d.join(name))
    }

    fn time_left(&self) -> Option<Duration> {
        self.config
            .budget
            .max_time
            .map(|t| t.saturating_sub(self.started.elapsed()))
    }

    fn interrupted(&self) -> bool {
        self.config.budget.stop.is_some_and(|s| s.is_raised())
            || self.time_left().is_some_and(|t| t.is_zero())
    }

    /// Runs the phase until the root is settled, a budget runs out or the
    /// search is interrupted.
    pub(super) fn run(
        &self,
        progress: &mut dyn FnMut(&ScaleStatus),
    ) -> Result<PhaseEnd<P>, StoreError> {
        let path = self.checkpoint_path();
        let loaded = match &path {
            Some(p) => checkpoint::load(p, self.root, self.attacker)?,
            None => None,
        };
        let resumed = loaded.is_some();
        let (mut tree, earlier) = loaded.unwrap_or_else(|| {
            (
                OuterTree::new(self.root.clone(), self.attacker, (Pn::ONE, Pn::ONE)),
                Totals::default(),
            )
        });
        tree.guide = self.config.guide.clone();
        // A resumed search goes on watching where its checkpoint stopped.
        tree.sums_switch.arm(self.config.guide.sums);
        if tree.sums_switch.switched() {
            tree.set_sums(Sums::Plain);
        }
        let (mut reopened, mut unpruned) = (0, 0);
        if resumed {
            // Other processes may have added to the store since (merged
            // shards of batch jobs): open leaves it settles take its value.
            // A leaf the checkpoint marks proved that the store no longer
            // holds (a log that lost records) is open again, and the
            // proved inner nodes the store lacks are recorded again, each
            // only over children the store holds.
            let refreshed = tree.refresh(|pos| self.settled_value(pos));
            (reopened, unpruned) = (refreshed.reopened, refreshed.unpruned);
            self.record_proved(&tree, &tree.proved_internal())?;
        }
        let shared = Mutex::new(Shared {
            tree,
            used: 0,
            reserved: 0,
            leaf_searches: 0,
            oracle_hits: 0,
            error: None,
            halt: None,
            earlier_nodes: earlier.nodes,
        });
        let wake = Condvar::new();
        let threads = self.config.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(1 << 30)
            .build()
            .map_err(|e| StoreError::Io {
                path: "threads".into(),
                error: std::io::Error::other(e.to_string()),
            })?;
        let save = |s: &Shared<P>| -> Result<(), StoreError> {
            self.store.flush()?;
            if let Some(p) = &path {
                let totals = Totals {
                    nodes: earlier.nodes + s.used,
                    leaf_searches: earlier.leaf_searches + s.leaf_searches,
                    seconds: earlier.seconds + self.started.elapsed().as_secs_f64(),
                };
                checkpoint::save(p, &s.tree, &totals)?;
            }
            Ok(())
        };
        std::thread::scope(|scope| -> Result<(), StoreError> {
            let workers = scope.spawn(|| {
                pool.scope(|ps| {
                    for _ in 0..threads {
                        ps.spawn(|_| self.worker(&shared, &wake));
                    }
                })
            });
            let mut last_save = Instant::now();
            let mut last_report = Instant::now();
            while !workers.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if last_report.elapsed() >= Duration::from_secs(1) {
                    last_report = Instant::now();
                    let status = self.status(
                        &shared.lock().unwrap_or_else(|e| e.into_inner()),
                        &earlier,
                        path.is_some() && resumed,
                    );
                    progress(&status);
                }
                if last_save.elapsed() >= self.config.checkpoint_every {
                    last_save = Instant::now();
                    let s = shared.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(e) = save(&s) {
                        drop(s);
                        shared.lock().unwrap_or_else(|e| e.into_inner()).error = Some(e);
                    }
                }
            }
            workers.join().map_err(|_| StoreError::Io {
                path: "threads".into(),
                error: std::io::Error::other("a search thread panicked"),
            })?;
            Ok(())
        })?;
        let mut s = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        let status = self.status(&s, &earlier, resumed);
        progress(&status);
        let result = SearchResult::of_root(s.tree.root_numbers().0, s.tree.root_numbers().1);
        if result == SearchResult::Proved {
            self.store.flush()?;
            if let Some(p) = &path {
                let _ = std::fs::remove_file(p);
            }
        } else {
            save(&s)?;
        }
        let frontier = match self.split {
            Some(n) if result == SearchResult::Unknown => s
                .tree
                .spread(n)
                .into_iter()
                .map(|id| {
                    let node = &s.tree.nodes[id as usize];
                    FrontierLeaf {
                        line: s.tree.line_to(id),
                        pos: node.pos.clone(),
                        numbers: (node.pn, node.dn),
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        Ok(PhaseEnd {
            frontier,
            result,
            nodes: s.used,
            earlier_nodes: earlier.nodes,
            leaf_searches: earlier.leaf_searches + s.leaf_searches,
            outer_nodes: s.tree.nodes.len(),
            root_numbers: s.tree.root_numbers(),
            checkpoint: path.filter(|p| p.exists()),
            resumed,
            oracle_hits: s.oracle_hits,
            notes: (reopened > 0)
                .then(|| {
                    format!(
                        "{reopened} leaves the checkpoint marked proved are not settled in the store (records lost from its log?): searched again"
                    )
                })
                .into_iter()
                .chain((unpruned > 0).then(|| {
                    format!(
                        "{unpruned} leaves the checkpoint marked as disproved by a no-win rule this run does not use: searched again"
                    )
                }))
                .chain(likely_note(&s.tree, &self.config.guide))
                .chain(s.tree.sums_switch.note())
                .chain(s.halt)
                .collect(),
        })
    }

    fn status(&self, s: &Shared<P>, earlier: &Totals, resumed: bool) -> ScaleStatus {
        let (pn, dn) = s.tree.root_numbers();
        ScaleStatus {
            attacker: self.attacker,
            elapsed: self.started.elapsed(),
            nodes: self.spent + s.used,
            earlier_nodes: earlier.nodes,
            root_pn: pn,
            root_dn: dn,
            outer_nodes: s.tree.nodes.len(),
            leaf_searches: earlier.leaf_searches + s.leaf_searches,
            store_began_with: self.store.began_with(),
            store_positions: self.store.len(),
            store_added: self.store.added(),
            store_bytes: self.store.disk_bytes(),
            resumed,
        }
    }

    /// One thread: take a leaf, search it, hand back what was learned.
    fn worker(&self, shared: &Mutex<Shared<P>>, wake: &Condvar) {
        let per_thread = self.config.budget.hash_bytes / self.config.threads.max(1);
        let mut search = DfPn::<P>::new(
            self.attacker,
            &Budget {
                hash_bytes: per_thread,
                ..Budget::default()
            },
        )
        .with_store(Some(self.store))
        .with_oracle(self.oracle)
        .with_guide(Some(&self.config.guide))
        .collect_settled(self.config.store_min_work);
        let engine = (self.config.guide.engine_moves > 0).then(|| Engine::new(ENGINE_HASH_BYTES));
        let likely = self.config.guide.likely;
        let scorer = likely.map(|_| Engine::new(ENGINE_HASH_BYTES));
        loop {
            let Some((leaf, pos, ancestors, reserve, plain)) = self.take_leaf(shared, wake) else {
                shared.lock().unwrap_or_else(|e| e.into_inner()).oracle_hits +=
                    search.oracle_hits();
                wake.notify_all();
                return;
            };
            if plain {
                search.set_sums(Sums::Plain);
            }
            let budget = Budget {
                max_nodes: reserve,
                max_time: self.time_left(),
                hash_bytes: per_thread,
                stop: self.config.budget.stop,
            };
            let result = search.search_leaf(&pos, &ancestors, &budget);
            let nodes = search.nodes();
            let (outcome, records) = self.learn(&mut search, &pos, result, nodes);
            let preferred = match (&outcome, &engine) {
                (LeafOutcome::Expanded(_), Some(engine)) if pos.turn() == self.attacker => {
                    engine_choice(engine, &pos, &self.config.guide)
                }
                _ => Vec::new(),
            };
            let scores = match (&outcome, &scorer, likely) {
                (LeafOutcome::Expanded(children), Some(scorer), Some(likely)) => {
                    likely_scores(scorer, children, self.attacker, likely.nodes)
                }
                _ => Vec::new(),
            };
            let stored = self.store.record(&records);
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            s.used += nodes;
            s.reserved -= reserve;
            s.leaf_searches += 1;
            if let Err(e) = stored {
                s.error = Some(e);
                s.tree.release(leaf);
            } else {
                if !preferred.is_empty() {
                    s.tree.prefer(leaf, preferred);
                }
                let proved = s.tree.apply_scored(leaf, outcome, &scores);
                if let Err(e) = self.record_proved(&s.tree, &proved) {
                    s.error = Some(e);
                }
                let (root_pn, _) = s.tree.root_numbers();
                // Counted over the runs of this search, as its checkpoint
                // keeps the watch.
                let searched = s.earlier_nodes + s.used;
                if s.tree.sums_switch.observe(root_pn, searched) {
                    s.tree.set_sums(Sums::Plain);
                }
            }
            if self.store.refused() > 0 && s.halt.is_none() {
                s.halt = Some(format!(
                    "the store's memory is full ({} positions): raise --store-memory to go on",
                    self.store.len()
                ));
            }
            drop(s);
            wake.notify_all();
        }
    }

    /// The next leaf to search, with the line to it and its node budget;
    /// `None` once the search is over for this thread.
    fn take_leaf(
        &self,
        shared: &Mutex<Shared<P>>,
        wake: &Condvar,
    ) -> Option<(NodeId, P, Vec<u64>, u64, bool)> {
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if s.tree.settled() || s.error.is_some() || s.halt.is_some() || self.interrupted() {
                return None;
            }
            let max = self.config.budget.max_nodes.saturating_sub(self.spent);
            let free = max.saturating_sub(s.used + s.reserved);
            if free == 0 {
                return None;
            }
            if let Some(n) = self.split
                && s.tree.spread(n).len() >= n
            {
                return None;
            }
            if let Some(id) = s.tree.select() {
                let reserve = free.min(self.config.leaf_nodes);
                s.reserved += reserve;
                let pos = s.tree.nodes[id as usize].pos.clone();
                let ancestors = s.tree.ancestors(id);
                return Some((id, pos, ancestors, reserve, s.tree.sums_switch.switched()));
            }
            if s.tree.nodes[0].busy == 0 {
                return None;
            }
            s = wake
                .wait_timeout(s, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// What a leaf search taught: the leaf's outcome for the outer tree and
    /// the records for the store (children first).
    fn learn(
        &self,
        search: &mut DfPn<'_, P>,
        pos: &P,
        result: SearchResult,
        nodes: u64,
    ) -> (LeafOutcome<P>, Vec<Record>) {
        let mut settled = search.take_settled();
        let mut children = Vec::new();
        match result {
            SearchResult::Proved => settled.push(Settled {
                pos: pos.clone(),
                proved: true,
                work: nodes.min(u64::from(u32::MAX)) as u32,
            }),
            SearchResult::Disproved => {}
            SearchResult::Unknown => {
                children = search.child_numbers(pos);
                for (_, child, pn, _) in &children {
                    if pn.is_zero() && !self.known_win(child) {
                        settled.push(Settled {
                            pos: child.clone(),
                            proved: true,
                            work: 1,
                        });
                    }
                }
            }
        }
        let records = search.proof_records(&settled).records;
        // Records reach the store before the outer tree relies on them; a
        // proof that could not be read off is searched again instead.
        let stored_win = |p: &P| {
            self.known_win(p)
                || records.iter().any(|r| {
                    r.key == p.zobrist()
                        && r.value.attacker_wins(self.attacker, p.turn()) == Some(true)
                })
        };
        let outcome = match result {
            SearchResult::Proved if stored_win(pos) => LeafOutcome::Settled(Pn::ZERO, Pn::INFINITE),
            SearchResult::Disproved if search.disproof_is_pruned(pos.zobrist()) => {
                LeafOutcome::Pruned
            }
            SearchResult::Disproved => LeafOutcome::Settled(Pn::INFINITE, Pn::ZERO),
            _ => {
                if children.is_empty() {
                    children = search.child_numbers(pos);
                }
                for (_, child, pn, dn) in &mut children {
                    if pn.is_zero() && !stored_win(child) {
                        (*pn, *dn) = initial_numbers(
                            child,
                            self.attacker,
                            &self.config.guide,
                            search.root_depth() + 1,
                        );
                    }
                }
                LeafOutcome::Expanded(children)
            }
        };
        (outcome, records)
    }

    /// Records in the store the nodes `proved` (children first) that it
    /// does not hold yet, one at a time, each only over children the
    /// rules, the tables or the store settle ([`Phase::internal_record`]).
    fn record_proved(&self, tree: &OuterTree<P>, proved: &[NodeId]) -> Result<(), StoreError> {
        for &id in proved {
            if self.known(&tree.nodes[id as usize].pos) == Some(true) {
                continue;
            }
            if let Some(record) = self.internal_record(tree, id) {
                self.store.record(std::slice::from_ref(&record))?;
            }
        }
        Ok(())
    }

    /// The store record of an outer node that its children proved, if the
    /// rules, the tables or the store settle those children: the winning
    /// move's child where the attacker moves, every child where the
    /// defender moves. Nothing is recorded as a win on the tree's word.
    fn internal_record(&self, tree: &OuterTree<P>, id: NodeId) -> Option<Record> {
        let node = &tree.nodes[id as usize];
        let child_won = |c: &NodeId| self.known_win(&tree.nodes[*c as usize].pos);
        let size = 1;
        let value = if tree.is_or(id) {
            let mv = tree.proved_move(id)?;
            let child = node
                .children
                .iter()
                .find(|&&c| tree.nodes[c as usize].mv == Some(mv))?;
            if !child_won(child) {
                return None;
            }
            Solved::win(mv, size)
        } else {
            if !node.children.iter().all(child_won) {
                return None;
            }
            Solved::loss(size)
        };
        Some(Record {
            key: node.hash,
            value,
            position: packed::pack(&node.pos),
        })
    }
}
