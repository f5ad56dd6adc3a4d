//! Reading YAML files with located problems.
//!
//! Tables and scenarios are untrusted text a player may have edited. This
//! module turns text into typed values with serde, refuses oversized input,
//! and maps every problem back to a file, line and column: serde's own
//! errors carry a location, and problems found later by validation name a
//! path (`bands[3].min`) that [`locate`] finds in the source with an event
//! parser.

use serde::de::DeserializeOwned;
use std::fmt;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// The largest YAML file foe will read. Real tables and scenarios are a few
/// kilobytes; a bigger file is a mistake or an attack.
pub const MAX_YAML_BYTES: usize = 1 << 20;

/// One problem in a file, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file's name as the user knows it (a path, or `tables/reaction.yaml` for embedded ones).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "{}:{line}:{column}: {}", self.file, self.message)
            }
            (Some(line), None) => write!(f, "{}:{line}: {}", self.file, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem found in one or more files; never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, problem) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// A YAML document in memory, with the name to report problems under.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file's name as the user knows it.
    pub name: &'a str,
    /// The whole text.
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// A named document.
    pub fn new(name: &'a str, text: &'a str) -> Source<'a> {
        Source { name, text }
    }

    /// Parse the document into `T`, or say where it goes wrong.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Problems> {
        if self.text.len() > MAX_YAML_BYTES {
            return Err(Problems(vec![Problem {
                file: self.name.to_string(),
                line: None,
                column: None,
                message: format!(
                    "file is {} bytes; foe reads YAML files of at most {} bytes",
                    self.text.len(),
                    MAX_YAML_BYTES
                ),
            }]));
        }
        serde_yaml::from_str(self.text).map_err(|error| {
            let location = error.location();
            let mut message = error.to_string();
            // serde_yaml appends " at line L column C"; we print the location first instead.
            if let Some(cut) = message.find(" at line ") {
                message.truncate(cut);
            }
            Problems(vec![Problem {
                file: self.name.to_string(),
                line: location.as_ref().map(|l| l.line()),
                column: location.as_ref().map(|l| l.column()),
                message,
            }])
        })
    }

    /// A problem at `path` (for example `bands[3].min`), located in this text.
    pub fn problem(&self, path: &str, message: impl Into<String>) -> Problem {
        let (line, column) = match locate(self.text, path) {
            Some((line, column)) => (Some(line), Some(column)),
            None => (None, None),
        };
        Problem {
            file: self.name.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

/// Collects validation problems for one source.
#[derive(Debug)]
pub struct Checker<'a> {
    source: Source<'a>,
    problems: Vec<Problem>,
}

impl<'a> Checker<'a> {
    /// A checker reporting against `source`.
    pub fn new(source: Source<'a>) -> Checker<'a> {
        Checker {
            source,
            problems: Vec::new(),
        }
    }

    /// Record a problem at `path`.
    pub fn report(&mut self, path: &str, message: impl Into<String>) {
        let problem = self.source.problem(path, message);
        self.problems.push(problem);
    }

    /// Whether nothing has been reported.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The problems found so far, taken out.
    pub fn into_problems(self) -> Vec<Problem> {
        self.problems
    }

    /// `Ok(value)` if nothing was reported, else every problem.
    pub fn finish<T>(self, value: T) -> Result<T, Problems> {
        if self.problems.is_empty() {
            Ok(value)
        } else {
            Err(Problems(self.problems))
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

fn parse_path(path: &str) -> Vec<Segment> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|part| !part.is_empty()) {
        let mut rest = part;
        if let Some(open) = rest.find('[') {
            if open > 0 {
                segments.push(Segment::Key(rest[..open].to_string()));
            }
            rest = &rest[open..];
            while let Some(stripped) = rest.strip_prefix('[') {
                let close = stripped.find(']').unwrap_or(stripped.len());
                if let Ok(index) = stripped[..close].parse() {
                    segments.push(Segment::Index(index));
                }
                rest = stripped.get(close + 1..).unwrap_or("");
            }
        } else {
            segments.push(Segment::Key(rest.to_string()));
        }
    }
    segments
}

enum Frame {
    Mapping {
        key: Option<String>,
        expecting_key: bool,
    },
    Sequence {
        next_index: usize,
    },
}

struct Locator {
    target: Vec<Segment>,
    path: Vec<Segment>,
    stack: Vec<Frame>,
    best: Option<(usize, Marker)>,
    done: bool,
}

impl Locator {
    fn consider(&mut self, depth_path: &[Segment], mark: Marker) {
        let matched =
            depth_path.len() <= self.target.len() && self.target[..depth_path.len()] == *depth_path;
        if matched && self.best.is_none_or(|(len, _)| depth_path.len() > len) {
            self.best = Some((depth_path.len(), mark));
        }
    }

    /// Called when a node (scalar, alias, or the start of a collection) begins.
    /// Returns the path of that node, or `None` if it is a mapping key.
    fn node_start(&mut self, scalar: Option<&str>, mark: Marker) -> Option<Vec<Segment>> {
        match self.stack.last_mut() {
            Some(Frame::Mapping { key, expecting_key }) if *expecting_key => {
                *expecting_key = false;
                let name = scalar.unwrap_or("").to_string();
                let first_key = key.is_none();
                *key = Some(name.clone());
                // A block mapping's start mark sits at its first `:`; its first
                // key is where a reader would look for the mapping.
                let on_target = self.target.starts_with(&self.path);
                if first_key
                    && on_target
                    && self.best.is_some_and(|(len, _)| len == self.path.len())
                {
                    self.best = Some((self.path.len(), mark));
                }
                let mut key_path = self.path.clone();
                key_path.push(Segment::Key(name));
                self.consider(&key_path, mark);
                None
            }
            Some(Frame::Mapping { key, .. }) => {
                let mut node_path = self.path.clone();
                node_path.push(Segment::Key(key.clone().unwrap_or_default()));
                Some(node_path)
            }
            Some(Frame::Sequence { next_index }) => {
                let mut node_path = self.path.clone();
                node_path.push(Segment::Index(*next_index));
                self.consider(&node_path, mark);
                Some(node_path)
            }
            None => {
                self.consider(&[], mark);
                Some(Vec::new())
            }
        }
    }

    fn node_end(&mut self) {
        match self.stack.last_mut() {
            Some(Frame::Mapping { expecting_key, .. }) => *expecting_key = true,
            Some(Frame::Sequence { next_index }) => *next_index += 1,
            None => self.done = true,
        }
    }
}

impl MarkedEventReceiver for Locator {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.done {
            return;
        }
        match event {
            Event::Scalar(value, ..) => {
                let is_value = self.node_start(Some(&value), mark).is_some();
                if is_value {
                    self.node_end();
                }
            }
            Event::Alias(_) => {
                let is_value = self.node_start(None, mark).is_some();
                if is_value {
                    self.node_end();
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let is_mapping = matches!(event, Event::MappingStart(..));
                match self.node_start(None, mark) {
                    Some(node_path) => {
                        self.path = node_path;
                    }
                    None => {
                        // A collection used as a mapping key: give it a placeholder path.
                        self.path.push(Segment::Key(String::new()));
                    }
                }
                self.stack.push(if is_mapping {
                    Frame::Mapping {
                        key: None,
                        expecting_key: true,
                    }
                } else {
                    Frame::Sequence { next_index: 0 }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
                self.path.pop();
                self.node_end();
            }
            _ => {}
        }
    }
}

/// The 1-based line and column of the node at `path` in `text`, or of the
/// deepest part of the path that exists. `None` if the text does not parse.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut locator = Locator {
        target: parse_path(path),
        path: Vec::new(),
        stack: Vec::new(),
        best: None,
        done: false,
    };
    let mut parser = Parser::new_from_str(text);
    // A parse error stops the walk; what was found before it still counts.
    let _ = parser.load(&mut locator, false);
    // yaml-rust2 columns count from 0; editors count from 1.
    locator.best.map(|(_, mark)| (mark.line(), mark.col() + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
title: test
bands:
  - min: 9
    order: charge
  - min: 6
    max: 8
nested:
  deeper:
    - [1, 2, 3]
";

    #[test]
    fn locates_keys_items_and_nested_values() {
        let check = |path: &str, expected: (usize, usize)| {
            assert_eq!(locate(DOC, path), Some(expected), "{path}");
        };
        check("title", (1, 1));
        check("bands", (2, 1));
        check("bands[0]", (3, 5));
        check("bands[1].max", (6, 5));
        check("nested.deeper[0][2]", (9, 14));
        // A missing key falls back to the deepest part that exists.
        check("bands[1].colour", (5, 5));
        check("nowhere", (1, 1));
    }

    #[test]
    fn serde_errors_carry_file_line_and_column() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Doc {
            title: String,
            count: u32,
        }
        let source = Source::new("test.yaml", "title: x\ncount: lots\n");
        let problems = source.parse::<Doc>().unwrap_err();
        let text = problems.to_string();
        assert!(
            text.starts_with("test.yaml:2:8: count: invalid type"),
            "{text}"
        );
    }

    #[test]
    fn oversized_files_are_refused_before_parsing() {
        let text = "a".repeat(MAX_YAML_BYTES + 1);
        let problems = Source::new("big.yaml", &text)
            .parse::<String>()
            .unwrap_err();
        assert!(problems.to_string().contains("at most"));
    }

    #[test]
    fn alias_bombs_are_refused() {
        let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n";
        let result = Source::new("bomb.yaml", bomb).parse::<serde_yaml::Value>();
        assert!(result.is_err());
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let result = Source::new("deep.yaml", &deep).parse::<serde_yaml::Value>();
        assert!(result.is_err());
        // The locator must not overflow its stack either.
        let _ = locate(&deep, "a");
    }
}
