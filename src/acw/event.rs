//! The seed-002 engine's whole interface: the [`Action`]s a side takes, the
//! [`Event`]s that record every roll and consequence, and the [`Refusal`]
//! that names the rule an action breaks.

use super::state::UnitId;
use super::table::Formation;
use crate::battlefield::Point;
use crate::battlefield::geometry::trim;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Something the side to act does. A game is a scenario, a seed and a list
/// of these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum Action {
    /// Give one of the side's unassigned dice (by its face) to a unit.
    AssignDie {
        /// The face of the die.
        die: u8,
        /// The unit that takes it.
        unit: UnitId,
    },
    /// The activated unit moves: an optional formation change first (its
    /// cost comes off the move), then straight to `to`, then faces `facing`.
    Move {
        /// Who.
        unit: UnitId,
        /// The formation to change to before moving, if any.
        formation: Option<Formation>,
        /// Where the centre ends.
        to: Point,
        /// Facing at the end, compass degrees.
        facing: f64,
    },
    /// The activated unit fires at an enemy.
    Fire {
        /// Who.
        unit: UnitId,
        /// At whom.
        target: UnitId,
    },
    /// The activated unit charges an enemy: it turns to face it, then
    /// advances straight into contact.
    Charge {
        /// The charger.
        unit: UnitId,
        /// The enemy charged.
        target: UnitId,
    },
    /// The activated unit does nothing.
    Hold {
        /// Who.
        unit: UnitId,
    },
    /// The activated unit breaks and leaves the table as routed: the Lone
    /// Warrior opponent's rout order (seed 004, rulings O12 and HO13). It
    /// counts as lost from then on. Never listed by `legal_actions`: it is
    /// an order, not a player's choice.
    Rout {
        /// Who.
        unit: UnitId,
    },
    /// The target of a charge, not yet activated, fires first (using up its
    /// die) or lets the charge come on.
    Respond {
        /// The unit charged.
        unit: UnitId,
        /// Whether it fires.
        fire: bool,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::AssignDie { die, unit } => write!(f, "assign {die} to {unit}"),
            Action::Move {
                unit,
                formation,
                to,
                facing,
            } => {
                write!(f, "{unit} ")?;
                if let Some(formation) = formation {
                    write!(f, "forms {formation} and ")?;
                }
                write!(f, "moves to {to} facing {}°", trim(*facing))
            }
            Action::Fire { unit, target } => write!(f, "{unit} fires at {target}"),
            Action::Charge { unit, target } => write!(f, "{unit} charges {target}"),
            Action::Hold { unit } => write!(f, "{unit} holds"),
            Action::Rout { unit } => write!(f, "{unit} routs"),
            Action::Respond { unit, fire: true } => write!(f, "{unit} fires at its charger"),
            Action::Respond { unit, fire: false } => write!(f, "{unit} holds its fire"),
        }
    }
}

/// A modifier as it was counted: its label and value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// What it is for.
    pub label: String,
    /// Its value.
    pub add: i32,
}

/// Why a unit left the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Removal {
    /// Reached the hits that remove a unit.
    Casualties,
    /// Caught by a charge in march column.
    CaughtInColumn,
    /// Guns overrun by a charge.
    GunsOverrun,
    /// Retreated off the table.
    OffTable,
    /// Routed on a Lone Warrior rout order (ruling HO13).
    Routed,
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Removal::Casualties => "worn out by casualties",
            Removal::CaughtInColumn => "caught in march column",
            Removal::GunsOverrun => "guns overrun",
            Removal::OffTable => "retreated off the table",
            Removal::Routed => "routed off the field",
        })
    }
}

/// Something that happened, with every roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A game turn begins.
    TurnBegan {
        /// Its number, from 1.
        turn: u32,
    },
    /// Optional rule #1: each side rolled for the initiative (re-rolling ties).
    InitiativeRolled {
        /// Each throw, side 0's die then side 1's.
        rolls: Vec<[u8; 2]>,
        /// The winner; the loser assigns first.
        winner: usize,
    },
    /// Activation dice thrown, for one side or (drafting) the shared pile.
    DiceRolled {
        /// The side, or `None` for the shared pile.
        side: Option<usize>,
        /// The faces, highest first.
        dice: Vec<u8>,
    },
    /// Dice set aside: the worst of a good commander's extra dice, or what
    /// was left in the pile.
    DiceDiscarded {
        /// The side, or `None` for the shared pile.
        side: Option<usize>,
        /// The faces.
        dice: Vec<u8>,
    },
    /// A side gave a die to a unit.
    DieAssigned {
        /// The side.
        side: usize,
        /// The unit.
        unit: UnitId,
        /// The face.
        die: u8,
    },
    /// Opposed units with equal dice threw again; higher goes first.
    TieRolled {
        /// The unit.
        unit: UnitId,
        /// Its new throw.
        roll: u8,
    },
    /// A unit's die came up: it acts now.
    Activated {
        /// The unit.
        unit: UnitId,
        /// Its die.
        die: u8,
    },
    /// It did nothing.
    Held {
        /// The unit.
        unit: UnitId,
    },
    /// It changed formation at the start of its move.
    FormationChanged {
        /// The unit.
        unit: UnitId,
        /// Before.
        from: Formation,
        /// After.
        to: Formation,
        /// Inches it cost.
        cost: f64,
    },
    /// It moved.
    Moved {
        /// The unit.
        unit: UnitId,
        /// Where its centre was.
        from: Point,
        /// Where its centre is.
        to: Point,
        /// Its facing now.
        facing: f64,
        /// Inches of allowance used (terrain, towns, friends passed).
        used: f64,
        /// Its allowance.
        allowance: f64,
    },
    /// It passed through a friend that had not yet acted.
    PassedThrough {
        /// The unit moving.
        unit: UnitId,
        /// The friend.
        friend: UnitId,
    },
    /// A unit fired.
    Fired {
        /// The shooter.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The die.
        roll: u8,
        /// The modifiers counted.
        modifiers: Vec<Modifier>,
        /// Whether the result was divided for cover.
        halved_for_cover: bool,
        /// Hits scored.
        hits: u32,
    },
    /// A charge was declared.
    ChargeDeclared {
        /// The charger.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Whether it comes in on the target's flank or rear.
        flank_or_rear: bool,
    },
    /// The charger reached the target.
    Contact {
        /// The charger.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The charger's centre now.
        at: Point,
    },
    /// The melee: only the charger inflicts hits.
    Melee {
        /// The charger.
        unit: UnitId,
        /// The defender.
        target: UnitId,
        /// The die.
        roll: u8,
        /// The modifiers counted.
        modifiers: Vec<Modifier>,
        /// What halved the result (uphill, mounted cavalry, town or woods).
        halved: Vec<String>,
        /// Whether it was doubled for a flank or rear attack.
        doubled: bool,
        /// Hits on the defender.
        hits: u32,
    },
    /// The repulsed charger fell back, still facing the defender.
    Retreated {
        /// The unit.
        unit: UnitId,
        /// Where it was.
        from: Point,
        /// Where it is.
        to: Point,
    },
    /// A unit took hits outside fire and melee (a retreat through it).
    Damaged {
        /// The unit.
        unit: UnitId,
        /// Hits taken.
        hits: u32,
    },
    /// A unit left the table.
    Removed {
        /// The unit.
        unit: UnitId,
        /// Why.
        reason: Removal,
    },
    /// Every die has been used: the game turn is over.
    TurnEnded {
        /// Its number.
        turn: u32,
    },
    /// The game is over.
    GameOver {
        /// The winner, or `None` for a draw.
        winner: Option<usize>,
        /// Why, in words.
        reason: String,
    },
}

fn faces(dice: &[u8]) -> String {
    dice.iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn whose(side: &Option<usize>) -> String {
    side.map_or_else(
        || "the shared pile".to_string(),
        |side| format!("side {side}"),
    )
}

fn listed(modifiers: &[Modifier]) -> String {
    modifiers
        .iter()
        .map(|m| format!("{} {:+}", m.label, m.add))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Events in short sentences naming the rule, with units by id (a renderer
/// that knows the names words them better).
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnBegan { turn } => write!(f, "turn {turn} begins"),
            Event::InitiativeRolled { rolls, winner } => {
                let throws: Vec<String> = rolls.iter().map(|[a, b]| format!("{a}-{b}")).collect();
                write!(
                    f,
                    "initiative (optional rule #1): {}; side {winner} wins",
                    throws.join(", then ")
                )
            }
            Event::DiceRolled { side, dice } => {
                write!(f, "activation dice for {}: {}", whose(side), faces(dice))
            }
            Event::DiceDiscarded { side, dice } => {
                write!(f, "{} discards {}", whose(side), faces(dice))
            }
            Event::DieAssigned { side, unit, die } => {
                write!(f, "side {side} gives {unit} a {die}")
            }
            Event::TieRolled { unit, roll } => {
                write!(f, "{unit} throws again for equal dice: {roll}")
            }
            Event::Activated { unit, die } => write!(f, "{unit} acts on its {die}"),
            Event::Held { unit } => write!(f, "{unit} does nothing"),
            Event::FormationChanged {
                unit,
                from,
                to,
                cost,
            } => write!(f, "{unit} changes from {from} to {to} ({}\")", trim(*cost)),
            Event::Moved {
                unit,
                to,
                facing,
                used,
                allowance,
                ..
            } => write!(
                f,
                "{unit} moves to {to} facing {}° ({:.1}\" of {:.1}\")",
                trim(*facing),
                used,
                allowance
            ),
            Event::PassedThrough { unit, friend } => {
                write!(f, "{unit} passes through {friend} (interpenetration)")
            }
            Event::Fired {
                unit,
                target,
                roll,
                modifiers,
                halved_for_cover,
                hits,
            } => {
                write!(f, "{unit} fires at {target}: {roll}")?;
                if !modifiers.is_empty() {
                    write!(f, " ({})", listed(modifiers))?;
                }
                if *halved_for_cover {
                    write!(f, ", halved for cover")?;
                }
                write!(f, ": {}", crate::names::hits(*hits))
            }
            Event::ChargeDeclared {
                unit,
                target,
                flank_or_rear,
            } => write!(
                f,
                "{unit} charges {target}{}",
                if *flank_or_rear {
                    " in flank or rear"
                } else {
                    ""
                }
            ),
            Event::Contact { unit, target, .. } => write!(f, "{unit} reaches {target}"),
            Event::Melee {
                unit,
                target,
                roll,
                modifiers,
                halved,
                doubled,
                hits,
            } => {
                write!(f, "melee: {unit} rolls {roll} ({})", listed(modifiers))?;
                if !halved.is_empty() {
                    write!(f, ", halved ({})", halved.join(", "))?;
                }
                if *doubled {
                    write!(f, ", doubled (flank or rear)")?;
                }
                write!(f, ": {} on {target}", crate::names::hits(*hits))
            }
            Event::Retreated { unit, from, to } => write!(
                f,
                "{unit} falls back {}\" facing the enemy",
                trim((from.distance(*to) * 10.0).round() / 10.0)
            ),
            Event::Damaged { unit, hits } => {
                write!(f, "{unit} takes {hits} hit passing through in a retreat")
            }
            Event::Removed { unit, reason } => write!(f, "{unit} is removed: {reason}"),
            Event::TurnEnded { turn } => write!(f, "turn {turn} ends: every die is used"),
            Event::GameOver {
                winner: Some(side),
                reason,
            } => write!(f, "side {side} wins: {reason}"),
            Event::GameOver {
                winner: None,
                reason,
            } => write!(f, "a draw: {reason}"),
        }
    }
}

/// The seed-002 rules an action can break, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Activation dice.
    Activation,
    /// Movement and march columns.
    Movement,
    /// Formation changes.
    Formation,
    /// Interpenetration.
    Interpenetration,
    /// Terrain.
    Terrain,
    /// Charging.
    Charging,
    /// Firing.
    Firing,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Activation => "activation",
            Rule::Movement => "movement",
            Rule::Formation => "formation changes",
            Rule::Interpenetration => "interpenetration",
            Rule::Terrain => "terrain",
            Rule::Charging => "charging",
            Rule::Firing => "firing",
        })
    }
}

/// Why an action was refused. A refused action changes nothing and rolls
/// no die.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "refusal")]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// Not this side's turn to act, or not this kind of action now.
    NotNow {
        /// What the game is waiting for, in words.
        waiting_for: String,
    },
    /// An id that names no unit.
    NoSuchUnit {
        /// The id.
        index: usize,
    },
    /// A unit that cannot act now (not the one whose die is up, removed,
    /// already activated, the other side's).
    NotThisUnit {
        /// Its name.
        name: String,
        /// Why not.
        why: String,
    },
    /// A rule of seed 002 forbids it.
    Broken {
        /// The rule.
        rule: Rule,
        /// What exactly.
        detail: String,
    },
}

impl Refusal {
    pub(crate) fn broken(rule: Rule, detail: impl Into<String>) -> Refusal {
        Refusal::Broken {
            rule,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver => write!(f, "the game is over"),
            Refusal::NotNow { waiting_for } => {
                write!(
                    f,
                    "seed 002 activation: the game is waiting for {waiting_for}"
                )
            }
            Refusal::NoSuchUnit { index } => write!(f, "there is no unit {index}"),
            Refusal::NotThisUnit { name, why } => write!(f, "`{name}` cannot act: {why}"),
            Refusal::Broken { rule, detail } => write!(f, "seed 002 {rule}: {detail}"),
        }
    }
}

impl std::error::Error for Refusal {}
