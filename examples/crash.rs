//! The crash test: start `foe play guilford` (or `foe companion --army
//! french`) with its data folder in a scratch folder, feed it commands,
//! `kill -9` it at a random moment after a random acknowledged line, then
//! check the autosave: it parses, it holds exactly every acknowledged
//! action (and perhaps the one in flight when the kill came, which was
//! saved before its result could be printed), `--resume` picks it up, and
//! no temporary file is left once the resumed game has written.
//!
//! ```text
//! cargo run --profile soak --example crash -- --kills 200
//! scripts/crash-test.sh 200
//! ```
//!
//! A line is *acknowledged* once anything after its echo has been printed:
//! its result, or the next line's prompt (a REPL reads its next line only
//! after it has saved and printed what the last one did). The action list
//! a line leaves is found by a reference run: a fresh foe fed exactly the
//! acknowledged lines and then the end of input, saving to its own file.
//!
//! This program starts itself again as `foe` (`FOE_CRASH_CHILD=1`), so it
//! needs no separately built binary.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The variable that makes this program `foe`.
const CHILD: &str = "FOE_CRASH_CHILD";

/// Kill foe mid-game and check that nothing acknowledged is lost.
#[derive(Debug, Parser)]
struct Args {
    /// How many games to kill.
    #[arg(long, default_value_t = 20)]
    kills: u64,
    /// The run's seed (scripts, kill points and games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print each kill.
    #[arg(long)]
    verbose: bool,
}

/// Which REPL a kill is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repl {
    Play,
    Companion,
}

/// What one kill found.
#[derive(Debug, Default)]
struct Found {
    acknowledged: u64,
    /// The save held the line in flight too.
    in_flight_kept: bool,
    /// The game finished its input before the kill.
    finished_first: bool,
    /// Temporary files present right after the kill.
    temps_after_kill: usize,
    problems: Vec<String>,
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        let status = foe::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
        std::process::exit(status);
    }
    let args = Args::parse();
    let program = std::env::current_exe().expect("this program's path");
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let started = Instant::now();
    let (mut acknowledged, mut in_flight, mut finished, mut temps) = (0, 0, 0, 0);
    let (mut lost, mut corrupt, mut unresumable, mut temps_kept) = (0, 0, 0, 0);
    let mut kinds = [0u64; 2];
    for kill in 0..args.kills {
        let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003) ^ kill);
        let repl = if kill % 4 == 3 {
            Repl::Companion
        } else {
            Repl::Play
        };
        kinds[usize::from(repl == Repl::Companion)] += 1;
        let folder = scratch.path().join(format!("kill-{kill}"));
        let found = kill_once(&program, &folder, repl, &mut rng);
        acknowledged += found.acknowledged;
        in_flight += u64::from(found.in_flight_kept);
        finished += u64::from(found.finished_first);
        temps += found.temps_after_kill;
        for problem in &found.problems {
            let counter = match problem.split(':').next().unwrap_or("") {
                "lost" => &mut lost,
                "corrupt" => &mut corrupt,
                "temp" => &mut temps_kept,
                _ => &mut unresumable,
            };
            *counter += 1;
            println!("kill {kill} ({repl:?}): {problem}");
        }
        if args.verbose {
            println!(
                "kill {kill} ({repl:?}): {} acknowledged{}{}, {} temporary files",
                found.acknowledged,
                if found.in_flight_kept {
                    ", the line in flight saved too"
                } else {
                    ""
                },
                if found.finished_first {
                    ", finished before the kill"
                } else {
                    ""
                },
                found.temps_after_kill
            );
        }
        let _ = std::fs::remove_dir_all(&folder);
    }
    println!(
        "crash test: seed {}, {} kills (play {}, companion {}) in {:.0} s",
        args.seed,
        args.kills,
        kinds[0],
        kinds[1],
        started.elapsed().as_secs_f64()
    );
    println!("  acknowledged lines     {acknowledged}");
    println!("  lost                   {lost} (kills whose save lacks an acknowledged action)");
    println!("  corrupt saves          {corrupt}");
    println!("  unresumable            {unresumable}");
    println!("  temporary files kept   {temps_kept} (after the resumed game wrote)");
    println!("  in flight, also saved  {in_flight} (saved before its result was printed)");
    println!("  temporary files left by the kill, then cleaned: {temps}");
    if finished > 0 {
        println!("  games that ended their input before the kill: {finished}");
    }
    if lost + corrupt + unresumable + temps_kept > 0 {
        std::process::exit(1);
    }
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

fn foe_command(program: &Path, folder: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .current_dir(folder.join("work"))
        .env(CHILD, "1")
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

/// Play a script, kill the game, and check what it left.
fn kill_once(program: &Path, folder: &Path, repl: Repl, rng: &mut ChaCha8Rng) -> Found {
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
    let mut child = foe_command(program, folder)
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
    let expected = reference(program, folder, repl, seed, &lines[..acked]);
    if Some(&saved) != expected.as_ref() {
        let next =
            (acked < lines.len()).then(|| reference(program, folder, repl, seed, &lines[..=acked]));
        if next.flatten().as_ref() == Some(&saved) {
            found.in_flight_kept = true;
        } else {
            found.problems.push(format!(
                "lost: after {acked} acknowledged lines the save differs from a game fed exactly those (last line `{}`)",
                lines[acked.saturating_sub(1)]
            ));
        }
    }
    // The game resumes, and its first write clears the kill's temporary files.
    let resume_input = match repl {
        Repl::Play => "history\nquit\n",
        Repl::Companion => "status\nquit\n",
    };
    let resumed = foe_command(program, folder)
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
        Repl::Play => foe::play::SaveFile::from_json(text).is_ok(),
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
    let mut child = foe_command(program, folder)
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
