//! One kill of the crash test, and the checks after it (shared by
//! `examples/crash` and the short crash test in `cargo test`).
//!
//! A line is *acknowledged* once anything after its echo has been printed:
//! its result, or the next line's prompt (a REPL reads its next line only
//! after it has saved and printed what the last one did). The action list
//! a line leaves is found by a reference run: a fresh foe fed exactly the
//! acknowledged lines and then the end of input, saving to its own file.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Which REPL a kill is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repl {
    /// `foe play guilford`.
    Play,
    /// `foe companion --army french`.
    Companion,
}

/// What one kill found.
#[derive(Debug, Default)]
pub struct Found {
    /// Lines acknowledged before the kill.
    pub acknowledged: u64,
    /// The save held the line in flight too.
    pub in_flight_kept: bool,
    /// The game finished its input before the kill.
    pub finished_first: bool,
    /// Temporary files present right after the kill.
    pub temps_after_kill: usize,
    /// What is wrong, each starting `lost:`, `corrupt:`, `unresumable:` or `temp:`.
    pub problems: Vec<String>,
}

/// A script of mostly lawful commands.
fn script(repl: Repl, rng: &mut ChaCha8Rng) -> Vec<String> {
    let count = rng.random_range(25..90);
    (0..count)
        .map(|_| match repl {
            Repl::Play => play_line(rng),
            Repl::Companion => companion_line(rng),
        })
        .collect()
}

fn play_line(rng: &mut ChaCha8Rng) -> String {
    let unit = rng.random_range(1..8);
    let enemy = rng.random_range(1..13);
    match rng.random_range(0..20) {
        0..=2 => "end".into(),
        3..=4 => "end turn".into(),
        5..=8 => format!("move B{unit} forward {}", rng.random_range(1..7)),
        9 => format!("move B{unit} forward max"),
        10 => format!("pivot B{unit} {}", rng.random_range(0..360)),
        11..=12 => format!("fire B{unit} A{enemy}"),
        13 => format!("charge B{unit} A{enemy}"),
        14 => format!("rally BG1 B{unit}"),
        15 => "undo".into(),
        16 => "undo turn".into(),
        17 => format!("rewind {}", rng.random_range(1..4)),
        18 => "history".into(),
        _ => "status".into(),
    }
}

fn companion_line(rng: &mut ChaCha8Rng) -> String {
    let units = ["marine", "ottawas", "hurons", "canadiens", "coureurs"];
    let unit = units[rng.random_range(0..units.len())];
    match rng.random_range(0..20) {
        0..=2 => "bound".into(),
        3..=9 => {
            let answers = [
                "open", "natural", "hard", "yes", "no", "far", "4", "9", "0", "1",
            ];
            answers[rng.random_range(0..answers.len())].into()
        }
        10..=13 => format!(
            "unit {unit} {} d={} lost={}",
            ["open", "natural", "hard"][rng.random_range(0..3)],
            rng.random_range(1..20),
            rng.random_range(0..3)
        ),
        14 => "undo".into(),
        15 => "report enemy-attacking".into(),
        16 => format!("melee {unit}"),
        17 => "history".into(),
        _ => "status".into(),
    }
}

fn foe_command(program: &Path, marker: Option<&str>, folder: &Path) -> Command {
    let mut command = Command::new(program);
    if let Some(marker) = marker {
        command.env(marker, "1");
    }
    command
        .current_dir(folder.join("work"))
        .env("FOE_DATA_DIR", folder.join("data"))
        .env("HOME", folder)
        .env("NO_COLOR", "1")
        .env_remove("XDG_DATA_HOME")
        .env_remove("FOE_TABLES");
    command
}

fn game_args(repl: Repl, seed: u64) -> Vec<String> {
    let seed = seed.to_string();
    match repl {
        Repl::Play => vec!["play".into(), "guilford".into(), "--seed".into(), seed],
        Repl::Companion => vec![
            "companion".into(),
            "--army".into(),
            "french".into(),
            "--seed".into(),
            seed,
        ],
    }
}

fn saves_dir(folder: &Path, repl: Repl) -> PathBuf {
    folder.join("data").join(match repl {
        Repl::Play => "play-saves",
        Repl::Companion => "companion-saves",
    })
}

/// Play a script in `folder`, kill the game, and check what it left.
/// `program` is foe, or a program that is foe when `marker` is set.
pub fn kill_once(
    program: &Path,
    marker: Option<&str>,
    folder: &Path,
    repl: Repl,
    rng: &mut ChaCha8Rng,
) -> Found {
    let mut found = Found::default();
    std::fs::create_dir_all(folder.join("work")).expect("a work folder");
    std::fs::create_dir_all(folder.join("data")).expect("a data folder");
    let seed: u64 = rng.random();
    let lines = script(repl, rng);
    let kill_after = rng.random_range(1..lines.len() as u64);
    let delay = match rng.random_range(0..4) {
        0 => Duration::ZERO,
        1 => Duration::from_micros(rng.random_range(0..500)),
        _ => Duration::from_micros(rng.random_range(0..5_000)),
    };
    let mut child = foe_command(program, marker, folder)
        .args(game_args(repl, seed))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("foe starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let output = Arc::new(Mutex::new(Vec::<String>::new()));
    let stdout = child.stdout.take().expect("stdout");
    let reader = {
        let output = output.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                let text = String::from_utf8_lossy(&line)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                output.lock().expect("output").push(text);
                line.clear();
            }
        })
    };
    // Feed the lines one at a time, each once the last one's echo shows
    // it was read, up to the chosen line; the kill then comes while that
    // line is being carried out, or a little after.
    let deadline = Instant::now() + Duration::from_secs(120);
    for (index, line) in lines.iter().enumerate().take(kill_after as usize + 1) {
        if stdin.write_all(format!("{line}\n").as_bytes()).is_err() {
            break;
        }
        let _ = stdin.flush();
        loop {
            let (echoed, _) = echoes(&output.lock().expect("output"), &lines);
            if echoed > index || Instant::now() > deadline {
                break;
            }
            if let Ok(Some(_)) = child.try_wait() {
                found.finished_first = true;
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }
    std::thread::sleep(delay);
    let _ = child.kill();
    let _ = child.wait();
    drop(stdin);
    let _ = reader.join();
    let output = output.lock().expect("output").clone();
    let (_, acked) = echoes(&output, &lines);
    found.acknowledged = acked as u64;

    let dir = saves_dir(folder, repl);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    found.temps_after_kill = names.iter().filter(|name| name.ends_with(".tmp")).count();
    let saves: Vec<&String> = names
        .iter()
        .filter(|name| name.ends_with(".json") && !name.starts_with('.'))
        .collect();
    let [save] = saves.as_slice() else {
        found.problems.push(format!(
            "corrupt: {} saves in {} after the kill",
            saves.len(),
            dir.display()
        ));
        return found;
    };
    let text = std::fs::read_to_string(dir.join(save)).unwrap_or_default();
    let Some(saved) = record(repl, &text) else {
        found
            .problems
            .push(format!("corrupt: {save} does not parse after the kill"));
        return found;
    };
    let expected = reference(program, marker, folder, repl, seed, &lines[..acked]);
    if Some(&saved) != expected.as_ref() {
        let next = (acked < lines.len())
            .then(|| reference(program, marker, folder, repl, seed, &lines[..=acked]));
        if next.flatten().as_ref() == Some(&saved) {
            found.in_flight_kept = true;
        } else {
            found.problems.push(format!(
                "lost: after {acked} acknowledged lines the save differs from a game fed exactly those (last line `{}`)",
                lines[acked.saturating_sub(1)]
            ));
        }
    }
    // The game resumes, and its next write clears the kill's temporary
    // files: a resumed play game writes at once, a companion game at its
    // next action (a lost melee, which is always accepted).
    let resume_input = match repl {
        Repl::Play => "history\nquit\n",
        Repl::Companion => "status\nmelee marine\nquit\n",
    };
    let resumed = foe_command(program, marker, folder)
        .args(match repl {
            Repl::Play => ["play", "--resume"],
            Repl::Companion => ["companion", "--resume"],
        })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(resume_input.as_bytes());
            }
            child.wait_with_output()
        });
    match resumed {
        Ok(output) if output.status.success() && output.stderr.is_empty() => {}
        Ok(output) => found.problems.push(format!(
            "unresumable: status {:?}: {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(error) => found.problems.push(format!("unresumable: {error}")),
    }
    let left = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
                .count()
        })
        .unwrap_or(0);
    if left > 0 {
        found.problems.push(format!(
            "temp: {left} temporary files in {} after the resumed game wrote",
            dir.display()
        ));
    }
    found
}

/// How many lines were read, and how many acknowledged, in `output`: each
/// line's echo is found in order (the prompt, ending `> ` or `: `, then
/// the line), and a line is acknowledged once anything follows its echo.
fn echoes(output: &[String], lines: &[String]) -> (usize, usize) {
    let mut next = 0;
    let mut echoes = Vec::new();
    for (at, printed) in output.iter().enumerate() {
        let Some(line) = lines.get(next) else { break };
        if printed.ends_with(&format!("> {line}")) || printed.ends_with(&format!(": {line}")) {
            echoes.push(at);
            next += 1;
        }
    }
    let acknowledged = echoes.iter().filter(|&&at| at + 1 < output.len()).count();
    (echoes.len(), acknowledged)
}

/// What a save holds, less the time it was begun; `None` if it does not parse.
fn record(repl: Repl, text: &str) -> Option<serde_json::Value> {
    let parses = match repl {
        Repl::Play => foe::host::save::GameSave::from_json(text).is_ok(),
        Repl::Companion => foe::companion::SaveFile::from_json(text).is_ok(),
    };
    if !parses {
        return None;
    }
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    if let Some(object) = value.as_object_mut() {
        object.remove("started");
    }
    Some(value)
}

/// The save of a fresh game fed exactly `lines` and then the end of input.
fn reference(
    program: &Path,
    marker: Option<&str>,
    folder: &Path,
    repl: Repl,
    seed: u64,
    lines: &[String],
) -> Option<serde_json::Value> {
    let file = folder.join("reference.json");
    let _ = std::fs::remove_file(&file);
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let mut args = game_args(repl, seed);
    args.push("--autosave".into());
    args.push(file.display().to_string());
    let mut child = foe_command(program, marker, folder)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait().ok()?;
    let text = std::fs::read_to_string(&file).ok()?;
    record(repl, &text)
}
