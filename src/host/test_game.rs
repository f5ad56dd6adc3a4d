//! The seed-000 game the tests across the crate play through the one
//! runner: a built-in scenario started with [`Start`], the player's
//! actions taken as the prompt takes them (foe plays on at once), its
//! save written and replayed as `foe play` writes and resumes it.

use super::run::{HostMatch, Rollback, Start};
use super::save::GameSave;
use super::{Action, Game, Refusal};
use crate::dice::{Roller, Seeded};
use crate::rules::{self, GameState};
use crate::ruleset::Ruleset;
use crate::save::{Running, ScenarioFile};
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::yaml::Source;
use std::sync::Arc;

/// A built-in scenario and its file.
pub(crate) fn builtin(name: &str) -> (Arc<Scenario>, ScenarioFile) {
    let (file, text) = crate::scenario::builtin(name).expect("built in");
    let scenario = crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
    let file = ScenarioFile {
        shown_as: file.to_string(),
        text: text.to_string(),
    };
    (Arc::new(scenario), file)
}

/// A seed-000 game in the runner, with its scenario file for saves.
pub(crate) struct Seed000 {
    /// The runner.
    pub(crate) game: HostMatch,
    /// The scenario's file.
    pub(crate) file: ScenarioFile,
}

/// Game `name` seeded `seed`, the player on `player_sides`, once foe has
/// played the turns before the player's first (none when watching).
pub(crate) fn start(name: &str, seed: u64, player_sides: Vec<usize>) -> Seed000 {
    play(
        name,
        Start::new(builtin(name).0, tables(), seed).player_sides(player_sides),
    )
}

/// The built-in tables.
pub(crate) fn tables() -> Arc<Tables> {
    Arc::new(Tables::embedded())
}

/// Game `name` as `start` describes it, begun on the seeded dice (or on
/// `dice`, the player's own).
pub(crate) fn play(name: &str, start: Start) -> Seed000 {
    begin(name, start, None)
}

/// [`play`] on the player's own `dice` when given.
pub(crate) fn begin(name: &str, start: Start, dice: Option<Box<dyn Roller>>) -> Seed000 {
    let watching = start.player_sides.is_empty();
    let mut game = match dice {
        Some(dice) => start.begin_asking(dice),
        None => start.begin(),
    }
    .expect("starts");
    if !watching {
        game.play_foe().expect("foe plays");
    }
    Seed000 {
        game,
        file: builtin(name).1,
    }
}

impl Seed000 {
    /// The game now.
    pub(crate) fn state(&self) -> &GameState {
        self.game
            .state::<crate::rules::GameState>()
            .expect("a seed-000 game")
    }

    /// The game now, to set up a position by hand.
    pub(crate) fn state_mut(&mut self) -> &mut GameState {
        match &mut self.game.game {
            Game::Awi(state) => state,
            _ => panic!("a seed-000 game"),
        }
    }

    /// The record turn by turn.
    pub(crate) fn log(&self) -> &[super::awi::Entry] {
        crate::host::awi::log_of(&self.game)
    }

    /// The scenario.
    pub(crate) fn scenario(&self) -> &Arc<Scenario> {
        &self.game.scenario
    }

    /// Whether the player is to act.
    pub(crate) fn players_turn(&self) -> bool {
        self.game.player_to_act()
    }

    /// The player's action; foe plays on at once, as at the prompt.
    pub(crate) fn act(&mut self, action: rules::Action) -> Result<(), Refusal> {
        self.game.player(&Action::Awi(action))?;
        self.game.play_foe().expect("foe plays");
        Ok(())
    }

    /// End phases until the player's turn is over.
    pub(crate) fn end_turn(&mut self) {
        let (side, turn) = (self.state().active, self.state().turn);
        while self.players_turn() && self.state().active == side && self.state().turn == turn {
            self.act(rules::Action::EndPhase).expect("ends the phase");
        }
    }

    /// Watching: one side's turn; `false` once the game is over.
    pub(crate) fn step(&mut self) -> bool {
        if self.game.game.is_over() {
            return false;
        }
        let _ = self.game.watch_step();
        true
    }

    /// `undo`: the action taken back.
    pub(crate) fn undo(&mut self) -> Result<rules::Action, Rollback> {
        self.game.undo().map(|action| match action {
            Action::Awi(action) => action,
            other => panic!("{other:?}"),
        })
    }

    /// The player's actions so far.
    pub(crate) fn actions(&self) -> Vec<Action> {
        self.game.player_actions()
    }

    /// The game's save, as the prompt writes it.
    pub(crate) fn save(&self) -> GameSave {
        GameSave::of(&self.game, self.file.clone(), None, &Running::new(None))
    }

    /// `save` played again under `tables` (its plan rules switched as
    /// saved), as `foe play --resume` does; `dice` roll on after a record.
    pub(crate) fn replay_under(
        &self,
        save: &GameSave,
        tables: &Tables,
        dice: Option<Box<dyn Roller>>,
    ) -> Result<Seed000, String> {
        let scenario = self.game.scenario.clone();
        let names: Vec<String> = scenario.sides.iter().map(|s| s.name.clone()).collect();
        let sides = save.sides(&names)?;
        let switched = Arc::new(save.tables(tables)?);
        let dice = dice.unwrap_or_else(|| Box::new(Seeded::new(save.seed)));
        let game = save.replay(scenario, switched, sides, dice)?;
        Ok(Seed000 {
            game,
            file: self.file.clone(),
        })
    }

    /// `save` played again under the built-in tables.
    pub(crate) fn replay(&self, save: &GameSave) -> Result<Seed000, String> {
        self.replay_under(save, &Tables::embedded(), None)
    }

    /// The units and generals, to compare two games by.
    pub(crate) fn units(&self) -> String {
        format!("{:?}{:?}", self.state().units, self.state().generals)
    }
}
