//! Scenarios as data: a scenario file is read into an unchecked
//! [`Setup`], then validated against its rule set into a playable
//! [`Scenario`] (with its [`Battlefield`] built), reporting every problem at
//! once with file, line, column and a nearest-name hint.
//!
//! Pure: the caller supplies the text. Built-in scenarios are embedded in
//! [`BUILTIN`] and found by short name.

pub mod label;
mod raw;

use crate::battlefield::grid::{MAX_RASTER_WORK, raster_work};
use crate::battlefield::{Base, Battlefield, DEFAULT_CELL, Edge, Feature, Point, Shape};
use crate::ruleset::{self, Category, Ruleset, TroopTypeId};
use crate::suggest::did_you_mean;
use crate::yaml::{Checker, Problems, Source};
use raw::{RawFacing, RawPoint, RawScenario, RawUnit};

/// Built-in scenarios: (short name, file name as shown in messages, text).
pub const BUILTIN: &[(&str, &str, &str)] = &[
    (
        "guilford",
        "scenarios/guilford.yaml",
        include_str!("../../scenarios/guilford.yaml"),
    ),
    (
        "guilford-rv",
        "scenarios/guilford-rv.yaml",
        include_str!("../../scenarios/guilford-rv.yaml"),
    ),
    (
        "guilford-ruinous",
        "scenarios/guilford-ruinous.yaml",
        include_str!("../../scenarios/guilford-ruinous.yaml"),
    ),
    (
        "henry-hill",
        "scenarios/henry-hill.yaml",
        include_str!("../../scenarios/henry-hill.yaml"),
    ),
    (
        "learning",
        "scenarios/learning.yaml",
        include_str!("../../scenarios/learning.yaml"),
    ),
    (
        "monongahela",
        "scenarios/monongahela.yaml",
        include_str!("../../scenarios/monongahela.yaml"),
    ),
    (
        "stress",
        "scenarios/stress.yaml",
        include_str!("../../scenarios/stress.yaml"),
    ),
];

/// The built-in scenario called `name`: (file name, text).
pub fn builtin(name: &str) -> Option<(&'static str, &'static str)> {
    BUILTIN
        .iter()
        .find(|(short, _, _)| *short == name)
        .map(|(_, file, text)| (*file, *text))
}

/// Short names of the built-in scenarios.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(name, _, _)| *name)
}

/// A general's or a rated unit's temperament: the Lone Warrior character
/// ratings (seed 004), shared with the tables.
pub use crate::tables::Character;

/// The character a scenario file names, if it names one.
fn parse_character(name: &str) -> Option<Character> {
    Character::ALL.into_iter().find(|c| c.id() == name)
}

/// A general's character as the scenario gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeneralCharacter {
    /// Fixed by the scenario.
    Fixed(Character),
    /// Rolled on d100 when the game starts (not at load).
    Rolled,
}

/// Which Lone Warrior reinforcement table a side draws from (seed 004).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReinforcementTable {
    /// The French column.
    French,
    /// The British column.
    British,
}

/// A side's plan for the Lone Warrior opponent (house rules PL1…, see
/// `docs/rulings.md`, "Plans"): what the army is for. The reaction test
/// still gives every unit its order; the plan decides what the order is
/// aimed at and how it is carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Every order carried out as seed 004 says, aimed at the nearest enemy.
    Free,
    /// Break or take the objective.
    Attack(Objective),
    /// Hold these lines (groups of the side's units), front to back.
    Defend(Vec<String>),
}

/// What an attacking army goes for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Objective {
    /// The enemy army: whoever is nearest.
    Army,
    /// The enemy's units of this troop type.
    Troops(TroopTypeId),
    /// A named area of the scenario, to be taken.
    Area(String),
}

impl Plan {
    /// The plan's name as files write it (`free`, `attack`, `defend`).
    pub fn name(&self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Attack(_) => "attack",
            Plan::Defend(_) => "defend",
        }
    }
}

/// How a unit is drawn up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formation {
    /// Deployed in line.
    Line,
    /// March column.
    Column,
    /// Open order.
    Skirmish,
    /// Guns limbered to move.
    Limbered,
}

impl Formation {
    const NAMES: [&'static str; 4] = ["line", "column", "skirmish", "limbered"];

    fn parse(name: &str) -> Option<Formation> {
        match name {
            "line" => Some(Formation::Line),
            "column" => Some(Formation::Column),
            "skirmish" => Some(Formation::Skirmish),
            "limbered" => Some(Formation::Limbered),
            _ => None,
        }
    }

    /// The name used in files.
    pub fn name(self) -> &'static str {
        Formation::NAMES[self as usize]
    }
}

/// A named rectangle: a deployment zone or an objective area.
#[derive(Debug, Clone, PartialEq)]
pub struct Area {
    /// Its name.
    pub name: String,
    /// South-west corner.
    pub min: Point,
    /// North-east corner.
    pub max: Point,
}

impl Area {
    /// Whether every corner of `base` is inside.
    pub fn holds(&self, base: &Base) -> bool {
        let e = crate::battlefield::geometry::EPSILON;
        base.corners().iter().all(|c| {
            c.x >= self.min.x - e
                && c.x <= self.max.x + e
                && c.y >= self.min.y - e
                && c.y <= self.max.y + e
        })
    }

    /// Whether `point` is inside.
    pub fn contains(&self, point: Point) -> bool {
        point.x >= self.min.x
            && point.x <= self.max.x
            && point.y >= self.min.y
            && point.y <= self.max.y
    }
}

/// One unit of a side's army.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Unique name across the scenario.
    pub name: String,
    /// Troop type in the rule set.
    pub troop: TroopTypeId,
    /// Lone Warrior reaction class the opponent uses for it.
    pub reaction_class: Option<String>,
    /// How it is drawn up.
    pub formation: Formation,
    /// Unit character for militia and provincials (seed 004), if given.
    pub character: Option<Character>,
    /// Where it stands, if placed; `None` for units placed in their zone
    /// when the game starts, and for reserves.
    pub base: Option<Base>,
    /// Index of its deployment zone in its side's `zones`.
    pub zone: Option<usize>,
    /// Figures or bases, where the rules count them.
    pub strength: Option<u32>,
    /// A free label such as `first line`.
    pub group: Option<String>,
}

/// A commander.
#[derive(Debug, Clone, PartialEq)]
pub struct General {
    /// His name.
    pub name: String,
    /// Temperament, fixed or rolled.
    pub character: GeneralCharacter,
    /// Rally attempts for the game (seed 000), if the rules use them.
    pub rallies: Option<u32>,
    /// Where he stands, if placed.
    pub base: Option<Base>,
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Name, e.g. `british`.
    pub name: String,
    /// Its own table edge.
    pub edge: Edge,
    /// Its commanders.
    pub generals: Vec<General>,
    /// Reinforcement table, where the scenario has one.
    pub reinforcements: Option<ReinforcementTable>,
    /// The opponent's plan for this side, as the scenario gives it (`None`:
    /// derived from the victory conditions when a game starts).
    pub plan: Option<Plan>,
    /// Deployment zones.
    pub zones: Vec<Area>,
    /// Units on the table (or placed in a zone at the start).
    pub units: Vec<Unit>,
    /// Units off the table at the start.
    pub reserves: Vec<Unit>,
}

/// What wins the battle, checked by the rules engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// More than `more_than` (a fraction) of `side`'s units have routed.
    RoutFraction {
        /// Index of the side that must lose them.
        side: usize,
        /// Fraction that must be exceeded.
        more_than: f64,
    },
    /// `count` units of `troop_type` of `side` routed or driven off the table.
    RoutOrExit {
        /// Index of the side that must lose them.
        side: usize,
        /// The troop type concerned.
        troop_type: TroopTypeId,
        /// How many.
        count: u32,
    },
    /// `side` holds `area` at the end of the game.
    HoldArea {
        /// Index of the side that must hold it.
        side: usize,
        /// The area's outline.
        area: Area,
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

/// A validated, playable scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Short name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Historical background.
    pub history: String,
    /// Game turns.
    pub turns: u32,
    /// Index of the side that moves first.
    pub first: usize,
    /// Optional rules switched on.
    pub optional_rules: Vec<String>,
    /// Named objective areas.
    pub areas: Vec<Area>,
    /// The sides.
    pub sides: Vec<Side>,
    /// Victory conditions.
    pub victory: Vec<Victory>,
    /// The table, rasterised, with the rule set it is played under. Shared:
    /// every game set up from the scenario plays on this very table, with
    /// what it has worked out once (cloning a scenario or setting up a game
    /// clones the `Arc`, not the table).
    pub battlefield: std::sync::Arc<Battlefield>,
}

impl Scenario {
    /// Every unit on every side (not reserves), with its side index.
    pub fn units(&self) -> impl Iterator<Item = (usize, &Unit)> {
        self.sides
            .iter()
            .enumerate()
            .flat_map(|(index, side)| side.units.iter().map(move |unit| (index, unit)))
    }

    /// The unit named `name`: exact (ignoring case) or a unique prefix.
    pub fn find_unit(&self, name: &str) -> Result<(usize, &Unit), crate::error::Error> {
        let names: Vec<&str> = self.units().map(|(_, u)| u.name.as_str()).collect();
        match crate::suggest::resolve(name, names.iter().copied()) {
            Ok(found) => Ok(self
                .units()
                .find(|(_, u)| u.name == found)
                .expect("resolved from this list")),
            Err(matches) if matches.len() > 1 => Err(crate::error::Error::Invalid(format!(
                "unit `{name}` is ambiguous: {}",
                matches
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            Err(_) => Err(crate::error::Error::unknown(
                "unit",
                name,
                names.iter().copied(),
            )),
        }
    }
}

/// A scenario file read but not yet checked against its rule set.
#[derive(Debug, Clone)]
pub struct Setup {
    raw: RawScenario,
}

impl Setup {
    /// Read a scenario file; only its YAML shape is checked here.
    pub fn parse(source: Source<'_>) -> Result<Setup, Problems> {
        Ok(Setup {
            raw: source.parse()?,
        })
    }

    /// The rule set the scenario names.
    pub fn ruleset_name(&self) -> &str {
        &self.raw.ruleset
    }

    /// Validate against `ruleset`, reporting every problem at once.
    /// `source` must be the text the setup was parsed from.
    pub fn validate(self, source: Source<'_>, ruleset: &Ruleset) -> Result<Scenario, Problems> {
        Validator {
            checker: Checker::new(source),
            ruleset,
        }
        .run(self.raw)
    }
}

/// Read and validate a scenario in one go, against a rule set found by
/// `rulesets(name)`.
pub fn load(
    source: Source<'_>,
    rulesets: impl FnOnce(&str) -> Option<Result<Ruleset, Problems>>,
) -> Result<Scenario, Problems> {
    let setup = Setup::parse(source)?;
    if !is_plain_name(setup.ruleset_name()) {
        return Err(Problems(vec![source.problem(
            "ruleset",
            format!(
                "rule set `{}` is not a name; name a rule set (such as `ohw-awi`): letters, digits, `-`, `_` and `.`, not a path",
                setup.ruleset_name()
            ),
        )]));
    }
    let ruleset = match rulesets(setup.ruleset_name()) {
        Some(ruleset) => ruleset?,
        None => {
            let name = setup.ruleset_name().to_string();
            let hint = did_you_mean(&name, ruleset::Ruleset::builtin_names());
            return Err(Problems(vec![
                source.problem("ruleset", format!("unknown rule set `{name}`{hint}")),
            ]));
        }
    };
    setup.validate(source, &ruleset)
}

/// Whether `name` can name a rule set: it is looked up as a file in a
/// `--tables` folder, so it must not be a path (no separators, no `..`,
/// nothing absolute, no hidden files) — only ASCII letters, digits, `-`,
/// `_` and `.`, not starting with `.`, at most 64 characters.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.'))
}

/// Reinforcement tables by name.
const REINFORCEMENTS: [&str; 2] = ["french", "british"];

struct Validator<'a> {
    checker: Checker<'a>,
    ruleset: &'a Ruleset,
}

/// The largest table side foe accepts, in inches (a 40-foot table).
const MAX_TABLE_INCHES: f64 = 480.0;

/// The most units (on the table and in reserve, all sides together) a
/// scenario may have: far beyond any table, few enough that checking
/// every pair for overlaps stays quick, and a game of 1,000 turns at this
/// size plays in under 1 GB (the README's limits give the figures).
pub const MAX_UNITS: usize = 2_500;

impl Validator<'_> {
    fn report(&mut self, path: &str, message: impl Into<String>) {
        self.checker.report(path, message);
    }

    /// Every name, group and the title: one short line of printable
    /// characters each (see [`crate::names`]).
    fn names(&mut self, raw: &RawScenario) {
        use crate::names::{MAX_NAME_CHARS, MAX_TITLE_CHARS, problem};
        let mut check = |path: String, what: &str, text: &str, max: usize| {
            if let Some(message) = problem(what, text, max) {
                self.checker.report(&path, message);
            }
        };
        check("name".into(), "scenario name", &raw.name, MAX_NAME_CHARS);
        check("title".into(), "title", &raw.title, MAX_TITLE_CHARS);
        for (index, feature) in raw.terrain.iter().enumerate() {
            if let Some(name) = &feature.name {
                check(
                    format!("terrain[{index}].name"),
                    "terrain name",
                    name,
                    MAX_NAME_CHARS,
                );
            }
        }
        for (index, area) in raw.areas.iter().enumerate() {
            check(
                format!("areas[{index}].name"),
                "area name",
                &area.name,
                MAX_NAME_CHARS,
            );
        }
        for (side_index, side) in raw.sides.iter().enumerate() {
            let path = format!("sides[{side_index}]");
            check(
                format!("{path}.name"),
                "side name",
                &side.name,
                MAX_NAME_CHARS,
            );
            for (index, general) in side.generals.iter().enumerate() {
                let at = format!("{path}.generals[{index}].name");
                check(at, "general's name", &general.name, MAX_NAME_CHARS);
            }
            for (index, zone) in side.zones.iter().enumerate() {
                let at = format!("{path}.zones[{index}].name");
                check(at, "zone name", &zone.name, MAX_NAME_CHARS);
            }
            for (list, units) in [("units", &side.units), ("reserves", &side.reserves)] {
                for (index, unit) in units.iter().enumerate() {
                    let at = format!("{path}.{list}[{index}]");
                    check(
                        format!("{at}.name"),
                        "unit name",
                        &unit.name,
                        MAX_NAME_CHARS,
                    );
                    if let Some(group) = &unit.group {
                        check(format!("{at}.group"), "group name", group, MAX_NAME_CHARS);
                    }
                }
            }
        }
    }

    /// The side's plan as the file gives it (`posture` is the old name of
    /// a defence of the side's groups in the order they are listed).
    fn plan(&mut self, side_path: &str, side: &raw::RawSide, areas: &[Area]) -> Option<Plan> {
        let mut groups: Vec<&str> = Vec::new();
        for unit in side.units.iter().chain(&side.reserves) {
            if let Some(group) = unit.group.as_deref()
                && !groups.contains(&group)
            {
                groups.push(group);
            }
        }
        let from_posture = match side.posture.as_deref() {
            None => None,
            Some("free") => Some(Plan::Free),
            Some("hold") => Some(Plan::Defend(groups.iter().map(|g| g.to_string()).collect())),
            Some(other) => {
                let hint = did_you_mean(other, ["free", "hold"]);
                self.report(
                    &format!("{side_path}.posture"),
                    format!(
                        "unknown posture `{other}`{hint}; expected free or hold (or give a `plan`)"
                    ),
                );
                None
            }
        };
        let Some(plan) = &side.plan else {
            return from_posture;
        };
        if side.posture.is_some() {
            self.report(
                &format!("{side_path}.posture"),
                "give a `plan` or the older `posture`, not both",
            );
        }
        let path = format!("{side_path}.plan");
        let (attack, defend) = match plan {
            raw::RawPlan::Name(name) => match name.as_str() {
                "free" => return Some(Plan::Free),
                "attack" => return Some(Plan::Attack(Objective::Army)),
                "defend" => {
                    if groups.is_empty() {
                        self.report(
                            &path,
                            "a defence needs lines: give the side's units a `group` each",
                        );
                    }
                    return Some(Plan::Defend(groups.iter().map(|g| g.to_string()).collect()));
                }
                other => {
                    let hint = did_you_mean(other, ["free", "attack", "defend"]);
                    self.report(
                        &path,
                        format!("unknown plan `{other}`{hint}; expected free, attack or defend"),
                    );
                    return None;
                }
            },
            raw::RawPlan::Given(given) => (given.attack.as_ref(), given.defend.as_ref()),
        };
        match (attack, defend) {
            (Some(target), None) => {
                if target == "army" {
                    return Some(Plan::Attack(Objective::Army));
                }
                if let Some(troop) = self.ruleset.troop_type(target) {
                    return Some(Plan::Attack(Objective::Troops(troop)));
                }
                if areas.iter().any(|area| area.name == *target) {
                    return Some(Plan::Attack(Objective::Area(target.clone())));
                }
                let names = std::iter::once("army")
                    .chain(self.ruleset.troop_types.iter().map(|t| t.name.as_str()))
                    .chain(areas.iter().map(|a| a.name.as_str()));
                let hint = did_you_mean(target, names);
                self.report(
                    &format!("{path}.attack"),
                    format!(
                        "unknown objective `{target}`{hint}; expected army, an enemy troop type or an area's name"
                    ),
                );
                None
            }
            (None, Some(lines)) => {
                if lines.is_empty() {
                    self.report(
                        &format!("{path}.defend"),
                        "a defence needs at least one line (a group of the side's units)",
                    );
                }
                for (index, line) in lines.iter().enumerate() {
                    if !groups.contains(&line.as_str()) {
                        let hint = did_you_mean(line, groups.iter().copied());
                        self.report(
                            &format!("{path}.defend[{index}]"),
                            format!("no unit of the side is in group `{line}`{hint}"),
                        );
                    } else if lines[..index].contains(line) {
                        self.report(
                            &format!("{path}.defend[{index}]"),
                            format!("line `{line}` is listed twice"),
                        );
                    }
                }
                Some(Plan::Defend(lines.clone()))
            }
            _ => {
                self.report(
                    &path,
                    "a plan is free, attack or defend: give `attack: TARGET` or `defend: [LINES]`, one of them",
                );
                None
            }
        }
    }

    fn point(&mut self, path: &str, raw: RawPoint) -> Point {
        if !(raw[0].is_finite() && raw[1].is_finite()) || raw[0].abs() > 1e5 || raw[1].abs() > 1e5 {
            self.report(path, "coordinates must be ordinary numbers of inches");
            return Point::new(0.0, 0.0);
        }
        Point::new(raw[0], raw[1])
    }

    fn rect(&mut self, path: &str, raw: [RawPoint; 2]) -> (Point, Point) {
        let a = self.point(&format!("{path}[0]"), raw[0]);
        let b = self.point(&format!("{path}[1]"), raw[1]);
        let min = Point::new(a.x.min(b.x), a.y.min(b.y));
        let max = Point::new(a.x.max(b.x), a.y.max(b.y));
        if max.x - min.x <= 0.0 || max.y - min.y <= 0.0 {
            self.report(
                path,
                "a rectangle needs two opposite corners with some width and depth between them",
            );
        }
        (min, max)
    }

    fn facing(&mut self, path: &str, raw: Option<&RawFacing>, default: f64) -> f64 {
        match raw {
            None => default,
            Some(RawFacing::Degrees(degrees)) if degrees.is_finite() => *degrees,
            Some(RawFacing::Degrees(_)) => {
                self.report(
                    path,
                    "facing must be a compass bearing in degrees or an edge name",
                );
                default
            }
            Some(RawFacing::Edge(name)) => match Edge::ALL.iter().find(|e| e.name() == name) {
                Some(edge) => edge.bearing(),
                None => {
                    let hint = did_you_mean(name, Edge::ALL.iter().map(|e| e.name()));
                    self.report(path, format!("unknown facing `{name}`{hint}; write degrees (0 = north, 90 = east) or an edge name"));
                    default
                }
            },
        }
    }

    fn run(mut self, raw: RawScenario) -> Result<Scenario, Problems> {
        let rules = self.ruleset;
        self.names(&raw);
        if !(raw.table.width > 0.0 && raw.table.width <= MAX_TABLE_INCHES) {
            self.report(
                "table.width",
                format!("table width must be above 0 and at most {MAX_TABLE_INCHES} inches"),
            );
        }
        if !(raw.table.height > 0.0 && raw.table.height <= MAX_TABLE_INCHES) {
            self.report(
                "table.height",
                format!("table depth must be above 0 and at most {MAX_TABLE_INCHES} inches"),
            );
        }
        let width = if raw.table.width > 0.0 && raw.table.width <= MAX_TABLE_INCHES {
            raw.table.width
        } else {
            48.0
        };
        let height = if raw.table.height > 0.0 && raw.table.height <= MAX_TABLE_INCHES {
            raw.table.height
        } else {
            48.0
        };
        let mut cell = raw.cell.unwrap_or(DEFAULT_CELL);
        if !(0.1..=6.0).contains(&cell) {
            self.report("cell", "cell size must be between 0.1 and 6 inches");
            cell = DEFAULT_CELL;
        }
        let n_cells = (width / cell).ceil() * (height / cell).ceil();
        if n_cells > crate::battlefield::grid::MAX_CELLS as f64 {
            // At the cell size if the file gives one, else at the table.
            let at = if raw.cell.is_some() { "cell" } else { "table" };
            self.report(at, format!("a {width}\" × {height}\" table at {cell}\" cells has {n_cells} cells; use bigger cells (at most {} cells)", crate::battlefield::grid::MAX_CELLS));
            cell = (width * height / crate::battlefield::grid::MAX_CELLS as f64)
                .sqrt()
                .max(cell)
                * 1.01;
        }
        if raw.turns == 0 || raw.turns > 1000 {
            self.report("turns", "a game lasts between 1 and 1000 turns");
        }
        if raw.ruleset != rules.name {
            self.report(
                "ruleset",
                format!(
                    "scenario names rule set `{}` but is being checked against `{}`",
                    raw.ruleset, rules.name
                ),
            );
        }

        // Terrain.
        let kind_names: Vec<&str> = rules.terrain.iter().map(|k| k.name.as_str()).collect();
        let mut features = Vec::new();
        for (index, feature) in raw.terrain.iter().enumerate() {
            let path = format!("terrain[{index}]");
            let Some(kind) = rules.terrain_kind(&feature.kind) else {
                let hint = did_you_mean(&feature.kind, kind_names.iter().copied());
                self.report(
                    &format!("{path}.kind"),
                    format!("unknown terrain kind `{}`{hint}", feature.kind),
                );
                continue;
            };
            let elevation = rules.kind(kind).elevation;
            let height = match (feature.height, elevation) {
                (Some(h), true) if h > 0.0 && h <= 10.0 => h,
                (Some(_), true) => {
                    self.report(
                        &format!("{path}.height"),
                        "a hill's height is between 0 and 10 levels",
                    );
                    1.0
                }
                (None, true) => 1.0,
                (Some(_), false) => {
                    self.report(
                        &format!("{path}.height"),
                        format!(
                            "`{}` has no height; only kinds with elevation (hills) do",
                            feature.kind
                        ),
                    );
                    0.0
                }
                (None, false) => 0.0,
            };
            if let Some(shape) = self.shape(&path, feature) {
                features.push(Feature {
                    kind,
                    shape,
                    height,
                    name: feature.name.clone(),
                });
            }
        }

        let areas: Vec<Area> = raw
            .areas
            .iter()
            .enumerate()
            .map(|(index, area)| {
                let (min, max) = self.rect(&format!("areas[{index}].rect"), area.rect);
                Area {
                    name: area.name.clone(),
                    min,
                    max,
                }
            })
            .collect();

        // Drawing the terrain is the one step whose cost grows with the
        // file's numbers rather than its length: bound it before drawing.
        let grid_size = (
            ((width / cell).ceil() as usize).max(1),
            ((height / cell).ceil() as usize).max(1),
        );
        let work = features.iter().fold(0u64, |work, feature| {
            let depths = rules.kind(feature.kind).elevation;
            work.saturating_add(raster_work(&feature.shape, depths, cell, grid_size))
        });
        let features = if work > MAX_RASTER_WORK {
            self.report(
                "terrain",
                format!(
                    "drawing this terrain takes about {} million cell tests at {cell}\" cells; foe draws at most {} million (use fewer or simpler features, fewer corners on hills, or bigger cells)",
                    work.div_ceil(1_000_000),
                    MAX_RASTER_WORK / 1_000_000
                ),
            );
            Vec::new()
        } else {
            features
        };
        let n_units: usize = raw
            .sides
            .iter()
            .map(|side| side.units.len() + side.reserves.len())
            .sum();
        if n_units > MAX_UNITS {
            self.report(
                "sides",
                format!("the sides have {n_units} units; foe plays at most {MAX_UNITS}"),
            );
            // Each unit is checked against every other: not for these.
            let mut problems = self.checker.into_problems();
            problems.sort_by_key(|p| (p.line, p.column));
            return Err(Problems(problems));
        }

        let battlefield = Battlefield::new(rules.clone(), width, height, cell, features);

        // Sides.
        let side_names: Vec<&str> = raw.sides.iter().map(|s| s.name.as_str()).collect();
        if raw.sides.len() < 2 {
            self.report("sides", "a battle needs at least two sides");
        }
        for (index, side) in raw.sides.iter().enumerate() {
            if side_names[..index].contains(&side.name.as_str()) {
                self.report(
                    &format!("sides[{index}].name"),
                    format!("side `{}` is named twice", side.name),
                );
            }
        }
        let side_index = |v: &mut Self, path: &str, name: &str| -> usize {
            match side_names.iter().position(|s| *s == name) {
                Some(index) => index,
                None => {
                    let hint = did_you_mean(name, side_names.iter().copied());
                    v.report(path, format!("unknown side `{name}`{hint}"));
                    usize::MAX
                }
            }
        };
        let first = side_index(&mut self, "first", &raw.first);

        let mut placed: Vec<(String, Base, String)> = Vec::new();
        let mut all_unit_names: Vec<String> = Vec::new();
        let mut sides = Vec::new();
        let general_type = rules
            .troop_types
            .iter()
            .position(|t| t.category == Category::General)
            .map(TroopTypeId);
        for (side_index_value, side) in raw.sides.iter().enumerate() {
            let side_path = format!("sides[{side_index_value}]");
            let edge = match Edge::ALL.iter().find(|e| e.name() == side.edge) {
                Some(edge) => *edge,
                None => {
                    let hint = did_you_mean(&side.edge, Edge::ALL.iter().map(|e| e.name()));
                    self.report(
                        &format!("{side_path}.edge"),
                        format!("unknown table edge `{}`{hint}", side.edge),
                    );
                    Edge::South
                }
            };
            let toward_enemy = edge.opposite().bearing();
            let reinforcements = match side.reinforcements.as_deref() {
                None => None,
                Some("french") => Some(ReinforcementTable::French),
                Some("british") => Some(ReinforcementTable::British),
                Some(other) => {
                    let hint = did_you_mean(other, REINFORCEMENTS);
                    self.report(
                        &format!("{side_path}.reinforcements"),
                        format!("unknown reinforcement table `{other}`{hint}"),
                    );
                    None
                }
            };
            let plan = self.plan(&side_path, side, &areas);
            let zones: Vec<Area> = side
                .zones
                .iter()
                .enumerate()
                .map(|(index, zone)| {
                    let (min, max) =
                        self.rect(&format!("{side_path}.zones[{index}].rect"), zone.rect);
                    Area {
                        name: zone.name.clone(),
                        min,
                        max,
                    }
                })
                .collect();
            let mut generals = Vec::new();
            for (index, general) in side.generals.iter().enumerate() {
                let path = format!("{side_path}.generals[{index}]");
                let character = if general.character == "rolled" {
                    GeneralCharacter::Rolled
                } else if let Some(c) = parse_character(&general.character) {
                    GeneralCharacter::Fixed(c)
                } else {
                    let names = Character::ALL.iter().map(|c| c.id()).chain(["rolled"]);
                    let hint = did_you_mean(&general.character, names);
                    self.report(
                        &format!("{path}.character"),
                        format!(
                            "unknown character `{}`{}",
                            general.character,
                            if hint.is_empty() {
                                "; expected rash, brave, average, cautious, timid or rolled"
                                    .to_string()
                            } else {
                                hint
                            }
                        ),
                    );
                    GeneralCharacter::Rolled
                };
                if general.rallies.is_some_and(|r| r > 100) {
                    self.report(&format!("{path}.rallies"), "at most 100 rallies");
                }
                let base = general.position.map(|position| {
                    let centre = self.point(&format!("{path}.position"), position);
                    let facing = self.facing(
                        &format!("{path}.facing"),
                        general.facing.as_ref(),
                        toward_enemy,
                    );
                    let (frontage, depth) = general_type.map_or((2.0, 2.0), |t| {
                        (rules.troop(t).frontage, rules.troop(t).depth)
                    });
                    Base::new(centre, facing, frontage, depth)
                });
                if let Some(base) = &base {
                    if !battlefield.base_on_table(base) {
                        self.report(
                            &format!("{path}.position"),
                            format!(
                                "general `{}` at {} is off the table",
                                general.name, base.centre
                            ),
                        );
                    }
                }
                generals.push(General {
                    name: general.name.clone(),
                    character,
                    rallies: general.rallies,
                    base,
                });
            }
            let mut units = Vec::new();
            for (index, unit) in side.units.iter().enumerate() {
                let path = format!("{side_path}.units[{index}]");
                if let Some(unit) = self.unit(
                    &path,
                    unit,
                    &zones,
                    toward_enemy,
                    &battlefield,
                    &mut placed,
                    &mut all_unit_names,
                    false,
                ) {
                    units.push(unit);
                }
            }
            let mut reserves = Vec::new();
            for (index, unit) in side.reserves.iter().enumerate() {
                let path = format!("{side_path}.reserves[{index}]");
                if let Some(unit) = self.unit(
                    &path,
                    unit,
                    &zones,
                    toward_enemy,
                    &battlefield,
                    &mut placed,
                    &mut all_unit_names,
                    true,
                ) {
                    reserves.push(unit);
                }
            }
            if units.is_empty()
                && reserves.is_empty()
                && side.units.is_empty()
                && side.reserves.is_empty()
            {
                self.report(
                    &format!("{side_path}.units"),
                    format!("side `{}` has no units", side.name),
                );
            }
            sides.push(Side {
                name: side.name.clone(),
                edge,
                generals,
                reinforcements,
                plan,
                zones,
                units,
                reserves,
            });
        }

        // Victory conditions: each must name things that exist.
        let troop_names: Vec<&str> = rules.troop_types.iter().map(|t| t.name.as_str()).collect();
        let mut victory = Vec::new();
        for (index, condition) in raw.victory.iter().enumerate() {
            let path = format!("victory[{index}]");
            let winner = side_index(&mut self, &format!("{path}.winner"), &condition.winner);
            let when = match &condition.when {
                raw::RawCondition::RoutFraction { side, more_than } => {
                    let side =
                        side_index(&mut self, &format!("{path}.when.rout_fraction.side"), side);
                    if !(0.0..1.0).contains(more_than) {
                        self.report(
                            &format!("{path}.when.rout_fraction.more_than"),
                            "a fraction from 0 up to (not including) 1",
                        );
                    }
                    if side < sides.len()
                        && raw.sides[side].units.is_empty()
                        && raw.sides[side].reserves.is_empty()
                    {
                        self.report(
                            &format!("{path}.when.rout_fraction.side"),
                            "that side has no units to rout",
                        );
                    }
                    Condition::RoutFraction {
                        side,
                        more_than: *more_than,
                    }
                }
                raw::RawCondition::RoutOrExit {
                    side,
                    troop_type,
                    count,
                } => {
                    let side =
                        side_index(&mut self, &format!("{path}.when.rout_or_exit.side"), side);
                    let troop = match rules.troop_type(troop_type) {
                        Some(troop) => troop,
                        None => {
                            let hint = did_you_mean(troop_type, troop_names.iter().copied());
                            self.report(
                                &format!("{path}.when.rout_or_exit.troop_type"),
                                format!("unknown troop type `{troop_type}`{hint}"),
                            );
                            TroopTypeId(usize::MAX)
                        }
                    };
                    if *count == 0 {
                        self.report(
                            &format!("{path}.when.rout_or_exit.count"),
                            "the count must be at least 1",
                        );
                    }
                    if side < sides.len() && troop.0 != usize::MAX {
                        let have = sides[side]
                            .units
                            .iter()
                            .chain(&sides[side].reserves)
                            .filter(|u| u.troop == troop)
                            .count();
                        if have < *count as usize {
                            self.report(
                                &format!("{path}.when.rout_or_exit"),
                                format!("side `{}` has {have} `{troop_type}` unit(s); the condition needs {count}", sides[side].name),
                            );
                        }
                    }
                    Condition::RoutOrExit {
                        side,
                        troop_type: troop,
                        count: *count,
                    }
                }
                raw::RawCondition::HoldArea { side, area } => {
                    let side = side_index(&mut self, &format!("{path}.when.hold_area.side"), side);
                    let found = areas.iter().find(|a| a.name == *area).cloned().or_else(|| {
                        battlefield
                            .features
                            .iter()
                            .find(|f| f.name.as_deref() == Some(area.as_str()))
                            .map(|f| {
                                let (min, max) = f.shape.bounds();
                                Area {
                                    name: area.clone(),
                                    min,
                                    max,
                                }
                            })
                    });
                    match found {
                        Some(found) => Condition::HoldArea { side, area: found },
                        None => {
                            let names = areas.iter().map(|a| a.name.as_str()).chain(
                                battlefield
                                    .features
                                    .iter()
                                    .filter_map(|f| f.name.as_deref()),
                            );
                            let hint = did_you_mean(area, names);
                            self.report(
                                &format!("{path}.when.hold_area.area"),
                                format!("no area or named terrain feature `{area}`{hint}"),
                            );
                            continue;
                        }
                    }
                }
            };
            victory.push(Victory { winner, when });
        }

        let scenario = Scenario {
            name: raw.name,
            title: raw.title,
            history: raw.history,
            turns: raw.turns,
            first,
            optional_rules: raw.optional_rules,
            areas,
            sides,
            victory,
            battlefield: std::sync::Arc::new(battlefield),
        };
        // Report in file order, as an editor would list them.
        let mut problems = self.checker.into_problems();
        if problems.is_empty() {
            return Ok(scenario);
        }
        problems.sort_by_key(|p| (p.line, p.column));
        Err(Problems(problems))
    }

    fn shape(&mut self, path: &str, feature: &raw::RawFeature) -> Option<Shape> {
        let given = [
            feature.polygon.is_some(),
            feature.rect.is_some(),
            feature.circle.is_some(),
            feature.line.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            self.report(
                path,
                "a terrain feature needs exactly one of `polygon`, `rect`, `circle` or `line`",
            );
            return None;
        }
        if feature.width.is_some() && feature.line.is_none() {
            self.report(&format!("{path}.width"), "only a `line` has a width");
        }
        if let Some(corners) = &feature.polygon {
            if corners.len() < 3 || corners.len() > 1000 {
                self.report(
                    &format!("{path}.polygon"),
                    "a polygon needs between 3 and 1000 corners",
                );
                return None;
            }
            let points = corners
                .iter()
                .enumerate()
                .map(|(i, c)| self.point(&format!("{path}.polygon[{i}]"), *c))
                .collect();
            return Some(Shape::Polygon(points));
        }
        if let Some(rect) = feature.rect {
            let (min, max) = self.rect(&format!("{path}.rect"), rect);
            return Some(Shape::Rect { min, max });
        }
        if let Some(circle) = &feature.circle {
            let centre = self.point(&format!("{path}.circle.centre"), circle.centre);
            if !(circle.radius > 0.0 && circle.radius <= MAX_TABLE_INCHES) {
                self.report(
                    &format!("{path}.circle.radius"),
                    "a radius must be above 0 inches",
                );
                return None;
            }
            return Some(Shape::Circle {
                centre,
                radius: circle.radius,
            });
        }
        let line = feature.line.as_ref()?;
        if line.len() < 2 || line.len() > 1000 {
            self.report(
                &format!("{path}.line"),
                "a line needs between 2 and 1000 points",
            );
            return None;
        }
        let points = line
            .iter()
            .enumerate()
            .map(|(i, c)| self.point(&format!("{path}.line[{i}]"), *c))
            .collect();
        let width = match feature.width {
            Some(w) if w > 0.0 && w <= 24.0 => w,
            Some(_) => {
                self.report(
                    &format!("{path}.width"),
                    "a line's width must be above 0 and at most 24 inches",
                );
                1.0
            }
            None => {
                self.report(path, "a `line` needs a `width` in inches");
                1.0
            }
        };
        Some(Shape::Line { points, width })
    }

    #[allow(clippy::too_many_arguments)]
    fn unit(
        &mut self,
        path: &str,
        raw: &RawUnit,
        zones: &[Area],
        toward_enemy: f64,
        battlefield: &Battlefield,
        placed: &mut Vec<(String, Base, String)>,
        names: &mut Vec<String>,
        reserve: bool,
    ) -> Option<Unit> {
        let rules = self.ruleset;
        if names.contains(&raw.name) {
            self.report(
                &format!("{path}.name"),
                format!("unit name `{}` is used twice", raw.name),
            );
        }
        names.push(raw.name.clone());
        let Some(troop) = rules.troop_type(&raw.troop_type) else {
            let hint = did_you_mean(
                &raw.troop_type,
                rules.troop_types.iter().map(|t| t.name.as_str()),
            );
            self.report(
                &format!("{path}.troop_type"),
                format!("unknown troop type `{}`{hint}", raw.troop_type),
            );
            return None;
        };
        let troop_type = rules.troop(troop);
        let reaction_class = match &raw.reaction_class {
            Some(class) => match ruleset::reaction_class(class) {
                Some(class) => Some(class.to_string()),
                None => {
                    let names = ruleset::REACTION_CLASSES
                        .iter()
                        .copied()
                        .chain(ruleset::REACTION_CLASS_ALIASES.iter().map(|(a, _)| *a));
                    let hint = did_you_mean(class, names);
                    self.report(
                        &format!("{path}.reaction_class"),
                        format!("unknown reaction class `{class}`{hint}"),
                    );
                    None
                }
            },
            None => troop_type.reaction_class.clone(),
        };
        let default_formation = if troop_type.category == Category::Skirmisher {
            Formation::Skirmish
        } else {
            Formation::Line
        };
        let formation = match raw.formation.as_deref() {
            None => default_formation,
            Some(name) => Formation::parse(name).unwrap_or_else(|| {
                let hint = did_you_mean(name, Formation::NAMES);
                self.report(
                    &format!("{path}.formation"),
                    format!("unknown formation `{name}`{hint}"),
                );
                default_formation
            }),
        };
        let character = raw.character.as_deref().and_then(|name| {
            let found = parse_character(name);
            if found.is_none() {
                let hint = did_you_mean(name, Character::ALL.iter().map(|c| c.id()));
                self.report(
                    &format!("{path}.character"),
                    format!("unknown character `{name}`{hint}"),
                );
            }
            found
        });
        if raw.strength.is_some_and(|s| s == 0 || s > 10_000) {
            self.report(
                &format!("{path}.strength"),
                "strength must be between 1 and 10000",
            );
        }
        let zone = raw.zone.as_deref().and_then(|name| {
            let found = zones.iter().position(|z| z.name == name);
            if found.is_none() {
                let hint = did_you_mean(name, zones.iter().map(|z| z.name.as_str()));
                self.report(
                    &format!("{path}.zone"),
                    format!("unknown deployment zone `{name}`{hint}"),
                );
            }
            found
        });
        if reserve && raw.position.is_some() {
            self.report(
                &format!("{path}.position"),
                "reserves start off the table and have no position",
            );
        }
        if !reserve && raw.position.is_none() && raw.zone.is_none() {
            self.report(
                path,
                format!(
                    "unit `{}` needs a `position` or a deployment `zone`",
                    raw.name
                ),
            );
        }
        let base = match (raw.position, reserve) {
            (Some(position), false) => {
                let centre = self.point(&format!("{path}.position"), position);
                let facing =
                    self.facing(&format!("{path}.facing"), raw.facing.as_ref(), toward_enemy);
                let base = Base::new(centre, facing, troop_type.frontage, troop_type.depth);
                let position_path = format!("{path}.position");
                if !battlefield.base_on_table(&base) {
                    self.report(
                        &position_path,
                        format!("unit `{}` at {} is off the table", raw.name, base.centre),
                    );
                } else if let Some(cell) = battlefield.grid.cell_at(centre)
                    && !battlefield.passable(troop, cell)
                {
                    let kinds: Vec<&str> = battlefield
                        .grid
                        .kinds_at(&battlefield.ruleset, cell)
                        .iter()
                        .map(|k| battlefield.ruleset.kind(*k).name.as_str())
                        .collect();
                    self.report(
                        &position_path,
                        format!(
                            "unit `{}` ({}) stands on {} at {}, which it cannot enter",
                            raw.name,
                            raw.troop_type,
                            kinds.join(" and "),
                            base.centre
                        ),
                    );
                }
                if let Some(zone) = zone.map(|z| &zones[z])
                    && !zone.holds(&base)
                {
                    self.report(
                        &position_path,
                        format!(
                            "unit `{}` at {} is outside its deployment zone `{}`",
                            raw.name, base.centre, zone.name
                        ),
                    );
                }
                if let Some((other, _, _)) =
                    placed.iter().find(|(_, other, _)| other.overlaps(&base))
                {
                    self.report(
                        &position_path,
                        format!("unit `{}` overlaps `{other}`", raw.name),
                    );
                }
                placed.push((raw.name.clone(), base, path.to_string()));
                Some(base)
            }
            _ => None,
        };
        Some(Unit {
            name: raw.name.clone(),
            troop,
            reaction_class,
            formation,
            character,
            base,
            zone,
            strength: raw.strength,
            group: raw.group.clone(),
        })
    }
}

#[cfg(test)]
mod tests;
