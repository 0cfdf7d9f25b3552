//! `ransom health`: asks a running service for `GET /health` and exits 0
//! when it answers 200, 1 otherwise, with the reason on stderr. It is the
//! container image's `HEALTHCHECK` (the runtime image has no curl).

use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ransom health`.
#[derive(Debug, clap::Args)]
pub struct HealthArgs {
    /// The service's address and port (a host name is resolved).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Seconds to wait for the connection and for the answer (0.1 to 600).
    #[arg(long, default_value_t = 5.0, value_parser = parse_timeout)]
    timeout: f64,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if (0.1..=600.0).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("{secs} s is out of range (0.1 to 600)"))
    }
}

pub fn run(args: &HealthArgs) -> anyhow::Result<ExitCode> {
    let timeout = Duration::from_secs_f64(args.timeout);
    match ransom::service::probe_health(&args.addr, timeout) {
        Ok(()) => {
            outln!("ok: {} answers /health with 200", args.addr)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(reason) => {
            errln!("unhealthy: {}: {reason}", args.addr);
            Ok(ExitCode::FAILURE)
        }
    }
}
