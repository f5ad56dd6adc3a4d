//! The small seed-000 game the tests share: British (side 0, south edge,
//! moving first) and Americans (side 1, north edge) on a 48"×48" table,
//! each with an average general with 3 rallies, set up with no dice. The
//! engine's, the opponent's and the baseline's tests place their units on
//! it; what differs between them is named ([`SmallGame::turns`], ...).

use super::{ForceSetup, GameSetup, GameState, GeneralSetup, RulesTable, UnitSetup};
use crate::battlefield::tests::{p, table};
use crate::battlefield::{Base, Edge, Point, Shape};
use crate::dice::Scripted;
use crate::ruleset::Ruleset;
use crate::tables::{Character, Tables};
use std::sync::Arc;

/// Stand unit `index` of `state` at `at`, facing `facing`, its base's size
/// kept: the tests' scatterings of units.
pub(crate) fn stand(state: &mut GameState, index: usize, at: Point, facing: f64) {
    let unit = &mut state.units[index];
    unit.base = Base::new(at, facing, unit.base.frontage, unit.base.depth);
}

/// The state at the start of the shipped scenario `name`, its generals'
/// characters rolled on `roller`.
pub(crate) fn builtin_state(name: &str, roller: &mut dyn crate::dice::Roller) -> GameState {
    builtin_game(name, None, roller).1
}

/// The shipped scenario `name` (played for `turns` turns, if given) and
/// the state at its start, its generals' characters rolled on `roller`.
pub(crate) fn builtin_game(
    name: &str,
    turns: Option<u32>,
    roller: &mut dyn crate::dice::Roller,
) -> (crate::scenario::Scenario, GameState) {
    let (file, text) = crate::scenario::builtin(name).unwrap();
    let mut scenario =
        crate::scenario::load(crate::yaml::Source::new(file, text), Ruleset::builtin).unwrap();
    if let Some(turns) = turns {
        scenario.turns = turns;
    }
    let ruleset = &scenario.battlefield.ruleset;
    let rules = Arc::new(
        RulesTable::builtin(&ruleset.name, ruleset)
            .unwrap()
            .unwrap(),
    );
    let setup = GameSetup::from_scenario(&scenario).unwrap();
    let characters = Tables::embedded().characters;
    let (state, _) = GameState::new(setup, rules, &characters, roller).unwrap();
    (scenario, state)
}

/// A unit placed: (name, troop type, x, y, facing).
pub(crate) type Placed<'a> = (&'a str, &'a str, f64, f64, f64);

/// The seed-000 rules table (`ohw-awi`).
pub(crate) fn rules_table() -> Arc<RulesTable> {
    let ruleset = Ruleset::builtin("ohw-awi").unwrap().unwrap();
    Arc::new(RulesTable::builtin("ohw-awi", &ruleset).unwrap().unwrap())
}

/// A small game to set up: [`SmallGame::new`] with the units of each
/// side, then what differs from the defaults, then [`SmallGame::build`].
pub(crate) struct SmallGame<'a> {
    features: &'a [(&'a str, Shape, f64)],
    british: &'a [Placed<'a>],
    americans: &'a [Placed<'a>],
    reserves: &'a [Placed<'a>],
    generals_at: [(f64, f64); 2],
    turns: u32,
}

impl<'a> SmallGame<'a> {
    /// `british` and `americans` on an open table, the British general in
    /// the south-west corner and the American in the north-east, no
    /// reserves, 5 turns.
    pub(crate) fn new(british: &'a [Placed<'a>], americans: &'a [Placed<'a>]) -> SmallGame<'a> {
        SmallGame {
            features: &[],
            british,
            americans,
            reserves: &[],
            generals_at: [(2.0, 2.0), (46.0, 46.0)],
            turns: 5,
        }
    }

    /// Terrain on the table: (kind, shape, height).
    pub(crate) fn features(mut self, features: &'a [(&'a str, Shape, f64)]) -> SmallGame<'a> {
        self.features = features;
        self
    }

    /// British reserves, listed after the British units.
    pub(crate) fn reserves(mut self, reserves: &'a [Placed<'a>]) -> SmallGame<'a> {
        self.reserves = reserves;
        self
    }

    /// Where the British and the American generals stand.
    pub(crate) fn generals_at(
        mut self,
        british: (f64, f64),
        americans: (f64, f64),
    ) -> SmallGame<'a> {
        self.generals_at = [british, americans];
        self
    }

    /// How many turns the game lasts.
    pub(crate) fn turns(mut self, turns: u32) -> SmallGame<'a> {
        self.turns = turns;
        self
    }

    /// The game, set up (no die is rolled: both generals are average).
    pub(crate) fn build(self) -> GameState {
        let field = table(48.0, 48.0, self.features);
        let ruleset = field.ruleset.clone();
        let units = |placed: &[Placed<'_>], reserve: bool| -> Vec<UnitSetup> {
            placed
                .iter()
                .map(|(name, troop, x, y, facing)| {
                    let id = ruleset.troop_type(troop).unwrap();
                    let troop_type = ruleset.troop(id);
                    UnitSetup {
                        name: name.to_string(),
                        troop: id,
                        base: Base::new(p(*x, *y), *facing, troop_type.frontage, troop_type.depth),
                        reserve,
                    }
                })
                .collect()
        };
        let force = |name: &str, edge: Edge, units: Vec<UnitSetup>, at: (f64, f64)| ForceSetup {
            name: name.to_string(),
            edge,
            units,
            generals: vec![GeneralSetup {
                name: format!("{name} general"),
                base: Base::new(p(at.0, at.1), 0.0, 2.0, 2.0),
                character: Some(Character::Average),
                rallies: Some(3),
                quality: None,
            }],
            supply: None,
        };
        let mut british = units(self.british, false);
        british.extend(units(self.reserves, true));
        let setup = GameSetup {
            battlefield: Arc::new(field),
            forces: vec![
                force("british", Edge::South, british, self.generals_at[0]),
                force(
                    "americans",
                    Edge::North,
                    units(self.americans, false),
                    self.generals_at[1],
                ),
            ],
            first: 0,
            turns: self.turns,
            victory: Vec::new(),
        };
        let characters = Tables::embedded().characters;
        GameState::new(setup, rules_table(), &characters, &mut Scripted::new([]))
            .unwrap()
            .0
    }
}
