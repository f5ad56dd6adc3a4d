//! A small builder for running the `foe` binary: given these arguments (and
//! this input), expect this output and this status.

use assert_cmd::Command;

/// The outcome of one run of foe.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// Run foe with `args` and `stdin`, with a clean environment for foe's own variables.
pub fn foe_with_input(args: &[&str], stdin: &str) -> Run {
    run(foe_command(args).write_stdin(stdin))
}

/// foe with `args`, and none of foe's own variables from outside.
fn foe_command(args: &[&str]) -> Command {
    let mut command = Command::cargo_bin("foe").expect("foe binary");
    command
        .args(args)
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1");
    command
}

/// Run `command` to its end.
fn run(command: &mut Command) -> Run {
    let output = command.output().expect("foe runs");
    Run {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        status: output.status.code().unwrap_or(-1),
    }
}

/// Run foe in `dir` with `args` and `stdin`, its data folder `dir/data`
/// (so autosaves and history stay there) and an 80-column terminal.
pub fn foe_in(dir: &std::path::Path, args: &[&str], stdin: &str) -> Run {
    run(foe_command(args)
        .env("FOE_DATA_DIR", dir.join("data"))
        .env("COLUMNS", "80")
        .current_dir(dir)
        .write_stdin(stdin.to_string()))
}

/// [`foe_in`] with standard error and standard output as one stream, in
/// the order foe wrote them (through `sh`): what a player at a terminal
/// reads.
pub fn foe_in_one_stream(dir: &std::path::Path, args: &[&str], stdin: &str) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("\"$0\" \"$@\" 2>&1")
        .arg(assert_cmd::cargo::cargo_bin("foe"))
        .args(args)
        .env("FOE_DATA_DIR", dir.join("data"))
        .env_remove("FOE_TABLES")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .write_stdin(stdin.to_string());
    run(&mut command)
}

/// Run foe with `args` and no input.
pub fn foe(args: &[&str]) -> Run {
    foe_with_input(args, "")
}

impl Run {
    /// Expect success and exactly this standard output.
    #[track_caller]
    pub fn prints(&self, expected: &str) {
        assert_eq!(self.status, 0, "stderr: {}", self.stderr);
        assert_eq!(
            self.stdout, expected,
            "\n--- got ---\n{}\n--- want ---\n{}",
            self.stdout, expected
        );
    }

    /// Expect failure with exactly this one-line message on stderr.
    #[track_caller]
    pub fn fails_with(&self, status: i32, message: &str) {
        assert_eq!(
            self.status, status,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        assert_eq!(self.stderr.trim_end(), message);
        assert_eq!(self.stderr.lines().count(), 1, "one line: {}", self.stderr);
    }

    /// Expect success and parse standard output as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        assert_eq!(self.status, 0, "stderr: {}", self.stderr);
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.stdout))
    }
}

/// Compare with a golden file in `tests/it/data`; `FOE_BLESS=1` rewrites
/// it (deliberately).
#[track_caller]
pub fn golden(actual: &str, file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/data")
        .join(file);
    if std::env::var_os("FOE_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        actual,
        expected,
        "\n--- got ---\n{actual}\n--- want ({}) ---",
        path.display()
    );
}
