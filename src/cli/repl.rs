//! The pieces every foe prompt shares: lines from rustyline at a terminal
//! (history, completion, hints) or plain lines from a pipe (echoed after
//! their prompt so a script's output reads like a session), read with a
//! bound on a line's length so a huge or binary line is an error and not a
//! hang; foe's data folder; and atomic file writes (in `cli::saves`).

use crate::completion::{Choice, Grammar};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// The longest line foe reads from standard input, in bytes. Longer lines
/// are skipped without being kept in memory, and said so.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of standard input, read with a bound on its length.
pub(crate) enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line that was not UTF-8 text.
    NotText,
    /// A line longer than [`MAX_LINE`] bytes (skipped to its end).
    TooLong,
    /// The end of input.
    End,
}

impl Line {
    /// What is wrong with a line that is not text, for the player.
    pub(crate) fn problem(&self) -> Option<String> {
        match self {
            Line::NotText => Some("that line is not UTF-8 text; it was ignored".into()),
            Line::TooLong => Some(format!(
                "that line is longer than {MAX_LINE} bytes; it was ignored"
            )),
            Line::Text(_) | Line::End => None,
        }
    }
}

/// Read one line, keeping at most [`MAX_LINE`] bytes of it in memory.
pub(crate) fn read_line(input: &mut dyn BufRead) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let (used, done) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(newline) => (newline + 1, true),
            None => (buffer.len(), false),
        };
        if !too_long {
            // Room for the line and its `\r\n`; past that, stop keeping it.
            if bytes.len() + used > MAX_LINE + 2 {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(&buffer[..used]);
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if !read_any {
        return Ok(Line::End);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if too_long || bytes.len() > MAX_LINE {
        return Ok(Line::TooLong);
    }
    Ok(String::from_utf8(bytes).map_or(Line::NotText, Line::Text))
}

/// What reading a line gave.
pub(crate) enum Read {
    Line(String),
    /// A line that cannot be used (not text, too long): what is wrong.
    Bad(String),
    Interrupted,
    Eof,
}

/// What Tab completes at a prompt.
#[derive(Clone)]
pub(crate) enum Completion {
    /// The word under the cursor from a list of words.
    Words(Vec<String>),
    /// By context: the prompt's grammar, which knows which kind of word
    /// each place on the line takes.
    Play(Arc<dyn Grammar>),
}

impl Completion {
    /// The choices for `line` with the cursor at `cursor`: where the word
    /// being completed starts, and what may replace it.
    pub(crate) fn choices(&self, line: &str, cursor: usize) -> (usize, Vec<Choice>) {
        match self {
            Completion::Words(words) => {
                let before = line.get(..cursor).unwrap_or(line);
                let start = before.rfind(' ').map_or(0, |space| space + 1);
                let typed = before[start..].to_lowercase();
                let choices = words
                    .iter()
                    .filter(|word| word.to_lowercase().starts_with(&typed))
                    .map(|word| Choice {
                        replacement: word.clone(),
                        display: word.clone(),
                    })
                    .collect();
                (start, choices)
            }
            Completion::Play(grammar) => grammar.complete(line, cursor),
        }
    }
}

/// Where lines come from.
pub(crate) trait LineSource {
    /// Read one line after showing `prompt`; `completion` completes on
    /// Tab, `hint` is the default.
    fn read(&mut self, prompt: &str, completion: &Completion, hint: Option<&str>) -> Read;
    /// Keep the prompt history, if there is one.
    fn save_history(&mut self) {}
}

/// Plain lines from standard input: scripts and pipes.
pub(crate) struct Plain {
    stdin: std::io::Stdin,
}

impl Plain {
    pub(crate) fn new() -> Plain {
        Plain {
            stdin: std::io::stdin(),
        }
    }
}

impl LineSource for Plain {
    fn read(&mut self, _prompt: &str, _completion: &Completion, _hint: Option<&str>) -> Read {
        // A line that is not text or is too long is refused and the session
        // goes on: neither is the end of input.
        match read_line(&mut self.stdin.lock()) {
            Ok(Line::Text(line)) => Read::Line(line),
            Ok(Line::End) | Err(_) => Read::Eof,
            Ok(bad) => Read::Bad(bad.problem().unwrap_or_default()),
        }
    }
}

/// rustyline at a terminal: history, completion, hints.
pub(crate) struct Terminal {
    editor: rustyline::Editor<Helper, rustyline::history::FileHistory>,
    history: Option<PathBuf>,
}

impl Terminal {
    pub(crate) fn new(history: Option<PathBuf>) -> Option<Terminal> {
        // Tab lists the choices (a second Tab shows them all), not cycling
        // through them one by one.
        let config = rustyline::Config::builder()
            .completion_type(rustyline::CompletionType::List)
            .build();
        let mut editor = rustyline::Editor::with_config(config).ok()?;
        editor.set_helper(Some(Helper::default()));
        if let Some(path) = &history {
            // No history yet is normal on a first run.
            let _ = editor.load_history(path);
        }
        Some(Terminal { editor, history })
    }
}

impl LineSource for Terminal {
    fn read(&mut self, prompt: &str, completion: &Completion, hint: Option<&str>) -> Read {
        if let Some(helper) = self.editor.helper_mut() {
            helper.completion = completion.clone();
            helper.default = hint.map(str::to_string);
        }
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.editor.add_history_entry(line.as_str());
                }
                Read::Line(line)
            }
            Err(rustyline::error::ReadlineError::Interrupted) => Read::Interrupted,
            Err(rustyline::error::ReadlineError::Io(error))
                if error.kind() == std::io::ErrorKind::InvalidData =>
            {
                Read::Bad(Line::NotText.problem().unwrap_or_default())
            }
            Err(_) => Read::Eof,
        }
    }

    fn save_history(&mut self) {
        if let Some(path) = &self.history {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = self.editor.save_history(path);
        }
    }
}

/// Completion of the word under the cursor and a hint of the default answer.
struct Helper {
    completion: Completion,
    default: Option<String>,
}

impl Default for Helper {
    fn default() -> Helper {
        Helper {
            completion: Completion::Words(Vec::new()),
            default: None,
        }
    }
}

impl rustyline::completion::Completer for Helper {
    type Candidate = rustyline::completion::Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _context: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<rustyline::completion::Pair>)> {
        let (start, choices) = self.completion.choices(line, pos);
        let pairs = choices
            .into_iter()
            .map(|choice| rustyline::completion::Pair {
                display: choice.display,
                replacement: choice.replacement,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl rustyline::hint::Hinter for Helper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _context: &rustyline::Context<'_>) -> Option<String> {
        if line.is_empty() {
            return self.default.clone();
        }
        if pos < line.len() {
            return None;
        }
        // The rest of the one choice that begins as typed.
        let (start, choices) = self.completion.choices(line, pos);
        let typed = &line[start..];
        match choices.as_slice() {
            [only]
                if !typed.is_empty()
                    && only.replacement.len() > typed.len()
                    && only.replacement.starts_with(typed) =>
            {
                Some(only.replacement[typed.len()..].to_string())
            }
            _ => None,
        }
    }
}

impl rustyline::highlight::Highlighter for Helper {}
impl rustyline::validate::Validator for Helper {}
impl rustyline::Helper for Helper {}

/// The prompt and the output, together, so that plain input can be echoed
/// after its prompt and the transcript reads like a session.
pub(crate) struct Console<'a> {
    pub(crate) source: Box<dyn LineSource>,
    pub(crate) out: &'a mut dyn Write,
    pub(crate) echo: bool,
}

impl Console<'_> {
    pub(crate) fn read(&mut self, prompt: &str, words: &[String], hint: Option<&str>) -> Read {
        self.read_completing(prompt, &Completion::Words(words.to_vec()), hint)
    }

    /// [`Console::read`] with completion by context.
    pub(crate) fn read_completing(
        &mut self,
        prompt: &str,
        completion: &Completion,
        hint: Option<&str>,
    ) -> Read {
        let _ = self.out.flush();
        let read = self.source.read(prompt, completion, hint);
        if self.echo {
            match &read {
                Read::Line(line) => {
                    // What was typed may hold an escape sequence.
                    let _ = writeln!(self.out, "{prompt}{}", crate::names::escape(line));
                }
                Read::Bad(_) => {
                    let _ = writeln!(self.out, "{prompt}");
                }
                Read::Interrupted | Read::Eof => {}
            }
        }
        read
    }

    pub(crate) fn say(&mut self, text: &str) {
        let _ = self.out.write_all(text.as_bytes());
        if !text.ends_with('\n') {
            let _ = self.out.write_all(b"\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut reader = std::io::BufReader::with_capacity(16, input);
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader).unwrap() {
                Line::Text(text) => out.push(text),
                Line::NotText => out.push("<not text>".into()),
                Line::TooLong => out.push("<too long>".into()),
                Line::End => return out,
            }
        }
    }

    #[test]
    fn lines_are_bounded_and_bad_ones_do_not_end_the_input() {
        let mut input = b"one\r\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 1));
        input.extend(b"\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE));
        input.extend(b"\nlast");
        let read = lines(&input);
        assert_eq!(read.len(), 5);
        assert_eq!(read[..3], ["one", "<not text>", "<too long>"]);
        assert_eq!(
            read[3].len(),
            MAX_LINE,
            "a line of exactly the limit is read"
        );
        assert_eq!(read[4], "last");
    }
}
