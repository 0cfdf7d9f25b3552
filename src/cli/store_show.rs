//! `ransom store show [LINE]`: the explorer's table in a terminal (every
//! legal move with what the store, the tables and the rules know after
//! it); `ransom store export LINE --pgn FILE`: the settled subtree below a
//! line as PGN, checked by the verifier first.

use ransom::analysis::{
    Exploration, Knowledge, ProofIndex, Standing, StoreShelf, explore, explorer_json, frontier_san,
    proof_from_stores,
};
use ransom::notation::fen;
use ransom::search::mate::line_san;
use ransom::{Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;

/// Where `show` and `export` look: the line and the stores.
#[derive(Debug, clap::Args)]
pub struct ShowTarget {
    /// Moves (SAN or UCI) from the start to the position.
    moves: Vec<String>,
    /// Position the moves start from (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Variant.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// The stores to read (as given to `prove --store`; repeat for several).
    #[arg(long = "store", value_name = "DIR", default_value = ransom::solved::DEFAULT_DIR)]
    stores: Vec<PathBuf>,
    /// Endgame tablebases (positions they cover count as settled).
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Do not use tablebases.
    #[arg(long)]
    no_tablebases: bool,
}

/// Arguments of `ransom store show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    target: ShowTarget,
    /// Print one JSON object (the service's explorer answer).
    #[arg(long)]
    json: bool,
}

/// Arguments of `ransom store export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    target: ShowTarget,
    /// The PGN file to write.
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
    /// The most positions where the winner moves that the proof may hold.
    #[arg(long, default_value_t = 100_000, value_parser = super::checks::parse_at_least_one::<usize>)]
    max_positions: usize,
    /// Write each position once (later meetings end at a comment) instead
    /// of every line to the end of the game.
    #[arg(long)]
    once: bool,
    /// No warnings on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

impl ShowTarget {
    /// The tables and the stores, read now.
    fn knowledge(&self) -> anyhow::Result<Knowledge> {
        for dir in &self.stores {
            if dir.exists() && !dir.is_dir() {
                anyhow::bail!("{}: not a store directory", dir.display());
            }
        }
        let (shelf, read) = StoreShelf::read(self.stores.clone());
        // A damaged store or checkpoint is named; the rest is still shown.
        for problem in read.problems {
            errln!("warning: {problem}");
        }
        let tables = (!self.no_tablebases).then_some(self.tablebases.as_path());
        Ok(Knowledge::new(tables, ProofIndex::default()).with_stores(shelf))
    }
}

pub fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.target.variant.parse()?;
    let start = super::checks::start_position(variant, args.target.fen.as_deref())?;
    let knowledge = args.target.knowledge()?;
    dispatch!(start, p => show_from(p, args, &knowledge))
}

fn show_from<P: Position + 'static>(
    start: P,
    args: &ShowArgs,
    knowledge: &Knowledge,
) -> anyhow::Result<ExitCode> {
    let (pos, line) = super::checks::play_moves(start.clone(), &args.target.moves)?;
    let exploration = explore(knowledge, &pos, ransom::analysis::MoveWindow::ALL);
    if args.json {
        let mut out = explorer_json(&pos, &exploration);
        out["line"] = line
            .iter()
            .map(|&m| ransom::notation::uci::write(m))
            .collect::<Vec<_>>()
            .into();
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stores: Vec<String> = knowledge
        .stores()
        .map(|s| s.summary())
        .unwrap_or_default()
        .iter()
        .filter(|s| s.variant == P::VARIANT)
        .map(|s| format!("{} ({} positions)", s.root.display(), s.positions))
        .collect();
    outln!(
        "{} {}({})",
        P::VARIANT.name(),
        if line.is_empty() {
            String::new()
        } else {
            format!("after {} ", line_san(&start, &line))
        },
        fen::write(&pos)
    )?;
    if stores.is_empty() {
        outln!("store: none found in the folders given")?;
    } else {
        outln!("store: {}", stores.join(", "))?;
    }
    outln!("{}", headline(&pos, &exploration))?;
    print_table(&exploration)?;
    for search in &exploration.searches {
        outln!(
            "checkpointed search of {}'s win: pn {} dn {}, {} nodes, {} outer nodes, {} open",
            search.attacker.name(),
            search.root_numbers.0,
            search.root_numbers.1,
            search.totals.nodes,
            search.outer_nodes,
            search.open
        )?;
        for f in &search.frontier {
            outln!(
                "  open: {} (pn {} dn {}, slack {}, {} men)",
                frontier_san(&pos, &f.moves).join(" "),
                f.numbers.0,
                f.numbers.1,
                f.slack,
                f.men
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `White to move: win (store, 4778 nodes), best b5`.
fn headline<P: Position>(pos: &P, exploration: &Exploration) -> String {
    let at = &exploration.position;
    let mut text = format!(
        "{} to move: {} ({}",
        super::checks::capitalised(pos.turn().name()),
        at.standing.name(),
        at.verdict.source.name()
    );
    if let Some(size) = at.size {
        text += &format!(", {size} nodes");
    }
    text.push(')');
    if let Some(best) = &exploration.best_san {
        text += &format!(", best {best}");
    }
    if let Some(outcome) = exploration.outcome {
        text += &format!(", game over: {outcome}");
    }
    text
}

/// The moves, one row each; columns that say nothing for any move are
/// left out.
fn print_table(exploration: &Exploration) -> std::io::Result<()> {
    let moves = &exploration.moves;
    if moves.is_empty() {
        return Ok(());
    }
    let has_size = moves.iter().any(|m| m.after.size.is_some());
    let has_reply = moves.iter().any(|m| m.best_san.is_some());
    let has_dtw = moves.iter().any(|m| m.after.verdict.dtw.is_some());
    let has_open = moves.iter().any(|m| !m.after.open.is_empty());
    let mut header = format!("  {:<8} {:<14} {:<10}", "move", "result", "source");
    if has_size {
        header += &format!(" {:>10}", "size");
    }
    if has_dtw {
        header += &format!(" {:>5}", "dtw");
    }
    if has_reply {
        header += &format!(" {:<8}", "reply");
    }
    if has_open {
        header += " numbers (pn/dn)";
    }
    outln!("{}", header.trim_end())?;
    for m in moves {
        let after = &m.after;
        let result = match (after.standing, m.outcome) {
            (Standing::Loss | Standing::Win, Some(_)) => format!("{} (end)", after.standing.name()),
            (standing, _) => standing.name().to_string(),
        };
        let mut row = format!(
            "  {:<8} {:<14} {:<10}",
            m.san,
            result,
            after.verdict.source.name()
        );
        if has_size {
            row += &format!(
                " {:>10}",
                after.size.map(|s| s.to_string()).unwrap_or_default()
            );
        }
        if has_dtw {
            row += &format!(
                " {:>5}",
                after.verdict.dtw.map(|d| d.to_string()).unwrap_or_default()
            );
        }
        if has_reply {
            row += &format!(" {:<8}", m.best_san.clone().unwrap_or_default());
        }
        if has_open {
            let numbers: Vec<String> = after
                .open
                .iter()
                .map(|o| format!("{} {}/{}", o.attacker.name(), o.pn, o.dn))
                .collect();
            row += &format!(" {}", numbers.join(", "));
        }
        outln!("{}", row.trim_end())?;
    }
    Ok(())
}

pub fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.target.variant.parse()?;
    let start = super::checks::start_position(variant, args.target.fen.as_deref())?;
    let knowledge = args.target.knowledge()?;
    dispatch!(start, p => export_from(p, args, &knowledge))
}

fn export_from<P: Position + 'static>(
    start: P,
    args: &ExportArgs,
    knowledge: &Knowledge,
) -> anyhow::Result<ExitCode> {
    let (pos, line) = super::checks::play_moves(start.clone(), &args.target.moves)?;
    let found = proof_from_stores(knowledge, &pos, args.max_positions)?;
    let proof = &found.proof;
    let stores = knowledge.stores();
    // The size of each defence's refutation: after every move of the
    // loser, where the winner is to move.
    let annotate = |hash: u64| {
        let value = stores?.lookup_key(P::VARIANT, hash)?;
        value
            .is_win()
            .then(|| format!("store: {} nodes", value.size()))
    };
    let event = format!(
        "ransom store: {} wins{}",
        proof.winner.name(),
        if line.is_empty() {
            String::new()
        } else {
            format!(" after {}", line_san(&start, &line))
        }
    );
    let warning = ransom::proving::write_pgn(
        &args.pgn,
        &proof.root,
        proof.winner,
        &|h| proof.moves.get(&h).copied(),
        &ransom::proving::PgnWriting {
            event: &event,
            full: !args.once,
            once_hint: "use --once",
            annotate: &annotate,
        },
    )?;
    if let Some(warning) = warning.filter(|_| !args.quiet) {
        errln!("warning: {warning}");
    }
    outln!(
        "wrote {}: {} wins; the verifier checked {} positions ({} winning moves, {} plies deep)",
        args.pgn.display(),
        proof.winner.name(),
        found.verified.positions,
        found.verified.winner_moves,
        found.verified.depth
    )?;
    Ok(ExitCode::SUCCESS)
}
