//! The one runner, for every engine: [`HostMatch`] is the scenario, the
//! seed, who commands which side, and the player's actions, started by
//! [`Start`]. Every other side is played by its commander as soon as it
//! is that side's turn, rolling on the game's one roller. The engine's
//! adapter gives the runner its [`Commanders`] ([`super::command`]), and
//! the runner asks them for one step at a time and never which engine
//! plays: foe's boundary opponent and the scripted baseline, an action at
//! a time and recorded line by line ([`LineCommanders`], seeds 001 and
//! 002), or seed 000's own, a general, reserve or unit at a time and told
//! a side's turn at a time ([`super::awi`]). The commanders keep the
//! record. Replaying the player's actions from the seed gives the same
//! game, which is what saves and `undo` rely on.
//! [`crate::simulate::Study`] plays many of its games for `foe simulate`.
//! Every game's events are kept (`events`) and counted (`tally`) here,
//! and what its commanders did is counted by [`HostMatch::conduct`],
//! whoever commands it.

use super::command::{CommandSetup, Commanders, Conduct};
use super::lines::LineCommanders;
use super::opponent::Opponent;
use super::opponent::awi::FieldCache;
use super::position::{EventFacts, Position, SharedTable};
use super::probe::{Probe, Probing, Stage, staged};
use super::save::Watched;
use super::{Action, Event, Game, Refusal, StartError, Verdict};
use crate::dice::{Die, Keyed, Roller, Scheme, Seeded};
use crate::save::Replay;
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

/// The most actions a game may take: far above any real game (a seed-001
/// Guilford game takes about a thousand), so a rules bug that never ends a
/// game stops with a message instead of hanging.
pub const MAX_ACTIONS: usize = 200_000;

/// Where a game's rolls come from: the seeded generator, the player's own
/// dice (`--dice ask`), or a save's record being replayed.
pub(crate) enum Source {
    Seeded(Box<Seeded>),
    Keyed(Box<Keyed>),
    Live(Box<dyn Roller>),
    Replay(Replay),
}

/// A game's dice, with every roll written down, so a game played with the
/// player's own dice replays from its record (saves, `undo`).
pub(crate) struct Dice {
    source: Source,
    /// Every roll so far, in order.
    rolls: Vec<u8>,
    /// The player's dice to go on with when a record being replayed runs
    /// out (armed only where a save may end: during foe's turns after the
    /// save's last action of the player's).
    run_on: Option<Box<dyn Roller>>,
}

impl std::fmt::Debug for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            Source::Seeded(_) => "seeded",
            Source::Keyed(_) => "keyed",
            Source::Live(_) => "the player's",
            Source::Replay(_) => "a record",
        };
        f.debug_struct("Dice")
            .field("source", &source)
            .field("rolls", &self.rolls.len())
            .finish()
    }
}

impl Roller for Dice {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!("foe needs a roll"))
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        if let Source::Replay(replay) = &self.source
            && replay.left() == 0
            && replay.problem().is_none()
            && let Some(dice) = self.run_on.take()
        {
            self.source = Source::Live(dice);
        }
        let value = match &mut self.source {
            Source::Seeded(seeded) => seeded.roll(die),
            Source::Keyed(keyed) => keyed.roll_for(die, why),
            Source::Live(dice) => dice.roll_for(die, why),
            Source::Replay(replay) => replay.roll(die),
        };
        self.rolls.push(value);
        value
    }

    fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
        match &mut self.source {
            // The player's dice take a batch from one line; any other
            // source (and a record that may run on into the player's dice
            // part-way) rolls one at a time, in the same order.
            Source::Live(dice) => {
                let values = dice.roll_many(die, count, why);
                self.rolls.extend_from_slice(&values);
                values
            }
            _ => (0..count).map(|_| self.roll_for(die, why)).collect(),
        }
    }
}

impl Dice {
    /// Dice rolling from `source`, nothing rolled yet.
    pub(crate) fn new(source: Source) -> Dice {
        Dice {
            source,
            rolls: Vec::new(),
            run_on: None,
        }
    }

    /// Seeded dice from `seed`, drawn as `scheme` says.
    fn seeded(seed: u64, scheme: Scheme) -> Source {
        match scheme {
            Scheme::Stream => Source::Seeded(Box::new(Seeded::new(seed))),
            Scheme::Keyed => Source::Keyed(Box::new(Keyed::new(seed))),
        }
    }

    /// The game is in turn `turn` now (what keyed dice draw by).
    fn at_turn(&mut self, turn: u32) {
        if let Source::Keyed(keyed) = &mut self.source {
            keyed.at_turn(turn);
        }
    }

    /// The replay's first problem, if the dice are a record being replayed.
    fn problem(&self) -> Option<String> {
        match &self.source {
            Source::Replay(replay) => replay.problem().map(str::to_string),
            _ => None,
        }
    }
}

/// Why a rollback (`undo`, `undo turn`, `rewind N`) left the game as it
/// was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rollback {
    /// Nothing to take back, or no such turn: what to tell the player.
    Nothing(String),
    /// The actions kept no longer replay (the rules or the record refuse
    /// one): why.
    Replay(String),
}

/// One line of a game's record.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The game turn.
    pub turn: u32,
    /// Whether the player (rather than foe) acted.
    pub player: bool,
    /// The line, as printed.
    pub text: String,
}

/// How a game through the boundary starts, whatever its engine: the
/// scenario and the tables, the seed, who commands which side, and what
/// many games of one scenario may share. [`Start::begin`] starts it; its
/// siblings start it on the player's dice or rebuild a saved game.
#[derive(Debug, Clone)]
pub struct Start {
    /// The scenario.
    pub scenario: Arc<Scenario>,
    /// The Lone Warrior tables (with the game's plan rules switched).
    pub tables: Arc<Tables>,
    /// The dice's seed.
    pub seed: u64,
    /// The sides the player commands (none: foe plays every side).
    pub player_sides: Vec<usize>,
    /// The sides the scripted baseline commands instead of foe.
    pub baseline_sides: Vec<usize>,
    /// Seed 000's opponents' distance fields, which the games of one
    /// scenario may share (`foe simulate` works them out once a run).
    pub fields: FieldCache,
    /// The engine's rules table read once for many games (`foe
    /// simulate`); `None`: each game reads it from its rule set.
    pub table: Option<SharedTable>,
    /// How its seeded dice are drawn (keyed, but for a save written
    /// before keyed dice: ruling P7).
    pub dice: Scheme,
    /// Told each stage of the work its commanders and the runner enter
    /// (`foe simulate --bench` times them).
    pub probe: Probing,
}

impl Start {
    /// A game of `scenario` seeded `seed`: foe on every side, fields of
    /// its own.
    pub fn new(scenario: Arc<Scenario>, tables: Arc<Tables>, seed: u64) -> Start {
        Start {
            scenario,
            tables,
            seed,
            player_sides: Vec::new(),
            baseline_sides: Vec::new(),
            fields: FieldCache::default(),
            table: None,
            dice: Scheme::default(),
            probe: None,
        }
    }
}

/// A game of `foe play` (or one game of a simulation) through the
/// boundary, under any engine: the one runner. Each side the player does
/// not command has a commander among the engine's [`Commanders`], which
/// carry out their steps as the runner asks and keep the record.
#[derive(Debug)]
pub struct HostMatch {
    /// The scenario.
    pub scenario: Arc<Scenario>,
    /// The dice's seed.
    pub seed: u64,
    /// How its seeded dice are drawn.
    pub dice: Scheme,
    /// The sides the player commands (none: foe plays both).
    pub player_sides: Vec<usize>,
    /// The game now.
    pub game: Game,
    roller: Dice,
    /// Whether the player rolls their own dice (then saves keep the rolls).
    asked: bool,
    /// The number of rolls made before each of the player's actions.
    roll_marks: Vec<usize>,
    tables: Arc<Tables>,
    /// Every action so far, with whether the player took it.
    actions: Vec<(Action, bool)>,
    /// The turn each of the player's actions was taken in, in order.
    player_turns: Vec<u32>,
    /// Every event so far, oldest first (what the map's arrows are drawn
    /// from).
    events: Vec<Event>,
    /// What the study counts, summed from the events as they happen.
    pub tally: Tally,
    /// The sides the scripted baseline commands (none by default).
    baseline_sides: Vec<usize>,
    /// Where a resumed save's record of rolls ran out in foe's turn and
    /// the player's dice went on ([`Start::resume_recorded`]).
    ran_on: Option<Printed>,
    /// The commanders of the sides the player does not command, and the
    /// record they keep.
    commanders: Box<dyn Commanders>,
    /// The distance fields the commanders share.
    fields: FieldCache,
    /// How many times foe has been asked to play on ([`HostMatch::step_foe`]
    /// calls that played): what a watched game's save counts.
    steps: usize,
    /// Told each stage of the work entered.
    probe: Probing,
}

/// How much of a game's record had been printed: log lines, foe's
/// decisions, the baseline's decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Printed {
    /// Log entries.
    pub log: usize,
    /// foe's decisions.
    pub decisions: usize,
    /// foe's seed-001 commanders' reaction tests.
    pub general_tests: usize,
    /// The baseline's decisions.
    pub baseline: usize,
    /// The entries of a record kept a side's turn at a time.
    pub told: usize,
}

/// A game's events counted as `foe simulate` sums them ([`crate::simulate::GameSummary`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Each unit's side, by index.
    unit_sides: Vec<usize>,
    /// Per side: seed 001's bases lost, seed 002's hits taken.
    pub hits: Vec<u32>,
    /// Per side: charges that reached contact, by the charger's side.
    pub charges: Vec<u32>,
    /// Per unit: destroyed, run away, or removed by casualties.
    pub routed: Vec<bool>,
    /// Per unit: retreated off the table.
    pub exited: Vec<bool>,
}

impl Tally {
    fn new(game: &Game) -> Tally {
        let n_sides = game.sides().len();
        let unit_sides: Vec<usize> = game.units().iter().map(|unit| unit.side).collect();
        Tally {
            hits: vec![0; n_sides],
            charges: vec![0; n_sides],
            routed: vec![false; unit_sides.len()],
            exited: vec![false; unit_sides.len()],
            unit_sides,
        }
    }

    /// Count one event's `facts` in `game` (whose units may have grown
    /// since the tally last looked: reinforcements arrive as new units).
    fn count(&mut self, facts: EventFacts, game: &Game) {
        let newest = [
            facts.hit.map(|(unit, _)| unit),
            facts.charger,
            facts.removed.map(|(unit, _)| unit),
        ]
        .into_iter()
        .flatten()
        .max();
        if newest.is_some_and(|unit| unit >= self.unit_sides.len()) {
            self.grow(game);
        }
        let side = |tally: &Tally, unit: usize| tally.unit_sides.get(unit).copied();
        if let Some((unit, hits)) = facts.hit
            && let Some(side) = side(self, unit)
        {
            self.hits[side] += hits;
        }
        if let Some(side) = facts.charger.and_then(|unit| side(self, unit)) {
            self.charges[side] += 1;
        }
        if let Some((unit, off_table)) = facts.removed
            && unit < self.routed.len()
        {
            if off_table {
                self.exited[unit] = true;
            } else {
                self.routed[unit] = true;
            }
        }
    }

    /// Take in the units that joined `game` since the tally began.
    fn grow(&mut self, game: &Game) {
        self.unit_sides = game.units().iter().map(|unit| unit.side).collect();
        self.routed.resize(self.unit_sides.len(), false);
        self.exited.resize(self.unit_sides.len(), false);
    }

    /// Per unit: routed, and driven off the table, for the units of `game`
    /// as it stands (those that never took part in an event included).
    pub fn fates(&self, game: &Game) -> (Vec<bool>, Vec<bool>) {
        let units = game.units().len();
        let mut routed = self.routed.clone();
        let mut exited = self.exited.clone();
        routed.resize(units, false);
        exited.resize(units, false);
        (routed, exited)
    }
}

impl Start {
    /// The sides the player commands (none: foe plays every side).
    pub fn player_sides(mut self, sides: Vec<usize>) -> Start {
        self.player_sides = sides;
        self
    }

    /// The sides the scripted baseline commands instead of foe.
    pub fn baseline_sides(mut self, sides: Vec<usize>) -> Start {
        self.baseline_sides = sides;
        self
    }

    /// Seed 000's distance fields taken from `fields`, which the games of
    /// one scenario may share.
    pub fn sharing_fields(mut self, fields: &FieldCache) -> Start {
        self.fields = fields.clone();
        self
    }

    /// Each stage of the game's work told to `probe` as it is entered
    /// (the runner's and its commanders'), so that an edge can time them.
    pub fn probing(mut self, probe: Arc<dyn Probe>) -> Start {
        self.probe = Some(probe);
        self
    }

    /// The engine's rules `table` (read from the scenario's rule set)
    /// shared by the games of one scenario, not read again for each.
    pub fn sharing_table(mut self, table: SharedTable) -> Start {
        self.table = Some(table);
        self
    }

    /// Its seeded dice drawn as `scheme` says (a save's).
    pub fn dice_drawn(mut self, scheme: Scheme) -> Start {
        self.dice = scheme;
        self
    }

    /// A new game on the seeded dice. Nothing is played yet: call
    /// [`HostMatch::play_foe`].
    pub fn begin(self) -> Result<HostMatch, StartError> {
        let seeded = Dice::seeded(self.seed, self.dice);
        HostMatch::begin(self, seeded)
    }

    /// [`Start::begin`] with the player's own `dice` (`--dice ask`), from
    /// the set-up on; every roll is kept for saves and `undo`.
    pub fn begin_asking(self, dice: Box<dyn Roller>) -> Result<HostMatch, StartError> {
        let mut game_match = HostMatch::begin(self, Source::Live(dice))?;
        game_match.asked = true;
        Ok(game_match)
    }

    /// Rebuild a game from its seed and the player's actions; foe's turns
    /// are played again between them. An action the rules refuse (a save
    /// edited by hand, another version) is a message.
    pub fn replay(self, player_actions: &[Action]) -> Result<HostMatch, String> {
        let game_match = self.begin().map_err(|e| e.to_string())?;
        game_match.replay_actions(player_actions, None)
    }

    /// Rebuild a game played with the player's own dice from its record:
    /// `rolls` are every roll, in order, each checked against the die it
    /// is read for, and all must be used. The game then rolls with the
    /// seeded generator until [`HostMatch::set_dice`] gives it the
    /// player's dice again. A roll that is not a face, a record that runs
    /// short or rolls left over are a message naming where.
    pub fn replay_recorded(
        self,
        player_actions: &[Action],
        rolls: &[u8],
    ) -> Result<HostMatch, String> {
        self.recorded(player_actions, rolls, None)
    }

    /// Resume a save of a game played with the player's own dice:
    /// [`Start::replay_recorded`], except that a record running out
    /// during foe's turns after the save's last action of the player's
    /// (the save was written before foe finished, and the game stopped at
    /// a roll) is no fault: the player's `dice` roll the rest, as they
    /// would have. The game rolls `dice` from then on. A record that runs
    /// out sooner is still a message.
    pub fn resume_recorded(
        self,
        player_actions: &[Action],
        rolls: &[u8],
        dice: Box<dyn Roller>,
    ) -> Result<HostMatch, String> {
        self.recorded(player_actions, rolls, Some(dice))
    }

    fn recorded(
        self,
        player_actions: &[Action],
        rolls: &[u8],
        dice: Option<Box<dyn Roller>>,
    ) -> Result<HostMatch, String> {
        let (seed, scheme) = (self.seed, self.dice);
        let source = Source::Replay(Replay::new(rolls.iter().copied()));
        let mut game_match = HostMatch::begin(self, source).map_err(|e| e.to_string())?;
        game_match.asked = true;
        if let Some(problem) = game_match.roller.problem() {
            return Err(format!("the set-up: {problem}"));
        }
        let mut game_match = game_match.replay_actions(player_actions, dice)?;
        if let Source::Replay(replay) = &game_match.roller.source {
            replay
                .finish()
                .map_err(|problem| format!("the record of rolls: {problem}"))?;
        }
        if !matches!(game_match.roller.source, Source::Live(_)) {
            game_match.roller.source = match game_match.roller.run_on.take() {
                Some(dice) => Source::Live(dice),
                None => Dice::seeded(seed, scheme),
            };
        }
        Ok(game_match)
    }

    /// Rebuild a watched game (foe commands every side; the player's sides
    /// are ignored) saved after foe's first `actions` actions: foe plays
    /// them again and stops there. With `record` (the game was played
    /// with the player's own dice), the rolls replay as
    /// [`Start::replay_recorded`]'s do, all of them used, and the player's
    /// dice roll from then on.
    pub fn replay_watched(
        mut self,
        actions: usize,
        record: Option<(&[u8], Box<dyn Roller>)>,
    ) -> Result<HostMatch, String> {
        let (source, dice) = match record {
            Some((rolls, dice)) => (
                Source::Replay(Replay::new(rolls.iter().copied())),
                Some(dice),
            ),
            None => (Dice::seeded(self.seed, self.dice), None),
        };
        self.player_sides = Vec::new();
        let mut game_match = HostMatch::begin(self, source).map_err(|e| e.to_string())?;
        game_match.asked = dice.is_some();
        if let Some(problem) = game_match.roller.problem() {
            return Err(format!("the set-up: {problem}"));
        }
        for n in 0..actions {
            let played = game_match.watch_step()?;
            if let Some(problem) = game_match.roller.problem() {
                return Err(format!("foe's action {} of the save: {problem}", n + 1));
            }
            if !played {
                let steps = match game_match.watched() {
                    Watched::Turns(_) => "sides' turns",
                    Watched::Actions(_) => "foe's actions",
                };
                return Err(format!(
                    "the game ends after {n} {steps}, not the save's {actions}"
                ));
            }
        }
        if let Source::Replay(replay) = &game_match.roller.source {
            replay
                .finish()
                .map_err(|problem| format!("the record of rolls: {problem}"))?;
        }
        if let Some(dice) = dice {
            game_match.roller.source = Source::Live(dice);
        }
        Ok(game_match)
    }
}

impl HostMatch {
    /// Start the game `start` describes, rolling from `source`. Nothing
    /// is played yet: call [`HostMatch::play_foe`].
    pub(crate) fn begin(start: Start, source: Source) -> Result<HostMatch, StartError> {
        let mut roller = Dice::new(source);
        let (game, events) = Game::start_sharing(
            &start.scenario,
            &start.tables,
            start.table.as_ref(),
            &mut roller,
        )?;
        Ok(HostMatch::assemble(start, roller, game, events))
    }

    /// The runner around a game just set up with `roller` (its set-up
    /// `events` rolled on it): the commanders given their sides.
    pub(crate) fn assemble(
        start: Start,
        roller: Dice,
        game: Game,
        events: Vec<Event>,
    ) -> HostMatch {
        let Start {
            scenario,
            tables,
            seed,
            player_sides,
            baseline_sides,
            fields,
            dice,
            probe,
            ..
        } = start;
        let commanders = game.commanders_for(&CommandSetup {
            tables: &tables,
            scenario: &scenario,
            player_sides: &player_sides,
            baseline_sides: &baseline_sides,
            fields: &fields,
            probe: &probe,
        });
        let tally = Tally::new(&game);
        let mut game_match = HostMatch {
            scenario,
            seed,
            dice,
            player_sides,
            game,
            roller,
            asked: false,
            roll_marks: Vec::new(),
            tables,
            actions: Vec::new(),
            player_turns: Vec::new(),
            events: Vec::new(),
            tally,
            baseline_sides,
            ran_on: None,
            commanders,
            fields,
            steps: 0,
            probe,
        };
        game_match.commanders.set_up(&game_match.game, &events);
        game_match.note(&events);
        game_match
    }

    /// Play foe's turns and the player's `actions` in order on a game just
    /// started; a refused action, or a bad roll of a record, is a message.
    /// `run_on` (a record being replayed) is armed after the last of the
    /// player's actions, for foe's turns after it.
    fn replay_actions(
        mut self,
        player_actions: &[Action],
        mut run_on: Option<Box<dyn Roller>>,
    ) -> Result<HostMatch, String> {
        let check =
            |game_match: &HostMatch, at: &dyn Fn() -> String| match game_match.roller.problem() {
                Some(problem) => Err(format!("{}: {problem}", at())),
                None => Ok(()),
            };
        if player_actions.is_empty() {
            self.roller.run_on = run_on.take();
        }
        self.replay_foe()?;
        check(&self, &|| "foe's opening turns".to_string())?;
        for (n, action) in player_actions.iter().enumerate() {
            let at = || format!("action {} of the save", n + 1);
            let played = self.player(action);
            check(&self, &at)?;
            played.map_err(|refusal| format!("{} is refused: {refusal}", at()))?;
            if n + 1 == player_actions.len() {
                self.roller.run_on = run_on.take();
            }
            self.replay_foe()?;
            check(&self, &at)?;
        }
        Ok(self)
    }

    /// [`HostMatch::play_foe`] in a replay, noting where a record's rolls
    /// ran out and the player's dice went on.
    fn replay_foe(&mut self) -> Result<(), String> {
        loop {
            let before = self.printed_now();
            let replaying = matches!(self.roller.source, Source::Replay(_));
            if !self.step_foe()? {
                return Ok(());
            }
            if replaying && matches!(self.roller.source, Source::Live(_)) {
                self.ran_on = Some(before);
            }
        }
    }

    /// How much of the record there is now: all of it printed.
    pub fn printed_now(&self) -> Printed {
        self.commanders.printed()
    }

    /// Where a resumed save's record of rolls ran out in foe's turn and
    /// the player rolled the rest ([`Start::resume_recorded`]): how
    /// much of the record came before the action in which it did.
    pub fn ran_on(&self) -> Option<Printed> {
        self.ran_on
    }

    /// Whether the player rolls their own dice.
    pub fn asks(&self) -> bool {
        self.asked
    }

    /// Every roll of the game so far, in order, when the player rolls their
    /// own dice (what a save keeps); none otherwise.
    pub fn rolls(&self) -> &[u8] {
        if self.asked { &self.roller.rolls } else { &[] }
    }

    /// The rolls made before the player's action `kept` (from 0), that is,
    /// the record of a game that keeps only the first `kept` of them
    /// (`undo`, `rewind`; ruling P1): all the rolls when `kept` is all.
    pub fn rolls_before(&self, kept: usize) -> Vec<u8> {
        let rolls = self.rolls();
        let end = self.roll_marks.get(kept).copied().unwrap_or(rolls.len());
        rolls[..end.min(rolls.len())].to_vec()
    }

    /// Roll the player's own `dice` from now on.
    pub fn set_dice(&mut self, dice: Box<dyn Roller>) {
        self.roller.source = Source::Live(dice);
        self.asked = true;
    }

    /// Take the player's own dice out (the game rolls seeded dice from the
    /// seed after), to hand them to a rebuilt game.
    pub fn take_dice(&mut self) -> Option<Box<dyn Roller>> {
        let placeholder = Dice::seeded(self.seed, self.dice);
        match std::mem::replace(&mut self.roller.source, placeholder) {
            Source::Live(dice) => Some(dice),
            other => {
                self.roller.source = other;
                None
            }
        }
    }

    /// The player's actions so far, in order.
    pub fn player_actions(&self) -> Vec<Action> {
        self.actions
            .iter()
            .filter(|(_, player)| *player)
            .map(|(action, _)| action.clone())
            .collect()
    }

    /// The player's actions with the turn each was taken in, in order
    /// (`history`).
    pub fn player_history(&self) -> Vec<(u32, Action)> {
        self.player_turns
            .iter()
            .copied()
            .zip(self.player_actions())
            .collect()
    }

    /// The player's actions taken before turn `turn`, in order (what
    /// `undo turn` and `rewind` keep, ruling P1).
    pub fn player_actions_before(&self, turn: u32) -> Vec<Action> {
        self.actions
            .iter()
            .filter(|(_, player)| *player)
            .zip(&self.player_turns)
            .filter(|(_, taken)| **taken < turn)
            .map(|((action, _), _)| action.clone())
            .collect()
    }

    /// The turn the player's last action was taken in, if any.
    pub fn last_player_turn(&self) -> Option<u32> {
        self.player_turns.last().copied()
    }

    /// Take back the player's last action, in this turn or an earlier one
    /// (ruling P1: rollback is a replay of the actions kept). Returns it.
    pub fn undo(&mut self) -> Result<Action, Rollback> {
        let mut actions = self.player_actions();
        let last = actions
            .pop()
            .ok_or_else(|| Rollback::Nothing("nothing to undo: you have not acted yet".into()))?;
        self.keep_first(actions.len())?;
        Ok(last)
    }

    /// Take back the player's actions of this turn; at a turn's start,
    /// before any, those of the turn before. Returns that turn and how
    /// many actions were taken back.
    pub fn undo_turn(&mut self) -> Result<(u32, usize), Rollback> {
        let last = self
            .last_player_turn()
            .ok_or_else(|| Rollback::Nothing("nothing to undo: you have not acted yet".into()))?;
        let kept = self.player_actions_before(last).len();
        let taken = self.player_actions().len() - kept;
        self.keep_first(kept)?;
        Ok((last, taken))
    }

    /// Go back to the player's first decision in turn `turn`. Returns how
    /// many of the player's actions were taken back.
    pub fn rewind(&mut self, turn: u32) -> Result<usize, Rollback> {
        let now = self.game.turn();
        if turn > now {
            return Err(Rollback::Nothing(format!(
                "cannot rewind to turn {turn}: it is turn {now} now"
            )));
        }
        let kept = self.player_actions_before(turn);
        let taken = self.player_actions().len() - kept.len();
        if taken == 0 {
            return Err(Rollback::Nothing(format!(
                "nothing to rewind: you have not acted since turn {turn} began"
            )));
        }
        self.keep_first(kept.len())?;
        Ok(taken)
    }

    /// The game rebuilt with only the player's first `keep` actions,
    /// foe's turns between them played again the same (ruling P1). With
    /// the player's own dice the kept actions replay from the record of
    /// their rolls (the taken-back actions' rolls are forgotten with them),
    /// and the player's dice roll on. A game that no longer replays is
    /// left as it was, with the reason.
    pub fn keep_first(&mut self, keep: usize) -> Result<(), Rollback> {
        let kept: Vec<Action> = self.player_actions().into_iter().take(keep).collect();
        let mut start = Start::new(self.scenario.clone(), self.tables.clone(), self.seed)
            .dice_drawn(self.dice)
            .player_sides(self.player_sides.clone())
            .baseline_sides(self.baseline_sides().to_vec())
            .sharing_fields(&self.fields);
        start.probe = self.probe.clone();
        let mut rebuilt = if self.asks() {
            start.replay_recorded(&kept, &self.rolls_before(kept.len()))
        } else {
            start.replay(&kept)
        }
        .map_err(Rollback::Replay)?;
        if let Some(dice) = self.take_dice() {
            rebuilt.set_dice(dice);
        }
        *self = rebuilt;
        Ok(())
    }

    /// How far a watched game has been played, as its save counts it:
    /// seed 000's by sides' turns, the others' by foe's actions (both are
    /// [`HostMatch::step_foe`] calls, which [`Start::replay_watched`]
    /// makes again).
    pub fn watched(&self) -> Watched {
        self.commanders.watched(self.steps)
    }

    /// The game's state under its engine `P`, for that engine's own texts
    /// (`None` under other rules).
    pub fn state<P: Position>(&self) -> Option<&P> {
        P::of(&self.game)
    }

    /// The commanders of the sides the player does not command, and
    /// their record.
    pub fn commanders(&self) -> &dyn Commanders {
        self.commanders.as_ref()
    }

    /// The commanders of a game commanded an action at a time (`None`
    /// where its engine's commanders are its own).
    pub fn lines(&self) -> Option<&LineCommanders> {
        LineCommanders::of(self.commanders.as_ref())
    }

    /// foe's boundary opponent, in a game commanded an action at a time.
    pub fn opponent(&self) -> Option<&Opponent> {
        self.lines().map(|lines| &lines.opponent)
    }

    /// The record line by line (empty where the commanders keep their
    /// own, a side's turn at a time).
    pub fn log(&self) -> &[Entry] {
        self.lines().map_or(&[], |lines| &lines.log)
    }

    /// Every action so far (both sides), in order.
    pub fn all_actions(&self) -> impl Iterator<Item = &Action> {
        self.actions.iter().map(|(action, _)| action)
    }

    /// The sides the scripted baseline commands.
    pub fn baseline_sides(&self) -> &[usize] {
        &self.baseline_sides
    }

    /// The scripted baseline's decisions so far, with their reasons, in a
    /// game commanded an action at a time.
    pub fn baseline_decisions(&self) -> &[super::baseline::Decision] {
        self.lines().map_or(&[], |lines| lines.baseline.decisions())
    }

    /// Whether the player is to act now.
    pub fn player_to_act(&self) -> bool {
        self.game
            .to_act()
            .is_some_and(|side| self.player_sides.contains(&side))
    }

    /// Whether the game is over.
    pub fn verdict(&self) -> Option<Verdict> {
        self.game.verdict()
    }

    /// The player's action: checked, applied with the game's dice, logged.
    pub fn player(&mut self, action: &Action) -> Result<Vec<Event>, Refusal> {
        if self.game.is_over() {
            return Err(Refusal::GameOver);
        }
        if !self.player_to_act() {
            return Err(Refusal::NotYours);
        }
        let turn = self.game.turn();
        self.roller.at_turn(turn);
        let rolled = self.roller.rolls.len();
        let events = self.game.apply(action, &mut self.roller)?;
        self.commanders.player_acted(&self.game, action, &events);
        self.roll_marks.push(rolled);
        self.actions.push((action.clone(), true));
        self.player_turns.push(turn);
        self.note(&events);
        Ok(events)
    }

    /// One step of foe's, if it is foe's turn: `Ok(false)` when it is not.
    /// Each stage of the work is named to the game's probe, if it has one.
    pub fn step_foe(&mut self) -> Result<bool, String> {
        if self.game.is_over() || self.player_to_act() {
            return Ok(false);
        }
        if self.actions.len() >= MAX_ACTIONS {
            return Err(format!(
                "the game has not ended after {MAX_ACTIONS} actions; this is a bug in foe"
            ));
        }
        self.roller.at_turn(self.game.turn());
        let step = self
            .commanders
            .step_side(&mut self.game, &mut self.roller, &self.probe)?;
        let probe = self.probe.clone();
        staged(&probe, Stage::Records, || {
            if step.told {
                self.steps += 1;
            }
            let taken = step.actions.into_iter().map(|action| (action, false));
            self.actions.extend(taken);
            self.note(&step.events);
        });
        Ok(step.moved_on)
    }

    /// A watched game's next step (seed 000: a side's whole turn; the
    /// others: one of foe's actions); `Ok(false)` once the game is over.
    /// A seed-000 side that cannot finish its turn has still had its step,
    /// and a game that has not ended after two sides' turns a game turn
    /// (and two more) is stopped there, so a watch always ends: the same
    /// steps `foe play --side none` and `foe simulate` take.
    pub fn watch_step(&mut self) -> Result<bool, String> {
        if self.game.is_over() {
            return Ok(false);
        }
        let by_turns = matches!(self.watched(), Watched::Turns(_));
        if by_turns && self.steps > 2 * (self.game.turns() as usize + 1) + 2 {
            return Ok(false);
        }
        // Steps until one is told (a side's whole turn, or one action).
        let told = self.steps;
        let mut more = true;
        while more && self.steps == told {
            more = self.step_foe()?;
        }
        // A side that could not finish its turn has still had its step.
        Ok(more || by_turns)
    }

    /// foe plays until it is the player's turn or the game ends.
    pub fn play_foe(&mut self) -> Result<(), String> {
        while self.step_foe()? {}
        Ok(())
    }

    /// The Lone Warrior tables.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// What the game's commanders did so far, counted as a study sums it,
    /// whichever commanders play the game.
    pub fn conduct(&self) -> Conduct {
        self.commanders.conduct(&self.game)
    }

    /// Each side's plan in words, as its commanders keep it (empty where
    /// they keep none).
    pub fn plans(&self) -> Vec<String> {
        self.commanders.plans(&self.game)
    }

    /// Every event of the game so far, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The game's dice bookkeeping, for its save: every roll made so far
    /// (recorded or not), and where the units stand.
    pub fn book(&self) -> crate::save::Book {
        let units = self
            .game
            .units()
            .into_iter()
            .map(|unit| crate::save::UnitMark {
                x: unit.position.x,
                y: unit.position.y,
                facing: unit.facing,
                strength: unit.strength,
                removed: unit.removed,
            });
        crate::save::Book::of(&self.roller.rolls, self.game.turn(), units)
    }

    /// Count `events` in the tally and keep them (the commanders record
    /// them as they keep their record).
    fn note(&mut self, events: &[Event]) {
        for event in events {
            self.tally.count(self.game.event_facts(event), &self.game);
        }
        self.events.extend_from_slice(events);
    }
}

/// One watched game, summed up.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// The game's index in the study.
    pub index: u64,
    /// The winner (`None`: a draw).
    pub winner: Option<usize>,
    /// The verdict in words.
    pub reason: String,
    /// The turn the game ended in.
    pub turns: u32,
    /// Seed 001's victory margin.
    pub margin: Option<i32>,
    /// Units out of play at the end, per side.
    pub lost: Vec<u32>,
}

/// Play game `index` of a study seeded `seed`, foe on every side.
pub fn play_one(
    scenario: &Arc<Scenario>,
    tables: &Arc<Tables>,
    seed: u64,
    index: u64,
) -> Result<(GameResult, HostMatch), String> {
    play_one_with(scenario, tables, seed, index, Vec::new())
}

/// [`play_one`], with `random_dice` sides giving out their seed-002
/// activation dice at random instead of by foe's policy.
pub fn play_one_with(
    scenario: &Arc<Scenario>,
    tables: &Arc<Tables>,
    seed: u64,
    index: u64,
    random_dice: Vec<usize>,
) -> Result<(GameResult, HostMatch), String> {
    let game_seed = crate::stats::game_seed(seed, index);
    let mut game_match = Start::new(scenario.clone(), tables.clone(), game_seed)
        .begin()
        .map_err(|e| e.to_string())?;
    if let Some(lines) = game_match
        .commanders
        .as_any_mut()
        .downcast_mut::<LineCommanders>()
    {
        lines.opponent = lines.opponent.clone().with_random_dice(random_dice);
    }
    game_match.play_foe()?;
    let verdict = game_match
        .verdict()
        .ok_or_else(|| "the game stopped before its end".to_string())?;
    let n_sides = game_match.game.sides().len();
    let mut lost = vec![0; n_sides];
    for unit in game_match.game.units() {
        if unit.removed && unit.side < n_sides {
            lost[unit.side] += 1;
        }
    }
    Ok((
        GameResult {
            index,
            winner: verdict.winner,
            reason: verdict.reason,
            turns: game_match.game.turn(),
            margin: verdict.margin,
            lost,
        },
        game_match,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Ruleset;
    use crate::yaml::Source;

    fn ruinous() -> (Arc<Scenario>, Arc<Tables>) {
        let (file, text) = crate::scenario::builtin("guilford-ruinous").expect("built in");
        let scenario =
            crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
        (Arc::new(scenario), Arc::new(Tables::embedded()))
    }

    /// Rollback is the runner's: `undo` takes back the last action (foe's
    /// turns after it played again the same), `undo turn` a turn's,
    /// `rewind N` all since turn N began, each the game a fresh replay of
    /// the actions kept would be; what cannot be taken back says why and
    /// changes nothing.
    #[test]
    fn undo_undo_turn_and_rewind_replay_the_actions_kept() {
        let (scenario, tables) = ruinous();
        let start = || Start::new(scenario.clone(), tables.clone(), 5).player_sides(vec![0]);
        let mut game = start().begin().unwrap();
        game.play_foe().unwrap();
        assert_eq!(
            game.undo(),
            Err(Rollback::Nothing(
                "nothing to undo: you have not acted yet".into()
            ))
        );
        let end = Action::Rv(crate::rv::Action::EndPhase);
        for _ in 0..4 {
            game.player(&end).unwrap();
            game.play_foe().unwrap();
        }
        let all = game.player_actions();
        assert_eq!(game.undo(), Ok(end.clone()));
        let three = start().replay(&all[..3]).unwrap();
        assert_eq!(game.log(), three.log());
        assert_eq!(game.player_actions().len(), 3);
        let turn = game.game.turn();
        assert_eq!(
            game.rewind(turn + 1),
            Err(Rollback::Nothing(format!(
                "cannot rewind to turn {}: it is turn {turn} now",
                turn + 1
            )))
        );
        assert_eq!(game.player_actions().len(), 3, "a refusal changes nothing");
        let (last, taken) = game.undo_turn().unwrap();
        let kept = start().replay(&all[..3 - taken]).unwrap();
        assert_eq!(game.log(), kept.log());
        assert!(taken >= 1 && last <= turn);
        if !game.player_actions().is_empty() {
            let taken = game.rewind(1).unwrap();
            assert!(taken >= 1);
            assert!(game.player_actions().is_empty());
        }
        assert_eq!(game.log(), start().replay(&[]).unwrap().log());
    }

    /// A stand-in for the player's dice: the seeded generator, noting what
    /// each roll was asked for and how many came in one batch.
    struct Naming {
        seeded: Seeded,
        reasons: std::rc::Rc<std::cell::RefCell<Vec<(String, usize)>>>,
    }

    impl Roller for Naming {
        fn roll(&mut self, die: Die) -> u8 {
            self.reasons.borrow_mut().push((String::new(), 1));
            self.seeded.roll(die)
        }

        fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
            self.reasons.borrow_mut().push((why.to_string(), 1));
            self.seeded.roll(die)
        }

        fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
            self.reasons.borrow_mut().push((why.to_string(), count));
            (0..count).map(|_| self.seeded.roll(die)).collect()
        }
    }

    /// Under every rule set, a game on the player's dice names every roll
    /// it asks for, batches come where a rule throws several dice at once,
    /// and the game is the seeded game die for die: asking several at a
    /// time draws them in the order one at a time would.
    #[test]
    fn every_roll_asked_for_is_named_and_batches_keep_the_game() {
        for name in ["guilford", "guilford-ruinous", "henry-hill"] {
            let (file, text) = crate::scenario::builtin(name).expect("built in");
            let scenario = Arc::new(
                crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid"),
            );
            let tables = Arc::new(Tables::embedded());
            let reasons = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
            let dice = Box::new(Naming {
                seeded: Seeded::new(9),
                reasons: reasons.clone(),
            });
            let mut asked = Start::new(scenario.clone(), tables.clone(), 9)
                .begin_asking(dice)
                .unwrap();
            asked.play_foe().unwrap();
            let mut seeded = Start::new(scenario, tables, 9)
                .dice_drawn(crate::dice::Scheme::Stream)
                .begin()
                .unwrap();
            seeded.play_foe().unwrap();
            assert_eq!(asked.log(), seeded.log(), "{name}");
            let entries = |m: &HostMatch| format!("{:?}", crate::host::awi::log_of(m));
            assert_eq!(entries(&asked), entries(&seeded), "{name}");
            assert_eq!(asked.verdict(), seeded.verdict(), "{name}");
            assert!(
                !asked.log().is_empty() || !crate::host::awi::log_of(&asked).is_empty(),
                "{name}"
            );
            let reasons = reasons.borrow();
            assert!(reasons.len() > 20, "{name}: {}", reasons.len());
            let unnamed: Vec<_> = reasons.iter().filter(|(why, _)| why.is_empty()).collect();
            assert!(
                unnamed.is_empty(),
                "{name}: {} unnamed rolls",
                unnamed.len()
            );
            if name != "guilford" {
                assert!(
                    reasons.iter().any(|(_, count)| *count > 1),
                    "{name} batches"
                );
            }
        }
    }

    /// The player's own dice (forced here) are recorded; the record
    /// replays the same game without asking again; `undo`'s record drops
    /// the taken-back action's rolls; a bad record is a message.
    #[test]
    fn a_game_with_the_players_dice_replays_from_its_record() {
        let (scenario, tables) = ruinous();
        let dice = Box::new(crate::dice::Scripted::then(
            [4, 2, 6, 1, 3, 5, 5, 2],
            Box::new(Seeded::new(11)),
        ));
        let mut game_match = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![0])
            .begin_asking(dice)
            .unwrap();
        assert!(game_match.asks());
        game_match.play_foe().unwrap();
        let end = Action::Rv(crate::rv::Action::EndPhase);
        for _ in 0..2 {
            game_match.player(&end).unwrap();
            game_match.play_foe().unwrap();
        }
        let rolls = game_match.rolls().to_vec();
        assert!(rolls.len() > 8, "foe's americans rolled: {rolls:?}");
        assert_eq!(rolls[..8], [4, 2, 6, 1, 3, 5, 5, 2]);
        let actions = game_match.player_actions();
        let replayed = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![0])
            .replay_recorded(&actions, &rolls)
            .unwrap();
        assert_eq!(replayed.log(), game_match.log());
        assert_eq!(replayed.rolls(), &rolls[..]);
        // Keeping only the first action keeps the rolls made before the
        // second: none, the british shoot phase rolls no die of foe's.
        let kept = game_match.rolls_before(1);
        assert!(kept.len() < rolls.len());
        let undone = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![0])
            .replay_recorded(&actions[..1], &kept)
            .unwrap();
        assert_eq!(undone.player_actions().len(), 1);
        assert_eq!(game_match.rolls_before(actions.len()), rolls);
        // A roll that is not a face, a record too short, rolls left over.
        let replay = |rolls: &[u8]| {
            Start::new(scenario.clone(), tables.clone(), 5)
                .player_sides(vec![0])
                .replay_recorded(&actions, rolls)
                .map(|_| ())
        };
        let mut bad = rolls.clone();
        bad[0] = 9;
        let problem = replay(&bad).unwrap_err();
        assert!(problem.contains("9") && problem.contains("D6"), "{problem}");
        let short = replay(&rolls[..rolls.len() - 1]).unwrap_err();
        assert!(short.contains("action 2 of the save"), "{short}");
        let mut long = rolls.clone();
        long.push(3);
        let left = replay(&long).unwrap_err();
        assert!(left.starts_with("the record of rolls"), "{left}");
        // A seeded game keeps no record.
        let seeded = Start::new(scenario, tables, 5)
            .player_sides(vec![0])
            .begin()
            .unwrap();
        assert!(!seeded.asks() && seeded.rolls().is_empty());
    }

    /// A save written after the player's action but before foe finished
    /// its turn (the game stopped at one of its rolls: Ctrl-C at a dice
    /// prompt) resumes: the player's dice roll the rest of foe's turn, and
    /// the game is the one that would have been played. A record that runs
    /// out before the save's last action, or a roll that is not a face, is
    /// still refused.
    #[test]
    fn a_record_cut_in_foes_turn_resumes_asking_the_rest() {
        let (scenario, tables) = ruinous();
        let dice = Box::new(crate::dice::Scripted::then(
            [4, 2, 6, 1, 3, 5, 5, 2],
            Box::new(Seeded::new(11)),
        ));
        let mut game_match = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![0])
            .begin_asking(dice)
            .unwrap();
        game_match.play_foe().unwrap();
        let end = Action::Rv(crate::rv::Action::EndPhase);
        let mut last = 0;
        // foe's americans roll after the second and the fifth.
        for _ in 0..5 {
            game_match.player(&end).unwrap();
            // The autosave's record: up to the player's action.
            last = game_match.rolls().len();
            game_match.play_foe().unwrap();
        }
        let rolls = game_match.rolls().to_vec();
        let actions = game_match.player_actions();
        assert!(rolls.len() > last + 1, "foe rolls after the last action");
        let resume = |record: &[u8], actions: &[Action], asked: &[u8]| {
            Start::new(scenario.clone(), tables.clone(), 5)
                .player_sides(vec![0])
                .resume_recorded(
                    actions,
                    record,
                    Box::new(crate::dice::Scripted::new(asked.to_vec())),
                )
        };
        for cut in [last, last + 1, rolls.len() - 1] {
            let resumed = resume(&rolls[..cut], &actions, &rolls[cut..]).unwrap();
            assert_eq!(resumed.log(), game_match.log(), "cut at {cut}");
            assert_eq!(resumed.rolls(), &rolls[..], "cut at {cut}");
            assert!(resumed.asks());
            let from = resumed.ran_on().expect("the player rolled on");
            assert!(from.log < resumed.log().len(), "cut at {cut}");
        }
        // A whole record asks nothing (the scripted dice would panic).
        let whole = resume(&rolls, &actions, &[]).unwrap();
        assert_eq!(whole.log(), game_match.log());
        assert_eq!(whole.ran_on(), None);
        // foe's opening turns cut short, before any action of the
        // player's (who commands the americans, foe the british first).
        let dice = Box::new(Seeded::new(3));
        let mut americans = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![1])
            .begin_asking(dice)
            .unwrap();
        americans.play_foe().unwrap();
        let opening = americans.rolls().to_vec();
        assert!(opening.len() > 1, "foe's opening turns roll");
        let first = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![1])
            .resume_recorded(
                &[],
                &opening[..1],
                Box::new(crate::dice::Scripted::new(opening[1..].to_vec())),
            )
            .unwrap();
        assert_eq!(first.rolls(), &opening[..]);
        assert_eq!(first.log(), americans.log());
        // Short before the last action: a corrupt save, in one line.
        let before = game_match.rolls_before(2).len();
        assert!(before > 0, "foe rolls before the third action");
        assert_eq!(
            resume(&rolls[..before - 1], &actions, &[]).unwrap_err(),
            "action 2 of the save: the record of rolls ends where a roll of the D6 is needed"
        );
        let mut bad = rolls[..last + 1].to_vec();
        bad[last] = 9;
        assert_eq!(
            resume(&bad, &actions, &[]).unwrap_err(),
            "action 5 of the save: recorded roll 9 is not a face of the D6"
        );
        // The strict replay (undo, rewind) still wants the whole record.
        let strict = Start::new(scenario.clone(), tables.clone(), 5)
            .player_sides(vec![0])
            .replay_recorded(&actions, &rolls[..last + 1]);
        assert!(
            strict
                .unwrap_err()
                .starts_with("action 5 of the save: the record")
        );
    }

    /// A watched game resumes after the actions it was saved at, with
    /// seeded dice or from its record of the player's; a record short of
    /// them is a message.
    #[test]
    fn a_watched_game_replays_to_where_it_was_saved() {
        let (scenario, tables) = ruinous();
        let dice = Box::new(Seeded::new(11));
        let mut asked = Start::new(scenario.clone(), tables.clone(), 5)
            .begin_asking(dice)
            .unwrap();
        let mut seeded = Start::new(scenario.clone(), tables.clone(), 5)
            .begin()
            .unwrap();
        for _ in 0..40 {
            assert!(asked.step_foe().unwrap());
            assert!(seeded.step_foe().unwrap());
        }
        let rolls = asked.rolls().to_vec();
        assert!(!rolls.is_empty());
        let replay = |record: Option<(&[u8], Box<dyn Roller>)>| {
            Start::new(scenario.clone(), tables.clone(), 5).replay_watched(40, record)
        };
        let again = replay(Some((&rolls, Box::new(crate::dice::Scripted::new([]))))).unwrap();
        assert_eq!(again.log(), asked.log());
        assert!(again.asks());
        let again = replay(None).unwrap();
        assert_eq!(again.log(), seeded.log());
        assert!(!again.game.is_over());
        let short = replay(Some((
            &rolls[..rolls.len() - 1],
            Box::new(crate::dice::Scripted::new([])),
        )))
        .unwrap_err();
        assert!(short.contains("the record of rolls ends"), "{short}");
    }
}
