//! `foe play`: the interactive game against the opponent.
//!
//! The edge around [`crate::play`]: it loads the scenario, reads the
//! player's lines (rustyline at a terminal, plain echoed lines from a pipe),
//! prints what the match's log says, draws maps, and keeps the files: every
//! game its own autosave in `play-saves/` (`cli::saves`), written atomically
//! after every action and every opponent turn and *before* the result is
//! printed, so what the player saw is what is saved; `save`, `load`,
//! `--resume [NAME|list]`; and rollback (`undo`, `undo turn`, `rewind N`,
//! `history`). Nothing typed ends the game but `quit` or the end of input; a
//! refused command is one line and the game goes on unchanged.

use super::Context;
use super::repl::{Completion, Console, LineSource, Plain, Read, Terminal};
use super::saves::{self, Slots, data_dir, write_atomically};
use super::start::{Args, Loaded, baseline_sides, load, read_save, refuse_the_players_side};
use crate::error::{Error, Result};
use crate::play::command::{Command, Names, parse};
use crate::play::complete::Vocabulary;
use crate::play::{GameSave, Match, ScenarioFile};
use crate::render::map::{MapStyle, map};
use crate::render::play::{self as text, Detail};
use crate::render::scene::Scene;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Run `foe play`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    if args.width < crate::render::map::MIN_WIDTH || args.width > 1000 {
        return Err(Error::Invalid(format!(
            "--width must be between {} and 1000 columns",
            crate::render::map::MIN_WIDTH
        )));
    }
    let tables = Arc::new(context.tables()?);
    let tables_dir = context.tables_dir.clone();
    if let Some(path) = &args.autosave {
        // A device, a FIFO or a folder is refused before the game starts.
        saves::check_writable(path)?;
    }
    let slots = Slots::play();
    let mut notes = Vec::new();
    let running = crate::save::Running::new(saves::tables_hash(tables_dir.as_deref())?);
    let mut lock = None;
    let (game, autosave, resumed) = if let Some(name) = &args.resume {
        let path = match (&args.autosave, slots.as_ref()) {
            (Some(path), _) => path.clone(),
            (None, Some(slots)) if name == "list" => {
                let listing = slots.listing(describe, "foe play");
                return context.print(&listing);
            }
            (None, Some(slots)) => slots.find((!name.is_empty()).then_some(name), "foe play")?,
            (None, None) => {
                return Err(Error::Invalid(
                    "no autosave folder: set FOE_DATA_DIR or HOME, or give --autosave FILE".into(),
                ));
            }
        };
        // Held before the save is read: a second foe on it is refused here.
        let held = saves::lock(&path)?;
        let save = read_save(&path)?;
        // A seed-001 or seed-002 game is resumed by their REPL, line by line.
        if !save.engine.tells_turns() {
            return super::host_play::resume(args, context, &path, save, tables, held);
        }
        lock = held;
        let (game, notice) = resume(
            &path,
            &save,
            tables.clone(),
            tables_dir.as_deref(),
            context.asks(),
            &running,
        )?;
        notes.extend(notice);
        // The resumed game goes on saving to its own file.
        (game, Some(path.clone()), Some(path))
    } else {
        // Read and validated once, here, whichever REPL plays it.
        let read = super::check::read_scenario(&args.scenario, tables_dir.as_deref())?;
        // Seed 001's and 002's games are told line by line, by their REPL.
        if !crate::host::tells_turns(&read.scenario) {
            let file = ScenarioFile {
                shown_as: read.shown_as,
                text: read.text,
            };
            return super::host_play::run(args, context, read.scenario, file, tables);
        }
        let loaded = Loaded::new(read.scenario, &read.shown_as, &read.text)?;
        let sides: Vec<String> = loaded
            .scenario
            .sides
            .iter()
            .map(|side| side.name.clone())
            .collect();
        let player_sides = match args.side.as_deref() {
            Some("none") => Vec::new(),
            Some(name) => match crate::suggest::resolve(name, sides.iter().map(String::as_str)) {
                Ok(found) => vec![sides.iter().position(|side| side == found).unwrap_or(0)],
                Err(_) => {
                    let mut valid: Vec<&str> = sides.iter().map(String::as_str).collect();
                    valid.push("none");
                    return Err(Error::unknown("side", name, valid));
                }
            },
            None => vec![0],
        };
        let names: Vec<&str> = sides.iter().map(String::as_str).collect();
        let baseline_sides = baseline_sides(&args.baseline, &names)?;
        refuse_the_players_side(&baseline_sides, &player_sides, &names)?;
        let seed = super::dice::seed_or_clock(args.seed);
        let dice: Option<Box<dyn crate::dice::Roller>> = context
            .asks()
            .then(|| Box::new(super::dice::AskRoller::new(seed)) as Box<dyn crate::dice::Roller>);
        let mut game = crate::play::MatchSetup::new(
            loaded.scenario,
            loaded.file,
            loaded.rules,
            tables.clone(),
        )
        .seed(seed)
        .player_sides(player_sides)
        .baseline_sides(baseline_sides)
        .dice(dice)
        .start()
        .map_err(|error| Error::Invalid(error.to_string()))?;
        let started = saves::now();
        game.started = Some(started);
        game.tables_hash = running.tables.clone();
        let autosave = if args.no_autosave {
            None
        } else if let Some(path) = &args.autosave {
            lock = saves::lock(path)?;
            // A new game never writes over another's save unseen.
            if let Some(previous) = saves::set_aside(path) {
                notes.push(format!(
                    "The last game saved in {} is kept as {}; `foe play --resume {}` brings it back.",
                    path.display(),
                    previous.display(),
                    previous.display()
                ));
            }
            Some(path.clone())
        } else {
            let what = Path::new(&args.scenario)
                .file_stem()
                .map_or("game".into(), |stem| stem.to_string_lossy().into_owned());
            slots.as_ref().map(|slots| slots.new_path(&what, started))
        };
        if lock.is_none()
            && let Some(path) = &autosave
        {
            lock = saves::lock(path)?;
        }
        (game, autosave, None)
    };
    // The save stays locked until the game ends.
    let _held = lock;
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let source: Box<dyn LineSource> = if interactive {
        match Terminal::new(data_dir().map(|dir| dir.join("play-history.txt"))) {
            Some(terminal) => Box::new(terminal),
            None => Box::new(Plain::new()),
        }
    } else {
        Box::new(Plain::new())
    };
    let detail = if args.quiet {
        Detail::Quiet
    } else if args.verbose {
        Detail::Verbose
    } else {
        Detail::Normal
    };
    let asks = context.asks();
    let mut repl = Repl {
        asks,
        running,
        game,
        tables,
        tables_dir,
        console: Console {
            source,
            out: &mut *context.out,
            echo: !interactive,
        },
        autosave,
        detail,
        map_every_turn: args.map,
        svg_every_turn: None,
        style: MapStyle {
            width: args.width,
            colour: interactive && super::map::colour_wanted(),
        },
        printed: 0,
    };
    // Saved before anything is shown: what the player sees is on the disk.
    repl.autosave();
    match &resumed {
        Some(path) => repl.resume_summary(path),
        None => repl.introduce(),
    }
    for note in notes {
        repl.console.say(&note);
    }
    if repl.game.watching() {
        repl.watch(args.no_pause);
    } else {
        repl.run();
    }
    repl.console.source.save_history();
    Ok(())
}

/// A saved game in short, for `--resume list`: what the save says about
/// itself, without replaying it.
fn describe(path: &Path) -> String {
    let Ok(text) = super::read_text(path) else {
        return "cannot be read".into();
    };
    match GameSave::from_json(&text) {
        Ok(save) => save.describe(),
        Err(problem) => format!("this file {problem}"),
    }
}

/// A save of a game told line by line, which this REPL cannot take over:
/// one line saying how to play it.
fn other_engine(path: &Path, save: &GameSave) -> Result<()> {
    if save.engine.tells_turns() {
        return Ok(());
    }
    Err(Error::Invalid(format!(
        "`{}` is a {} game: `foe play --resume {}` plays it",
        path.display(),
        save.engine.seed(),
        path.display()
    )))
}

/// Rebuild the seed-000 game saved at `path`.
fn resume(
    path: &Path,
    save: &GameSave,
    tables: Arc<crate::tables::Tables>,
    tables_dir: Option<&Path>,
    asks: bool,
    running: &crate::save::Running,
) -> Result<(Match, Option<String>)> {
    crate::save::check_tables(save.made.as_ref(), running)
        .map_err(|problem| Error::Invalid(format!("`{}` {problem}", path.display())))?;
    let loaded = load(&save.scenario.shown_as, &save.scenario.text, tables_dir)?;
    let ruleset = &loaded.scenario.battlefield.ruleset.name;
    save.check_engine(crate::host::engine_for(ruleset), ruleset)
        .map_err(|problem| Error::Invalid(format!("`{}` {problem}", path.display())))?;
    // A game played with the player's own dice goes on with them.
    let asks = asks || save.asked;
    let dice: Option<Box<dyn crate::dice::Roller>> = asks
        .then(|| Box::new(super::dice::AskRoller::new(save.seed)) as Box<dyn crate::dice::Roller>);
    let mut game =
        Match::from_save(save, loaded.scenario, loaded.rules, tables, dice).map_err(|error| {
            // An action refused, or the game over early, is how a game
            // played by other rules shows; a bad record of rolls is damage.
            let diverged = match &error {
                crate::play::MatchError::Replay { index, refusal } => {
                    Some(format!("action {index} refused: {refusal}"))
                }
                crate::play::MatchError::Rolls { at, problem }
                    if problem == crate::play::ALREADY_OVER =>
                {
                    Some(format!("{at}: {problem}"))
                }
                _ => None,
            };
            let said = match diverged {
                Some(problem) => crate::save::replay_failed(save.made.as_ref(), running, &problem),
                None => error.to_string(),
            };
            Error::Invalid(format!("`{}`: {said}", path.display()))
        })?;
    // An older save says the turn it was saved in, if nothing more.
    let turns = save
        .about
        .as_ref()
        .map(|about| (about.turn, game.state().turn));
    let notice = crate::save::after_replay(save.made.as_ref(), running, Some(&game.book()), turns)
        .map_err(|problem| Error::Invalid(format!("`{}` {problem}", path.display())))?;
    game.tables_hash = running.tables.clone();
    Ok((game, notice))
}

struct Repl<'a> {
    /// The player rolls real dice.
    asks: bool,
    /// The foe and tables this run plays by, checked against a save loaded.
    running: crate::save::Running,
    game: Match,
    tables: Arc<crate::tables::Tables>,
    tables_dir: Option<PathBuf>,
    console: Console<'a>,
    autosave: Option<PathBuf>,
    detail: Detail,
    map_every_turn: bool,
    /// Where `map --svg DIR/` keeps a picture of every turn.
    svg_every_turn: Option<PathBuf>,
    style: MapStyle,
    /// How many log entries have been printed.
    printed: usize,
}

impl Repl<'_> {
    fn introduce(&mut self) {
        let game = &self.game;
        let state = game.state();
        let mut text = format!("{}\n", game.scenario.title);
        for (index, side) in state.sides.iter().enumerate() {
            let who = if game.player_sides.contains(&index) {
                "you"
            } else if game.baseline_sides.contains(&index) {
                "baseline (scripted)"
            } else {
                "foe"
            };
            text.push_str(&format!("  {}: {who}\n", side.name));
        }
        text.push_str(&format!(
            "  {} turns, {} move first; seed {}\n",
            state.turns, state.sides[state.first].name, game.seed
        ));
        text.push_str(&crate::render::progress::conditions(state));
        text.push_str(
            "Type `help` for the commands, `map` for the table, `?` for what is legal now.\n",
        );
        self.console.say(&text);
        self.print_new();
    }

    /// A resumed game in a few lines, not its whole log.
    fn resume_summary(&mut self, path: &Path) {
        self.printed = self.game.log().len();
        let game = &self.game;
        let state = game.state();
        let who = if game.watching() {
            "you watch".to_string()
        } else {
            let sides: Vec<&str> = game
                .player_sides
                .iter()
                .map(|&side| state.sides[side].name.as_str())
                .collect();
            format!("you command the {}", sides.join(" and "))
        };
        let baseline: Vec<&str> = game
            .baseline_sides
            .iter()
            .filter_map(|&side| state.sides.get(side))
            .map(|side| side.name.as_str())
            .collect();
        let who = if baseline.is_empty() {
            who
        } else {
            format!(
                "{who}, the baseline (scripted) the {}",
                baseline.join(" and ")
            )
        };
        let mut text = format!(
            "Resumed {}: {}, {who}; seed {}.\n",
            path.display(),
            game.scenario.title,
            game.seed
        );
        if state.is_over() {
            text.push_str("The game is over.\n");
        } else {
            text.push_str(&format!(
                "Now: {}; {} actions of yours replayed. `log` shows the battle so far, `history` your actions.\n",
                text::prompt(state).trim_end_matches("> "),
                game.actions().len()
            ));
        }
        if game.asks() {
            text.push_str("Dice: you roll your own, as when the game was saved.\n");
        }
        self.console.say(&text);
        if state.is_over() {
            let summary = text::summary(&self.game);
            self.console.say(&summary);
        }
    }

    /// Where the game stands, in a few words (`turn 2/15 british movement`).
    fn now(&self) -> String {
        text::prompt(self.game.state())
            .trim_end_matches("> ")
            .to_string()
    }

    /// The player's actions, turn by turn.
    fn history(&self) -> String {
        let turns = self.game.actions_by_turn();
        if turns.is_empty() {
            return "You have not acted yet.\n".into();
        }
        let mut out = String::from(
            "Your actions, turn by turn (`rewind N` goes back to the start of turn N):\n",
        );
        for (turn, actions) in turns {
            out.push_str(&format!("turn {turn}:\n"));
            // Phases ended one after another are one line (`end turn` is several).
            let mut index = 0;
            while index < actions.len() {
                let ends = actions[index..]
                    .iter()
                    .take_while(|action| matches!(action, crate::rules::Action::EndPhase))
                    .count();
                let line = match ends {
                    0 => text::action(&self.game, &actions[index]),
                    1 => "end the phase".to_string(),
                    n => format!("end {n} phases"),
                };
                out.push_str(&format!("  {line}\n"));
                index += ends.max(1);
            }
        }
        out
    }

    fn print_new(&mut self) {
        let mut text = String::new();
        let mut opponent_played = false;
        for entry in &self.game.log()[self.printed..] {
            text.push_str(&text::entry(&self.game, entry, self.detail));
            opponent_played |= matches!(
                entry,
                crate::play::Entry::Opponent { .. } | crate::play::Entry::Baseline { .. }
            );
        }
        self.printed = self.game.log().len();
        if !text.is_empty() {
            self.console.say(&text);
        }
        if opponent_played && let Some(dir) = self.svg_every_turn.clone() {
            self.write_turn_svg(&dir);
        }
        if opponent_played && self.map_every_turn {
            let drawn = self.draw_map();
            self.console.say(&drawn);
        }
        if self.game.state().is_over() {
            let summary = text::summary(&self.game);
            self.console.say(&summary);
        }
    }

    fn autosave(&mut self) {
        if let Some(path) = self.autosave.clone()
            && let Err(error) = self.write_save(&path)
        {
            self.console
                .say(&format!("warning: autosave failed: {error}"));
        }
    }

    fn write_save(&self, path: &Path) -> Result<()> {
        write_atomically(path, &self.game.save().to_json())
    }

    fn run(&mut self) {
        loop {
            let prompt = text::prompt(self.game.state());
            let completion = Completion::Play(Arc::new(Vocabulary::of(
                &self.game.scenario,
                self.game.state(),
            )));
            let line = match self.console.read_completing(&prompt, &completion, None) {
                Read::Line(line) => line,
                Read::Bad(problem) => {
                    self.console.say(&format!("error: {problem}"));
                    continue;
                }
                Read::Interrupted => continue,
                Read::Eof => break,
            };
            if line.trim().is_empty() {
                continue;
            }
            if !self.command(&line) {
                break;
            }
        }
    }

    /// Watch the opponent fight itself, a turn a step.
    fn watch(&mut self, no_pause: bool) {
        let mut pause = !no_pause;
        loop {
            if !self.game.step() {
                break;
            }
            self.autosave();
            self.print_new();
            if self.game.state().is_over() {
                break;
            }
            // Between turns the watcher may look around (`map`, `status`,
            // `log`, `why U`, `what U`, `victory`, `help`, `save`) as
            // often as they like; Enter plays the next turn.
            while pause {
                match self
                    .console
                    .read("(Enter: next turn, q: quit, help) ", &[], None)
                {
                    Read::Line(line) => match line.trim() {
                        "" | "n" | "next" => break,
                        "q" | "quit" | "exit" => return,
                        text => {
                            if !self.between_turns(text) {
                                return;
                            }
                        }
                    },
                    Read::Bad(_) | Read::Interrupted => break,
                    // No more input: play on to the end.
                    Read::Eof => pause = false,
                }
            }
        }
    }

    /// A watcher's line between turns: anything that looks, none of the
    /// commands that act (the opponent plays every side). False to leave.
    fn between_turns(&mut self, line: &str) -> bool {
        match parse(line, &self.game.scenario, self.game.state()) {
            Ok(
                Command::Act(_)
                | Command::EndTurn
                | Command::Legal { .. }
                | Command::Undo
                | Command::UndoTurn
                | Command::Rewind(_),
            ) => {
                self.console.say(
                    "You are watching: foe plays every side. Enter plays the next turn; between turns `map`, `status`, `log`, `why UNIT`, `what UNIT`, `victory`, `help` and `save FILE` work.",
                );
                true
            }
            _ => self.command(line),
        }
    }

    /// Carry out one line; false to leave.
    fn command(&mut self, line: &str) -> bool {
        let command = match parse(line, &self.game.scenario, self.game.state()) {
            Ok(command) => command,
            Err(message) => {
                self.console.say(&format!("error: {message}"));
                return true;
            }
        };
        match command {
            Command::Act(action) => {
                if self.game.state().is_over() {
                    self.console
                        .say("The game is over: `log`, `map`, `status`, `save` or `quit`.");
                    return true;
                }
                match self.game.act(action.clone()) {
                    Ok(_) => {
                        self.autosave();
                        self.print_new();
                    }
                    Err(refusal) => {
                        let said = crate::play::explain::refusal(
                            &self.game.scenario,
                            self.game.state(),
                            &action,
                            &refusal,
                        );
                        self.console.say(&format!("refused: {said}"));
                    }
                }
            }
            Command::EndTurn => match self.game.end_turn() {
                Ok(_) => {
                    self.autosave();
                    self.print_new();
                }
                Err(refusal) => self.console.say(&format!("refused: {refusal}")),
            },
            Command::Map { svg: None } => {
                let drawn = self.draw_map();
                self.console.say(&drawn);
            }
            Command::Map { svg: Some(dir) } if dir.ends_with('/') || Path::new(&dir).is_dir() => {
                self.svg_every_turn = Some(PathBuf::from(&dir));
                self.write_turn_svg(Path::new(&dir));
            }
            Command::Map { svg: Some(file) } => {
                let picture = crate::render::svg::svg(&self.scene(), None);
                match write_atomically(Path::new(&file), &picture) {
                    Ok(()) => self.console.say(&format!("wrote {file}")),
                    Err(error) => self.console.say(&format!("error: {error}")),
                }
            }
            Command::Status(None) => {
                let mut out = String::new();
                for side in 0..self.game.state().sides.len() {
                    out.push_str(&text::status(&self.game, side));
                }
                self.console.say(&out);
            }
            Command::Status(Some(unit)) => {
                let out = text::unit_detail(&self.game, unit);
                self.console.say(&out);
            }
            Command::Log(last) => {
                let mut lines = String::new();
                for entry in self.game.log() {
                    lines.push_str(&text::entry(&self.game, entry, Detail::Normal));
                }
                let all: Vec<&str> = lines.lines().collect();
                let from = last.map_or(0, |n| all.len().saturating_sub(n));
                self.console.say(&all[from..].join("\n"));
            }
            Command::What(unit) => {
                let state = self.game.state();
                let name = &state.unit(unit).name;
                let answer = match self.game.opponent(state.unit(unit).side) {
                    Some(opponent) => match opponent.preview(state, unit) {
                        Some(preview) => crate::render::opponent::preview(state, &preview),
                        None => format!("{name} is off the table: it takes no reaction test."),
                    },
                    None if self.game.baseline_sides.contains(&state.unit(unit).side) => {
                        format!("{name} is the baseline's: it takes no reaction test.")
                    }
                    None => format!("{name} is yours: foe does not decide for it."),
                };
                self.console.say(&answer);
            }
            Command::Why(unit) => {
                let state = self.game.state();
                let name = &state.unit(unit).name;
                let answer = match self.game.opponent(state.unit(unit).side) {
                    Some(opponent) => match opponent.last_decision(unit) {
                        Some(decision) => crate::render::opponent::why(state, decision),
                        None => format!("{name} has taken no reaction test yet."),
                    },
                    None if self.game.baseline_sides.contains(&state.unit(unit).side) => format!(
                        "{name} is the baseline's: its reasons are in the log (`log`), one line a unit."
                    ),
                    None => format!("{name} is yours: foe decided nothing for it."),
                };
                self.console.say(&answer);
            }
            Command::Save(file) => match self.write_save(Path::new(&file)) {
                Ok(()) => self.console.say(&format!("saved to {file}")),
                Err(error) => self.console.say(&format!("error: {error}")),
            },
            Command::Load(file) => match read_save(Path::new(&file)).and_then(|save| {
                other_engine(Path::new(&file), &save)?;
                resume(
                    Path::new(&file),
                    &save,
                    self.tables.clone(),
                    self.tables_dir.as_deref(),
                    self.asks,
                    &self.running,
                )
            }) {
                Ok((game, notice)) => {
                    self.game = game;
                    if let Some(notice) = notice {
                        self.console.say(&notice);
                    }
                    self.printed = self.game.log().len();
                    self.autosave();
                    let now = self.now();
                    self.console.say(&format!(
                        "loaded {file}: turn {}, {now}",
                        self.game.state().turn,
                    ));
                }
                Err(error) => self.console.say(&format!("error: {error}")),
            },
            Command::Undo => {
                let turn = self.game.state().turn;
                match self.game.undo() {
                    Ok(action) => {
                        self.printed = self.game.log().len();
                        self.autosave();
                        let said = text::action(&self.game, &action);
                        let now = self.now();
                        if self.game.state().turn == turn {
                            self.console.say(&format!("took back: {said}"));
                        } else {
                            self.console.say(&format!(
                                "took back: {said}, and foe's moves after it; now {now}"
                            ));
                        }
                    }
                    Err(message) => self.console.say(&format!("error: {message}")),
                }
            }
            Command::UndoTurn => match self.game.undo_turn() {
                Ok((turn, taken)) => {
                    self.printed = self.game.log().len();
                    self.autosave();
                    let now = self.now();
                    self.console.say(&format!(
                        "took back {taken} action{} of turn {turn}; now {now}",
                        if taken == 1 { "" } else { "s" }
                    ));
                }
                Err(message) => self.console.say(&format!("error: {message}")),
            },
            Command::Rewind(turn) => match self.game.rewind(turn) {
                Ok(taken) => {
                    self.printed = self.game.log().len();
                    self.autosave();
                    let now = self.now();
                    self.console.say(&format!(
                        "back to the start of turn {turn}: took back {taken} action{}; now {now}",
                        if taken == 1 { "" } else { "s" }
                    ));
                }
                Err(message) => self.console.say(&format!("error: {message}")),
            },
            Command::History => {
                let out = self.history();
                self.console.say(&out);
            }
            Command::Help(topic) => {
                let out = crate::render::help::help(topic.as_deref(), self.game.state());
                self.console.say(&out);
            }
            Command::Victory => {
                let names = Names::new(&self.game.scenario, self.game.state());
                let out = crate::render::progress::victory(self.game.state(), Some(&names));
                self.console.say(&out);
            }
            Command::Legal { verb, unit } => {
                let out = text::legal(&self.game, verb.as_deref(), unit);
                self.console.say(&out);
            }
            Command::Route { unit, to } => {
                let out = text::route(&self.game, unit, to);
                self.console.say(&out);
            }
            Command::Quit => return false,
        }
        true
    }

    /// Write this turn's picture into `dir` (made if need be), named by
    /// turn, side and phase, so a folder of them follows the whole game.
    fn write_turn_svg(&mut self, dir: &Path) {
        let path = dir.join(crate::render::svg::turn_file_name(self.game.state()));
        let written = std::fs::create_dir_all(dir)
            .map_err(|source| Error::Io {
                action: "create",
                path: dir.into(),
                source,
            })
            .and_then(|()| write_atomically(&path, &crate::render::svg::svg(&self.scene(), None)));
        match written {
            Ok(()) => self.console.say(&format!("wrote {}", path.display())),
            Err(error) => self.console.say(&format!("error: {error}")),
        }
    }

    fn draw_map(&self) -> String {
        map(&self.scene(), self.style, None)
    }

    /// The battlefield as it stands now.
    fn scene(&self) -> Scene<'_> {
        Scene::of_game(&self.game)
    }
}
