//! The commander boundary: what foe's commanders (the Lone Warrior
//! opponent and the scripted baseline) ask of each engine, beside its
//! rules ([`super::position::Position`]). Each engine answers in its
//! adapter ([`super::engines`]) by handing the question to its own part of
//! the commander: [`super::opponent`]'s and [`super::baseline`]'s
//! per-engine modules ([`super::lines`]), or, for an engine whose
//! commanders are its own (seed 000's), the [`Commanders`] it gives the
//! runner.
//!
//! The runner ([`super::run::HostMatch`]) asks only this trait and never
//! which engine a game is played under. Who commands a side the player
//! does not is a [`ControllerKind`].
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

use super::baseline::Baseline;
use super::opponent::Opponent;
use super::opponent::carry::{falls_back, rearward};
use super::position::Position;
use super::probe::Probing;
use super::run::Printed;
use super::save::Watched;
use super::{Action, Event, Game};
use crate::battlefield::Point;
use crate::dice::Roller;
use crate::host::opponent::awi::FieldCache;
use crate::reaction::Situation;
use crate::scenario::Scenario;
use crate::tables::{Order, Tables};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A unit's next action and, if it is a unit's, the unit and why (none:
/// ending a phase), as the baseline chooses it.
pub type Chose = (Action, Option<(usize, String)>);

/// What foe's commanders ask of one engine.
pub trait Command: Position {
    /// Whether a retreat (a [`super::position::Trace::Retreated`]) is a
    /// lost melee, as the opponent remembers it.
    const RETREAT_LOSES_MELEE: bool = false;

    /// Whether the engine's own [`Command::commanders`] keep the record a
    /// side's turn at a time: a watched game then steps, and is told, a
    /// side's turn at a time, with the commanders' reports, rather than an
    /// action at a time, line by line (and a save counts it so).
    const WHOLE_TURNS: bool = false;

    /// The plan rules of `tables/opponent.yaml` the engine's opponent
    /// follows, by name, in the file's order: what `--rule` may switch in
    /// its games ([`super::opponent::settings::check_switches`]).
    const PLAN_RULES: &'static [&'static str];

    /// The situation the boundary opponent's next reaction test of `unit`
    /// would read (`what UNIT`); `None` for a unit out of play or without
    /// a class, or where the engine gives commanders of its own.
    fn foe_situation(&self, _opponent: &Opponent, _unit: usize) -> Option<Situation> {
        None
    }

    /// The boundary opponent's next action for `side`, its reaction tests
    /// rolled on `roller` when a bound begins; `None` where the engine
    /// gives commanders of its own.
    fn foe_next(
        &self,
        _opponent: &mut Opponent,
        _side: usize,
        _roller: &mut dyn Roller,
    ) -> Option<Action> {
        None
    }

    /// The baseline's next action for `side`; `None` where the engine
    /// gives commanders of its own.
    fn baseline_next(&self, _baseline: &mut Baseline, _side: usize) -> Option<Chose> {
        None
    }

    /// Unit `unit`'s name, without reading every unit.
    fn unit_name(&self, unit: usize) -> Option<String>;

    /// The commanders of the game `setup` describes: by default foe's
    /// boundary opponent and the baseline, asked through
    /// [`Command::foe_next`] and [`Command::baseline_next`] an action at a
    /// time and recording the game line by line.
    fn commanders(&self, setup: &CommandSetup<'_>) -> Box<dyn Commanders> {
        Box::new(super::lines::LineCommanders::new(setup))
    }
}

/// Who commands a side that the player does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ControllerKind {
    /// foe's Lone Warrior opponent (the default on every side).
    #[default]
    Foe,
    /// The scripted baseline ([`super::baseline`]).
    Baseline,
}

impl ControllerKind {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ControllerKind::Foe => "foe",
            ControllerKind::Baseline => "baseline",
        }
    }

    /// The kind named `name` (as [`ControllerKind::name`] gives it).
    pub fn from_name(name: &str) -> Option<ControllerKind> {
        [ControllerKind::Foe, ControllerKind::Baseline]
            .into_iter()
            .find(|kind| kind.name() == name)
    }

    /// The name with what it is, for introductions and summaries.
    pub fn describe(self) -> &'static str {
        match self {
            ControllerKind::Foe => "foe (Lone Warrior)",
            ControllerKind::Baseline => "baseline (scripted)",
        }
    }
}

impl std::fmt::Display for ControllerKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Who commands which side of a game, for [`Command::commanders`].
#[derive(Debug, Clone, Copy)]
pub struct CommandSetup<'a> {
    /// The Lone Warrior tables.
    pub tables: &'a Arc<Tables>,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The sides the player commands.
    pub player_sides: &'a [usize],
    /// The sides the scripted baseline commands.
    pub baseline_sides: &'a [usize],
    /// Distance fields the games of one scenario may share.
    pub fields: &'a FieldCache,
    /// Told each stage of the commanders' work they enter.
    pub probe: &'a Probing,
}

/// The commanders of a game's sides that the player does not command,
/// and the game's record as they keep it: what the runner asks to play
/// foe's sides, whatever the engine. Each engine's adapter gives them
/// ([`Command::commanders`]): seed 000's own ([`super::awi`]), a side's
/// turn a step at a time and told turn by turn; the boundary opponent and
/// baseline ([`super::lines`]), an action at a time and told line by line.
pub trait Commanders: std::fmt::Debug + Any {
    /// The events of the game's set-up, for the record.
    fn set_up(&mut self, game: &Game, events: &[Event]);

    /// Show every commander what the player's `action` did, and record it.
    fn player_acted(&mut self, game: &Game, action: &Action, events: &[Event]);

    /// The side to act's next step on `game`, carried out and recorded:
    /// one of foe's actions, or one general, reserve, unit, shot or rally
    /// seen to, or the end of a phase. Each stage of the work is named to
    /// `probe`. A refusal of foe's own action is a bug, said in words.
    fn step_side(
        &mut self,
        game: &mut Game,
        roller: &mut dyn Roller,
        probe: &Probing,
    ) -> Result<SideStep, String>;

    /// What the commanders did so far, counted for a study.
    fn conduct(&self, game: &Game) -> Conduct;

    /// Each side's plan in words (empty for a side without a plan or a
    /// commander that keeps none).
    fn plans(&self, game: &Game) -> Vec<String>;

    /// How much of the record there is.
    fn printed(&self) -> Printed;

    /// A watched game's `steps` (each step a [`SideStep::told`]), as its
    /// save counts them: sides' turns or foe's actions.
    fn watched(&self, steps: usize) -> Watched;

    /// The commanders as themselves, for the texts that read their record.
    fn as_any(&self) -> &dyn Any;

    /// The commanders as themselves, to set them up.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// What one step of a side's turn did ([`Commanders::step_side`]).
#[derive(Debug, Clone, Default)]
pub struct SideStep {
    /// The actions carried out.
    pub actions: Vec<Action>,
    /// The step's events, for the runner's record.
    pub events: Vec<Event>,
    /// Whether the step ended with something told in the record: a watched
    /// game's step, which its save counts (seed 000: a side's turn over;
    /// the others: any action).
    pub told: bool,
    /// Whether the game moved on: `false` when the side's commander could
    /// not finish its turn, which the runner takes as a reason to stop
    /// rather than loop.
    pub moved_on: bool,
}

/// The counts of [`Conduct::counts`], in report order, with what each
/// means: what a referee checks of the seed-004 orders over many games.
pub const CONDUCT: [(&str, &str); 8] = [
    (
        "withdrawals",
        "withdrawals made (moves on withdraw and fire and withdraw)",
    ),
    (
        "withdrawals-towards-the-enemy",
        "  of them ending nearer the enemy's side of the table",
    ),
    ("routed", "units routed off the field on a rout order"),
    (
        "column-in-sight",
        "bounds a unit stayed in march column with the enemy in sight",
    ),
    (
        "column-in-sight-no-room",
        "  of them: told to deploy, with no room to (ruling HO13)",
    ),
    (
        "column-in-sight-kept",
        "  of them: its order kept its formation (HO13)",
    ),
    (
        "column-in-sight-unruled",
        "  of them: for no reason a ruling gives",
    ),
    ("general-tests", "generals' reaction tests (a trigger held)"),
];

/// One unit's bound as [`ConductTally::bound`] counts it.
#[derive(Debug, Clone, Copy)]
pub struct Bound<'a> {
    /// The unit.
    pub unit: usize,
    /// The game turn.
    pub turn: u32,
    /// Its order.
    pub order: Order,
    /// The moves it made, from and to.
    pub moves: &'a [(Point, Point)],
    /// The bearing of its side's own table edge.
    pub rear: f64,
    /// Whether it routed off the field on its order.
    pub routed: bool,
    /// Where it stood in march column (or limbered) with an enemy in
    /// sight, why it kept its formation
    /// ([`super::opponent::carry::kept_in_column`]'s name).
    pub column: Option<&'static str>,
}

/// The counts of [`CONDUCT`], summed a unit's bound at a time whoever
/// commanded the game: its withdrawals that moved, and those of them
/// that ended nearer the enemy's side of the table (measured along the
/// side's own rear); units routed off on a rout order; bounds a unit
/// began in march column with an enemy in sight having done so the bound
/// before, by why it kept its formation; generals' reaction tests.
#[derive(Debug, Clone)]
pub struct ConductTally {
    counts: BTreeMap<String, u32>,
    /// Each unit's last bound in column in sight, and why it stayed.
    last_column: BTreeMap<usize, (u32, &'static str)>,
}

impl Default for ConductTally {
    fn default() -> ConductTally {
        ConductTally {
            counts: CONDUCT
                .iter()
                .map(|(name, _)| (name.to_string(), 0))
                .collect(),
            last_column: BTreeMap::new(),
        }
    }
}

impl ConductTally {
    fn count(&mut self, name: &str) {
        *self.counts.entry(name.to_string()).or_insert(0) += 1;
    }

    /// Count one unit's bound.
    pub fn bound(&mut self, bound: Bound<'_>) {
        if falls_back(bound.order) && !bound.moves.is_empty() {
            self.count("withdrawals");
            let back: f64 = bound
                .moves
                .iter()
                .map(|(from, to)| rearward(*from, *to, bound.rear))
                .sum();
            if back < -1e-6 {
                self.count("withdrawals-towards-the-enemy");
            }
        }
        if bound.routed {
            self.count("routed");
        }
        if let Some(why) = bound.column {
            if let Some(before) = self
                .last_column
                .get(&bound.unit)
                .filter(|(turn, _)| turn + 1 == bound.turn)
                .map(|(_, why)| *why)
            {
                self.count("column-in-sight");
                self.count(before);
            }
            self.last_column.insert(bound.unit, (bound.turn, why));
        }
    }

    /// Count `tests` generals' reaction tests.
    pub fn general_tests(&mut self, tests: usize) {
        let tests = u32::try_from(tests).unwrap_or(u32::MAX);
        *self.counts.entry("general-tests".to_string()).or_insert(0) += tests;
    }

    /// The counts, by the names of [`CONDUCT`].
    pub fn counts(self) -> BTreeMap<String, u32> {
        self.counts
    }
}

/// What a game's commanders did, counted as a study sums it
/// ([`super::run::HostMatch::conduct`]): whichever commanders played it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conduct {
    /// How often each reaction-test order was given, by its id.
    pub orders: BTreeMap<String, u32>,
    /// Per troop type (by name): the bounds its units tested on the table,
    /// and the bounds in which an order that moved them found no lawful
    /// way (seed 000's opponent).
    pub stuck: BTreeMap<String, [u32; 2]>,
    /// Per troop type: the bounds in which an order that moved its units
    /// found them hemmed in by the enemy-presence rule, and held up behind
    /// other units (seed 000's opponent).
    pub hemmed: BTreeMap<String, [u32; 2]>,
    /// The generals whose rallies are counted, each with his side (seed
    /// 000's).
    pub generals: Vec<(usize, String)>,
    /// Per general: rally attempts used.
    pub rallies_used: Vec<u32>,
    /// How foe carried out its orders, by the names of [`CONDUCT`] (the
    /// opponent of seeds 001 and 002).
    pub counts: BTreeMap<String, u32>,
}
