//! `foe companion`: the tabletop companion REPL, which runs the enemy army
//! bound after bound for a game on a real table.
//!
//! This is the edge around [`crate::companion`]: it reads the player's lines
//! (rustyline with history, completion and hints on a terminal; plain lines
//! otherwise, echoed so that a script's output reads like a session), rolls
//! or asks for dice, prints what the pure game's events say, and keeps the
//! files: every game its own autosave in `companion-saves/` (`cli::saves`),
//! written after every action and before its result is printed, `save`,
//! `load`, `export`, `--resume [NAME|list]`, and the prompt history. Nothing the player types ends the program except `quit`
//! or the end of input; every refusal is one line and the question again.

use super::Context as CliContext;
use super::repl::{Console, LineSource, Plain, Read, Terminal};
use super::saves::{self, Slots};
use super::saves::{data_dir, write_atomically};
use crate::companion::{
    Action, Draft, GeneralSetup, Question, SaveFile, Session, UnitSetup, army, questions,
};
use crate::dice::{Die, Roller, Seeded};
use crate::error::{Error, Result};
use crate::render;
use crate::tables::{Character, Formation, Tables, Trigger};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `foe companion`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example (a script on standard input; at a terminal, type the same lines):
  printf 'army french\\nbound\\nunit marine natural d=12\\n' | foe companion --seed 7

At the prompt: `help` lists the commands, `?` lists a question's choices,
an empty answer takes the default shown in [brackets], Ctrl-C cancels the
current unit's questions and Ctrl-D or `quit` leaves. Every game is
autosaved in its own file after every answer; `foe companion --resume`
picks up the newest, `--resume list` lists them, `--resume NAME` picks one.")]
pub struct Args {
    /// Load this army first: `french`, `british`, or an army YAML file.
    #[arg(long, value_name = "ARMY")]
    pub army: Option<String>,
    /// Seed for foe's dice: the same seed and the same answers give the same battle.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Continue a saved game: the newest, the one named (or the newest whose
    /// name begins so), or `list` to see them.
    #[arg(long, value_name = "NAME", num_args = 0..=1, default_missing_value = "")]
    pub resume: Option<String>,
    /// Autosave to this file instead of a new file in `companion-saves/` in
    /// foe's data folder ($FOE_DATA_DIR, else $XDG_DATA_HOME/foe, else
    /// ~/.local/share/foe).
    #[arg(long, value_name = "FILE")]
    pub autosave: Option<PathBuf>,
    /// Do not autosave.
    #[arg(long, conflicts_with_all = ["autosave", "resume"])]
    pub no_autosave: bool,
}

/// The commands of the prompt, for `help`, completion and prefixes.
const COMMANDS: [(&str, &str); 19] = [
    (
        "army",
        "army french|british|FILE   set up the enemy from an army file",
    ),
    (
        "add",
        "add NAME CLASS FIGURES [FORMATION] [CHARACTER]   add a unit",
    ),
    ("remove", "remove NAME   take a unit off the table"),
    (
        "general",
        "general [CHARACTER] [NAME...]   appoint the general (rolled unless given)",
    ),
    (
        "reinforcements",
        "reinforcements french|british   the table a reaction D rolls on",
    ),
    (
        "bound",
        "bound   begin the next bound (or go on with this one) and answer unit by unit",
    ),
    (
        "unit",
        "unit NAME [WORDS]   answer one unit in one line (`help unit`)",
    ),
    (
        "report",
        "report own-troops-withdrawing|enemy-attacking|enemy-withdrawing   the general tests",
    ),
    (
        "melee",
        "melee NAME   NAME lost a melee: it counts in its next test",
    ),
    ("status", "status   the army at a glance"),
    ("history", "history   what happened, bound by bound"),
    ("undo", "undo   take back the last answer or command"),
    ("save", "save FILE   save the game"),
    ("load", "load FILE   load a saved game"),
    ("export", "export FILE   write the battle log as Markdown"),
    (
        "help",
        "help [unit]   this list, or the one-line answer's words",
    ),
    ("quit", "quit   leave (the game is autosaved)"),
    ("exit", "exit   leave"),
    ("next", "next   the same as bound"),
];

const HELP_UNIT: &str = "\
unit NAME [WORDS] answers a unit in one line; anything not said takes its default:
  open | natural | hard     its ground
  d=INCHES | d=far          distance to the nearest enemy (a number means it sees the enemy)
  seen | unseen             whether it sees the enemy
  lost=N                    figures lost since its last test
  general                   a general within 3\"
  support                   friends within 6\"
  retreat                   it sees the enemy retreat
  melee                     it lost a melee last bound
  cavalry                   it sees enemy cavalry
  friend-firing | friend-melee   it is coming up behind a friend firing / in a melee
Example: unit 2nd-provincials natural d=4 lost=2 general
";

/// Run `foe companion`.
pub fn run(args: &Args, context: &mut CliContext<'_>) -> Result<()> {
    let tables = context.tables()?;
    let data_dir = data_dir();
    if let Some(path) = &args.autosave {
        // A device, a FIFO or a folder is refused before the game starts.
        saves::check_writable(path)?;
    }
    let slots = Slots::companion();
    if args.resume.as_deref() == Some("list") && args.autosave.is_none() {
        let Some(slots) = &slots else {
            return Err(no_folder());
        };
        let listing = slots.listing(|path| describe(&tables, path), "foe companion");
        return context.print(&listing);
    }
    let autosave = if args.no_autosave {
        None
    } else if let Some(path) = &args.autosave {
        Some(path.clone())
    } else if let Some(name) = &args.resume {
        let slots = slots.as_ref().ok_or_else(no_folder)?;
        Some(slots.find((!name.is_empty()).then_some(name), "foe companion")?)
    } else {
        let what = args.army.as_deref().map_or("battle".into(), |army| {
            Path::new(army)
                .file_stem()
                .map_or("battle".into(), |stem| stem.to_string_lossy().into_owned())
        });
        slots
            .as_ref()
            .map(|slots| slots.new_path(&what, saves::now()))
    };
    // Held for the whole game: a second foe on the same save is refused.
    let lock = match &autosave {
        Some(path) => saves::lock(path)?,
        None => None,
    };
    let running = crate::save::Running::new(saves::tables_hash(context.tables_dir.as_deref())?);
    let seed = super::dice::seed_or_clock(args.seed);
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let source: Box<dyn LineSource> = if interactive {
        match Terminal::new(data_dir.as_ref().map(|dir| dir.join("history.txt"))) {
            Some(terminal) => Box::new(terminal),
            None => Box::new(Plain::new()),
        }
    } else {
        Box::new(Plain::new())
    };
    let asks = context.asks();
    let mut repl = Repl {
        tables,
        session: Session::new(),
        console: Console {
            source,
            out: &mut *context.out,
            echo: !interactive,
        },
        stream: Stream::new(seed),
        asks,
        autosave,
        walking: false,
        draft: None,
        running,
        _lock: lock,
    };
    repl.start(args)?;
    repl.run();
    repl.console.source.save_history();
    Ok(())
}

/// foe's seeded dice, remembering which dice were drawn so that a loaded
/// game continues the same stream.
struct Stream {
    seed: u64,
    rng: Seeded,
    drawn: Vec<Die>,
}

impl Stream {
    fn new(seed: u64) -> Stream {
        Stream {
            seed,
            rng: Seeded::new(seed),
            drawn: Vec::new(),
        }
    }

    /// The stream of `seed` after `drawn` dice.
    fn wound(seed: u64, drawn: &[Die]) -> Stream {
        let mut stream = Stream::new(seed);
        for die in drawn {
            stream.roll(*die);
        }
        stream
    }
}

impl Roller for Stream {
    fn roll(&mut self, die: Die) -> u8 {
        self.drawn.push(die);
        self.rng.roll(die)
    }
}

/// The player's own dice, typed at the prompt; a legal face or the question again.
struct Asked<'c, 'a> {
    console: &'c mut Console<'a>,
    stream: &'c mut Stream,
}

/// One pass of an action with the player's dice: the rolls typed so far,
/// in order, then a stop at the first roll still to be asked, noting what
/// it is for. The rolls after it are placeholders and the pass is thrown
/// away (the game is pure); the events before the stop are decided.
struct Paced {
    typed: Vec<u8>,
    next: usize,
    /// The first roll not typed yet: its die and what it is for.
    wanted: Option<(Die, String)>,
}

impl Paced {
    fn new(typed: Vec<u8>) -> Paced {
        Paced {
            typed,
            next: 0,
            wanted: None,
        }
    }
}

/// The lowest face of a die: a placeholder in a pass that is thrown away.
fn lowest(die: Die) -> u8 {
    die.outcomes().first().map_or(1, |(face, _)| *face)
}

impl Roller for Paced {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!(""))
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        if let Some(value) = self.typed.get(self.next) {
            self.next += 1;
            return *value;
        }
        if self.wanted.is_none() {
            self.wanted = Some((die, why.to_string()));
        }
        lowest(die)
    }
}

impl Asked<'_, '_> {
    fn ask(&mut self, die: Die, why: &str) -> u8 {
        let prompt = if why.is_empty() {
            format!("  roll a {die}: ")
        } else {
            format!("  roll a {die} for {why}: ")
        };
        loop {
            match self.console.read(&prompt, &[], None) {
                Read::Line(line) => match super::dice::typed_roll(die, &line) {
                    super::dice::Typed::Face(value) => return value,
                    super::dice::Typed::Help => {
                        let help = super::dice::roll_help(die, why);
                        self.console
                            .say(&crate::names::escape_lines(&format!("  {help}")));
                    }
                    super::dice::Typed::Wrong(message) => {
                        self.console
                            .say(&crate::names::escape_lines(&format!("! {message}")));
                    }
                },
                Read::Bad(problem) => self
                    .console
                    .say(&crate::names::escape_lines(&format!("! {problem}"))),
                Read::Interrupted => self
                    .console
                    .say("! a roll is needed to finish this; type it (Ctrl-D lets foe roll)"),
                Read::Eof => {
                    // Input ended halfway through an action: foe rolls rather
                    // than lose what has been answered.
                    let value = self.stream.roll(die);
                    self.console
                        .say(&format!("(no more input: foe rolled {value})"));
                    return value;
                }
            }
        }
    }
}

struct Repl<'a> {
    tables: Tables,
    session: Session,
    console: Console<'a>,
    stream: Stream,
    asks: bool,
    autosave: Option<PathBuf>,
    /// Walking the bound: asking the next unit's questions.
    walking: bool,
    /// The unit being asked about and what has been answered so far.
    draft: Option<(String, Draft)>,
    /// The foe and tables this run plays by, for saves and loads.
    running: crate::save::Running,
    /// The lock on the autosave, held until the game ends.
    _lock: Option<saves::Lock>,
}

impl Repl<'_> {
    /// Print `text`: names come from army files, saves and what was typed,
    /// so anything unprintable is shown escaped.
    fn say(&mut self, text: &str) {
        self.console.say(&crate::names::escape_lines(text));
    }

    fn start(&mut self, args: &Args) -> Result<()> {
        self.say(
            "foe companion: the Lone Warrior opponent runs the enemy army. `help` lists the commands.",
        );
        if args.resume.is_some() {
            let Some(path) = self.autosave.clone() else {
                return Err(no_folder());
            };
            self.load(&path)?;
        } else if let Some(path) = &self.autosave
            && let Some(previous) = saves::set_aside(path)
        {
            // A new game must not overwrite the last one's save unseen.
            self.say(&format!(
                "The last game's autosave is kept as {}; `load {}` brings it back.",
                previous.display(),
                previous.display()
            ));
        }
        if self.asks {
            self.console
                .say("Dice: you roll real dice and type each result when asked.");
        } else if args.seed.is_none() && args.resume.is_none() {
            self.say(&format!(
                "Dice: seed {} (--seed {} replays this battle).",
                self.stream.seed, self.stream.seed
            ));
        }
        if let Some(army) = &args.army {
            let setup = self.read_army(army)?;
            self.act(Action::LoadArmy { army: setup });
        }
        Ok(())
    }

    fn run(&mut self) {
        loop {
            let (prompt, words, hint, question) = match self.current_question() {
                Some((unit_name, question)) => {
                    let mut words = question.choices.clone();
                    words.extend(command_words());
                    (
                        format!("  {unit_name} {} [{}]: ", question.text, question.default),
                        words,
                        Some(question.default.clone()),
                        Some(question),
                    )
                }
                None => {
                    let mut words = command_words();
                    words.extend(self.session.game.units.iter().map(|unit| unit.name.clone()));
                    words.extend(questions::FAST_WORDS.iter().map(|word| word.to_string()));
                    ("foe> ".to_string(), words, None, None)
                }
            };
            match self.console.read(&prompt, &words, hint.as_deref()) {
                Read::Eof => break,
                Read::Bad(problem) => self.say(&format!("! {problem}")),
                Read::Interrupted => {
                    if let Some((name, _)) = self.draft.take() {
                        self.walking = false;
                        self.say(&format!(
                            "Cancelled the questions for {name}; `bound` picks up again."
                        ));
                    } else {
                        self.say("(Ctrl-D or `quit` leaves)");
                    }
                }
                Read::Line(line) => {
                    let line = line.trim();
                    let keep_going = match &question {
                        Some(question) => self.reply(question, line),
                        None => self.command(line),
                    };
                    if !keep_going {
                        break;
                    }
                }
            }
        }
    }

    /// The question to ask now, walking the bound: the next untested unit's
    /// next unanswered question. Completed drafts are applied here.
    fn current_question(&mut self) -> Option<(String, Question)> {
        loop {
            if !self.walking {
                return None;
            }
            let Some(unit) = self.session.game.next_untested().cloned() else {
                self.walking = false;
                self.draft = None;
                return None;
            };
            if self
                .draft
                .as_ref()
                .is_none_or(|(name, _)| *name != unit.name)
            {
                self.draft = Some((unit.name.clone(), Draft::default()));
                self.say(&unit_header(&unit));
            }
            let context = self.session.game.context(&unit);
            let draft = &self.draft.as_ref()?.1;
            match draft.next_question(&context) {
                Some(question) => return Some((unit.name.clone(), question)),
                None => {
                    let answers = draft.finish(&context);
                    self.draft = None;
                    if !self.act(Action::Answer {
                        name: unit.name.clone(),
                        answers,
                    }) {
                        self.walking = false;
                    }
                }
            }
        }
    }

    /// A reply to a question: `?`, a command (a full command word), or the answer.
    fn reply(&mut self, question: &Question, line: &str) -> bool {
        if line == "?" {
            self.say(&format!(
                "  choices: {} (empty: {})",
                question.choices.join(", "),
                question.default
            ));
            return true;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let is_choice = question
            .choices
            .iter()
            .any(|choice| choice.eq_ignore_ascii_case(first));
        if !is_choice && COMMANDS.iter().any(|(name, _)| *name == first) {
            let before = self.session.played.len();
            let keep_going = self.command(line);
            if self.session.played.len() != before {
                // The game changed under the question: start the unit afresh.
                self.draft = None;
            }
            return keep_going;
        }
        let Some(unit) = self.session.game.next_untested().cloned() else {
            return true;
        };
        let context = self.session.game.context(&unit);
        if let Some((_, draft)) = &mut self.draft
            && let Err(message) = draft.answer(question, line, &context)
        {
            self.say(&format!("! {message}"));
        }
        true
    }

    /// Apply an action with the session's dice; print its events and
    /// autosave. Returns whether it was accepted.
    fn act(&mut self, action: Action) -> bool {
        // With the player's dice, each roll is asked right after the result
        // of the one before is shown: the action is applied once per roll,
        // each pass stopping at the first roll not yet typed, its decided
        // events are shown and that roll is asked; the last pass, with every
        // roll typed, is the one kept.
        let drawn_before = self.stream.drawn.len();
        let mut shown = 0;
        let result = if self.asks {
            let mut typed = Vec::new();
            loop {
                let mut pass = Paced::new(typed.clone());
                let probe = self
                    .session
                    .game
                    .apply_paced(&self.tables, &action, &mut pass);
                // A refused action is refused again below, and says why.
                let (Some((die, why)), Ok((_, events))) = (pass.wanted, probe) else {
                    break;
                };
                let decided = events
                    .iter()
                    .take_while(|(drawn, _)| *drawn <= typed.len())
                    .count();
                if decided > shown {
                    let events: Vec<_> = events[shown..decided]
                        .iter()
                        .map(|(_, event)| event.clone())
                        .collect();
                    self.say(&render::companion::events(&self.tables, &events));
                    shown = decided;
                }
                let mut asked = Asked {
                    console: &mut self.console,
                    stream: &mut self.stream,
                };
                typed.push(asked.ask(die, &why));
            }
            self.session
                .apply(&self.tables, action, &mut Paced::new(typed))
        } else {
            self.session.apply(&self.tables, action, &mut self.stream)
        };
        match result {
            Ok(events) => {
                // Saved before it is shown: what the player saw is on the disk.
                self.autosave();
                let text =
                    render::companion::events(&self.tables, &events[shown.min(events.len())..]);
                self.say(&text);
                true
            }
            Err(error) => {
                // A refused action draws no dice: the stream goes back to
                // where it was, so a game saved now goes on as an unbroken
                // one would.
                if self.stream.drawn.len() != drawn_before {
                    self.stream =
                        Stream::wound(self.stream.seed, &self.stream.drawn[..drawn_before]);
                }
                self.say(&format!("! {error}"));
                false
            }
        }
    }

    fn save_file(&self) -> SaveFile {
        let mut save = SaveFile::of(&self.session, Some(self.stream.seed), &self.stream.drawn);
        save.asked = self.asks;
        save.made = Some(self.running.made(None));
        save
    }

    fn autosave(&mut self) {
        let Some(path) = self.autosave.clone() else {
            return;
        };
        if let Err(error) = write_atomically(&path, &self.save_file().to_json()) {
            // Keep playing without autosave rather than nag after every answer.
            self.console
                .say(&format!("! autosave failed ({error}); autosave is off now"));
            self.autosave = None;
        }
    }

    fn load(&mut self, path: &Path) -> Result<()> {
        self.load_quietly(path)?;
        self.say_loaded(path);
        Ok(())
    }

    fn say_loaded(&mut self, path: &Path) {
        self.say(&format!(
            "Loaded `{}`: {} actions replayed.",
            path.display(),
            self.session.played.len()
        ));
    }

    fn load_quietly(&mut self, path: &Path) -> Result<()> {
        let text = super::read_text(path)?;
        let cannot = |error: &dyn std::fmt::Display| {
            Error::Invalid(format!("cannot load `{}`: {error}", path.display()))
        };
        let save = SaveFile::from_json(&text).map_err(|error| cannot(&error))?;
        crate::save::check_tables(save.made.as_ref(), &self.running)
            .map_err(|problem| cannot(&format!("the game {problem}")))?;
        let session = save.session(&self.tables).map_err(|error| cannot(&error))?;
        let notice = crate::save::after_replay(save.made.as_ref(), &self.running, None, None)
            .map_err(|problem| cannot(&format!("the game {problem}")))?;
        self.session = session;
        if let Some(notice) = notice {
            self.console.say(&notice);
        }
        // A game played with the player's own dice goes on with them.
        if save.asked && !self.asks {
            self.asks = true;
            self.console
                .say("Dice: this game was played with your own dice; type each roll when asked.");
        }
        self.stream = match save.seed {
            Some(seed) => Stream::wound(seed, &save.drawn),
            None => Stream::new(self.stream.seed),
        };
        self.walking = false;
        self.draft = None;
        Ok(())
    }

    fn read_army(&self, name: &str) -> Result<crate::companion::ArmySetup> {
        let path = Path::new(name);
        let looks_like_file = path.is_file()
            || name.contains(['/', '\\'])
            || name.ends_with(".yaml")
            || name.ends_with(".yml");
        if looks_like_file {
            let text = super::read_text(path)?;
            return Ok(army::parse(&self.tables, name, &text)?);
        }
        match army::example(name) {
            Some((short, text)) => Ok(army::parse(
                &self.tables,
                &format!("armies/{short}.yaml"),
                text,
            )?),
            None => Err(Error::Invalid(format!(
                "unknown army `{name}`{}; the examples are french and british, or give a YAML file",
                crate::suggest::did_you_mean(name, army::EXAMPLES.map(|(name, _)| name))
            ))),
        }
    }

    /// Run one command line. Returns false to leave.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(first) = words.first() else {
            return true;
        };
        if *first == "?" {
            self.say(&help());
            return true;
        }
        let names = COMMANDS.map(|(name, _)| name);
        let command = match crate::suggest::resolve(first, names) {
            Ok(command) => command,
            Err(matches) if matches.len() > 1 => {
                self.say(&format!(
                    "! `{first}` could be {}; type more of it",
                    matches.join(" or ")
                ));
                return true;
            }
            Err(_) => {
                self.say(&format!(
                    "! unknown command `{first}`{}; `help` lists the commands",
                    crate::suggest::did_you_mean(first, names)
                ));
                return true;
            }
        };
        let rest = &words[1..];
        let result = match command {
            "quit" | "exit" => return false,
            "help" => {
                if rest.first().is_some_and(|topic| topic.starts_with('u')) {
                    self.say(HELP_UNIT);
                } else {
                    self.say(&help());
                }
                Ok(())
            }
            "army" => self.army_command(rest),
            "add" => self.add_command(rest),
            "remove" => one_name(rest, "remove NAME").map(|name| {
                self.act(Action::RemoveUnit { name });
            }),
            "general" => self.general_command(rest),
            "reinforcements" => one_name(rest, "reinforcements french|british").map(|army| {
                self.act(Action::SetReinforcements { army });
            }),
            "bound" | "next" => {
                if !self.session.game.in_bound {
                    self.act(Action::StartBound);
                }
                self.walking = self.session.game.in_bound;
                Ok(())
            }
            "unit" => self.unit_command(rest),
            "report" => one_name(
                rest,
                "report own-troops-withdrawing|enemy-attacking|enemy-withdrawing",
            )
            .and_then(|name| name.parse::<Trigger>())
            .map(|trigger| {
                self.act(Action::Report { trigger });
            }),
            "melee" => one_name(rest, "melee NAME").map(|name| {
                self.act(Action::LostMelee { name });
            }),
            "status" => {
                let text = render::companion::status(&self.session.game);
                self.say(&text);
                Ok(())
            }
            "history" => {
                let text = render::companion::history(&self.tables, &self.session.game);
                self.say(&text);
                Ok(())
            }
            "undo" => {
                match self.session.undo(&self.tables) {
                    Some(played) => {
                        self.draft = None;
                        self.walking = false;
                        self.autosave();
                        self.console
                            .say(&format!("Took back: {}", action_text(&played.action)));
                    }
                    None => self.say("! nothing to undo"),
                }
                Ok(())
            }
            "save" => one_name(rest, "save FILE").and_then(|file| {
                write_atomically(Path::new(&file), &self.save_file().to_json())?;
                self.say(&format!("Saved to `{file}`."));
                Ok(())
            }),
            "load" => one_name(rest, "load FILE").and_then(|file| {
                self.load_quietly(Path::new(&file))?;
                self.autosave();
                self.say_loaded(Path::new(&file));
                Ok(())
            }),
            "export" => one_name(rest, "export FILE").and_then(|file| {
                let text = render::companion::markdown(&self.tables, &self.session.game);
                write_atomically(Path::new(&file), &text)?;
                self.console
                    .say(&format!("Battle log written to `{file}`."));
                Ok(())
            }),
            _ => Ok(()),
        };
        if let Err(error) = result {
            // Located problems (an army file) may take several lines; everything else is one.
            self.say(&format!("! {error}"));
        }
        true
    }

    fn army_command(&mut self, rest: &[&str]) -> Result<()> {
        let name = one_name(rest, "army french|british|FILE")?;
        let setup = self.read_army(&name)?;
        self.act(Action::LoadArmy { army: setup });
        Ok(())
    }

    fn add_command(&mut self, rest: &[&str]) -> Result<()> {
        let usage = "usage: add NAME CLASS FIGURES [FORMATION] [CHARACTER]";
        let [name, class, figures, extra @ ..] = rest else {
            return Err(Error::Invalid(usage.into()));
        };
        let figures: u32 = figures.parse().map_err(|_| {
            Error::Invalid(format!("`{figures}` is not a number of figures; {usage}"))
        })?;
        let mut formation = None;
        let mut character = None;
        for word in extra {
            if let Ok(parsed) = word.parse::<Formation>() {
                formation = Some(parsed);
            } else if let Ok(parsed) = word.parse::<Character>() {
                character = Some(parsed);
            } else {
                return Err(Error::Invalid(format!(
                    "`{word}` is neither a formation nor a character; {usage}"
                )));
            }
        }
        self.act(Action::AddUnit {
            unit: UnitSetup {
                name: name.to_string(),
                class: class.to_string(),
                figures,
                formation,
                character,
            },
        });
        Ok(())
    }

    fn general_command(&mut self, rest: &[&str]) -> Result<()> {
        let mut setup = GeneralSetup::default();
        let mut name_words = rest;
        if let Some(first) = rest.first()
            && let Ok(character) = first.parse::<Character>()
        {
            setup.character = Some(character);
            name_words = &rest[1..];
        }
        if !name_words.is_empty() {
            setup.name = Some(name_words.join(" "));
        }
        self.act(Action::SetGeneral { general: setup });
        Ok(())
    }

    fn unit_command(&mut self, rest: &[&str]) -> Result<()> {
        let Some((name, words)) = rest.split_first() else {
            return Err(Error::Invalid(
                "usage: unit NAME [WORDS]; `help unit` lists the words".into(),
            ));
        };
        let game = &self.session.game;
        let index = game.unit_index(name)?;
        let unit = &game.units[index];
        let context = game.context(unit);
        let answers = questions::fast(words, &context).map_err(Error::Invalid)?;
        let name = unit.name.clone();
        if self.act(Action::Answer { name, answers }) {
            self.draft = None;
        }
        Ok(())
    }
}

fn no_folder() -> Error {
    Error::Invalid(
        "no data folder for the autosave; set FOE_DATA_DIR or use --autosave FILE".into(),
    )
}

/// A saved game in short, for `--resume list`: its army, bound and units.
fn describe(tables: &Tables, path: &Path) -> String {
    let session = super::read_text(path)
        .and_then(|text| SaveFile::from_json(&text).and_then(|save| save.session(tables)));
    match session {
        Ok(session) => {
            let game = &session.game;
            let army = if game.army_name.is_empty() {
                "no army yet"
            } else {
                game.army_name.as_str()
            };
            format!("{army}; bound {}; {} units", game.bound, game.units.len())
        }
        Err(error) => format!("cannot be loaded: {error}"),
    }
}

/// The line shown before a unit's questions: what foe remembers about it.
fn unit_header(unit: &crate::companion::Unit) -> String {
    let mut facts = vec![
        unit.class_name.clone(),
        format!("{}/{} figures", unit.figures, unit.start_figures),
        unit.formation.to_string(),
    ];
    if let Some(character) = unit.character {
        facts.push(character.to_string());
    }
    if let Some(order) = unit.last_order {
        facts.push(format!("last order: {order}"));
    }
    if unit.withdrew_last_bound {
        facts.push("withdrew last bound: tests in the retreat column".into());
    }
    if unit.disordered {
        facts.push("disordered".into());
    }
    format!("{} ({}):", unit.name, facts.join(", "))
}

fn one_name(rest: &[&str], usage: &str) -> Result<String> {
    match rest {
        [one] => Ok((*one).to_string()),
        _ => Err(Error::Invalid(format!("usage: {usage}"))),
    }
}

fn command_words() -> Vec<String> {
    COMMANDS.iter().map(|(name, _)| name.to_string()).collect()
}

fn help() -> String {
    let mut text = String::from("Commands (unique prefixes work):\n");
    for (_, line) in COMMANDS {
        text.push_str("  ");
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// An action in words, for `undo`.
fn action_text(action: &Action) -> String {
    match action {
        Action::LoadArmy { army } => format!("army {}", army.name),
        Action::AddUnit { unit } => format!("add {}", unit.name),
        Action::RemoveUnit { name } => format!("remove {name}"),
        Action::SetGeneral { .. } => "general".into(),
        Action::SetReinforcements { army } => format!("reinforcements {army}"),
        Action::Report { trigger } => format!("report {}", trigger.id()),
        Action::LostMelee { name } => format!("melee {name}"),
        Action::StartBound => "the start of the bound".into(),
        Action::Answer { name, answers } => format!("unit {name} {answers}"),
    }
}
