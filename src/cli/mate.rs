//! `ransom mate`: the shortest forced mate of a position with its verified
//! solution tree, or a batch run over an EPD/TSV suite (`--epd`).

use super::mate_args::{DEFAULT_MAX, MateArgs};
use super::mate_batch;
use super::progress;
use ransom::analysis::{MateSolutionView, mate_report_json};
use ransom::search::Progress;
use ransom::search::leaf_oracle::leaf_oracle;
use ransom::search::mate::{MateReport, MateStatus, mate_report_text, solve_mate_streaming};
use ransom::{Position, Variant, dispatch};
use std::process::ExitCode;

pub fn run(args: &MateArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    if let Some(path) = &args.epd {
        return mate_batch::run(args, variant, path);
    }
    let start = super::arguments::start_position(variant, args.fen.as_deref())?;
    dispatch!(start, p => solve_one(p, args))
}

fn solve_one<P: Position>(start: P, args: &MateArgs) -> anyhow::Result<ExitCode> {
    let (pos, _) = super::arguments::play_moves(start, &args.moves)?;
    if let Some(path) = &args.pgn {
        super::arguments::check_output_path(path)?;
    }
    let max = args.max.unwrap_or(DEFAULT_MAX);
    let mut display = progress::Progress::new("mate", None, args.quiet || args.json || args.stream);
    let mut on_progress = |p: &Progress| {
        display.set_message(format!(
            "nodes, {:.0} nodes/s, table {}",
            p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9),
            p.table_entries
        ));
        display.set_position(p.nodes);
    };
    let oracle = leaf_oracle::<P>(args.tablebases.as_deref(), args.syzygy.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(dir) = &args.tablebases
        && ransom::search::oracle::tablebase_oracle::<P>(dir).is_none()
    {
        eprintln!(
            "note: --tablebases {}: no {} tables there; they are not used",
            dir.display(),
            P::VARIANT.name()
        );
    }
    // The JSON report, as `--json` prints it and each `--stream` line holds.
    let report_json = |report: &MateReport| {
        let view = MateSolutionView::of(&pos, report, args.tree_limit);
        mate_report_json(&pos, report, max, &view)
    };
    let mut on_found = |early: &MateReport| {
        if args.stream {
            let mut line = report_json(early);
            line["event"] = "found".into();
            let _ = outln!("{line}");
        } else if !args.quiet && !args.json {
            eprintln!(
                "found: mate in {} after {:.3} s, verified; proving that none is shorter",
                early.length.unwrap_or(0),
                early.elapsed.as_secs_f64()
            );
        }
    };
    let report = solve_mate_streaming(
        &pos,
        &args.options(max),
        oracle.as_deref(),
        &mut on_progress,
        &mut on_found,
    );
    display.finish();
    if let (Some(path), Some(solution)) = (&args.pgn, &report.solution) {
        let event = format!("Mate in {}", report.length.unwrap_or(0));
        let warning = ransom::proving::write_pgn(
            path,
            &pos,
            pos.turn(),
            &|h| solution.get(h).map(|(mv, _)| mv),
            &ransom::proving::PgnWriting::plain(&event, args.pgn_full),
        )?;
        if let Some(warning) = warning.filter(|_| !args.quiet) {
            errln!("warning: {warning}");
        }
    }
    if args.stream {
        let mut line = report_json(&report);
        line["event"] = "final".into();
        outln!("{line}")?;
    } else if args.json {
        outln!("{}", serde_json::to_string_pretty(&report_json(&report))?)?;
    } else {
        out!("{}", mate_report_text(&pos, &report, max, args.tree_limit))?;
    }
    Ok(match report.status {
        MateStatus::Unknown => ExitCode::from(2),
        _ => ExitCode::SUCCESS,
    })
}
