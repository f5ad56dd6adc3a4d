//! Reading YAML files with located problems.
//!
//! Tables and scenarios are untrusted text a player may have edited. This
//! module turns text into typed values with serde, refuses oversized input
//! and text nested too deep or too wide before any parser sees it
//! ([`bounds`]; JSON saves and reports through [`json`]), and maps every problem back to a file, line and column: serde's own
//! errors carry a location, and problems found later by validation name a
//! path (`bands[3].min`) that [`locate`] finds in the source with an event
//! parser.

pub mod bounds;
pub mod json;

pub use bounds::{Language, MAX_DEPTH, MAX_JSON_NODES, MAX_LINE_BYTES, MAX_YAML_NODES};

use crate::names::escape;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::fmt;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// The largest YAML document foe will parse. Real tables and scenarios are
/// a few kilobytes (the biggest shipped, `stress.yaml`, is 37 KB); a bigger
/// file is a mistake or an attack. Parsing takes about 60 bytes of memory
/// per byte of a dense file, so this keeps a parse near 15 MB.
pub const MAX_YAML_BYTES: usize = 256 << 10;

/// The largest file foe will read at all (a save holds its scenario's
/// text and every action of the game).
pub const MAX_FILE_BYTES: usize = 1 << 20;

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

/// One line: the file's name and the message quote what a file or the
/// command line said, so anything unprintable in them is escaped.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (file, message) = (escape(&self.file), escape(&self.message));
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{file}:{line}:{column}: {message}"),
            (Some(line), None) => write!(f, "{file}:{line}: {message}"),
            _ => write!(f, "{file}: {message}"),
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
        bounds::check(self.name, self.text, Language::Yaml).map_err(|p| Problems(vec![p]))?;
        screen(self.name, self.text)?;
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

/// The most nodes aliases may add to a document, each alias counting the
/// nodes it stands for. An alias that repeats a polygon a few times is
/// fine; one that repeats it thirty thousand times (a 1 MB file that
/// needed over a gigabyte) is refused before anything is built.
pub const MAX_ALIAS_NODES: u64 = 50_000;

/// Look over a document's parse events before serde builds anything:
/// refuse a key given twice in one mapping (serde would keep the last,
/// silently, for maps) and aliases that expand beyond [`MAX_ALIAS_NODES`].
/// Syntax errors are left to serde, whose messages say more.
fn screen(name: &str, text: &str) -> Result<(), Problems> {
    let mut screen = Screen::default();
    let too_deep = walk_events(text, &mut screen).err();
    let problem = |(mark, message): (Marker, String)| Problem {
        file: name.to_string(),
        line: Some(mark.line()),
        column: Some(mark.col() + 1),
        message,
    };
    if let Some(mark) = too_deep {
        return Err(Problems(vec![problem((
            mark,
            format!(
                "this nests more than {MAX_DEPTH} levels deep; foe reads files nested at most {MAX_DEPTH} levels"
            ),
        ))]));
    }
    match screen.alias_problem {
        Some(found) => Err(Problems(vec![problem(found)])),
        None if screen.repeats.is_empty() && screen.control.is_none() => Ok(()),
        None => Err(Problems(
            screen
                .control
                .into_iter()
                .chain(screen.repeats)
                .map(problem)
                .collect(),
        )),
    }
}

/// Give `receiver` the first document's parse events one at a time, as
/// [`Parser::load`] would but without its recursion (one call a level):
/// a collection deeper than [`MAX_DEPTH`] stops the walk, and its place
/// is the error. A syntax error stops the walk quietly.
fn walk_events(text: &str, receiver: &mut impl MarkedEventReceiver) -> Result<(), Marker> {
    let mut parser = Parser::new_from_str(text);
    let mut depth = 0usize;
    while let Ok((event, mark)) = parser.next_token() {
        match event {
            Event::StreamEnd => break,
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(mark);
                }
            }
            Event::MappingEnd | Event::SequenceEnd => depth = depth.saturating_sub(1),
            _ => {}
        }
        let end = event == Event::DocumentEnd;
        receiver.on_event(event, mark);
        if end {
            break;
        }
    }
    Ok(())
}

/// An open collection, as the screen sees it.
struct ScreenFrame {
    /// In a mapping: the scalar keys given so far and where; `None` in a sequence.
    keys: Option<HashMap<String, Marker>>,
    /// Whether a mapping's next node is a key.
    expecting_key: bool,
    /// The anchor the collection carries and the node count at its start.
    anchor: Option<(usize, u64)>,
}

#[derive(Default)]
struct Screen {
    stack: Vec<ScreenFrame>,
    /// Nodes of each anchored node, counting what its own aliases stand for.
    anchored: HashMap<usize, u64>,
    /// Nodes so far, aliases counted as what they stand for.
    nodes: u64,
    /// Nodes added by aliases.
    by_aliases: u64,
    repeats: Vec<(Marker, String)>,
    alias_problem: Option<(Marker, String)>,
    /// The first text holding a character a terminal or an SVG must not
    /// be given (see [`unprintable`]).
    control: Option<(Marker, String)>,
}

/// The first character of `text` that foe will not show: a control
/// character other than tab, newline and carriage return (C0, DEL and
/// C1: a name carrying an escape sequence would drive the player's
/// terminal), or U+FFFE/U+FFFF (not characters at all).
fn unprintable(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
    })
}

impl Screen {
    /// A node begins; a mapping's key is checked against the keys before it.
    fn node_start(&mut self, key: Option<&str>, mark: Marker) {
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        let Some(keys) = &mut frame.keys else {
            return;
        };
        if !frame.expecting_key {
            frame.expecting_key = true;
            return;
        }
        frame.expecting_key = false;
        let Some(key) = key else {
            return;
        };
        match keys.get(key) {
            Some(first) => self.repeats.push((
                mark,
                format!(
                    "key `{key}` is given twice in one mapping (first at line {}); each key may be given once",
                    first.line()
                ),
            )),
            None => {
                keys.insert(key.to_string(), mark);
            }
        }
    }
}

impl MarkedEventReceiver for Screen {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.alias_problem.is_some() {
            return;
        }
        match event {
            Event::Scalar(value, _, anchor, _) => {
                if self.control.is_none()
                    && let Some(c) = unprintable(&value)
                {
                    self.control = Some((
                        mark,
                        format!(
                            "text may not hold the control character U+{:04X}; write the name or text in printable characters",
                            u32::from(c)
                        ),
                    ));
                }
                self.node_start(Some(&value), mark);
                self.nodes += 1;
                if anchor != 0 {
                    self.anchored.insert(anchor, 1);
                }
            }
            Event::Alias(anchor) => {
                self.node_start(None, mark);
                let size = self.anchored.get(&anchor).copied().unwrap_or(1);
                self.nodes = self.nodes.saturating_add(size);
                self.by_aliases = self.by_aliases.saturating_add(size);
                if self.by_aliases > MAX_ALIAS_NODES {
                    self.alias_problem = Some((
                        mark,
                        format!(
                            "aliases here repeat more than {MAX_ALIAS_NODES} nodes; foe reads files whose aliases repeat at most {MAX_ALIAS_NODES}"
                        ),
                    ));
                }
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                self.node_start(None, mark);
                let mapping = matches!(event, Event::MappingStart(..));
                self.stack.push(ScreenFrame {
                    keys: mapping.then(HashMap::new),
                    expecting_key: true,
                    anchor: (anchor != 0).then_some((anchor, self.nodes)),
                });
                self.nodes += 1;
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(ScreenFrame {
                    anchor: Some((anchor, start)),
                    ..
                }) = self.stack.pop()
                {
                    self.anchored.insert(anchor, self.nodes - start);
                }
            }
            _ => {}
        }
    }
}

/// Collects validation problems for one source. Problems are kept by
/// path and located together when they are taken out, in one walk of the
/// text however many there are.
#[derive(Debug)]
pub struct Checker<'a> {
    source: Source<'a>,
    pending: Vec<(String, String)>,
}

impl<'a> Checker<'a> {
    /// A checker reporting against `source`.
    pub fn new(source: Source<'a>) -> Checker<'a> {
        Checker {
            source,
            pending: Vec::new(),
        }
    }

    /// Record a problem at `path`.
    pub fn report(&mut self, path: &str, message: impl Into<String>) {
        self.pending.push((path.to_string(), message.into()));
    }

    /// Whether nothing has been reported.
    pub fn is_clean(&self) -> bool {
        self.pending.is_empty()
    }

    /// The problems found so far, taken out, located, in the order reported.
    pub fn into_problems(self) -> Vec<Problem> {
        if self.pending.is_empty() {
            return Vec::new();
        }
        let index = Index::build(self.source.text);
        self.pending
            .into_iter()
            .map(|(path, message)| {
                let found = index.locate(&path);
                Problem {
                    file: self.source.name.to_string(),
                    line: found.map(|(line, _)| line),
                    column: found.map(|(_, column)| column),
                    message,
                }
            })
            .collect()
    }

    /// `Ok(value)` if nothing was reported, else every problem.
    pub fn finish<T>(self, value: T) -> Result<T, Problems> {
        if self.pending.is_empty() {
            Ok(value)
        } else {
            Err(Problems(self.into_problems()))
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

/// Where every node of a document starts, found in one walk of its parse
/// events: a tree of (parent, key or index) → (node, place).
///
/// A node's place is its key's for a mapping value and its own start for a
/// sequence item or the root; a non-empty mapping's is its first key's
/// (a block mapping's start mark sits at its first `:`, not where a reader
/// looks). A key given twice keeps its first place.
#[derive(Debug, Default)]
struct Index {
    /// The root node's place, if the text has one.
    root: Option<Marker>,
    /// Children by parent node and segment: the child's node and place.
    children: HashMap<(usize, Segment), (usize, Marker)>,
}

/// What the walk is inside: a mapping or sequence node, and where in it.
struct IndexFrame {
    node: usize,
    mapping: bool,
    /// In a mapping: the key whose value comes next, once read, with its
    /// node and whether this key made its entry (not a repeat).
    key: Option<(Segment, usize, bool)>,
    /// In a sequence: the next item's index.
    next_index: usize,
    /// Whether the first key has been seen (a mapping takes its place).
    seen_first_key: bool,
}

/// Where a node's place is kept: the root's, or a child entry.
type Slot = Option<(usize, Segment)>;

struct IndexBuilder {
    index: Index,
    stack: Vec<IndexFrame>,
    n_nodes: usize,
    /// For each open collection, the slot whose place its first key takes,
    /// if it may move it (the node made that entry).
    movable: Vec<Option<Slot>>,
    done: bool,
}

impl IndexBuilder {
    fn new_node(&mut self) -> usize {
        self.n_nodes += 1;
        self.n_nodes
    }

    /// A node starts at `mark`. A key (named by its scalar, or `""`) is
    /// entered and gives `None`; any other node gives its id and the slot
    /// it may move, if any.
    fn node_start(&mut self, scalar: Option<&str>, mark: Marker) -> Option<(usize, Option<Slot>)> {
        let Some(frame) = self.stack.last() else {
            let node = self.new_node();
            self.index.root = Some(mark);
            return Some((node, Some(None)));
        };
        let parent = frame.node;
        if frame.mapping {
            if let Some((segment, node, made)) = &frame.key {
                let slot = (*made).then(|| Some((parent, segment.clone())));
                return Some((*node, slot));
            }
            let segment = Segment::Key(scalar.unwrap_or("").to_string());
            if !frame.seen_first_key
                && let Some(Some(slot)) = self.movable.last()
            {
                // The mapping takes its first key's place.
                match slot {
                    None => self.index.root = Some(mark),
                    Some(entry) => {
                        if let Some((_, place)) = self.index.children.get_mut(entry) {
                            *place = mark;
                        }
                    }
                }
            }
            let entry = (parent, segment.clone());
            let (node, made) = match self.index.children.get(&entry) {
                Some(&(node, _)) => (node, false),
                None => {
                    let node = self.new_node();
                    self.index.children.insert(entry, (node, mark));
                    (node, true)
                }
            };
            let frame = self.stack.last_mut().expect("the frame looked at above");
            frame.seen_first_key = true;
            frame.key = Some((segment, node, made));
            return None;
        }
        let entry = (parent, Segment::Index(frame.next_index));
        let node = self.new_node();
        self.index.children.insert(entry.clone(), (node, mark));
        Some((node, Some(Some(entry))))
    }

    /// A scalar or an alias: a node that starts and ends at once.
    fn leaf(&mut self, scalar: Option<&str>, mark: Marker) {
        if self.node_start(scalar, mark).is_some() {
            self.node_end();
        }
    }

    fn node_end(&mut self) {
        match self.stack.last_mut() {
            Some(frame) if frame.mapping => frame.key = None,
            Some(frame) => frame.next_index += 1,
            None => self.done = true,
        }
    }
}

impl MarkedEventReceiver for IndexBuilder {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.done {
            return;
        }
        match event {
            Event::Scalar(value, ..) => self.leaf(Some(&value), mark),
            Event::Alias(_) => self.leaf(None, mark),
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let mapping = matches!(event, Event::MappingStart(..));
                let (node, movable) = match self.node_start(None, mark) {
                    Some(found) => found,
                    // A collection used as a mapping key: its children
                    // hang under the key's entry.
                    None => {
                        let key = self.stack.last().and_then(|frame| frame.key.as_ref());
                        (key.map_or(0, |(_, node, _)| *node), None)
                    }
                };
                self.movable.push(movable);
                self.stack.push(IndexFrame {
                    node,
                    mapping,
                    key: None,
                    next_index: 0,
                    seen_first_key: false,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
                self.movable.pop();
                self.node_end();
            }
            _ => {}
        }
    }
}

impl Index {
    /// Walk `text` once. A parse error stops the walk; what was found
    /// before it still counts.
    fn build(text: &str) -> Index {
        let mut builder = IndexBuilder {
            index: Index::default(),
            stack: Vec::new(),
            n_nodes: 0,
            movable: Vec::new(),
            done: false,
        };
        // A text nested too deep is refused before anything is located;
        // here it only ends the walk.
        let _ = walk_events(text, &mut builder);
        builder.index
    }

    /// The 1-based line and column of the node at `path`, or of the deepest
    /// part of the path that exists.
    fn locate(&self, path: &str) -> Option<(usize, usize)> {
        let mut place = self.root?;
        // The root is the first node.
        let mut node = 1;
        for segment in parse_path(path) {
            match self.children.get(&(node, segment)) {
                Some(&(child, child_place)) => {
                    node = child;
                    place = child_place;
                }
                None => break,
            }
        }
        // yaml-rust2 columns count from 0; editors count from 1.
        Some((place.line(), place.col() + 1))
    }
}

/// The 1-based line and column of the node at `path` in `text`, or of the
/// deepest part of the path that exists. `None` if the text does not parse.
/// To locate many paths, use a [`Checker`]: it walks the text once.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    Index::build(text).locate(path)
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

    /// One polygon of 1000 corners referenced by alias
    /// thousands of times built gigabytes. Here: 2000 nodes, 30 times.
    #[test]
    fn aliases_repeating_too_many_nodes_are_refused_where_they_pass_the_limit() {
        let corners = vec!["[1, 2]"; 1000].join(", ");
        let uses = vec!["*p"; 30].join(", ");
        let text = format!("shape: &p [{corners}]\ncopies: [{uses}]\n");
        let problems = Source::new("bomb.yaml", &text)
            .parse::<serde_yaml::Value>()
            .unwrap_err();
        // Each alias stands for 3001 nodes: the 17th passes 50000.
        let column = "copies: [".len() + 16 * "*p, ".len() + 1;
        assert_eq!(
            problems.to_string(),
            format!(
                "bomb.yaml:2:{column}: aliases here repeat more than 50000 nodes; foe reads files whose aliases repeat at most 50000"
            )
        );
        // A few repeats are fine, nested ones counted as what they stand for.
        let text = "a: &a [1, 2, 3]\nb: &b [*a, *a]\nc: [*b, *b, *a]\n";
        let value = Source::new("ok.yaml", text)
            .parse::<serde_yaml::Value>()
            .unwrap();
        assert_eq!(value["c"][1][1][2], serde_yaml::Value::from(3));
    }

    /// A key given twice was taken silently, the last
    /// one winning, in every table and scenario mapping.
    #[test]
    fn keys_given_twice_are_refused_each_where_it_repeats() {
        let text = "a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\na: 4\nc: [{k: 1}, {k: 2}]\n";
        let problems = Source::new("twice.yaml", text)
            .parse::<serde_yaml::Value>()
            .unwrap_err();
        assert_eq!(
            problems.to_string(),
            "twice.yaml:5:3: key `x` is given twice in one mapping (first at line 3); each key may be given once\n\
             twice.yaml:6:1: key `a` is given twice in one mapping (first at line 1); each key may be given once"
        );
    }

    #[test]
    fn control_characters_in_text_are_refused_where_they_stand() {
        // An escape sequence in a name would drive the player's terminal.
        let text =
            "name: x\nunits:\n  - { name: \"44th\\e[31m Foot\" }\n  - { name: \"b\\u0085\" }\n";
        let problems = Source::new("ctl.yaml", text)
            .parse::<serde_yaml::Value>()
            .unwrap_err();
        assert_eq!(
            problems.to_string(),
            "ctl.yaml:3:13: text may not hold the control character U+001B; write the name or text in printable characters"
        );
        for ok in [
            "a: \"tab\\there\"",
            "a: |\n  two\n  lines\n",
            "a: \"Ça va, 1er Régiment — ok\"",
        ] {
            assert!(
                Source::new("ok.yaml", ok)
                    .parse::<serde_yaml::Value>()
                    .is_ok(),
                "{ok}"
            );
        }
        for bad in [
            "a: \"\\x7f\"",
            "a: \"\\u009b\"",
            "a: \"\\uffff\"",
            "\"k\\x01\": 1",
        ] {
            assert!(
                Source::new("bad.yaml", bad)
                    .parse::<serde_yaml::Value>()
                    .is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let result = Source::new("deep.yaml", &deep).parse::<serde_yaml::Value>();
        assert!(result.is_err());
        // The locator must not overflow its stack either.
        let _ = locate(&deep, "a");
    }

    /// The locator as it was before the index: one walk of the text per
    /// path. The index must place every path exactly where it did.
    mod old_locator {
        use super::super::{Segment, parse_path};
        use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
        use yaml_rust2::scanner::Marker;

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
                let matched = depth_path.len() <= self.target.len()
                    && self.target[..depth_path.len()] == *depth_path;
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
    }

    fn all_paths(value: &serde_yaml::Value, path: String, out: &mut Vec<String>) {
        out.push(path.clone());
        out.push(format!("{path}.missing"));
        out.push(format!("{path}[99]"));
        match value {
            serde_yaml::Value::Mapping(mapping) => {
                for (key, child) in mapping {
                    let key = match key {
                        serde_yaml::Value::String(text) => text.clone(),
                        other => serde_yaml::to_string(other).unwrap().trim().to_string(),
                    };
                    let child_path = if path.is_empty() {
                        key
                    } else {
                        format!("{path}.{key}")
                    };
                    all_paths(child, child_path, out);
                }
            }
            serde_yaml::Value::Sequence(items) => {
                for (index, child) in items.iter().enumerate() {
                    all_paths(child, format!("{path}[{index}]"), out);
                }
            }
            serde_yaml::Value::Tagged(tagged) => all_paths(&tagged.value, path, out),
            _ => {}
        }
    }

    /// Paths of every shipped file, and odd documents (flow collections,
    /// aliases, collection keys, broken text), are placed where the old
    /// one-walk-per-path locator placed them. (A repeated key differs: the
    /// old one moved to the repeat's first key; files with repeated keys
    /// are now refused before anything is located.)
    #[test]
    fn the_index_places_paths_where_the_old_locator_did() {
        let mut texts: Vec<String> = crate::tables::EMBEDDED
            .iter()
            .map(|(_, text)| text.to_string())
            .collect();
        texts.extend(
            crate::scenario::BUILTIN
                .iter()
                .map(|(_, _, text)| text.to_string()),
        );
        texts.push(include_str!("../tables/rulesets/ohw-awi.yaml").to_string());
        texts.push(DOC.to_string());
        let odd = [
            "a: 1\nb: {x: 1, y: [2, {z: 3}]}\nc: {q: 4}\n",
            "- &p [1, 2]\n- *p\n- {k: *p, j: [[], {}]}\n",
            "? [1, 2]\n: value\nafter: {deep: {deeper: x}}\n",
            "top:\n  - a: 1\n    b: 2\n  - c: [\n",
            "just a scalar",
            "",
            "m: {}\nn: []\no:\n  p:\n    - q: r\n",
        ];
        texts.extend(odd.iter().map(|text| text.to_string()));
        for text in &texts {
            let mut paths = vec![
                "nowhere".to_string(),
                "a.b.c".to_string(),
                "[0]".to_string(),
            ];
            if let Ok(value) = serde_yaml::from_str::<serde_yaml::Value>(text) {
                all_paths(&value, String::new(), &mut paths);
            }
            for odd_path in [
                "a",
                "b.y[1].z",
                "[2].k",
                "[2].j[1]",
                "after.deep.deeper",
                "top[1].c",
                "o.p[0].q",
                "m.x",
                "n[0]",
            ] {
                paths.push(odd_path.to_string());
            }
            let index = Index::build(text);
            // The old locator walks the text for each path: a sample of
            // the biggest files' paths keeps this quick.
            let step = (paths.len() / 150).max(1);
            for path in paths.iter().step_by(step) {
                assert_eq!(
                    index.locate(path),
                    old_locator::locate(text, path),
                    "{path} in\n{}",
                    &text[..text.len().min(200)]
                );
            }
        }
    }
}
