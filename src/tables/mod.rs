//! The Lone Warrior rule tables: loading, validation, and the shared vocabulary.
//!
//! Every rule number of the programmed opponent lives in a YAML file under
//! `tables/`. The files are embedded in the binary; a player can override
//! any of them with their own copy (`--tables DIR`). Loading parses each
//! file, validates it (bands cover their range exactly once, every class has
//! every column, cross-references resolve) and reports every problem with
//! its file, line and column. This module is pure: callers hand it text.

mod generals;
mod melee;
mod opponent;
mod orders;
mod reaction;
mod reinforcements;

pub use generals::{CharacterBand, Characters, Generals, Names, NationNames};
pub use melee::{MeleeFactor, MeleeTable, Rounds};
pub use opponent::{OpponentRules, PlanKind, PlanRules, RULE_NAMES};
pub use orders::{
    Condition, Fire, Formation, Instruction, Move, OrderText, Orders, StateChanges, Towards,
    Variant,
};
pub use reaction::{Band, ClassKind, FactorId, FactorRow, ReactionChart, TroopClass};
pub use reinforcements::{Army, Reinforcements, ReserveTest, TroopEntry};

use crate::yaml::{Checker, Problem, Problems, Source};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The table files foe reads, by name, with their built-in contents (the
/// rule sets, read with their scenarios, are [`crate::ruleset::BUILTIN`]).
pub const EMBEDDED: [(&str, &str); 8] = [
    ("reaction.yaml", include_str!("../../tables/reaction.yaml")),
    ("orders.yaml", include_str!("../../tables/orders.yaml")),
    (
        "characters.yaml",
        include_str!("../../tables/characters.yaml"),
    ),
    ("generals.yaml", include_str!("../../tables/generals.yaml")),
    (
        "reinforcements.yaml",
        include_str!("../../tables/reinforcements.yaml"),
    ),
    ("melee.yaml", include_str!("../../tables/melee.yaml")),
    ("names.yaml", include_str!("../../tables/names.yaml")),
    ("opponent.yaml", include_str!("../../tables/opponent.yaml")),
];

/// Table files foe once read and reads no more, each with where its
/// settings went: one found in a `--tables` folder is an error, not a file
/// silently passed over.
pub const RETIRED: [(&str, &str); 1] = [(
    "opponent-other-rules.yaml",
    "its settings (rv_figures_per_base, turn_to_face_degrees, the plan rules) are in opponent.yaml now",
)];

/// A table file's text and the name to report problems under.
#[derive(Debug, Clone)]
pub struct TableText {
    /// The file name, e.g. `reaction.yaml`.
    pub file: &'static str,
    /// The name shown in messages (a path for a user's file, `tables/x.yaml` for built-ins).
    pub shown_as: String,
    /// The YAML text.
    pub text: String,
}

/// The built-in table texts.
pub fn embedded_texts() -> Vec<TableText> {
    EMBEDDED
        .iter()
        .map(|(file, text)| TableText {
            file,
            shown_as: format!("tables/{file}"),
            text: (*text).to_string(),
        })
        .collect()
}

/// All the Lone Warrior tables, validated.
#[derive(Debug, Clone)]
pub struct Tables {
    /// The units' reaction chart.
    pub reaction: ReactionChart,
    /// What each order means physically.
    pub orders: Orders,
    /// Character ratings for generals and rated units.
    pub characters: Characters,
    /// General officers: reactions, meanings, start positions.
    pub generals: Generals,
    /// Reinforcement selection tables.
    pub reinforcements: Reinforcements,
    /// The figure-based melee.
    pub melee: MeleeTable,
    /// Names for rolled generals.
    pub names: Names,
    /// The opponent's house mapping and optional plan rules, for every
    /// rule set.
    pub opponent: OpponentRules,
}

impl Tables {
    /// The built-in tables, read once a run. They are validated by the
    /// test suite, so this cannot fail on a released binary.
    pub fn embedded() -> Tables {
        static EMBEDDED: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        EMBEDDED
            .get_or_init(|| match Tables::load(&embedded_texts()) {
                Ok(tables) => tables,
                Err(problems) => panic!("the built-in tables are broken:\n{problems}"),
            })
            .clone()
    }

    /// Parse and validate the given texts (one per file in [`EMBEDDED`]);
    /// every problem in every file is reported at once.
    pub fn load(texts: &[TableText]) -> Result<Tables, Problems> {
        let mut problems: Vec<Problem> = Vec::new();
        let find = |file: &str| texts.iter().find(|text| text.file == file);
        let source_of = |file: &'static str| -> Result<Source<'_>, Problem> {
            let text = find(file).ok_or_else(|| Problem {
                file: file.to_string(),
                line: None,
                column: None,
                message: "table file missing".into(),
            })?;
            Ok(Source::new(&text.shown_as, &text.text))
        };
        macro_rules! parse {
            ($file:literal, $ty:ty) => {
                match source_of($file) {
                    Ok(source) => match source.parse::<$ty>() {
                        Ok(value) => Some((value, source)),
                        Err(found) => {
                            problems.extend(found.0);
                            None
                        }
                    },
                    Err(problem) => {
                        problems.push(problem);
                        None
                    }
                }
            };
        }
        let reaction = parse!("reaction.yaml", ReactionChart);
        let orders = parse!("orders.yaml", Orders);
        let characters = parse!("characters.yaml", Characters);
        let generals = parse!("generals.yaml", Generals);
        let reinforcements = parse!("reinforcements.yaml", Reinforcements);
        let melee = parse!("melee.yaml", MeleeTable);
        let names = parse!("names.yaml", Names);
        let opponent = parse!("opponent.yaml", OpponentRules);

        if let Some((chart, source)) = &reaction {
            problems.extend(validated(*source, |checker| chart.validate(checker)));
        }
        if let Some((orders, source)) = &orders {
            problems.extend(validated(*source, |checker| orders.validate(checker)));
        }
        if let Some((characters, source)) = &characters {
            problems.extend(validated(*source, |checker| characters.validate(checker)));
        }
        if let Some((generals, source)) = &generals {
            problems.extend(validated(*source, |checker| generals.validate(checker)));
        }
        if let (Some((reinforcements, source)), Some((chart, _))) = (&reinforcements, &reaction) {
            problems.extend(validated(*source, |checker| {
                reinforcements.validate(checker, chart)
            }));
        }
        if let Some((melee, source)) = &melee {
            let chart = reaction.as_ref().map(|(chart, _)| chart);
            problems.extend(validated(*source, |checker| melee.validate(checker, chart)));
        }
        if let Some((names, source)) = &names {
            problems.extend(validated(*source, |checker| names.validate(checker)));
        }
        if let Some((opponent, source)) = &opponent {
            problems.extend(opponent.validate(*source));
        }
        match (
            reaction,
            orders,
            characters,
            generals,
            reinforcements,
            melee,
            names,
            opponent,
        ) {
            (Some(r), Some(o), Some(c), Some(g), Some(f), Some(m), Some(n), Some(p))
                if problems.is_empty() =>
            {
                Ok(Tables {
                    reaction: r.0,
                    orders: o.0,
                    characters: c.0,
                    generals: g.0,
                    reinforcements: f.0,
                    melee: m.0,
                    names: n.0,
                    opponent: p.0,
                })
            }
            _ => Err(Problems(problems)),
        }
    }
}

/// The problems `validate` reports against `source`, located in one walk
/// of its text.
fn validated(source: Source<'_>, validate: impl FnOnce(&mut Checker<'_>)) -> Vec<Problem> {
    let mut checker = Checker::new(source);
    validate(&mut checker);
    checker.into_problems()
}

/// The four columns of the reaction chart, ordered from open ground to the
/// strongest cover (then retreat), so the best cover in a cell is the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Column {
    /// Open ground.
    Open,
    /// Natural cover (woods, brush, broken ground).
    Natural,
    /// Hard cover (walls, buildings, stockades, entrenchments).
    Hard,
    /// Routing or withdrawing; also used when the unit withdrew last bound.
    Retreat,
}

impl Column {
    /// All columns in chart order.
    pub const ALL: [Column; 4] = [Column::Open, Column::Natural, Column::Hard, Column::Retreat];

    /// The id used in files and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Column::Open => "open",
            Column::Natural => "natural",
            Column::Hard => "hard",
            Column::Retreat => "retreat",
        }
    }

    /// The chart's heading for the column, in words.
    pub fn title(self) -> &'static str {
        match self {
            Column::Open => "open ground",
            Column::Natural => "natural cover",
            Column::Hard => "hard cover",
            Column::Retreat => "routing or withdrawing",
        }
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Column {
    type Err = crate::error::Error;
    fn from_str(text: &str) -> Result<Column, Self::Err> {
        parse_named(text, &Column::ALL, Column::id, "terrain column")
    }
}

/// The orders a reaction test can give. `Rout` is the withdraw order given
/// to a unit that withdrew in the last bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Charge at full speed without firing.
    Charge,
    /// Advance half distance and fire.
    AdvanceAndFire,
    /// Stand and fire.
    StandAndFire,
    /// Fire one volley at −1 and withdraw to cover.
    FireAndWithdraw,
    /// Withdraw without firing.
    Withdraw,
    /// Rout: withdraw a second bound running.
    Rout,
}

impl Order {
    /// Every order, from boldest to most fearful.
    pub const ALL: [Order; 6] = [
        Order::Charge,
        Order::AdvanceAndFire,
        Order::StandAndFire,
        Order::FireAndWithdraw,
        Order::Withdraw,
        Order::Rout,
    ];

    /// The id used in JSON and files.
    pub fn id(self) -> &'static str {
        match self {
            Order::Charge => "charge",
            Order::AdvanceAndFire => "advance_and_fire",
            Order::StandAndFire => "stand_and_fire",
            Order::FireAndWithdraw => "fire_and_withdraw",
            Order::Withdraw => "withdraw",
            Order::Rout => "rout",
        }
    }

    /// The order in words, capitalised as the seed prints it.
    pub fn title(self) -> &'static str {
        match self {
            Order::Charge => "Charge",
            Order::AdvanceAndFire => "Advance and fire",
            Order::StandAndFire => "Stand and fire",
            Order::FireAndWithdraw => "Fire and withdraw",
            Order::Withdraw => "Withdraw",
            Order::Rout => "Rout",
        }
    }

    /// Whether a unit given this order falls back (and so counts as
    /// withdrawing next bound).
    pub fn is_withdrawal(self) -> bool {
        matches!(self, Order::FireAndWithdraw | Order::Withdraw | Order::Rout)
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A character rating, for generals and for rated (militia and provincial) units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Character {
    /// Rash.
    Rash,
    /// Brave.
    Brave,
    /// Average.
    Average,
    /// Cautious.
    Cautious,
    /// Timid.
    Timid,
}

impl Character {
    /// Every character, boldest first.
    pub const ALL: [Character; 5] = [
        Character::Rash,
        Character::Brave,
        Character::Average,
        Character::Cautious,
        Character::Timid,
    ];

    /// The id used in files, JSON and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Character::Rash => "rash",
            Character::Brave => "brave",
            Character::Average => "average",
            Character::Cautious => "cautious",
            Character::Timid => "timid",
        }
    }

    /// The rating in words.
    pub fn title(self) -> &'static str {
        match self {
            Character::Rash => "Rash",
            Character::Brave => "Brave",
            Character::Average => "Average",
            Character::Cautious => "Cautious",
            Character::Timid => "Timid",
        }
    }
}

impl fmt::Display for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl FromStr for Character {
    type Err = crate::error::Error;
    fn from_str(text: &str) -> Result<Character, Self::Err> {
        parse_named(text, &Character::ALL, Character::id, "character")
    }
}

/// A general's reaction, A to E.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Reaction {
    /// Moves to the most stricken unit.
    A,
    /// Advances to the centre of the front line.
    B,
    /// Stands and does nothing.
    C,
    /// Orders up reinforcements.
    D,
    /// Rides to the rear.
    E,
}

impl Reaction {
    /// Every reaction in chart order.
    pub const ALL: [Reaction; 5] = [
        Reaction::A,
        Reaction::B,
        Reaction::C,
        Reaction::D,
        Reaction::E,
    ];

    /// The letter.
    pub fn letter(self) -> &'static str {
        match self {
            Reaction::A => "A",
            Reaction::B => "B",
            Reaction::C => "C",
            Reaction::D => "D",
            Reaction::E => "E",
        }
    }
}

impl fmt::Display for Reaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// What makes a general take a reaction test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// Own troops routing or withdrawing.
    OwnTroopsWithdrawing,
    /// Enemy attacking within six inches.
    #[serde(rename = "enemy-attacking-within-6")]
    EnemyAttackingWithin6,
    /// Enemy troops routing or withdrawing.
    EnemyWithdrawing,
}

impl Trigger {
    /// Every trigger in the seed's order.
    pub const ALL: [Trigger; 3] = [
        Trigger::OwnTroopsWithdrawing,
        Trigger::EnemyAttackingWithin6,
        Trigger::EnemyWithdrawing,
    ];

    /// The id used in files, JSON and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Trigger::OwnTroopsWithdrawing => "own-troops-withdrawing",
            Trigger::EnemyAttackingWithin6 => "enemy-attacking-within-6",
            Trigger::EnemyWithdrawing => "enemy-withdrawing",
        }
    }
}

impl FromStr for Trigger {
    type Err = crate::error::Error;
    fn from_str(text: &str) -> Result<Trigger, Self::Err> {
        parse_named(text, &Trigger::ALL, Trigger::id, "trigger")
    }
}

/// Resolve a name typed by a player to one of `all` by its id: an exact
/// match or a unique prefix; otherwise an error naming the nearest id.
pub(crate) fn parse_named<T: Copy>(
    text: &str,
    all: &[T],
    id: fn(T) -> &'static str,
    kind: &'static str,
) -> Result<T, crate::error::Error> {
    let ids: Vec<&'static str> = all.iter().map(|item| id(*item)).collect();
    match crate::suggest::resolve(text, ids.iter().copied()) {
        Ok(found) => all
            .iter()
            .copied()
            .find(|item| id(*item) == found)
            .ok_or_else(|| crate::error::Error::unknown(kind, text, ids)),
        Err(_) => Err(crate::error::Error::unknown(kind, text, ids)),
    }
}

/// The furthest a factor, a score band's limit or a melee row may be from
/// zero in a table file. Real charts use single digits; with every value
/// within this, no total of a test (a dozen values, casualties times a
/// per-figure factor, and a die) comes near the limits of `i32`, and no
/// check walks an absurd range.
pub const MAX_TABLE_VALUE: i32 = 1000;

/// The longest distance or move a table may give, in inches.
pub const MAX_TABLE_INCHES: f64 = 1000.0;

/// Report `value` at `path` unless it lies in `lo..=hi`. Returns whether it did.
pub(crate) fn check_value(
    checker: &mut Checker<'_>,
    path: &str,
    what: &str,
    value: i64,
    (lo, hi): (i64, i64),
) -> bool {
    let fits = (lo..=hi).contains(&value);
    if !fits {
        checker.report(
            path,
            format!("{what} {value} is out of range; allowed {lo} to {hi}"),
        );
    }
    fits
}

/// Report a distance in inches at `path` unless it is a number from
/// `lowest` to [`MAX_TABLE_INCHES`]. Returns whether it is.
pub(crate) fn check_inches(
    checker: &mut Checker<'_>,
    path: &str,
    what: &str,
    value: f64,
    lowest: f64,
) -> bool {
    let fits = (lowest..=MAX_TABLE_INCHES).contains(&value);
    if !fits {
        checker.report(
            path,
            format!(
                "{what} {value} is out of range; allowed {lowest} to {MAX_TABLE_INCHES} inches"
            ),
        );
    }
    fits
}

/// `-MAX_TABLE_VALUE..=MAX_TABLE_VALUE`, as `check_value` takes it.
pub(crate) const FACTOR_RANGE: (i64, i64) = (-(MAX_TABLE_VALUE as i64), MAX_TABLE_VALUE as i64);

/// Check that d100-style bands `(path, from, to)` cover `lo..=hi` exactly once,
/// reporting gaps and overlaps at the band that causes them.
pub(crate) fn check_cover(
    checker: &mut Checker<'_>,
    what: &str,
    bands: &[(String, i64, i64)],
    lo: i64,
    hi: i64,
) {
    for (path, from, to) in bands {
        if from > to {
            checker.report(path, format!("{what}: band {from}-{to} runs backwards"));
        }
        if *from < lo || *to > hi {
            checker.report(
                path,
                format!("{what}: band {from}-{to} is outside {lo}-{hi}"),
            );
        }
    }
    for value in lo..=hi {
        let owners: Vec<&(String, i64, i64)> = bands
            .iter()
            .filter(|(_, from, to)| (*from..=*to).contains(&value))
            .collect();
        if owners.is_empty() {
            // Point at the band that starts too late, or at the list itself.
            let late = bands
                .iter()
                .filter(|(_, from, _)| *from > value)
                .min_by_key(|(_, from, _)| *from);
            let at = match late {
                Some((path, ..)) => path.clone(),
                None => {
                    let first = bands.first().map(|(path, ..)| path.as_str()).unwrap_or("");
                    first
                        .rsplit_once(['[', '.'])
                        .map(|(head, _)| head)
                        .unwrap_or(first)
                        .to_string()
                }
            };
            checker.report(
                &at,
                format!("{what}: no band covers {value}; bands must cover {lo}-{hi} exactly once"),
            );
            break;
        }
        if owners.len() > 1 {
            checker.report(
                &owners[1].0,
                format!("{what}: {value} is covered by two bands; bands must cover {lo}-{hi} exactly once"),
            );
            break;
        }
    }
}

#[cfg(test)]
mod tests;
