//! Seed 000 in the one runner ([`super::run::HostMatch`]): the commanders
//! of its sides and the record its REPL and `foe simulate` read, handed
//! to the runner as its [`Commanders`] by the seed-000 adapter.
//!
//! A seed-000 side that the player does not command is played by a
//! [`Controller`] (foe's Lone Warrior opponent, or the scripted baseline),
//! a step at a time (a general, reserve, unit, shot or rally, or the end
//! of a phase), as the runner asks; when the side's turn is over, every
//! other side's controller is shown what it did, as it would see it
//! across the table. [`AwiCommanders`] keep the game as [`Entry`]s: the set-up rolls, each action of the
//! player's, each side's turn with the opponent's report. That is what
//! the prompt renders (`render::play`) and the study sums.
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

use crate::dice::Roller;
use crate::host::baseline::awi::{self, AwiBaseline, BaselineReport};
use crate::host::command::{
    Bound, CommandSetup, Commanders, Conduct, ConductTally, ControllerKind, SideStep,
};
use crate::host::opponent::awi::{FieldCache, Hemmed, Opponent, TurnReport, steps_a_turn_at_most};
use crate::host::opponent::carry::kept_in_column;
use crate::host::position::Position;
use crate::host::probe::{Probing, Stage, staged};
use crate::host::run::HostMatch;
use crate::host::run::Printed;
use crate::host::save::Watched;
use crate::host::{self, Game};
use crate::rules::{Action, Event, GameState};
use crate::scenario::Scenario;
use crate::tables::{Formation, Order, Tables};
use std::any::Any;
use std::sync::Arc;

/// What commands a side: the Lone Warrior opponent or the baseline.
#[derive(Debug, Clone)]
pub enum Controller {
    /// foe's Lone Warrior opponent.
    Foe(Opponent),
    /// The scripted baseline.
    Baseline(AwiBaseline),
}

/// What a controller did in one player turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Played {
    /// The Lone Warrior opponent's report.
    Foe(TurnReport),
    /// The baseline's report.
    Baseline(BaselineReport),
}

impl Controller {
    /// Which kind it is.
    pub fn kind(&self) -> ControllerKind {
        match self {
            Controller::Foe(_) => ControllerKind::Foe,
            Controller::Baseline(_) => ControllerKind::Baseline,
        }
    }

    /// The Lone Warrior opponent, if that is what commands the side.
    pub fn opponent(&self) -> Option<&Opponent> {
        match self {
            Controller::Foe(opponent) => Some(opponent),
            Controller::Baseline(_) => None,
        }
    }

    /// Take note of the other side's events (the baseline needs none).
    pub fn observe(&mut self, state: &GameState, events: &[Event]) {
        if let Controller::Foe(opponent) = self {
            opponent.observe(state, events);
        }
    }

    /// A record of the side's turn `turn`, with nothing in it yet.
    fn begin(&self, side: usize, turn: u32) -> Played {
        match self {
            Controller::Foe(_) => Played::Foe(TurnReport {
                side,
                turn,
                ..TurnReport::default()
            }),
            Controller::Baseline(_) => Played::Baseline(BaselineReport {
                side,
                turn,
                ..BaselineReport::default()
            }),
        }
    }

    /// Take the side's next step in its turn on `state`, recorded in
    /// `played` (which [`Controller::begin`] made).
    fn step(&mut self, state: &mut GameState, roller: &mut dyn Roller, played: &mut Played) {
        match (self, played) {
            (Controller::Foe(opponent), Played::Foe(report)) => {
                opponent.step(state, roller, report);
            }
            (Controller::Baseline(baseline), Played::Baseline(report)) => {
                baseline.step(state, roller, report);
            }
            // A record of the other kind is never handed in; the side only
            // ends its phase.
            (_, played) => end_phase(state, roller, played),
        }
    }

    /// The side's turn is over: what it did is kept (the opponent's last
    /// decision about each unit, for `why`).
    fn finish(&mut self, played: &Played) {
        if let (Controller::Foe(opponent), Played::Foe(report)) = (self, played) {
            opponent.remember(report);
        }
    }

    /// The helper that shares what it works out with the other sides.
    fn memo_source(&self) -> &Opponent {
        match self {
            Controller::Foe(opponent) => opponent,
            Controller::Baseline(baseline) => baseline.mover(),
        }
    }
}

/// The controllers of a game's sides: none for the player's sides, the
/// baseline for `baseline_sides`, foe's opponent for the rest. They share
/// `fields` (and, within the game, what they work out about the units).
pub fn controllers(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    state: &GameState,
    player_sides: &[usize],
    baseline_sides: &[usize],
    fields: &FieldCache,
    probe: &Probing,
) -> Vec<Option<Controller>> {
    let mut controllers: Vec<Option<Controller>> = Vec::with_capacity(state.sides.len());
    for side in 0..state.sides.len() {
        if player_sides.contains(&side) {
            controllers.push(None);
            continue;
        }
        let mut opponent = Opponent::new(tables.clone(), state, side)
            .with_scenario(scenario, state)
            .with_fields(fields);
        if let Some(probe) = probe {
            opponent = opponent.with_probe(probe.clone());
        }
        if let Some(first) = controllers.iter().flatten().next() {
            opponent = opponent.sharing_memo(first.memo_source());
        }
        let controller = if baseline_sides.contains(&side) {
            let defending = awi::defends(scenario, state, side);
            Controller::Baseline(AwiBaseline::from_mover(opponent, defending))
        } else {
            Controller::Foe(opponent)
        };
        controllers.push(Some(controller));
    }
    controllers
}

/// One thing that happened in a seed-000 game, in order.
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

impl Played {
    /// The actions of the turn so far.
    fn actions(&self) -> &[Action] {
        match self {
            Played::Foe(report) => &report.actions,
            Played::Baseline(report) => &report.actions,
        }
    }

    /// The engine events of the turn so far.
    fn events(&self) -> &[Event] {
        match self {
            Played::Foe(report) => &report.events,
            Played::Baseline(report) => &report.events,
        }
    }

    /// The turn as an entry of the record.
    fn entry(self) -> Entry {
        match self {
            Played::Foe(report) => Entry::Opponent {
                side: report.side,
                report,
            },
            Played::Baseline(report) => Entry::Baseline {
                side: report.side,
                report,
            },
        }
    }
}

/// End the phase for a side without a controller (a player's side while
/// watching, which the runner never asks for), recorded in `played`.
fn end_phase(state: &mut GameState, roller: &mut dyn Roller, played: &mut Played) {
    if let Ok(events) = state.apply(&Action::EndPhase, roller) {
        match played {
            Played::Foe(report) => {
                report.actions.push(Action::EndPhase);
                report.events.extend(events);
            }
            Played::Baseline(report) => {
                report.actions.push(Action::EndPhase);
                report.events.extend(events);
            }
        }
    }
}

/// A side's turn in progress: its record so far and the steps taken.
#[derive(Debug)]
struct InTurn {
    side: usize,
    turn: u32,
    played: Played,
    steps: usize,
}

/// Show every controller what the player's action did.
fn observe_player(controllers: &mut [Option<Controller>], state: &GameState, events: &[Event]) {
    for controller in controllers.iter_mut().flatten() {
        controller.observe(state, events);
    }
}

/// Seed 000's commanders of a game and its record.
#[derive(Debug)]
pub struct AwiCommanders {
    /// One per side: none for the player's sides.
    controllers: Vec<Option<Controller>>,
    /// The record, in order.
    log: Vec<Entry>,
    /// Each general's rallies at the start, for the end-of-game summary.
    starting_rallies: Vec<u32>,
    /// The turn a side's commander is part way through.
    turn: Option<InTurn>,
}

impl AwiCommanders {
    /// The commanders of `state`'s sides as `setup` gives them out.
    pub(crate) fn new(state: &GameState, setup: &CommandSetup<'_>) -> AwiCommanders {
        AwiCommanders {
            controllers: controllers(
                setup.tables,
                setup.scenario,
                state,
                setup.player_sides,
                setup.baseline_sides,
                setup.fields,
                setup.probe,
            ),
            log: Vec::new(),
            starting_rallies: state.generals.iter().map(|g| g.rallies_left).collect(),
            turn: None,
        }
    }

    /// Seed 000's commanders of `runner`'s game (`None` under other rules).
    pub fn of(runner: &HostMatch) -> Option<&AwiCommanders> {
        runner.commanders().as_any().downcast_ref()
    }

    /// The record: the set-up, the player's actions and each side's turns,
    /// in order.
    pub fn log(&self) -> &[Entry] {
        &self.log
    }

    /// The commander of `side`, if foe or the baseline commands it.
    pub fn controller(&self, side: usize) -> Option<&Controller> {
        self.controllers.get(side).and_then(Option::as_ref)
    }

    /// Each general's rallies at the start.
    pub fn starting_rallies(&self) -> &[u32] {
        &self.starting_rallies
    }
}

/// Seed 000's own events among `events`.
fn own_events(events: &[host::Event]) -> Vec<Event> {
    events
        .iter()
        .filter_map(|event| GameState::own_event(event).cloned())
        .collect()
}

impl Commanders for AwiCommanders {
    fn set_up(&mut self, _game: &Game, events: &[host::Event]) {
        self.log.push(Entry::Setup(own_events(events)));
    }

    fn player_acted(&mut self, game: &Game, action: &host::Action, events: &[host::Event]) {
        if let (Some(state), Some(action)) = (GameState::of(game), GameState::own(action)) {
            let events = own_events(events);
            observe_player(&mut self.controllers, state, &events);
            self.log.push(Entry::Player {
                action: action.clone(),
                events,
            });
        }
    }

    fn step_side(
        &mut self,
        game: &mut Game,
        roller: &mut dyn Roller,
        probe: &Probing,
    ) -> Result<SideStep, String> {
        let Some(state) = GameState::of_mut(game) else {
            return Err("seed 000's commanders were given another rule set's game".into());
        };
        let (side, turn) = (state.active, state.turn);
        let mut controller = self.controllers.get_mut(side).and_then(Option::as_mut);
        let mut now = match self.turn.take() {
            Some(now) if (now.side, now.turn) == (side, turn) => now,
            _ => InTurn {
                side,
                turn,
                played: controller.as_ref().map_or_else(
                    || Played::Foe(TurnReport::default()),
                    |controller| controller.begin(side, turn),
                ),
                steps: 0,
            },
        };
        let (told, acted) = (now.played.events().len(), now.played.actions().len());
        staged(probe, Stage::Deciding, || match controller.as_mut() {
            Some(controller) => controller.step(state, roller, &mut now.played),
            None => end_phase(state, roller, &mut now.played),
        });
        now.steps += 1;
        let events = now.played.events()[told..]
            .iter()
            .cloned()
            .map(Into::into)
            .collect();
        let actions = now.played.actions()[acted..]
            .iter()
            .cloned()
            .map(Into::into)
            .collect();
        let moved_on = state.is_over() || state.active != side || state.turn != turn;
        if !moved_on && now.steps < steps_a_turn_at_most(state) {
            self.turn = Some(now);
            return Ok(SideStep {
                actions,
                events,
                told: false,
                moved_on: true,
            });
        }
        if let Some(controller) = controller {
            controller.finish(&now.played);
        }
        let entry = now.played.entry();
        for (other, controller) in self.controllers.iter_mut().enumerate() {
            if other != side
                && let Some(controller) = controller
            {
                controller.observe(state, entry.events());
            }
        }
        self.log.push(entry);
        Ok(SideStep {
            actions,
            events,
            told: true,
            moved_on,
        })
    }

    fn conduct(&self, game: &Game) -> Conduct {
        let mut conduct = Conduct::default();
        let Some(state) = GameState::of(game) else {
            return conduct;
        };
        let mut tally = ConductTally::default();
        for entry in &self.log {
            let Entry::Opponent { side, report } = entry else {
                continue;
            };
            count_conduct(state, *side, report, &mut tally);
            for order in orders_given(report) {
                *conduct.orders.entry(order.id().to_string()).or_insert(0) += 1;
            }
            for decision in &report.decisions {
                let troop = state.unit(decision.unit).troop;
                let name = &state.battlefield.ruleset.troop(troop).name;
                let counts = conduct.stuck.entry(name.clone()).or_insert([0, 0]);
                counts[0] += 1;
                counts[1] += u32::from(decision.stuck);
                if let Some(why) = decision.hemmed {
                    let counts = conduct.hemmed.entry(name.clone()).or_insert([0, 0]);
                    counts[usize::from(why == Hemmed::ByUnits)] += 1;
                }
            }
        }
        conduct.counts = tally.counts();
        conduct.generals = state
            .generals
            .iter()
            .map(|general| (general.side, general.name.clone()))
            .collect();
        conduct.rallies_used = state
            .generals
            .iter()
            .zip(&self.starting_rallies)
            .map(|(general, start)| start.saturating_sub(general.rallies_left))
            .collect();
        conduct
    }

    fn plans(&self, game: &Game) -> Vec<String> {
        let sides = game.sides().len();
        (0..sides)
            .map(|side| {
                self.controller(side)
                    .and_then(Controller::opponent)
                    .map(|opponent| opponent.plan().describe())
                    .unwrap_or_default()
            })
            .collect()
    }

    fn printed(&self) -> Printed {
        Printed {
            told: self.log.len(),
            ..Printed::default()
        }
    }

    fn watched(&self, steps: usize) -> Watched {
        Watched::Turns(steps)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Count how one turn's report carried out its orders in `tally`, as
/// the opponent of seeds 001 and 002 counts them: each unit's bound
/// (routed on a rout order; in march column or limbered with an enemy in
/// sight, kept so as its order says), and generals' reaction tests.
fn count_conduct(state: &GameState, side: usize, report: &TurnReport, tally: &mut ConductTally) {
    let rear = state.sides.get(side).map_or(0.0, |s| s.edge.bearing());
    for decision in &report.decisions {
        let order = decision.outcome.order;
        let moves: Vec<_> = decision
            .events
            .iter()
            .filter_map(|event| match event {
                Event::Moved { unit, from, to, .. } if *unit == decision.unit => Some((*from, *to)),
                _ => None,
            })
            .collect();
        let situation = &decision.reading.situation;
        let marching = matches!(
            situation.formation,
            Some(Formation::Column | Formation::Limbered)
        );
        tally.bound(Bound {
            unit: decision.unit.0,
            turn: decision.turn,
            order,
            moves: &moves,
            rear,
            routed: order == Order::Rout,
            column: (marching && situation.enemy_in_sight)
                .then(|| kept_in_column(Some(&decision.outcome), false, false)),
        });
    }
    tally.general_tests(
        report
            .generals
            .iter()
            .filter(|general| general.reaction.is_some())
            .count(),
    );
}

/// The reaction-test orders the opponent gave in one turn: every unit's
/// and every reserve's test.
pub fn orders_given(report: &TurnReport) -> Vec<Order> {
    report
        .decisions
        .iter()
        .chain(&report.reserves)
        .map(|decision| decision.outcome.order)
        .collect()
}

/// Seed 000's record of `runner`'s game (empty under other rules).
#[cfg(test)]
pub(crate) fn log_of(runner: &HostMatch) -> &[Entry] {
    AwiCommanders::of(runner).map_or(&[], AwiCommanders::log)
}

/// Seed 000's commander of `side` in `runner`'s game.
#[cfg(test)]
pub(crate) fn controller_of(runner: &HostMatch, side: usize) -> Option<&Controller> {
    AwiCommanders::of(runner)?.controller(side)
}
