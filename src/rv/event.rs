//! The seed-001 engine's whole interface: [`Action`]s in, [`Event`]s out,
//! a [`Refusal`] naming the rule when an action breaks one.
//!
//! Units and commanders are named by their index in the game
//! ([`super::GameState::units`], [`super::GameState::commanders`]); events
//! carry names too, so they read without the state.

use super::table::PhaseKind;
use crate::battlefield::Point;
use crate::battlefield::geometry::{inches, trim};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a unit is drawn up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    /// Firing line: bases side by side, double rank.
    Line,
    /// Marching column: one base wide.
    Column,
    /// A line with a stand's width between stands (light troops only).
    OpenOrder,
}

impl Formation {
    /// Every formation, in a fixed order.
    pub const ALL: [Formation; 3] = [Formation::Line, Formation::Column, Formation::OpenOrder];

    /// The name used in files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::OpenOrder => "open order",
        }
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The answer of a charged unit that passed its morale (seed 001 Charges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Response {
    /// Fire at the chargers at 1".
    Fire,
    /// Counter-charge: the two meet in the middle.
    CounterCharge,
    /// Receive the charge without either (ruling RV12: only when the unit
    /// can do neither).
    Stand,
}

/// Something a side does.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum Action {
    /// Change formation, at the start or end of the unit's move.
    ChangeFormation {
        /// The unit.
        unit: usize,
        /// The new formation.
        formation: Formation,
    },
    /// Dragoons mount (`true`) or dismount (`false`).
    Mount {
        /// The unit.
        unit: usize,
        /// Mounted afterwards.
        mounted: bool,
    },
    /// Turn 180 degrees.
    AboutFace {
        /// The unit.
        unit: usize,
    },
    /// Turn on the spot to face `facing` (the unit's move; a cannon may
    /// still fire).
    Pivot {
        /// The unit.
        unit: usize,
        /// Compass bearing, degrees.
        facing: f64,
    },
    /// Move in a straight line, keeping the facing, so the unit's centre
    /// ends at `to`.
    Move {
        /// The unit.
        unit: usize,
        /// Where its centre ends.
        to: Point,
    },
    /// A commander not with a unit moves.
    MoveCommander {
        /// The commander.
        commander: usize,
        /// Where he ends.
        to: Point,
    },
    /// A commander joins one of his units.
    Join {
        /// The commander.
        commander: usize,
        /// The unit.
        unit: usize,
    },
    /// A commander leaves his unit for `to`.
    Leave {
        /// The commander.
        commander: usize,
        /// Where he ends.
        to: Point,
    },
    /// Shoot at an enemy unit.
    Fire {
        /// The shooter.
        unit: usize,
        /// The target.
        target: usize,
    },
    /// Declare a charge at an enemy unit; it is resolved at once.
    Charge {
        /// The charger.
        unit: usize,
        /// The target.
        target: usize,
    },
    /// The charged unit's answer.
    Respond {
        /// What it does.
        response: Response,
    },
    /// A single volley at −1 (one more needed on each die), fired in the
    /// shoot phase by a unit withdrawing: the Lone Warrior opponent's fire
    /// and withdraw order (seed 004, ruling HO13). Checked as `Fire`, and
    /// refused where −1 leaves no die able to hit. Never listed by
    /// `legal_actions`: it is an order, not a player's choice.
    HastyFire {
        /// Who fires.
        unit: usize,
        /// At whom.
        target: usize,
    },
    /// The unit breaks and leaves the table as routed, in its side's move
    /// phase: the Lone Warrior opponent's rout order (seed 004, rulings O12
    /// and HO13). It counts as lost from then on. Never listed by
    /// `legal_actions`: it is an order, not a player's choice.
    Rout {
        /// Who.
        unit: usize,
    },
    /// The side to act is done with this phase (or its part of the
    /// charge phase).
    EndPhase,
}

/// A unit or commander as events name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    /// Index in the game.
    pub index: usize,
    /// Name.
    pub name: String,
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// Why a unit left play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Removal {
    /// Its last base was removed.
    Destroyed,
    /// Militia that failed morale or lost a melee ran away.
    RanAway,
    /// A retreat took it off the table.
    LeftTheField,
    /// It routed on a Lone Warrior rout order (ruling HO13).
    Routed,
}

/// What a morale test was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoraleFor {
    /// A unit wishing to charge.
    Charging,
    /// The target of a charge.
    Charged,
}

/// One melee modifier that applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// What it is for, in the seed's words.
    pub label: String,
    /// Added to the die.
    pub value: i32,
}

/// One side of a melee roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeSide {
    /// The unit.
    pub unit: Who,
    /// The die.
    pub roll: u8,
    /// Every modifier that applied.
    pub modifiers: Vec<Modifier>,
    /// Roll plus modifiers.
    pub total: i32,
}

/// What happened, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A phase began.
    PhaseBegan {
        /// Game turn.
        turn: u32,
        /// Phase kind.
        phase: PhaseKind,
        /// The side acting (`None`: both).
        side: Option<Who>,
    },
    /// A unit changed formation.
    FormationChanged {
        /// The unit.
        unit: Who,
        /// Its new formation.
        formation: Formation,
    },
    /// Dragoons mounted or dismounted.
    Mounted {
        /// The unit.
        unit: Who,
        /// Mounted now.
        mounted: bool,
    },
    /// A unit turned about.
    AboutFaced {
        /// The unit.
        unit: Who,
    },
    /// A unit pivoted on its centre.
    Pivoted {
        /// The unit.
        unit: Who,
        /// Its new facing.
        facing: f64,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        unit: Who,
        /// Its centre before.
        from: Point,
        /// Its centre after.
        to: Point,
        /// Whether it went backwards at half speed.
        backwards: bool,
    },
    /// A commander moved.
    CommanderMoved {
        /// The commander.
        commander: Who,
        /// Where he is.
        to: Point,
    },
    /// A commander joined a unit.
    Joined {
        /// The commander.
        commander: Who,
        /// The unit.
        unit: Who,
    },
    /// A commander left a unit (or was left standing when it went).
    Left {
        /// The commander.
        commander: Who,
        /// The unit.
        unit: Who,
        /// Where he is.
        at: Point,
    },
    /// A unit fired.
    Fired {
        /// The shooter.
        unit: Who,
        /// The target.
        target: Who,
        /// The band's range, inches.
        band: f64,
        /// The least roll that hit.
        needed: u8,
        /// Every die rolled.
        rolls: Vec<u8>,
        /// How many hit.
        hits: u32,
    },
    /// Hits on a cannon, counted for the turn.
    CannonHits {
        /// The cannon.
        unit: Who,
        /// Hits this turn not yet turned into a lost base.
        this_turn: u32,
    },
    /// A unit lost bases.
    BasesLost {
        /// The unit.
        unit: Who,
        /// How many.
        lost: u32,
        /// How many are left.
        left: u32,
    },
    /// A unit left play.
    Removed {
        /// The unit.
        unit: Who,
        /// Why.
        why: Removal,
    },
    /// A morale test.
    Morale {
        /// The unit.
        unit: Who,
        /// What it was for.
        test: MoraleFor,
        /// The die.
        roll: u8,
        /// The modifier added.
        modifier: i32,
        /// The highest total that passes.
        limit: i32,
        /// Whether it passed.
        passed: bool,
    },
    /// A charge was declared.
    ChargeDeclared {
        /// The charger.
        unit: Who,
        /// The target.
        target: Who,
    },
    /// A charger failed its morale and stays where it is.
    ChargeFaltered {
        /// The charger.
        unit: Who,
    },
    /// A unit took the place of a target that fell back.
    TookPlace {
        /// The charger.
        unit: Who,
        /// Its centre now.
        to: Point,
    },
    /// A charged unit passed and must answer.
    AwaitingResponse {
        /// The charged unit.
        unit: Who,
        /// The charger.
        charger: Who,
    },
    /// A charged unit answered.
    Responded {
        /// The charged unit.
        unit: Who,
        /// Its answer.
        response: Response,
    },
    /// A charger closed with its target.
    Contact {
        /// The charger.
        unit: Who,
        /// The target.
        target: Who,
    },
    /// A unit retreated.
    Retreated {
        /// The unit.
        unit: Who,
        /// Its centre before.
        from: Point,
        /// Its centre after.
        to: Point,
    },
    /// One round of a melee.
    MeleeRound {
        /// The charger.
        charger: MeleeSide,
        /// The defender.
        defender: MeleeSide,
        /// The winner's index (`None`: a tie).
        winner: Option<usize>,
    },
    /// A unit must spend a turn reforming.
    Reforming {
        /// The unit.
        unit: Who,
        /// The turn it spends reforming.
        turn: u32,
    },
    /// A commander's risk roll.
    CommanderRisk {
        /// The commander.
        commander: Who,
        /// The die.
        roll: u8,
        /// Whether he fell.
        lost: bool,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: super::Outcome,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::PhaseBegan { turn, phase, side } => match side {
                Some(side) => write!(f, "Turn {turn}: the {side} {phase} phase."),
                None => write!(f, "Turn {turn}: the {phase} phase."),
            },
            Event::FormationChanged { unit, formation } => {
                write!(f, "{unit} forms {formation}.")
            }
            Event::Mounted { unit, mounted } => write!(
                f,
                "{unit} {}.",
                if *mounted {
                    "mount"
                } else {
                    "dismount, leaving horse holders behind"
                }
            ),
            Event::AboutFaced { unit } => write!(f, "{unit} about-face."),
            Event::Pivoted { unit, facing } => write!(f, "{unit} pivot to face {facing:.0}°."),
            Event::Moved {
                unit,
                from,
                to,
                backwards,
            } => write!(
                f,
                "{unit} move {}{}.",
                inches(from.distance(*to)),
                if *backwards {
                    " backwards at half speed"
                } else {
                    ""
                }
            ),
            Event::CommanderMoved { commander, to } => {
                write!(f, "{commander} rides to ({}, {}).", trim(to.x), trim(to.y))
            }
            Event::Joined { commander, unit } => write!(f, "{commander} joins {unit}."),
            Event::Left {
                commander, unit, ..
            } => write!(f, "{commander} leaves {unit}."),
            Event::Fired {
                unit,
                target,
                band,
                needed,
                rolls,
                hits,
            } => write!(
                f,
                "{unit} fire at {target} in the {} column, needing {needed}+: rolled {rolls:?}, {hits} hit{}.",
                inches(*band),
                if *hits == 1 { "" } else { "s" }
            ),
            Event::CannonHits { unit, this_turn } => write!(
                f,
                "{unit} has taken {this_turn} hit(s) this turn; a gun's base needs three in one turn."
            ),
            Event::BasesLost { unit, lost, left } => {
                write!(f, "{unit} lose {lost} base(s), {left} left.")
            }
            Event::Removed { unit, why } => match why {
                Removal::Destroyed => write!(f, "{unit} is destroyed."),
                Removal::RanAway => write!(f, "{unit}, militia, run away and leave the battle."),
                Removal::LeftTheField => write!(f, "{unit} retreat off the field."),
                Removal::Routed => write!(f, "{unit} rout and leave the field."),
            },
            Event::Morale {
                unit,
                test,
                roll,
                modifier,
                limit,
                passed,
            } => write!(
                f,
                "{unit} test morale {}: {roll}{modifier:+} against {limit}, {}.",
                match test {
                    MoraleFor::Charging => "to charge",
                    MoraleFor::Charged => "against a charge",
                },
                if *passed { "passed" } else { "failed" }
            ),
            Event::ChargeDeclared { unit, target } => write!(f, "{unit} charge {target}."),
            Event::ChargeFaltered { unit } => {
                write!(f, "{unit} fail their morale and do not charge.")
            }
            Event::TookPlace { unit, .. } => {
                write!(f, "{unit} take the place the enemy left.")
            }
            Event::AwaitingResponse { unit, charger } => write!(
                f,
                "{unit} stand: they may fire at {charger} at 1\" or counter-charge."
            ),
            Event::Responded { unit, response } => match response {
                Response::Fire => write!(f, "{unit} fire at the chargers."),
                Response::CounterCharge => {
                    write!(f, "{unit} counter-charge; they meet in the middle.")
                }
                Response::Stand => write!(f, "{unit} receive the charge."),
            },
            Event::Contact { unit, target } => write!(f, "{unit} close with {target}."),
            Event::Retreated { unit, from, to } => {
                write!(f, "{unit} retreat {}.", inches(from.distance(*to)))
            }
            Event::MeleeRound {
                charger,
                defender,
                winner,
            } => {
                write!(
                    f,
                    "Melee: {} {} ({}{:+}) against {} {} ({}{:+})",
                    charger.unit,
                    charger.total,
                    charger.roll,
                    charger.total - i32::from(charger.roll),
                    defender.unit,
                    defender.total,
                    defender.roll,
                    defender.total - i32::from(defender.roll),
                )?;
                match winner {
                    Some(index) if *index == charger.unit.index => {
                        write!(f, ": {} win.", charger.unit)
                    }
                    Some(_) => write!(f, ": {} win.", defender.unit),
                    None => write!(f, ": a tie, each loses a base."),
                }
            }
            Event::Reforming { unit, turn } => {
                write!(f, "{unit} spend turn {turn} reforming.")
            }
            Event::CommanderRisk {
                commander,
                roll,
                lost,
            } => write!(
                f,
                "{commander} risk: rolled {roll}{}.",
                if *lost { ", he falls" } else { ", unhurt" }
            ),
            Event::GameOver { outcome } => write!(f, "{outcome}"),
        }
    }
}

/// Why an action was refused: each names the rule it breaks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "refusal")]
pub enum Refusal {
    /// The game has ended.
    GameOver,
    /// A charged unit's answer is awaited first.
    ResponsePending,
    /// The action does not belong to this phase.
    WrongPhase {
        /// The phase now.
        phase: PhaseKind,
    },
    /// No unit or commander with that index, or not the acting side's.
    NotYours {
        /// The index given.
        index: usize,
    },
    /// The unit or commander is out of play.
    OutOfPlay {
        /// Its name.
        name: String,
    },
    /// The unit lost a melee last turn and is reforming.
    Reforming {
        /// Its name.
        name: String,
    },
    /// One formation change (or mount/dismount) a turn.
    AlreadyChanged {
        /// Its name.
        name: String,
    },
    /// The formation is not open to this unit.
    NoSuchFormation {
        /// Its name.
        name: String,
        /// Why.
        why: String,
    },
    /// Only dragoons mount and dismount, and not into the state they are in.
    NotDragoons {
        /// Its name.
        name: String,
    },
    /// About-face once a turn.
    AlreadyAboutFaced {
        /// Its name.
        name: String,
    },
    /// A unit moves (or pivots) once a turn.
    AlreadyMoved {
        /// Its name.
        name: String,
    },
    /// Formation changes come at the start or end of the move, not after.
    MoveOver {
        /// Its name.
        name: String,
    },
    /// Farther than the allowance.
    TooFar {
        /// Its name.
        name: String,
        /// Inches wanted (terrain counted).
        wanted: f64,
        /// Inches allowed.
        allowed: f64,
    },
    /// The unit would stand off the table, on ground it cannot enter, or
    /// on another unit.
    NoRoom {
        /// Its name.
        name: String,
        /// What is in the way.
        what: String,
    },
    /// The move would come within 1" of an enemy.
    TooNearEnemy {
        /// Its name.
        name: String,
        /// The enemy.
        enemy: String,
    },
    /// The commander cannot do that.
    Commander {
        /// His name.
        name: String,
        /// Why.
        why: String,
    },
    /// Not a legal target.
    BadTarget {
        /// The target's name.
        name: String,
        /// Why.
        why: String,
    },
    /// The unit may not fire.
    CannotFire {
        /// Its name.
        name: String,
        /// Why.
        why: String,
    },
    /// The unit may not charge.
    CannotCharge {
        /// Its name.
        name: String,
        /// Why.
        why: String,
    },
    /// No charge awaits an answer.
    NoChargeToAnswer,
    /// That answer is not open to the charged unit.
    CannotRespond {
        /// Why.
        why: String,
    },
    /// A number that is not one (NaN or infinite).
    NotANumber,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver => f.write_str("The game is over."),
            Refusal::ResponsePending => f.write_str(
                "A charged unit must first answer the charge (fire at 1\" or counter-charge).",
            ),
            Refusal::WrongPhase { phase } => {
                write!(f, "That is not done in the {phase} phase (turn sequence).")
            }
            Refusal::NotYours { index } => {
                write!(
                    f,
                    "Number {index} is not a unit or commander of the side to act."
                )
            }
            Refusal::OutOfPlay { name } => write!(f, "{name} is out of play."),
            Refusal::Reforming { name } => {
                write!(f, "{name} lost a melee and spends this turn reforming.")
            }
            Refusal::AlreadyChanged { name } => write!(
                f,
                "{name} has changed formation this turn: only once a turn."
            ),
            Refusal::NoSuchFormation { name, why } => write!(f, "{name}: {why}."),
            Refusal::NotDragoons { name } => write!(
                f,
                "{name} cannot do that: only dragoons mount and dismount."
            ),
            Refusal::AlreadyAboutFaced { name } => {
                write!(f, "{name} may about-face only once a turn.")
            }
            Refusal::AlreadyMoved { name } => write!(f, "{name} has already moved this turn."),
            Refusal::MoveOver { name } => write!(
                f,
                "{name} changed formation at the end of its move: it cannot move again."
            ),
            Refusal::TooFar {
                name,
                wanted,
                allowed,
            } => write!(
                f,
                "{name} may move {} but this takes {}.",
                inches(*allowed),
                inches(*wanted)
            ),
            Refusal::NoRoom { name, what } => write!(f, "{name} cannot stand there: {what}."),
            Refusal::TooNearEnemy { name, enemy } => write!(
                f,
                "{name} may not move within 1\" of {enemy} except by charging."
            ),
            Refusal::Commander { name, why } => write!(f, "{name}: {why}."),
            Refusal::BadTarget { name, why } => write!(f, "{name} cannot be the target: {why}."),
            Refusal::CannotFire { name, why } => write!(f, "{name} may not fire: {why}."),
            Refusal::CannotCharge { name, why } => write!(f, "{name} may not charge: {why}."),
            Refusal::NoChargeToAnswer => f.write_str("No charge awaits an answer."),
            Refusal::CannotRespond { why } => write!(f, "That answer is not open: {why}."),
            Refusal::NotANumber => f.write_str("A position or facing must be a finite number."),
        }
    }
}

impl std::error::Error for Refusal {}
