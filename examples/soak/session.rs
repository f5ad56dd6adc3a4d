//! One REPL session as a child process: `foe play` or `foe companion` with
//! its standard input given, in a folder of its own (its working directory
//! and its data folder), with a timeout. A session that exits with status
//! 101 or prints `panicked at` panicked; one killed by a signal crashed;
//! one still running at its timeout hung (it is killed).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How to start foe: the program, and an environment variable that makes
/// it foe (the soak example re-runs itself as foe).
#[derive(Debug, Clone)]
pub struct Foe {
    /// The program.
    pub program: PathBuf,
    /// Set in the child's environment, if given.
    pub marker: Option<(&'static str, &'static str)>,
}

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status (0 or a clean `error:` 1 or 2).
    Exited(i32),
    /// It panicked.
    Panicked,
    /// A signal ended it (an abort, a segfault, a stack overflow).
    Crashed,
    /// It was still running at its timeout.
    Hung,
}

/// What a session did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// The last part of its standard output.
    pub stdout_tail: String,
    /// The first part of its standard error.
    pub stderr: String,
}

impl Outcome {
    /// Whether it panicked, crashed or hung.
    pub fn failed(&self) -> bool {
        !matches!(self.ending, Ending::Exited(_))
    }
}

/// How much of the output is kept.
const KEEP: usize = 64 * 1024;

/// The fixture files of a session's folder (their names are those of
/// `lines::FILES`): valid saves of both kinds, damaged ones, a
/// FIFO, links to a device and to nothing, a folder.
pub fn prepare_folder(work: &Path, play_save: &str, companion_save: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(work.join("folder"))?;
    std::fs::write(work.join("play.json"), play_save)?;
    std::fs::write(work.join("companion.json"), companion_save)?;
    std::fs::write(work.join("garbage.json"), "{\"version\": 2, \"seed\": [}")?;
    std::fs::write(
        work.join("truncated.json"),
        &play_save[..play_save.len() / 2],
    )?;
    std::fs::write(work.join("empty.json"), "")?;
    std::fs::write(work.join("latin1.json"), b"{\"format\": \"caf\xe9\"}")?;
    // Claims 2 MiB, holds nothing: read no further than the limit.
    std::fs::File::create(work.join("big.json"))?.set_len(2 * 1024 * 1024)?;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/dev/null", work.join("link-to-null"))?;
        std::os::unix::fs::symlink("nowhere/at/all", work.join("link-to-nothing"))?;
        let made = Command::new("mkfifo")
            .arg(work.join("fifo"))
            .stderr(Stdio::null())
            .status()?;
        if !made.success() {
            return Err(std::io::Error::other("mkfifo failed"));
        }
    }
    Ok(())
}

/// Run foe with `args` in `folder` (made by the caller: `folder/work` is
/// the working directory, `folder/data` foe's data folder), feeding
/// `input` on standard input, for at most `timeout`.
pub fn run(foe: &Foe, args: &[String], input: &[u8], folder: &Path, timeout: Duration) -> Outcome {
    let started = Instant::now();
    let mut command = Command::new(&foe.program);
    command
        .args(args)
        .current_dir(folder.join("work"))
        .env("FOE_DATA_DIR", folder.join("data"))
        .env("HOME", folder)
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "1")
        .env_remove("XDG_DATA_HOME")
        .env_remove("FOE_TABLES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some((name, value)) = foe.marker {
        command.env(name, value);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => {
            return Outcome {
                ending: Ending::Crashed,
                stdout_tail: String::new(),
                stderr: format!("cannot start {}: {error}", foe.program.display()),
            };
        }
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    // The child may stop reading (it quit, or it panicked): a broken pipe
    // here is normal.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || keep_tail(&mut stdout));
    let err_reader = std::thread::spawn(move || keep_head(&mut stderr));
    let mut hung = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > timeout => {
                hung = true;
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let _ = writer.join();
    let stdout_tail = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let ending = if hung {
        Ending::Hung
    } else {
        match status.and_then(|status| status.code()) {
            Some(101) => Ending::Panicked,
            _ if stderr.contains("panicked at") => Ending::Panicked,
            Some(code) => Ending::Exited(code),
            None => Ending::Crashed,
        }
    };
    Outcome {
        ending,
        stdout_tail,
        stderr,
    }
}

/// Read to the end, keeping the last [`KEEP`] bytes.
fn keep_tail(reader: &mut dyn Read) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buffer[..n]);
                if kept.len() > 2 * KEEP {
                    kept.drain(..kept.len() - KEEP);
                }
            }
        }
    }
    if kept.len() > KEEP {
        kept.drain(..kept.len() - KEEP);
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Read to the end, keeping the first [`KEEP`] bytes.
fn keep_head(reader: &mut dyn Read) -> String {
    let mut kept: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = KEEP.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}
