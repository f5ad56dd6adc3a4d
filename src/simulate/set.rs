//! `--set KEY=VALUE`: change a scenario parameter for a run without editing
//! the file.
//!
//! The change is made on the YAML document before validation, so a value
//! the scenario cannot take is reported by the normal validation. A KEY is
//! a path of dot-separated steps from the top of the file:
//!
//! - in a mapping, a step is a key: `turns`, `table.width`;
//! - in a list, a step is an item's `name` (ignoring case; a unique prefix
//!   will do; a name with dots in it is matched whole), or a 0-based
//!   position: `sides.british.generals.Cornwallis.rallies`,
//!   `sides.americans.units.1st Maryland.troop_type`, `victory.0.winner`.
//!
//! The last step may add a key the scenario format knows (`rallies` to a
//! general that has none); any other unknown step is refused in one line
//! naming the nearest valid one. A VALUE is read as YAML: `10` is a number,
//! `rash` a word, `[24, 30]` a point.

use serde_yaml::{Mapping, Value};
use std::fmt;

/// One `KEY=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The path.
    pub key: String,
    /// The new value.
    pub value: Value,
}

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, show(&self.value))
    }
}

/// A value as it would be typed after `=`.
pub fn show(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        other => serde_yaml::to_string(other)
            .map(|text| text.trim().replace('\n', " "))
            .unwrap_or_default(),
    }
}

/// Why a `--set` does not apply; one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetError(pub String);

/// Every key a scenario file may hold, at any depth: the last step of a
/// path may add one of these where it is missing (validation then says
/// whether it belongs there).
const KNOWN_KEYS: &[&str] = &[
    "name",
    "title",
    "history",
    "ruleset",
    "table",
    "width",
    "height",
    "cell",
    "turns",
    "first",
    "optional_rules",
    "terrain",
    "areas",
    "sides",
    "victory",
    "kind",
    "polygon",
    "rect",
    "circle",
    "centre",
    "radius",
    "line",
    "edge",
    "generals",
    "reinforcements",
    "zones",
    "units",
    "reserves",
    "character",
    "rallies",
    "position",
    "facing",
    "troop_type",
    "reaction_class",
    "formation",
    "zone",
    "strength",
    "group",
    "winner",
    "when",
];

impl Assignment {
    /// Read `KEY=VALUE`.
    pub fn parse(text: &str) -> Result<Assignment, SetError> {
        let (key, value) = text
            .split_once('=')
            .ok_or_else(|| SetError(format!("--set: `{text}` is not KEY=VALUE")))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(SetError(format!("--set: `{text}` has no KEY before `=`")));
        }
        Ok(Assignment {
            key: key.to_string(),
            value: parse_value(value.trim()),
        })
    }
}

/// A value typed on the command line, read as YAML (a plain word if it is
/// not valid YAML).
pub fn parse_value(text: &str) -> Value {
    // Text past the bounds every YAML text is held to is not parsed: it
    // is taken as the word it is, and validation refuses it there.
    if crate::yaml::bounds::check("--set", text, crate::yaml::Language::Yaml).is_err() {
        return Value::String(text.to_string());
    }
    serde_yaml::from_str::<Value>(text)
        .ok()
        .filter(|value| !value.is_null() || text == "null" || text == "~")
        .unwrap_or_else(|| Value::String(text.to_string()))
}

/// The scenario text with every assignment made, in order.
pub fn apply_to_text(text: &str, assignments: &[Assignment]) -> Result<String, SetError> {
    crate::yaml::bounds::check("the scenario", text, crate::yaml::Language::Yaml)
        .map_err(|problem| SetError(problem.to_string()))?;
    let mut root: Value = serde_yaml::from_str(text)
        .map_err(|error| SetError(format!("the scenario is not YAML: {error}")))?;
    for assignment in assignments {
        apply(&mut root, &assignment.key, assignment.value.clone())?;
    }
    serde_yaml::to_string(&root).map_err(|error| SetError(error.to_string()))
}

/// Set the value at `key` in a YAML document.
pub fn apply(root: &mut Value, key: &str, value: Value) -> Result<(), SetError> {
    let steps: Vec<&str> = key.split('.').collect();
    let mut node = root;
    let mut at = 0;
    let mut walked = String::new();
    while at < steps.len() {
        let last = at + 1 == steps.len();
        let step = steps[at];
        let here = if walked.is_empty() {
            "the top of the scenario".to_string()
        } else {
            format!("`{walked}`")
        };
        match node {
            Value::Mapping(map) => {
                let keys = map_keys(map);
                let found = keys.iter().find(|k| k.eq_ignore_ascii_case(step)).cloned();
                let name = match found {
                    Some(name) => name,
                    None if last && KNOWN_KEYS.contains(&step) => {
                        map.insert(Value::String(step.to_string()), value);
                        return Ok(());
                    }
                    None => return Err(unknown("key", step, &here, keys.iter())),
                };
                if last {
                    map.insert(Value::String(name), value);
                    return Ok(());
                }
                node = map
                    .get_mut(Value::String(name.clone()))
                    .expect("key just found");
                push(&mut walked, &name);
                at += 1;
            }
            Value::Sequence(items) => {
                let (position, used) = find_item(items, &steps[at..]).ok_or_else(|| {
                    let names: Vec<String> = items.iter().filter_map(item_name).collect();
                    unknown("item", step, &here, names.iter())
                })?;
                let shown = item_name(&items[position]).unwrap_or_else(|| position.to_string());
                if at + used == steps.len() {
                    items[position] = value;
                    return Ok(());
                }
                node = &mut items[position];
                push(&mut walked, &shown);
                at += used;
            }
            _ => {
                return Err(SetError(format!(
                    "--set: `{walked}` is a single value: it has no `{step}` inside it"
                )));
            }
        }
    }
    *node = value;
    Ok(())
}

fn push(walked: &mut String, step: &str) {
    if !walked.is_empty() {
        walked.push('.');
    }
    walked.push_str(step);
}

fn map_keys(map: &Mapping) -> Vec<String> {
    map.keys()
        .filter_map(|key| key.as_str().map(str::to_string))
        .collect()
}

fn item_name(item: &Value) -> Option<String> {
    item.get("name")?.as_str().map(str::to_string)
}

/// The list item that `steps` start with, and how many steps its name took:
/// a whole name (the longest that matches, so names may hold dots), a
/// unique prefix of one, or a position.
fn find_item(items: &[Value], steps: &[&str]) -> Option<(usize, usize)> {
    let names: Vec<Option<String>> = items.iter().map(item_name).collect();
    for used in (1..=steps.len()).rev() {
        let wanted = steps[..used].join(".");
        if let Some(position) = names.iter().position(|name| {
            name.as_deref()
                .is_some_and(|name| name.eq_ignore_ascii_case(&wanted))
        }) {
            return Some((position, used));
        }
    }
    let present: Vec<&str> = names.iter().flatten().map(String::as_str).collect();
    if let Ok(found) = crate::suggest::resolve(steps[0], present.iter().copied()) {
        let position = names
            .iter()
            .position(|name| name.as_deref() == Some(found))?;
        return Some((position, 1));
    }
    let position: usize = steps[0].parse().ok()?;
    (position < items.len()).then_some((position, 1))
}

fn unknown<'a>(
    what: &str,
    step: &str,
    here: &str,
    valid: impl Iterator<Item = &'a String>,
) -> SetError {
    let valid: Vec<&str> = valid.map(String::as_str).collect();
    let hint = match crate::suggest::nearest(step, valid.iter().copied()) {
        Some(nearest) => format!("; did you mean `{nearest}`?"),
        None if valid.is_empty() => String::new(),
        None => format!("; expected one of: {}", valid.join(", ")),
    };
    SetError(format!("--set: no {what} `{step}` in {here}{hint}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = "\
turns: 15
sides:
  - name: british
    generals:
      - { name: Cornwallis, character: rolled, rallies: 8 }
    units:
      - { name: 23rd Foot, troop_type: british-regulars }
  - name: americans
    generals:
      - { name: Greene, character: rolled }
    units:
      - { name: 1st Maryland, troop_type: continentals }
      - { name: Lt. Col. Lee, troop_type: cavalry }
";

    fn check(assignment: &str, path: &[&str], expected: &str) {
        let assignment = Assignment::parse(assignment).expect("KEY=VALUE");
        let text = apply_to_text(SCENARIO, &[assignment]).expect("applies");
        let root: Value = serde_yaml::from_str(&text).expect("yaml");
        let mut node = &root;
        for step in path {
            node = match step.parse::<usize>() {
                Ok(index) => &node[index],
                Err(_) => &node[*step],
            };
        }
        assert_eq!(show(node), expected, "{text}");
    }

    fn refused(assignment: &str) -> String {
        let assignment = Assignment::parse(assignment).expect("KEY=VALUE");
        apply_to_text(SCENARIO, &[assignment])
            .expect_err("refused")
            .0
    }

    #[test]
    fn paths_select_keys_and_named_items() {
        check("turns=3", &["turns"], "3");
        check(
            "sides.british.generals.Cornwallis.rallies=10",
            &["sides", "0", "generals", "0", "rallies"],
            "10",
        );
        check(
            "sides.americans.units.1st Maryland.troop_type=militia",
            &["sides", "1", "units", "0", "troop_type"],
            "militia",
        );
        check(
            "sides.british.generals.cornwallis.character=rash",
            &["sides", "0", "generals", "0", "character"],
            "rash",
        );
        // A unique prefix, a position, a name with dots, a new known key.
        check(
            "sides.british.units.23rd.strength=12",
            &["sides", "0", "units", "0", "strength"],
            "12",
        );
        check("sides.1.name=rebels", &["sides", "1", "name"], "rebels");
        check(
            "sides.americans.units.Lt. Col. Lee.troop_type=militia",
            &["sides", "1", "units", "1", "troop_type"],
            "militia",
        );
        check(
            "sides.americans.generals.Greene.rallies=6",
            &["sides", "1", "generals", "0", "rallies"],
            "6",
        );
    }

    #[test]
    fn unknown_steps_name_the_nearest_valid_one() {
        assert_eq!(
            refused("turn=3"),
            "--set: no key `turn` in the top of the scenario; did you mean `turns`?"
        );
        assert_eq!(
            refused("sides.britsh.generals.Cornwallis.rallies=1"),
            "--set: no item `britsh` in `sides`; did you mean `british`?"
        );
        assert_eq!(
            refused("sides.british.generals.Cornwallis.ralies=1"),
            "--set: no key `ralies` in `sides.british.generals.Cornwallis`; did you mean `rallies`?"
        );
        assert_eq!(
            refused("turns.x=1"),
            "--set: `turns` is a single value: it has no `x` inside it"
        );
        assert!(Assignment::parse("turns").is_err());
    }

    #[test]
    fn values_are_read_as_yaml() {
        assert_eq!(parse_value("10"), Value::Number(10.into()));
        assert_eq!(parse_value("rash"), Value::String("rash".into()));
        assert!(parse_value("[24, 30]").is_sequence());
        assert_eq!(parse_value("a: b: c"), Value::String("a: b: c".into()));
    }
}
