//! The game state: who stands where with how many hits, whose turn and
//! phase it is, and who has won. Built from a [`GameSetup`] (what a
//! scenario says) by [`GameState::new`], which rolls what the scenario
//! leaves to the dice.

use super::event::Event;
use super::id::{GeneralId, UnitId};
use super::spatial::Units;
use super::table::{Phase, Quality, RulesTable, Supply};
use crate::battlefield::{Base, Battlefield, Edge, Point};
use crate::dice::{Die, Roller};
use crate::ruleset::{Category, TroopTypeId};
use crate::tables::{Character, Characters};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One unit as a scenario places it.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitSetup {
    /// Unique name.
    pub name: String,
    /// Troop type in the rule set.
    pub troop: TroopTypeId,
    /// Where it stands and faces (for a reserve, where it would enter).
    pub base: Base,
    /// Waits off table until it enters (seed 004 reserves).
    pub reserve: bool,
}

/// One general as a scenario places him.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneralSetup {
    /// His name.
    pub name: String,
    /// Where he stands.
    pub base: Base,
    /// Fixed character, or `None` to roll one on d100 when the game starts.
    pub character: Option<Character>,
    /// Rally attempts for the game as the scenario gives them; when `None`
    /// they come from the seed's guidelines (see [`rally_budget`]).
    pub rallies: Option<u32>,
    /// Quality for the guidelines; the rule set's default when `None`.
    pub quality: Option<Quality>,
}

/// One side as a scenario gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceSetup {
    /// Name, e.g. `british`.
    pub name: String,
    /// Its own table edge.
    pub edge: Edge,
    /// Its units.
    pub units: Vec<UnitSetup>,
    /// Its generals.
    pub generals: Vec<GeneralSetup>,
    /// Supply for the rally guidelines; the rule set's default when `None`.
    pub supply: Option<Supply>,
}

/// What wins, as data.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// More than `more_than` of `side`'s units routed (or driven off).
    RoutFraction {
        /// The side that must lose them.
        side: usize,
        /// The fraction to exceed.
        more_than: f64,
    },
    /// `count` units of `troop` of `side` routed or driven off the table.
    RoutOrExit {
        /// The side that must lose them.
        side: usize,
        /// Their troop type.
        troop: TroopTypeId,
        /// How many.
        count: u32,
    },
    /// At the end of the game `side` has a unit in the area and the enemy none.
    HoldArea {
        /// The side that must hold it.
        side: usize,
        /// The area's name.
        name: String,
        /// South-west corner.
        min: Point,
        /// North-east corner.
        max: Point,
    },
}

/// A victory condition and who it wins for.
#[derive(Debug, Clone, PartialEq)]
pub struct Victory {
    /// Index of the winning side.
    pub winner: usize,
    /// What must happen.
    pub when: Condition,
}

/// Everything a game starts from (an unchecked scenario turned into the
/// engine's terms). [`GameState::new`] validates it.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The table.
    pub battlefield: Arc<Battlefield>,
    /// Exactly two sides.
    pub forces: Vec<ForceSetup>,
    /// Index of the side that moves first each game turn.
    pub first: usize,
    /// Number of game turns.
    pub turns: u32,
    /// Victory conditions, in the scenario's order.
    pub victory: Vec<Victory>,
}

/// Whether a unit is still in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// On the table.
    Active,
    /// Routed and removed.
    Routed,
    /// Driven off the table by a retreat.
    Exited,
    /// Waiting off table to enter (seed 004 reserves and reinforcements).
    Reserve,
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
    /// Hits taken.
    pub hits: u32,
    /// Moved (or pivoted, or charged) this player turn.
    pub moved: bool,
    /// Made its start-of-move pivot this player turn.
    pub pivoted: bool,
    /// Fired this player turn.
    pub fired: bool,
    /// The enemy it charged this player turn, until the melee is fought.
    pub charging: Option<UnitId>,
    /// Whether it charged from the target's flank or rear.
    pub charge_in_flank: bool,
    /// In play, routed or driven off.
    pub status: Status,
}

impl Unit {
    /// A unit waiting off table.
    pub fn reserve(
        name: String,
        side: usize,
        troop: TroopTypeId,
        category: Category,
        base: Base,
    ) -> Unit {
        Unit {
            name,
            side,
            troop,
            category,
            base,
            hits: 0,
            moved: false,
            pivoted: false,
            fired: false,
            charging: None,
            charge_in_flank: false,
            status: Status::Reserve,
        }
    }

    /// Whether the unit is waiting off table.
    pub fn is_reserve(&self) -> bool {
        self.status == Status::Reserve
    }

    /// Whether the unit is on the table.
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }
}

/// A general in play.
#[derive(Debug, Clone, PartialEq)]
pub struct General {
    /// His name.
    pub name: String,
    /// Index of his side.
    pub side: usize,
    /// Where he stands.
    pub base: Base,
    /// His character (Lone Warrior, for the opponent).
    pub character: Character,
    /// Rally attempts left this game.
    pub rallies_left: u32,
    /// Has attempted a rally this player turn.
    pub rallied: bool,
    /// Has moved this player turn.
    pub moved: bool,
}

/// One side's standing.
#[derive(Debug, Clone, PartialEq)]
pub struct SideState {
    /// Name.
    pub name: String,
    /// Own table edge.
    pub edge: Edge,
    /// Units it started with on the table, plus every reserve that has
    /// entered since (the count army resolve and rout fractions use).
    pub starting_units: usize,
    /// Army resolve has struck.
    pub resolve_spent: bool,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A side met a victory condition (index into the scenario's list).
    Won {
        /// Index of the winning side.
        side: usize,
        /// Index of the condition.
        condition: usize,
    },
    /// Neither side won by the last turn, or both did at once.
    Draw,
}

/// A problem with a game setup.
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
    /// A unit off the table, on impassable ground or overlapping another.
    #[error("unit `{name}` {problem}")]
    BadUnit {
        /// The unit.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

/// The whole state of a game.
#[derive(Debug, Clone)]
pub struct GameState {
    /// The table (shared: cloning a state for look-ahead is cheap).
    pub battlefield: Arc<Battlefield>,
    /// The rule numbers.
    pub rules: Arc<RulesTable>,
    /// The two sides.
    pub sides: Vec<SideState>,
    /// Every unit, in scenario order (side by side), with a spatial
    /// index of the active ones kept in step ([`Units`]).
    pub units: Units,
    /// Every general.
    pub generals: Vec<General>,
    /// Game turn, from 1.
    pub turn: u32,
    /// Game turns in all.
    pub turns: u32,
    /// Side that moves first each game turn.
    pub first: usize,
    /// Side to act.
    pub active: usize,
    /// Index into the rule set's phases.
    pub phase_index: usize,
    /// Victory conditions.
    pub victory: Vec<Victory>,
    /// Set when the game is over.
    pub outcome: Option<Outcome>,
    /// Charges made this player turn, in order: (charger, target).
    pub charges: Vec<(UnitId, UnitId)>,
}

/// The seed-000 guideline rally budget for a general of `quality` leading
/// `units` with `supply`: +1 per unit of the listed types, plus the general's
/// quality, plus supply; never below 0.
pub fn rally_budget(
    rules: &RulesTable,
    units: impl IntoIterator<Item = TroopTypeId>,
    quality: Quality,
    supply: Supply,
) -> u32 {
    let budget = &rules.budget;
    let from_units: i32 = units
        .into_iter()
        .map(|troop| {
            budget
                .per_unit
                .iter()
                .find(|(id, _)| *id == troop)
                .map_or(0, |(_, n)| *n)
        })
        .sum();
    let total = from_units
        + budget.general.get(&quality).copied().unwrap_or(0)
        + budget.supply.get(&supply).copied().unwrap_or(0);
    total.max(0) as u32
}

impl GameState {
    /// Start a game: validate the setup, roll rolled generals' characters on
    /// d100 (in side order, general order), and set the first player turn's
    /// movement phase. Returns the events of the set-up rolls too.
    pub fn new(
        setup: GameSetup,
        rules: Arc<RulesTable>,
        characters: &Characters,
        roller: &mut dyn Roller,
    ) -> Result<(GameState, Vec<Event>), SetupError> {
        if setup.forces.len() != 2 {
            return Err(SetupError::Sides(setup.forces.len()));
        }
        if setup.first >= 2 {
            return Err(SetupError::NoSuchSide(setup.first));
        }
        if setup.turns == 0 {
            return Err(SetupError::NoTurns);
        }
        for victory in &setup.victory {
            let side = match &victory.when {
                Condition::RoutFraction { side, .. }
                | Condition::RoutOrExit { side, .. }
                | Condition::HoldArea { side, .. } => *side,
            };
            if side >= 2 || victory.winner >= 2 {
                return Err(SetupError::NoSuchSide(side.max(victory.winner)));
            }
        }
        let battlefield = setup.battlefield;
        let mut units: Vec<Unit> = Vec::new();
        let mut generals = Vec::new();
        let mut sides = Vec::new();
        let mut events = Vec::new();
        for (side_index, force) in setup.forces.iter().enumerate() {
            for unit in &force.units {
                let bad = |problem: &str| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: problem.to_string(),
                };
                if units.iter().any(|u| u.name == unit.name) {
                    return Err(bad("shares its name with another unit"));
                }
                if unit.reserve {
                    units.push(Unit::reserve(
                        unit.name.clone(),
                        side_index,
                        unit.troop,
                        battlefield.category(unit.troop),
                        unit.base,
                    ));
                    continue;
                }
                if !battlefield.base_on_table(&unit.base) {
                    return Err(bad("is off the table"));
                }
                let passable = battlefield
                    .grid
                    .cell_at(unit.base.centre)
                    .is_some_and(|cell| battlefield.passable(unit.troop, cell));
                if !passable {
                    return Err(bad("stands on ground it cannot enter"));
                }
                if let Some(other) = units.iter().find(|u| u.base.overlaps(&unit.base)) {
                    return Err(bad(&format!("overlaps `{}`", other.name)));
                }
                units.push(Unit {
                    name: unit.name.clone(),
                    side: side_index,
                    troop: unit.troop,
                    category: battlefield.category(unit.troop),
                    base: unit.base,
                    hits: 0,
                    moved: false,
                    pivoted: false,
                    fired: false,
                    charging: None,
                    charge_in_flank: false,
                    status: Status::Active,
                });
            }
            let supply = force.supply.unwrap_or(rules.budget.default_supply);
            for general in &force.generals {
                let character = match general.character {
                    Some(character) => character,
                    None => {
                        let roll = roller
                            .roll_for(Die::D100, format_args!("the character of {}", general.name));
                        let character = characters.roll(roll);
                        events.push(Event::CharacterRolled {
                            general: GeneralId(generals.len()),
                            roll,
                            character,
                        });
                        character
                    }
                };
                let quality = general.quality.unwrap_or(rules.budget.default_general);
                // A scenario's own number wins over the guidelines.
                let rallies = general.rallies.unwrap_or_else(|| {
                    rally_budget(&rules, force.units.iter().map(|u| u.troop), quality, supply)
                });
                generals.push(General {
                    name: general.name.clone(),
                    side: side_index,
                    base: general.base,
                    character,
                    rallies_left: rallies,
                    rallied: false,
                    moved: false,
                });
            }
            sides.push(SideState {
                name: force.name.clone(),
                edge: force.edge,
                starting_units: force.units.iter().filter(|u| !u.reserve).count(),
                resolve_spent: false,
            });
        }
        let state = GameState {
            battlefield,
            rules,
            sides,
            units: units.into(),
            generals,
            turn: 1,
            turns: setup.turns,
            first: setup.first,
            active: setup.first,
            phase_index: 0,
            victory: setup.victory,
            outcome: None,
            charges: Vec::new(),
        };
        events.push(Event::TurnBegan {
            turn: 1,
            side: state.active,
        });
        Ok((state, events))
    }

    /// The phase the side to act is in.
    pub fn phase(&self) -> Phase {
        self.rules.phases[self.phase_index].phase
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The unit with this id.
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.0]
    }

    /// The general with this id.
    pub fn general(&self, id: GeneralId) -> &General {
        &self.generals[id.0]
    }

    /// Ids of the units of `side` still on the table.
    pub fn active_units(&self, side: usize) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == side && u.is_active())
            .map(|(index, _)| UnitId(index))
    }

    /// Units of `side` routed or driven off the table.
    pub fn lost(&self, side: usize) -> usize {
        self.units
            .iter()
            .filter(|u| u.side == side && matches!(u.status, Status::Routed | Status::Exited))
            .count()
    }

    /// The unit named `name` (exact, ignoring case).
    pub fn find_unit(&self, name: &str) -> Option<UnitId> {
        self.units
            .iter()
            .position(|u| u.name.eq_ignore_ascii_case(name))
            .map(UnitId)
    }

    /// The general named `name` (exact, ignoring case).
    pub fn find_general(&self, name: &str) -> Option<GeneralId> {
        self.generals
            .iter()
            .position(|g| g.name.eq_ignore_ascii_case(name))
            .map(GeneralId)
    }

    /// The other side.
    pub fn enemy_of(side: usize) -> usize {
        1 - side
    }

    /// Whether `base` is in cover against an enemy whose centre is at
    /// `from`: the cover-giving terrain it stands in, or under the part of
    /// its base facing `from` (seed 000 "target in cover": a fence counts
    /// for the side it faces, not for an enemy behind it).
    pub fn in_cover(&self, base: &Base, from: crate::battlefield::Point) -> bool {
        self.battlefield.in_cover_from(base, from)
    }
}
