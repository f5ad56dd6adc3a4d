//! Seed 002, One-Hour Wargames ACW with activation dice ([`crate::acw`]),
//! behind the engine boundary.

use crate::acw::{self, GameState, UnitId};
use crate::battlefield::Battlefield;
use crate::dice::Roller;
use crate::host::position::Position;
use crate::host::{
    Action, Engine, Game, ScenarioKeys, StartError, UnitView, Verdict, acw_formation,
};
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

impl Position for GameState {
    type Action = acw::Action;
    type Event = acw::Event;
    type Refusal = acw::Refusal;

    const ENGINE: Engine = Engine::Acw;
    const TELLS_TURNS: bool = false;
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
        let setup = acw::GameSetup::from_scenario(scenario, &table)
            .map_err(|e| StartError::Setup(e.to_string()))?;
        GameState::new(setup, Arc::new(table), roller).map_err(|e| StartError::Setup(e.to_string()))
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
