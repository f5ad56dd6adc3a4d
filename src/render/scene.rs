//! What a map shows: the table and, for each side, its units and generals
//! where they stand now. A scenario gives the scene before the battle; a
//! game in progress gives the scene as it is. Map and SVG renderers draw
//! scenes, so they do not care which.

use super::map::unit_label;
use crate::battlefield::{Base, Battlefield, Edge};
use crate::scenario::Scenario;

/// The table and everything on it.
#[derive(Debug, Clone)]
pub struct Scene<'a> {
    /// The title line.
    pub title: String,
    /// The table.
    pub battlefield: &'a Battlefield,
    /// Each side in scenario order.
    pub sides: Vec<SceneSide>,
}

/// A side in a scene.
#[derive(Debug, Clone)]
pub struct SceneSide {
    /// The side's name.
    pub name: String,
    /// Its own table edge.
    pub edge: Edge,
    /// Its units, in scenario order.
    pub units: Vec<SceneUnit>,
    /// Its generals.
    pub generals: Vec<SceneGeneral>,
    /// Names of units waiting off table.
    pub reserves: Vec<String>,
}

/// A unit in a scene.
#[derive(Debug, Clone)]
pub struct SceneUnit {
    /// Its map label, e.g. `B3`.
    pub label: String,
    /// Its name.
    pub name: String,
    /// Its troop type's name.
    pub troop: String,
    /// Where it stands, if on the table.
    pub base: Option<Base>,
    /// Said in the legend after the unit: where it is, or why it is not.
    pub note: String,
}

/// A general in a scene.
#[derive(Debug, Clone)]
pub struct SceneGeneral {
    /// Its map label, e.g. `BG1`.
    pub label: String,
    /// His name.
    pub name: String,
    /// Where he stands, if on the table.
    pub base: Option<Base>,
}

/// A general's map label: the side's initial, `G`, and his number.
pub fn general_label(side_name: &str, index: usize) -> String {
    let initial = side_name.chars().next().unwrap_or('?').to_ascii_uppercase();
    format!("{initial}G{}", index + 1)
}

/// "at X,Y facing north" for a base.
pub fn placement(base: &Base) -> String {
    format!(
        "at {} facing {}",
        base.centre,
        super::map::compass(base.facing)
    )
}

impl<'a> Scene<'a> {
    /// The scene a scenario sets before the battle.
    pub fn of_scenario(scenario: &'a Scenario) -> Scene<'a> {
        let rules = &scenario.battlefield.ruleset;
        let sides = scenario
            .sides
            .iter()
            .enumerate()
            .map(|(side_index, side)| SceneSide {
                name: side.name.clone(),
                edge: side.edge,
                units: side
                    .units
                    .iter()
                    .enumerate()
                    .map(|(unit_index, unit)| SceneUnit {
                        label: unit_label(scenario, side_index, unit_index),
                        name: unit.name.clone(),
                        troop: rules.troop(unit.troop).name.clone(),
                        base: unit.base,
                        note: match &unit.base {
                            Some(base) => placement(base),
                            None => "to be placed in its zone".to_string(),
                        },
                    })
                    .collect(),
                generals: side
                    .generals
                    .iter()
                    .enumerate()
                    .map(|(index, general)| SceneGeneral {
                        label: general_label(&side.name, index),
                        name: general.name.clone(),
                        base: general.base,
                    })
                    .collect(),
                reserves: side.reserves.iter().map(|unit| unit.name.clone()).collect(),
            })
            .collect();
        Scene {
            title: scenario.title.clone(),
            battlefield: &scenario.battlefield,
            sides,
        }
    }
}
