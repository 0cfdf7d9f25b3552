//! Checks of option values and output files, shared by the subcommands:
//! made before a long job starts, so that nothing computed is lost to a
//! value or a path that could never work.

/// The longest time budget accepted: about 31 years.
const MAX_SECONDS: f64 = 1e9;

/// Parses a time budget in seconds: a positive number up to
/// [`MAX_SECONDS`] (so that it always makes a `Duration`).
pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(seconds)
    } else {
        Err(format!(
            "'{text}': a time budget must be more than 0 and at most {MAX_SECONDS:e} seconds"
        ))
    }
}

/// The largest table size accepted, in MB (`mate`, `prove`, `serve`, uci's
/// `Hash`).
pub(crate) use ransom::search::MAX_HASH_MB;

/// Parses a whole number in `range`; `what` says in the error what the
/// number must be.
fn parse_in_range(
    text: &str,
    range: std::ops::RangeInclusive<usize>,
    what: &str,
) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!("'{text}': {what}")),
    }
}

/// Parses a table size in MB: 1 to [`MAX_HASH_MB`].
pub(crate) fn parse_hash_mb(text: &str) -> Result<usize, String> {
    parse_in_range(
        text,
        1..=MAX_HASH_MB,
        &format!("the table size must be 1 to {MAX_HASH_MB} MB"),
    )
}

/// Parses a count that must be at least 1 (a node budget, a sample
/// step): 0 would make the job pointless, not unlimited.
pub(crate) fn parse_at_least_one<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + From<u8>,
{
    match text.trim().parse::<T>() {
        Ok(n) if n >= T::from(1) => Ok(n),
        Ok(_) => Err(format!("'{text}': must be at least 1")),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// Parses `serve --workers`: 1 to 1024 searches at once (each may hold a
/// table of `--hash` MB).
pub(crate) fn parse_workers(text: &str) -> Result<usize, String> {
    parse_in_range(text, 1..=1024, "the number of workers must be 1 to 1024")
}

/// Parses `serve --max-connections`: 1 to 1,000,000 open connections.
pub(crate) fn parse_max_connections(text: &str) -> Result<usize, String> {
    parse_in_range(
        text,
        1..=1_000_000,
        "the connection cap must be 1 to 1000000",
    )
}

/// Parses `serve --header-timeout`: 0.1 to 3600 seconds.
pub(crate) fn parse_header_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.1..=3600.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}': the header timeout must be 0.1 to 3600 seconds"
        )),
    }
}

/// Parses `serve --store-refresh`: 0 (read once) or 0.1 to 3600 seconds.
pub(crate) fn parse_store_refresh(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s == 0.0 || (0.1..=3600.0).contains(&s) => Ok(s),
        _ => Err(format!(
            "'{text}': the store refresh must be 0 (read once) or 0.1 to 3600 seconds"
        )),
    }
}

/// Parses `serve --queue`: 0 to 100,000 waiting searches.
pub(crate) fn parse_queue(text: &str) -> Result<usize, String> {
    parse_in_range(
        text,
        0..=100_000,
        "the queue must hold 0 to 100000 searches",
    )
}

/// Checks, before a long job, that its result can be written to `path`
/// ([`ransom::store::check_output_path`]).
pub(crate) fn check_output_path(path: &std::path::Path) -> anyhow::Result<()> {
    Ok(ransom::store::check_output_path(path)?)
}

/// Checks, before a long job, that files can be written into `dir`
/// ([`ransom::store::check_output_dir`]).
pub(crate) fn check_output_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    Ok(ransom::store::check_output_dir(dir)?)
}

/// The position a command starts from: the FEN given, or `variant`'s start.
pub fn start_position(
    variant: ransom::Variant,
    fen_text: Option<&str>,
) -> anyhow::Result<ransom::AnyPosition> {
    Ok(match fen_text {
        None => ransom::AnyPosition::start(variant),
        Some(text) => {
            ransom::AnyPosition::from_setup(variant, &ransom::notation::fen::parse(text)?)?
        }
    })
}

/// Plays `moves` (SAN or UCI) from `start`; an error names the move, its
/// number and the position it is not legal in. Returns the position
/// reached and the moves played.
pub fn play_moves<P: ransom::Position>(
    start: P,
    moves: &[String],
) -> anyhow::Result<(P, Vec<ransom::moves::Move>)> {
    Ok(ransom::notation::play_line(start, moves)?)
}
