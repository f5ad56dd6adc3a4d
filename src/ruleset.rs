//! Rule sets as data: troop types, movement and terrain effects read from
//! `tables/rulesets/*.yaml` and validated into a [`Ruleset`].
//!
//! The battlefield reads the sections named in [`BATTLEFIELD_SECTIONS`]; the
//! rules engine adds its own sections to the same file and lists them in
//! [`KNOWN_SECTIONS`], so a misspelt section name is still reported. Pure:
//! the caller supplies the text (built-in rule sets are embedded).

use crate::yaml::{Checker, Problems, Source};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// Built-in rule sets: (name, file name as shown in messages, text).
pub const BUILTIN: &[(&str, &str, &str)] = &[
    (
        "ohw-awi",
        "tables/rulesets/ohw-awi.yaml",
        include_str!("../tables/rulesets/ohw-awi.yaml"),
    ),
    (
        "ruinous-victory",
        "tables/rulesets/ruinous-victory.yaml",
        include_str!("../tables/rulesets/ruinous-victory.yaml"),
    ),
    (
        "ohw-acw",
        "tables/rulesets/ohw-acw.yaml",
        include_str!("../tables/rulesets/ohw-acw.yaml"),
    ),
];

/// Top-level sections the battlefield reads.
pub const BATTLEFIELD_SECTIONS: &[&str] = &[
    "name",
    "title",
    "categories",
    "movement",
    "sight",
    "troop_types",
    "terrain",
];

/// Top-level sections some part of foe reads; anything else is a typo.
/// The rules engine appends its sections here.
pub const KNOWN_SECTIONS: &[&str] = &[
    "name",
    "title",
    "categories",
    "movement",
    "sight",
    "troop_types",
    "terrain",
    "sequence",
    "moving",
    "charges",
    "shooting",
    "melee",
    "rout",
    "rallying",
    // The seed-001 engine's sections (`src/rv/table.rs`).
    "turn",
    "troops",
    "moves",
    "fire",
    "charging",
    "morale",
    "fighting",
    "commanders",
    "victory",
    // The seed-002 engine's own (src/acw/table.rs; `troops` and `charging`
    // are listed above).
    "activation",
    "formations",
    "terrain_effects",
    "firing",
    "casualties",
];

/// The Lone Warrior reaction classes (seed 004's eight, plus `artillery`, a
/// house rule) and the accepted aliases, mapped to their class.
pub const REACTION_CLASSES: &[&str] = &[
    "british-regulars",
    "troupes-de-la-marine",
    "rangers",
    "canadian-militia",
    "provincial-militia",
    "light-infantry",
    "local-militia",
    "light-cavalry",
    "artillery",
];

/// Reaction-class aliases: seed 004 puts Indians in one row with the
/// Canadian militia.
pub const REACTION_CLASS_ALIASES: &[(&str, &str)] = &[
    ("indians", "canadian-militia"),
    ("red-indians", "canadian-militia"),
];

/// The canonical reaction class for `name`, following aliases.
pub fn reaction_class(name: &str) -> Option<&'static str> {
    REACTION_CLASSES
        .iter()
        .copied()
        .find(|class| *class == name)
        .or_else(|| {
            REACTION_CLASS_ALIASES
                .iter()
                .find(|(alias, _)| *alias == name)
                .map(|(_, class)| *class)
        })
}

fn reaction_class_names() -> impl Iterator<Item = &'static str> {
    REACTION_CLASSES
        .iter()
        .copied()
        .chain(REACTION_CLASS_ALIASES.iter().map(|(alias, _)| *alias))
}

/// What kind of troops a troop type is (seed 000's five types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Formed foot.
    Infantry,
    /// Light troops in open order.
    Skirmisher,
    /// Horse.
    Cavalry,
    /// Guns.
    Artillery,
    /// A commander on his own base.
    General,
}

impl Category {
    /// Every category, in table order.
    pub const ALL: [Category; 5] = [
        Category::Infantry,
        Category::Skirmisher,
        Category::Cavalry,
        Category::Artillery,
        Category::General,
    ];

    /// Position in [`Category::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in files.
    pub fn name(self) -> &'static str {
        match self {
            Category::Infantry => "infantry",
            Category::Skirmisher => "skirmisher",
            Category::Cavalry => "cavalry",
            Category::Artillery => "artillery",
            Category::General => "general",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The Lone Warrior reaction-chart column terrain gives a unit in it: one of
/// the chart's columns (`open`, `natural`, `hard`; never `retreat`, which is
/// a unit's condition, not ground).
pub use crate::tables::Column;

/// How a terrain kind affects one category's movement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Movement {
    /// Fraction of normal speed: 1 is open ground, 0.5 half movement.
    Speed(f64),
    /// Cannot enter.
    Impassable,
}

/// Index of a troop type in its [`Ruleset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TroopTypeId(pub usize);

/// Index of a terrain kind in its [`Ruleset`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerrainId(pub usize);

/// One troop type: its category and base size.
#[derive(Debug, Clone, PartialEq)]
pub struct TroopType {
    /// Name used in scenarios, e.g. `british-regulars`.
    pub name: String,
    /// What kind of troops these are.
    pub category: Category,
    /// Width of the base's front edge, inches.
    pub frontage: f64,
    /// Depth of the base, inches.
    pub depth: f64,
    /// Default Lone Warrior reaction class, if the type has one.
    pub reaction_class: Option<String>,
}

/// One terrain kind and everything the rules say it does.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainKind {
    /// Name used in scenarios, e.g. `woods`.
    pub name: String,
    /// Effect on movement, by [`Category::index`].
    pub movement: [Movement; 5],
    /// Kinds whose movement effect this kind cancels in the same cell.
    pub opens: Vec<TerrainId>,
    /// Whether this is a road: the road bonus applies and moves may bend.
    pub road: bool,
    /// Whether features of this kind carry a height (hills).
    pub elevation: bool,
    /// Reaction-chart column for a unit standing in it.
    pub column: Column,
    /// Whether a target in it counts as in cover for shooting.
    pub cover: bool,
    /// Whether it blocks sight.
    pub blocks_sight: bool,
    /// How far it stands above the ground, in hill levels, when it blocks sight.
    pub sight_height: f64,
    /// Map glyph.
    pub glyph: char,
    /// SVG fill colour.
    pub fill: String,
    /// Drawing order; higher is drawn on top.
    pub layer: i32,
}

/// A validated rule set: what the battlefield needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruleset {
    /// Short name, e.g. `ohw-awi`.
    pub name: String,
    /// Human title.
    pub title: String,
    /// Normal move in inches, by [`Category::index`].
    pub move_inches: [f64; 5],
    /// Inches added to a move made along a road.
    pub road_bonus: f64,
    /// Fraction of normal speed when moving uphill.
    pub uphill_speed: f64,
    /// How far sight may run into sight-blocking terrain at either end, inches.
    pub see_into: f64,
    /// Troop types in file order.
    pub troop_types: Vec<TroopType>,
    /// Terrain kinds in file order.
    pub terrain: Vec<TerrainKind>,
    /// The kind a cell has when no feature covers it.
    pub open: TerrainId,
    /// The file it was read from: the engines read their own sections
    /// from the same text ([`Ruleset::source`]), so a rule set overridden
    /// with `--tables` is overridden for every part of foe at once.
    pub file: RulesetFile,
}

/// The file a [`Ruleset`] was read from: its name as messages show it and
/// its whole text, shared by every copy of the rule set.
#[derive(Debug, Clone, PartialEq)]
pub struct RulesetFile {
    /// The name shown in messages (`tables/rulesets/ohw-awi.yaml`, or the
    /// path of a player's own file).
    pub shown_as: std::sync::Arc<str>,
    /// The whole text, every section of it.
    pub text: std::sync::Arc<str>,
}

impl Ruleset {
    /// The file the rule set was read from, for the engines to read their
    /// own sections of it.
    pub fn source(&self) -> Source<'_> {
        Source::new(&self.file.shown_as, &self.file.text)
    }

    /// The built-in rule set called `name`.
    pub fn builtin(name: &str) -> Option<Result<Ruleset, Problems>> {
        BUILTIN
            .iter()
            .find(|(builtin, _, _)| *builtin == name)
            .map(|(_, file, text)| Ruleset::parse(Source::new(file, text)))
    }

    /// Names of the built-in rule sets.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(name, _, _)| *name)
    }

    /// Look up a troop type by exact name.
    pub fn troop_type(&self, name: &str) -> Option<TroopTypeId> {
        self.troop_types
            .iter()
            .position(|t| t.name == name)
            .map(TroopTypeId)
    }

    /// Look up a terrain kind by exact name.
    pub fn terrain_kind(&self, name: &str) -> Option<TerrainId> {
        self.terrain
            .iter()
            .position(|t| t.name == name)
            .map(TerrainId)
    }

    /// The troop type with this id.
    pub fn troop(&self, id: TroopTypeId) -> &TroopType {
        &self.troop_types[id.0]
    }

    /// The terrain kind with this id.
    pub fn kind(&self, id: TerrainId) -> &TerrainKind {
        &self.terrain[id.0]
    }

    /// Normal move of a troop type in inches.
    pub fn move_of(&self, id: TroopTypeId) -> f64 {
        self.move_inches[self.troop(id).category.index()]
    }

    /// Parse and validate a rule set, reporting every problem at once.
    pub fn parse(source: Source<'_>) -> Result<Ruleset, Problems> {
        let raw: RawRuleset = source.parse()?;
        let mut checker = Checker::new(source);
        for key in raw
            .rest
            .keys()
            .filter(|key| !KNOWN_SECTIONS.contains(&key.as_str()))
        {
            let hint = crate::suggest::did_you_mean(key, KNOWN_SECTIONS.iter().copied());
            checker.report(key, format!("unknown section `{key}`{hint}"));
        }
        let mut move_inches = [0.0; 5];
        for category in Category::ALL {
            match raw.categories.get(category.name()) {
                Some(rules) => {
                    positive(
                        &mut checker,
                        &format!("categories.{}.move", category.name()),
                        rules.r#move,
                    );
                    move_inches[category.index()] = rules.r#move;
                }
                None => checker.report(
                    "categories",
                    format!("category `{}` has no entry", category.name()),
                ),
            }
        }
        for name in raw.categories.keys() {
            if !Category::ALL.iter().any(|c| c.name() == name) {
                let hint =
                    crate::suggest::did_you_mean(name, Category::ALL.iter().map(|c| c.name()));
                checker.report(
                    &format!("categories.{name}"),
                    format!("unknown category `{name}`{hint}"),
                );
            }
        }
        if !(raw.movement.road_bonus >= 0.0 && raw.movement.road_bonus.is_finite()) {
            checker.report("movement.road_bonus", "road bonus must be 0 or more inches");
        }
        if !(raw.movement.uphill_speed > 0.0 && raw.movement.uphill_speed <= 1.0) {
            checker.report(
                "movement.uphill_speed",
                "uphill speed must be a fraction above 0 and at most 1",
            );
        }
        if !(raw.sight.see_into >= 0.0 && raw.sight.see_into.is_finite()) {
            checker.report("sight.see_into", "must be 0 or more inches");
        }

        let mut troop_types = Vec::new();
        for (index, troop) in raw.troop_types.iter().enumerate() {
            let path = format!("troop_types[{index}]");
            if raw.troop_types[..index]
                .iter()
                .any(|t| t.name == troop.name)
            {
                checker.report(
                    &format!("{path}.name"),
                    format!("troop type `{}` is listed twice", troop.name),
                );
            }
            positive(&mut checker, &format!("{path}.frontage"), troop.frontage);
            positive(&mut checker, &format!("{path}.depth"), troop.depth);
            if let Some(class) = &troop.reaction_class
                && reaction_class(class).is_none()
            {
                let hint = crate::suggest::did_you_mean(class, reaction_class_names());
                checker.report(
                    &format!("{path}.reaction_class"),
                    format!("unknown reaction class `{class}`{hint}"),
                );
            }
            troop_types.push(TroopType {
                name: troop.name.clone(),
                category: troop.category,
                frontage: troop.frontage,
                depth: troop.depth,
                reaction_class: troop
                    .reaction_class
                    .as_deref()
                    .and_then(reaction_class)
                    .map(str::to_string),
            });
        }
        if troop_types.is_empty() {
            checker.report("troop_types", "a rule set needs at least one troop type");
        }

        let names: Vec<&str> = raw.terrain.iter().map(|t| t.name.as_str()).collect();
        let mut terrain = Vec::new();
        for (index, kind) in raw.terrain.iter().enumerate() {
            let path = format!("terrain[{index}]");
            if names[..index].contains(&kind.name.as_str()) {
                checker.report(
                    &format!("{path}.name"),
                    format!("terrain kind `{}` is listed twice", kind.name),
                );
            }
            let mut movement = [Movement::Impassable; 5];
            for category in Category::ALL {
                let entry_path = format!("{path}.movement.{}", category.name());
                movement[category.index()] = match kind.movement.get(category.name()) {
                    None => {
                        checker.report(
                            &format!("{path}.movement"),
                            format!("no movement effect for `{}`", category.name()),
                        );
                        Movement::Impassable
                    }
                    Some(RawMovement::Speed(speed)) => {
                        if !(*speed > 0.0 && *speed <= 10.0) {
                            checker.report(&entry_path, "speed must be above 0 (write `impassable` instead of 0) and at most 10");
                        }
                        Movement::Speed(*speed)
                    }
                    Some(RawMovement::Word(word)) if word == "impassable" => Movement::Impassable,
                    Some(RawMovement::Word(word)) => {
                        checker.report(&entry_path, format!("expected a fraction of normal speed or `impassable`, found `{word}`"));
                        Movement::Impassable
                    }
                };
            }
            for name in kind.movement.keys() {
                if !Category::ALL.iter().any(|c| c.name() == name) {
                    let hint =
                        crate::suggest::did_you_mean(name, Category::ALL.iter().map(|c| c.name()));
                    checker.report(
                        &format!("{path}.movement.{name}"),
                        format!("unknown category `{name}`{hint}"),
                    );
                }
            }
            let mut opens = Vec::new();
            for (opened_index, opened) in kind.opens.iter().enumerate() {
                match names.iter().position(|n| n == opened) {
                    Some(found) => opens.push(TerrainId(found)),
                    None => {
                        let hint = crate::suggest::did_you_mean(opened, names.iter().copied());
                        checker.report(
                            &format!("{path}.opens[{opened_index}]"),
                            format!("unknown terrain kind `{opened}`{hint}"),
                        );
                    }
                }
            }
            if kind.blocks_sight
                && kind.sight_height.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
            {
                checker.report(
                    &format!("{path}.sight_height"),
                    "terrain that blocks sight needs a sight_height above 0",
                );
            }
            if kind.column == Column::Retreat {
                checker.report(
                    &format!("{path}.column"),
                    "terrain gives open, natural or hard; retreat is a unit's condition, not ground",
                );
            }
            let mut glyphs = kind.glyph.chars();
            let glyph = match (glyphs.next(), glyphs.next()) {
                (Some(c), None) if !c.is_control() => c,
                _ => {
                    checker.report(
                        &format!("{path}.glyph"),
                        "a glyph is exactly one printable character",
                    );
                    '?'
                }
            };
            terrain.push(TerrainKind {
                name: kind.name.clone(),
                movement,
                opens,
                road: kind.road,
                elevation: kind.elevation,
                column: kind.column,
                cover: kind.cover,
                blocks_sight: kind.blocks_sight,
                sight_height: kind.sight_height,
                glyph,
                fill: kind.fill.clone(),
                layer: kind.layer,
            });
        }
        let open = match names.iter().position(|n| *n == "open") {
            Some(index) => TerrainId(index),
            None => {
                checker.report(
                    "terrain",
                    "the terrain list needs an `open` kind for ground no feature covers",
                );
                TerrainId(0)
            }
        };
        let ruleset = Ruleset {
            name: raw.name,
            title: raw.title,
            move_inches,
            road_bonus: raw.movement.road_bonus,
            uphill_speed: raw.movement.uphill_speed,
            see_into: raw.sight.see_into,
            troop_types,
            terrain,
            open,
            file: RulesetFile {
                shown_as: source.name.into(),
                text: source.text.into(),
            },
        };
        checker.finish(ruleset)
    }
}

fn positive(checker: &mut Checker<'_>, path: &str, value: f64) {
    if !(value > 0.0 && value <= 1000.0) {
        checker.report(path, "must be a number of inches above 0 and at most 1000");
    }
}

#[derive(Debug, Deserialize)]
struct RawRuleset {
    name: String,
    title: String,
    categories: BTreeMap<String, RawCategory>,
    movement: RawMovementRules,
    sight: RawSight,
    troop_types: Vec<RawTroopType>,
    terrain: Vec<RawTerrain>,
    /// Sections other modules read; checked against [`KNOWN_SECTIONS`].
    #[serde(flatten)]
    rest: BTreeMap<String, serde_yaml::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCategory {
    r#move: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMovementRules {
    road_bonus: f64,
    uphill_speed: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSight {
    see_into: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTroopType {
    name: String,
    category: Category,
    frontage: f64,
    depth: f64,
    #[serde(default)]
    reaction_class: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawMovement {
    Speed(f64),
    Word(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTerrain {
    name: String,
    movement: BTreeMap<String, RawMovement>,
    #[serde(default)]
    opens: Vec<String>,
    #[serde(default)]
    road: bool,
    #[serde(default)]
    elevation: bool,
    column: Column,
    cover: bool,
    blocks_sight: bool,
    #[serde(default)]
    sight_height: f64,
    glyph: String,
    fill: String,
    #[serde(default)]
    layer: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn awi() -> Ruleset {
        Ruleset::builtin("ohw-awi")
            .expect("built in")
            .expect("valid")
    }

    #[test]
    fn the_builtin_ruleset_loads() {
        let rules = awi();
        assert_eq!(rules.troop_types.len(), 11);
        assert_eq!(rules.move_inches, [6.0, 6.0, 12.0, 12.0 / 2.0, 12.0]);
        assert_eq!(rules.road_bonus, 3.0);
        let grenadiers = rules.troop(rules.troop_type("grenadiers").unwrap());
        assert_eq!(
            (grenadiers.frontage, grenadiers.category),
            (4.0, Category::Infantry)
        );
        let general = rules.troop(rules.troop_type("general").unwrap());
        assert_eq!((general.frontage, general.depth), (2.0, 2.0));
    }

    #[test]
    fn reaction_classes_match_the_lone_warrior_tables() {
        // The scenario validator checks classes against this list, without
        // loading the tables; it must agree with `tables/reaction.yaml`.
        let tables = crate::tables::Tables::embedded();
        let mut ours: Vec<&str> = reaction_class_names().collect();
        let mut theirs = tables.reaction.class_names();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);
        for (alias, class) in REACTION_CLASS_ALIASES {
            assert_eq!(tables.reaction.class(alias).unwrap().0, *class);
        }
    }

    #[test]
    fn problems_are_located_and_all_reported() {
        let text = BUILTIN[0]
            .2
            .replacen("category: infantry", "category: infantri", 1);
        let problems = Ruleset::parse(Source::new("r.yaml", &text)).unwrap_err();
        assert!(problems.to_string().contains("r.yaml:"), "{problems}");

        let text = BUILTIN[0]
            .2
            .replacen("road_bonus: 3", "road_bonus: -3", 1)
            .replacen("opens: [river]", "opens: [rivr]", 1)
            .replacen("reaction_class: rangers", "reaction_class: rangrs", 1)
            + "shootin: {}\n";
        let problems = Ruleset::parse(Source::new("r.yaml", &text)).unwrap_err();
        let text = problems.to_string();
        assert_eq!(problems.0.len(), 4, "{text}");
        assert!(
            text.contains("unknown section `shootin`; did you mean `shooting`?"),
            "{text}"
        );
        assert!(
            text.contains("unknown terrain kind `rivr`; did you mean `river`?"),
            "{text}"
        );
        assert!(
            text.contains("unknown reaction class `rangrs`; did you mean `rangers`?"),
            "{text}"
        );
        assert!(text.contains("road bonus"), "{text}");
    }
}
