//! The game: setup types, [`GameState`] with its units and commanders, the
//! queries an opponent reads, and how a validated scenario becomes a
//! [`GameSetup`].

use super::event::{Formation, Response};
use super::table::{Kind, PhaseKind, RvTable, TroopRules};
use crate::battlefield::geometry::Vector;
use crate::battlefield::{Base, Battlefield, Point};
use crate::ruleset::TroopTypeId;
use crate::scenario::{self, Scenario};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// The most bases a unit may have and units a side may field: far above
/// Guilford's, low enough that no count overflows.
pub const MAX_BASES: u32 = 100;
/// The most units (or commanders) a game may have.
pub const MAX_UNITS: usize = 500;

/// One unit as a game starts.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitSetup {
    /// Its name.
    pub name: String,
    /// Its side's index.
    pub side: usize,
    /// Its troop type.
    pub troop: TroopTypeId,
    /// Bases at the start.
    pub bases: u32,
    /// Where its centre stands.
    pub centre: Point,
    /// Compass bearing it faces.
    pub facing: f64,
    /// Its formation (ignored for cannon; dragoons are in line).
    pub formation: Formation,
    /// Dragoons: mounted at the start.
    pub mounted: bool,
    /// The brigade it belongs to: the name of its commander, if any.
    pub brigade: Option<String>,
}

/// One commander as a game starts.
#[derive(Debug, Clone, PartialEq)]
pub struct CommanderSetup {
    /// His name.
    pub name: String,
    /// His side's index.
    pub side: usize,
    /// Where he stands.
    pub at: Point,
    /// Whether he commands every unit of his side (an overall commander)
    /// rather than only his brigade's.
    pub overall: bool,
}

/// What a game starts from.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// The table.
    pub battlefield: Arc<Battlefield>,
    /// Side names, by index.
    pub sides: Vec<String>,
    /// The units.
    pub units: Vec<UnitSetup>,
    /// The commanders.
    pub commanders: Vec<CommanderSetup>,
    /// Game turns.
    pub turns: u32,
}

/// Why a setup cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// The table names a side the setup does not have.
    UnknownSide(String),
    /// A unit is wrong.
    BadUnit {
        /// Its name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// Too many units or commanders, or no turns.
    TooBig(String),
    /// The table was built under another rule set than these rules.
    WrongRuleset {
        /// The table's rule set.
        table: String,
        /// The rules'.
        rules: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownSide(name) => {
                write!(
                    f,
                    "the rule set names side `{name}`, which the scenario does not have"
                )
            }
            SetupError::BadUnit { name, problem } => write!(f, "unit `{name}` {problem}"),
            SetupError::TooBig(what) => f.write_str(what),
            SetupError::WrongRuleset { table, rules } => write!(
                f,
                "the scenario is played under rule set `{table}`, not `{rules}`"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// A unit in the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Its name.
    pub name: String,
    /// Its side's index.
    pub side: usize,
    /// Its troop type.
    pub troop: TroopTypeId,
    /// Infantry, dragoons or cannon.
    pub kind: Kind,
    /// Bases left (dismounted dragoons: the horse holders' base included).
    pub bases: u32,
    /// Bases at the start.
    pub start_bases: u32,
    /// Where its centre stands.
    pub centre: Point,
    /// Compass bearing it faces.
    pub facing: f64,
    /// How it is drawn up.
    pub formation: Formation,
    /// Dragoons: mounted.
    pub mounted: bool,
    /// Its brigade (its commander's name).
    pub brigade: Option<String>,
    /// Out of play, and why.
    pub removed: Option<super::event::Removal>,
    /// The turn it spends reforming, if any.
    pub reforming: Option<u32>,
    /// This turn: it moved or pivoted.
    pub moved: bool,
    /// This turn: it pivoted (a cannon that only pivoted may fire).
    pub pivoted_only: bool,
    /// This turn: it changed formation or mounted/dismounted.
    pub changed: bool,
    /// This turn: it changed formation after moving (its move is over).
    pub changed_after_move: bool,
    /// This turn: it about-faced.
    pub about_faced: bool,
    /// This turn: it fired.
    pub fired: bool,
    /// This turn: it declared a charge (whether or not it went in).
    pub charged: bool,
    /// This turn: it went in with a charge, was charged or is in a melee.
    pub engaged: bool,
    /// Hits on a cannon this turn not yet turned into a lost base.
    pub cannon_hits: u32,
}

/// A commander in the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Commander {
    /// His name.
    pub name: String,
    /// His side's index.
    pub side: usize,
    /// Where he stands (his unit's centre while attached).
    pub at: Point,
    /// Whether he commands every unit of his side.
    pub overall: bool,
    /// The unit he is with.
    pub attached: Option<usize>,
    /// A casualty.
    pub lost: bool,
    /// This turn: he moved, joined or left.
    pub acted: bool,
}

/// A charge that has reached its target, to be fought in the melee phase.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Melee {
    /// The charger.
    pub charger: usize,
    /// The defender.
    pub defender: usize,
    /// The charger hit the defender's flank or rear.
    pub flank: bool,
    /// The defender counter-charged (it does not count as defending).
    pub counter: bool,
}

/// A charge waiting for its target's answer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// The charger.
    pub charger: usize,
    /// The target.
    pub target: usize,
    /// The charger is in the target's flank or rear.
    pub flank: bool,
}

/// How a game ended (house rule RV10, `docs/rulings.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side's index.
    pub winner: usize,
    /// Why.
    pub reason: EndReason,
    /// The victory margin from the attacker's view ([`GameState::score`]).
    pub margin: i32,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The defender was driven from the field: the attacker wins.
    DefenderDriven,
    /// The attacker's army broke: the defender wins.
    AttackerBroken,
    /// The last turn ended with the defender still on the field.
    TimeUp,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match self.reason {
            EndReason::DefenderDriven => "the defenders are driven from the field",
            EndReason::AttackerBroken => "the attacking army is broken",
            EndReason::TimeUp => "time is up with the defenders still on the field",
        };
        write!(
            f,
            "Game over: {how}; side {} wins, margin {:+} (defender's losses less the attacker's, in percent of bases).",
            self.winner, self.margin
        )
    }
}

/// Where the turn is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseNow {
    /// The phase's index in the table's sequence.
    pub index: usize,
    /// Its kind.
    pub kind: PhaseKind,
    /// The side acting (`None` in the melee phase).
    pub side: Option<usize>,
}

/// A game of "A Ruinous Victory" under way.
#[derive(Debug, Clone)]
pub struct GameState {
    pub(super) table: Arc<RvTable>,
    pub(super) battlefield: Arc<Battlefield>,
    pub(super) sides: Vec<String>,
    pub(super) units: Vec<Unit>,
    pub(super) commanders: Vec<Commander>,
    pub(super) turn: u32,
    pub(super) turns: u32,
    pub(super) phase_index: usize,
    /// In the charge phase: the index into `charge_order` declaring.
    pub(super) charge_step: usize,
    pub(super) pending: Option<Pending>,
    pub(super) melees: Vec<Melee>,
    pub(super) outcome: Option<Outcome>,
    /// The sides' indices in `table.charge_order`.
    pub(super) charge_sides: Vec<usize>,
    /// The side per phase of the sequence.
    pub(super) phase_sides: Vec<Option<usize>>,
    pub(super) attacker: usize,
    pub(super) defender: usize,
}

impl PartialEq for GameState {
    /// Everything but the shared table and battlefield, which a game never
    /// changes.
    fn eq(&self, other: &GameState) -> bool {
        Arc::ptr_eq(&self.table, &other.table)
            && Arc::ptr_eq(&self.battlefield, &other.battlefield)
            && self.sides == other.sides
            && self.units == other.units
            && self.commanders == other.commanders
            && self.turn == other.turn
            && self.turns == other.turns
            && self.phase_index == other.phase_index
            && self.charge_step == other.charge_step
            && self.pending == other.pending
            && self.melees == other.melees
            && self.outcome == other.outcome
    }
}

impl Unit {
    /// The rules of its troop type.
    pub fn rules<'t>(&self, table: &'t RvTable) -> &'t TroopRules {
        table
            .troop(self.troop)
            .expect("units are built only from troop types with rules")
    }

    /// Whether it is in play.
    pub fn in_play(&self) -> bool {
        self.removed.is_none()
    }

    /// Bases that shoot and fight: dismounted dragoons leave one behind
    /// holding the horses.
    pub fn fighting_bases(&self) -> u32 {
        if self.kind == Kind::Dragoons && !self.mounted {
            self.bases.saturating_sub(1)
        } else {
            self.bases
        }
    }
}

impl GameState {
    /// The rules table.
    pub fn table(&self) -> &RvTable {
        &self.table
    }

    /// The table the game is played on.
    pub fn battlefield(&self) -> &Battlefield {
        &self.battlefield
    }

    /// Side names, by index.
    pub fn sides(&self) -> &[String] {
        &self.sides
    }

    /// Every unit, by index (removed ones included).
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Every commander, by index (lost ones included).
    pub fn commanders(&self) -> &[Commander] {
        &self.commanders
    }

    /// The game turn, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Game turns in all.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The phase now.
    pub fn phase(&self) -> PhaseNow {
        let rule = &self.table.sequence[self.phase_index];
        PhaseNow {
            index: self.phase_index,
            kind: rule.kind,
            side: self.phase_sides[self.phase_index].or_else(|| {
                (rule.kind == PhaseKind::Charge)
                    .then(|| self.charge_sides.get(self.charge_step).copied())
                    .flatten()
            }),
        }
    }

    /// The side that must act next (`None` once the game is over). A
    /// charged unit's answer is its own side's to give.
    pub fn to_act(&self) -> Option<usize> {
        if self.outcome.is_some() {
            return None;
        }
        if let Some(pending) = self.pending {
            return Some(self.units[pending.target].side);
        }
        self.phase().side
    }

    /// The charge awaiting an answer, if any.
    pub fn pending(&self) -> Option<Pending> {
        self.pending
    }

    /// Melees waiting for the melee phase.
    pub fn melees(&self) -> &[Melee] {
        &self.melees
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The attacker's and defender's indices (seed 001: the British must
    /// drive the Americans from the field).
    pub fn attacker_defender(&self) -> (usize, usize) {
        (self.attacker, self.defender)
    }

    /// The victory margin so far, from the attacker's view (house rule
    /// RV10): the percentage of its bases the defender has lost, less the
    /// percentage the attacker has lost, each rounded down; from -100 to
    /// 100. A win with a negative margin is a ruinous victory.
    pub fn score(&self) -> i32 {
        self.loss_percent(self.defender) - self.loss_percent(self.attacker)
    }

    /// Percentage of `side`'s starting bases lost, rounded down.
    pub fn loss_percent(&self, side: usize) -> i32 {
        let (mut start, mut left) = (0u64, 0u64);
        for unit in self.units.iter().filter(|u| u.side == side) {
            start += u64::from(unit.start_bases);
            if unit.in_play() {
                left += u64::from(unit.bases.min(unit.start_bases));
            }
        }
        if start == 0 {
            return 0;
        }
        i32::try_from((start - left) * 100 / start).unwrap_or(100)
    }

    /// Where a unit's centre stands.
    pub fn position(&self, unit: usize) -> Option<Point> {
        self.units.get(unit).map(|u| u.centre)
    }

    /// Which way a unit faces (compass degrees).
    pub fn facing(&self, unit: usize) -> Option<f64> {
        self.units.get(unit).map(|u| u.facing)
    }

    /// Bases left as a fraction of bases at the start.
    pub fn strength(&self, unit: usize) -> Option<f64> {
        self.units.get(unit).map(|u| {
            if u.in_play() && u.start_bases > 0 {
                f64::from(u.bases) / f64::from(u.start_bases)
            } else {
                0.0
            }
        })
    }

    /// A unit's formation (`None` for cannon, which have none).
    pub fn formation(&self, unit: usize) -> Option<Formation> {
        self.units
            .get(unit)
            .filter(|u| u.kind != Kind::Cannon)
            .map(|u| u.formation)
    }

    /// Whether a unit stands in cover (woods or other cover terrain at its
    /// centre).
    pub fn in_cover(&self, unit: usize) -> bool {
        self.units
            .get(unit)
            .is_some_and(|u| self.battlefield.cover_at(u.centre))
    }

    /// Whether a unit is out of play (destroyed, run away, off the field).
    pub fn is_removed(&self, unit: usize) -> bool {
        self.units.get(unit).is_none_or(|u| !u.in_play())
    }

    /// Whether a unit is reforming this turn.
    pub fn is_reforming(&self, unit: usize) -> bool {
        self.units
            .get(unit)
            .is_some_and(|u| u.reforming == Some(self.turn))
    }

    /// The commander attached to a unit, if any.
    pub fn commander_of(&self, unit: usize) -> Option<usize> {
        self.commanders
            .iter()
            .position(|c| !c.lost && c.attached == Some(unit))
    }

    /// A unit's footprint: its bases side by side in line (with gaps in
    /// open order), one behind another in column; a cannon is its base.
    pub fn footprint(&self, unit: usize) -> Base {
        let u = &self.units[unit];
        footprint(
            &self.table,
            &self.battlefield,
            u,
            u.centre,
            u.facing,
            u.formation,
        )
    }

    /// How far `unit`'s footprint reaches from its centre
    /// ([`Base::reach`]), without building it.
    pub fn footprint_reach(&self, unit: usize) -> f64 {
        let u = &self.units[unit];
        let (frontage, depth) = footprint_size(&self.table, &self.battlefield, u, u.formation);
        Base::reach_of(frontage, depth)
    }

    /// The answers open to the charged unit of `pending`, in a fixed order.
    pub fn responses(&self) -> Vec<Response> {
        let Some(pending) = self.pending else {
            return Vec::new();
        };
        let mut open = Vec::new();
        if self.can_fire_at_chargers(pending).is_ok() {
            open.push(Response::Fire);
        }
        if self.can_counter_charge(pending).is_ok() {
            open.push(Response::CounterCharge);
        }
        if open.is_empty() {
            open.push(Response::Stand);
        }
        open
    }
}

/// The footprint of `unit` if it stood at `centre` facing `facing` in
/// `formation`.
pub(super) fn footprint(
    table: &RvTable,
    battlefield: &Battlefield,
    unit: &Unit,
    centre: Point,
    facing: f64,
    formation: Formation,
) -> Base {
    let (frontage, depth) = footprint_size(table, battlefield, unit, formation);
    Base::new(centre, facing, frontage, depth)
}

/// The frontage and depth of `unit`'s [`footprint`] in `formation`.
fn footprint_size(
    table: &RvTable,
    battlefield: &Battlefield,
    unit: &Unit,
    formation: Formation,
) -> (f64, f64) {
    let troop = battlefield.ruleset.troop(unit.troop);
    let n = f64::from(unit.bases.max(1));
    match (unit.kind, formation) {
        (Kind::Cannon, _) => (troop.frontage, troop.depth),
        (_, Formation::Column) => (troop.frontage, troop.depth * n),
        (_, Formation::OpenOrder) => (
            troop.frontage * n + troop.frontage * table.open_order_gap * (n - 1.0),
            troop.depth,
        ),
        (_, Formation::Line) => (troop.frontage * n, troop.depth),
    }
}

impl GameSetup {
    /// The game a scenario describes, under the seed-001 rules: each unit's
    /// `strength` is its bases (else the troop type's count in
    /// `default_bases`, else 1), its `group` names its brigade's commander,
    /// and the first general of a side is its overall commander (house
    /// rule RV11). Units must stand somewhere; reserves are not used.
    pub fn from_scenario(scenario: &Scenario, table: &RvTable) -> Result<GameSetup, SetupError> {
        let battlefield = scenario.battlefield.clone();
        if battlefield.ruleset.name != table.ruleset {
            return Err(SetupError::WrongRuleset {
                table: battlefield.ruleset.name.clone(),
                rules: table.ruleset.clone(),
            });
        }
        let mut units = Vec::new();
        let mut commanders = Vec::new();
        for (side_index, side) in scenario.sides.iter().enumerate() {
            for unit in &side.units {
                let base = unit.base.ok_or_else(|| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "has not been placed".to_string(),
                })?;
                let rules = table.troop(unit.troop).ok_or_else(|| SetupError::BadUnit {
                    name: unit.name.clone(),
                    problem: "is not a troop type that fights under these rules".to_string(),
                })?;
                let formation = match unit.formation {
                    scenario::Formation::Column => Formation::Column,
                    scenario::Formation::Skirmish if rules.open_order => Formation::OpenOrder,
                    _ => Formation::Line,
                };
                units.push(UnitSetup {
                    name: unit.name.clone(),
                    side: side_index,
                    troop: unit.troop,
                    bases: unit.strength.unwrap_or(1),
                    centre: base.centre,
                    facing: base.facing,
                    formation,
                    mounted: true,
                    brigade: unit.group.clone(),
                });
            }
            for (index, general) in side.generals.iter().enumerate() {
                let at = general.base.map_or_else(
                    || Point::new(battlefield.width() / 2.0, battlefield.height() / 2.0),
                    |b| b.centre,
                );
                commanders.push(CommanderSetup {
                    name: general.name.clone(),
                    side: side_index,
                    at,
                    overall: index == 0,
                });
            }
        }
        Ok(GameSetup {
            battlefield,
            sides: scenario.sides.iter().map(|s| s.name.clone()).collect(),
            units,
            commanders,
            turns: scenario.turns,
        })
    }
}

/// A unit vector from `from` towards `to`, or `fallback` if they coincide.
pub(super) fn direction(from: Point, to: Point, fallback: Vector) -> Vector {
    let v = to - from;
    let length = v.length();
    if length > 1e-9 && length.is_finite() {
        v * (1.0 / length)
    } else {
        fallback
    }
}
