//! Seed 002, One-Hour Wargames ACW with activation dice ([`crate::acw`]),
//! behind the engine boundary.

use crate::acw::{self, GameState, UnitId};
use crate::battlefield::{Base, Battlefield};
use crate::dice::Roller;
use crate::host::baseline::Baseline;
use crate::host::command::{Chose, Command};
use crate::host::opponent::Opponent;
use crate::host::position::{EventFacts, Position, SharedTable, Standing, Started, Trace};
use crate::host::{
    Action, Engine, Event, Game, Refusal, ScenarioKeys, StartError, UnitView, Verdict,
    acw_formation,
};
use crate::reaction::Situation;
use crate::ruleset::TroopTypeId;
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

impl Position for GameState {
    type Action = acw::Action;
    type Event = acw::Event;
    type Refusal = acw::Refusal;

    const ENGINE: Engine = Engine::Acw;
    // `acw::GameSetup::from_scenario`: units have no strength (every unit
    // takes the same hits) and generals only a character (a good one adds
    // a die, ruling AC3).
    const SCENARIO_KEYS: Option<ScenarioKeys> = Some(ScenarioKeys {
        top: &[
            "turns",
            "first",
            "table",
            "terrain",
            "areas",
            "victory",
            "optional_rules",
        ],
        side: &["units", "generals", "edge"],
        unit: &[
            "troop_type",
            "formation",
            "position",
            "facing",
            "reaction_class",
            "character",
        ],
        general: &["character"],
    });

    fn start(
        scenario: &Scenario,
        _tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Result<(Self, Vec<acw::Event>), StartError> {
        let table = acw::AcwTable::of(&scenario.battlefield.ruleset)
            .map_err(|p| StartError::Table(p.to_string()))?;
        start_with(scenario, Arc::new(table), roller)
    }

    fn start_on(
        scenario: &Scenario,
        _tables: &Tables,
        table: &SharedTable,
        roller: &mut dyn Roller,
    ) -> Option<Started<Self>> {
        let table = table.clone().downcast::<acw::AcwTable>().ok()?;
        Some(start_with(scenario, table, roller))
    }

    fn shared_table(scenario: &Scenario) -> Result<Option<SharedTable>, StartError> {
        let table = acw::AcwTable::of(&scenario.battlefield.ruleset)
            .map_err(|p| StartError::Table(p.to_string()))?;
        Ok(Some(Arc::new(table)))
    }

    fn own(action: &Action) -> Option<&acw::Action> {
        match action {
            Action::Acw(action) => Some(action),
            _ => None,
        }
    }

    fn into_game(self) -> Game {
        Game::Acw(Box::new(self))
    }

    fn of(game: &Game) -> Option<&Self> {
        match game {
            Game::Acw(state) => Some(state),
            _ => None,
        }
    }

    fn of_mut(game: &mut Game) -> Option<&mut Self> {
        match game {
            Game::Acw(state) => Some(state),
            _ => None,
        }
    }

    fn battlefield(&self) -> &Battlefield {
        &self.battlefield
    }

    fn sides(&self) -> Vec<String> {
        self.sides.iter().map(|s| s.name.clone()).collect()
    }

    fn turn(&self) -> u32 {
        GameState::turn(self)
    }

    fn turns(&self) -> u32 {
        self.turns
    }

    fn phase(&self) -> String {
        let side_name = |side: usize| self.sides.get(side).map_or("", |s| s.name.as_str());
        match GameState::phase(self) {
            acw::Phase::Assigning { side } => format!("{} assigning dice", side_name(side)),
            acw::Phase::Activating => "activation".to_string(),
            acw::Phase::ChargeResponse { charger, target } => format!(
                "charge: `{}` answers `{}`",
                self.unit(target).name,
                self.unit(charger).name
            ),
            acw::Phase::Over => "game over".to_string(),
        }
    }

    fn to_act(&self) -> Option<usize> {
        GameState::to_act(self)
    }

    fn is_over(&self) -> bool {
        !matches!(self.outcome(), acw::Outcome::Playing)
    }

    fn legal_actions(&self) -> Vec<acw::Action> {
        GameState::legal_actions(self)
    }

    fn check(&self, action: &acw::Action) -> Result<(), acw::Refusal> {
        GameState::check(self, action)
    }

    fn apply(
        &mut self,
        action: &acw::Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<acw::Event>, acw::Refusal> {
        GameState::apply(self, action, roller)
    }

    fn units(&self) -> Vec<UnitView> {
        (0..self.units.len())
            .map(|index| {
                let id = UnitId(index);
                let unit = self.unit(id);
                UnitView {
                    index,
                    name: unit.name.clone(),
                    side: unit.side,
                    position: self.position(id),
                    facing: self.facing(id),
                    strength: self.strength(id),
                    formation: Some(acw_formation(self.formation(id)).to_string()),
                    in_cover: self.in_cover(id),
                    removed: self.removed(id),
                }
            })
            .collect()
    }

    fn footing(&self, unit: usize) -> Option<(TroopTypeId, Base)> {
        let u = self.units.get(unit)?;
        Some((u.troop, u.base))
    }

    fn own_event(event: &Event) -> Option<&acw::Event> {
        match event {
            Event::Acw(event) => Some(event),
            _ => None,
        }
    }

    fn own_refusal(refusal: &Refusal) -> Option<&acw::Refusal> {
        match refusal {
            Refusal::Acw(refusal) => Some(refusal),
            _ => None,
        }
    }

    fn event_line(&self, event: &acw::Event) -> String {
        with_names(&event.to_string(), self)
    }

    fn event_facts(&self, event: &acw::Event) -> EventFacts {
        let mut facts = EventFacts::default();
        match event {
            acw::Event::Fired { target, hits, .. } | acw::Event::Melee { target, hits, .. } => {
                facts.hit = Some((target.0, *hits))
            }
            acw::Event::Damaged { unit, hits } => facts.hit = Some((unit.0, *hits)),
            acw::Event::Contact { unit, .. } => facts.charger = Some(unit.0),
            acw::Event::Removed { unit, reason } => {
                facts.removed = Some((unit.0, *reason == acw::Removal::OffTable))
            }
            acw::Event::TurnBegan { turn } => {
                facts.turn_began = Some(*turn);
                facts.phase_began = true;
            }
            _ => {}
        }
        facts.trace = match event {
            acw::Event::Moved { unit, from, to, .. } => Some(Trace::Moved {
                unit: unit.0,
                from: *from,
                to: *to,
            }),
            acw::Event::Retreated { unit, from, to } => Some(Trace::Retreated {
                unit: unit.0,
                from: *from,
                to: *to,
            }),
            acw::Event::Fired { unit, target, .. } => Some(Trace::Fired {
                unit: unit.0,
                target: target.0,
            }),
            acw::Event::Contact { unit, target, .. } => Some(Trace::Charged {
                unit: unit.0,
                target: target.0,
            }),
            _ => None,
        };
        facts
    }

    fn condition_met(&self) -> Option<usize> {
        match self.outcome() {
            acw::Outcome::Won { condition, .. } => Some(*condition),
            _ => None,
        }
    }

    fn standing(&self, unit: usize) -> Standing {
        let u = self.unit(acw::UnitId(unit));
        Standing {
            troop: u.troop,
            footprint: u.base,
            lost: u.hits,
            out_at: self.table.removed_at,
            notes: Vec::new(),
        }
    }

    fn verdict(&self) -> Option<Verdict> {
        match self.outcome() {
            acw::Outcome::Playing => None,
            acw::Outcome::Won { side, reason, .. } => Some(Verdict {
                winner: Some(*side),
                reason: reason.clone(),
                margin: None,
            }),
            acw::Outcome::Draw => Some(Verdict {
                winner: None,
                reason: "nobody won by the last turn".to_string(),
                margin: None,
            }),
        }
    }
}

/// Seed 002's events name units `unit N` and sides `side N` (they carry
/// ids only): the player reads names, so each `unit N` and `side N` whose
/// number is a unit's or side's index becomes its name.
fn with_names(text: &str, state: &GameState) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['u', 's']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let (word, units) = if rest.starts_with("unit ") {
            ("unit ", true)
        } else if rest.starts_with("side ") {
            ("side ", false)
        } else {
            out.push_str(&rest[..1]);
            rest = &rest[1..];
            continue;
        };
        let digits = rest[word.len()..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - word.len());
        let number = rest[word.len()..word.len() + digits].parse::<usize>().ok();
        let word_start = out.is_empty() || !out.ends_with(|c: char| c.is_alphanumeric());
        let name = number.and_then(|n| {
            if units {
                state.units.get(n).map(|u| u.name.as_str())
            } else {
                state.sides.get(n).map(|s| s.name.as_str())
            }
        });
        match name {
            Some(name) if word_start => {
                out.push_str(name);
                rest = &rest[word.len() + digits..];
            }
            _ => {
                out.push_str(&rest[..1]);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

impl Command for GameState {
    /// Seed 002's only retreat is a repulsed charger's: it lost the melee.
    const RETREAT_LOSES_MELEE: bool = true;

    /// Seed 002 has no commanders on the table (no `general-leads`).
    const PLAN_RULES: &'static [&'static str] = &[
        "advance-on-objective",
        "close-to-range",
        "press-home",
        "hold-the-line",
        "find-a-shot",
    ];

    fn foe_situation(&self, opponent: &Opponent, unit: usize) -> Option<Situation> {
        opponent.acw_situation_now(self, unit)
    }

    fn foe_next(
        &self,
        opponent: &mut Opponent,
        side: usize,
        roller: &mut dyn Roller,
    ) -> Option<Action> {
        opponent
            .acw_next(self, side, roller)
            .or_else(|| Position::legal_actions(self).into_iter().next())
            .map(Action::Acw)
    }

    fn baseline_next(&self, baseline: &mut Baseline, side: usize) -> Option<Chose> {
        match baseline
            .acw_next(self, side)
            .filter(|(action, _)| Position::check(self, action).is_ok())
        {
            Some((action, reason)) => Some((Action::Acw(action), reason)),
            None => Some((
                Action::Acw(Position::legal_actions(self).into_iter().next()?),
                None,
            )),
        }
    }

    fn unit_name(&self, unit: usize) -> Option<String> {
        self.units.get(unit).map(|u| u.name.clone())
    }
}

/// A game of `scenario` on the rules `table`, set up with `roller`.
fn start_with(
    scenario: &Scenario,
    table: Arc<acw::AcwTable>,
    roller: &mut dyn Roller,
) -> Started<GameState> {
    let setup = acw::GameSetup::from_scenario(scenario, &table)
        .map_err(|e| StartError::Setup(e.to_string()))?;
    GameState::new(setup, table, roller).map_err(|e| StartError::Setup(e.to_string()))
}
