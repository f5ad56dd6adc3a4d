//! Turning a validated [`Scenario`] into a [`GameSetup`]: the one place the
//! rules engine reads the scenario model.

use super::state::{
    Condition, ForceSetup, GameSetup, GeneralSetup, SetupError, UnitSetup, Victory,
};
use crate::battlefield::{Base, Edge, Point};
use crate::scenario::{self, GeneralCharacter, Scenario};

impl GameSetup {
    /// The game a scenario describes. Units must stand somewhere (a unit
    /// left to be placed in its zone is an error: placing it is the
    /// player's or the opponent's deployment step, not the rules'); a
    /// general without a position starts at the middle of his own edge.
    pub fn from_scenario(scenario: &Scenario) -> Result<GameSetup, SetupError> {
        let battlefield = scenario.battlefield.clone();
        let ruleset = &battlefield.ruleset;
        let mut forces = Vec::new();
        for side in &scenario.sides {
            let mut units = Vec::new();
            for unit in &side.units {
                let base = unit.base.ok_or_else(|| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "has not been placed in its deployment zone".to_string(),
                })?;
                units.push(UnitSetup {
                    name: unit.name.clone(),
                    troop: unit.troop,
                    base,
                    reserve: false,
                });
            }
            // Reserves wait off table; their base is where they would enter,
            // the centre of their own edge (seed 004: "from the centre rear").
            for unit in &side.reserves {
                let troop = ruleset.troop(unit.troop);
                let centre = edge_middle(
                    side.edge,
                    battlefield.width(),
                    battlefield.height(),
                    troop.depth / 2.0,
                );
                units.push(UnitSetup {
                    name: unit.name.clone(),
                    troop: unit.troop,
                    base: Base::new(
                        centre,
                        side.edge.opposite().bearing(),
                        troop.frontage,
                        troop.depth,
                    ),
                    reserve: true,
                });
            }
            let general_type = ruleset
                .troop_types
                .iter()
                .find(|t| t.category == crate::ruleset::Category::General);
            let (frontage, depth) = general_type.map_or((2.0, 2.0), |t| (t.frontage, t.depth));
            let generals = side
                .generals
                .iter()
                .map(|general| GeneralSetup {
                    name: general.name.clone(),
                    base: general.base.unwrap_or_else(|| {
                        let centre = edge_middle(
                            side.edge,
                            battlefield.width(),
                            battlefield.height(),
                            depth,
                        );
                        Base::new(centre, side.edge.opposite().bearing(), frontage, depth)
                    }),
                    character: match general.character {
                        GeneralCharacter::Fixed(character) => Some(character),
                        GeneralCharacter::Rolled => None,
                    },
                    rallies: general.rallies,
                    quality: None,
                })
                .collect();
            forces.push(ForceSetup {
                name: side.name.clone(),
                edge: side.edge,
                units,
                generals,
                supply: None,
            });
        }
        let victory = scenario
            .victory
            .iter()
            .map(|victory| Victory {
                winner: victory.winner,
                when: match &victory.when {
                    scenario::Condition::RoutFraction { side, more_than } => {
                        Condition::RoutFraction {
                            side: *side,
                            more_than: *more_than,
                        }
                    }
                    scenario::Condition::RoutOrExit {
                        side,
                        troop_type,
                        count,
                    } => Condition::RoutOrExit {
                        side: *side,
                        troop: *troop_type,
                        count: *count,
                    },
                    scenario::Condition::HoldArea { side, area } => Condition::HoldArea {
                        side: *side,
                        name: area.name.clone(),
                        min: area.min,
                        max: area.max,
                    },
                },
            })
            .collect();
        Ok(GameSetup {
            battlefield,
            forces,
            first: scenario.first,
            turns: scenario.turns,
            victory,
        })
    }
}

/// A point `inset` inches in from the middle of `edge`.
fn edge_middle(edge: Edge, width: f64, height: f64, inset: f64) -> Point {
    match edge {
        Edge::North => Point::new(width / 2.0, height - inset),
        Edge::South => Point::new(width / 2.0, inset),
        Edge::East => Point::new(width - inset, height / 2.0),
        Edge::West => Point::new(inset, height / 2.0),
    }
}
