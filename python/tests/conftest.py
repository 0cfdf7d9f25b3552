"""Shared fixtures: the repository, the command-line binary (built with
cargo, to compare the package with the CLI) and a folder of 3-man tables."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    """The `ransom` binary: $RANSOM_BIN (CI passes the one `cargo test`
    built), else built by `cargo build` (debug)."""
    given = os.environ.get("RANSOM_BIN")
    if given:
        return pathlib.Path(given)
    subprocess.run(["cargo", "build", "--quiet", "--bin", "ransom"], cwd=REPO, check=True)
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    return pathlib.Path(json.loads(meta.stdout)["target_directory"]) / "debug" / "ransom"


@pytest.fixture(scope="session")
def tables3(cli, tmp_path_factory) -> pathlib.Path:
    """Antichess tables of up to 3 men, built by the CLI."""
    folder = tmp_path_factory.mktemp("tables3")
    subprocess.run([str(cli), "tb", "build", "--pieces", "3", "--dir", str(folder), "-q"], check=True)
    return folder
