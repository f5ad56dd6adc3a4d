//! Army files: what a player writes to set up the enemy for the companion.
//!
//! An [`ArmySetup`] is the unchecked shape of a YAML army file (or of the
//! `add`/`general` commands typed at the prompt). [`parse`] reads and checks
//! one, reporting every problem with its file, line and column; the game
//! turns a checked setup into units when the `LoadArmy` action is applied.
//! Two example armies are embedded so that `french` and `british` work as
//! short names without any file on disk.

use crate::tables::{Character, Formation, Tables};
use crate::yaml::{Checker, Problems, Source};
use serde::{Deserialize, Serialize};

/// The example armies shipped with foe, by short name.
pub const EXAMPLES: [(&str, &str); 2] = [
    ("french", include_str!("../../armies/french.yaml")),
    ("british", include_str!("../../armies/british.yaml")),
];

/// Figures a called-up reinforcement has when the army file does not say.
pub const DEFAULT_REINFORCEMENT_FIGURES: u32 = 12;

/// The most figures a unit may have; a typo guard, not a rule.
pub const MAX_FIGURES: u32 = 200;

/// An army file as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmySetup {
    /// The army in words.
    pub name: String,
    /// The nation whose names a rolled general takes (`tables/names.yaml`).
    pub nation: String,
    /// The army's reinforcement table (`tables/reinforcements.yaml`).
    pub reinforcements: String,
    /// Figures in a unit called up as a reinforcement.
    #[serde(default)]
    pub reinforcement_figures: Option<u32>,
    /// The general; rolled entirely when left out.
    #[serde(default)]
    pub general: Option<GeneralSetup>,
    /// The units on the table at the start.
    #[serde(default)]
    pub units: Vec<UnitSetup>,
}

/// A general as written: anything left out is rolled.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralSetup {
    /// Name and rank; rolled from the nation's names when left out.
    #[serde(default)]
    pub name: Option<String>,
    /// Character; rolled on d100 when left out.
    #[serde(default)]
    pub character: Option<Character>,
}

/// A unit as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSetup {
    /// One word, typed at the prompt (`2nd-provincials`).
    pub name: String,
    /// Troop class id or alias (`tables/reaction.yaml`), or a troop type
    /// of a built-in battle (`continentals`), as `foe react --class` reads it.
    pub class: String,
    /// Strength in figures.
    pub figures: u32,
    /// Starting formation; the class's usual one when left out.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Character, for militia and provincial classes only; rolled when left out.
    #[serde(default)]
    pub character: Option<Character>,
}

/// The text of an example army, by short name (unique prefixes accepted).
pub fn example(name: &str) -> Option<(&'static str, &'static str)> {
    let names = EXAMPLES.map(|(name, _)| name);
    let found = crate::suggest::resolve(name, names).ok()?;
    EXAMPLES.iter().copied().find(|(name, _)| *name == found)
}

/// Parse and check an army file; every problem is reported with its location.
pub fn parse(tables: &Tables, shown_as: &str, text: &str) -> Result<ArmySetup, Problems> {
    let source = Source::new(shown_as, text);
    let setup: ArmySetup = source.parse()?;
    let mut checker = Checker::new(source);
    for (path, message) in problems(tables, &setup) {
        checker.report(&path, message);
    }
    checker.finish(setup)
}

/// Every problem with a setup, as (YAML path, message). Used for files (where
/// the path is located) and for setups replayed from a save.
pub fn problems(tables: &Tables, setup: &ArmySetup) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    if let Err(message) = crate::names::check("army name", &setup.name) {
        problems.push(("name".to_string(), message));
    }
    if let Some(name) = setup
        .general
        .as_ref()
        .and_then(|general| general.name.as_ref())
        && let Err(message) = crate::names::check("general's name", name)
    {
        problems.push(("general.name".to_string(), message));
    }
    if !tables.names.nations.contains_key(&setup.nation) {
        problems.push((
            "nation".to_string(),
            crate::error::Error::unknown(
                "nation",
                &setup.nation,
                tables.names.nations.keys().map(String::as_str),
            )
            .to_string(),
        ));
    }
    if let Err(error) = tables.reinforcements.army(&setup.reinforcements) {
        problems.push(("reinforcements".to_string(), error.to_string()));
    }
    if let Some(figures) = setup.reinforcement_figures
        && !(1..=MAX_FIGURES).contains(&figures)
    {
        problems.push((
            "reinforcement_figures".to_string(),
            format!("a unit has 1 to {MAX_FIGURES} figures, not {figures}"),
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (index, unit) in setup.units.iter().enumerate() {
        let at = |field: &str| format!("units[{index}].{field}");
        if let Err(message) = unit_problem(tables, unit) {
            let field = if message.contains("figures") {
                "figures"
            } else if message.contains("formation") {
                "formation"
            } else if message.contains("character") {
                "character"
            } else if message.contains("name") {
                "name"
            } else {
                "class"
            };
            problems.push((at(field), message));
        }
        if seen
            .iter()
            .any(|name| name.eq_ignore_ascii_case(&unit.name))
        {
            problems.push((
                at("name"),
                format!("two units are named `{}`; names must differ", unit.name),
            ));
        }
        seen.push(&unit.name);
    }
    problems
}

/// The first problem with one unit, if any: its name, class, figures,
/// formation and character.
pub fn unit_problem(tables: &Tables, unit: &UnitSetup) -> Result<(), String> {
    check_name(&unit.name)?;
    let (class_id, _) = crate::reaction::builtin_class_word(tables, &unit.class)
        .map_err(|error| error.to_string())?;
    let (class_id, class) = tables
        .reaction
        .class(&class_id)
        .map_err(|error| error.to_string())?;
    if !(1..=MAX_FIGURES).contains(&unit.figures) {
        return Err(format!(
            "a unit has 1 to {MAX_FIGURES} figures, not {}",
            unit.figures
        ));
    }
    if let Some(formation) = unit.formation
        && !formation.fits(class.kind)
    {
        return Err(format!("{class_id} cannot be in {formation} formation"));
    }
    if unit.character.is_some() && !class.rated {
        return Err(format!(
            "{class_id} have no character rating; only militia and provincial classes are rated"
        ));
    }
    Ok(())
}

/// Unit names are one word the player types at the prompt, so they may not
/// contain spaces or `=` (which the one-line answer uses).
pub fn check_name(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '\''));
    if fine {
        Ok(())
    } else {
        Err(format!(
            "unit name `{name}` must be one word of letters, digits, `-`, `_`, `.` or `'` (at most 40)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_armies_are_valid() {
        let tables = Tables::embedded();
        for (name, text) in EXAMPLES {
            let setup = parse(&tables, name, text).unwrap_or_else(|problems| panic!("{problems}"));
            assert!(!setup.units.is_empty(), "{name}");
        }
        assert_eq!(example("fr").map(|(name, _)| name), Some("french"));
        assert!(example("prussian").is_none());
    }

    #[test]
    fn every_problem_is_located() {
        let tables = Tables::embedded();
        let text = "name: x\nnation: french\nreinforcements: french\nunits:\n  - { name: a, class: rangrs, figures: 6 }\n  - { name: b, class: rangers, figures: 0 }\n  - { name: a, class: rangers, figures: 6, character: brave }\n";
        let problems = parse(&tables, "army.yaml", text).unwrap_err().to_string();
        assert_eq!(
            problems,
            "army.yaml:5:16: unknown troop class `rangrs`; did you mean `rangers`?\n\
             army.yaml:6:32: a unit has 1 to 200 figures, not 0\n\
             army.yaml:7:44: rangers have no character rating; only militia and provincial classes are rated\n\
             army.yaml:7:7: two units are named `a`; names must differ"
        );
    }

    #[test]
    fn unknown_fields_are_refused_with_their_place() {
        let tables = Tables::embedded();
        let text = "name: x\nnation: french\nreinforcements: french\nunits:\n  - { name: a, class: rangers, figures: 6, strength: 3 }\n";
        let problems = parse(&tables, "army.yaml", text).unwrap_err().to_string();
        assert!(problems.starts_with("army.yaml:5:"), "{problems}");
        assert!(problems.contains("unknown field `strength`"), "{problems}");
    }
}
