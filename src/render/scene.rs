//! What a map shows: the table and, for each side, its units and generals
//! where they stand now. A scenario gives the scene before the battle; a
//! game in progress gives the scene as it is. Map and SVG renderers draw
//! scenes, so they do not care which.

use crate::battlefield::{Base, Battlefield, Edge, Point};
use crate::render::play::Names;
use crate::rules::{Event, Status, UnitId};
use crate::ruleset::Category;
use crate::scenario::label::unit_label;
use crate::scenario::{Condition, Scenario};

pub use crate::scenario::label::general_label;

/// The table and everything on it.
#[derive(Debug, Clone)]
pub struct Scene<'a> {
    /// The title line.
    pub title: String,
    /// The table.
    pub battlefield: &'a Battlefield,
    /// A second line under the title: the turn and phase of a game.
    pub caption: Option<String>,
    /// Each side in scenario order.
    pub sides: Vec<SceneSide>,
    /// What happened in the last bound, drawn as arrows.
    pub arrows: Vec<SceneArrow>,
    /// What a unit's `hits` count: hits (seeds 000 and 002) or bases
    /// lost (seed 001).
    pub damage: Damage,
    /// The areas the scenario names (its objectives), drawn as outlines.
    pub areas: Vec<SceneArea>,
}

/// An area the scenario names, drawn as an outline and named in the key.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneArea {
    /// Its name.
    pub name: String,
    /// Its south-west corner.
    pub min: Point,
    /// Its north-east corner.
    pub max: Point,
    /// The sides that win by holding it at the end (none: the scenario
    /// only names it).
    pub held_by: Vec<String>,
}

impl SceneArea {
    /// What it is to the game, in words, for a key.
    pub fn note(&self) -> String {
        if self.held_by.is_empty() {
            "named by the scenario".to_string()
        } else {
            format!(
                "objective: the {} win by holding it at the end",
                self.held_by.join(" or the ")
            )
        }
    }
}

/// The areas `scenario` names, each with what its victory conditions make
/// of it, in the scenario's order.
pub fn areas(scenario: &Scenario) -> Vec<SceneArea> {
    scenario
        .areas
        .iter()
        .map(|area| {
            let held_by: Vec<String> = scenario
                .victory
                .iter()
                .filter_map(|victory| match &victory.when {
                    Condition::HoldArea { side, area: held } if held.name == area.name => {
                        scenario.sides.get(*side).map(|s| s.name.clone())
                    }
                    _ => None,
                })
                .collect();
            SceneArea {
                name: area.name.clone(),
                min: area.min,
                max: area.max,
                held_by,
            }
        })
        .collect()
}

/// What a [`SceneUnit`]'s `hits` count, for the words that show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Damage {
    /// Hits taken; the unit routs (or is removed) at `rout_at`.
    #[default]
    Hits,
    /// Bases lost; the unit is gone when all `rout_at` are.
    BasesLost,
}

impl Damage {
    /// `count` in words: "1 hit", "3 hits", "1 base lost", "2 bases lost".
    pub fn count(self, count: u32) -> String {
        let plural = if count == 1 { "" } else { "s" };
        match self {
            Damage::Hits => format!("{count} hit{plural}"),
            Damage::BasesLost => format!("{count} base{plural} lost"),
        }
    }

    /// The legend's line for the bar of cells.
    pub fn legend(self) -> &'static str {
        match self {
            Damage::Hits => "hits: one cell each, full routs",
            Damage::BasesLost => "bases lost: one cell each, full when all are gone",
        }
    }
}

/// What an arrow shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrowKind {
    /// A unit or a general moved.
    Move,
    /// A unit charged.
    Charge,
    /// A unit fired at another.
    Fire,
    /// A unit fell back after a melee or a rout.
    Retreat,
}

impl ArrowKind {
    /// The kind in words, for legends.
    pub fn title(self) -> &'static str {
        match self {
            ArrowKind::Move => "move",
            ArrowKind::Charge => "charge",
            ArrowKind::Fire => "shot",
            ArrowKind::Retreat => "retreat",
        }
    }
}

/// One thing done in the last bound, from where to where.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneArrow {
    /// What was done.
    pub kind: ArrowKind,
    /// The side that did it (its index in [`Scene::sides`]).
    pub side: usize,
    /// Where it started.
    pub from: Point,
    /// Where it ended (for a shot, the target).
    pub to: Point,
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
    /// Its troop type's category (foot, skirmishers, horse, guns).
    pub category: Category,
    /// Hits taken so far (none before the battle).
    pub hits: u32,
    /// The hits at which it routs, if it can rout.
    pub rout_at: Option<u32>,
    /// Where it stands, if on the table.
    pub base: Option<Base>,
    /// Said in the legend after the unit: where it is, or why it is not.
    pub note: String,
    /// The state foe keeps of one of its units, in words (`column,
    /// disordered`): said in the legend and the SVG tooltip.
    pub state: Option<String>,
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

/// The nearest of the eight compass points, in words.
pub fn compass(degrees: f64) -> &'static str {
    const NAMES: [&str; 8] = [
        "north",
        "north-east",
        "east",
        "south-east",
        "south",
        "south-west",
        "west",
        "north-west",
    ];
    NAMES[((degrees.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

/// "at X,Y facing north" for a base.
pub fn placement(base: &Base) -> String {
    format!("at {} facing {}", base.centre, compass(base.facing))
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
                        category: rules.troop(unit.troop).category,
                        hits: 0,
                        rout_at: None,
                        base: unit.base,
                        note: match &unit.base {
                            Some(base) => placement(base),
                            None => "to be placed in its zone".to_string(),
                        },
                        state: None,
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
            caption: None,
            battlefield: &scenario.battlefield,
            sides,
            arrows: Vec::new(),
            damage: Damage::Hits,
            areas: areas(scenario),
        }
    }

    /// The scene of a seed-000 game as it stands now, with the last
    /// bound's moves, shots and charges as arrows.
    pub fn of_view(game: super::play::View<'a>) -> Scene<'a> {
        let state = game.state();
        let names = Names::new(game.scenario, state);
        let sides = state
            .sides
            .iter()
            .enumerate()
            .map(|(side_index, side)| SceneSide {
                name: side.name.clone(),
                edge: side.edge,
                units: state
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(_, unit)| unit.side == side_index)
                    .map(|(index, unit)| SceneUnit {
                        label: names.label(UnitId(index)).to_string(),
                        name: unit.name.clone(),
                        troop: state.battlefield.ruleset.troop(unit.troop).name.clone(),
                        category: unit.category,
                        hits: unit.hits,
                        rout_at: state.rules.rout_threshold(unit.category),
                        base: unit.is_active().then_some(unit.base),
                        note: match unit.status {
                            Status::Active => {
                                format!(
                                    "{}, {}",
                                    placement(&unit.base),
                                    crate::names::hits(unit.hits)
                                )
                            }
                            Status::Routed => "routed".into(),
                            Status::Exited => "driven off the table".into(),
                            Status::Reserve => "in reserve off table".into(),
                        },
                        state: super::play::unit_state(&game, UnitId(index))
                            .map(|state| state.to_string()),
                    })
                    .collect(),
                generals: state
                    .generals
                    .iter()
                    .filter(|general| general.side == side_index)
                    .enumerate()
                    .map(|(index, general)| SceneGeneral {
                        label: general_label(&side.name, index),
                        name: general.name.clone(),
                        base: Some(general.base),
                    })
                    .collect(),
                reserves: Vec::new(),
            })
            .collect();
        let caption = if state.is_over() {
            format!(
                "after turn {} of {}: the game is over",
                state.turn, state.turns
            )
        } else {
            format!(
                "turn {} of {}: {} {} phase",
                state.turn,
                state.turns,
                state.sides[state.active].name,
                state.phase()
            )
        };
        Scene {
            title: game.scenario.title.clone(),
            caption: Some(caption),
            battlefield: &state.battlefield,
            sides,
            arrows: last_bound_arrows(&game),
            damage: Damage::Hits,
            areas: areas(game.scenario),
        }
    }
}

/// The arrows of the last bound: everything done since the previous side's
/// turn began, so at the start of the player's turn they show the enemy's
/// bound, and later the player's own moves too.
pub fn last_bound_arrows(game: &super::play::View<'_>) -> Vec<SceneArrow> {
    let state = game.state();
    let events: Vec<&Event> = game.log().iter().flat_map(|entry| entry.events()).collect();
    let began: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, event)| matches!(event, Event::TurnBegan { .. }))
        .map(|(index, _)| index)
        .collect();
    let from = match began.as_slice() {
        [.., before, _] => *before,
        [only] => *only,
        [] => 0,
    };
    let side_of = |unit: &UnitId| state.unit(*unit).side;
    events[from..]
        .iter()
        .filter_map(|event| match event {
            Event::Moved { unit, from, to, .. } => Some(SceneArrow {
                kind: ArrowKind::Move,
                side: side_of(unit),
                from: *from,
                to: *to,
            }),
            Event::GeneralMoved { general, from, to } => Some(SceneArrow {
                kind: ArrowKind::Move,
                side: state.general(*general).side,
                from: *from,
                to: *to,
            }),
            Event::Charged { unit, from, to, .. } => Some(SceneArrow {
                kind: ArrowKind::Charge,
                side: side_of(unit),
                from: *from,
                to: *to,
            }),
            Event::Retreated { unit, from, to, .. } => Some(SceneArrow {
                kind: ArrowKind::Retreat,
                side: side_of(unit),
                from: *from,
                to: *to,
            }),
            Event::Fired { unit, target, .. } => Some(SceneArrow {
                kind: ArrowKind::Fire,
                side: side_of(unit),
                from: state.unit(*unit).base.centre,
                to: state.unit(*target).base.centre,
            }),
            _ => None,
        })
        .filter(|arrow| arrow.from.distance(arrow.to) > 1e-6)
        .collect()
}
