//! Reading JSON files (saves, `simulate --json` reports) with the guards
//! YAML files have: the bounds of [`super::bounds`] before the parser sees
//! the text, then a key given twice in one object refused (serde_json
//! would keep the last one, silently).

use super::Problem;
use super::bounds::{self, Language};
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// Refuse `text` (the file `name`) if it passes the bounds, is not JSON,
/// or gives a key twice in one object; the problem is located.
pub fn check(name: &str, text: &str) -> Result<(), Problem> {
    bounds::check(name, text, Language::Json)?;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let checked =
        de::Deserialize::deserialize(&mut deserializer).and_then(|NoRepeats| deserializer.end());
    checked.map_err(|error| {
        let mut message = error.to_string();
        // serde_json appends " at line L column C"; the location comes first instead.
        if let Some(cut) = message.find(" at line ") {
            message.truncate(cut);
        }
        Problem {
            file: name.to_string(),
            line: (error.line() > 0).then_some(error.line()),
            column: (error.line() > 0).then_some(error.column()),
            message,
        }
    })
}

/// [`check`] for a text whose file is named elsewhere: the problem as
/// `… at line L column C`, as serde_json words its own.
pub fn check_unnamed(text: &str) -> Result<(), String> {
    check("", text).map_err(|problem| match (problem.line, problem.column) {
        (Some(line), Some(column)) => {
            format!("{} at line {line} column {column}", problem.message)
        }
        _ => problem.message,
    })
}

/// [`check`], then the typed value.
pub fn read<T: DeserializeOwned>(name: &str, text: &str) -> Result<T, Problem> {
    check(name, text)?;
    serde_json::from_str(text).map_err(|error| {
        let mut message = error.to_string();
        if let Some(cut) = message.find(" at line ") {
            message.truncate(cut);
        }
        Problem {
            file: name.to_string(),
            line: (error.line() > 0).then_some(error.line()),
            column: (error.line() > 0).then_some(error.column()),
            message,
        }
    })
}

/// Any JSON value, its objects' keys checked for repeats.
struct NoRepeats;

impl<'de> de::Deserialize<'de> for NoRepeats {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NoRepeats, D::Error> {
        deserializer.deserialize_any(NoRepeatsVisitor)
    }
}

struct NoRepeatsVisitor;

impl<'de> Visitor<'de> for NoRepeatsVisitor {
    type Value = NoRepeats;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }
    fn visit_i64<E>(self, _: i64) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }
    fn visit_u64<E>(self, _: u64) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }
    fn visit_f64<E>(self, _: f64) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }
    fn visit_str<E>(self, _: &str) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }
    fn visit_unit<E>(self) -> Result<NoRepeats, E> {
        Ok(NoRepeats)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NoRepeats, A::Error> {
        while seq.next_element::<NoRepeats>()?.is_some() {}
        Ok(NoRepeats)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NoRepeats, A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !keys.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "key `{key}` is given twice in one object; each key may be given once"
                )));
            }
            map.next_value::<NoRepeats>()?;
        }
        Ok(NoRepeats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_given_twice_are_refused_where_they_repeat() {
        let text = "{\n  \"a\": 1,\n  \"b\": {\"x\": 1, \"x\": 2}\n}\n";
        assert_eq!(
            check("r.json", text).unwrap_err().to_string(),
            "r.json:3:19: key `x` is given twice in one object; each key may be given once"
        );
        assert_eq!(
            check_unnamed("{\"a\": 1, \"a\": 1}").unwrap_err(),
            "key `a` is given twice in one object; each key may be given once at line 1 column 12"
        );
        // The same key in two objects is fine.
        assert_eq!(
            check("r.json", "[{\"a\": 1}, {\"a\": [{\"a\": 2}]}]"),
            Ok(())
        );
    }

    #[test]
    fn deep_and_broken_texts_are_refused_in_one_line() {
        let deep = "[".repeat(200_000);
        let problem = check("r.json", &deep).unwrap_err().to_string();
        assert!(
            problem.starts_with("r.json:1:65: this nests more than 64"),
            "{problem}"
        );
        let problem = check("r.json", "{\"a\": tru}").unwrap_err().to_string();
        assert!(problem.starts_with("r.json:1:"), "{problem}");
        assert_eq!(problem.lines().count(), 1);
        let problem = check("r.json", "{} {}").unwrap_err().to_string();
        assert!(problem.contains("trailing characters"), "{problem}");
    }

    #[test]
    fn read_gives_the_typed_value() {
        let value: Vec<u32> = read("r.json", "[1, 2]").unwrap();
        assert_eq!(value, [1, 2]);
        let problem = read::<Vec<u32>>("r.json", "[1, -2]").unwrap_err();
        assert!(problem.to_string().starts_with("r.json:1:"), "{problem}");
    }
}
