//! The soak runner: `foe play` and `foe companion` sessions fed random and
//! adversarial lines, and random play on the library with the rules
//! invariants checked after every action, for a time or a number of
//! sessions, on two threads. Counts sessions, lines, actions, panics,
//! invariant violations and hangs, and keeps every failing session's input.
//!
//! ```text
//! cargo run --profile soak --example soak -- --seconds 600
//! cargo run --profile soak --example soak -- --sessions 200 --seed 7
//! cargo run --profile soak --example soak -- --seed 7 --session 41   # replay one
//! ```
//!
//! The REPLs run as child processes: this program starts itself again with
//! `FOE_SOAK_CHILD=1`, and is then `foe` (the same `foe::cli::run` as the
//! binary), so it needs no separately built `foe`. A session is the run
//! seed and its index: `--seed S --session I` replays it alone.

// The same allocator as the `foe` binary, so the children are the binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod library;
mod lines;
mod plan;
mod session;

use clap::Parser;
use plan::{Failure, Fixtures, Kind, Report};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The variable that makes this program `foe`.
const CHILD: &str = "FOE_SOAK_CHILD";

/// Soak foe's REPLs and rules engine with random and adversarial input.
#[derive(Debug, Parser)]
struct Args {
    /// Run for this many seconds (starting no session after it).
    #[arg(long, conflicts_with = "sessions")]
    seconds: Option<u64>,
    /// Run this many sessions.
    #[arg(long)]
    sessions: Option<u64>,
    /// The run's seed: the same seed gives the same sessions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replay this one session of the run (with its output).
    #[arg(long)]
    session: Option<u64>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// A session still running after this many seconds has hung.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Where failing sessions' inputs and outputs are kept.
    #[arg(long, default_value = "target/soak-failures")]
    failures: PathBuf,
}

/// Totals over the sessions run.
#[derive(Debug, Default)]
struct Totals {
    sessions: [u64; 4],
    runs: u64,
    lines: u64,
    actions: u64,
    adversarial: u64,
    failures: Vec<Failure>,
}

impl Totals {
    fn add(&mut self, kind: Kind, report: Report) {
        self.sessions[kind as usize] += 1;
        self.runs += report.runs;
        self.lines += report.lines;
        self.actions += report.actions;
        self.adversarial += report.adversarial;
        self.failures.extend(report.failures);
    }

    fn count(&self, what: &str) -> usize {
        self.failures.iter().filter(|f| f.what == what).count()
    }
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let stdout = std::io::stdout();
        let stderr = std::io::stderr();
        let status = foe::cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr.lock());
        std::process::exit(status);
    }
    let args = Args::parse();
    let foe = session::Foe {
        program: std::env::current_exe().expect("this program's path"),
        marker: Some((CHILD, "1")),
    };
    let tables = Arc::new(foe::tables::Tables::embedded());
    let ready = Arc::new(library::builtins());
    let fixtures = Arc::new(Fixtures::new(&ready, &tables));
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let timeout = Duration::from_secs(args.timeout);

    if let Some(index) = args.session {
        let plan = plan::plan(args.seed, index, &ready, 1.0);
        println!("session {index} of seed {}: {:?}", args.seed, plan.kind);
        for step in &plan.steps {
            println!(
                "  foe {}  ({} lines of input)",
                step.args.join(" "),
                step.lines
            );
        }
        let report = plan::carry_out(
            &plan,
            &foe,
            &fixtures,
            &ready,
            &tables,
            scratch.path(),
            timeout,
            true,
        );
        for output in &report.outputs {
            println!("{output}");
        }
        for failure in &report.failures {
            println!("{}: {}", failure.what, failure.detail);
        }
        println!(
            "runs {}, lines {}, actions {}, failures {}",
            report.runs,
            report.lines,
            report.actions,
            report.failures.len()
        );
        std::process::exit(i32::from(!report.failures.is_empty()));
    }

    let deadline = args
        .seconds
        .map(|seconds| Instant::now() + Duration::from_secs(seconds));
    let limit = args
        .sessions
        .unwrap_or(if deadline.is_some() { u64::MAX } else { 100 });
    let next = Arc::new(AtomicU64::new(0));
    let totals = Arc::new(Mutex::new(Totals::default()));
    let started = Instant::now();
    eprintln!(
        "soak: seed {}, {} threads, {}",
        args.seed,
        args.threads,
        match args.seconds {
            Some(seconds) => format!("{seconds} s"),
            None => format!("{limit} sessions"),
        }
    );
    let workers: Vec<_> = (0..args.threads.max(1))
        .map(|_| {
            let (next, totals, ready, fixtures, tables, foe) = (
                next.clone(),
                totals.clone(),
                ready.clone(),
                fixtures.clone(),
                tables.clone(),
                foe.clone(),
            );
            let scratch = scratch.path().to_path_buf();
            let seed = args.seed;
            std::thread::spawn(move || {
                let mut last_note = Instant::now();
                loop {
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= limit {
                        break;
                    }
                    let plan = plan::plan(seed, index, &ready, 1.0);
                    let report = plan::carry_out(
                        &plan, &foe, &fixtures, &ready, &tables, &scratch, timeout, false,
                    );
                    for failure in &report.failures {
                        eprintln!(
                            "soak: session {index}: {} ({})",
                            failure.what,
                            first_line(&failure.detail)
                        );
                    }
                    let mut totals = totals.lock().expect("totals");
                    totals.add(plan.kind, report);
                    if last_note.elapsed() > Duration::from_secs(60) {
                        last_note = Instant::now();
                        eprintln!(
                            "soak: {:.0} s, {} sessions, {} lines, {} actions, {} failures",
                            started.elapsed().as_secs_f64(),
                            totals.sessions.iter().sum::<u64>(),
                            totals.lines,
                            totals.actions,
                            totals.failures.len()
                        );
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a worker thread");
    }
    let totals = totals.lock().expect("totals");
    let elapsed = started.elapsed().as_secs_f64();
    let [play, watch, companion, library] = totals.sessions;
    println!(
        "soak: seed {}, {} threads, {elapsed:.0} s",
        args.seed, args.threads
    );
    println!(
        "  sessions     {} (play {play}, watch {watch}, companion {companion}, library games {library})",
        play + watch + companion + library
    );
    println!(
        "  foe runs     {} (each REPL session and its --resume)",
        totals.runs
    );
    println!("  lines fed    {}", totals.lines);
    println!(
        "  actions      {} legal on the library, {} adversarial, invariants checked after each",
        totals.actions, totals.adversarial
    );
    println!("  panics       {}", totals.count("panic"));
    println!("  crashes      {}", totals.count("crash"));
    println!("  violations   {}", totals.count("violation"));
    println!("  hangs        {}", totals.count("hang"));
    println!("  unresumable  {}", totals.count("unresumable"));
    if !totals.failures.is_empty() {
        let _ = std::fs::create_dir_all(&args.failures);
        for failure in &totals.failures {
            let name = format!(
                "seed-{}-session-{}-step-{}-{}",
                args.seed,
                failure.index,
                failure
                    .step
                    .map_or("library".into(), |step| step.to_string()),
                failure.what
            );
            let _ = std::fs::write(args.failures.join(format!("{name}.txt")), &failure.detail);
            if failure.step.is_some() {
                let _ = std::fs::write(args.failures.join(format!("{name}.stdin")), &failure.input);
            }
        }
        println!(
            "  failing sessions kept in {} (replay one: --seed {} --session N)",
            args.failures.display(),
            args.seed
        );
        std::process::exit(1);
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}
