//! What session `index` of a soak seeded `seed` does, and doing it.
//!
//! A plan depends only on the run's seed and the session's index, so any
//! session of any run can be replayed alone (`--seed S --session I`) and
//! two runs with the same seed do the same sessions in the same order,
//! however many threads share them out.

use super::library::{self, Ready};
use super::lines::{Lines, Vocab};
use super::session::{self, Ending, Foe, Outcome};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The kinds of session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `foe play` as the player, then `foe play --resume`.
    Play,
    /// `foe play --side none`, then `--resume`.
    Watch,
    /// `foe companion`, then `foe companion --resume`.
    Companion,
    /// Random legal (and adversarial) play on the library, in process.
    Library,
}

/// One run of foe in a session.
#[derive(Debug, Clone)]
pub struct Step {
    /// foe's arguments.
    pub args: Vec<String>,
    /// Its standard input.
    pub input: Vec<u8>,
    /// How many lines that is.
    pub lines: u64,
    /// Whether this step resumes the one before, which must then work.
    pub resumes: bool,
}

/// What one session does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The session's index in the run.
    pub index: u64,
    /// Its kind.
    pub kind: Kind,
    /// The runs of foe, in order (none for [`Kind::Library`]).
    pub steps: Vec<Step>,
    /// For [`Kind::Library`]: which scenario and which seed.
    pub game: Option<(usize, u64)>,
}

/// The generator of session `index` of the run seeded `seed`.
pub fn rng_for(seed: u64, index: u64) -> ChaCha8Rng {
    // SplitMix64 of the pair, so neighbouring indices share nothing.
    let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

/// The plan of session `index`; `scale` multiplies the number of lines
/// (1.0 for the soak, less for the quick run in `cargo test`).
pub fn plan(seed: u64, index: u64, ready: &[Ready], scale: f64) -> Plan {
    let mut rng = rng_for(seed, index);
    let kind = match index % 10 {
        0..=3 => Kind::Play,
        4 => Kind::Watch,
        5..=7 => Kind::Companion,
        _ => Kind::Library,
    };
    let lines = |rng: &mut ChaCha8Rng, low: u64, high: u64| {
        let n = rng.random_range(low..high);
        ((n as f64 * scale).ceil() as u64).max(1)
    };
    let mut steps = Vec::new();
    let mut game = None;
    match kind {
        Kind::Play | Kind::Watch => {
            let which = scenario_index(&mut rng, ready);
            let scenario = &ready[which];
            let vocab = Vocab::of_scenario(&scenario.scenario);
            let sides: Vec<String> = scenario
                .scenario
                .sides
                .iter()
                .map(|side| side.name.clone())
                .collect();
            let mut args = vec!["play".to_string(), scenario.name.to_string()];
            args.extend(["--seed".into(), rng.random::<u64>().to_string()]);
            let player = if kind == Kind::Watch {
                None
            } else {
                Some(rng.random_range(0..sides.len()))
            };
            match player {
                None => args.extend(["--side".into(), "none".into()]),
                Some(side) => match rng.random_range(0..20) {
                    0 => args.extend(["--side".into(), sides[side][..1].to_string()]),
                    1 => args.extend(["--side".into(), "nobody".into()]),
                    _ => args.extend(["--side".into(), sides[side].clone()]),
                },
            }
            if rng.random_range(0..8) == 0 {
                let other = sides
                    .iter()
                    .enumerate()
                    .find(|(index, _)| Some(*index) != player)
                    .map(|(_, name)| name.clone())
                    .unwrap_or_default();
                args.extend(["--baseline".into(), other]);
            }
            match rng.random_range(0..10) {
                0 => args.push("--quiet".into()),
                1 => args.push("--verbose".into()),
                2 => args.push("--map".into()),
                3 => args.extend(["--width".into(), rng.random_range(0..300).to_string()]),
                _ => {}
            }
            if kind == Kind::Watch && rng.random_range(0..2) == 0 {
                args.push("--no-pause".into());
            }
            if kind == Kind::Play && rng.random_range(0..10) == 0 {
                args.insert(0, "ask".into());
                args.insert(0, "--dice".into());
            }
            let count = if kind == Kind::Watch {
                lines(&mut rng, 0, 40)
            } else {
                lines(&mut rng, 100, 400)
            };
            let mut generator = Lines::new(&mut rng);
            let input = join((0..count).map(|_| {
                if kind == Kind::Watch {
                    generator.watch(&vocab)
                } else {
                    generator.play(&vocab)
                }
            }));
            steps.push(Step {
                args,
                input,
                lines: count,
                resumes: false,
            });
            let more = lines(&mut rng, 10, 60);
            let mut generator = Lines::new(&mut rng);
            let mut input = join((0..more).map(|_| generator.play(&vocab)));
            input.extend_from_slice(b"quit\n");
            steps.push(Step {
                args: vec!["play".into(), "--resume".into()],
                input,
                lines: more + 1,
                resumes: true,
            });
        }
        Kind::Companion => {
            let vocab = Vocab::companion();
            let mut args = vec!["companion".to_string()];
            match rng.random_range(0..4) {
                0 => {}
                1 => args.extend(["--army".into(), "british".into()]),
                _ => args.extend(["--army".into(), "french".into()]),
            }
            args.extend(["--seed".into(), rng.random::<u64>().to_string()]);
            if rng.random_range(0..10) == 0 {
                args.insert(0, "ask".into());
                args.insert(0, "--dice".into());
            }
            let count = lines(&mut rng, 100, 400);
            let mut generator = Lines::new(&mut rng);
            let input = join((0..count).map(|_| generator.companion(&vocab)));
            steps.push(Step {
                args,
                input,
                lines: count,
                resumes: false,
            });
            let more = lines(&mut rng, 10, 60);
            let mut generator = Lines::new(&mut rng);
            let input = join((0..more).map(|_| generator.companion(&vocab)));
            steps.push(Step {
                args: vec!["companion".into(), "--resume".into()],
                input,
                lines: more,
                resumes: true,
            });
        }
        Kind::Library => {
            game = Some((scenario_index(&mut rng, ready), rng.random::<u64>()));
        }
    }
    Plan {
        index,
        kind,
        steps,
        game,
    }
}

/// A built-in scenario, Guilford most often; the big `stress` table least.
fn scenario_index(rng: &mut ChaCha8Rng, ready: &[Ready]) -> usize {
    let wanted = match rng.random_range(0..20) {
        0..=7 => "guilford",
        8..=11 => "learning",
        12..=14 => "guilford-rv",
        15..=18 => "monongahela",
        _ => "stress",
    };
    ready.iter().position(|r| r.name == wanted).unwrap_or(0)
}

fn join(lines: impl Iterator<Item = Vec<u8>>) -> Vec<u8> {
    let mut input = Vec::new();
    for line in lines {
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    input
}

/// What went wrong in a session.
#[derive(Debug, Clone)]
pub struct Failure {
    /// `panic`, `crash`, `hang`, `violation` or `unresumable`.
    pub what: &'static str,
    /// The session.
    pub index: u64,
    /// The step (0 first), for REPL sessions.
    pub step: Option<usize>,
    /// The arguments, the standard error and the end of the output, or
    /// the library's report.
    pub detail: String,
    /// The standard input of the step.
    pub input: Vec<u8>,
}

/// What a session did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// REPL runs of foe.
    pub runs: u64,
    /// Lines fed to foe.
    pub lines: u64,
    /// Actions applied on the library.
    pub actions: u64,
    /// Adversarial actions tried on the library.
    pub adversarial: u64,
    /// What went wrong.
    pub failures: Vec<Failure>,
    /// Each run's standard error and the end of its output (kept only
    /// when a session is replayed alone).
    pub outputs: Vec<String>,
}

/// The files a session's folder starts with.
pub struct Fixtures {
    /// A valid `foe play` save.
    pub play_save: String,
    /// A valid companion save.
    pub companion_save: String,
}

impl Fixtures {
    /// Made in process: a short game of `learning` and a companion bound.
    pub fn new(ready: &[Ready], tables: &std::sync::Arc<foe::tables::Tables>) -> Fixtures {
        let learning = ready
            .iter()
            .find(|r| r.name == "learning")
            .expect("learning is built in");
        let (file, text) = foe::scenario::builtin("learning").expect("learning is built in");
        let mut game = foe::host::run::Start::new(learning.scenario.clone(), tables.clone(), 7)
            .player_sides(vec![0])
            .begin()
            .expect("a game of learning");
        game.play_foe().expect("foe plays");
        // Two turns ended, a phase at a time, as `end turn` does.
        for _ in 0..2 {
            let turn = game.game.turn();
            while game.player_to_act() && game.game.turn() == turn {
                let Some(pass) = foe::host::repl::pass(&game.game) else {
                    break;
                };
                if game.player(&pass).is_err() {
                    break;
                }
                let _ = game.play_foe();
            }
        }
        let file = foe::save::ScenarioFile {
            shown_as: file.into(),
            text: text.into(),
        };
        let play_save =
            foe::host::save::GameSave::of(&game, file, None, &foe::save::Running::new(None))
                .to_json();
        let (shown_as, army_text) = foe::companion::army::example("french").expect("french army");
        let army =
            foe::companion::army::parse(tables, shown_as, army_text).expect("the french army");
        let mut session = foe::companion::Session::new();
        let mut dice = foe::dice::Seeded::new(7);
        session
            .apply(tables, foe::companion::Action::LoadArmy { army }, &mut dice)
            .expect("the army loads");
        session
            .apply(tables, foe::companion::Action::StartBound, &mut dice)
            .expect("a bound starts");
        let companion_save = foe::companion::SaveFile::of(&session, None, &[]).to_json();
        Fixtures {
            play_save,
            companion_save,
        }
    }
}

/// Carry out `plan`: its runs of foe in a fresh folder under `scratch`
/// (removed afterwards), or its library game.
#[allow(clippy::too_many_arguments)]
pub fn carry_out(
    plan: &Plan,
    foe: &Foe,
    fixtures: &Fixtures,
    ready: &[Ready],
    tables: &foe::tables::Tables,
    scratch: &Path,
    timeout: Duration,
    keep_output: bool,
) -> Report {
    let mut report = Report::default();
    if let Some((which, seed)) = plan.game {
        let ready = &ready[which];
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            library::random_game(ready, tables, seed, 3_000)
        }));
        match played {
            Ok(played) => {
                report.actions += played.actions;
                report.adversarial += played.adversarial;
                if let Some(violation) = played.violation {
                    report.failures.push(Failure {
                        what: "violation",
                        index: plan.index,
                        step: None,
                        detail: violation,
                        input: Vec::new(),
                    });
                }
            }
            Err(panic) => report.failures.push(Failure {
                what: "panic",
                index: plan.index,
                step: None,
                detail: format!(
                    "library game of {} seed {seed}: {}",
                    ready.name,
                    panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default()
                ),
                input: Vec::new(),
            }),
        }
        return report;
    }
    let folder: PathBuf = scratch.join(format!("session-{}", plan.index));
    let _ = std::fs::remove_dir_all(&folder);
    let prepared = std::fs::create_dir_all(folder.join("data")).and_then(|()| {
        session::prepare_folder(
            &folder.join("work"),
            &fixtures.play_save,
            &fixtures.companion_save,
        )
    });
    if let Err(error) = prepared {
        report.failures.push(Failure {
            what: "crash",
            index: plan.index,
            step: None,
            detail: format!(
                "the harness could not prepare {}: {error}",
                folder.display()
            ),
            input: Vec::new(),
        });
        return report;
    }
    let mut previous: Option<Outcome> = None;
    for (number, step) in plan.steps.iter().enumerate() {
        let saved = saves_in(&folder.join("data"));
        if step.resumes && (saved == 0 || previous.as_ref().is_some_and(Outcome::failed)) {
            // Nothing to resume: the game before never started (bad
            // arguments) or it failed, which is reported already.
            continue;
        }
        let outcome = session::run(foe, &step.args, &step.input, &folder, timeout);
        report.runs += 1;
        report.lines += step.lines;
        if keep_output {
            report.outputs.push(format!(
                "$ foe {}\n{}\n--- stderr ---\n{}",
                step.args.join(" "),
                tail_lines(&outcome.stdout_tail, 60),
                outcome.stderr
            ));
        }
        let what = match outcome.ending {
            Ending::Panicked => Some("panic"),
            Ending::Crashed => Some("crash"),
            Ending::Hung => Some("hang"),
            Ending::Exited(0) => None,
            Ending::Exited(_) if step.resumes => Some("unresumable"),
            Ending::Exited(_) => None,
        };
        if let Some(what) = what {
            report.failures.push(Failure {
                what,
                index: plan.index,
                step: Some(number),
                detail: format!(
                    "foe {}\n--- stderr ---\n{}\n--- end of stdout ---\n{}",
                    step.args.join(" "),
                    outcome.stderr,
                    tail_lines(&outcome.stdout_tail, 40)
                ),
                input: step.input.clone(),
            });
        }
        previous = Some(outcome);
    }
    let _ = std::fs::remove_dir_all(&folder);
    report
}

/// How many saves foe's data folder holds.
fn saves_in(data: &Path) -> usize {
    ["play-saves", "companion-saves"]
        .iter()
        .filter_map(|dir| std::fs::read_dir(data.join(dir)).ok())
        .map(|entries| {
            entries
                .flatten()
                .filter(|entry| entry.file_name().to_string_lossy().ends_with(".json"))
                .count()
        })
        .sum()
}

/// The last `count` lines of `text`, each cut to 300 characters.
fn tail_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..]
        .iter()
        .map(|line| match line.char_indices().nth(300) {
            Some((at, _)) => format!("{}…", &line[..at]),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
