//! Seed 001, "A Ruinous Victory" ([`crate::rv`]), behind the engine
//! boundary.

use crate::battlefield::{Base, Battlefield};
use crate::dice::Roller;
use crate::host::baseline::Baseline;
use crate::host::command::{Chose, Command};
use crate::host::opponent::Opponent;
use crate::host::position::{
    EventFacts, Figure, Losses, Position, SharedTable, Standing, Started, Trace,
};
use crate::host::{
    Action, Engine, Event, Game, Refusal, ScenarioKeys, StartError, UnitView, Verdict,
};
use crate::reaction::Situation;
use crate::ruleset::TroopTypeId;
use crate::rv::{self, GameState};
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

impl Position for GameState {
    type Action = rv::Action;
    type Event = rv::Event;
    type Refusal = rv::Refusal;

    const ENGINE: Engine = Engine::Rv;
    // `rv::GameSetup::from_scenario`: the ground, the turns, each unit's
    // bases, formation, place and brigade, each commander's place; its own
    // turn sequence and victory.
    const SCENARIO_KEYS: Option<ScenarioKeys> = Some(ScenarioKeys {
        top: &["turns", "table", "terrain"],
        side: &["units", "generals"],
        unit: &[
            "troop_type",
            "strength",
            "formation",
            "position",
            "facing",
            "group",
            "character",
        ],
        general: &["position"],
    });

    fn start(
        scenario: &Scenario,
        _tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Result<(Self, Vec<rv::Event>), StartError> {
        let table = rv::RvTable::of(&scenario.battlefield.ruleset)
            .map_err(|p| StartError::Table(p.to_string()))?;
        start_with(scenario, Arc::new(table), roller)
    }

    fn start_on(
        scenario: &Scenario,
        _tables: &Tables,
        table: &SharedTable,
        roller: &mut dyn Roller,
    ) -> Option<Started<Self>> {
        let table = table.clone().downcast::<rv::RvTable>().ok()?;
        Some(start_with(scenario, table, roller))
    }

    fn shared_table(scenario: &Scenario) -> Result<Option<SharedTable>, StartError> {
        let table = rv::RvTable::of(&scenario.battlefield.ruleset)
            .map_err(|p| StartError::Table(p.to_string()))?;
        Ok(Some(Arc::new(table)))
    }

    fn own(action: &Action) -> Option<&rv::Action> {
        match action {
            Action::Rv(action) => Some(action),
            _ => None,
        }
    }

    fn into_game(self) -> Game {
        Game::Rv(Box::new(self))
    }

    fn of(game: &Game) -> Option<&Self> {
        match game {
            Game::Rv(state) => Some(state),
            _ => None,
        }
    }

    fn of_mut(game: &mut Game) -> Option<&mut Self> {
        match game {
            Game::Rv(state) => Some(state),
            _ => None,
        }
    }

    fn battlefield(&self) -> &Battlefield {
        GameState::battlefield(self)
    }

    fn sides(&self) -> Vec<String> {
        GameState::sides(self).to_vec()
    }

    fn turn(&self) -> u32 {
        GameState::turn(self)
    }

    fn turns(&self) -> u32 {
        GameState::turns(self)
    }

    fn phase(&self) -> String {
        let phase = GameState::phase(self);
        match (self.pending(), phase.side) {
            (Some(pending), _) => format!(
                "charge: `{}` answers `{}`",
                self.units()[pending.target].name,
                self.units()[pending.charger].name
            ),
            (None, Some(side)) => format!(
                "{} {}",
                GameState::sides(self).get(side).map_or("", String::as_str),
                phase.kind
            ),
            (None, None) => phase.kind.to_string(),
        }
    }

    fn to_act(&self) -> Option<usize> {
        GameState::to_act(self)
    }

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    fn legal_actions(&self) -> Vec<rv::Action> {
        GameState::legal_actions(self)
    }

    fn check(&self, action: &rv::Action) -> Result<(), rv::Refusal> {
        GameState::check(self, action)
    }

    fn apply(
        &mut self,
        action: &rv::Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<rv::Event>, rv::Refusal> {
        GameState::apply(self, action, roller)
    }

    fn units(&self) -> Vec<UnitView> {
        GameState::units(self)
            .iter()
            .enumerate()
            .map(|(index, unit)| UnitView {
                index,
                name: unit.name.clone(),
                side: unit.side,
                position: unit.centre,
                facing: unit.facing,
                strength: self.strength(index).unwrap_or(0.0),
                formation: self.formation(index).map(|f| f.to_string()),
                in_cover: self.in_cover(index),
                removed: self.is_removed(index),
            })
            .collect()
    }

    fn footing(&self, unit: usize) -> Option<(TroopTypeId, Base)> {
        let troop = GameState::units(self).get(unit)?.troop;
        Some((troop, self.footprint(unit)))
    }

    fn verdict(&self) -> Option<Verdict> {
        self.outcome().map(|outcome| Verdict {
            winner: Some(outcome.winner),
            reason: match outcome.reason {
                rv::EndReason::DefenderDriven => "the defenders are driven from the field",
                rv::EndReason::AttackerBroken => "the attacking army is broken",
                rv::EndReason::TimeUp => "time is up with the defenders still on the field",
            }
            .to_string(),
            margin: Some(outcome.margin),
        })
    }

    fn own_event(event: &Event) -> Option<&rv::Event> {
        match event {
            Event::Rv(event) => Some(event),
            _ => None,
        }
    }

    fn own_refusal(refusal: &Refusal) -> Option<&rv::Refusal> {
        match refusal {
            Refusal::Rv(refusal) => Some(refusal),
            _ => None,
        }
    }

    fn event_line(&self, event: &rv::Event) -> String {
        event.to_string()
    }

    fn event_facts(&self, event: &rv::Event) -> EventFacts {
        let mut facts = EventFacts::default();
        match event {
            rv::Event::BasesLost { unit, lost, .. } => facts.hit = Some((unit.index, *lost)),
            rv::Event::Contact { unit, .. } => facts.charger = Some(unit.index),
            rv::Event::Removed { unit, why } => {
                facts.removed = Some((unit.index, *why == rv::Removal::LeftTheField))
            }
            rv::Event::PhaseBegan { turn, .. } => {
                facts.turn_began = Some(*turn);
                facts.phase_began = true;
            }
            _ => {}
        }
        facts.trace = match event {
            rv::Event::Moved { unit, from, to, .. } => Some(Trace::Moved {
                unit: unit.index,
                from: *from,
                to: *to,
            }),
            rv::Event::Retreated { unit, from, to } => Some(Trace::Retreated {
                unit: unit.index,
                from: *from,
                to: *to,
            }),
            rv::Event::Fired { unit, target, .. } => Some(Trace::Fired {
                unit: unit.index,
                target: target.index,
            }),
            rv::Event::Contact { unit, target } => Some(Trace::Charged {
                unit: unit.index,
                target: target.index,
            }),
            _ => None,
        };
        facts
    }

    const LOSSES: Losses = Losses::Bases;
    // The last phase's arrows: the events since the phase before this one
    // began.
    const ARROW_PHASES: usize = 2;

    fn standing(&self, unit: usize) -> Standing {
        let u = &self.units()[unit];
        let mut notes = vec![format!("{} of {} bases", u.bases, u.start_bases)];
        if let Some(commander) = self.commander_of(unit) {
            notes.push(format!("with {}", self.commanders()[commander].name));
        }
        Standing {
            troop: u.troop,
            footprint: self.footprint(unit),
            lost: u.start_bases.saturating_sub(u.bases),
            out_at: u.start_bases,
            notes,
        }
    }

    /// House rules RV3 and RV10: the defenders driven from the field, the
    /// attacking army broken, or time up with the defenders still there.
    fn own_endings(&self) -> Option<Vec<(usize, String)>> {
        let (attacker, defender) = self.attacker_defender();
        Some(vec![
            (
                attacker,
                "the defenders are driven from the field".to_string(),
            ),
            (defender, "the attacking army is broken".to_string()),
            (
                defender,
                "time is up with the defenders still on the field".to_string(),
            ),
        ])
    }

    fn figures(&self, side: usize) -> Vec<Figure> {
        self.commanders()
            .iter()
            .filter(|c| c.side == side)
            .map(|c| Figure {
                name: c.name.clone(),
                at: (!c.lost).then_some(c.at),
            })
            .collect()
    }

    /// House rule RV10's margin: the defender's losses less the
    /// attacker's, in percent of bases.
    fn margin(&self) -> Option<i32> {
        Some(self.score())
    }
}

impl Command for GameState {
    /// Seed 001's objective is the enemy army (no `advance-on-objective`).
    const PLAN_RULES: &'static [&'static str] = &[
        "close-to-range",
        "general-leads",
        "press-home",
        "hold-the-line",
    ];

    fn foe_situation(&self, opponent: &Opponent, unit: usize) -> Option<Situation> {
        opponent.rv_situation_now(self, unit)
    }

    fn foe_next(
        &self,
        opponent: &mut Opponent,
        side: usize,
        roller: &mut dyn Roller,
    ) -> Option<Action> {
        Some(Action::Rv(opponent.rv_next(self, side, roller)))
    }

    fn baseline_next(&self, baseline: &mut Baseline, side: usize) -> Option<Chose> {
        let (action, reason) = baseline.rv_next(self, side);
        Some((Action::Rv(action), reason))
    }

    fn unit_name(&self, unit: usize) -> Option<String> {
        self.units().get(unit).map(|u| u.name.clone())
    }
}

/// A game of `scenario` on the rules `table`, set up with `roller`.
fn start_with(
    scenario: &Scenario,
    table: Arc<rv::RvTable>,
    roller: &mut dyn Roller,
) -> Started<GameState> {
    let setup = rv::GameSetup::from_scenario(scenario, &table)
        .map_err(|e| StartError::Setup(e.to_string()))?;
    GameState::new(setup, table, roller).map_err(|e| StartError::Setup(e.to_string()))
}
