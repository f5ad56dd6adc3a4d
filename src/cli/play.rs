//! `foe play`, for every rule set: the edge around the one runner
//! ([`crate::host::run::HostMatch`]). It reads the scenario or the save,
//! reads the player's lines (rustyline at a terminal, echoed plain lines
//! from a pipe), turns them into engine actions with [`crate::host::repl`],
//! lets foe play its sides, prints the record and foe's reasons, draws
//! maps, and keeps the files: every game its own autosave in `play-saves/`
//! (`cli::saves`), written atomically after every action and before the
//! result is printed, so what the player saw is what is saved; `save`,
//! `load`, `--resume [NAME|list]`; and rollback (`undo`, `undo turn`,
//! `rewind N`, `history`). A refused or mistyped command is one line and
//! the game goes on unchanged.

use super::Context;
use super::dice::AskRoller;
use super::repl::{Completion, Console, LineSource, Plain, Read, Terminal};
use super::saves::{self, Slots, data_dir, write_atomically};
use super::start::{Args, read_save};
use crate::error::{Error, Result};
use crate::host::complete::HostGrammar;
use crate::host::repl::{self as words, Command, Names};
use crate::host::run::{HostMatch, Printed, Rollback, Start};
use crate::host::save::GameSave;
use crate::host::{Action, Game, engine_for};
use crate::render::play::Detail;
use crate::render::texts::{Telling, Texts};
use crate::save::Running;
use crate::save::ScenarioFile;
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Run `foe play`: a new game, or a saved one resumed, at the one prompt
/// whatever its rule set.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    if args.width < crate::render::map::MIN_WIDTH || args.width > 1000 {
        return Err(Error::Invalid(format!(
            "--width must be between {} and 1000 columns",
            crate::render::map::MIN_WIDTH
        )));
    }
    let tables = Arc::new(context.tables()?);
    if let Some(path) = &args.autosave {
        // A device, a FIFO or a folder is refused before the game starts.
        saves::check_writable(path)?;
    }
    if let Some(name) = &args.resume {
        let path = match (&args.autosave, Slots::play()) {
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
        return resume(args, context, &path, save, tables, held);
    }
    let read = super::check::read_scenario(&args.scenario, context.tables_dir.as_deref())?;
    let file = ScenarioFile {
        shown_as: read.shown_as,
        text: read.text,
    };
    start(args, context, read.scenario, file, tables)
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

/// Start a new game.
fn start(
    args: &Args,
    context: &mut Context<'_>,
    scenario: Scenario,
    file: ScenarioFile,
    tables: Arc<Tables>,
) -> Result<()> {
    if let Some(engine) = engine_for(&scenario.battlefield.ruleset.name) {
        super::start::check_rules(&tables, engine, &scenario.battlefield.ruleset.name)?;
    }
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    let names: Vec<&str> = sides.iter().map(String::as_str).collect();
    let baseline_sides = super::start::baseline_sides(&args.baseline, &names)?;
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
    super::start::refuse_the_players_side(&baseline_sides, &player_sides, &names)?;
    let seed = super::dice::seed_or_clock(args.seed);
    let scenario = Arc::new(scenario);
    let running = Running::new(saves::tables_hash(context.tables_dir.as_deref())?);
    let lock = match &args.autosave {
        Some(path) if !args.no_autosave => saves::lock(path)?,
        _ => None,
    };
    let announced = context.asks();
    let start = Start::new(scenario.clone(), tables.clone(), seed)
        .player_sides(player_sides.clone())
        .baseline_sides(baseline_sides.clone());
    let game = if announced {
        // The player's own dice, asked for on standard error (seed 000's
        // asking code); the seed rolls for them once input ends. The
        // set-up may ask already (seed 002): the title and the dice line
        // come first.
        announce(
            context,
            &scenario,
            &tables,
            (&player_sides, &baseline_sides),
            seed,
            None,
        )?;
        let dice = Box::new(AskRoller::new(seed));
        start.begin_asking(dice)
    } else {
        start.begin()
    }
    .map_err(|e| Error::Invalid(e.to_string()))?;
    let started = saves::now();
    let mut notes = Vec::new();
    let autosave = if args.no_autosave {
        None
    } else if let Some(path) = &args.autosave {
        saves::check_writable(path)?;
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
        Slots::play().map(|slots| slots.new_path(&game.scenario.name, started))
    };
    let lock = match (lock, &autosave) {
        (Some(lock), _) => Some(lock),
        (None, Some(path)) => saves::lock(path)?,
        (None, None) => None,
    };
    let saving = Saving {
        file,
        autosave,
        started: Some(started),
        running,
        _lock: lock,
        notes,
    };
    go(args, context, game, saving, None, announced)
}

/// Where and how a game is saved: its scenario file, its autosave (and
/// the lock on it), and the foe and tables it is played by.
struct Saving {
    file: ScenarioFile,
    autosave: Option<PathBuf>,
    /// When the game began (seconds since 1970), kept in its saves.
    started: Option<u64>,
    running: Running,
    _lock: Option<saves::Lock>,
    /// What to say after the opening (a save set aside).
    notes: Vec<String>,
}

/// Resume the game `save`, read from `path` (held by `lock`).
fn resume(
    args: &Args,
    context: &mut Context<'_>,
    path: &Path,
    save: GameSave,
    tables: Arc<Tables>,
    lock: Option<saves::Lock>,
) -> Result<()> {
    let running = Running::new(saves::tables_hash(context.tables_dir.as_deref())?);
    let tables_dir = context.tables_dir.clone();
    let asks = context.asks();
    // A save of the player's own dice may ask for the rest of foe's turn
    // as it replays: the title and the dice line come first.
    let announced = save.asked;
    let rebuilt = rebuild(
        &save,
        path,
        &tables,
        tables_dir.as_deref(),
        asks,
        &running,
        &mut |scenario, tables, sides, seed, resumed| {
            if announced {
                announce(context, scenario, tables, sides, seed, Some(resumed))?;
            }
            Ok(())
        },
    )?;
    let saving = Saving {
        file: save.scenario,
        autosave: Some(path.to_path_buf()),
        started: save.started,
        running,
        _lock: lock,
        notes: Vec::new(),
    };
    go(
        args,
        context,
        rebuilt.game,
        saving,
        Some((rebuilt.resumed, rebuilt.notice)),
        announced,
    )
}

/// A saved game rebuilt, with what resuming it says.
struct Rebuilt {
    game: HostMatch,
    /// Where the save came from, when not from this foe and these tables.
    notice: Option<String>,
    /// Whether the dice go on as saved or are now the player's.
    resumed: Resumed,
}

/// What [`rebuild`] tells just before a saved game replays: the scenario,
/// the tables, the player's and the baseline's sides, the seed, the dice.
type BeforeReplay<'a> =
    dyn FnMut(&Scenario, &Tables, (&[usize], &[usize]), u64, Resumed) -> Result<()> + 'a;

/// Rebuild the game `save` (read from `path`) under `tables`: checked
/// against what made it, its scenario, sides and plan rules, then
/// replayed. `before_replay` is told the scenario, tables, sides, seed and
/// dice just before the replay (which may ask for dice).
fn rebuild(
    save: &GameSave,
    path: &Path,
    tables: &Tables,
    tables_dir: Option<&Path>,
    asks: bool,
    running: &Running,
    before_replay: &mut BeforeReplay<'_>,
) -> Result<Rebuilt> {
    let said = |problem: String| Error::Invalid(format!("`{}` {problem}", path.display()));
    let named = |problem: String| Error::Invalid(format!("`{}`: {problem}", path.display()));
    crate::save::check_tables(save.made.as_ref(), running).map_err(said)?;
    let scenario =
        super::check::load_scenario_text(&save.scenario.shown_as, &save.scenario.text, tables_dir)?;
    let ruleset = &scenario.battlefield.ruleset.name;
    save.check_engine(engine_for(ruleset), ruleset)
        .map_err(said)?;
    let sides: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
    let (player_sides, baseline_sides) = save.sides(&sides).map_err(named)?;
    // The game's plan rules are the save's, whatever this run's are.
    let switched = save.tables(tables).map_err(named)?;
    let (scenario, switched) = (Arc::new(scenario), Arc::new(switched));
    // A game played with the player's own dice goes on with them (and,
    // should the save have been written before foe finished its turn, the
    // player rolls the rest of it); one saved with seeded dice and resumed
    // with `--dice ask` goes on with the player's dice from here.
    let switched_to_asked = !save.asked && asks;
    let resumed = if switched_to_asked {
        Resumed::NowAsked
    } else {
        Resumed::AsSaved
    };
    // A save of the wrong kind of watched game is refused before any
    // roll is asked for.
    save.watched_steps(&player_sides).map_err(named)?;
    before_replay(
        &scenario,
        &switched,
        (&player_sides, &baseline_sides),
        save.seed,
        resumed,
    )?;
    let mut game = save
        .replay(
            scenario,
            switched,
            (player_sides, baseline_sides),
            Box::new(AskRoller::new(save.seed)),
        )
        .map_err(|problem| {
            // An action refused, or the game over early, is how a game played
            // by other rules shows; a bad record of rolls is damage.
            if problem.contains(" is refused: ") || problem.starts_with("the game ends after") {
                named(crate::save::replay_failed(
                    save.made.as_ref(),
                    running,
                    &problem,
                ))
            } else {
                named(format!("the saved game does not replay: {problem}"))
            }
        })?;
    // A save that ended during foe's turn went on with the player's dice:
    // its bookkeeping is of an earlier moment than the replayed game's.
    let book = game.ran_on().is_none().then(|| game.book());
    let notice = crate::save::after_replay(save.made.as_ref(), running, book.as_ref(), None)
        .map_err(said)?;
    if switched_to_asked {
        game.set_dice(Box::new(AskRoller::new(save.seed)));
    }
    Ok(Rebuilt {
        game,
        notice,
        resumed,
    })
}

/// What `--dice ask` play says about the dice.
fn dice_line(resumed: Option<Resumed>) -> &'static str {
    match resumed {
        None => {
            "Dice: you roll your own (--dice ask); foe asks for each roll (`?` at a roll explains it)."
        }
        Some(Resumed::AsSaved) => {
            "Dice: you roll your own, as when the game was saved; foe asks for each roll (`?` at a roll explains it)."
        }
        Some(Resumed::NowAsked) => {
            "Dice: the game so far was rolled from its seed; from here you roll your own (--dice ask) and the saves keep your rolls; foe asks for each roll (`?` at a roll explains it)."
        }
    }
}

/// The game's opening lines: the banner, who the baseline commands, and
/// the `dice` line when the player rolls their own.
fn opening(
    game: &Game,
    title: &str,
    player_sides: &[usize],
    baseline_sides: &[usize],
    seed: u64,
    dice: Option<&str>,
) -> String {
    let mut text = words::banner(game, title, player_sides, seed);
    let sides = game.sides();
    let baseline: Vec<&str> = baseline_sides
        .iter()
        .filter_map(|side| sides.get(*side).map(String::as_str))
        .collect();
    if !baseline.is_empty() {
        text.push_str(&format!(
            "The baseline (scripted, not Lone Warrior; rulings HO20-HO26) commands the {}.\n",
            baseline.join(" and ")
        ));
    }
    if let Some(dice) = dice {
        text.push_str(dice);
        text.push('\n');
    }
    text
}

/// Say the opening lines before a game with the player's own dice is
/// set up or replayed, since either may ask for a roll: the banner is read
/// off the scenario set up with seeded dice (the rolls change none of it).
fn announce(
    context: &mut Context<'_>,
    scenario: &Scenario,
    tables: &Tables,
    sides: (&[usize], &[usize]),
    seed: u64,
    resumed: Option<Resumed>,
) -> Result<()> {
    let (preview, _) = Game::start(scenario, tables, &mut crate::dice::Seeded::new(seed))
        .map_err(|e| Error::Invalid(e.to_string()))?;
    let text = opening(
        &preview,
        &scenario.title,
        sides.0,
        sides.1,
        seed,
        Some(dice_line(resumed)),
    );
    let _ = context.out.write_all(text.as_bytes());
    let _ = context.out.flush();
    Ok(())
}

/// How a game was resumed, for what `go` says about its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resumed {
    /// With the dice it was saved with.
    AsSaved,
    /// A seeded save resumed with `--dice ask`: the player's dice from here.
    NowAsked,
}

fn go(
    args: &Args,
    context: &mut Context<'_>,
    game: HostMatch,
    saving: Saving,
    resumed: Option<(Resumed, Option<String>)>,
    announced: bool,
) -> Result<()> {
    let (resumed, notice) = match resumed {
        Some((how, notice)) => (Some(how), notice),
        None => (None, None),
    };
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let source: Box<dyn LineSource> = if interactive {
        match Terminal::new(data_dir().map(|dir| dir.join("play-history.txt"))) {
            Some(terminal) => Box::new(terminal),
            None => Box::new(Plain::new()),
        }
    } else {
        Box::new(Plain::new())
    };
    let mut repl = Repl {
        game,
        file: saving.file,
        started: saving.started,
        running: saving.running,
        tables_dir: context.tables_dir.clone(),
        asks: context.asks(),
        console: Console {
            source,
            out: &mut *context.out,
            echo: !interactive,
        },
        autosave: saving.autosave,
        width: args.width,
        shown: Printed::default(),
        turn_printed: 0,
        detail: if args.quiet {
            Detail::Quiet
        } else if args.verbose {
            Detail::Verbose
        } else {
            Detail::Normal
        },
        quiet: args.quiet,
        svg_every_phase: None,
        svg_written: None,
        listed: None,
        map_every_turn: args.map,
        map_turn: None,
        colour: interactive && super::map::colour_wanted(),
    };
    repl.autosave();
    if !announced {
        let dice = repl.game.asks().then(|| dice_line(resumed));
        let text = opening(
            &repl.game.game,
            &repl.game.scenario.title,
            &repl.game.player_sides,
            repl.game.baseline_sides(),
            repl.game.seed,
            dice,
        );
        repl.console.say(&text);
    }
    for note in &saving.notes {
        repl.console.say(note);
    }
    if resumed.is_some() {
        repl.console.say(&format!(
            "Resumed: {} of your actions replayed.",
            repl.game.player_actions().len()
        ));
        if let Some(notice) = &notice {
            repl.console.say(notice);
        }
        repl.caught_up();
        if let Some(from) = repl.game.ran_on() {
            // The save was written before foe finished its turn: what foe
            // did with the dice the player just rolled.
            repl.console.say(
                "The save ended during foe's turn: foe played the rest of it with the dice you rolled:",
            );
            repl.shown = from;
            repl.turn_printed = 0;
            repl.print_new();
        }
        repl.question(Command::Status(None));
    }
    if repl.game.player_sides.is_empty() {
        repl.watch(args.no_pause);
    } else {
        repl.run();
    }
    repl.console.source.save_history();
    Ok(())
}

/// The most actions a bare `?` lists one by one; beyond it, `?` names the
/// commands legal now and `? COMMAND` lists them.
const SHORT_LIST: usize = 12;

/// What one command did, gathered to print once the game is saved.
#[derive(Default)]
struct Told {
    /// The lines to print.
    text: String,
    /// Whether the game changed (then it is saved before they are).
    changed: bool,
    /// A bug that stopped foe, said after them.
    bug: Option<String>,
}

struct Repl<'a> {
    game: HostMatch,
    file: ScenarioFile,
    /// When the game began, for its saves.
    started: Option<u64>,
    /// `--tables DIR`, for the scenario of a game `load`ed.
    tables_dir: Option<PathBuf>,
    /// `--dice ask`: a game `load`ed goes on with the player's dice.
    asks: bool,
    /// The foe and tables the game is played by, for its saves.
    running: Running,
    console: Console<'a>,
    autosave: Option<PathBuf>,
    width: usize,
    /// How much of the record has been printed.
    shown: Printed,
    /// The turn whose header was printed last.
    turn_printed: u32,
    /// How much of foe's reasoning seed 000's record prints.
    detail: Detail,
    quiet: bool,
    /// Where `map --svg DIR/` keeps a picture of every phase.
    svg_every_phase: Option<PathBuf>,
    /// The last picture written there (one a phase).
    svg_written: Option<PathBuf>,
    /// The actions the last `?` numbered, and how many actions the game
    /// had taken then: a number picks from that list, and only while the
    /// game stands where it stood when the list was shown.
    listed: Option<(usize, Vec<Action>)>,
    /// `--map`: draw the map each time the player's turn comes round.
    map_every_turn: bool,
    /// The turn the last `--map` map was drawn in.
    map_turn: Option<u32>,
    /// Whether the text map is coloured.
    colour: bool,
}

impl Repl<'_> {
    /// Everything so far counted as printed (after a resume, a load or a
    /// rollback, which say where the game stands instead).
    fn caught_up(&mut self) {
        self.shown = self.game.printed_now();
        self.turn_printed = self.game.game.turn();
    }

    /// The game's units by name and label, as the prompt reads them.
    fn names(&self) -> Names<'_> {
        Names::new(&self.game.game, &self.game.scenario)
    }

    /// The text map: coordinates, terrain, objective areas, every unit by
    /// label, and a key.
    fn text_map(&self) -> String {
        crate::render::map::map(
            &self.scene(),
            crate::render::map::MapStyle {
                width: self.width,
                colour: self.colour,
            },
            None,
        )
    }

    /// `--map`: the map, once a turn, when the player's turn comes round.
    fn map_if_turned(&mut self) {
        let turn = self.game.game.turn();
        if self.map_every_turn && self.map_turn != Some(turn) && !self.game.game.is_over() {
            self.map_turn = Some(turn);
            let map = self.text_map();
            self.console.say(&map);
        }
    }

    fn save(&self) -> GameSave {
        GameSave::of(&self.game, self.file.clone(), self.started, &self.running)
    }

    fn autosave(&mut self) {
        if let Some(path) = self.autosave.clone()
            && let Err(error) = write_atomically(&path, &self.save().to_json())
        {
            self.console
                .say(&format!("warning: autosave failed: {error}"));
        }
    }

    /// Print what happened since the last print: turn headers, foe's new
    /// reaction tests, the events.
    fn print_new(&mut self) {
        let text = self.gather();
        if !text.is_empty() {
            self.console.say(&text);
        }
    }

    /// What happened since the last print, as [`Repl::print_new`] prints
    /// it, counted as printed (the picture of a phase written too, when
    /// pictures are asked for): to print once the game is saved.
    fn gather(&mut self) -> String {
        let telling = Telling {
            detail: self.detail,
            quiet: self.quiet,
        };
        let mut text = Texts::of(&self.game).told(self.shown, telling, &mut self.turn_printed);
        self.shown = self.game.printed_now();
        if let Some(dir) = self.svg_every_phase.clone()
            && let Some(said) = self.write_phase_svg(&dir)
        {
            text.push_str(&said);
            text.push('\n');
        }
        text
    }

    /// The picture of the game now.
    fn picture(&self) -> String {
        crate::render::svg::svg(&self.scene(), None)
    }

    /// The table now, with the last phase's (seed 000: the last bound's)
    /// moves, shots and charges as arrows; seed 000's shows its generals
    /// and the state foe's opponent keeps of its units too.
    fn scene(&self) -> crate::render::scene::Scene<'_> {
        Texts::of(&self.game).scene()
    }

    /// Write this phase's picture into `dir` (made if need be), named by
    /// turn and phase, once a phase, so a folder of them follows the game.
    fn write_phase_svg(&mut self, dir: &Path) -> Option<String> {
        let path = dir.join(crate::render::game_scene::turn_file_name(&self.game.game));
        if self.svg_written.as_ref() == Some(&path) {
            return None;
        }
        let written = std::fs::create_dir_all(dir)
            .map_err(|source| Error::Io {
                action: "create",
                path: dir.into(),
                source,
            })
            .and_then(|()| write_atomically(&path, &self.picture()));
        let said = match written {
            Ok(()) => format!("wrote {}", path.display()),
            Err(error) => format!("error: {error}"),
        };
        self.svg_written = Some(path);
        Some(said)
    }

    /// foe plays its turns, its record gathered to print (pictures of its
    /// phases written as they come), with the bug that stopped it, if one
    /// did.
    fn foe_gathers(&mut self) -> (String, Option<String>) {
        let mut text = String::new();
        loop {
            let stepped = self.game.step_foe();
            text.push_str(&self.gather());
            match stepped {
                Ok(true) => {}
                Ok(false) => return (text, None),
                Err(problem) => return (text, Some(problem)),
            }
        }
    }

    /// Print what was gathered, and the bug after it; `false` on a bug.
    fn say_gathered(&mut self, text: &str, bug: Option<&str>) -> bool {
        if !text.is_empty() {
            self.console.say(text);
        }
        match bug {
            Some(problem) => {
                self.console.say(&format!("error: {problem}"));
                false
            }
            None => true,
        }
    }

    fn verdict(&mut self) -> bool {
        let Some(verdict) = self.game.verdict() else {
            return false;
        };
        let said = Texts::of(&self.game).summary(&verdict);
        self.console.say(&said);
        true
    }

    /// Watch foe play every side, a turn at a time: each turn's record
    /// is printed once the game is saved at its end, then the watcher may
    /// look around before the next.
    fn watch(&mut self, no_pause: bool) {
        let mut turn = self.game.game.turn();
        let mut text = String::new();
        loop {
            let stepped = self.game.watch_step();
            text.push_str(&self.gather());
            match stepped {
                Ok(true) => {}
                Ok(false) => break,
                Err(problem) => {
                    self.autosave();
                    self.say_gathered(&text, Some(&problem));
                    return;
                }
            }
            if self.game.game.turn() != turn && !self.game.game.is_over() {
                turn = self.game.game.turn();
                self.autosave();
                self.say_gathered(&std::mem::take(&mut text), None);
                self.map_if_turned();
                if !no_pause && !self.pause() {
                    return;
                }
            }
        }
        self.autosave();
        self.say_gathered(&text, None);
        self.verdict();
    }

    /// Between watched turns: Enter goes on, questions are answered,
    /// `quit` stops. `false` to stop.
    fn pause(&mut self) -> bool {
        loop {
            // Tab completes the questions and the units' names.
            let completion = Completion::Play(Arc::new(HostGrammar::of(
                &self.names(),
                &self.game.player_sides,
            )));
            let line = match self.console.read_completing(
                "(Enter for the next turn) > ",
                &completion,
                None,
            ) {
                Read::Line(line) => line,
                Read::Bad(problem) => {
                    self.console.say(&format!("error: {problem}"));
                    continue;
                }
                Read::Interrupted | Read::Eof => return false,
            };
            if line.trim().is_empty() {
                return true;
            }
            let parsed = words::parse(&self.names(), &line);
            match parsed {
                Ok(Command::Quit) => return false,
                Ok(
                    Command::Act(_)
                    | Command::Pick(_)
                    | Command::Auto
                    | Command::EndTurn
                    | Command::Undo
                    | Command::UndoTurn
                    | Command::Rewind(_)
                    | Command::Load(_),
                ) => {
                    self.console
                        .say("You are watching: foe commands both sides. Enter goes on.");
                }
                Ok(Command::Save(path)) => self.save_to(&path),
                Ok(command) => {
                    self.question(command);
                }
                Err(problem) => self.console.say(&format!("error: {problem}")),
            }
        }
    }

    /// `save FILE`: the game now, written atomically.
    /// `load FILE`: the game saved there in place of this one, saved from
    /// now on where this one was. A save of seed 000's rules, or a watched
    /// game loaded into a played one (or the other way round), is refused
    /// with the command that plays it; a bad save changes nothing.
    fn load(&mut self, file: &str) {
        let path = PathBuf::from(file);
        let loaded = read_save(&path).and_then(|save| {
            let tables = self.game.tables().clone();
            let rebuilt = rebuild(
                &save,
                &path,
                &tables,
                self.tables_dir.as_deref(),
                self.asks,
                &self.running,
                &mut |_, _, _, _, _| Ok(()),
            )?;
            // Watching and playing are started differently: a save of the
            // other kind is resumed, not loaded.
            if save.player_sides.is_empty() != self.game.player_sides.is_empty() {
                let what = if save.player_sides.is_empty() {
                    "watched game"
                } else {
                    "game"
                };
                return Err(Error::Invalid(format!(
                    "`{file}` is a {} {what}: `foe play --resume {file}` plays it",
                    save.engine.seed()
                )));
            }
            Ok((save, rebuilt))
        });
        match loaded {
            Ok((save, rebuilt)) => {
                self.game = rebuilt.game;
                self.file = save.scenario;
                self.started = save.started;
                self.caught_up();
                self.listed = None;
                self.map_turn = None;
                self.autosave();
                if let Some(notice) = rebuilt.notice {
                    self.console.say(&notice);
                }
                self.console.say(&format!(
                    "loaded {file}: {}, turn {}, {}.",
                    self.game.scenario.title,
                    self.game.game.turn(),
                    self.game.game.phase()
                ));
            }
            Err(error) => self.console.say(&format!("error: {error}")),
        }
    }

    fn save_to(&mut self, path: &str) {
        let path = PathBuf::from(path);
        match write_atomically(&path, &self.save().to_json()) {
            Ok(()) => self.console.say(&format!(
                "Saved to {}; `foe play --resume {}` continues it.",
                path.display(),
                path.display()
            )),
            Err(error) => self.console.say(&format!("error: {error}")),
        }
    }

    /// Answer a command that changes nothing; `false` if it was not one.
    fn question(&mut self, command: Command) -> bool {
        let text = match command {
            Command::Legal { verb, unit } => {
                let (text, listed) = self.legal_list(verb.as_deref(), unit);
                let taken = self.game.all_actions().count();
                self.listed = listed
                    .filter(|_| self.game.player_to_act())
                    .map(|listed| (taken, listed));
                text
            }
            Command::Status(None) => Texts::of(&self.game).status(),
            Command::Status(Some(unit)) => Texts::of(&self.game).unit_status(unit),
            Command::Map { svg: None } => self.text_map(),
            Command::Map { svg: Some(dir) } if dir.ends_with('/') || Path::new(&dir).is_dir() => {
                let dir = PathBuf::from(dir);
                self.svg_every_phase = Some(dir.clone());
                self.svg_written = None;
                if let Some(said) = self.write_phase_svg(&dir) {
                    self.console.say(&said);
                }
                return true;
            }
            Command::Map { svg: Some(file) } => {
                match write_atomically(Path::new(&file), &self.picture()) {
                    Ok(()) => format!("wrote {file}"),
                    Err(error) => format!("error: {error}"),
                }
            }
            Command::WhyGeneral(general) => Texts::of(&self.game).why_general(&general),
            Command::What(unit) => Texts::of(&self.game).what(unit),
            Command::Why(unit) => Texts::of(&self.game).why(unit),
            Command::Log(last) => {
                let all = Texts::of(&self.game).log();
                let lines: Vec<&str> = all.lines().collect();
                let from = last.map_or(0, |n| lines.len().saturating_sub(n));
                lines[from..].join("\n")
            }
            Command::History => words::history(&self.names(), &self.game.player_history()),
            Command::Victory => words::victory(&self.names()),
            Command::Route { unit, to } => crate::render::prompt::route(&self.names(), unit, to),
            Command::Help(topic) => words::help(&self.names(), topic.as_deref()),
            _ => return false,
        };
        self.console.say(&text);
        true
    }

    /// A number typed alone: the action it had in the last `?` list, while
    /// that list still describes the game. A number never changes meaning
    /// under the player: once any action has been taken since the list was
    /// shown, it is refused with the command that lists them afresh.
    fn pick(&mut self, n: usize) {
        let taken = self.game.all_actions().count();
        let action = match &self.listed {
            None => Err(
                "no list to pick from: `? COMMAND` or `COMMAND UNIT ?` lists the actions now, numbered"
                    .to_string(),
            ),
            Some((stamp, _)) if *stamp != taken => Err(
                "the last `?` list is out of date: the game has moved on since; `?` lists the actions now"
                    .to_string(),
            ),
            Some((_, actions)) => actions.get(n.wrapping_sub(1)).cloned().ok_or_else(|| {
                format!(
                    "no action {n} in the last `?` list: it is numbered from 1 to {}",
                    actions.len()
                )
            }),
        };
        match action {
            Ok(action) if self.game.player_to_act() => {
                self.act(action);
            }
            Ok(_) => self.console.say("It is foe's turn."),
            Err(problem) => self.console.say(&format!("error: {problem}")),
        }
    }

    /// The legal actions now (those of `verb`, of `unit`), numbered, with
    /// the list a number picks from. A bare `?` with more than
    /// [`SHORT_LIST`] actions names the commands legal now instead, as
    /// Guilford's prompt does, and numbers nothing (`None`).
    fn legal_list(&self, verb: Option<&str>, unit: Option<usize>) -> (String, Option<Vec<Action>>) {
        let game = &self.game.game;
        let mut text = String::new();
        if let Some(line) = words::dice_to_give(game) {
            text.push_str(&line);
            text.push('\n');
        }
        if !self.game.player_to_act() {
            text.push_str("It is foe's turn.\n");
            return (text, None);
        }
        let names = self.names();
        // Only lines the engine takes when typed as printed, each once.
        let mut listed: Vec<Action> = Vec::new();
        for action in game.legal_actions() {
            if words::listed_for(&names, &action, verb, unit)
                && let Some(typed) = words::listed_as_typed(&names, &action)
                && !listed.contains(&typed)
            {
                listed.push(typed);
            }
        }
        // The engine's list samples a unit's moves; one unit's list adds
        // the farthest straight moves the engine takes (`move B6 back max`).
        if let Some(unit) = unit
            && verb.is_none_or(|verb| verb == "move")
        {
            for offer in words::straight_moves(&names, unit) {
                if !listed.contains(&offer) {
                    listed.push(offer);
                }
            }
        }
        if listed.is_empty() {
            text.push_str("Nothing of that is legal now; `?` lists everything that is.\n");
        }
        if verb.is_none() && unit.is_none() && listed.len() > SHORT_LIST {
            let mut verbs: Vec<(String, usize)> = Vec::new();
            for action in &listed {
                let line = words::words(game, action);
                let verb = line
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                match verbs.iter_mut().find(|(known, _)| *known == verb) {
                    Some((_, count)) => *count += 1,
                    None => verbs.push((verb, 1)),
                }
            }
            let verbs: Vec<String> = verbs
                .iter()
                .map(|(verb, count)| format!("{verb} ({count})"))
                .collect();
            // One unit to act (seed 002's whose die is up): say which.
            let mut units = listed.iter().map(|action| game.action_unit(action));
            let first = units.next().flatten();
            let whose = match first {
                Some(unit) if units.all(|other| other == Some(unit)) => {
                    format!(" for {}", names.both(unit))
                }
                _ => String::new(),
            };
            text.push_str(&format!(
                "Legal now{whose}: {}. `? COMMAND` or `COMMAND UNIT ?` lists them, numbered.\n",
                verbs.join(", ")
            ));
            return (text, None);
        }
        for (n, action) in listed.iter().enumerate() {
            text.push_str(&format!("  {:>3}  {}\n", n + 1, words::words(game, action)));
        }
        (text, Some(listed))
    }

    fn prompt(&self) -> String {
        let game = &self.game.game;
        format!("turn {} {} > ", game.turn(), game.phase())
    }

    fn run(&mut self) {
        // foe's opening turns are saved before they are shown.
        let mut told = Told {
            changed: true,
            ..Told::default()
        };
        self.foe_answers(&mut told);
        let bug = told.bug.is_some();
        self.tell(told);
        if bug {
            return;
        }
        if self.verdict() {
            return;
        }
        loop {
            self.map_if_turned();
            let prompt = self.prompt();
            // Tab completes by context: the command, then what it takes.
            let completion = Completion::Play(Arc::new(HostGrammar::of(
                &self.names(),
                &self.game.player_sides,
            )));
            let line = match self.console.read_completing(&prompt, &completion, None) {
                Read::Line(line) => line,
                Read::Bad(problem) => {
                    self.console.say(&format!("error: {problem}"));
                    continue;
                }
                Read::Interrupted | Read::Eof => return,
            };
            if line.trim().is_empty() {
                continue;
            }
            let parsed = words::parse(&self.names(), &line);
            let command = match parsed {
                Ok(command) => command,
                Err(problem) => {
                    self.console.say(&format!("error: {problem}"));
                    continue;
                }
            };
            match command {
                Command::Quit => return,
                Command::Act(action) => {
                    // Said before the move changes the table it is read on.
                    let short = words::max_stops_short(&self.names(), &line);
                    self.act_saying(action, short);
                }
                Command::Pick(n) => self.pick(n),
                Command::Auto => self.auto(),
                Command::EndTurn => self.end_turn(),
                Command::Undo => self.undo(),
                Command::UndoTurn => self.undo_turn(),
                Command::Rewind(turn) => self.rewind(turn),
                Command::Save(path) => self.save_to(&path),
                Command::Load(path) => self.load(&path),
                other => {
                    self.question(other);
                }
            }
            if self.verdict() {
                return;
            }
        }
    }

    /// Apply the player's action; whether the rules took it.
    fn act(&mut self, action: Action) -> bool {
        self.act_saying(action, None)
    }

    /// [`Self::act`], with `short` (why a `max` move stopped short of its
    /// allowance) said after the move when the rules took it.
    fn act_saying(&mut self, action: Action, short: Option<String>) -> bool {
        let (action, left_out) = self.rally_what_can_be(action);
        let mut told = Told::default();
        let taken = self.take(action, None, &mut told);
        if taken {
            told.text.insert_str(0, &left_out);
            if let Some(short) = short {
                if !told.text.is_empty() && !told.text.ends_with('\n') {
                    told.text.push('\n');
                }
                told.text.push_str(&short);
                told.text.push('\n');
            }
        }
        self.tell(told);
        taken
    }

    /// A rally naming several units, some of which the general cannot
    /// rally ([`Game::rally_what_can_be`]): the rally of the others and a
    /// line for each unit left out saying why. Anything else comes back as
    /// it is. The game records the rally it carried out, so a replay and
    /// `undo` are exact.
    fn rally_what_can_be(&self, action: Action) -> (Action, String) {
        let Some((fewer, left_out)) = self.game.game.rally_what_can_be(&action) else {
            return (action, String::new());
        };
        let mut said = String::new();
        for (alone, refusal) in left_out {
            let line = Texts::of(&self.game).refused(&alone, &refusal);
            said.push_str(&line);
            said.push('\n');
        }
        (fewer, said)
    }

    /// Apply the player's `action`, saying `before` it what it was (the
    /// line `end turn` or `auto` typed for the player), and let foe answer
    /// at once. What to print is gathered into `told`, not printed: the
    /// game is saved before any of it is shown ([`Repl::tell`]), so
    /// nothing is shown of a game the autosave does not hold, and a save
    /// is never of a moment inside one command. Whether the rules took it.
    fn take(&mut self, action: Action, before: Option<&str>, told: &mut Told) -> bool {
        match self.game.player(&action) {
            Ok(_) => {
                if let Some(before) = before {
                    told.text.push_str(before);
                    told.text.push('\n');
                }
                told.text.push_str(&self.gather());
                told.changed = true;
                self.foe_answers(told);
                told.bug.is_none()
            }
            Err(refusal) => {
                let said = Texts::of(&self.game).refused(&action, &refusal);
                told.text.push_str(&format!("refused: {said}\n"));
                false
            }
        }
    }

    /// foe plays its turns after the player's action, gathered into
    /// `told`. With the player's own dice foe's turn asks for rolls: what
    /// the action did is saved and shown first, and foe's moves are shown
    /// as they come between its prompts (a save cut short in foe's turn
    /// resumes asking for the rest, [`crate::host::run::Start::resume_recorded`]).
    fn foe_answers(&mut self, told: &mut Told) {
        if !self.game.asks() {
            let (foe, bug) = self.foe_gathers();
            told.text.push_str(&foe);
            told.bug = told.bug.take().or(bug);
            return;
        }
        self.tell(std::mem::take(told));
        told.changed = true;
        loop {
            let stepped = self.game.step_foe();
            self.print_new();
            match stepped {
                Ok(true) => {}
                Ok(false) => return,
                Err(problem) => {
                    told.bug = Some(problem);
                    return;
                }
            }
        }
    }

    /// Save the game if a command changed it, then print what it told.
    fn tell(&mut self, told: Told) {
        if told.changed {
            self.autosave();
        }
        self.say_gathered(told.text.trim_end_matches('\n'), told.bug.as_deref());
    }

    /// `end turn`: pass each step of the player's turn (seed 001: end each
    /// phase; seed 002: hold each unit still to act) until foe's turn
    /// comes, the turn ends, or the rules want something else (an answer
    /// to a charge, dice to give out), which is said. The whole command is
    /// saved once, before any of it is printed.
    fn end_turn(&mut self) {
        let turn = self.game.game.turn();
        if !self.game.player_to_act() {
            self.console.say("It is foe's turn.");
            return;
        }
        let mut told = Told::default();
        while self.game.player_to_act() && self.game.game.turn() == turn {
            let Some(action) = words::pass(&self.game.game) else {
                let why = words::dice_to_give(&self.game.game).unwrap_or_else(|| {
                    "the rules want something else first; `?` lists it".to_string()
                });
                told.text
                    .push_str(&format!("`end turn` stops here: {why}\n"));
                break;
            };
            let said = format!("(end turn) {}", words::words(&self.game.game, &action));
            if !self.take(action, Some(&said), &mut told) || self.verdict_reached() {
                break;
            }
        }
        if !told.changed && told.text.is_empty() {
            told.text.push_str("nothing to end");
        }
        self.tell(told);
    }

    fn verdict_reached(&self) -> bool {
        self.game.verdict().is_some()
    }

    /// `auto`: the player's remaining dice given out as foe would, saved
    /// once, before any of it is printed.
    fn auto(&mut self) {
        let mut told = Told::default();
        loop {
            match words::auto_die(&self.game.game, &self.game.player_sides) {
                Ok(Some((action, said))) => {
                    if !self.take(action, Some(&said), &mut told) {
                        // Refused: the same die would be offered again.
                        break;
                    }
                }
                Ok(None) => break,
                // Once the dice are given the phase moves on: nothing to say.
                Err(_) if told.changed => break,
                Err(problem) => {
                    told.text.push_str(&format!("error: {problem}\n"));
                    break;
                }
            }
        }
        self.tell(told);
    }

    fn undo(&mut self) {
        let said = self
            .game
            .player_actions()
            .last()
            .map(|last| format!("`{}`", words::words(&self.game.game, last)));
        let done = self.game.undo().map(|_| said.unwrap_or_default());
        self.rolled_back(done, "undo");
    }

    /// Ruling P1: this turn's actions (at a turn's start, before any, the
    /// last turn's).
    fn undo_turn(&mut self) {
        let done = self.game.undo_turn().map(|(turn, taken)| {
            format!(
                "your {taken} action{} of turn {turn}",
                if taken == 1 { "" } else { "s" }
            )
        });
        self.rolled_back(done, "undo turn");
    }

    /// Ruling P1: back to the player's first decision in turn `turn`.
    fn rewind(&mut self, turn: u32) {
        let done = self.game.rewind(turn).map(|taken| {
            format!(
                "your {taken} action{} from turn {turn} on",
                if taken == 1 { "" } else { "s" }
            )
        });
        self.rolled_back(done, "rewind");
    }

    /// After the runner's rollback: what was taken back, or why nothing
    /// was; the record printed so far follows the game, which is saved.
    fn rolled_back(&mut self, done: std::result::Result<String, Rollback>, verb: &str) {
        match done {
            Ok(said) => {
                self.caught_up();
                self.autosave();
                self.console.say(&format!(
                    "Taken back: {said}. Now turn {}, {}.",
                    self.game.game.turn(),
                    self.game.game.phase()
                ));
            }
            Err(Rollback::Nothing(said)) => self.console.say(&format!("error: {said}")),
            Err(Rollback::Replay(problem)) => {
                self.console
                    .say(&format!("error: cannot {verb}: {problem}"));
            }
        }
    }
}
