//! The README's examples, run as a new user would run them from the
//! repository (every `$ ` command of a `sh` block that takes a few seconds;
//! the service's `serve`/`curl` lines are the service tests' concern), with
//! their output compared in shape: each line shown must appear with its
//! numbers replaced (`Nodes searched: #`), and a JSON object shown in full
//! must have exactly the fields shown (one shown with `...` at least those).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_sh = false;
    // Whether the lines that follow are the output of the last command.
    let mut in_output = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_sh = line == "```sh" && !in_sh;
            in_output = false;
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                line: i + 1,
                command: command.to_string(),
                output: Vec::new(),
            });
            in_output = true;
        } else if in_output && let Some(last) = out.last_mut() {
            last.output.push(line.to_string());
        }
    }
    out
}

/// Digit runs replaced by `#`, trailing spaces dropped.
fn shape(line: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out.trim_end().to_string()
}

/// The top-level field names of a JSON object written on one line, as far
/// as they can be read (`...` elisions allowed).
fn shown_fields(line: &str) -> Vec<String> {
    let mut fields = Vec::new();
    let mut depth = 0;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            b'"' => {
                let end = line[i + 1..].find('"').map_or(line.len(), |e| i + 1 + e);
                if depth == 1 && line[end + 1..].starts_with(':') {
                    fields.push(line[i + 1..end].to_string());
                }
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    fields
}

fn run(command: &str, dir: &Path) -> (bool, String) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ransom"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A watchdog, not a timing: an example must end at all.
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("`{command}` still running after 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn readme_examples_run_and_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dir = std::env::temp_dir().join(format!("ransom-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root.join("examples"), dir.join("examples")).unwrap();
    let all = examples(&readme);
    let mut ran = 0;
    for example in &all {
        let command = &example.command;
        if command.contains("ransom serve") || command.starts_with("curl") {
            continue;
        }
        if command.starts_with("ransom verify proofs/antichess-e2e4.proof") {
            // The Quick start's first command writes it.
            assert!(run("ransom prove e4 -q", &dir).0);
        }
        let (ok, stdout) = run(command, &dir);
        assert!(
            ok,
            "README line {}: `{command}` failed:\n{stdout}",
            example.line
        );
        let actual: Vec<String> = stdout.lines().map(shape).collect();
        for expected in &example.output {
            let trimmed = expected.trim();
            if trimmed.is_empty() || trimmed == "..." {
                continue;
            }
            if trimmed.starts_with('{') {
                let json = stdout
                    .lines()
                    .find(|l| l.starts_with('{'))
                    .unwrap_or_else(|| {
                        panic!("README line {}: no JSON from `{command}`", example.line)
                    });
                let value: serde_json::Value = serde_json::from_str(json).unwrap();
                let mut got: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
                let mut shown = shown_fields(trimmed);
                for field in &shown {
                    assert!(
                        got.contains(field),
                        "README line {}: `{command}` prints no \"{field}\": {json}",
                        example.line
                    );
                }
                if !trimmed.contains("...") {
                    got.sort();
                    shown.sort();
                    assert_eq!(
                        got, shown,
                        "README line {}: `{command}` prints other fields than shown",
                        example.line
                    );
                }
                continue;
            }
            if trimmed.contains("...") {
                continue;
            }
            let want = shape(expected);
            assert!(
                actual.contains(&want),
                "README line {}: `{command}` does not print a line like `{expected}`:\n{stdout}",
                example.line
            );
        }
        ran += 1;
    }
    assert!(ran >= 12, "only {ran} README examples ran");
}
