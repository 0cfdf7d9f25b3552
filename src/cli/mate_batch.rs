//! `ransom mate --epd FILE`: solves every position of a mate suite, one
//! line per position and a summary; exit 1 if any result disagrees with
//! the file, 2 if some stayed unknown.

use super::mate_args::MateArgs;
use super::progress::Progress;
use ransom::notation::{fen, parse_move, uci};
use ransom::search::mate::{MateCase, MateReport, MateStatus, Puzzle, read_suite, solve_mate};
use ransom::{AnyPosition, Position, Variant, dispatch};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// How one case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Agrees,
    Disagrees,
    Unknown,
}

pub fn run(args: &MateArgs, variant: Variant, path: &Path) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let cases = read_suite(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let selected: Vec<&MateCase> = cases
        .iter()
        .filter(|c| c.expected > 0)
        .filter(|c| args.up_to.is_none_or(|n| c.expected <= i32::from(n)))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    if selected.is_empty() {
        anyhow::bail!(
            "{}: no position with a mate for the side to move passes the filters",
            path.display()
        );
    }
    // Every line is read before any is solved, so that a bad line stops
    // the run before hours of solving, not after.
    let positions = selected
        .iter()
        .map(|case| {
            case_position(variant, case)
                .map_err(|e| anyhow::anyhow!("{} ({}): {e}", path.display(), where_in_file(case)))
        })
        .collect::<anyhow::Result<Vec<AnyPosition>>>()?;
    if let Some(out) = &args.out {
        super::checks::check_output_path(out)?;
    }
    let mut verdicts = Vec::new();
    let mut solved_lines = Vec::new();
    let mut times: Vec<(i32, f64)> = Vec::new();
    let mut nodes_total = 0u64;
    let mut secs_total = 0f64;
    if !args.json {
        outln!(
            "{:<12} {:>6} {:<34} {:<8} {:>12} {:>10}",
            "id",
            "stated",
            "result",
            "key",
            "nodes",
            "ms"
        )?;
    }
    let mut progress = Progress::new("mate --epd", Some(positions.len() as u64), args.quiet);
    for (case, pos) in selected.into_iter().zip(&positions) {
        progress.set_message(case.id.clone());
        let (verdict, report, key, epd) = dispatch!(pos, p => solve_case(p, args, case));
        progress.inc(1);
        let ms = report.elapsed.as_secs_f64() * 1000.0;
        nodes_total += report.nodes;
        secs_total += report.elapsed.as_secs_f64();
        times.push((case.expected, ms));
        progress.suspend(|| -> std::io::Result<()> {
            if args.json {
                outln!(
                    "{}",
                    json!({
                        "id": case.id, "stated": case.expected, "proven": report.status.name(),
                        "mate_in": report.length, "shortest": report.shortest, "key": key,
                        "nodes": report.nodes, "time_ms": ms, "agrees": verdict == Verdict::Agrees,
                    })
                )?;
            } else {
                let result = verdict_text(&report, case.expected as u16);
                let flag = match verdict {
                    Verdict::Agrees => "",
                    Verdict::Disagrees => "  DISAGREES",
                    Verdict::Unknown => "  UNKNOWN",
                };
                outln!(
                    "{:<12} {:>6} {:<34} {:<8} {:>12} {:>10.1}{flag}",
                    case.id,
                    case.expected,
                    result,
                    key,
                    report.nodes,
                    ms
                )?;
            }
            Ok(())
        })?;
        verdicts.push(verdict);
        if verdict == Verdict::Agrees {
            solved_lines.extend(epd);
        }
    }
    progress.finish();
    if let Some(out) = &args.out {
        let mut text = format!(
            "# Verified mate solutions ({} of {} positions). Regenerate with:\n# ransom mate -v {} --epd {}{} --out {}\n",
            solved_lines.len(),
            verdicts.len(),
            variant.name(),
            path.display(),
            regenerate_flags(args),
            out.display()
        );
        for line in &solved_lines {
            text.push_str(line);
            text.push('\n');
        }
        ransom::store::write_atomically(out, text.as_bytes())?;
    }
    let count = |v| verdicts.iter().filter(|&&x| x == v).count();
    let (agree, disagree, unknown) = (
        count(Verdict::Agrees),
        count(Verdict::Disagrees),
        count(Verdict::Unknown),
    );
    errln!(
        "{} positions: {agree} agree, {disagree} disagree, {unknown} unknown; {nodes_total} nodes in {secs_total:.2} s ({:.0} nodes/s)",
        verdicts.len(),
        nodes_total as f64 / secs_total.max(1e-9)
    );
    for (length, median) in medians(&times) {
        errln!("  mate in {length}: median {median:.1} ms");
    }
    Ok(if disagree > 0 {
        ExitCode::from(1)
    } else if unknown > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// A solved case: how it compares with the file, the report, the key in
/// UCI and, for a verified mate, its EPD line.
type Solved = (Verdict, MateReport, String, Option<String>);

/// The position `case` asks about: its FEN with its moves played.
fn case_position(variant: Variant, case: &MateCase) -> anyhow::Result<AnyPosition> {
    let mut pos = AnyPosition::from_setup(variant, &fen::parse(&case.fen)?)?;
    dispatch!(&mut pos, p => play_case(p, case)?);
    Ok(pos)
}

fn solve_case<P: Position>(pos: &P, args: &MateArgs, case: &MateCase) -> Solved {
    let stated = u16::try_from(case.expected).unwrap_or(u16::MAX);
    let max = args.max.unwrap_or(stated);
    let report = solve_mate(pos, &args.options(max), &mut |_| {});
    let verdict = match report.status {
        MateStatus::Mate if report.shortest && report.length == Some(stated) => Verdict::Agrees,
        MateStatus::Mate if report.shortest => Verdict::Disagrees,
        // A mate shorter than stated, even if not proved shortest.
        MateStatus::Mate if report.length.is_some_and(|n| n < stated) => Verdict::Disagrees,
        MateStatus::NoMate if max >= stated => Verdict::Disagrees,
        MateStatus::NoMate => Verdict::Agrees,
        _ => Verdict::Unknown,
    };
    let key = report
        .keys
        .first()
        .map(|&m| uci::write(m))
        .unwrap_or_default();
    let epd = epd_line(pos, case, &report, args.all_keys);
    (verdict, report, key, epd)
}

/// A case's line, and its id when the file gives one.
fn where_in_file(case: &MateCase) -> String {
    let line = format!("line {}", case.line);
    if case.id == line {
        line
    } else {
        format!("{}, {line}", case.id)
    }
}

/// Plays `case`'s moves on `pos`.
fn play_case<P: Position>(pos: &mut P, case: &MateCase) -> anyhow::Result<()> {
    for text in &case.moves {
        let m = parse_move(pos, text).map_err(|e| anyhow::anyhow!("move '{text}': {e}"))?;
        pos.play_unchecked(m);
    }
    Ok(())
}

/// `FEN bm KEY; dm N; pv LINE; id "ID"; c0 "..."` for a verified mate.
fn epd_line<P: Position>(
    pos: &P,
    case: &MateCase,
    report: &MateReport,
    all_keys: bool,
) -> Option<String> {
    let mut puzzle = Puzzle::from_report(pos, &case.id, report, all_keys)?;
    puzzle.comment.clone_from(&case.comment);
    Some(puzzle.to_epd())
}

/// The flags that shape the output file, as typed on the command line.
fn regenerate_flags(args: &MateArgs) -> String {
    let mut flags = String::new();
    if let Some(n) = args.up_to {
        flags += &format!(" --up-to {n}");
    }
    if let Some(n) = args.limit {
        flags += &format!(" --limit {n}");
    }
    if let Some(n) = args.max {
        flags += &format!(" --max {n}");
    }
    if args.all_keys {
        flags += " --all-keys";
    }
    flags
}

/// Median solving time per stated length.
fn medians(times: &[(i32, f64)]) -> Vec<(i32, f64)> {
    let mut lengths: Vec<i32> = times.iter().map(|t| t.0).collect();
    lengths.sort_unstable();
    lengths.dedup();
    lengths
        .into_iter()
        .map(|n| {
            let mut ms: Vec<f64> = times.iter().filter(|t| t.0 == n).map(|t| t.1).collect();
            ms.sort_by(f64::total_cmp);
            (n, ms[ms.len() / 2])
        })
        .collect()
}

/// The one-line verdict: "mate in 3", "no mate in ≤ 5", "unknown".
pub fn verdict_text(report: &MateReport, max: u16) -> String {
    match (report.status, report.length) {
        (MateStatus::Mate, Some(n)) if report.shortest => format!("mate in {n} (shortest, proved)"),
        (MateStatus::Mate, Some(n)) => format!("mate in {n} (a shorter mate is not ruled out)"),
        (MateStatus::NoMate, _) => format!("no mate in ≤ {max} (proved)"),
        _ => "unknown".to_string(),
    }
}
