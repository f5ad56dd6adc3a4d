//! The pieces every foe prompt shares: lines from rustyline at a terminal
//! (history, completion, hints) or plain lines from a pipe (echoed after
//! their prompt so a script's output reads like a session), foe's data
//! folder, and atomic file writes for saves.

use crate::error::{Error, Result};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// foe's data folder: `$FOE_DATA_DIR`, else `$XDG_DATA_HOME/foe`, else
/// `~/.local/share/foe`.
pub fn data_dir() -> Option<PathBuf> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(dir) = non_empty("FOE_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = non_empty("XDG_DATA_HOME") {
        return Some(PathBuf::from(dir).join("foe"));
    }
    non_empty("HOME").map(|home| PathBuf::from(home).join(".local/share/foe"))
}

/// Write a file atomically: a temporary file in the same folder, then a
/// rename, so a crash never leaves half a file where a good one was.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let io = |source| Error::Io {
        action: "write",
        path: path.into(),
        source,
    };
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "save".into());
    let temp = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

/// What reading a line gave.
pub(crate) enum Read {
    Line(String),
    Interrupted,
    Eof,
}

/// Where lines come from.
pub(crate) trait LineSource {
    /// Read one line after showing `prompt`; `words` complete, `hint` is the default.
    fn read(&mut self, prompt: &str, words: &[String], hint: Option<&str>) -> Read;
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
    fn read(&mut self, _prompt: &str, _words: &[String], _hint: Option<&str>) -> Read {
        let mut bytes = Vec::new();
        match self.stdin.lock().read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => Read::Eof,
            Ok(_) => {
                // A line that is not UTF-8 is kept as best we can: it is then
                // refused as an unknown command, not a reason to stop.
                let line = String::from_utf8_lossy(&bytes);
                Read::Line(line.trim_end_matches(['\n', '\r']).to_string())
            }
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
        let mut editor = rustyline::Editor::new().ok()?;
        editor.set_helper(Some(Helper::default()));
        if let Some(path) = &history {
            // No history yet is normal on a first run.
            let _ = editor.load_history(path);
        }
        Some(Terminal { editor, history })
    }
}

impl LineSource for Terminal {
    fn read(&mut self, prompt: &str, words: &[String], hint: Option<&str>) -> Read {
        if let Some(helper) = self.editor.helper_mut() {
            helper.words = words.to_vec();
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
#[derive(Default)]
struct Helper {
    words: Vec<String>,
    default: Option<String>,
}

impl rustyline::completion::Completer for Helper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _context: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(' ').map_or(0, |space| space + 1);
        let typed = line[start..pos].to_lowercase();
        let matches = self
            .words
            .iter()
            .filter(|word| word.to_lowercase().starts_with(&typed))
            .cloned()
            .collect();
        Ok((start, matches))
    }
}

impl rustyline::hint::Hinter for Helper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _context: &rustyline::Context<'_>) -> Option<String> {
        if line.is_empty() {
            return self.default.clone();
        }
        if pos < line.len() || line.contains(' ') {
            return None;
        }
        let mut matches = self
            .words
            .iter()
            .filter(|word| word.starts_with(line) && word.len() > line.len());
        match (matches.next(), matches.next()) {
            (Some(word), None) => Some(word[line.len()..].to_string()),
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
        let _ = self.out.flush();
        let read = self.source.read(prompt, words, hint);
        if self.echo
            && let Read::Line(line) = &read
        {
            let _ = writeln!(self.out, "{prompt}{line}");
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
