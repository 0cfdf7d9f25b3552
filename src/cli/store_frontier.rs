//! `ransom store frontier LINE`: the open positions of the checkpointed
//! search of a line that hold its root back most, with their lines,
//! numbers, men on the board and the engine's view, so that a person can
//! choose what to steer next (`prove --book`).

use super::game::state_json;
use ransom::board::Color;
use ransom::notation::{fen, san, uci};
use ransom::search::engine::Engine;
use ransom::search::mate::line_san;
use ransom::search::scale::checkpoint;
use ransom::search::scale::frontier::{EngineView, Frontier, engine_view, frontier};
use ransom::solved::{CHECKPOINTS_DIR, DEFAULT_DIR, variant_dir};
use ransom::{Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom store frontier`.
#[derive(Debug, clap::Args)]
pub struct FrontierArgs {
    /// Moves (SAN or UCI) from the start to the searched position: the
    /// line given to `prove`.
    moves: Vec<String>,
    /// Position the moves start from (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Variant.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// The store whose checkpoint to read (as given to `prove --store`).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    store: PathBuf,
    /// How many positions to list.
    #[arg(long, default_value_t = 10, value_parser = super::checks::parse_at_least_one::<usize>)]
    top: usize,
    /// Only the search for this side's win (default: every checkpointed one).
    #[arg(long, value_parser = ["white", "black"])]
    attacker: Option<String>,
    /// Nodes of the engine's search of each listed position (0: none).
    #[arg(long, default_value_t = 200_000)]
    engine_nodes: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &FrontierArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let start = super::checks::start_position(variant, args.fen.as_deref())?;
    dispatch!(start, p => list(p, args))
}

fn list<P: Position>(start: P, args: &FrontierArgs) -> anyhow::Result<ExitCode> {
    let (root, _) = super::checks::play_moves(start, &args.moves)?;
    let dir = variant_dir(&args.store, P::VARIANT).join(CHECKPOINTS_DIR);
    let sides: Vec<Color> = match args.attacker.as_deref() {
        Some(name) => Color::from_name(name).into_iter().collect(),
        None => vec![root.turn(), !root.turn()],
    };
    let engine = Engine::new(16 << 20);
    let mut searches = Vec::new();
    for attacker in sides {
        let path = dir.join(checkpoint::file_name(root.zobrist(), attacker));
        let Some((tree, totals)) = checkpoint::load(&path, &root, attacker)? else {
            continue;
        };
        let Frontier {
            open,
            entries: listed,
        } = frontier(&tree, args.top);
        let views: Vec<Option<EngineView>> = listed
            .iter()
            .map(|e| {
                (args.engine_nodes > 0)
                    .then(|| engine_view(&engine, &e.pos, attacker, args.engine_nodes))
            })
            .collect();
        searches.push((
            attacker,
            path,
            tree.root_numbers(),
            tree.nodes.len(),
            totals.nodes,
            open,
            listed,
            views,
        ));
    }
    if searches.is_empty() {
        anyhow::bail!(
            "no checkpointed search of {} in {} (run `ransom prove` on this line with --store {} first; a finished search leaves no checkpoint)",
            fen::write(&root),
            dir.display(),
            args.store.display()
        );
    }
    if args.json {
        let mut out = state_json(&root);
        out["searches"] = searches
            .iter()
            .map(
                |(attacker, path, (pn, dn), outer, nodes, open, listed, views)| {
                    serde_json::json!({
                        "attacker": attacker.name(),
                        "checkpoint": path.display().to_string(),
                        "root_pn": pn.get(),
                        "root_dn": dn.get(),
                        "outer_nodes": outer,
                        "nodes": nodes,
                        "open_leaves": open,
                        "frontier": listed.iter().zip(views).map(|(e, v)| {
                            let mut entry = serde_json::json!({
                                "line": e.line.iter().map(|&m| uci::write(m)).collect::<Vec<_>>(),
                                "san": line_san(&root, &e.line),
                                "fen": fen::write(&e.pos),
                                "pn": e.numbers.0.get(),
                                "dn": e.numbers.1.get(),
                                "slack": e.slack,
                                "men": e.men,
                            });
                            if let Some(v) = v {
                                entry["engine"] = serde_json::json!({
                                    "score": v.score.uci(),
                                    "best": v.best.map(uci::write),
                                    "nodes": v.nodes,
                                });
                            }
                            entry
                        }).collect::<Vec<_>>(),
                    })
                },
            )
            .collect::<Vec<_>>()
            .into();
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    for (attacker, path, (pn, dn), outer, nodes, open, listed, views) in &searches {
        println!(
            "{} to prove a win from {} ({}): root pn {pn} dn {dn}, {} nodes searched, outer tree {outer} nodes, {open} open leaves",
            super::checks::capitalised(attacker.name()),
            fen::write(&root),
            path.display(),
            nodes
        );
        println!(
            "  #  slack       pn       dn  men  engine (for {})   line",
            attacker.name()
        );
        for (i, (e, v)) in listed.iter().zip(views).enumerate() {
            let engine = match v {
                Some(v) => format!(
                    "{:>9} {:<7}",
                    v.score.uci(),
                    v.best.map(|m| san::write(&e.pos, m)).unwrap_or_default()
                ),
                None => format!("{:17}", "-"),
            };
            println!(
                "{:>3}  {:>5} {:>8} {:>8}  {:>3}  {engine}        {}",
                i + 1,
                e.slack,
                e.numbers.0.to_string(),
                e.numbers.1.to_string(),
                e.men,
                line_san(&root, &e.line)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
