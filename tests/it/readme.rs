//! The README's examples, run: every fenced block tagged `console` in
//! README.md is a session whose commands run through the built binary and
//! whose output must be exactly what the README shows.
//!
//! The convention (docs/testing.md, "The README's examples"):
//! - a line beginning `$ ` is a command: `foe ARGS`, optionally fed by
//!   `printf 'TEXT' | ` (TEXT, with `\n` for a new line and `\047` for a
//!   quote, is standard input) and optionally ending `> FILE` (standard
//!   output written to FILE in the block's folder instead of shown);
//! - the lines after it, up to the next command or the end of the block,
//!   are what it prints: standard output, then standard error; trailing
//!   blank lines, and spaces at the end of a line, are not compared;
//! - a line that is exactly `...` stands for any number of lines (none
//!   included), for output too long to show or that changes from run to
//!   run (a study's seconds);
//! - a command exits with status 0, unless its output shows a line
//!   beginning `error:`, when it must fail.
//!
//! Each block runs in a fresh folder holding links to the repository's
//! `scenarios`, `tests`, `armies` and `tables`, with foe's data folder
//! (autosaves) inside it, so the commands in one block share files and
//! nothing is written outside it. Blocks tagged otherwise (`text`, `sh`)
//! are not run: a study of thousands of games is shown that way.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One command of a `console` block and what the README says it prints.
#[derive(Debug)]
struct Example {
    /// The README line of the command, for messages.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The `console` blocks of a Markdown text, each a list of examples.
fn console_blocks(markdown: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    for (index, line) in markdown.lines().enumerate() {
        let line_number = index + 1;
        match &mut current {
            None => {
                if line.trim_end() == "```console" {
                    current = Some(Vec::new());
                }
            }
            Some(examples) => {
                if line.trim_end() == "```" {
                    blocks.push(current.take().unwrap_or_default());
                } else if let Some(command) = line.strip_prefix("$ ") {
                    examples.push(Example {
                        line: line_number,
                        command: command.to_string(),
                        expected: Vec::new(),
                    });
                } else if let Some(example) = examples.last_mut() {
                    example.expected.push(line.to_string());
                } else {
                    panic!(
                        "README.md:{line_number}: a console block must open with a `$ ` command"
                    );
                }
            }
        }
    }
    assert!(
        current.is_none(),
        "README.md: a console block is not closed"
    );
    blocks
}

/// A command line split into words as a POSIX shell would: single quotes
/// keep everything, double quotes keep all but `\"` and `\\`, a backslash
/// outside quotes keeps the next character.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some(next @ ('"' | '\\')) => word.push(next),
                            Some(next) => {
                                word.push('\\');
                                word.push(next);
                            }
                            None => word.push('\\'),
                        },
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(next) = chars.next() {
                    word.push(next);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// What a command line asks for: foe's arguments, its standard input and
/// where its standard output goes.
#[derive(Debug, PartialEq)]
struct Invocation {
    args: Vec<String>,
    stdin: String,
    stdout_to: Option<String>,
}

/// The text `printf` prints for a format without conversions: `\n`, `\t`,
/// `\\`, `\NNN` (octal, for a quote inside quotes: `\047`) and `%%`.
fn printf_text(format: &str) -> Result<String, String> {
    let mut text = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some('\\') => text.push('\\'),
                Some(digit @ '0'..='7') => {
                    let mut code = digit.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match chars.peek().and_then(|next| next.to_digit(8)) {
                            Some(more) => {
                                code = code * 8 + more;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    text.push(char::from_u32(code).ok_or("an octal escape past a character")?);
                }
                other => {
                    return Err(format!(
                        "printf escape `\\{}` is not part of the README's convention",
                        other.unwrap_or(' ')
                    ));
                }
            },
            '%' => match chars.next() {
                Some('%') => text.push('%'),
                _ => return Err("printf text may hold `%` only as `%%`".into()),
            },
            c => text.push(c),
        }
    }
    Ok(text)
}

/// Read a command line of the README's convention, or say what is wrong.
fn invocation(command: &str) -> Result<Invocation, String> {
    let mut words = shell_words(command);
    let mut stdin = String::new();
    if words.first().map(String::as_str) == Some("printf") {
        if words.len() < 3 || words[2] != "|" {
            return Err("expected `printf 'TEXT' | foe ...`".into());
        }
        stdin = printf_text(&words[1])?;
        words.drain(..3);
    }
    let mut stdout_to = None;
    if words.len() >= 2 && words[words.len() - 2] == ">" {
        stdout_to = words.pop();
        words.pop();
    }
    if words.first().map(String::as_str) != Some("foe") {
        return Err("expected a command that runs `foe`".into());
    }
    if let Some(word) = words
        .iter()
        .find(|word| matches!(word.as_str(), "|" | ">" | "<" | "&&" | ";"))
    {
        return Err(format!("`{word}` is not part of the README's convention"));
    }
    words.remove(0);
    Ok(Invocation {
        args: words,
        stdin,
        stdout_to,
    })
}

/// Whether `actual` is `expected`, where an `...` line of `expected`
/// stands for any run of lines (none included). Spaces at the end of a
/// line are not compared: Markdown editors strip them.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    let (mut expected, mut actual) = (expected, actual);
    loop {
        match expected.split_first() {
            None => return actual.is_empty(),
            Some((first, rest)) if first.trim_end() == "..." => {
                return (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]));
            }
            Some((first, rest)) => {
                if actual.first().map(|line| line.trim_end()) != Some(first.trim_end()) {
                    return false;
                }
                expected = rest;
                actual = &actual[1..];
            }
        }
    }
}

/// Lines without the trailing blank ones.
fn trimmed<T: AsRef<str>>(lines: &[T]) -> &[T] {
    let kept = lines
        .iter()
        .rposition(|line| !line.as_ref().trim().is_empty())
        .map_or(0, |last| last + 1);
    &lines[..kept]
}

/// A fresh folder for one block, holding links to the repository's data.
fn block_folder(repository: &Path) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a scratch folder");
    for name in ["scenarios", "tests", "armies", "tables"] {
        std::os::unix::fs::symlink(repository.join(name), folder.path().join(name))
            .expect("a link to the repository");
    }
    folder
}

/// Run one example in `folder`; a message saying how it differs if it does.
fn run(foe: &Path, folder: &Path, example: &Example) -> Option<String> {
    let invocation = match invocation(&example.command) {
        Ok(invocation) => invocation,
        Err(message) => return Some(format!("README.md:{}: {message}", example.line)),
    };
    let mut child = Command::new(foe)
        .args(&invocation.args)
        .current_dir(folder)
        .env_remove("FOE_TABLES")
        .env("FOE_DATA_DIR", folder.join("data"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("foe runs");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("foe's standard input");
        // foe may stop reading before the end (a `quit`): a closed pipe is fine.
        let _ = input.write_all(invocation.stdin.as_bytes());
    }
    let output = child.wait_with_output().expect("foe finishes");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let mut shown = String::new();
    if let Some(file) = &invocation.stdout_to {
        std::fs::write(folder.join(file), &stdout).expect("the redirected output written");
    } else {
        shown.push_str(&stdout);
    }
    shown.push_str(&stderr);
    let actual: Vec<&str> = shown.lines().collect();
    let expected = trimmed(&example.expected);
    // A command that fails says so first or last; an `error:` between is
    // a REPL's answer to one line, and the session goes on.
    let wants_failure = [expected.first(), expected.last()]
        .into_iter()
        .flatten()
        .any(|line| line.starts_with("error:"));
    let failed = !output.status.success();
    if !matches(expected, trimmed(&actual)) || failed != wants_failure {
        return Some(format!(
            "README.md:{}: `{}` (status {:?})\n--- the README shows ---\n{}\n--- foe prints ---\n{}",
            example.line,
            example.command,
            output.status.code(),
            expected.join("\n"),
            shown
        ));
    }
    None
}

#[test]
fn every_console_example_in_the_readme_prints_what_it_shows() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repository.join("README.md")).expect("README.md");
    let blocks = console_blocks(&readme);
    assert!(blocks.len() >= 10, "only {} console blocks", blocks.len());
    let foe: PathBuf = assert_cmd::cargo::cargo_bin("foe");
    // Blocks are independent, so they run side by side.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = blocks
            .iter()
            .map(|block| {
                let foe = &foe;
                scope.spawn(move || {
                    let folder = block_folder(repository);
                    block
                        .iter()
                        .filter_map(|example| run(foe, folder.path(), example))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().expect("a block's thread"))
            .collect()
    });
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn an_elision_stands_for_any_lines_and_nothing_else_differs() {
    let lines = |text: &str| text.lines().map(str::to_string).collect::<Vec<_>>();
    let check = |expected: &str, actual: &str| {
        let actual: Vec<&str> = actual.lines().collect();
        matches(&lines(expected), &actual)
    };
    assert!(check("a\nb", "a\nb"));
    assert!(!check("a\nb", "a\nc"));
    assert!(!check("a", "a\nb"));
    assert!(!check("a\nb", "a"));
    assert!(check("a\n...\nd", "a\nb\nc\nd"));
    assert!(check("a\n...\nd", "a\nd"));
    assert!(!check("a\n...\nd", "a\nb\nc"));
    assert!(check("...\nc", "a\nb\nc"));
    assert!(check("a\n...", "a\nb\nc"));
    assert!(!check("a\n...\nb\n...\nc", "a\nc\nb"));
    assert!(check("a\n...\nb\n...\nc", "a\nx\nb\ny\nc"));
    // An elision is a whole line: `...` inside a line is compared as text.
    assert!(!check("a ...", "a b"));
    // Spaces at the end of a line are not compared.
    assert!(check("a: \nb", "a:\nb"));
    assert!(!check("a:\nb", "a: x\nb"));
}

#[test]
fn a_readme_command_line_reads_as_a_shell_would() {
    assert_eq!(
        invocation(r#"foe simulate --set "sides.americans.units.1st Maryland.troop_type=militia""#),
        Ok(Invocation {
            args: vec![
                "simulate".into(),
                "--set".into(),
                "sides.americans.units.1st Maryland.troop_type=militia".into()
            ],
            stdin: String::new(),
            stdout_to: None,
        })
    );
    assert_eq!(
        invocation(r"printf 'victory\nquit\n' | foe play --seed 1781"),
        Ok(Invocation {
            args: vec!["play".into(), "--seed".into(), "1781".into()],
            stdin: "victory\nquit\n".into(),
            stdout_to: None,
        })
    );
    assert_eq!(
        invocation("foe simulate guilford --games 5 --json > a.json"),
        Ok(Invocation {
            args: vec![
                "simulate".into(),
                "guilford".into(),
                "--games".into(),
                "5".into(),
                "--json".into()
            ],
            stdin: String::new(),
            stdout_to: Some("a.json".into()),
        })
    );
    assert_eq!(
        invocation(r"printf 'fire B1 A3 (Singleton\047s Gun)\n' | foe play").map(|run| run.stdin),
        Ok("fire B1 A3 (Singleton's Gun)\n".to_string())
    );
    assert!(invocation(r"printf '50%\n' | foe play").is_err());
    assert!(invocation("ls -l").is_err());
    assert!(invocation("foe simulate guilford | head -1").is_err());
    assert!(invocation("printf 'x' foe play").is_err());
}

#[test]
fn console_blocks_are_read_command_by_command() {
    let markdown = "text\n```console\n$ foe a\none\n\n$ foe b\ntwo\n```\n```text\n$ foe c\n```\n";
    let blocks = console_blocks(markdown);
    assert_eq!(blocks.len(), 1);
    let commands: Vec<(&str, usize, Vec<String>)> = blocks[0]
        .iter()
        .map(|example| {
            (
                example.command.as_str(),
                example.line,
                example.expected.clone(),
            )
        })
        .collect();
    assert_eq!(
        commands,
        vec![
            ("foe a", 3, vec!["one".to_string(), String::new()]),
            ("foe b", 6, vec!["two".to_string()]),
        ]
    );
}
