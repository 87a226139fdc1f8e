//! The real-browser tests of the client in `web/` (`tests/browser`: Node, playwright-core and
//! Debian's headless Chromium), run against this crate's server binary so that
//! `cargo test --workspace` covers them too.
//!
//! Without Node, npm or Chromium the test says why and passes, unless `DJAMBI_REQUIRE_BROWSER=1`
//! (as in CI), in which case it fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Writes to the real stderr: libtest captures `eprintln!` of passing tests, and a skip must be
/// seen.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Whether a missing browser toolchain is a failure rather than a skip.
fn required() -> bool {
    std::env::var("DJAMBI_REQUIRE_BROWSER").is_ok_and(|v| v == "1")
}

/// Skips the test with a clear message, or fails it when the browser tests are required.
fn skip(why: &str) {
    assert!(
        !required(),
        "the browser tests are required (DJAMBI_REQUIRE_BROWSER=1) but {why}"
    );
    say(&format!(
        "SKIPPED browser tests: {why}. Install Node.js and Chromium (apt-get install -y nodejs npm \
         chromium) to run them; set DJAMBI_REQUIRE_BROWSER=1 to make this a failure."
    ));
}

/// Runs a program, `None` if it cannot be started at all.
fn run(cmd: &mut Command) -> Option<Output> {
    cmd.output().ok()
}

fn works(program: &str) -> bool {
    run(Command::new(program).arg("--version")).is_some_and(|o| o.status.success())
}

fn show(out: &Output) -> String {
    format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn browser_tests() {
    let root: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("tests").join("browser");
    if !works("node") {
        return skip("Node.js (`node`) is not installed");
    }
    if !works("npm") {
        return skip("npm is not installed");
    }
    let chromium = std::env::var_os("CHROMIUM_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    if !chromium.exists() {
        return skip(&format!(
            "Chromium is not installed at {}",
            chromium.display()
        ));
    }
    if !dir.join("node_modules").join("playwright-core").exists() {
        let out = run(Command::new("npm")
            .arg("ci")
            .arg("--prefix")
            .arg(&dir)
            .args(["--no-audit", "--no-fund"]))
        .expect("npm runs");
        if !out.status.success() {
            return skip(&format!(
                "`npm ci --prefix tests/browser` failed (offline?)\n{}",
                show(&out)
            ));
        }
    }
    let out = run(Command::new("npm")
        .arg("--prefix")
        .arg(&dir)
        .arg("test")
        .env("DJAMBI_SERVER_BIN", env!("CARGO_BIN_EXE_djambi-server"))
        .env("CHROMIUM_PATH", &chromium))
    .expect("npm runs");
    assert!(
        out.status.success(),
        "the browser tests failed\n{}",
        show(&out)
    );
    // A short summary: node --test's closing counts.
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines().filter(|l| l.starts_with("# ")) {
        say(&format!("browser tests {line}"));
    }
}
