//! `ransom mate --epd FILE`: solves every position of a mate suite
//! ([`ransom::search::mate::solve_case`]), one line per position and a
//! summary; exit 1 if any result disagrees with the file, 2 if some stayed
//! unknown.

use super::mate_args::MateArgs;
use super::progress::Progress;
use ransom::Variant;
use ransom::search::mate::{SuiteFilter, SuiteSummary, case_header, solve_case, suite_cases};
use std::path::Path;
use std::process::ExitCode;

pub fn run(args: &MateArgs, variant: Variant, path: &Path) -> anyhow::Result<ExitCode> {
    let filter = SuiteFilter {
        up_to: args.up_to,
        limit: args.limit,
    };
    let cases = suite_cases(path, variant, filter)?;
    if let Some(out) = &args.out {
        super::arguments::check_output_path(out)?;
    }
    if !args.json {
        outln!("{}", case_header())?;
    }
    let options = args.options(0);
    let mut results = Vec::new();
    let mut progress = Progress::new("mate --epd", Some(cases.len() as u64), args.quiet);
    for (case, pos) in &cases {
        progress.set_message(case.id.clone());
        let result = ransom::dispatch!(pos, p => solve_case(p, case, &options, args.max));
        progress.inc(1);
        progress.suspend(|| {
            if args.json {
                outln!("{}", serde_json::to_string(&result).unwrap_or_default())
            } else {
                outln!("{result}")
            }
        })?;
        results.push(result);
    }
    progress.finish();
    if let Some(out) = &args.out {
        let solved: Vec<&str> = results
            .iter()
            .filter(|r| r.agrees)
            .filter_map(|r| r.epd.as_deref())
            .collect();
        let mut text = format!(
            "# Verified mate solutions ({} of {} positions). Regenerate with:\n# ransom mate -v {} --epd {}{} --out {}\n",
            solved.len(),
            results.len(),
            variant.name(),
            path.display(),
            regenerate_flags(args),
            out.display()
        );
        for line in solved {
            text.push_str(line);
            text.push('\n');
        }
        ransom::store::write_atomically(out, text.as_bytes())?;
    }
    let summary = SuiteSummary::of(&results);
    errln!("{}", summary.to_string().trim_end());
    Ok(if summary.disagree > 0 {
        ExitCode::from(1)
    } else if summary.unknown > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
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
