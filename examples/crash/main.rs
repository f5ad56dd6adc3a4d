//! The crash test: start `foe play guilford` (or `foe companion --army
//! french`) with its data folder in a scratch folder, feed it commands,
//! `kill -9` it at a random moment after a random acknowledged line, then
//! check the autosave: it parses, it holds exactly every acknowledged
//! action (and perhaps the one in flight when the kill came, which was
//! saved before its result could be printed), `--resume` picks it up, and
//! no temporary file is left once the resumed game has written (its
//! next write removes what a killed write left).
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

mod kill;

use clap::Parser;
use kill::{Repl, kill_once};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::time::Instant;

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
        let found = kill_once(&program, Some(CHILD), &folder, repl, &mut rng);
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
