//! `ransom prove`: proves who wins (Losing-chess openings first), writes
//! the verified proof to a proof table, optionally as PGN.

use super::game::state_json;
use ransom::notation::{fen, parse_move, san, uci};
use ransom::search::oracle::tablebase_oracle;
use ransom::search::{Budget, Progress, ProofMeta, Verdict, pgn, prove_with_oracle};
use ransom::{AnyPosition, Position, Variant, dispatch};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ransom prove`.
#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    /// Variant (antichess, suicide; chess and crazyhouse prove forced mates).
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// Position the moves start from (default: the variant's start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (SAN or UCI) played from the start to reach the position to prove.
    moves: Vec<String>,
    /// Stop after this many node expansions.
    #[arg(long, value_parser = super::checks::parse_at_least_one::<u64>)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_parser = super::checks::parse_seconds)]
    max_time: Option<f64>,
    /// Memory for the transposition table, in MB (1 to 65536).
    #[arg(long, default_value_t = 1024, value_parser = super::checks::parse_hash_mb)]
    hash: usize,
    /// Where to write the proof (default: proofs/<variant>-<moves>.proof).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the proof as PGN with variations to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Do not write a proof file.
    #[arg(long)]
    no_write: bool,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Progress lines on stderr even when it is not a terminal (for logs).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Endgame tablebases to settle positions at the leaves (Losing chess;
    /// used when the folder holds tables of the variant).
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Do not use tablebases.
    #[arg(long)]
    no_tablebases: bool,
}

pub fn run(args: &ProveArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let start = match &args.fen {
        None => AnyPosition::start(variant),
        Some(text) => AnyPosition::from_setup(variant, &fen::parse(text)?)?,
    };
    // Deep proofs recurse deeply: give the search a large stack.
    let args_owned = ProveArgsOwned::from(args);
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || dispatch!(start, p => prove_from(p, &args_owned)))?
        .join()
        .map_err(|_| anyhow::anyhow!("the prover thread panicked"))?
}

/// The arguments, owned, for the search thread.
struct ProveArgsOwned {
    moves: Vec<String>,
    budget: Budget,
    out: Option<PathBuf>,
    pgn: Option<PathBuf>,
    write: bool,
    progress: bool,
    force_progress: bool,
    json: bool,
    tablebases: Option<PathBuf>,
}

impl From<&ProveArgs> for ProveArgsOwned {
    fn from(a: &ProveArgs) -> Self {
        ProveArgsOwned {
            moves: a.moves.clone(),
            budget: Budget {
                max_nodes: a.max_nodes.unwrap_or(u64::MAX),
                max_time: a.max_time.map(Duration::from_secs_f64),
                hash_bytes: a.hash.saturating_mul(1 << 20),
                stop: None,
            },
            out: a.out.clone(),
            pgn: a.pgn.clone(),
            write: !a.no_write,
            progress: !a.quiet && !a.json,
            force_progress: a.progress,
            json: a.json,
            tablebases: (!a.no_tablebases).then(|| a.tablebases.clone()),
        }
    }
}

fn prove_from<P: Position>(start: P, args: &ProveArgsOwned) -> anyhow::Result<ExitCode> {
    let start_fen = fen::write(&start);
    let mut pos = start;
    let mut line_uci = Vec::new();
    for (i, text) in args.moves.iter().enumerate() {
        let m = parse_move(&pos, text).map_err(|e| {
            anyhow::anyhow!("move {} ('{text}'): {e} in {}", i + 1, fen::write(&pos))
        })?;
        line_uci.push(uci::write(m));
        pos.play_unchecked(m);
    }
    let root_fen = fen::write(&pos);
    let proof_path = args.write.then(|| {
        args.out
            .clone()
            .unwrap_or_else(|| default_path::<P>(&line_uci, &root_fen))
    });
    for path in proof_path.iter().chain(&args.pgn) {
        super::checks::check_output_path(path)?;
    }
    let show_progress = args.force_progress || (args.progress && std::io::stderr().is_terminal());
    let mut on_progress = |p: &Progress| {
        if show_progress {
            let rate = p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "  {:>7.1}s  {:>12} nodes  {:>9.0} nodes/s  root pn {} dn {}  table {}",
                p.elapsed.as_secs_f64(),
                p.nodes,
                rate,
                p.root_pn,
                p.root_dn,
                p.table_entries
            );
        }
    };
    let oracle = args.tablebases.as_deref().and_then(tablebase_oracle::<P>);
    let report = prove_with_oracle(&pos, &args.budget, oracle.as_deref(), &mut on_progress);
    let winner = match report.verdict {
        Verdict::Win => Some(pos.turn()),
        Verdict::Loss => Some(!pos.turn()),
        Verdict::Unknown => None,
    };
    let mut proof_file = None;
    if let (Some(proof), Some(winner)) = (&report.proof, winner) {
        if let Some(path) = proof_path {
            let meta = ProofMeta {
                root_fen: root_fen.clone(),
                winner: winner.name().into(),
                start_fen: start_fen.clone(),
                line: line_uci.clone(),
            };
            proof.write(&path, &meta)?;
            proof_file = Some(path);
        }
        if let Some(pgn_path) = &args.pgn {
            let lookup = |h: u64| proof.moves.get(&h).copied();
            let event = format!("ransom proof: {} wins", winner.name());
            let text = pgn::proof_pgn(&proof.root, winner, &lookup, &event);
            ransom::store::write_atomically(pgn_path, text.as_bytes())?;
        }
    }
    let best_uci = report.best.map(uci::write);
    let best_san = report.best.map(|m| san::write(&pos, m));
    let time_ms = report.elapsed.as_millis() as u64;
    let positions = report.verified.map(|v| v.positions);
    if args.json {
        let mut out = state_json(&pos);
        out["result"] = report.verdict.name().into();
        out["winner"] = winner.map(|c| c.name()).into();
        out["best"] = best_uci.clone().into();
        out["proof_positions"] = positions.into();
        out["proof_depth"] = report.verified.map(|v| v.depth).into();
        out["verified"] = report.verified.is_some().into();
        out["nodes"] = report.nodes.into();
        out["tablebase_hits"] = report.oracle_hits.into();
        out["tablebases"] = oracle.is_some().into();
        out["time_ms"] = time_ms.into();
        out["proof_file"] = proof_file.as_ref().map(|p| p.display().to_string()).into();
        out["notes"] = report.notes.clone().into();
        outln!("{out}")?;
    } else {
        let line = if line_uci.is_empty() {
            "(start)".to_string()
        } else {
            line_uci.join(" ")
        };
        outln!("position: {root_fen}  [{} after {line}]", P::VARIANT.name())?;
        match (report.verdict, winner) {
            (Verdict::Unknown, _) | (_, None) => outln!("result: unknown")?,
            (verdict, Some(w)) => {
                outln!(
                    "result: {} for the side to move: {} wins (proved and verified)",
                    verdict.name(),
                    w.name()
                )?;
            }
        }
        if let (Some(u), Some(s)) = (&best_uci, &best_san) {
            outln!("best: {s} ({u})")?;
        }
        if let Some(v) = report.verified {
            outln!(
                "proof: {} positions, {} winner moves, longest line {} plies",
                v.positions,
                v.winner_moves,
                v.depth
            )?;
        }
        outln!(
            "nodes: {}, time: {:.3} s ({:.0} nodes/s)",
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9)
        )?;
        if oracle.is_some() {
            outln!("tablebase hits: {}", report.oracle_hits)?;
        }
        if let Some(path) = &proof_file {
            outln!("proof file: {}", path.display())?;
        }
        for note in &report.notes {
            outln!("note: {note}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Moves of the line that a default proof file name spells out; a longer
/// line is named by its first moves and a hash of the position.
const LINE_IN_NAME: usize = 16;

fn default_path<P: Position>(line: &[String], root_fen: &str) -> PathBuf {
    let hash = || format!("{:016x}", ransom::store::fnv1a64(root_fen.as_bytes()));
    let name = if line.is_empty() {
        hash()
    } else if line.len() > LINE_IN_NAME {
        // A long line would make a name the file system refuses.
        format!("{}-{}", line[..LINE_IN_NAME].join("-"), hash())
    } else {
        line.join("-")
    };
    PathBuf::from("proofs").join(format!("{}-{name}.proof", P::VARIANT.name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ransom::variants::Antichess;

    #[test]
    fn default_names_stay_short_for_long_lines() {
        let short: Vec<String> = ["e2e4", "b7b5"].map(String::from).to_vec();
        assert_eq!(
            default_path::<Antichess>(&short, "fen"),
            PathBuf::from("proofs/antichess-e2e4-b7b5.proof")
        );
        let long: Vec<String> = (0..240).map(|i| format!("m{i:03}x")).collect();
        let path = default_path::<Antichess>(&long, "fen");
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.len() < 160, "{name}");
        assert!(name.starts_with("antichess-m000x-m001x-"), "{name}");
        assert_ne!(path, default_path::<Antichess>(&long, "another fen"));
    }
}
