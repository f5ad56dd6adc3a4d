//! Actions a side may take, the typed reasons one is refused, and the events
//! that record every roll and consequence. These three are the engine's
//! whole interface: the opponent, the REPL, logs and replays are built on
//! them, never on printing.

use super::id::{GeneralId, UnitId};
use super::table::{ActionKind, Operation, Phase};
use crate::battlefield::Point;
use crate::battlefield::geometry::{inches, trim};
use crate::tables::Character;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Something the side to act does. A game is a scenario, a seed and a list
/// of these.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "action")]
pub enum Action {
    /// Pivot on the centre point at the start of the move (counts as moving).
    Pivot {
        /// Who.
        unit: UnitId,
        /// New facing, compass degrees.
        facing: f64,
    },
    /// Move the centre straight to `to`, then pivot to `facing`.
    Move {
        /// Who.
        unit: UnitId,
        /// Where the centre ends.
        to: Point,
        /// Facing at the end (a pivot at the end of the move).
        facing: f64,
    },
    /// Move along a road through `path` (every point of the way on the
    /// road), earning the road bonus, then pivot to `facing`.
    MoveRoad {
        /// Who.
        unit: UnitId,
        /// The points the centre passes through after its start, in order.
        path: Vec<Point>,
        /// Facing at the end.
        facing: f64,
    },
    /// Charge an enemy unit: pivot (at most the rule set's maximum) to face
    /// its centre and advance straight into contact.
    Charge {
        /// The charger.
        unit: UnitId,
        /// The enemy charged.
        target: UnitId,
    },
    /// Move a general straight to `to`.
    MoveGeneral {
        /// Who.
        general: GeneralId,
        /// Where he ends.
        to: Point,
    },
    /// Shoot at an enemy unit.
    Fire {
        /// The shooter.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Which volley (seed 004's orders); a plain shot when not given.
        #[serde(default, skip_serializing_if = "Volley::is_single")]
        volley: Volley,
    },
    /// A general's rally attempt; the points rolled are spread over `units`
    /// in the order listed, each up to its troop type's maximum.
    Rally {
        /// Who rallies.
        general: GeneralId,
        /// The units to rally, most urgent first.
        units: Vec<UnitId>,
    },
    /// Call up a unit of reinforcements of troop type `troop` (by name):
    /// it joins the side to act as a reserve waiting off table. The Lone
    /// Warrior opponent rolls which troops come (seed 004, reaction D);
    /// the action records what it rolled, so a replay needs no dice.
    CallUp {
        /// The new unit's name (unique).
        name: String,
        /// Its troop type in the rule set.
        troop: String,
    },
    /// Bring a reserve onto the table at its own edge (seed 004: "enter
    /// from the centre rear of the table"); it counts as having moved.
    Enter {
        /// The reserve.
        unit: UnitId,
        /// Where its centre stands; the base must touch its own edge.
        to: Point,
        /// Its facing.
        facing: f64,
    },
    /// A unit breaks and leaves the table as routed by its own morale: the
    /// Lone Warrior opponent's rout order (seed 004, ruling O12). From this
    /// moment it counts as routed, as a unit removed at its hit threshold
    /// does (army resolve, rout fractions, "rout or force off").
    Rout {
        /// Who.
        unit: UnitId,
    },
    /// End the current phase.
    EndPhase,
}

impl Action {
    /// The kind of action, as phases list them (`None` for ending a phase).
    pub fn kind(&self) -> Option<ActionKind> {
        Some(match self {
            Action::Pivot { .. } => ActionKind::Pivot,
            Action::Move { .. } => ActionKind::Move,
            Action::MoveRoad { .. } => ActionKind::MoveRoad,
            Action::Charge { .. } => ActionKind::Charge,
            Action::MoveGeneral { .. } => ActionKind::MoveGeneral,
            Action::Fire { .. } => ActionKind::Fire,
            Action::Rally { .. } => ActionKind::Rally,
            Action::CallUp { .. } => ActionKind::CallUp,
            Action::Enter { .. } => ActionKind::Enter,
            Action::Rout { .. } => ActionKind::Rout,
            Action::EndPhase => return None,
        })
    }
}

/// The volley a shot fires. Seed 000 knows one kind of shot; seed 004's
/// orders add two, which the rule set's `shooting.volleys` allows to some
/// troop types within a range and its modifiers price (`when:
/// double-volley`, `when: hasty-volley`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Volley {
    /// An ordinary shot.
    #[default]
    Single,
    /// Double volleys: close-order troops at a near target (seed 004, stand
    /// and fire on +3 to +5).
    Double,
    /// The single volley of troops about to withdraw, at −1 (seed 004, fire
    /// and withdraw).
    Hasty,
}

impl Volley {
    /// Whether it is an ordinary shot.
    pub fn is_single(&self) -> bool {
        *self == Volley::Single
    }

    /// The name used in files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Volley::Single => "single",
            Volley::Double => "double",
            Volley::Hasty => "hasty",
        }
    }
}

/// One modifier as applied: its label, what it did, the score after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Applied {
    /// What the rule set calls it.
    pub label: String,
    /// What it did.
    pub operation: Operation,
    /// The running score after it.
    pub score: i32,
}

/// One side's roll in a melee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeRoll {
    /// The unit rolling.
    pub unit: UnitId,
    /// The die.
    pub roll: u8,
    /// Modifiers in order.
    pub modifiers: Vec<Applied>,
    /// Hits inflicted on the other unit (the final score, at least 0).
    pub hits: u32,
}

/// Why a unit took hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// Musket or artillery fire.
    Fire,
    /// Melee.
    Melee,
    /// Army resolve.
    ArmyResolve,
}

/// How a shot was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Weapon {
    /// Muskets (or rifles).
    Musket,
    /// Guns, with range in bounds.
    Artillery,
}

/// Everything that happens, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A general's character rolled on d100 at the start.
    CharacterRolled {
        /// Who.
        general: GeneralId,
        /// The d100.
        roll: u8,
        /// The result.
        character: Character,
    },
    /// A player turn begins.
    TurnBegan {
        /// Game turn.
        turn: u32,
        /// Side to act.
        side: usize,
    },
    /// A unit pivoted.
    Pivoted {
        /// Who.
        unit: UnitId,
        /// Old facing.
        from: f64,
        /// New facing.
        to: f64,
    },
    /// A unit moved (and perhaps pivoted at the end).
    Moved {
        /// Who.
        unit: UnitId,
        /// Start of the centre.
        from: Point,
        /// End of the centre.
        to: Point,
        /// Facing at the end.
        facing: f64,
        /// Movement used, inches of open ground.
        cost: f64,
        /// Along a road.
        road: bool,
    },
    /// A general moved.
    GeneralMoved {
        /// Who.
        general: GeneralId,
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// A unit charged into contact.
    Charged {
        /// The charger.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Start of the centre.
        from: Point,
        /// Centre at contact.
        to: Point,
        /// Facing at contact.
        facing: f64,
        /// From the target's flank or rear.
        flank_or_rear: bool,
    },
    /// A unit shot.
    Fired {
        /// The shooter.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Muskets or guns.
        weapon: Weapon,
        /// Range in inches, base to base.
        range: f64,
        /// The die.
        roll: u8,
        /// Modifiers in order (artillery: the bounds first).
        modifiers: Vec<Applied>,
        /// Hits scored.
        hits: u32,
    },
    /// A unit took hits.
    HitsTaken {
        /// Who.
        unit: UnitId,
        /// How many.
        hits: u32,
        /// Its total now.
        total: u32,
        /// Why.
        cause: Cause,
    },
    /// A melee fought out.
    Melee {
        /// The charger's roll.
        charger: MeleeRoll,
        /// The defender's roll.
        defender: MeleeRoll,
    },
    /// A unit retreated after melee.
    Retreated {
        /// Who.
        unit: UnitId,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// Facing at the end.
        facing: f64,
        /// Whether something stopped it short.
        blocked: bool,
    },
    /// A unit was driven off the table.
    Exited {
        /// Who.
        unit: UnitId,
    },
    /// A unit routed and was removed.
    Routed {
        /// Who.
        unit: UnitId,
        /// Its hits.
        hits: u32,
    },
    /// A side lost more than half its units: every remaining unit takes hits.
    ArmyResolve {
        /// The side.
        side: usize,
        /// Units lost.
        lost: usize,
        /// Units it started with.
        of: usize,
        /// Hits on each remaining unit.
        hits: u32,
    },
    /// A rally attempt.
    Rallied {
        /// Who.
        general: GeneralId,
        /// The die: points to spread.
        roll: u8,
        /// Hits removed, per unit, in the order spread.
        removed: Vec<(UnitId, u32)>,
        /// Rallies left for the game.
        rallies_left: u32,
    },
    /// Reinforcements called up: a new reserve waits off table.
    CalledUp {
        /// The new unit.
        unit: UnitId,
        /// Its troop type's name.
        troop: String,
    },
    /// A reserve entered the table.
    Entered {
        /// Who.
        unit: UnitId,
        /// Where its centre stands.
        to: Point,
        /// Its facing.
        facing: f64,
    },
    /// A phase ended.
    PhaseEnded {
        /// Game turn.
        turn: u32,
        /// Side.
        side: usize,
        /// Phase.
        phase: Phase,
    },
    /// A game turn ended.
    TurnEnded {
        /// Game turn.
        turn: u32,
    },
    /// A side won.
    Victory {
        /// Index of the side.
        winner: usize,
        /// Index of the condition in the scenario's list.
        condition: usize,
    },
    /// The game is over.
    GameEnded {
        /// Whether it is a draw.
        draw: bool,
    },
}

/// Why an action was refused; the message names the rule broken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "refusal")]
pub enum Refusal {
    /// The game is over.
    GameOver,
    /// The action does not belong to the phase.
    WrongPhase {
        /// The action.
        action: ActionKind,
        /// The phase.
        phase: Phase,
    },
    /// An id that names nothing.
    NoSuchUnit {
        /// The id.
        index: usize,
    },
    /// An id that names no general.
    NoSuchGeneral {
        /// The id.
        index: usize,
    },
    /// Another side's unit or general.
    NotYours {
        /// Its name.
        name: String,
    },
    /// Routed or driven off.
    NotOnTable {
        /// Its name.
        name: String,
    },
    /// The target is a friend.
    NotAnEnemy {
        /// The target's name.
        name: String,
    },
    /// Already moved this turn.
    AlreadyMoved {
        /// Who.
        name: String,
    },
    /// Already pivoted at the start of its move.
    AlreadyPivoted {
        /// Who.
        name: String,
    },
    /// Too far for the allowance.
    TooFar {
        /// Who.
        name: String,
        /// Movement the move needs, inches of open ground.
        cost: f64,
        /// Allowance.
        allowance: f64,
    },
    /// Ground the unit cannot enter.
    Impassable {
        /// Who.
        name: String,
        /// Where.
        at: Point,
    },
    /// Would leave the table.
    OffTable {
        /// Who.
        name: String,
    },
    /// Through or onto another unit.
    Interpenetration {
        /// Who.
        name: String,
        /// The unit in the way.
        other: String,
    },
    /// Near an enemy, not directly towards or away.
    EnemyPresence {
        /// Who.
        name: String,
        /// Within this many inches.
        within: f64,
    },
    /// A move that is not a charge may not contact the enemy.
    ContactWithoutCharge {
        /// Who.
        name: String,
        /// The enemy touched.
        enemy: String,
    },
    /// Not on a road.
    OffRoad {
        /// Who.
        name: String,
        /// Where the route leaves the road.
        at: Point,
    },
    /// A road move needs at least one point.
    EmptyPath,
    /// A charge needs a bigger pivot than allowed.
    ChargePivot {
        /// Degrees needed.
        needed: f64,
        /// Most allowed.
        most: f64,
    },
    /// The troop type may not charge that target.
    MayNotCharge {
        /// Charger's troop type.
        charger: String,
        /// Target's troop type.
        target: String,
        /// What it may charge.
        allowed: Vec<String>,
    },
    /// The target has been charged already.
    AlreadyCharged {
        /// The target.
        target: String,
        /// By whom.
        by: String,
    },
    /// Cannot shoot after moving.
    MovedThisTurn {
        /// Who.
        name: String,
    },
    /// Already shot.
    AlreadyFired {
        /// Who.
        name: String,
    },
    /// This troop type does not shoot.
    CannotShoot {
        /// Who.
        name: String,
    },
    /// The troop type may not fire this volley, or not at this range.
    VolleyNotAllowed {
        /// Who.
        name: String,
        /// The volley.
        volley: Volley,
        /// Why not, in words.
        why: String,
    },
    /// Outside the 45° frontal arc.
    NotInArc {
        /// The target.
        target: String,
    },
    /// Beyond range.
    OutOfRange {
        /// The target.
        target: String,
        /// Range, inches.
        range: f64,
        /// Longest allowed.
        most: f64,
    },
    /// Sight blocked.
    NoLineOfSight {
        /// The target.
        target: String,
    },
    /// A friendly unit near the target.
    FriendNearTarget {
        /// The target.
        target: String,
        /// The friend.
        friend: String,
        /// The clearance.
        within: f64,
    },
    /// One rally per general per turn.
    AlreadyRallied {
        /// The general.
        name: String,
    },
    /// No rallies left.
    NoRalliesLeft {
        /// The general.
        name: String,
    },
    /// Nobody named to rally.
    NothingToRally,
    /// Named twice.
    RalliedTwice {
        /// The unit.
        name: String,
    },
    /// Beyond command range.
    OutOfCommandRange {
        /// The unit.
        name: String,
        /// Distance, inches.
        distance: f64,
        /// Range.
        range: f64,
    },
    /// Cannot be rallied.
    CannotBeRallied {
        /// The unit.
        name: String,
    },
    /// Only a reserve waiting off table may enter.
    NotInReserve {
        /// The unit.
        name: String,
    },
    /// A reserve enters touching its own table edge.
    NotAtOwnEdge {
        /// The unit.
        name: String,
    },
    /// No such troop type in the rule set.
    UnknownTroop {
        /// The name given.
        troop: String,
    },
    /// A unit of that name exists already.
    NameTaken {
        /// The name.
        name: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver => write!(f, "the game is over"),
            Refusal::WrongPhase { action, phase } => write!(
                f,
                "cannot {}: not allowed in the {phase} phase",
                serde_json::to_value(action)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            ),
            Refusal::NoSuchUnit { index } => write!(f, "there is no unit {index}"),
            Refusal::NoSuchGeneral { index } => write!(f, "there is no general {index}"),
            Refusal::NotYours { name } => {
                write!(f, "cannot order `{name}`: it is not the side to act")
            }
            Refusal::NotOnTable { name } => write!(f, "`{name}` is no longer on the table"),
            Refusal::NotAnEnemy { name } => write!(f, "`{name}` is not an enemy unit"),
            Refusal::AlreadyMoved { name } => {
                write!(f, "cannot move `{name}`: it has already moved this turn")
            }
            Refusal::AlreadyPivoted { name } => write!(
                f,
                "cannot pivot `{name}` again: a pivot is made at the start and/or end of a move"
            ),
            Refusal::TooFar {
                name,
                cost,
                allowance,
            } => write!(
                f,
                "cannot move `{name}`: the move needs {} of movement and the allowance is {}",
                inches(*cost),
                inches(*allowance)
            ),
            Refusal::Impassable { name, at } => {
                write!(
                    f,
                    "cannot move `{name}`: the ground at {at} is impassable to it"
                )
            }
            Refusal::OffTable { name } => {
                write!(f, "cannot move `{name}` off the table")
            }
            Refusal::Interpenetration { name, other } => write!(
                f,
                "cannot move `{name}` through `{other}`: units cannot move through other units"
            ),
            Refusal::EnemyPresence { name, within } => write!(
                f,
                "cannot move `{name}` that way: within {} of an enemy a unit may only retire directly away or advance directly towards it",
                inches(*within)
            ),
            Refusal::ContactWithoutCharge { name, enemy } => write!(
                f,
                "cannot move `{name}` into contact with `{enemy}`: contact with the enemy is a charge"
            ),
            Refusal::OffRoad { name, at } => write!(
                f,
                "cannot move `{name}` along the road: the way leaves the road at {at}"
            ),
            Refusal::EmptyPath => write!(f, "a road move needs at least one point"),
            Refusal::ChargePivot { needed, most } => write!(
                f,
                "cannot charge: a charger may pivot at most {}° at the start and this charge needs {}°",
                trim(*most),
                trim(*needed)
            ),
            Refusal::MayNotCharge {
                charger,
                target,
                allowed,
            } => {
                if allowed.is_empty() {
                    write!(f, "cannot charge: {charger} never charge")
                } else {
                    write!(
                        f,
                        "cannot charge `{target}`: {charger} may only charge {}",
                        allowed.join(" and ")
                    )
                }
            }
            Refusal::AlreadyCharged { target, by } => write!(
                f,
                "cannot charge `{target}`: it has been charged by `{by}` and an enemy unit may only be charged by one unit"
            ),
            Refusal::MovedThisTurn { name } => {
                write!(f, "cannot shoot with `{name}`: the unit moved this turn")
            }
            Refusal::AlreadyFired { name } => {
                write!(
                    f,
                    "cannot shoot with `{name}`: it has already fired this turn"
                )
            }
            Refusal::CannotShoot { name } => write!(f, "`{name}` cannot shoot"),
            Refusal::VolleyNotAllowed { name, volley, why } => {
                write!(f, "`{name}` cannot fire a {} volley: {why}", volley.name())
            }
            Refusal::NotInArc { target } => write!(
                f,
                "cannot shoot at `{target}`: it is not within 45 degrees of the frontal arc"
            ),
            Refusal::OutOfRange {
                target,
                range,
                most,
            } => write!(
                f,
                "cannot shoot at `{target}`: it is {} away and the range is {}",
                inches(*range),
                inches(*most)
            ),
            Refusal::NoLineOfSight { target } => {
                write!(f, "cannot shoot at `{target}`: it cannot be seen")
            }
            Refusal::FriendNearTarget {
                target,
                friend,
                within,
            } => write!(
                f,
                "cannot shoot at `{target}`: friendly unit `{friend}` is within {} of the target",
                inches(*within)
            ),
            Refusal::AlreadyRallied { name } => write!(
                f,
                "`{name}` cannot rally again: each general may attempt one rally per turn"
            ),
            Refusal::NoRalliesLeft { name } => {
                write!(f, "`{name}` has no rally attempts left this game")
            }
            Refusal::NothingToRally => write!(f, "name at least one unit to rally"),
            Refusal::RalliedTwice { name } => write!(f, "`{name}` is named twice in one rally"),
            Refusal::OutOfCommandRange {
                name,
                distance,
                range,
            } => write!(
                f,
                "cannot rally `{name}`: it is {} from the general and must be within {}",
                inches(*distance),
                inches(*range)
            ),
            Refusal::CannotBeRallied { name } => write!(
                f,
                "cannot rally `{name}`: artillery and cavalry may not be rallied"
            ),
            Refusal::NotInReserve { name } => {
                write!(f, "`{name}` is not a reserve waiting off table")
            }
            Refusal::NotAtOwnEdge { name } => write!(
                f,
                "`{name}` must enter with its base touching its own table edge"
            ),
            Refusal::UnknownTroop { troop } => {
                write!(f, "there is no troop type `{troop}` in the rule set")
            }
            Refusal::NameTaken { name } => write!(f, "a unit called `{name}` exists already"),
        }
    }
}

impl std::error::Error for Refusal {}
