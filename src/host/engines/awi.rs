//! Seed 000's referee ([`crate::rules`]) behind the engine boundary.

use crate::battlefield::{Base, Battlefield};
use crate::dice::Roller;
use crate::host::awi;
use crate::host::command::{Command, CommandSetup, Commanders};
use crate::host::position::{EventFacts, Position, SharedTable, Standing, Started};
use crate::host::{
    Action, Engine, Event, Game, Refusal, ScenarioKeys, StartError, UnitView, Verdict,
};
use crate::rules::{self, GameState};
use crate::ruleset::TroopTypeId;
use crate::scenario::Scenario;
use crate::tables::Tables;
use std::sync::Arc;

impl Position for GameState {
    type Action = rules::Action;
    type Event = rules::Event;
    type Refusal = rules::Refusal;

    const ENGINE: Engine = Engine::Awi;
    // Seed 000 reads every key of the scenario format (its study checks a
    // `--set` by validating the changed scenario), so it has no list.
    const SCENARIO_KEYS: Option<ScenarioKeys> = None;

    fn start(
        scenario: &Scenario,
        tables: &Tables,
        roller: &mut dyn Roller,
    ) -> Result<(Self, Vec<rules::Event>), StartError> {
        let table = rules::RulesTable::of(&scenario.battlefield.ruleset)
            .map_err(|p| StartError::Table(p.to_string()))?;
        let setup = rules::GameSetup::from_scenario(scenario)
            .map_err(|e| StartError::Setup(e.to_string()))?;
        GameState::new(setup, Arc::new(table), &tables.characters, roller)
            .map_err(|e| StartError::Setup(e.to_string()))
    }

    fn start_on(
        scenario: &Scenario,
        tables: &Tables,
        table: &SharedTable,
        roller: &mut dyn Roller,
    ) -> Option<Started<Self>> {
        let table = table.clone().downcast::<rules::RulesTable>().ok()?;
        Some(
            rules::GameSetup::from_scenario(scenario)
                .map_err(|e| StartError::Setup(e.to_string()))
                .and_then(|setup| {
                    GameState::new(setup, table, &tables.characters, roller)
                        .map_err(|e| StartError::Setup(e.to_string()))
                }),
        )
    }

    fn shared_table(scenario: &Scenario) -> Result<Option<SharedTable>, StartError> {
        let table = rules::RulesTable::of(&scenario.battlefield.ruleset)
            .map_err(|e| StartError::Setup(e.to_string()))?;
        Ok(Some(Arc::new(table)))
    }

    fn own(action: &Action) -> Option<&rules::Action> {
        match action {
            Action::Awi(action) => Some(action),
            _ => None,
        }
    }

    fn into_game(self) -> Game {
        Game::Awi(Box::new(self))
    }

    fn of(game: &Game) -> Option<&Self> {
        match game {
            Game::Awi(state) => Some(state),
            _ => None,
        }
    }

    fn of_mut(game: &mut Game) -> Option<&mut Self> {
        match game {
            Game::Awi(state) => Some(state),
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
        self.turn
    }

    fn turns(&self) -> u32 {
        self.turns
    }

    fn phase(&self) -> String {
        let side = self.sides.get(self.active).map_or("", |s| s.name.as_str());
        format!("{side} {:?}", GameState::phase(self)).to_lowercase()
    }

    fn to_act(&self) -> Option<usize> {
        (!GameState::is_over(self)).then_some(self.active)
    }

    fn is_over(&self) -> bool {
        GameState::is_over(self)
    }

    fn legal_actions(&self) -> Vec<rules::Action> {
        GameState::legal_actions(self)
    }

    fn check(&self, action: &rules::Action) -> Result<(), rules::Refusal> {
        GameState::check(self, action)
    }

    fn apply(
        &mut self,
        action: &rules::Action,
        roller: &mut dyn Roller,
    ) -> Result<Vec<rules::Event>, rules::Refusal> {
        GameState::apply(self, action, roller)
    }

    fn units(&self) -> Vec<UnitView> {
        self.units
            .iter()
            .enumerate()
            .map(|(index, unit)| {
                let rout_at = self.rules.rout_at[unit.category.index()];
                let removed = unit.status != rules::Status::Active;
                let strength = if removed {
                    0.0
                } else if rout_at == 0 {
                    1.0
                } else {
                    f64::from(rout_at.saturating_sub(unit.hits)) / f64::from(rout_at)
                };
                UnitView {
                    index,
                    name: unit.name.clone(),
                    side: unit.side,
                    position: unit.base.centre,
                    facing: unit.base.facing,
                    strength,
                    formation: None,
                    in_cover: self.battlefield.cover_at(unit.base.centre),
                    removed,
                }
            })
            .collect()
    }

    fn footing(&self, unit: usize) -> Option<(TroopTypeId, Base)> {
        let u = self.units.get(unit)?;
        Some((u.troop, u.base))
    }

    fn own_event(event: &Event) -> Option<&rules::Event> {
        match event {
            Event::Awi(event) => Some(event),
            _ => None,
        }
    }

    fn own_refusal(refusal: &Refusal) -> Option<&rules::Refusal> {
        match refusal {
            Refusal::Awi(refusal) => Some(refusal),
            _ => None,
        }
    }

    fn event_line(&self, event: &rules::Event) -> String {
        rules::log::event_line(self, event)
    }

    fn event_facts(&self, event: &rules::Event) -> EventFacts {
        let mut facts = EventFacts::default();
        match event {
            rules::Event::HitsTaken { unit, hits, .. } => facts.hit = Some((unit.0, *hits)),
            rules::Event::Charged { unit, .. } => facts.charger = Some(unit.0),
            rules::Event::Routed { unit, .. } => facts.removed = Some((unit.0, false)),
            rules::Event::Exited { unit } => facts.removed = Some((unit.0, true)),
            rules::Event::TurnBegan { turn, .. } => facts.turn_began = Some(*turn),
            _ => {}
        }
        facts
    }

    fn standing(&self, unit: usize) -> Standing {
        let u = &self.units[unit];
        Standing {
            troop: u.troop,
            footprint: u.base,
            lost: u.hits,
            out_at: self.rules.rout_threshold(u.category).unwrap_or(0),
            notes: Vec::new(),
        }
    }

    /// Seed 000's own words for its victory conditions.
    fn victory_words(&self, _scenario: &Scenario) -> Vec<(usize, String)> {
        self.victory
            .iter()
            .map(|victory| {
                let words = rules::progress::condition_words(self, &victory.when);
                (victory.winner, words)
            })
            .collect()
    }

    fn condition_met(&self) -> Option<usize> {
        match self.outcome {
            Some(rules::Outcome::Won { condition, .. }) => Some(condition),
            _ => None,
        }
    }

    fn verdict(&self) -> Option<Verdict> {
        self.outcome.as_ref().map(|outcome| match outcome {
            rules::Outcome::Won { side, condition } => Verdict {
                winner: Some(*side),
                reason: format!(
                    "{} met victory condition {}",
                    self.sides.get(*side).map_or("", |s| s.name.as_str()),
                    condition + 1
                ),
                margin: None,
            },
            rules::Outcome::Draw => Verdict {
                winner: None,
                reason: "neither side won".to_string(),
                margin: None,
            },
        })
    }
}

impl Command for GameState {
    const WHOLE_TURNS: bool = true;

    /// Every rule but seed 002's `find-a-shot`.
    const PLAN_RULES: &'static [&'static str] = &[
        "advance-on-objective",
        "close-to-range",
        "general-leads",
        "cavalry-reserve",
        "press-home",
        "stand-off",
        "focus-fire",
        "fire-on-objective",
        "hold-the-line",
        "fall-back",
        "counter-attack",
    ];

    fn unit_name(&self, unit: usize) -> Option<String> {
        self.units.get(unit).map(|u| u.name.clone())
    }

    /// Seed 000's sides are commanded by its own Lone Warrior opponent or
    /// baseline, a step at a time, and told a side's turn at a time.
    fn commanders(&self, setup: &CommandSetup<'_>) -> Box<dyn Commanders> {
        Box::new(awi::AwiCommanders::new(self, setup))
    }
}
