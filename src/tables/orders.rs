//! What each order means physically, with the seed's situational variants
//! (seed 004, the five order descriptions).

use super::{ClassKind, Order};
use crate::yaml::Checker;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// `tables/orders.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Orders {
    /// Normal move in inches by class kind.
    pub moves: IndexMap<ClassKind, f64>,
    /// Musket range in inches ("out of musket range").
    pub musket_range: f64,
    /// How far behind a friend deployed to fire a supporting unit halts,
    /// centre to centre ("6\" to its rear"; ruling O5). Six when a file
    /// written before it was named leaves it out.
    #[serde(default = "six_inches")]
    pub support_behind: f64,
    /// Each order's default instruction and variants.
    pub orders: IndexMap<Order, OrderText>,
}

fn six_inches() -> f64 {
    6.0
}

/// A situation an order variant depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// An enemy is in sight.
    InSight,
    /// No enemy is in sight.
    OutOfSight,
    /// In sight but beyond musket range.
    OutOfRange,
    /// The nearest enemy is within 6".
    #[serde(rename = "enemy-within-6")]
    EnemyWithin6,
    /// In march column.
    InColumn,
    /// Deployed in line.
    InLine,
    /// In skirmish order.
    Skirmish,
    /// In close order (line, column, or formed light infantry).
    CloseOrder,
    /// Cavalry on horseback.
    Mounted,
    /// Cavalry on foot.
    Dismounted,
    /// Guns limbered.
    Limbered,
    /// Guns unlimbered.
    Unlimbered,
    /// Disordered.
    Disordered,
    /// Tested in the open-ground column.
    OpenGround,
    /// Tested in the hard-cover column.
    HardCover,
    /// A line class.
    Line,
    /// A light class.
    Light,
    /// A cavalry class.
    Cavalry,
    /// An artillery class.
    Artillery,
    /// Enemy cavalry in sight.
    SeesCavalry,
    /// Approaching the rear of a friend deployed to fire.
    FriendFiringAhead,
    /// That friend is fighting a melee.
    FriendInMelee,
}

/// How far a unit moves, as a share of its normal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Move {
    /// Stays where it is.
    #[default]
    None,
    /// Half its normal move.
    Half,
    /// Its normal move.
    Full,
    /// Double time: twice its normal move.
    Double,
}

impl Move {
    /// The share of the normal move.
    pub fn fraction(self) -> f64 {
        match self {
            Move::None => 0.0,
            Move::Half => 0.5,
            Move::Full => 1.0,
            Move::Double => 2.0,
        }
    }
}

/// Where a moving unit heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Towards {
    /// The nearest enemy (or the charge target).
    Enemy,
    /// The front line / the sound of the action.
    Front,
    /// The nearest cover.
    Cover,
    /// Its own rear.
    Rear,
    /// The friendly unit it supports.
    Friend,
}

/// Formations and postures an instruction can put a unit in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    /// Deployed line.
    Line,
    /// March column.
    Column,
    /// Skirmish order.
    Skirmish,
    /// Close order (light infantry formed against cavalry).
    CloseOrder,
    /// Cavalry mounted.
    Mounted,
    /// Cavalry dismounted.
    Dismounted,
    /// Guns limbered.
    Limbered,
    /// Guns unlimbered.
    Unlimbered,
}

impl Formation {
    /// Every formation.
    pub const ALL: [Formation; 8] = [
        Formation::Line,
        Formation::Column,
        Formation::Skirmish,
        Formation::CloseOrder,
        Formation::Mounted,
        Formation::Dismounted,
        Formation::Limbered,
        Formation::Unlimbered,
    ];

    /// The id used in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Skirmish => "skirmish",
            Formation::CloseOrder => "close-order",
            Formation::Mounted => "mounted",
            Formation::Dismounted => "dismounted",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// The formation a unit of this kind starts in when nothing is said.
    pub fn default_for(kind: ClassKind) -> Formation {
        match kind {
            ClassKind::Line => Formation::Line,
            ClassKind::Light => Formation::Skirmish,
            ClassKind::Cavalry => Formation::Mounted,
            ClassKind::Artillery => Formation::Unlimbered,
        }
    }

    /// Whether a unit of `kind` can be in this formation.
    pub fn fits(self, kind: ClassKind) -> bool {
        match kind {
            ClassKind::Line => matches!(
                self,
                Formation::Line | Formation::Column | Formation::Skirmish
            ),
            ClassKind::Light => {
                matches!(
                    self,
                    Formation::Line
                        | Formation::Column
                        | Formation::Skirmish
                        | Formation::CloseOrder
                )
            }
            ClassKind::Cavalry => matches!(
                self,
                Formation::Mounted | Formation::Dismounted | Formation::Column
            ),
            ClassKind::Artillery => matches!(self, Formation::Limbered | Formation::Unlimbered),
        }
    }
}

impl std::fmt::Display for Formation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for Formation {
    type Err = crate::error::Error;
    fn from_str(text: &str) -> Result<Formation, Self::Err> {
        super::parse_named(text, &Formation::ALL, Formation::id, "formation")
    }
}

/// What a unit fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fire {
    /// Does not fire.
    #[default]
    None,
    /// A normal volley.
    Volley,
    /// Double volleys (close order, target within 6").
    Double,
    /// A single volley at −1.
    MinusOne,
}

/// A physical instruction: the text for the table and its structured meaning.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Instruction {
    /// The instruction in words.
    pub does: Arc<str>,
    /// How far it moves.
    #[serde(default, rename = "move")]
    pub moves: Move,
    /// Where it heads, if it moves.
    #[serde(default)]
    pub towards: Option<Towards>,
    /// The formation it ends in, if it changes.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// What it fires.
    #[serde(default)]
    pub fire: Fire,
    /// State changes: `disordered`, `reformed`, `routed`, `guns-abandoned`.
    #[serde(default)]
    pub becomes: StateChanges,
}

/// The state changes an instruction names, shared with the tables (a clone
/// is a reference-count bump). It reads as a slice of strings and prints,
/// compares and serializes as a list of them.
#[derive(Clone, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(transparent)]
pub struct StateChanges(Arc<[String]>);

impl Deref for StateChanges {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a StateChanges {
    type Item = &'a String;
    type IntoIter = std::slice::Iter<'a, String>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Debug for StateChanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<Vec<String>> for StateChanges {
    fn from(states: Vec<String>) -> StateChanges {
        StateChanges(states.into())
    }
}

/// A situational variant: when every condition holds, `then` replaces the default.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// Conditions that must all hold.
    pub when: Vec<Condition>,
    /// The instruction in words.
    pub does: Arc<str>,
    /// How far it moves.
    #[serde(default, rename = "move")]
    pub moves: Option<Move>,
    /// Where it heads.
    #[serde(default)]
    pub towards: Option<Towards>,
    /// The formation it ends in.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// What it fires.
    #[serde(default)]
    pub fire: Option<Fire>,
    /// State changes.
    #[serde(default)]
    pub becomes: StateChanges,
}

impl Variant {
    /// The instruction this variant gives, filling unset fields with "none".
    pub fn instruction(&self) -> Instruction {
        Instruction {
            does: self.does.clone(),
            moves: self.moves.unwrap_or_default(),
            towards: self.towards,
            formation: self.formation,
            fire: self.fire.unwrap_or_default(),
            becomes: self.becomes.clone(),
        }
    }
}

/// One order's entry in `orders.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderText {
    /// The order's name.
    pub name: String,
    /// The default instruction in words.
    pub does: Arc<str>,
    /// Default move.
    #[serde(default, rename = "move")]
    pub moves: Move,
    /// Default heading.
    #[serde(default)]
    pub towards: Option<Towards>,
    /// Default formation change.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Default fire.
    #[serde(default)]
    pub fire: Fire,
    /// Default state changes.
    #[serde(default)]
    pub becomes: StateChanges,
    /// Situational variants, first match wins.
    #[serde(default)]
    pub variants: Vec<Variant>,
}

impl OrderText {
    /// The default instruction.
    pub fn default_instruction(&self) -> Instruction {
        Instruction {
            does: self.does.clone(),
            moves: self.moves,
            towards: self.towards,
            formation: self.formation,
            fire: self.fire,
            becomes: self.becomes.clone(),
        }
    }
}

/// State changes an instruction may name.
pub const STATE_CHANGES: [&str; 4] = ["disordered", "reformed", "routed", "guns-abandoned"];

impl Orders {
    /// The entry for an order. Validation guarantees every order is present.
    pub fn get(&self, order: Order) -> &OrderText {
        // Scans of these few rows are cheaper than hashing the key.
        self.orders
            .iter()
            .find_map(|(key, text)| (*key == order).then_some(text))
            .unwrap_or_else(|| panic!("order `{}` is missing", order.id()))
    }

    /// A class kind's normal move in inches. Validation guarantees every kind.
    pub fn normal_move(&self, kind: ClassKind) -> f64 {
        self.moves
            .iter()
            .find_map(|(key, inches)| (*key == kind).then_some(*inches))
            .unwrap_or(6.0)
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
        for order in Order::ALL {
            if !self.orders.contains_key(&order) {
                checker.report("orders", format!("order `{}` is missing", order.id()));
            }
        }
        for kind in [
            ClassKind::Line,
            ClassKind::Light,
            ClassKind::Cavalry,
            ClassKind::Artillery,
        ] {
            match self.moves.get(&kind) {
                None => checker.report(
                    "moves",
                    format!("normal move for `{}` is missing", kind.id()),
                ),
                Some(inches) if !(*inches > 0.0 && *inches <= 48.0) => checker.report(
                    &format!("moves.{}", kind.id()),
                    format!("a normal move must be between 0 and 48 inches, not {inches}"),
                ),
                Some(_) => {}
            }
        }
        if self.musket_range.is_nan() || self.musket_range <= 0.0 {
            checker.report("musket_range", "musket range must be positive");
        } else {
            let range = self.musket_range;
            super::check_inches(checker, "musket_range", "musket range", range, 0.0);
        }
        let behind = self.support_behind;
        if behind.is_nan() || behind <= 0.0 {
            checker.report("support_behind", "the support distance must be positive");
        } else {
            super::check_inches(checker, "support_behind", "support distance", behind, 0.0);
        }
        for (order, text) in &self.orders {
            let check_becomes = |checker: &mut Checker<'_>, path: String, becomes: &[String]| {
                for (index, state) in becomes.iter().enumerate() {
                    if !STATE_CHANGES.contains(&state.as_str()) {
                        checker.report(
                            &format!("{path}.becomes[{index}]"),
                            format!(
                                "unknown state change `{state}`{}",
                                crate::suggest::did_you_mean(state, STATE_CHANGES)
                            ),
                        );
                    }
                }
            };
            check_becomes(checker, format!("orders.{}", order.id()), &text.becomes);
            for (index, variant) in text.variants.iter().enumerate() {
                let path = format!("orders.{}.variants[{index}]", order.id());
                if variant.when.is_empty() {
                    checker.report(
                        &format!("{path}.when"),
                        "a variant needs at least one condition",
                    );
                }
                check_becomes(checker, path, &variant.becomes);
            }
        }
    }
}
