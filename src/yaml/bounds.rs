//! The bounds every YAML and JSON text is held to before any parser sees
//! it: nesting depth, nodes and line length, found by one cheap walk of
//! the raw bytes.
//!
//! The parsers foe uses are not safe on hostile text: yaml-rust2 recurses
//! once per level (40,000 nested `- ` overflow the stack), and both YAML
//! scanners look back over every open flow level at each token, so 100,000
//! `[` take tens of seconds to refuse. This walk needs no parser: it
//! follows just enough of YAML (quotes, comments, block scalars, flow
//! brackets, block indentation) to count levels and nodes, and errs on the
//! side of counting more. JSON is YAML's flow style, so the same walk
//! reads it; a JSON save holds its scenario's text as one long string, so
//! JSON lines are not limited.

use super::Problem;

/// The deepest nesting foe reads: block levels (each indentation, each
/// `- ` and each key on a line) and flow brackets together. Shipped files
/// nest at most 7 deep; the parsers recurse once a level.
pub const MAX_DEPTH: usize = 64;

/// The most nodes (scalars, collections, aliases as written) one YAML
/// file may hold. The largest shipped scenario (`stress`) holds about
/// 4,600; a scenario of 2,500 units some 30,000 (about 12 a unit).
pub const MAX_YAML_NODES: usize = 100_000;

/// The most nodes one JSON file (a save, a report) may hold.
pub const MAX_JSON_NODES: usize = 250_000;

/// The longest line of a YAML file, in bytes. A polygon of a thousand
/// corners written on one line is about 16 KB.
pub const MAX_LINE_BYTES: usize = 32 << 10;

/// Which language the text is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// YAML: lines are limited to [`MAX_LINE_BYTES`].
    Yaml,
    /// JSON: lines are not limited (a save's scenario text is one string).
    Json,
}

/// Where the walk is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Between or inside plain tokens.
    Plain,
    /// Inside a `"…"` scalar.
    Double,
    /// Inside a `'…'` scalar.
    Single,
    /// In the lines of a `|` or `>` block scalar whose parent is at this
    /// column: lines indented further (and blank lines) are its text.
    BlockScalar(usize),
}

/// The walk's counts: open levels and nodes so far.
struct Levels {
    /// The columns of the open block levels, innermost last.
    block: Vec<usize>,
    /// Open flow brackets.
    flow: usize,
    nodes: usize,
    max_nodes: usize,
}

/// Which limit a node passes.
enum Passed {
    Depth,
    Nodes,
}

impl Levels {
    /// A node starts at `column`; `bracket` if it opens a flow collection
    /// (a level of its own). In block context, any other node right of the
    /// innermost level opens a level: a key starts a mapping, a `- ` a
    /// sequence (a plain value counts one more than it is, for its line).
    fn node(&mut self, column: usize, bracket: bool) -> Result<(), Passed> {
        if bracket {
            self.flow += 1;
        } else if self.flow == 0 && self.block.last().is_none_or(|&top| column > top) {
            self.block.push(column);
        }
        self.nodes += 1;
        if self.block.len() + self.flow > MAX_DEPTH {
            return Err(Passed::Depth);
        }
        if self.nodes > self.max_nodes {
            return Err(Passed::Nodes);
        }
        Ok(())
    }
}

/// Refuse `text` if it nests deeper than [`MAX_DEPTH`], holds more nodes
/// than its language allows, or (YAML) has a line over
/// [`MAX_LINE_BYTES`]; the problem is placed where the limit is passed.
pub fn check(name: &str, text: &str, language: Language) -> Result<(), Problem> {
    let max_nodes = match language {
        Language::Yaml => MAX_YAML_NODES,
        Language::Json => MAX_JSON_NODES,
    };
    let problem = |at: usize, message: String| {
        let (line, column) = line_and_column(text, at);
        Problem {
            file: name.to_string(),
            line: Some(line),
            column: Some(column),
            message,
        }
    };
    let passed = |at: usize, passed: Passed| match passed {
        Passed::Depth => problem(
            at,
            format!(
                "this nests more than {MAX_DEPTH} levels deep; foe reads files nested at most {MAX_DEPTH} levels"
            ),
        ),
        Passed::Nodes => problem(
            at,
            format!(
                "this file holds more than {max_nodes} nodes; foe reads files of at most {max_nodes}"
            ),
        ),
    };
    let bytes = text.as_bytes();
    let spaced = |b: u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let mut levels = Levels {
        block: Vec::new(),
        flow: 0,
        nodes: 0,
        max_nodes,
    };
    let mut mode = Mode::Plain;
    let mut line_start = 0usize;
    loop {
        let line_end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |n| line_start + n);
        // Refused once the line has been walked, so that a line nested
        // too deep is refused as that, where it passes the depth.
        let too_long = (language == Language::Yaml && line_end - line_start > MAX_LINE_BYTES)
            .then(|| {
                problem(
                    line_start + MAX_LINE_BYTES,
                    format!(
                        "this line is over {MAX_LINE_BYTES} bytes; foe reads YAML lines of at most {MAX_LINE_BYTES} bytes"
                    ),
                )
            });
        let line = &bytes[line_start..line_end];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let blank = line[indent..].iter().all(|&b| spaced(b));
        if let Mode::BlockScalar(parent) = mode {
            if blank || indent > parent {
                if let Some(problem) = too_long {
                    return Err(problem);
                }
                if line_end >= bytes.len() {
                    return Ok(());
                }
                line_start = line_end + 1;
                continue;
            }
            mode = Mode::Plain;
        }
        if mode == Mode::Plain && levels.flow == 0 && !blank && line[indent] != b'#' {
            if line.starts_with(b"---") || line.starts_with(b"...") {
                levels.block.clear();
            }
            while levels.block.last().is_some_and(|&top| top > indent) {
                levels.block.pop();
            }
        }
        let mut node_start = true;
        // Whether the byte before is a space or the line's start (a `#`
        // after one starts a comment).
        let mut after_space = true;
        let mut column = 0;
        let mut at = line_start;
        while at < line_end {
            let byte = bytes[at];
            let next = bytes.get(at + 1).copied().unwrap_or(b'\n');
            match mode {
                Mode::Double if byte == b'\\' => {
                    at += 1;
                    column += 1;
                }
                Mode::Double if byte == b'"' => {
                    mode = Mode::Plain;
                    node_start = false;
                }
                Mode::Single if byte == b'\'' && next == b'\'' => {
                    at += 1;
                    column += 1;
                }
                Mode::Single if byte == b'\'' => {
                    mode = Mode::Plain;
                    node_start = false;
                }
                Mode::Double | Mode::Single | Mode::BlockScalar(_) => {}
                Mode::Plain => match byte {
                    b' ' | b'\t' | b'\r' => {}
                    b'#' if after_space => break,
                    b'[' | b'{' if node_start || levels.flow > 0 => {
                        levels.node(column, true).map_err(|p| passed(at, p))?;
                        node_start = true;
                    }
                    b']' | b'}' if levels.flow > 0 => {
                        levels.flow -= 1;
                        node_start = false;
                    }
                    b',' if levels.flow > 0 => node_start = true,
                    b':' if spaced(next) || (levels.flow > 0 && ends_key(bytes, at)) => {
                        node_start = true;
                    }
                    b'-' | b'?' if node_start && levels.flow == 0 && spaced(next) => {
                        levels.node(column, false).map_err(|p| passed(at, p))?;
                    }
                    b'"' | b'\'' if node_start => {
                        levels.node(column, false).map_err(|p| passed(at, p))?;
                        mode = if byte == b'"' {
                            Mode::Double
                        } else {
                            Mode::Single
                        };
                    }
                    b'|' | b'>' if node_start && levels.flow == 0 => {
                        levels.nodes += 1;
                        mode = Mode::BlockScalar(levels.block.last().copied().unwrap_or(0));
                        break;
                    }
                    b'&' | b'!' if node_start => {
                        // An anchor or a tag: the node follows it.
                        while at + 1 < line_end && !spaced(bytes[at + 1]) {
                            at += 1;
                            column += 1;
                        }
                    }
                    _ if node_start => {
                        levels.node(column, false).map_err(|p| passed(at, p))?;
                        node_start = false;
                    }
                    _ => {}
                },
            }
            after_space = spaced(byte);
            at += 1;
            column += 1;
        }
        if let Some(problem) = too_long {
            return Err(problem);
        }
        if line_end >= bytes.len() {
            return Ok(());
        }
        line_start = line_end + 1;
    }
}

/// Whether the `:` at `at`, in a flow collection, follows a key that has
/// ended (`"a":1`, `[x]:y`), not a plain scalar that goes on (`a:b`).
fn ends_key(bytes: &[u8], at: usize) -> bool {
    let before = if at == 0 { b' ' } else { bytes[at - 1] };
    matches!(before, b'"' | b'\'' | b']' | b'}' | b' ' | b'\t')
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    // Step back to a character boundary.
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = &text[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_yaml(text: &str) -> Result<(), String> {
        check("t.yaml", text, Language::Yaml).map_err(|problem| problem.to_string())
    }

    #[test]
    fn shipped_files_are_well_within_the_bounds() {
        let mut texts: Vec<(&str, &str)> = crate::tables::EMBEDDED.to_vec();
        texts.extend(
            crate::scenario::BUILTIN
                .iter()
                .map(|(_, file, text)| (*file, *text)),
        );
        for (file, text) in texts {
            assert_eq!(check(file, text, Language::Yaml), Ok(()), "{file}");
        }
    }

    #[test]
    fn deep_block_nesting_is_refused_where_it_passes_the_limit() {
        let deep = format!("{}x\n", "- ".repeat(40_000));
        assert_eq!(
            check_yaml(&deep),
            Err(format!(
                "t.yaml:1:{}: this nests more than 64 levels deep; foe reads files nested at most 64 levels",
                64 * 2 + 1
            ))
        );
        let mut stairs = String::new();
        for level in 0..100 {
            stairs.push_str(&format!("{}k{level}:\n", "  ".repeat(level)));
        }
        let error = check_yaml(&stairs).unwrap_err();
        assert!(
            error.starts_with("t.yaml:65:129: this nests more than 64"),
            "{error}"
        );
    }

    #[test]
    fn deep_flow_nesting_is_refused_where_it_passes_the_limit() {
        for open in ["[", "{a: ", "{\"a\":"] {
            let deep = open.repeat(100_000);
            let error = check_yaml(&deep).unwrap_err();
            assert!(error.contains("nests more than 64"), "{open}: {error}");
            let json = check("t.json", &deep, Language::Json).unwrap_err();
            assert!(json.to_string().contains("nests more than 64"), "{json}");
        }
        assert_eq!(
            check_yaml(&format!("{}{}", "[".repeat(63), "]".repeat(63))),
            Ok(())
        );
    }

    #[test]
    fn quotes_comments_and_block_scalars_hide_brackets() {
        let deep = "[".repeat(100);
        for text in [
            format!("a: \"{deep}\"\n"),
            format!("a: '{deep}'\nb: 'it''s {deep}'\n"),
            format!("a: 1 # {deep}\n"),
            format!("a: |\n  {deep}\n  - - - - - - -\n\n  {deep}\nb: 2\n"),
            format!("- k: >-\n    {deep}\n  j: 1\n"),
            format!("a: \"two\n  lines {deep}\"\n"),
            format!("title: Battle of {deep}\n"),
            format!("{{\"a\": \"{deep}\", \"b\": \"\\\"{deep}\"}}"),
        ] {
            assert_eq!(check_yaml(&text), Ok(()), "{text}");
        }
        // A block scalar ends where a line is no deeper than its parent.
        let text = format!("a: |\n  text\n{}x\n", "- ".repeat(100));
        assert!(check_yaml(&text).unwrap_err().starts_with("t.yaml:3:"));
    }

    #[test]
    fn long_lines_are_refused_in_yaml_only() {
        let text = format!("a: 1\nb: {}\n", "x".repeat(MAX_LINE_BYTES));
        assert_eq!(
            check_yaml(&text),
            Err(format!(
                "t.yaml:2:{}: this line is over 32768 bytes; foe reads YAML lines of at most 32768 bytes",
                MAX_LINE_BYTES + 1
            ))
        );
        let json = format!("{{\"a\": \"{}\"}}", "x".repeat(MAX_LINE_BYTES * 2));
        assert_eq!(check("t.json", &json, Language::Json), Ok(()));
    }

    #[test]
    fn too_many_nodes_are_refused() {
        let wide = format!("[{}]", "1,".repeat(MAX_YAML_NODES + 10));
        let text = wide.replace(",", ",\n");
        let error = check_yaml(&text).unwrap_err();
        assert!(
            error.ends_with(
                "this file holds more than 100000 nodes; foe reads files of at most 100000"
            ),
            "{error}"
        );
        assert_eq!(check("t.json", &wide, Language::Json), Ok(()));
    }
}
