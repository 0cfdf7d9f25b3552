//! The container image (`Dockerfile`, docs/service.md "Deploy"): every
//! path it copies exists, it runs as a user without privileges with the
//! tables and proofs as volumes, its start command is one `ransom serve`
//! accepts, and its health check (`ransom health`) tells a serving service
//! from a missing one. Where a docker daemon answers, `docker build
//! --check` must pass too.

mod common;

use ransom::service::Server;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Dockerfile's instructions, continuation lines joined, comments left out.
fn instructions() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("Dockerfile")).expect("the Dockerfile");
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() && current.is_empty() {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(part) => current += &format!("{} ", part.trim()),
            None => {
                current += line;
                out.push(std::mem::take(&mut current));
            }
        }
    }
    out
}

fn with_keyword<'a>(all: &'a [String], keyword: &str) -> Vec<&'a str> {
    all.iter()
        .filter_map(|i| i.strip_prefix(keyword)?.strip_prefix(' '))
        .collect()
}

/// The JSON-array form's words (`["a", "b"]`).
fn exec_form(text: &str) -> Vec<String> {
    let start = text.find('[').expect("a JSON array");
    serde_json::from_str(&text[start..]).expect("a JSON array of strings")
}

#[test]
fn every_path_the_dockerfile_copies_exists() {
    let all = instructions();
    let copies = with_keyword(&all, "COPY");
    assert!(copies.len() >= 4, "{copies:?}");
    for copy in copies.iter().filter(|c| !c.starts_with("--from")) {
        let words: Vec<&str> = copy.split_whitespace().collect();
        for source in &words[..words.len() - 1] {
            assert!(root().join(source).exists(), "COPY {source}: no such path");
        }
    }
    let ignored = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    for copied in [
        "src",
        "Cargo.toml",
        "Cargo.lock",
        "benches",
        "deploy",
        "puzzles",
    ] {
        assert!(
            !ignored.lines().any(|l| l.trim() == copied),
            ".dockerignore leaves out {copied}, which the Dockerfile copies"
        );
    }
}

#[test]
fn the_image_builds_with_the_crates_rust_version() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("rust-version in Cargo.toml")
        .trim_matches('"');
    let all = instructions();
    let from = with_keyword(&all, "FROM");
    assert!(
        from[0].starts_with(&format!("rust:{version}")),
        "the build stage {} does not use Rust {version}",
        from[0]
    );
}

#[test]
fn the_image_runs_unprivileged_with_volumes_a_port_and_a_health_check() {
    let all = instructions();
    let user = with_keyword(&all, "USER");
    assert!(
        user.last().is_some_and(|u| *u != "root" && *u != "0"),
        "{user:?}"
    );
    let volumes = with_keyword(&all, "VOLUME").join(" ");
    for dir in ["/var/lib/ransom/tablebases", "/var/lib/ransom/proofs"] {
        assert!(volumes.contains(dir), "no volume {dir}: {volumes}");
    }
    assert_eq!(with_keyword(&all, "EXPOSE"), ["8080"]);
    let health = with_keyword(&all, "HEALTHCHECK");
    assert_eq!(health.len(), 1);
    let check = exec_form(health[0].split("CMD").nth(1).expect("CMD in HEALTHCHECK"));
    assert_eq!(&check[..2], ["ransom", "health"]);
}

/// The start command's flags are `ransom serve`'s, and its paths the ones
/// the image makes (volumes, the puzzles it copies).
#[test]
fn the_start_command_is_one_ransom_serve_accepts() {
    let all = instructions();
    let entry = exec_form(with_keyword(&all, "ENTRYPOINT")[0]);
    assert_eq!(entry, ["ransom"]);
    let cmd = exec_form(with_keyword(&all, "CMD")[0]);
    assert_eq!(cmd[0], "serve");
    let help = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in cmd.iter().filter(|w| w.starts_with("--")) {
        assert!(help.contains(flag.as_str()), "ransom serve has no {flag}");
    }
    let text = all.join("\n");
    for path in cmd.iter().filter(|w| w.starts_with('/')) {
        assert!(text.contains(&format!("COPY puzzles {path}")) || text.contains(path.as_str()));
    }
}

/// `ransom health` (the image's health check) exits 0 against a serving
/// service and 1, with the reason, where nothing listens.
#[test]
fn the_health_check_tells_a_serving_service_from_none() {
    let proofs = common::fresh_dir("ransom-container", "proofs");
    let server = Server::start(common::bare_serve_config(proofs)).unwrap();
    let run = |addr: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ransom"))
            .args(["health", "--addr", addr, "--timeout", "5"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(run(&server.addr().to_string()).0, Some(0));
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (code, stderr) = run(&free.to_string());
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("unhealthy") && stderr.contains("cannot connect"),
        "{stderr}"
    );
    let (code, stderr) = run("no-such-host.invalid:8080");
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not an address"), "{stderr}");
}

/// `docker build --check` where a docker daemon with BuildKit answers;
/// elsewhere the checks above stand in for it, and this says so. A check
/// that cannot fetch the base images' metadata (no network to the image
/// registry) is reported, not failed: it says nothing of the Dockerfile.
#[test]
fn docker_build_check_passes_where_docker_runs() {
    let daemon = Command::new("docker")
        .args(["info", "--format", "{{.ServerVersion}}"])
        .output()
        .is_ok_and(|o| o.status.success());
    let has_check = Command::new("docker")
        .args(["build", "--help"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("--check"));
    if !daemon || !has_check {
        eprintln!(
            "note: no docker daemon with `docker build --check` here (daemon: {daemon}, --check: {has_check}); the Dockerfile's paths, user, volumes and commands are checked by the other tests"
        );
        return;
    }
    let out = Command::new("docker")
        .args(["build", "--check", "."])
        .current_dir(root())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let unreachable = [
        "failed to resolve source metadata",
        "dial tcp",
        "no such host",
    ];
    if !out.status.success() && unreachable.iter().any(|u| text.contains(u)) {
        eprintln!("note: docker build --check could not reach the image registry:\n{text}");
        return;
    }
    assert!(out.status.success(), "docker build --check failed:\n{text}");
}
