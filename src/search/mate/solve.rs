//! The `mate` driver: find a mate within the bound, then certify that it is
//! the shortest by disproving every shorter bound, read the solution off
//! the table and have the verifier check it before reporting it.

use super::search::{Bound, MateSearch};
use super::solution::{MateSolution, extract};
use super::split::{Keys, find_keys_split, key_left_out, search_root_split, verified_key};
use super::verify::{VerifiedMate, verify_mate};
use crate::moves::Move;
use crate::position::Position;
use crate::search::SearchResult;
use crate::search::budget::{Budget, Progress};
use crate::search::oracle::Oracle;
use std::time::{Duration, Instant};

/// What the mate solver established.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateStatus {
    /// A mate was found and verified.
    Mate,
    /// Proved: no mate within the bound.
    NoMate,
    /// A budget ran out first.
    Unknown,
}

impl MateStatus {
    /// `"mate"`, `"no-mate"` or `"unknown"`.
    pub fn name(self) -> &'static str {
        match self {
            MateStatus::Mate => "mate",
            MateStatus::NoMate => "no-mate",
            MateStatus::Unknown => "unknown",
        }
    }
}

/// What to solve for.
#[derive(Clone, Copy, Debug)]
pub struct MateOptions {
    /// The longest mate looked for, in attacker moves.
    pub max: Bound,
    /// List every first move that mates in the shortest length.
    pub all_keys: bool,
    /// Limits of the whole job (all bounds searched).
    pub budget: Budget,
    /// Threads for certifying a long mate's length (see
    /// [`SPLIT_MIN_BOUND`]); 1 searches on the calling thread only.
    pub threads: usize,
}

/// Everything the mate solver learned.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// The result.
    pub status: MateStatus,
    /// The mate length (attacker moves) of the verified solution.
    pub length: Option<Bound>,
    /// Whether no shorter mate exists (proved by disproving length − 1).
    pub shortest: bool,
    /// The key of the solution, or with `all_keys` every key that mates in
    /// `length` (in move-generator order).
    pub keys: Vec<Move>,
    /// The verified solution.
    pub solution: Option<MateSolution>,
    /// What the verifier measured.
    pub verified: Option<VerifiedMate>,
    /// With [`MateStatus::NoMate`]: the bound disproved.
    pub no_mate_within: Option<Bound>,
    /// Positions whose moves were generated.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Notes for the user (why a result is unknown or incomplete).
    pub notes: Vec<String>,
}

impl MateReport {
    /// A report with nothing learned yet: status unknown, no nodes.
    pub fn unknown() -> MateReport {
        MateReport {
            status: MateStatus::Unknown,
            length: None,
            shortest: false,
            keys: Vec::new(),
            solution: None,
            verified: None,
            no_mate_within: None,
            nodes: 0,
            elapsed: Duration::ZERO,
            notes: Vec::new(),
        }
    }
}

/// The shortest bound whose disproof (certifying a mate one move longer)
/// is searched root move by root move (`search_root_split`): shorter
/// ones take milliseconds, and one search over the whole root did as well
/// there.
pub const SPLIT_MIN_BOUND: Bound = 4;

/// Node budget of each restricted first pass.
const RESTRICTED_PASS_NODES: u64 = 4_000_000;

/// The restricted passes tried before the full-width search, as the number
/// of first attacker moves allowed to be quiet: checks only, then a quiet
/// first move. None without a royal king or for short bounds, where the
/// full-width search is cheap.
fn restricted_passes<P: Position>(max: Bound) -> Vec<Bound> {
    if !P::ONLY_CHECKMATE_WINS || max < 3 {
        Vec::new()
    } else {
        vec![0, 1]
    }
}

/// Solves "mate in at most `options.max`" for the side to move at `root`.
///
/// Bounds 1 and 2 are searched first (when 4 or more is asked for). In
/// variants with a royal king, passes then restrict the attacker to
/// checks (then allow a quiet first move): they find most long mates fast,
/// and any mate they find is real. The full-width search then either finds
/// a shorter mate or disproves every shorter bound, which certifies the
/// length; with no mate known it searches the bounds upwards, so the first
/// bound proved is the shortest.
pub fn solve_mate<P: Position>(
    root: &P,
    options: &MateOptions,
    progress: &mut dyn FnMut(&Progress),
) -> MateReport {
    solve_mate_with(root, options, None, progress)
}

/// [`solve_mate`] with endgame tables that rule mates out at the leaves
/// (Losing chess; see [`MateSearch::with_oracle`]).
pub fn solve_mate_with<P: Position>(
    root: &P,
    options: &MateOptions,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
) -> MateReport {
    solve_mate_streaming(root, options, oracle, progress, &mut |_| {})
}

/// [`solve_mate_with`] that also reports a mate as soon as one is found
/// and verified, before its length is certified: `on_found` gets a report
/// with status [`MateStatus::Mate`] and `shortest` false (it is not called
/// when the first mate found is already known to be the shortest; the
/// final report says so).
pub fn solve_mate_streaming<P: Position>(
    root: &P,
    options: &MateOptions,
    oracle: Option<&dyn Oracle<P>>,
    progress: &mut dyn FnMut(&Progress),
    on_found: &mut dyn FnMut(&MateReport),
) -> MateReport {
    let start = Instant::now();
    let mut report = MateReport::unknown();
    if let Some(outcome) = root.outcome() {
        report
            .notes
            .push(format!("the game is already over: {outcome}"));
        report.status = MateStatus::NoMate;
        report.no_mate_within = Some(options.max);
        return report;
    }
    let mut found: Option<(Bound, MateSolution)> = None;
    let mut disproved = 0;
    match search_short_bounds(root, options, oracle, start, &mut report) {
        Upwards::Mate(length, Some(solution)) => {
            report.shortest = true;
            found = Some((length, solution));
        }
        // Not read back: searched again below.
        Upwards::Mate(_, None) => {}
        Upwards::DisprovedUpTo(bound) => disproved = bound,
    }
    let passes = if found.is_some() {
        Vec::new()
    } else {
        restricted_passes::<P>(options.max)
    };
    for quiet_moves in passes {
        let pass_budget = Budget {
            max_nodes: options
                .budget
                .max_nodes
                .saturating_sub(report.nodes)
                .min(RESTRICTED_PASS_NODES),
            max_time: options
                .budget
                .max_time
                .map(|t| t.saturating_sub(start.elapsed())),
            hash_bytes: options.budget.hash_bytes / 2,
            ..options.budget
        };
        let mut pass = MateSearch::<P>::new(root.turn(), &pass_budget)
            .with_oracle(oracle)
            .quiet_moves_above(options.max - quiet_moves);
        if pass.search(root, options.max) == SearchResult::Proved {
            let length = pass.proved_bound(root.zobrist()).unwrap_or(options.max);
            found = extract(&mut pass, root, length).map(|solution| (length, solution));
        }
        report.nodes += pass.nodes();
        if let Some((length, solution)) = &found {
            announce(root, *length, solution, &report, start, on_found);
            break;
        }
    }
    // A long mate's length is certified root move by root move (on
    // several threads if asked), after its keys are found if they are
    // asked for.
    let mut settled_by_split = false;
    let mut split_keys = None;
    if let Some((length, solution)) = &found
        && *length > SPLIT_MIN_BOUND
        && !report.shortest
    {
        let mut candidates = root.legal_moves().to_vec();
        if options.all_keys {
            let budget = remaining_budget(options, &report, start);
            let keys = find_keys_split(root, *length, &budget, options.threads, oracle, progress);
            report.nodes += keys.nodes;
            let found_key = solution.get(root.zobrist()).map(|(mv, _)| mv);
            if keys.complete && found_key.is_some_and(|key| keys.keys.contains(&key)) {
                // Every other move is disproved within `length`, so within
                // any shorter bound: only the keys can hold a shorter mate.
                candidates = keys.keys.clone();
            }
            split_keys = Some(keys);
        }
        let budget = remaining_budget(options, &report, start);
        let (result, nodes) = search_root_split(
            root,
            &candidates,
            length - 1,
            &budget,
            options.threads,
            oracle,
            progress,
        );
        report.nodes += nodes;
        match result {
            SearchResult::Disproved => {
                report.shortest = true;
                settled_by_split = true;
            }
            // A shorter mate: the search below finds it (and its keys).
            SearchResult::Proved => split_keys = None,
            SearchResult::Unknown => {
                let note = budget_note(report.nodes, start.elapsed());
                report.notes.push(not_ruled_out(*length, &note));
                settled_by_split = true;
            }
        }
    }
    let budget = remaining_budget(options, &report, start);
    let mut search = MateSearch::<P>::new(root.turn(), &budget)
        .with_oracle(oracle)
        .with_progress(progress);
    match found {
        _ if settled_by_split || report.shortest => {}
        Some((length, solution)) => {
            if let Some(shorter) = find_shortest(&mut search, root, length - 1, &mut report, start)
            {
                found = Some(shorter);
            } else {
                found = Some((length, solution));
            }
        }
        // No mate known: the bounds upwards, the first proved the shortest.
        None => match search_upwards(&mut search, root, disproved + 1..=options.max) {
            Upwards::Mate(length, Some(solution)) => {
                report.shortest = true;
                found = Some((length, solution));
            }
            Upwards::Mate(length, None) => report.notes.push(format!(
                "the mate in {length} was proved but its solution could not be read back: {}",
                total_budget_note(&report, &search, start)
            )),
            Upwards::DisprovedUpTo(bound) if bound == options.max => {
                report.status = MateStatus::NoMate;
                report.no_mate_within = Some(options.max);
            }
            Upwards::DisprovedUpTo(bound) => {
                let note = total_budget_note(&report, &search, start);
                report.notes.push(if bound > 0 {
                    format!("no mate in {bound} or fewer (proved), then {note}")
                } else {
                    note
                });
            }
        },
    }
    if let Some((length, solution)) = found {
        accept(
            &mut search,
            root,
            options,
            length,
            solution,
            split_keys,
            &mut report,
        );
    }
    report.nodes += search.nodes();
    report.elapsed = start.elapsed();
    report
}

/// Node budget of the short bounds searched first ([`search_short_bounds`]).
const DEEPENING_NODES: u64 = 100_000;
/// The longest bound searched first ([`search_short_bounds`]).
const DEEPENING_MAX_BOUND: Bound = 2;

/// What searching the bounds upwards established.
enum Upwards {
    /// A mate within this bound, every smaller bound disproved, and its
    /// solution (`None` if it could not be read back from the table).
    Mate(Bound, Option<MateSolution>),
    /// Every bound up to this one is disproved; the next was not settled
    /// (budget) or the range ended.
    DisprovedUpTo(Bound),
}

/// Searches the bounds of `bounds` in turn, every bound below them being
/// disproved already: the first bound proved is then the shortest mate.
fn search_upwards<P: Position>(
    search: &mut MateSearch<'_, P>,
    root: &P,
    bounds: std::ops::RangeInclusive<Bound>,
) -> Upwards {
    let mut disproved = bounds.start().saturating_sub(1);
    for bound in bounds {
        match search.search(root, bound) {
            SearchResult::Disproved => disproved = bound,
            SearchResult::Proved => {
                let length = search.proved_bound(root.zobrist()).unwrap_or(bound);
                return Upwards::Mate(length, extract(search, root, length));
            }
            SearchResult::Unknown => break,
        }
    }
    Upwards::DisprovedUpTo(disproved)
}

/// With a bound of 4 or more asked for, bounds 1 and 2
/// ([`DEEPENING_MAX_BOUND`]) are searched first, with at most
/// [`DEEPENING_NODES`] nodes, so that a mate much shorter than the bound
/// asked for is found without searching that generous bound (where df-pn
/// can wander far before it looks at the short mate: a mate in 2 asked
/// with `--max 12` took 14.8 million nodes). Returns what it settled.
/// Bound 3 as well was tried and measured: it doubled the nodes of the
/// crazyhouse mates in 3 and added 30% to the chess mates in 5 when `--max`
/// is their exact length.
fn search_short_bounds<P: Position>(
    root: &P,
    options: &MateOptions,
    oracle: Option<&dyn Oracle<P>>,
    start: Instant,
    report: &mut MateReport,
) -> Upwards {
    // With a bound of 3 or less the bound itself is cheap to search.
    if options.max <= DEEPENING_MAX_BOUND + 1 {
        return Upwards::DisprovedUpTo(0);
    }
    let mut budget = remaining_budget(options, report, start);
    budget.max_nodes = budget.max_nodes.min(DEEPENING_NODES);
    let mut search = MateSearch::<P>::new(root.turn(), &budget).with_oracle(oracle);
    let upwards = search_upwards(&mut search, root, 1..=DEEPENING_MAX_BOUND);
    report.nodes += search.nodes();
    upwards
}

/// With a mate within `length + 1` known: looks for mates within `length`
/// and shorter until a bound is disproved (then `report.shortest` is set).
/// Returns the shortest solution found, if shorter than `length + 1`.
fn find_shortest<P: Position>(
    search: &mut MateSearch<'_, P>,
    root: &P,
    mut length: Bound,
    report: &mut MateReport,
    start: Instant,
) -> Option<(Bound, MateSolution)> {
    let hash = root.zobrist();
    let mut best = None;
    loop {
        if length == 0 {
            report.shortest = true;
            break;
        }
        match search.search(root, length) {
            SearchResult::Proved => {
                let proved = search.proved_bound(hash).unwrap_or(length);
                if let Some(solution) = extract(search, root, proved) {
                    best = Some((proved, solution));
                }
                length = proved - 1;
            }
            SearchResult::Disproved => {
                report.shortest = true;
                break;
            }
            SearchResult::Unknown => {
                report.notes.push(not_ruled_out(
                    length + 1,
                    &total_budget_note(report, search, start),
                ));
                break;
            }
        }
    }
    best
}

/// Verifies a mate found before its length is certified and, if sound,
/// hands `on_found` a report of it (`shortest` false).
fn announce<P: Position>(
    root: &P,
    length: Bound,
    solution: &MateSolution,
    report: &MateReport,
    start: Instant,
    on_found: &mut dyn FnMut(&MateReport),
) {
    let Ok(verified) = verify_mate(root, root.turn(), solution, length) else {
        // The final report says why the verifier rejected it.
        return;
    };
    let early = MateReport {
        status: MateStatus::Mate,
        length: Some(verified.length),
        shortest: false,
        keys: solution
            .get(root.zobrist())
            .map(|(mv, _)| mv)
            .into_iter()
            .collect(),
        solution: Some(solution.clone()),
        verified: Some(verified),
        elapsed: start.elapsed(),
        ..report.clone()
    };
    on_found(&early);
}

/// Verifies a solution and, if sound, makes it the report's answer. With
/// `all_keys`, the keys are `split_keys` when the split search found them
/// for this length, else they are searched here.
fn accept<P: Position>(
    search: &mut MateSearch<'_, P>,
    root: &P,
    options: &MateOptions,
    length: Bound,
    solution: MateSolution,
    split_keys: Option<Keys>,
    report: &mut MateReport,
) {
    match verify_mate(root, root.turn(), &solution, length) {
        Ok(verified) => {
            report.status = MateStatus::Mate;
            report.length = Some(verified.length);
            report.verified = Some(verified);
            let key = solution.get(root.zobrist()).map(|(mv, _)| mv);
            report.keys = key.into_iter().collect();
            if options.all_keys && report.shortest {
                report.keys = match split_keys {
                    Some(keys) if verified.length == length => {
                        report.notes.extend(keys.notes);
                        if !keys.complete {
                            report.notes.push(KEYS_INCOMPLETE.to_string());
                        }
                        keys.keys
                    }
                    _ => all_keys(search, root, verified.length, report),
                };
            }
            report.solution = Some(solution);
        }
        Err(e) => {
            report.shortest = false;
            report
                .notes
                .push(format!("the verifier rejected the solution: {e}"));
        }
    }
}

/// The note of a key list cut short.
const KEYS_INCOMPLETE: &str = "the list of keys is incomplete: a budget ran out";

/// Every first move that mates within `length`.
fn all_keys<P: Position>(
    search: &mut MateSearch<'_, P>,
    root: &P,
    length: Bound,
    report: &mut MateReport,
) -> Vec<Move> {
    let mut keys = Vec::new();
    for mv in root.legal_moves() {
        let mut child = root.clone();
        child.play_unchecked(mv);
        let child_bound = search.child_bound(root.turn(), &child, length);
        match search.search(&child, child_bound) {
            SearchResult::Proved => match verified_key(search, &child, child_bound) {
                Ok(()) => keys.push(mv),
                Err(why) => report.notes.push(key_left_out(mv, &why)),
            },
            SearchResult::Disproved => {}
            SearchResult::Unknown => {
                report.notes.push(KEYS_INCOMPLETE.to_string());
                break;
            }
        }
    }
    keys
}

/// The budget left after what `report` has spent since `start`.
fn remaining_budget(options: &MateOptions, report: &MateReport, start: Instant) -> Budget {
    Budget {
        max_nodes: options.budget.max_nodes.saturating_sub(report.nodes),
        max_time: options
            .budget
            .max_time
            .map(|t| t.saturating_sub(start.elapsed())),
        ..options.budget
    }
}

/// The note for a mate in `length` whose length is not certified.
fn not_ruled_out(length: Bound, why: &str) -> String {
    format!(
        "a mate in {length} was found, but a mate in {} is not ruled out: {why}",
        length - 1
    )
}

/// Why a search stopped: its budget, after `nodes` nodes and `elapsed`.
fn budget_note(nodes: u64, elapsed: Duration) -> String {
    format!(
        "budget exhausted after {nodes} nodes and {:.1} s",
        elapsed.as_secs_f64()
    )
}

/// [`budget_note`] with the whole solve's effort: the nodes counted so far
/// in `report` and those of `search`, which is not yet added to them.
fn total_budget_note<P: Position>(
    report: &MateReport,
    search: &MateSearch<'_, P>,
    start: Instant,
) -> String {
    budget_note(report.nodes + search.nodes(), start.elapsed())
}
