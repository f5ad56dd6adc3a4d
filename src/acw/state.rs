//! The seed-002 game state: units with their formation, hits and
//! activation die; the dice still to assign; whose move it is; and the
//! setup a game starts from (built from a validated scenario).

use super::table::{AcwTable, Formation, Mode, OptionalRules};
use crate::battlefield::{Base, Battlefield, Edge, Point};
use crate::ruleset::{Category, TroopTypeId};
use crate::scenario::{self, GeneralCharacter, Scenario};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Index of a unit in [`GameState::units`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub usize);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}

/// One unit as a scenario places it.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitSetup {
    /// Unique name.
    pub name: String,
    /// Troop type in the rule set.
    pub troop: TroopTypeId,
    /// Where it stands and faces.
    pub base: Base,
    /// How it is drawn up.
    pub formation: Formation,
    /// The Lone Warrior reaction class the dice policy tests it with.
    pub reaction_class: Option<String>,
}

/// One side as a scenario gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceSetup {
    /// Name, e.g. `union`.
    pub name: String,
    /// Its own table edge.
    pub edge: Edge,
    /// Its units.
    pub units: Vec<UnitSetup>,
    /// Extra activation dice from good commanders (optional rule #3).
    pub extra_dice: u32,
}

/// Everything a game starts from.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The table.
    pub battlefield: Arc<Battlefield>,
    /// Exactly two sides.
    pub forces: Vec<ForceSetup>,
    /// The side that assigns first when the initiative rule is off.
    pub first: usize,
    /// Number of game turns.
    pub turns: u32,
    /// Victory conditions, in the scenario's order.
    pub victory: Vec<scenario::Victory>,
    /// The optional rules in force (the caller may change them).
    pub optional: OptionalRules,
}

/// A setup that cannot be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// Not two sides.
    #[error("a game needs exactly two sides, not {0}")]
    Sides(usize),
    /// `first` or a condition names a side that does not exist.
    #[error("side index {0} does not exist")]
    NoSuchSide(usize),
    /// No turns.
    #[error("a game needs at least one turn")]
    NoTurns,
    /// A unit that cannot start as placed.
    #[error("unit `{name}` {problem}")]
    BadUnit {
        /// The unit.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// An optional rule the engine does not know.
    #[error("{0}")]
    OptionalRule(String),
}

impl GameSetup {
    /// The game a validated scenario describes, under `table`'s optional
    /// rules switched on by the scenario's `optional_rules`. Scenario
    /// formations map as ruling AC13 says: `limbered` is the march column,
    /// `skirmish` is cavalry dismounted (line for other troops).
    pub fn from_scenario(scenario: &Scenario, table: &AcwTable) -> Result<GameSetup, SetupError> {
        let battlefield = scenario.battlefield.clone();
        let ruleset = &battlefield.ruleset;
        let mut optional = table.optional;
        for name in &scenario.optional_rules {
            optional.set(name, true).map_err(SetupError::OptionalRule)?;
        }
        let mut forces = Vec::new();
        for side in &scenario.sides {
            let mut units = Vec::new();
            for unit in &side.units {
                let base = unit.base.ok_or_else(|| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "has not been placed".to_string(),
                })?;
                let category = ruleset.troop(unit.troop).category;
                let formation = match unit.formation {
                    scenario::Formation::Line => Formation::Line,
                    scenario::Formation::Column | scenario::Formation::Limbered => {
                        Formation::Column
                    }
                    scenario::Formation::Skirmish if category == Category::Cavalry => {
                        Formation::Dismounted
                    }
                    scenario::Formation::Skirmish => Formation::Line,
                };
                units.push(UnitSetup {
                    name: unit.name.clone(),
                    troop: unit.troop,
                    base,
                    formation,
                    reaction_class: unit.reaction_class.clone(),
                });
            }
            if !side.reserves.is_empty() {
                return Err(SetupError::BadUnit {
                    name: side.reserves[0].name.clone(),
                    problem: "is a reserve; the seed-002 engine has no reserves".to_string(),
                });
            }
            let good = side
                .generals
                .iter()
                .filter(|g| {
                    matches!(g.character, GeneralCharacter::Fixed(c) if table.good_characters.contains(&c))
                })
                .count();
            let extra_dice = u32::try_from(good)
                .unwrap_or(u32::MAX)
                .saturating_mul(table.extra_dice);
            forces.push(ForceSetup {
                name: side.name.clone(),
                edge: side.edge,
                units,
                extra_dice,
            });
        }
        Ok(GameSetup {
            battlefield,
            forces,
            first: scenario.first,
            turns: scenario.turns,
            victory: scenario.victory.clone(),
            optional,
        })
    }
}

/// A unit in play.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Its name.
    pub name: String,
    /// Index of its side.
    pub side: usize,
    /// Troop type.
    pub troop: TroopTypeId,
    /// Category of the troop type.
    pub category: Category,
    /// Where it stands and faces.
    pub base: Base,
    /// How it is drawn up.
    pub formation: Formation,
    /// Hits taken.
    pub hits: u32,
    /// Its activation die this turn, once assigned.
    pub die: Option<u8>,
    /// Re-rolls that broke ties with opposed units' equal dice, in order.
    pub tie_rolls: Vec<u8>,
    /// Acted (or used its die to fire at a charger) this turn.
    pub activated: bool,
    /// Removed from the table.
    pub removed: bool,
    /// The Lone Warrior reaction class.
    pub reaction_class: Option<String>,
}

impl Unit {
    /// How it crosses ground.
    pub fn mode(&self) -> Mode {
        match self.category {
            Category::Artillery => Mode::Guns,
            Category::Cavalry if self.formation != Formation::Dismounted => Mode::Mounted,
            _ => Mode::Foot,
        }
    }

    /// Whether it is mounted cavalry.
    pub fn mounted(&self) -> bool {
        self.mode() == Mode::Mounted
    }

    /// Whether it still holds a die it has not used.
    pub fn has_unused_die(&self) -> bool {
        !self.removed && self.die.is_some() && !self.activated
    }

    /// The order key: its die, then its tie re-rolls (compared in that
    /// order, the higher first).
    pub(crate) fn key(&self) -> (Option<u8>, &[u8]) {
        (self.die, &self.tie_rolls)
    }
}

/// One side in play.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Its name.
    pub name: String,
    /// Its own edge.
    pub edge: Edge,
    /// Extra dice from good commanders.
    pub extra_dice: u32,
}

/// Where the game is within a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "phase")]
pub enum Phase {
    /// Sides give their dice to their units.
    Assigning {
        /// The side giving a die now.
        side: usize,
    },
    /// Units act from the highest die down.
    Activating,
    /// A charge is declared; its target, not yet activated, may fire first.
    ChargeResponse {
        /// The charger.
        charger: UnitId,
        /// The target.
        target: UnitId,
    },
    /// The game is over.
    Over,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Assigning { side } => write!(f, "side {side} assigning dice"),
            Phase::Activating => write!(f, "activation"),
            Phase::ChargeResponse { target, .. } => {
                write!(f, "{target} answering a charge")
            }
            Phase::Over => write!(f, "game over"),
        }
    }
}

/// How the game ended, or that it has not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "outcome")]
pub enum Outcome {
    /// Still being played.
    Playing,
    /// A side won.
    Won {
        /// The winner.
        side: usize,
        /// Which of the scenario's victory conditions (its index).
        condition: usize,
        /// Why, in words.
        reason: String,
    },
    /// Nobody won by the last turn.
    Draw,
}

/// The whole state of a seed-002 game.
#[derive(Debug, Clone)]
pub struct GameState {
    /// The rules' numbers.
    pub table: Arc<AcwTable>,
    /// The table.
    pub battlefield: Arc<Battlefield>,
    /// The two sides.
    pub sides: Vec<Side>,
    /// Every unit, in setup order (side 0's first).
    pub units: Vec<Unit>,
    /// The optional rules in force.
    pub optional: OptionalRules,
    /// Victory conditions.
    pub victory: Vec<scenario::Victory>,
    /// The side that assigns first when the initiative rule is off.
    pub first: usize,
    /// Game turns in all.
    pub turns: u32,
    /// The current turn, from 1.
    pub turn: u32,
    /// Where the game is.
    pub phase: Phase,
    /// Each side's dice not yet assigned, highest first.
    pub pools: [Vec<u8>; 2],
    /// The shared pile when drafting (optional rule #2), highest first.
    pub pile: Vec<u8>,
    /// The result.
    pub outcome: Outcome,
}

impl GameState {
    /// The current turn, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Where the game is within the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the game stands.
    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }

    /// The unit with this id. Panics on an id from another game.
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.0]
    }

    /// Ids of a side's units still on the table.
    pub fn active_units(&self, side: usize) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == side && !u.removed)
            .map(|(i, _)| UnitId(i))
    }

    /// Where a unit's centre is.
    pub fn position(&self, id: UnitId) -> Point {
        self.unit(id).base.centre
    }

    /// Which way a unit faces, compass degrees.
    pub fn facing(&self, id: UnitId) -> f64 {
        self.unit(id).base.facing
    }

    /// A unit's strength left, as a fraction (1 fresh, 0 removed).
    pub fn strength(&self, id: UnitId) -> f64 {
        let unit = self.unit(id);
        if unit.removed {
            return 0.0;
        }
        let left = self.table.removed_at.saturating_sub(unit.hits);
        f64::from(left) / f64::from(self.table.removed_at.max(1))
    }

    /// A unit's strength points left (the hits it can still take).
    pub fn strength_points(&self, id: UnitId) -> u32 {
        let unit = self.unit(id);
        if unit.removed {
            0
        } else {
            self.table.removed_at.saturating_sub(unit.hits)
        }
    }

    /// A unit's formation.
    pub fn formation(&self, id: UnitId) -> Formation {
        self.unit(id).formation
    }

    /// Whether a unit stands in cover (its centre in a cover terrain kind).
    pub fn in_cover(&self, id: UnitId) -> bool {
        let centre = self.unit(id).base.centre;
        self.battlefield
            .terrain_at(centre)
            .iter()
            .any(|kind| self.table.cover.contains(kind))
    }

    /// Whether a unit has been removed.
    pub fn removed(&self, id: UnitId) -> bool {
        self.unit(id).removed
    }

    /// The dice the side to assign may give now: its own pool, or the
    /// shared pile when drafting.
    pub fn dice_to_assign(&self, side: usize) -> &[u8] {
        if self.optional.draft {
            &self.pile
        } else {
            self.pools.get(side).map_or(&[], |pool| pool.as_slice())
        }
    }

    /// A side's units still waiting for a die.
    pub fn unassigned(&self, side: usize) -> impl Iterator<Item = UnitId> + '_ {
        self.active_units(side)
            .filter(|id| self.unit(*id).die.is_none())
    }
}
