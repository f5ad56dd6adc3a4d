//! A seed-000 game as its studies and tests read it: the player commands
//! some sides of a scenario, the Lone Warrior opponent the others. The
//! game itself is played by the boundary's one runner
//! ([`crate::host::run::HostMatch`], a commander per side); a [`Match`] is
//! seed 000's view of it: its state, its record turn by turn, rollback and
//! its saves (in the one format, [`crate::host::save::GameSave`]).
//!
//! Pure: a [`Match`] is the scenario, the seed, who commands which side, and
//! the player's actions. Every die comes from one seeded generator, used in
//! a fixed order by the engine and the opponent, so the same three things
//! always give the same game: that is what saves, `undo` and replays rely
//! on. Rollback (`undo` across turns, `undo turn`, `rewind N`) is a replay
//! of a prefix of the player's actions: the opponent's turns in it are
//! played again from the seed, exactly as they were. A game played with
//! the player's own dice replays its recorded rolls, each checked against
//! the die it is read for ([`crate::save::Replay`]), so a damaged save is
//! refused with what is wrong. `foe play` plays every rule set over the
//! runner itself (`cli::play`), and reads seed 000's texts through
//! [`crate::render::play::View`].

pub mod explain;

use crate::dice::{Roller, Seeded};
use crate::host::run::{Dice, HostMatch, Rollback, Source, Start};
use crate::host::{self, Game};
use crate::opponent::{FieldCache, Opponent};
use crate::rules::{Action, GameSetup, GameState, Refusal, RulesTable, SetupError};
use crate::save::Replay;
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

pub use crate::host::awi::Entry;
pub use crate::host::save::{About, GameSave, Watched};
pub use crate::save::ScenarioFile;

/// What a watched save's replay says when the game ended before the turns
/// it records were all played.
pub const ALREADY_OVER: &str = "the game was already over";

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
    /// The record does not fit the game: a roll that is not a face of its
    /// die, too few rolls, rolls left over, or an action with a wild number.
    #[error("the saved game does not replay: {at}: {problem}")]
    Rolls {
        /// Where: `the set-up`, `action 3`, `the end of the record`.
        at: String,
        /// What is wrong.
        problem: String,
    },
    /// The save does not fit the scenario or this foe: a side it lacks,
    /// one side given twice, an opponent rule foe does not have, another
    /// engine's action.
    #[error("{0}")]
    Save(String),
}

/// A game in progress: seed 000's view of the boundary's one runner
/// ([`HostMatch`]), which plays it with a commander per side. The view
/// adds what seed 000's studies, saves and tests read: the game
/// state, the record as [`Entry`]s, the player's actions turn by turn,
/// rollback, and its saves.
pub struct Match {
    /// The scenario.
    pub scenario: Arc<Scenario>,
    /// Its file, for saves.
    pub file: ScenarioFile,
    /// The seed.
    pub seed: u64,
    /// The sides the player commands (none: watch the opponent fight itself).
    pub player_sides: Vec<usize>,
    /// The game, its dice and its commanders.
    runner: HostMatch,
    rules: Arc<RulesTable>,
    tables: Arc<Tables>,
    /// The rolls made after each of the player's actions (and the
    /// opponent's turns it set off).
    roll_marks: Vec<usize>,
    /// Rolls made before the player's first action (set-up, opening turns).
    opening_rolls: usize,
    /// The sides the baseline commands instead of foe's opponent.
    pub baseline_sides: Vec<usize>,
    /// Each general's rallies at the start, for the summary.
    pub starting_rallies: Vec<u32>,
    /// The player's actions so far.
    actions: Vec<Action>,
    /// The turn each of `actions` was taken in.
    action_turns: Vec<u32>,
    /// In watch mode, how many sides' turns [`Match::step`] has played.
    steps: usize,
    /// When the game began (seconds since 1970), if the edge said: kept in
    /// saves to name and list them.
    pub started: Option<u64>,
    /// The hash of the game's tables when they are not the built-in ones
    /// (`--tables`), as the edge said: kept in saves.
    pub tables_hash: Option<String>,
}

/// How a game of `foe play` starts: the scenario and its tables, then
/// each choice by name. [`MatchSetup::start`] is the one way to start a
/// [`Match`]; a saved one is rebuilt by [`Match::from_save`].
pub struct MatchSetup<'a> {
    scenario: Arc<Scenario>,
    file: ScenarioFile,
    rules: Arc<RulesTable>,
    tables: Arc<Tables>,
    seed: u64,
    player_sides: Vec<usize>,
    baseline_sides: Vec<usize>,
    dice: Option<Box<dyn Roller>>,
    fields: Option<&'a FieldCache>,
}

impl<'a> MatchSetup<'a> {
    /// A game of `scenario` (read from `file`, which saves keep) under
    /// `rules` and `tables`: seed 0, the player on no side (watching),
    /// foe's opponent on every side the player does not command, the
    /// seeded dice, and distance fields of its own.
    pub fn new(
        scenario: Arc<Scenario>,
        file: ScenarioFile,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
    ) -> MatchSetup<'a> {
        MatchSetup {
            scenario,
            file,
            rules,
            tables,
            seed: 0,
            player_sides: Vec::new(),
            baseline_sides: Vec::new(),
            dice: None,
            fields: None,
        }
    }

    /// The game's seed: its dice, unless the player's own are given.
    pub fn seed(mut self, seed: u64) -> MatchSetup<'a> {
        self.seed = seed;
        self
    }

    /// The sides the player commands (none: watch foe fight itself).
    pub fn player_sides(mut self, sides: Vec<usize>) -> MatchSetup<'a> {
        self.player_sides = sides;
        self
    }

    /// The sides the baseline commands instead of foe's opponent.
    pub fn baseline_sides(mut self, sides: Vec<usize>) -> MatchSetup<'a> {
        self.baseline_sides = sides;
        self
    }

    /// The player's own dice (`Some`, recorded in saves) or the seeded
    /// ones (`None`).
    pub fn dice(mut self, dice: Option<Box<dyn Roller>>) -> MatchSetup<'a> {
        self.dice = dice;
        self
    }

    /// The opponents' distance fields taken from `fields`, which many games
    /// on the same scenario may share (they depend only on the table):
    /// `foe simulate` works them out once a run.
    pub fn sharing_fields(mut self, fields: &'a FieldCache) -> MatchSetup<'a> {
        self.fields = Some(fields);
        self
    }

    /// Start the game. Opponent sides that move first play at once, so
    /// when this returns it is a player's turn (or the game is over, or
    /// the player watches).
    pub fn start(mut self) -> Result<Match, MatchError> {
        let (source, asked) = match self.dice.take() {
            Some(dice) => (Source::Live(dice), true),
            None => (Source::Seeded(Box::new(Seeded::new(self.seed))), false),
        };
        Match::build(self, source, asked)
    }
}

impl Match {
    /// Set up the game and play the opponents' opening turns (foe's or
    /// the baseline's), the dice from `source` (`setup`'s own are unused).
    fn build(setup: MatchSetup<'_>, source: Source, asked: bool) -> Result<Match, MatchError> {
        let MatchSetup {
            scenario,
            file,
            rules,
            tables,
            seed,
            player_sides,
            baseline_sides,
            fields,
            ..
        } = setup;
        let game_setup = GameSetup::from_scenario(&scenario)?;
        let mut roller = Dice::new(source);
        let (state, events) =
            GameState::new(game_setup, rules.clone(), &tables.characters, &mut roller)?;
        let starting_rallies = state
            .generals
            .iter()
            .map(|general| general.rallies_left)
            .collect();
        // Controllers on both sides (watch mode) share what they work out.
        let start = Start {
            scenario: scenario.clone(),
            tables: tables.clone(),
            seed,
            player_sides: player_sides.clone(),
            baseline_sides: baseline_sides.clone(),
            fields: fields.cloned().unwrap_or_default(),
            rules: Some(rules.clone()),
        };
        let events = events.into_iter().map(host::Event::Awi).collect();
        let mut runner = HostMatch::assemble(start, roller, Game::Awi(Box::new(state)), events);
        runner.mark_asked(asked);
        let mut game = Match {
            starting_rallies,
            scenario,
            file,
            seed,
            player_sides,
            baseline_sides,
            runner,
            rules,
            tables,
            roll_marks: Vec::new(),
            opening_rolls: 0,
            actions: Vec::new(),
            action_turns: Vec::new(),
            steps: 0,
            started: None,
            tables_hash: None,
        };
        if !game.watching() {
            game.play_opponents();
        }
        game.opening_rolls = game.runner.rolls_made();
        Ok(game)
    }

    /// Rebuild a saved game by replaying its actions (and, watching, its
    /// turns), with the baseline commanding the sides the save gives it. A
    /// save naming a side the scenario lacks, or giving one side to both the
    /// player and the baseline, is refused. A game played with real dice replays its recorded rolls,
    /// each checked against the die it is read for, and must use them all;
    /// then `dice` rolls from where it left off (the seeded generator when
    /// `None`). A seeded game replays from its seed; `dice`, if given, takes
    /// over after the replay, and the game's rolls are recorded from then.
    pub fn from_save(
        save: &GameSave,
        scenario: Arc<Scenario>,
        rules: Arc<RulesTable>,
        tables: Arc<Tables>,
        dice: Option<Box<dyn Roller>>,
    ) -> Result<Match, MatchError> {
        let names: Vec<String> = scenario
            .sides
            .iter()
            .map(|side| side.name.clone())
            .collect();
        let (player_sides, baseline_sides) = save.sides(&names).map_err(MatchError::Save)?;
        let actions = save
            .actions
            .iter()
            .enumerate()
            .map(|(index, action)| match action {
                host::Action::Awi(action) => Ok(action.clone()),
                _ => Err(MatchError::Save(format!(
                    "action {} is not an action of seed 000's rules",
                    index + 1
                ))),
            })
            .collect::<Result<Vec<Action>, MatchError>>()?;
        let steps = match save.watched {
            None => 0,
            Some(Watched::Turns(steps)) => steps,
            Some(Watched::Actions(_)) => {
                return Err(MatchError::Save(
                    "the saved game counts its watched turns by actions, as only seeds 001 and 002 do"
                        .into(),
                ));
            }
        };
        // The game's plan rules are the save's, whatever this run's are.
        let tables = Arc::new(save.tables(&tables).map_err(MatchError::Save)?);
        let source = if save.asked {
            Source::Replay(Replay::new(save.rolls.iter().copied()))
        } else {
            Source::Seeded(Box::new(Seeded::new(save.seed)))
        };
        let setup = MatchSetup::new(scenario, save.scenario.clone(), rules, tables)
            .seed(save.seed)
            .player_sides(player_sides)
            .baseline_sides(baseline_sides);
        let mut game = Match::build(setup, source, save.asked)?;
        game.started = save.started;
        game.tables_hash = save.made.as_ref().and_then(|made| made.tables.clone());
        game.check_record("the set-up")?;
        for (index, action) in actions.iter().enumerate() {
            let at = || format!("action {}", index + 1);
            if let Some(problem) = implausible(action) {
                return Err(MatchError::Rolls { at: at(), problem });
            }
            match game.act(action.clone()) {
                // A bad roll stood in for by a legal face can make a later
                // check fail: the roll is what is wrong, so it is named.
                Err(refusal) => {
                    game.check_record(&at())?;
                    return Err(MatchError::Replay {
                        index: index + 1,
                        refusal,
                    });
                }
                Ok(_) => game.check_record(&at())?,
            }
        }
        if game.watching() {
            for step in 0..steps {
                if !game.step() {
                    return Err(MatchError::Rolls {
                        at: format!("watched turn {}", step + 1),
                        problem: ALREADY_OVER.into(),
                    });
                }
                game.check_record(&format!("watched turn {}", step + 1))?;
            }
        }
        game.runner
            .finish_record()
            .map_err(|problem| MatchError::Rolls {
                at: "the end of the record".into(),
                problem,
            })?;
        match dice {
            Some(dice) => game.runner.roll_from(Source::Live(dice), true),
            None if save.asked => game
                .runner
                .roll_from(Source::Seeded(Box::new(Seeded::new(save.seed))), true),
            None => {}
        }
        Ok(game)
    }

    /// The first problem of the replayed record, as an error naming `at`.
    fn check_record(&self, at: &str) -> Result<(), MatchError> {
        match self.runner.record_problem() {
            Some(problem) => Err(MatchError::Rolls {
                at: at.to_string(),
                problem,
            }),
            None => Ok(()),
        }
    }

    /// The save file of this game.
    pub fn save(&self) -> GameSave {
        let state = self.state();
        let names = |sides: &[usize]| -> Vec<String> {
            sides
                .iter()
                .filter_map(|&side| state.sides.get(side))
                .map(|side| side.name.clone())
                .collect()
        };
        let mut save = GameSave::new(host::Engine::Awi, self.file.clone(), self.seed);
        save.player_sides = names(&self.player_sides);
        save.baseline_sides = names(&self.baseline_sides);
        save.actions = self
            .actions
            .iter()
            .cloned()
            .map(host::Action::Awi)
            .collect();
        save.rules_off = self.tables.opponent.rules.off();
        save.asked = self.runner.asks();
        save.rolls = self.runner.rolls().to_vec();
        save.watched = (self.steps > 0).then_some(Watched::Turns(self.steps));
        save.started = self.started;
        save.about = Some(About {
            title: self.scenario.title.clone(),
            player: names(&self.player_sides),
            turn: state.turn,
            turns: state.turns,
            over: state.is_over(),
        });
        save.made =
            Some(crate::save::Running::new(self.tables_hash.clone()).made(Some(self.book())));
        save
    }

    /// The seed-000 rules table the game is played by.
    pub fn rules(&self) -> &Arc<RulesTable> {
        &self.rules
    }

    /// The game's dice bookkeeping: the rolls made and where the units
    /// stand.
    pub fn book(&self) -> crate::save::Book {
        self.runner.book()
    }

    /// Whether the player rolls their own dice.
    pub fn asks(&self) -> bool {
        self.runner.asks()
    }

    /// The game now.
    pub fn state(&self) -> &GameState {
        match &self.runner.game {
            Game::Awi(state) => state,
            // A Match is only ever built over seed 000's engine (`build`).
            _ => unreachable!("a seed-000 match holds a seed-000 game"),
        }
    }

    /// The game now, to change by hand (tests set up positions so).
    #[cfg(test)]
    pub(crate) fn state_mut(&mut self) -> &mut GameState {
        match &mut self.runner.game {
            Game::Awi(state) => state,
            _ => unreachable!("a seed-000 match holds a seed-000 game"),
        }
    }

    /// The runner that plays the game.
    pub fn runner(&self) -> &HostMatch {
        &self.runner
    }

    /// Everything that happened, in order.
    pub fn log(&self) -> &[Entry] {
        self.runner.awi_log()
    }

    /// Whether the player only watches.
    pub fn watching(&self) -> bool {
        self.player_sides.is_empty()
    }

    /// Whether it is the player's turn to act.
    pub fn players_turn(&self) -> bool {
        let state = self.state();
        !state.is_over() && self.player_sides.contains(&state.active)
    }

    /// The player's actions so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The player's actions turn by turn: each turn in which the player
    /// acted, with those actions in order.
    pub fn actions_by_turn(&self) -> Vec<(u32, &[Action])> {
        let mut turns: Vec<(u32, &[Action])> = Vec::new();
        let mut from = 0;
        for index in 1..=self.actions.len() {
            if index == self.actions.len() || self.action_turns[index] != self.action_turns[from] {
                turns.push((self.action_turns[from], &self.actions[from..index]));
                from = index;
            }
        }
        turns
    }

    /// The Lone Warrior opponent commanding a side, if any.
    pub fn opponent(&self, side: usize) -> Option<&Opponent> {
        self.runner
            .controller(side)
            .and_then(crate::baseline::Controller::opponent)
    }

    /// Apply one of the player's actions. On refusal nothing changes. If the
    /// action ends the player's turn, the opponent's turns follow at once.
    /// Returns the index in [`Match::log`] of the first new entry.
    pub fn act(&mut self, action: Action) -> Result<usize, Refusal> {
        if !self.players_turn() {
            return Err(Refusal::GameOver);
        }
        let first_new = self.log().len();
        let turn = self.state().turn;
        // The runner shows the opponents what the player's turn did
        // (melees, retreats, losses), as they would see it across the table.
        match self.runner.player(&host::Action::Awi(action.clone())) {
            Ok(_) => {}
            Err(host::Refusal::Awi(refusal)) => return Err(refusal),
            // Not the player's side, or another engine's action: neither
            // happens, as checked above.
            Err(_) => return Err(Refusal::GameOver),
        }
        self.actions.push(action);
        self.action_turns.push(turn);
        if !self.players_turn() {
            self.play_opponents();
        }
        self.roll_marks.push(self.runner.rolls_made());
        Ok(first_new)
    }

    /// End phases until the player's turn is over (the opponent then plays).
    pub fn end_turn(&mut self) -> Result<usize, Refusal> {
        let first_new = self.log().len();
        let (side, turn) = (self.state().active, self.state().turn);
        while self.players_turn() && self.state().active == side && self.state().turn == turn {
            self.act(Action::EndPhase)?;
        }
        Ok(first_new)
    }

    /// In watch mode, play the next side's whole turn. Returns false when the
    /// game is over, or when it is a side of the player's to act (the
    /// player plays those with [`Match::act`]).
    pub fn step(&mut self) -> bool {
        if self.state().is_over() || self.players_turn() {
            return false;
        }
        // A side that cannot finish its turn has still had its step.
        let _ = self.runner.step_foe();
        self.steps += 1;
        true
    }

    /// Take back the player's last action, in this turn or an earlier one,
    /// by replaying the game without it. Taking back the action that ended
    /// a turn takes back the opponent's turns that followed it too; they
    /// are played again, the same from the seed, when the turn ends again.
    pub fn undo(&mut self) -> Result<Action, String> {
        let Some(last) = self.actions.last().cloned() else {
            return Err("nothing to undo: you have not acted yet".into());
        };
        self.rewind_to(self.actions.len() - 1)?;
        Ok(last)
    }

    /// Take back all the player's actions of this turn; at the start of a
    /// turn, before any, those of the turn before. Returns the turn the
    /// game is now at the start of, and how many actions were taken back.
    pub fn undo_turn(&mut self) -> Result<(u32, usize), String> {
        let Some(&turn) = self.action_turns.last() else {
            return Err("nothing to undo: you have not acted yet".into());
        };
        let taken = self.rewind_to_turn(turn)?;
        Ok((turn, taken))
    }

    /// Go back to the start of turn `turn`: the player's first decision in
    /// it (an opponent side that moves before the player in that turn has
    /// played its part, as it did the first time). Returns how many of the
    /// player's actions were taken back.
    pub fn rewind(&mut self, turn: u32) -> Result<usize, String> {
        let now = self.state().turn.min(self.state().turns);
        if turn == 0 || turn > now {
            return Err(format!(
                "there is no turn {turn} to go back to: this is turn {now}"
            ));
        }
        self.rewind_to_turn(turn)
    }

    fn rewind_to_turn(&mut self, turn: u32) -> Result<usize, String> {
        let keep = self
            .action_turns
            .iter()
            .take_while(|&&taken_in| taken_in < turn)
            .count();
        let taken = self.actions.len() - keep;
        if taken == 0 {
            return Err(format!(
                "nothing to take back: you have not acted since the start of turn {turn}"
            ));
        }
        self.rewind_to(keep)?;
        Ok(taken)
    }

    /// Keep only the first `keep` of the player's actions: the runner
    /// rebuilds the game from them, with the rolls they made, and the live
    /// dice carry on.
    fn rewind_to(&mut self, keep: usize) -> Result<(), String> {
        self.runner.keep_first(keep).map_err(|error| match error {
            Rollback::Nothing(said) => said,
            Rollback::Replay(problem) => {
                format!("the game no longer replays that far back ({problem})")
            }
        })?;
        self.actions.truncate(keep);
        self.action_turns.truncate(keep);
        self.roll_marks.truncate(keep);
        Ok(())
    }

    /// foe's (or the baseline's) sides play until it is the player's turn
    /// or the game ends; a side that cannot finish its turn stops them
    /// rather than loop forever.
    fn play_opponents(&mut self) {
        while !self.state().is_over() && !self.player_sides.contains(&self.state().active) {
            if !matches!(self.runner.step_foe(), Ok(true)) {
                break;
            }
        }
    }
}

/// How far from the table a saved point may lie, in inches: any move the
/// rules accept is on the table, and a wild number in a damaged save must
/// be refused here rather than walked inch by inch.
const SAVED_POINT_LIMIT: f64 = 10_000.0;

/// What makes a saved action impossible before the rules look at it: a
/// point or a facing that is not a number, or far off any table.
fn implausible(action: &Action) -> Option<String> {
    let point_ok = |point: &crate::battlefield::Point| {
        point.x.abs() <= SAVED_POINT_LIMIT && point.y.abs() <= SAVED_POINT_LIMIT
    };
    let facing_ok = |facing: f64| facing.is_finite() && facing.abs() <= 360_000.0;
    let (points, facing): (Vec<&crate::battlefield::Point>, Option<f64>) = match action {
        Action::Pivot { facing, .. } => (Vec::new(), Some(*facing)),
        Action::Move { to, facing, .. } | Action::Enter { to, facing, .. } => {
            (vec![to], Some(*facing))
        }
        Action::MoveRoad { path, facing, .. } => (path.iter().collect(), Some(*facing)),
        Action::MoveGeneral { to, .. } => (vec![to], None),
        _ => (Vec::new(), None),
    };
    if let Some(point) = points.into_iter().find(|point| !point_ok(point)) {
        return Some(format!(
            "the point {:e},{:e} is far off the table",
            point.x, point.y
        ));
    }
    match facing {
        Some(facing) if !facing_ok(facing) => Some(format!("the facing {facing} is not an angle")),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests;
