//! The rules engine's numbers: the `sequence`, `moving`, `charges`,
//! `shooting`, `melee`, `rout` and `rallying` sections of a rule-set file,
//! validated into a [`RulesTable`] with every problem located.
//!
//! Nothing the seed gives as a number lives in code: a player can house-rule
//! a range, a modifier or a threshold by editing the file.

use crate::dice::Die;
use crate::ruleset::{BUILTIN, Category, Ruleset, TerrainId, TroopTypeId};
use crate::yaml::{Checker, Problems, Source};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A phase of a player turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Units and generals move and charge.
    Movement,
    /// Units that have not moved shoot.
    Shooting,
    /// Charges are fought out.
    Melee,
    /// Broken units leave; army resolve.
    Rout,
    /// Generals rally.
    Rallying,
}

impl Phase {
    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Movement => "movement",
            Phase::Shooting => "shooting",
            Phase::Melee => "melee",
            Phase::Rout => "rout",
            Phase::Rallying => "rallying",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kinds of action a phase may allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// [`super::Action::Pivot`].
    Pivot,
    /// [`super::Action::Move`].
    Move,
    /// [`super::Action::MoveRoad`].
    MoveRoad,
    /// [`super::Action::Charge`].
    Charge,
    /// [`super::Action::MoveGeneral`].
    MoveGeneral,
    /// [`super::Action::Fire`].
    Fire,
    /// [`super::Action::Rally`].
    Rally,
    /// [`super::Action::CallUp`].
    CallUp,
    /// [`super::Action::Enter`].
    Enter,
    /// [`super::Action::Rout`].
    Rout,
}

/// What a phase does by itself when it begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Procedure {
    /// Fight every charge made this player turn.
    Melee,
    /// Remove broken units, then army resolve.
    Rout,
}

/// One phase of the turn sequence as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseRule {
    /// Which phase.
    pub phase: Phase,
    /// What the side to act may do in it.
    #[serde(default)]
    pub actions: Vec<ActionKind>,
    /// What it does by itself; such a phase ends by itself.
    #[serde(default)]
    pub procedure: Option<Procedure>,
}

/// A set of troop types, written in the file as troop type or category names.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TroopSet {
    /// The names as written.
    pub names: Vec<String>,
    troops: Vec<TroopTypeId>,
    categories: Vec<Category>,
}

impl TroopSet {
    /// Whether `troop` (of `category`) is in the set.
    pub fn contains(&self, troop: TroopTypeId, category: Category) -> bool {
        self.troops.contains(&troop) || self.categories.contains(&category)
    }
}

/// Situations a modifier may depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Situation {
    /// The target is in cover from the shooter: it stands in cover terrain,
    /// or cover lies under the part of its base facing the shooter.
    TargetInCover,
    /// The target stands in woods or buildings (the artillery list).
    TargetInWoodsOrBuildings,
    /// The charger began its charge in the defender's flank or rear arc.
    FlankOrRearAttack,
    /// The shot is a double volley ([`super::Volley::Double`]).
    DoubleVolley,
    /// The shot is the hasty volley of troops about to withdraw
    /// ([`super::Volley::Hasty`]).
    HastyVolley,
    /// The defender is in cover from the charger (as
    /// [`Situation::TargetInCover`]) or on higher ground than the charger.
    DefenderInCoverOrUphill,
}

/// Which side of a melee a step applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The unit that charged.
    Charger,
    /// The unit charged.
    Defender,
}

/// How a modifier changes the running score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// Add (or subtract) a number.
    Add(i32),
    /// Multiply by a number.
    Multiply(i32),
}

/// One modifier, applied in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// What the player reads, e.g. `target in cover`.
    pub label: String,
    /// What it does.
    pub operation: Operation,
    /// Only for these troop types (the unit rolling).
    pub unit: Option<TroopSet>,
    /// Only against these troop types.
    pub opponent: Option<TroopSet>,
    /// Only for the charger or the defender (melee).
    pub role: Option<Role>,
    /// Only in this situation.
    pub when: Option<Situation>,
}

/// Musket shooting numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Musketry {
    /// Troop types that shoot muskets.
    pub shooters: TroopSet,
    /// Range in inches, base edge to base edge.
    pub range: f64,
    /// Modifiers in order.
    pub modifiers: Vec<Modifier>,
}

/// Artillery shooting numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Gunnery {
    /// Troop types that shoot as artillery.
    pub shooters: TroopSet,
    /// Inches per range bound.
    pub bound: f64,
    /// Longest shot offered, inches.
    pub max_range: f64,
    /// Modifiers after the bounds are deducted.
    pub modifiers: Vec<Modifier>,
    /// Terrain kinds that count as woods or buildings.
    pub woods_or_buildings: Vec<TerrainId>,
}

/// Who may fire one of seed 004's volleys, and at what range.
#[derive(Debug, Clone, PartialEq)]
pub struct VolleyRule {
    /// Troop types that may fire it.
    pub shooters: TroopSet,
    /// Farthest target, inches base to base.
    pub within: f64,
}

/// What happens when both units in a melee end with the same total hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ties {
    /// The charger is repulsed and retreats.
    ChargerRetreats,
    /// Nobody retreats.
    NobodyRetreats,
}

/// A general's quality for the rally budget (seed 000 guidelines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quality {
    /// An average general.
    Average,
    /// An above-average general.
    AboveAverage,
    /// An exceptional general.
    Exceptional,
}

/// A force's supply for the rally budget (seed 000 guidelines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Supply {
    /// Poorly supplied, or after a forced march.
    Poor,
    /// Neither.
    Normal,
    /// Well supplied.
    Well,
}

/// The rally budget guidelines.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// Rallies per unit of each troop type.
    pub per_unit: Vec<(TroopTypeId, i32)>,
    /// Rallies for the general's quality.
    pub general: IndexMap<Quality, i32>,
    /// Rallies for the force's supply.
    pub supply: IndexMap<Supply, i32>,
    /// Quality assumed when a scenario says nothing.
    pub default_general: Quality,
    /// Supply assumed when a scenario says nothing.
    pub default_supply: Supply,
}

/// Every number the seed-000 rules engine uses, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct RulesTable {
    /// The phases of a player turn, in order.
    pub phases: Vec<PhaseRule>,
    /// Within this many inches of an enemy a unit may only go directly
    /// towards or directly away.
    pub enemy_presence: f64,
    /// Degrees either side of the line that count as "directly".
    pub directly_within: f64,
    /// How far (inches) a non-charge move must stay from every enemy.
    pub keep_clear: f64,
    /// Largest pivot at the start of a charge, degrees.
    pub charge_max_pivot: f64,
    /// Whether charges earn the road bonus.
    pub charge_road_bonus: bool,
    /// What each charger may charge: (charger, targets), first match wins.
    pub may_charge: Vec<(TroopSet, TroopSet)>,
    /// The die for shooting.
    pub shooting_die: Die,
    /// No friendly unit within this many inches of the target.
    pub friendly_clearance: f64,
    /// Muskets.
    pub musket: Musketry,
    /// Guns.
    pub artillery: Gunnery,
    /// Seed 004's double volleys (none: not allowed).
    pub double_volley: Option<VolleyRule>,
    /// Seed 004's volley before withdrawing (none: not allowed).
    pub hasty_volley: Option<VolleyRule>,
    /// The die for melee.
    pub melee_die: Die,
    /// Melee modifiers in order.
    pub melee_steps: Vec<Modifier>,
    /// Equal totals.
    pub ties: Ties,
    /// Hits at which a unit routs, by [`Category::index`] (0 = never).
    pub rout_at: [u32; 5],
    /// Army resolve: a force that has lost more than this fraction...
    pub resolve_lost_more_than: f64,
    /// ...takes this many hits on every remaining unit, once.
    pub resolve_hits: u32,
    /// The die for rallies.
    pub rally_die: Die,
    /// Command range in inches.
    pub rally_range: f64,
    /// Most hits one rally removes from a unit, by troop type (0 = cannot be rallied).
    pub rally_max: Vec<u32>,
    /// Rally budget guidelines.
    pub budget: Budget,
}

impl RulesTable {
    /// The rules sections of `ruleset`'s own file (the one its battlefield
    /// sections were read from: built in, or a player's under `--tables`).
    pub fn of(ruleset: &Ruleset) -> Result<RulesTable, Problems> {
        RulesTable::parse(ruleset.source(), ruleset)
    }

    /// The rules sections of the built-in rule set `name`, checked against
    /// its battlefield sections.
    pub fn builtin(name: &str, ruleset: &Ruleset) -> Option<Result<RulesTable, Problems>> {
        BUILTIN
            .iter()
            .find(|(builtin, _, _)| *builtin == name)
            .map(|(_, file, text)| RulesTable::parse(Source::new(file, text), ruleset))
    }

    /// Who may fire `volley`, and how near (`None`: nobody; a single
    /// volley has no rule, it is every shooter's).
    pub fn volley(&self, volley: super::Volley) -> Option<&VolleyRule> {
        match volley {
            super::Volley::Single => None,
            super::Volley::Double => self.double_volley.as_ref(),
            super::Volley::Hasty => self.hasty_volley.as_ref(),
        }
    }

    /// The phase rule for `phase`.
    pub fn phase(&self, phase: Phase) -> Option<&PhaseRule> {
        self.phases.iter().find(|rule| rule.phase == phase)
    }

    /// Hits at which a unit of `category` routs (`None`: never).
    pub fn rout_threshold(&self, category: Category) -> Option<u32> {
        let threshold = self.rout_at[category.index()];
        (threshold > 0).then_some(threshold)
    }

    /// Parse and validate the rules sections of a rule-set file, reporting
    /// every problem at once. Troop and terrain names are checked against
    /// `ruleset` (the same file's battlefield sections).
    pub fn parse(source: Source<'_>, ruleset: &Ruleset) -> Result<RulesTable, Problems> {
        let raw: RawRules = source.parse()?;
        let mut checker = Checker::new(source);
        let mut names = Names {
            ruleset,
            checker: &mut checker,
        };

        // The turn sequence.
        let mut phases = Vec::new();
        for (index, rule) in raw.sequence.phases.iter().enumerate() {
            let path = format!("sequence.phases[{index}]");
            if phases.iter().any(|p: &PhaseRule| p.phase == rule.phase) {
                names
                    .checker
                    .report(&path, format!("phase `{}` is listed twice", rule.phase));
            }
            if rule.procedure.is_some() && !rule.actions.is_empty() {
                names.checker.report(
                    &path,
                    "a phase with a procedure ends by itself, so it cannot also allow actions",
                );
            }
            phases.push(rule.clone());
        }
        if phases.is_empty() {
            names
                .checker
                .report("sequence.phases", "a player turn needs at least one phase");
        }

        let moving = &raw.moving;
        names.inches("moving.enemy_presence", moving.enemy_presence);
        names.inches("moving.keep_clear", moving.keep_clear);
        names.degrees("moving.directly_within", moving.directly_within);
        names.degrees("charges.max_pivot", raw.charges.max_pivot);

        let mut may_charge = Vec::new();
        for (charger, targets) in &raw.charges.may_charge {
            let path = format!("charges.may_charge.{charger}");
            let charger_set = names.set(&path, std::slice::from_ref(charger));
            let target_set = names.set(&path, targets);
            may_charge.push((charger_set, target_set));
        }

        names.inches(
            "shooting.friendly_clearance",
            raw.shooting.friendly_clearance,
        );
        names.inches("shooting.musket.range", raw.shooting.musket.range);
        let musket = Musketry {
            shooters: names.set("shooting.musket.shooters", &raw.shooting.musket.shooters),
            range: raw.shooting.musket.range,
            modifiers: names.modifiers("shooting.musket.modifiers", &raw.shooting.musket.modifiers),
        };
        let gunnery = &raw.shooting.artillery;
        names.inches("shooting.artillery.bound", gunnery.bound);
        names.inches("shooting.artillery.max_range", gunnery.max_range);
        let mut woods_or_buildings = Vec::new();
        for (index, kind) in gunnery.woods_or_buildings.iter().enumerate() {
            match ruleset.terrain_kind(kind) {
                Some(id) => woods_or_buildings.push(id),
                None => {
                    let hint = crate::suggest::did_you_mean(
                        kind,
                        ruleset.terrain.iter().map(|t| t.name.as_str()),
                    );
                    names.checker.report(
                        &format!("shooting.artillery.woods_or_buildings[{index}]"),
                        format!("unknown terrain kind `{kind}`{hint}"),
                    );
                }
            }
        }
        let artillery = Gunnery {
            shooters: names.set("shooting.artillery.shooters", &gunnery.shooters),
            bound: gunnery.bound,
            max_range: gunnery.max_range,
            modifiers: names.modifiers("shooting.artillery.modifiers", &gunnery.modifiers),
            woods_or_buildings,
        };
        let mut volley_rule = |name: &str, raw: &Option<RawVolley>| {
            raw.as_ref().map(|raw| {
                let path = format!("shooting.volleys.{name}");
                names.inches(&format!("{path}.within"), raw.within);
                VolleyRule {
                    shooters: names.set(&format!("{path}.shooters"), &raw.shooters),
                    within: raw.within,
                }
            })
        };
        let double_volley = volley_rule("double", &raw.shooting.volleys.double);
        let hasty_volley = volley_rule("hasty", &raw.shooting.volleys.hasty);
        let melee_steps = names.modifiers("melee.steps", &raw.melee.steps);

        let mut rout_at = [0u32; 5];
        for (name, threshold) in &raw.rout.thresholds {
            match Category::ALL.iter().find(|c| c.name() == name) {
                Some(category) => {
                    if *threshold == 0 {
                        names.checker.report(
                            &format!("rout.thresholds.{name}"),
                            "a rout threshold must be at least 1 hit",
                        );
                    }
                    rout_at[category.index()] = *threshold;
                }
                None => {
                    let hint =
                        crate::suggest::did_you_mean(name, Category::ALL.iter().map(|c| c.name()));
                    names.checker.report(
                        &format!("rout.thresholds.{name}"),
                        format!("unknown category `{name}`{hint}"),
                    );
                }
            }
        }
        let resolve = &raw.rout.army_resolve;
        if !(resolve.lost_more_than >= 0.0 && resolve.lost_more_than < 1.0) {
            names.checker.report(
                "rout.army_resolve.lost_more_than",
                "must be a fraction from 0 up to (not including) 1",
            );
        }

        names.inches("rallying.range", raw.rallying.range);
        let mut rally_max = vec![0u32; ruleset.troop_types.len()];
        for (name, maximum) in &raw.rallying.maxima {
            if let Some(id) = names.troop(&format!("rallying.maxima.{name}"), name) {
                rally_max[id.0] = *maximum;
            }
        }
        let mut per_unit = Vec::new();
        for (name, rallies) in &raw.rallying.budget.per_unit {
            if let Some(id) = names.troop(&format!("rallying.budget.per_unit.{name}"), name) {
                per_unit.push((id, *rallies));
            }
        }
        let budget_raw = &raw.rallying.budget;
        let budget = Budget {
            per_unit,
            general: budget_raw.general.clone(),
            supply: budget_raw.supply.clone(),
            default_general: budget_raw.default_general,
            default_supply: budget_raw.default_supply,
        };
        if !budget.general.contains_key(&budget.default_general) {
            checker.report(
                "rallying.budget.default_general",
                "the default general quality has no entry under `general`",
            );
        }
        if !budget.supply.contains_key(&budget.default_supply) {
            checker.report(
                "rallying.budget.default_supply",
                "the default supply has no entry under `supply`",
            );
        }

        let table = RulesTable {
            phases,
            enemy_presence: moving.enemy_presence,
            directly_within: moving.directly_within,
            keep_clear: moving.keep_clear,
            charge_max_pivot: raw.charges.max_pivot,
            charge_road_bonus: raw.charges.road_bonus,
            may_charge,
            shooting_die: raw.shooting.die,
            friendly_clearance: raw.shooting.friendly_clearance,
            musket,
            artillery,
            double_volley,
            hasty_volley,
            melee_die: raw.melee.die,
            melee_steps,
            ties: raw.melee.ties,
            rout_at,
            resolve_lost_more_than: resolve.lost_more_than,
            resolve_hits: resolve.hits,
            rally_die: raw.rallying.die,
            rally_range: raw.rallying.range,
            rally_max,
            budget,
        };
        checker.finish(table)
    }

    /// The targets `troop` may charge, from the first `may_charge` entry
    /// naming its troop type, else its category.
    pub fn may_charge(&self, charger: TroopTypeId, category: Category) -> Option<&TroopSet> {
        self.may_charge
            .iter()
            .find(|(set, _)| set.troops.contains(&charger))
            .or_else(|| {
                self.may_charge
                    .iter()
                    .find(|(set, _)| set.categories.contains(&category))
            })
            .map(|(_, targets)| targets)
    }
}

/// Resolves names against the rule set, reporting unknown ones.
struct Names<'a, 'b> {
    ruleset: &'a Ruleset,
    checker: &'a mut Checker<'b>,
}

impl Names<'_, '_> {
    fn inches(&mut self, path: &str, value: f64) {
        if !(0.0..=1000.0).contains(&value) {
            self.checker
                .report(path, "must be a number of inches from 0 to 1000");
        }
    }

    fn degrees(&mut self, path: &str, value: f64) {
        if !(0.0..=180.0).contains(&value) {
            self.checker
                .report(path, "must be an angle from 0 to 180 degrees");
        }
    }

    fn troop(&mut self, path: &str, name: &str) -> Option<TroopTypeId> {
        let found = self.ruleset.troop_type(name);
        if found.is_none() {
            let hint = crate::suggest::did_you_mean(
                name,
                self.ruleset.troop_types.iter().map(|t| t.name.as_str()),
            );
            self.checker
                .report(path, format!("unknown troop type `{name}`{hint}"));
        }
        found
    }

    fn set(&mut self, path: &str, written: &[String]) -> TroopSet {
        let mut set = TroopSet {
            names: written.to_vec(),
            ..TroopSet::default()
        };
        for name in written {
            if let Some(id) = self.ruleset.troop_type(name) {
                set.troops.push(id);
            } else if let Some(category) = Category::ALL.iter().find(|c| c.name() == name) {
                set.categories.push(*category);
            } else {
                let known = self
                    .ruleset
                    .troop_types
                    .iter()
                    .map(|t| t.name.as_str())
                    .chain(Category::ALL.iter().map(|c| c.name()));
                let hint = crate::suggest::did_you_mean(name, known);
                self.checker.report(
                    path,
                    format!("unknown troop type or category `{name}`{hint}"),
                );
            }
        }
        set
    }

    fn modifiers(&mut self, path: &str, raw: &[RawModifier]) -> Vec<Modifier> {
        let mut modifiers = Vec::new();
        for (index, step) in raw.iter().enumerate() {
            let path = format!("{path}[{index}]");
            let operation = match (step.add, step.multiply) {
                (Some(add), None) if !(-1000..=1000).contains(&add) => {
                    self.checker
                        .report(&path, format!("add: {add} is not from -1000 to 1000"));
                    Operation::Add(0)
                }
                (None, Some(multiply)) if !(-1000..=1000).contains(&multiply) => {
                    self.checker.report(
                        &path,
                        format!("multiply: {multiply} is not from -1000 to 1000"),
                    );
                    Operation::Multiply(1)
                }
                (Some(add), None) => Operation::Add(add),
                (None, Some(multiply)) => Operation::Multiply(multiply),
                _ => {
                    self.checker.report(
                        &path,
                        "a modifier needs exactly one of `add` and `multiply`",
                    );
                    Operation::Add(0)
                }
            };
            modifiers.push(Modifier {
                label: step.label.clone(),
                operation,
                unit: step
                    .unit
                    .as_ref()
                    .map(|names| self.set(&format!("{path}.unit"), names)),
                opponent: step
                    .opponent
                    .as_ref()
                    .map(|names| self.set(&format!("{path}.opponent"), names)),
                role: step.role,
                when: step.when,
            });
        }
        modifiers
    }
}

#[derive(Debug, Deserialize)]
struct RawRules {
    sequence: RawSequence,
    moving: RawMoving,
    charges: RawCharges,
    shooting: RawShooting,
    melee: RawMelee,
    rout: RawRout,
    rallying: RawRallying,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSequence {
    phases: Vec<PhaseRule>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoving {
    enemy_presence: f64,
    directly_within: f64,
    keep_clear: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharges {
    max_pivot: f64,
    road_bonus: bool,
    may_charge: IndexMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShooting {
    die: Die,
    friendly_clearance: f64,
    musket: RawMusket,
    artillery: RawArtillery,
    #[serde(default)]
    volleys: RawVolleys,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVolleys {
    #[serde(default)]
    double: Option<RawVolley>,
    #[serde(default)]
    hasty: Option<RawVolley>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVolley {
    shooters: Vec<String>,
    within: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMusket {
    shooters: Vec<String>,
    range: f64,
    modifiers: Vec<RawModifier>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArtillery {
    shooters: Vec<String>,
    bound: f64,
    max_range: f64,
    modifiers: Vec<RawModifier>,
    woods_or_buildings: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModifier {
    label: String,
    #[serde(default)]
    add: Option<i32>,
    #[serde(default)]
    multiply: Option<i32>,
    #[serde(default)]
    unit: Option<Vec<String>>,
    #[serde(default)]
    opponent: Option<Vec<String>>,
    #[serde(default)]
    role: Option<Role>,
    #[serde(default)]
    when: Option<Situation>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMelee {
    die: Die,
    steps: Vec<RawModifier>,
    ties: Ties,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRout {
    thresholds: IndexMap<String, u32>,
    army_resolve: RawResolve,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResolve {
    lost_more_than: f64,
    hits: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRallying {
    die: Die,
    range: f64,
    maxima: IndexMap<String, u32>,
    budget: RawBudget,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBudget {
    per_unit: IndexMap<String, i32>,
    general: IndexMap<Quality, i32>,
    supply: IndexMap<Supply, i32>,
    default_general: Quality,
    default_supply: Supply,
}
