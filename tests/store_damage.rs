//! Issue 47 (hardening round 3): the solved-position store under damage
//! the earlier rounds let through: logs that lost records (47.9, 47.10),
//! damaged checkpoints (47.11), writers' leftover temporary files (47.12),
//! signals (47.13), a busy store (47.14) and the words errors use (47.16).
//! The slow fault-injection drivers are in `tests/store_faults.rs`
//! (ignored; README, Testing).

mod common;

use common::run_ransom as ransom;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A line the search does not settle in 600,000 nodes on one thread,
/// leaving a checkpoint whose outer tree holds proved leaves.
const OPEN_LINE: [&str; 6] = ["prove", "b4", "c5", "bxc5", "f5", "Nf3"];

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `prove` of [`OPEN_LINE`] over the store `S` with `extra` options and
/// `--json`: exit code, the report, stderr.
fn prove_open(dir: &Path, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = OPEN_LINE.to_vec();
    args.extend_from_slice(&[
        "--store",
        "S",
        "--leaf-nodes",
        "1000",
        "--threads",
        "1",
        "--no-write",
        "--json",
    ]);
    args.extend_from_slice(extra);
    let (code, out, err) = ransom(&args, dir);
    let report = if code == 0 {
        json(&out)
    } else {
        serde_json::Value::Null
    };
    (code, report, err)
}

fn log_path(dir: &Path) -> PathBuf {
    dir.join("S/antichess/log-000001.rsl")
}

fn verify_json(dir: &Path) -> (i32, serde_json::Value) {
    let (code, out, _) = ransom(&["store", "verify", "S", "--no-tablebases", "--json"], dir);
    (code, json(&out)["stores"][0].clone())
}

fn stats_json(dir: &Path) -> serde_json::Value {
    let (code, out, err) = ransom(&["store", "stats", "S", "--json"], dir);
    assert_eq!(code, 0, "{err}");
    json(&out)["stores"][0].clone()
}

/// 47.9 and 47.10: a store whose log lost every record (cut to nothing)
/// is reported as damaged with the number of records lost, and a search
/// resumed over it opens again the leaves its checkpoint marked proved
/// (the store no longer holds them) instead of recording wins without
/// moves: it proves the line, and the store verifies afterwards.
#[test]
fn a_resume_over_a_log_that_lost_its_records_searches_them_again() {
    let dir = common::fresh_dir("damage", "lost-log");
    let (code, first, err) = prove_open(&dir, &["--max-nodes", "600000"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first["result"], "unknown", "{first}");
    let written = first["store_added"].as_u64().unwrap();
    assert!(written > 1000, "{first}");

    std::fs::write(log_path(&dir), b"").unwrap();
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 1, "{verify}");
    assert_eq!(verify["ok"], false, "{verify}");
    assert_eq!(verify["lost_records"].as_u64(), Some(written), "{verify}");
    let stats = stats_json(&dir);
    assert_eq!(stats["lost_records"].as_u64(), Some(written), "{stats}");
    assert!(
        stats["damage"]
            .as_str()
            .is_some_and(|d| d.contains("shorter than its header")),
        "{stats}"
    );

    let (code, resumed, err) = prove_open(&dir, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning:") && err.contains("lost"), "{err}");
    assert_eq!(resumed["resumed"], true, "{resumed}");
    assert_eq!(resumed["result"], "win", "{resumed}");
    assert_eq!(resumed["verified"], true, "{resumed}");
    let notes = resumed["notes"].to_string();
    assert!(notes.contains("searched again"), "{notes}");
    assert!(!notes.contains("could not be read"), "{notes}");
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 0, "{verify}");
    assert_eq!(verify["ok"], true, "{verify}");
}

/// A small store of 1.d3's proof: its one log and how many records it holds.
fn small_store(name: &str) -> (PathBuf, u64) {
    let dir = common::fresh_dir("damage", name);
    let (code, out, err) = ransom(
        &["prove", "d3", "--store", "S", "--no-write", "--json"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let records = json(&out)["store_added"].as_u64().unwrap();
    assert!(records > 40, "{out}");
    (dir, records)
}

/// 47.10: loss beyond a torn final record is reported by `store verify`
/// (exit 1), `store stats` and `prove` with the records and bytes lost: a
/// header cut short, zeros over the end, a damaged last record.
#[test]
fn records_lost_from_a_log_are_counted_not_dropped_silently() {
    for (damage, lost) in [("header", None), ("zeros", Some(19)), ("last", Some(1))] {
        let (dir, records) = small_store(damage);
        let log = log_path(&dir);
        let mut bytes = std::fs::read(&log).unwrap();
        match damage {
            "header" => bytes.truncate(20),
            "zeros" => {
                let n = bytes.len();
                bytes[n - 880..].fill(0);
            }
            _ => {
                let n = bytes.len();
                bytes[n - 10] ^= 0x40;
            }
        }
        std::fs::write(&log, &bytes).unwrap();
        let lost = lost.unwrap_or(records);
        let (code, verify) = verify_json(&dir);
        assert_eq!(code, 1, "{damage}: {verify}");
        assert_eq!(
            verify["lost_records"].as_u64(),
            Some(lost),
            "{damage}: {verify}"
        );
        assert_eq!(
            verify["positions"].as_u64(),
            Some(records - lost),
            "{damage}: {verify}"
        );
        let stats = stats_json(&dir);
        assert_eq!(
            stats["lost_records"].as_u64(),
            Some(lost),
            "{damage}: {stats}"
        );
        assert!(
            stats["lost_bytes"].as_u64().unwrap() >= lost * 48,
            "{stats}"
        );
        let (code, out, err) = ransom(&["store", "stats", "S"], &dir);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("DAMAGED") && out.contains("log-000001.rsl"),
            "{out}"
        );
        // A search over it says so before it starts, and goes on.
        let (code, _, err) = ransom(&["prove", "d3", "--store", "S", "--no-write"], &dir);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains(&format!("warning: {lost} records")),
            "{damage}: {err}"
        );
        // The log it went on with holds what remains and what it added.
        let (code, verify) = verify_json(&dir);
        assert_eq!(code, 0, "{damage}: {verify}");
    }
}

/// 47.10: a torn write (part of a record past the synced ones) is still
/// dropped quietly, and `store compact` accepts a loss `store verify`
/// reported.
#[test]
fn a_torn_tail_is_not_a_loss_and_compaction_accepts_a_loss() {
    let (dir, records) = small_store("torn-then-cut");
    let log = log_path(&dir);
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut file, &[7u8; 30]).unwrap();
    drop(file);
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 0, "{verify}");
    assert_eq!(verify["torn_bytes"], 30, "{verify}");
    assert_eq!(verify["lost_records"], 0, "{verify}");

    let len = std::fs::metadata(&log).unwrap().len();
    let file = std::fs::OpenOptions::new().write(true).open(&log).unwrap();
    file.set_len(len - 30 - 48 * 3).unwrap();
    drop(file);
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 1, "{verify}");
    assert_eq!(verify["lost_records"], 3, "{verify}");
    let (code, _, err) = ransom(&["store", "compact", "S"], &dir);
    assert_eq!(code, 0, "{err}");
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 0, "{verify}");
    assert_eq!(verify["positions"].as_u64(), Some(records - 3), "{verify}");
}

/// A store with an unfinished search: the path of its checkpoint.
fn store_with_a_checkpoint(name: &str) -> (PathBuf, PathBuf) {
    let dir = common::fresh_dir("damage", name);
    let (code, report, err) = prove_open(&dir, &["--max-nodes", "100000"]);
    assert_eq!(code, 0, "{err}");
    let checkpoint = dir.join(report["checkpoint"].as_str().expect("a checkpoint"));
    (dir, checkpoint)
}

/// 47.11 and 47.16: `store verify` reads every checkpoint whole and names
/// a damaged one (exit 1); `prove` over it stops naming the file, the kind
/// of file (not "corrupt table") and how to go on.
#[test]
fn store_verify_reads_checkpoints_and_prove_says_how_to_go_on() {
    let (dir, checkpoint) = store_with_a_checkpoint("checkpoint");
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 0, "{verify}");
    assert_eq!(verify["checkpoints"], 1, "{verify}");

    let mut bytes = std::fs::read(&checkpoint).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&checkpoint, &bytes).unwrap();
    let (code, verify) = verify_json(&dir);
    assert_eq!(code, 1, "{verify}");
    assert_eq!(verify["ok"], false, "{verify}");
    let damaged = &verify["damaged_checkpoints"][0];
    assert!(
        damaged["file"]
            .as_str()
            .is_some_and(|f| f.ends_with(checkpoint.file_name().unwrap().to_str().unwrap())),
        "{verify}"
    );
    let (code, out, err) = ransom(&["store", "verify", "S", "--no-tablebases"], &dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("DAMAGED"), "{out}");
    assert!(err.contains("damaged checkpoint"), "{err}");

    let (code, _, err) = prove_open(&dir, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("damaged checkpoint"), "{err}");
    assert!(!err.contains("corrupt table"), "{err}");
    assert!(
        err.contains(&format!(
            "remove {}",
            Path::new("S")
                .join("antichess/checkpoints")
                .join(checkpoint.file_name().unwrap())
                .display()
        )),
        "{err}"
    );
    // Removed as it says, the search starts afresh over the store.
    std::fs::remove_file(&checkpoint).unwrap();
    let (code, again, err) = prove_open(&dir, &["--max-nodes", "1000"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(again["resumed"], false, "{again}");
}

/// 47.16: damage inside a log names the kind of file.
#[test]
fn damage_inside_a_log_names_a_store_log() {
    let (dir, _) = small_store("log-wording");
    let log = log_path(&dir);
    let mut bytes = std::fs::read(&log).unwrap();
    bytes[32 + 2 * 48 + 5] ^= 0x08;
    std::fs::write(&log, &bytes).unwrap();
    let (code, _, err) = ransom(&["prove", "d3", "--store", "S", "--no-write"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("damaged store log: record 2"), "{err}");
    assert!(!err.contains("corrupt table"), "{err}");
}

/// 47.12: temporary files that killed writers left (`.NAME.PID-N.tmp`,
/// here of a process number no process can have) are not read as
/// checkpoints by `store stats`, and the next writer removes them; one of
/// a running process stays.
#[test]
fn leftover_temporary_files_are_removed_by_the_next_writer() {
    let (dir, checkpoint) = store_with_a_checkpoint("leftovers");
    let store = dir.join("S/antichess");
    let dead = [
        store.join(".solved-000002.rst.999999999-3.tmp"),
        store.join(".log-000001.rsc.999999999-0.tmp"),
        store.join(format!(
            "checkpoints/.{}.999999999-1.tmp",
            checkpoint.file_name().unwrap().to_string_lossy()
        )),
    ];
    for path in &dead {
        std::fs::write(path, [0u8; 4096]).unwrap();
    }
    let alive = store.join(format!(
        "checkpoints/.other-white.ckpt.{}-0.tmp",
        std::process::id()
    ));
    std::fs::write(&alive, b"x").unwrap();
    let stats = stats_json(&dir);
    let checkpoints = stats["checkpoints"].as_array().unwrap();
    assert_eq!(checkpoints.len(), 1, "{stats}");
    assert!(checkpoints[0].get("error").is_none(), "{stats}");

    let (code, _, err) = prove_open(&dir, &["--max-nodes", "1000"]);
    assert_eq!(code, 0, "{err}");
    for path in &dead {
        assert!(!path.exists(), "{} is left", path.display());
    }
    assert!(alive.exists(), "a running process's file is kept");
    // `store compact` and `store merge` clean up the same way.
    std::fs::write(&dead[0], b"x").unwrap();
    let (code, _, err) = ransom(&["store", "compact", "S"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(!dead[0].exists());
}

/// Holds `S/antichess`'s lock in this process until the value is dropped.
fn hold_lock(dir: &Path) -> std::fs::File {
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("S/antichess/lock"))
        .unwrap();
    lock.lock().unwrap();
    lock
}

/// 47.14: a store another process is writing is refused as busy, not as
/// damage (`store verify` says BUSY, not FAILED, and suggests nothing it
/// would refuse too), and `--wait` waits for it.
#[test]
fn a_busy_store_is_named_busy_and_wait_waits_for_it() {
    let (dir, _) = small_store("busy");
    let held = hold_lock(&dir);
    let (code, out, err) = ransom(&["store", "verify", "S", "--no-tablebases"], &dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("BUSY") && err.contains("busy"), "{err}");
    assert!(!err.contains("FAILED"), "{err}");
    let (code, _, err) = ransom(&["prove", "d3", "--store", "S", "--no-write"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("busy") && err.contains("--wait"), "{err}");
    assert!(!err.contains("store verify"), "{err}");
    let (code, _, err) = ransom(&["store", "compact", "S"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("busy"), "{err}");

    let mut waiting = Command::new(env!("CARGO_BIN_EXE_ransom"))
        .args(["store", "compact", "S", "--wait", "-q"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        waiting.try_wait().unwrap().is_none(),
        "--wait did not wait for the lock"
    );
    drop(held);
    let status = waiting.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// 47.14: `store stats` (which takes no lock) reads a consistent set of
/// files while compactions replace them.
#[test]
fn store_stats_reads_a_store_that_is_being_compacted() {
    let (dir, records) = small_store("stats-compact");
    let compacting = {
        let dir = dir.clone();
        std::thread::spawn(move || {
            for _ in 0..20 {
                let (code, _, err) = ransom(&["store", "compact", "S", "--wait"], &dir);
                assert_eq!(code, 0, "{err}");
            }
        })
    };
    let mut reads = 0;
    while !compacting.is_finished() || reads == 0 {
        let stats = stats_json(&dir);
        assert_eq!(stats["positions"].as_u64(), Some(records), "{stats}");
        reads += 1;
    }
    compacting.join().unwrap();
}

/// 47.13: SIGINT, SIGTERM and SIGHUP stop a search, which writes its
/// checkpoint and the store and exits with the shell's code for the
/// signal (130, 143, 129), its report saying it was interrupted.
#[test]
fn a_signal_stops_a_search_with_its_exit_code_after_the_checkpoint() {
    for (signal, expected) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = common::fresh_dir("damage", &format!("signal-{signal}"));
        // 1.b4: a search that runs far longer than the test waits.
        let mut args = vec!["prove", "b4"];
        args.extend_from_slice(&[
            "--store",
            "S",
            "--leaf-nodes",
            "1000",
            "--threads",
            "1",
            "--checkpoint-every",
            "0.05",
            "--no-write",
            "--json",
        ]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_ransom"))
            .args(&args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let checkpoints = dir.join("S/antichess/checkpoints");
        common::wait_for_checkpoint(&checkpoints, &mut child, Duration::from_secs(120));
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(expected), "{signal}: {stderr}");
        let report = json(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(report["result"], "unknown", "{report}");
        assert!(
            report["notes"]
                .to_string()
                .contains("interrupted: the checkpoint and the store were written"),
            "{report}"
        );
        assert!(dir.join(report["checkpoint"].as_str().unwrap()).exists());
        let (code, verify) = verify_json(&dir);
        assert_eq!(code, 0, "{verify}");
    }
}

/// Issue 47.5: a shard's earlier tree and job result are removed only
/// once its new table's temporary file is written, just before the
/// rename: a job that dies while its table is being written (here, the
/// temporary file cannot be made) keeps the earlier table, tree and
/// result. (This test's process makes no other atomic writes: the
/// temporary names it blocks are the only ones it uses.)
#[test]
fn a_shard_keeps_its_tree_and_result_until_its_new_table_is_written() {
    use ransom::solved::{Record, Solved, shard};
    use ransom::variants::{Antichess, Variant};
    use ransom::{Position, solved::packed};
    let dir = common::fresh_dir("damage", "shard-order");
    let shard_dir = dir.join("shard");
    let record = |pos: &Antichess| Record {
        key: pos.zobrist(),
        value: Solved::no_win_for(ransom::Color::White, 5),
        position: packed::pack(pos),
    };
    let start = Antichess::start();
    shard::write_shard(&shard_dir, Variant::Antichess, &[record(&start)]).unwrap();
    let table = shard::shard_table(&shard_dir, Variant::Antichess);
    let before = std::fs::read(&table).unwrap();
    let tree = shard::shard_checkpoints(&shard_dir, Variant::Antichess).join("x-white.ckpt");
    std::fs::create_dir_all(tree.parent().unwrap()).unwrap();
    std::fs::write(&tree, b"tree").unwrap();
    let result = shard::job_result_path(&shard_dir);
    std::fs::write(&result, b"{}").unwrap();

    // Every temporary name this process can use next is taken by a folder.
    let name = table.file_name().unwrap().to_string_lossy().into_owned();
    let blockers: Vec<PathBuf> = (0..64)
        .map(|n| table.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id())))
        .collect();
    for b in &blockers {
        std::fs::create_dir_all(b).unwrap();
    }
    let mut next = start.clone();
    next.play_unchecked(next.legal_moves()[0]);
    let failed = shard::write_shard(
        &shard_dir,
        Variant::Antichess,
        &[record(&start), record(&next)],
    );
    assert!(failed.is_err());
    assert_eq!(
        std::fs::read(&table).unwrap(),
        before,
        "the earlier table stays"
    );
    assert!(tree.exists(), "the earlier tree stays with it");
    assert!(result.exists(), "the earlier result stays with it");

    for b in &blockers {
        std::fs::remove_dir(b).unwrap();
    }
    shard::write_shard(
        &shard_dir,
        Variant::Antichess,
        &[record(&start), record(&next)],
    )
    .unwrap();
    assert_ne!(std::fs::read(&table).unwrap(), before);
    assert!(
        !tree.exists() && !result.exists(),
        "gone with the table they described"
    );
}

/// Issue 47.7 and 47.6: `store merge` keeps only a tree's summary and
/// file identity between reading a shard and handing its trees on, and
/// reads each again for the copy: a tree whose file changed in between
/// (even rewritten with as many bytes) is refused as changed, not copied.
#[test]
fn a_tree_that_changed_since_it_was_read_is_refused_at_hand_over() {
    use ransom::solved::adopt::{hand_over, read_shard_trees};
    let (dir, checkpoint) = store_with_a_checkpoint("handover-reread");
    let from = dir.join("from");
    std::fs::create_dir_all(&from).unwrap();
    let name = checkpoint.file_name().unwrap();
    std::fs::copy(&checkpoint, from.join(name)).unwrap();
    let trees = read_shard_trees(&from);
    // Rewritten whole with the same bytes: a new file all the same. (Not
    // with the library's atomic write: see the test above.)
    let bytes = std::fs::read(from.join(name)).unwrap();
    std::fs::write(from.join("new"), &bytes).unwrap();
    std::fs::rename(from.join("new"), from.join(name)).unwrap();
    let to = dir.join("to");
    std::fs::create_dir_all(&to).unwrap();
    let adopted = hand_over(trees, &to, None);
    assert_eq!(adopted.taken, 0);
    assert_eq!(adopted.refused.len(), 1, "{:?}", adopted.refused);
    assert!(
        adopted.refused[0]
            .1
            .problem()
            .contains("changed since it was read")
    );
    // Read again, it is handed on.
    let adopted = hand_over(read_shard_trees(&from), &to, None);
    assert_eq!(adopted.taken, 1, "{:?}", adopted.refused);
    assert!(to.join(name).exists());
}
