//! A game of `foe play`: the player commands some sides of a scenario, the
//! Lone Warrior opponent the others, over the seed-000 rules engine.
//!
//! Pure: a [`Match`] is the scenario, the seed, who commands which side, and
//! the player's actions. Every die comes from one seeded generator, used in
//! a fixed order by the engine and the opponent, so the same three things
//! always give the same game: that is what saves, `undo` and replays rely
//! on. The REPL in `cli::play` reads commands and prints what the log says.

pub mod command;

use crate::baseline::{BaselineReport, Controller, Played};
use crate::dice::{Die, Roller, Scripted, Seeded};
use crate::opponent::{FieldCache, Opponent, TurnReport};
use crate::rules::{Action, Event, GameSetup, GameState, Refusal, RulesTable, SetupError};
use crate::scenario::Scenario;
use crate::tables::Tables;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The version of the save format this foe writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// Where a match's scenario came from, kept so a save replays on its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioFile {
    /// The name shown in messages (a path or `scenarios/x.yaml`).
    pub shown_as: String,
    /// The scenario's YAML text.
    pub text: String,
}

/// One thing that happened, in order.
#[derive(Debug, Clone)]
pub enum Entry {
    /// The set-up rolls (rolled generals).
    Setup(Vec<Event>),
    /// An action of the player's, and what it caused.
    Player {
        /// The action.
        action: Action,
        /// What happened.
        events: Vec<Event>,
    },
    /// A whole turn played by the opponent for a side.
    Opponent {
        /// The side.
        side: usize,
        /// What it decided and what happened.
        report: TurnReport,
    },
    /// A whole turn played by the baseline for a side.
    Baseline {
        /// The side.
        side: usize,
        /// What it did and why.
        report: BaselineReport,
    },
}

impl Entry {
    /// The engine events of the entry.
    pub fn events(&self) -> &[Event] {
        match self {
            Entry::Setup(events) | Entry::Player { events, .. } => events,
            Entry::Opponent { report, .. } => &report.events,
            Entry::Baseline { report, .. } => &report.events,
        }
    }
}

/// A saved game: the scenario, the seed, the player's sides and actions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveFile {
    /// [`SAVE_VERSION`] when written.
    pub version: u32,
    /// The scenario.
    pub scenario: ScenarioFile,
    /// The seed of the game's dice.
    pub seed: u64,
    /// Indices of the sides the player commands.
    pub player_sides: Vec<usize>,
    /// The player's actions, in order.
    pub actions: Vec<Action>,
    /// Indices of the sides the baseline commands (the rest: foe).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub baseline_sides: Vec<usize>,
    /// Whether the player rolled real dice; then `rolls` replays them.
    #[serde(default)]
    pub asked: bool,
    /// Every roll of a game played with real dice, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<u8>,
}

/// Why a match could not be started or rebuilt.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MatchError {
    /// The scenario does not make a game.
    #[error("the scenario does not make a game: {0}")]
    Setup(#[from] SetupError),
    /// A saved action no longer applies.
    #[error("the saved game does not replay: action {index} refused: {refusal}")]
    Replay {
        /// Which action (from 1).
        index: usize,
        /// Why.
        refusal: Refusal,
    },
}

/// Dice given to a match: the player's own (`Some`), or the seeded ones.
pub type Dice = Option<Box<dyn Roller>>;

/// The match's dice: a source (the seeded generator, or the player's own
/// dice) with every roll written down, so a game played with real dice
/// replays from its record.
pub struct Recorder {
    source: Box<dyn Roller>,
    /// Every roll so far, in order.
    pub rolls: Vec<u8>,
}

impl Roller for Recorder {
    fn roll(&mut self, die: Die) -> u8 {
        let value = self.source.roll(die);
        self.rolls.push(value);
        value
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        let value = self.source.roll_for(die, why);
        self.rolls.push(value);
        value
    }
}

/// A game in progress.
pub struct Match {
    /// The scenario.
    pub scenario: Arc<Scenario>,
    /// Its file, for saves.
    pub file: ScenarioFile,
    /// The seed.
    pub seed: u64,
    /// The sides the player commands (none: watch the opponent fight itself).
    pub player_sides: Vec<usize>,
    /// The game.
    pub state: GameState,
    /// Everything that happened, in order.
    pub log: Vec<Entry>,
    rules: Arc<RulesTable>,
    tables: Arc<Tables>,
    roller: Recorder,
    /// Whether the dice are the player's own (then saves keep the rolls).
    asked: bool,
    /// `roller.rolls.len()` after each of the player's actions.
    roll_marks: Vec<usize>,
    /// Rolls made before the player's first action (set-up, opening turns).
    opening_rolls: usize,
    /// The sides the baseline commands instead of foe's opponent.
    pub baseline_sides: Vec<usize>,
    opponents: Vec<Option<Controller>>,
    /// Each general's rallies at the start, for the summary.
    pub starting_rallies: Vec<u32>,
    /// The player's actions so far.
    actions: Vec<Action>,
    /// How many of `actions` were taken before the current player turn began.
    turn_start: usize,
}

impl Match {
    /// Start a game. Opponent sides that move first play at once, so when
    /// this returns it is a player's turn (or the game is over, or the
    /// player watches).
    pub fn new(
        scenario: Arc<Scenario>,
        file: ScenarioFile,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
        seed: u64,
        player_sides: Vec<usize>,
    ) -> Result<Match, MatchError> {
        Match::with_dice(scenario, file, rules, tables, seed, player_sides, None)
    }

    /// Start a game with the player's own dice (`Some`) or the seeded ones.
    pub fn with_dice(
        scenario: Arc<Scenario>,
        file: ScenarioFile,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
        seed: u64,
        player_sides: Vec<usize>,
        dice: Option<Box<dyn Roller>>,
    ) -> Result<Match, MatchError> {
        let fields = FieldCache::default();
        Match::sharing_fields(
            scenario,
            file,
            rules,
            tables,
            seed,
            player_sides,
            Vec::new(),
            dice,
            &fields,
        )
    }

    /// [`Match::with_dice`] with the opponents' distance fields taken from
    /// `fields`, which many games on the same scenario may share (they
    /// depend only on the table): `foe simulate` works them out once a run.
    /// The baseline commands `baseline_sides`, foe's opponent the others
    /// the player does not.
    #[allow(clippy::too_many_arguments)]
    pub fn sharing_fields(
        scenario: Arc<Scenario>,
        file: ScenarioFile,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
        seed: u64,
        player_sides: Vec<usize>,
        baseline_sides: Vec<usize>,
        dice: Option<Box<dyn Roller>>,
        fields: &FieldCache,
    ) -> Result<Match, MatchError> {
        let setup = GameSetup::from_scenario(&scenario)?;
        let asked = dice.is_some();
        let source = dice.unwrap_or_else(|| Box::new(Seeded::new(seed)));
        let mut roller = Recorder {
            source,
            rolls: Vec::new(),
        };
        let (state, events) =
            GameState::new(setup, rules.clone(), &tables.characters, &mut roller)?;
        // Controllers on both sides (watch mode) share what they work out.
        let opponents = crate::baseline::controllers(
            &tables,
            &scenario,
            &state,
            &player_sides,
            &baseline_sides,
            fields,
        );
        let starting_rallies = state
            .generals
            .iter()
            .map(|general| general.rallies_left)
            .collect();
        let mut game = Match {
            starting_rallies,
            scenario,
            file,
            seed,
            player_sides,
            baseline_sides,
            state,
            log: vec![Entry::Setup(events)],
            rules,
            tables,
            roller,
            asked,
            roll_marks: Vec::new(),
            opening_rolls: 0,
            opponents,
            actions: Vec::new(),
            turn_start: 0,
        };
        if !game.watching() {
            game.play_opponents();
        }
        game.opening_rolls = game.roller.rolls.len();
        Ok(game)
    }

    /// Rebuild a saved game by replaying its actions. A game played with
    /// real dice replays its recorded rolls, then rolls with `dice` (or the
    /// seeded generator) from where it left off.
    pub fn from_save(
        save: &SaveFile,
        scenario: Arc<Scenario>,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
        dice: Option<Box<dyn Roller>>,
    ) -> Result<Match, MatchError> {
        // A seeded game replays from its seed even if the player now rolls
        // their own dice; those take over once the replay is done.
        let (recorded, later): (Dice, Dice) = if save.asked {
            let after: Box<dyn Roller> = dice.unwrap_or_else(|| Box::new(Seeded::new(save.seed)));
            (
                Some(Box::new(Scripted::then(save.rolls.iter().copied(), after))),
                None,
            )
        } else {
            (None, dice)
        };
        let mut game = Match::sharing_fields(
            scenario,
            save.scenario.clone(),
            rules,
            tables,
            save.seed,
            save.player_sides.clone(),
            save.baseline_sides.clone(),
            recorded,
            &FieldCache::default(),
        )?;
        game.asked = save.asked;
        for (index, action) in save.actions.iter().enumerate() {
            game.act(action.clone())
                .map_err(|refusal| MatchError::Replay {
                    index: index + 1,
                    refusal,
                })?;
        }
        if let Some(dice) = later {
            game.roller.source = dice;
            game.asked = true;
        }
        Ok(game)
    }

    /// The save file of this game.
    pub fn save(&self) -> SaveFile {
        SaveFile {
            version: SAVE_VERSION,
            scenario: self.file.clone(),
            seed: self.seed,
            player_sides: self.player_sides.clone(),
            actions: self.actions.clone(),
            baseline_sides: self.baseline_sides.clone(),
            asked: self.asked,
            rolls: if self.asked {
                self.roller.rolls.clone()
            } else {
                Vec::new()
            },
        }
    }

    /// Whether the player only watches.
    pub fn watching(&self) -> bool {
        self.player_sides.is_empty()
    }

    /// Whether it is the player's turn to act.
    pub fn players_turn(&self) -> bool {
        !self.state.is_over() && self.player_sides.contains(&self.state.active)
    }

    /// The player's actions so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The Lone Warrior opponent commanding a side, if any.
    pub fn opponent(&self, side: usize) -> Option<&Opponent> {
        self.opponents
            .get(side)
            .and_then(Option::as_ref)
            .and_then(Controller::opponent)
    }

    /// Apply one of the player's actions. On refusal nothing changes. If the
    /// action ends the player's turn, the opponent's turns follow at once.
    /// Returns the index in [`Match::log`] of the first new entry.
    pub fn act(&mut self, action: Action) -> Result<usize, Refusal> {
        if !self.players_turn() {
            return Err(Refusal::GameOver);
        }
        let first_new = self.log.len();
        let events = self.state.apply(&action, &mut self.roller)?;
        // The opponent learns what the player's turn did (melees, retreats,
        // losses), as it would see it across the table.
        for opponent in self.opponents.iter_mut().flatten() {
            opponent.observe(&self.state, &events);
        }
        self.actions.push(action.clone());
        self.log.push(Entry::Player { action, events });
        if !self.players_turn() {
            self.play_opponents();
            self.turn_start = self.actions.len();
        }
        self.roll_marks.push(self.roller.rolls.len());
        Ok(first_new)
    }

    /// End phases until the player's turn is over (the opponent then plays).
    pub fn end_turn(&mut self) -> Result<usize, Refusal> {
        let first_new = self.log.len();
        let side = self.state.active;
        let turn = self.state.turn;
        while self.players_turn() && self.state.active == side && self.state.turn == turn {
            self.act(Action::EndPhase)?;
        }
        Ok(first_new)
    }

    /// In watch mode, play the next side's whole turn. Returns false when the
    /// game is over.
    pub fn step(&mut self) -> bool {
        if self.state.is_over() {
            return false;
        }
        let side = self.state.active;
        self.play_side(side);
        true
    }

    /// Take back the player's last action of this turn, by replaying the game
    /// without it. The opponent's turns cannot be taken back.
    pub fn undo(&mut self) -> Result<Action, &'static str> {
        if self.actions.len() <= self.turn_start {
            return Err("nothing to undo this turn");
        }
        let mut save = self.save();
        let undone = save.actions.pop().ok_or("nothing to undo")?;
        // The rolls the undone action made are forgotten with it.
        let keep = self
            .roll_marks
            .len()
            .checked_sub(2)
            .map_or(self.opening_rolls, |index| self.roll_marks[index]);
        save.rolls.truncate(keep);
        let dice = self
            .asked
            .then(|| std::mem::replace(&mut self.roller.source, Box::new(Seeded::new(self.seed))));
        let rebuilt = Match::from_save(
            &save,
            self.scenario.clone(),
            self.rules.clone(),
            self.tables.clone(),
            dice,
        )
        .map_err(|_| "the game no longer replays without that action")?;
        *self = rebuilt;
        Ok(undone)
    }

    fn play_opponents(&mut self) {
        while !self.state.is_over() && !self.player_sides.contains(&self.state.active) {
            let side = self.state.active;
            let turn = self.state.turn;
            self.play_side(side);
            if self.state.active == side && self.state.turn == turn && !self.state.is_over() {
                // The opponent could not finish its turn: never loop forever.
                break;
            }
        }
    }

    fn play_side(&mut self, side: usize) {
        let entry = match self.opponents.get_mut(side).and_then(Option::as_mut) {
            Some(controller) => match controller.play_turn(&mut self.state, &mut self.roller) {
                Played::Foe(report) => Entry::Opponent { side, report },
                Played::Baseline(report) => Entry::Baseline { side, report },
            },
            None => {
                // A player's side in watch mode never happens; end its phases.
                let mut report = TurnReport::default();
                while !self.state.is_over() && self.state.active == side {
                    match self.state.apply(&Action::EndPhase, &mut self.roller) {
                        Ok(events) => report.events.extend(events),
                        Err(_) => break,
                    }
                }
                Entry::Opponent { side, report }
            }
        };
        for (other, opponent) in self.opponents.iter_mut().enumerate() {
            if other != side
                && let Some(opponent) = opponent
            {
                opponent.observe(&self.state, entry.events());
            }
        }
        self.log.push(entry);
    }
}

#[cfg(test)]
mod tests;
