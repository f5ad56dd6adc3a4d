//! The units' reaction chart: troop classes by column, local factors,
//! casualty rules and score bands (seed 004, "Units Reaction Chart").

use super::{Column, FACTOR_RANGE, Order, Variant, check_cover, check_inches, check_value};
use crate::error::Error;
use crate::yaml::Checker;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// The whole chart, as `tables/reaction.yaml` gives it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionChart {
    /// The columns, in chart order (must be open, natural, hard, retreat).
    pub columns: Vec<Column>,
    /// Troop classes by id, in file order.
    pub classes: IndexMap<Arc<str>, TroopClass>,
    /// Local factors by id.
    pub factors: IndexMap<FactorId, FactorRow>,
    /// The distances that switch the distance factors on.
    pub distances: Distances,
    /// Casualty factors.
    pub casualties: CasualtyRule,
    /// Score bands, boldest first.
    pub bands: Vec<Band>,
}

/// How a class fights, which decides what an order means physically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClassKind {
    /// Close-order foot fighting in line.
    Line,
    /// Light troops fighting in skirmish order.
    Light,
    /// Mounted troops.
    Cavalry,
    /// Guns.
    Artillery,
}

impl ClassKind {
    /// The id used in files.
    pub fn id(self) -> &'static str {
        match self {
            ClassKind::Line => "line",
            ClassKind::Light => "light",
            ClassKind::Cavalry => "cavalry",
            ClassKind::Artillery => "artillery",
        }
    }
}

/// One row of the top half of the chart.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopClass {
    /// The class as the chart names it.
    pub name: Arc<str>,
    /// How it fights.
    pub kind: ClassKind,
    /// Value in open ground.
    pub open: i32,
    /// Value in natural cover.
    pub natural: i32,
    /// Value in hard cover.
    pub hard: i32,
    /// Value when routing or withdrawing.
    pub retreat: i32,
    /// Whether the class may carry a unit character factor.
    #[serde(default)]
    pub rated: bool,
    /// Other ids accepted for this class (e.g. `indians`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Why the row exists, when it is not in the seed.
    #[serde(default)]
    pub house_rule: Option<String>,
    /// The class's line in the test for each column (in [`Column::ALL`]
    /// order), built from `name` on first use.
    #[serde(skip)]
    lines: OnceLock<[Arc<str>; 4]>,
}

impl TroopClass {
    /// The class's line in a reaction test, `{name} in {column title}`
    /// (e.g. `Rangers in open ground`), shared: built once per class.
    pub fn line(&self, column: Column) -> &Arc<str> {
        let lines = self.lines.get_or_init(|| {
            Column::ALL.map(|column| format!("{} in {}", self.name, column.title()).into())
        });
        // Column::ALL lists the columns in declaration order.
        &lines[column as usize]
    }

    /// The class's value in a column.
    pub fn value(&self, column: Column) -> i32 {
        match column {
            Column::Open => self.open,
            Column::Natural => self.natural,
            Column::Hard => self.hard,
            Column::Retreat => self.retreat,
        }
    }
}

/// The local factors of the chart's second half.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FactorId {
    /// No enemy in sight.
    NoEnemyInSight,
    /// A general within 3".
    #[serde(rename = "general-within-3")]
    GeneralWithin3,
    /// The nearest enemy within 6".
    #[serde(rename = "enemy-within-6")]
    EnemyWithin6,
    /// The nearest enemy over 15" away.
    #[serde(rename = "enemy-over-15")]
    EnemyOver15,
    /// Line infantry in skirmish order.
    SkirmishOrder,
    /// Sees the enemy in retreat.
    SeesEnemyRetreat,
    /// Supporting troops within 6".
    #[serde(rename = "support-within-6")]
    SupportWithin6,
    /// Lost a melee in the last bound.
    LostMelee,
    /// Sees own troops routing (optional rule, off by default).
    SeesOwnRout,
}

impl FactorId {
    /// Every factor in chart order.
    pub const ALL: [FactorId; 9] = [
        FactorId::NoEnemyInSight,
        FactorId::GeneralWithin3,
        FactorId::EnemyWithin6,
        FactorId::EnemyOver15,
        FactorId::SkirmishOrder,
        FactorId::SeesEnemyRetreat,
        FactorId::SupportWithin6,
        FactorId::LostMelee,
        FactorId::SeesOwnRout,
    ];

    /// The id used in files and JSON.
    pub fn id(self) -> &'static str {
        match self {
            FactorId::NoEnemyInSight => "no-enemy-in-sight",
            FactorId::GeneralWithin3 => "general-within-3",
            FactorId::EnemyWithin6 => "enemy-within-6",
            FactorId::EnemyOver15 => "enemy-over-15",
            FactorId::SkirmishOrder => "skirmish-order",
            FactorId::SeesEnemyRetreat => "sees-enemy-retreat",
            FactorId::SupportWithin6 => "support-within-6",
            FactorId::LostMelee => "lost-melee",
            FactorId::SeesOwnRout => "sees-own-rout",
        }
    }
}

/// One local factor's values by column.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorRow {
    /// The factor as the chart words it.
    pub name: Arc<str>,
    /// Value in open ground.
    pub open: i32,
    /// Value in natural cover.
    pub natural: i32,
    /// Value in hard cover.
    pub hard: i32,
    /// Value when routing or withdrawing.
    pub retreat: i32,
    /// An optional rule, used only when switched on.
    #[serde(default)]
    pub optional: bool,
}

impl FactorRow {
    /// The factor's value in a column.
    pub fn value(&self, column: Column) -> i32 {
        match column {
            Column::Open => self.open,
            Column::Natural => self.natural,
            Column::Hard => self.hard,
            Column::Retreat => self.retreat,
        }
    }
}

/// Distances in inches for the two distance factors.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distances {
    /// "Enemy within 6"": applies at this distance or less.
    pub enemy_within: f64,
    /// "Enemy over 15"": applies beyond this distance.
    pub enemy_over: f64,
    /// "General within 3"": applies at this distance or less (3 when the
    /// file leaves it out).
    #[serde(default = "default_general_within")]
    pub general_within: f64,
    /// "Supporting troops within 6"": a friend at this distance or less (6
    /// when the file leaves it out).
    #[serde(default = "default_support_within")]
    pub support_within: f64,
}

fn default_general_within() -> f64 {
    3.0
}

fn default_support_within() -> f64 {
    6.0
}

/// Casualty factors.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CasualtyRule {
    /// Added once per figure lost in the last bound (−1 in the seed).
    pub per_figure_lost: i32,
    /// Added when the unit is under half strength (−6 in the seed).
    pub under_half_strength: i32,
}

/// A score band: the totals that give one order.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// Lowest total in the band; none means no lower limit.
    #[serde(default)]
    pub min: Option<i32>,
    /// Highest total in the band; none means no upper limit.
    #[serde(default)]
    pub max: Option<i32>,
    /// The order the band gives.
    pub order: Order,
    /// The band as the chart words it.
    pub text: Arc<str>,
    /// Extra instructions when their conditions hold.
    #[serde(default)]
    pub notes: Vec<Variant>,
    /// A unit that withdrew last bound routs instead.
    #[serde(default)]
    pub rout_if_withdrew_last_bound: bool,
}

impl Band {
    /// Whether `total` falls in the band.
    pub fn contains(&self, total: i32) -> bool {
        self.min.is_none_or(|min| total >= min) && self.max.is_none_or(|max| total <= max)
    }

    /// The band's range in words, e.g. `+6 to +8`, `+9 or more`.
    pub fn range_text(&self) -> String {
        match (self.min, self.max) {
            (Some(min), Some(max)) if min == max => format!("{min:+}"),
            (Some(min), Some(max)) => format!("{min:+} to {max:+}"),
            (Some(min), None) => format!("{min:+} or more"),
            (None, Some(max)) => format!("{max:+} or less"),
            (None, None) => "any total".into(),
        }
    }
}

impl ReactionChart {
    /// Find a class by id or alias; unknown names get the nearest suggestion.
    pub fn class(&self, name: &str) -> Result<(&str, &TroopClass), Error> {
        self.class_entry(name).map(|(id, class)| (&**id, class))
    }

    /// [`ReactionChart::class`], with the id as the chart's shared string.
    pub fn class_entry(&self, name: &str) -> Result<(&Arc<str>, &TroopClass), Error> {
        // Ids and aliases are matched in lower case. Names almost always
        // are already, so lower (and allocate) only a name that would change.
        let lowered;
        let wanted = if name
            .bytes()
            .any(|byte| !byte.is_ascii() || byte.is_ascii_uppercase())
        {
            lowered = name.to_lowercase();
            lowered.as_str()
        } else {
            name
        };
        for (id, class) in &self.classes {
            if **id == *wanted || class.aliases.iter().any(|alias| alias == wanted) {
                return Ok((id, class));
            }
        }
        Err(Error::unknown("troop class", name, self.class_names()))
    }

    /// Every class id and alias, for suggestions and completion.
    pub fn class_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        for (id, class) in &self.classes {
            names.push(&**id);
            names.extend(class.aliases.iter().map(String::as_str));
        }
        names
    }

    /// The band a total falls in. Validation guarantees exactly one.
    pub fn band(&self, total: i32) -> &Band {
        self.bands
            .iter()
            .find(|band| band.contains(total))
            .unwrap_or(&self.bands[0])
    }

    /// A factor's row. Validation guarantees every factor is present.
    pub fn factor(&self, id: FactorId) -> &FactorRow {
        // A scan of the nine rows is cheaper than hashing the id.
        self.factors
            .iter()
            .find_map(|(key, row)| (*key == id).then_some(row))
            .unwrap_or_else(|| panic!("factor `{}` is missing", id.id()))
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
        if self.columns != Column::ALL {
            checker.report(
                "columns",
                "columns must be [open, natural, hard, retreat] in that order",
            );
        }
        if self.classes.is_empty() {
            checker.report("classes", "at least one troop class is needed");
        }
        let mut seen = std::collections::BTreeMap::new();
        for (id, class) in &self.classes {
            for name in std::iter::once(&**id).chain(class.aliases.iter().map(String::as_str)) {
                if let Some(other) = seen.insert(name, id) {
                    checker.report(
                        &format!("classes.{id}"),
                        format!("class name `{name}` is used by both `{other}` and `{id}`"),
                    );
                }
            }
        }
        let columns = |open: i32, natural: i32, hard: i32, retreat: i32| {
            [
                ("open", open),
                ("natural", natural),
                ("hard", hard),
                ("retreat", retreat),
            ]
        };
        for (id, class) in &self.classes {
            for (column, value) in columns(class.open, class.natural, class.hard, class.retreat) {
                let path = format!("classes.{id}.{column}");
                let what = "a class value";
                check_value(checker, &path, what, value.into(), FACTOR_RANGE);
            }
        }
        for (id, row) in &self.factors {
            for (column, value) in columns(row.open, row.natural, row.hard, row.retreat) {
                let path = format!("factors.{}.{column}", id.id());
                let what = "a factor";
                check_value(checker, &path, what, value.into(), FACTOR_RANGE);
            }
        }
        for (name, value) in [
            ("per_figure_lost", self.casualties.per_figure_lost),
            ("under_half_strength", self.casualties.under_half_strength),
        ] {
            let path = format!("casualties.{name}");
            check_value(checker, &path, "a factor", value.into(), FACTOR_RANGE);
        }
        for (name, value) in [
            ("enemy_within", self.distances.enemy_within),
            ("enemy_over", self.distances.enemy_over),
            ("general_within", self.distances.general_within),
            ("support_within", self.distances.support_within),
        ] {
            let path = format!("distances.{name}");
            check_inches(checker, &path, "a distance", value, 0.0);
        }
        let mut limits_fit = true;
        for (index, band) in self.bands.iter().enumerate() {
            for (name, limit) in [("min", band.min), ("max", band.max)] {
                if let Some(limit) = limit {
                    let path = format!("bands[{index}].{name}");
                    let what = "a band limit";
                    limits_fit &= check_value(checker, &path, what, limit.into(), FACTOR_RANGE);
                }
            }
        }
        for id in FactorId::ALL {
            if !self.factors.contains_key(&id) {
                checker.report("factors", format!("factor `{}` is missing", id.id()));
            }
        }
        if !(self.distances.enemy_within >= 0.0
            && self.distances.enemy_over > self.distances.enemy_within)
        {
            checker.report(
                "distances",
                "enemy_over must be greater than enemy_within, both non-negative",
            );
        }
        // Bands must cover every integer exactly once: check the finite span
        // between the bands' limits, plus both open ends.
        let lowest_open = self.bands.iter().filter(|band| band.min.is_none()).count();
        let highest_open = self.bands.iter().filter(|band| band.max.is_none()).count();
        if lowest_open != 1 || highest_open != 1 {
            checker.report(
                "bands",
                "exactly one band must have no min (the lowest) and exactly one no max (the highest)",
            );
        }
        let limits: Vec<i32> = self
            .bands
            .iter()
            .flat_map(|band| [band.min, band.max])
            .flatten()
            .collect();
        if let (Some(lo), Some(hi), true) = (limits.iter().min(), limits.iter().max(), limits_fit) {
            let spans: Vec<(String, i64, i64)> = self
                .bands
                .iter()
                .enumerate()
                .map(|(index, band)| {
                    (
                        format!("bands[{index}]"),
                        i64::from(band.min.unwrap_or(lo - 1)),
                        i64::from(band.max.unwrap_or(hi + 1)),
                    )
                })
                .collect();
            (check_cover(
                checker,
                "score bands",
                &spans,
                i64::from(lo - 1),
                i64::from(hi + 1),
            ));
        }
        for (index, band) in self.bands.iter().enumerate() {
            if band.order == Order::Rout {
                checker.report(
                    &format!("bands[{index}].order"),
                    "a band cannot give `rout`; use rout_if_withdrew_last_bound on the withdraw band",
                );
            }
        }
    }
}
