//! What a name or a label may hold, and how text from outside is shown.
//!
//! Names (units, generals, sides, areas, scenarios) and labels come from
//! files, saves and the command line, and foe prints them in columns, in
//! logs and on the player's terminal. [`check`] refuses what cannot be
//! shown on one line of a column; [`escape`] is the one place text from
//! outside is made safe to print.

use std::borrow::Cow;

/// A count of hits as it reads: `1 hit`, `0 hits`, `3 hits`.
pub fn hits(n: u32) -> String {
    if n == 1 {
        "1 hit".to_string()
    } else {
        format!("{n} hits")
    }
}

/// A side's name as the subject of a sentence: `americans` reads "the
/// Americans". A side is many men, so its verb is plural ("the Americans
/// defend their lines").
pub fn side_subject(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => format!(
            "the {}",
            first.to_uppercase().chain(chars).collect::<String>()
        ),
        None => String::new(),
    }
}

/// The most characters a name or a label may have: longer ones would
/// push every column of a report off the screen.
pub const MAX_NAME_CHARS: usize = 64;

/// The most characters a scenario's title may have.
pub const MAX_TITLE_CHARS: usize = 120;

/// Why `text` cannot be a name (`what`, such as `unit name`) of at most
/// `max` characters, in one line; `None` if it can. A name is one line
/// of printable characters: no control characters (tab, newline and
/// escape among them), no bidirectional overrides.
pub fn problem(what: &str, text: &str, max: usize) -> Option<String> {
    if let Some(c) = text.chars().find(|&c| unprintable(c)) {
        return Some(format!(
            "{what} `{}` holds the character U+{:04X}; a name is one line of printable characters",
            escape(text),
            u32::from(c)
        ));
    }
    let count = text.chars().count();
    (count > max).then(|| {
        let start: String = text.chars().take(20).collect();
        format!("{what} `{start}…` is {count} characters long; names may have at most {max}")
    })
}

/// [`problem`] with [`MAX_NAME_CHARS`], as a `Result`.
pub fn check(what: &str, text: &str) -> Result<(), String> {
    problem(what, text, MAX_NAME_CHARS).map_or(Ok(()), Err)
}

/// Whether `c` may not stand in a name: control characters (C0, DEL, C1),
/// the bidirectional controls that reorder what a terminal shows, and the
/// non-characters U+FFFE and U+FFFF.
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{fffe}' | '\u{ffff}'
        )
}

/// `text` safe to print on one line: every character [`check`] refuses
/// written as an escape (`\n`, `\u{1b}`), and `\` itself doubled only
/// where an escape is made. Text with nothing to escape is returned as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if unprintable(c) {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// [`escape`] for text of several lines (a report, a list of problems):
/// newlines are kept, every other character [`check`] refuses is escaped.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && unprintable(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(|line| escape(line).into_owned())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sides_read_as_english() {
        assert_eq!(hits(0), "0 hits");
        assert_eq!(hits(1), "1 hit");
        assert_eq!(hits(2), "2 hits");
        assert_eq!(side_subject("americans"), "the Americans");
        assert_eq!(side_subject("British"), "the British");
        assert_eq!(side_subject(""), "");
    }

    #[test]
    fn names_are_one_short_line_of_printable_characters() {
        assert_eq!(check("unit name", "1st Maryland"), Ok(()));
        assert_eq!(check("unit name", "Régiment de Saintonge — 1er"), Ok(()));
        assert_eq!(check("unit name", &"x".repeat(64)), Ok(()));
        assert_eq!(
            check("unit name", &"x".repeat(65)),
            Err("unit name `xxxxxxxxxxxxxxxxxxxx…` is 65 characters long; names may have at most 64".into())
        );
        assert_eq!(
            check("unit name", "a\n== turn 99: fake =="),
            Err("unit name `a\\n== turn 99: fake ==` holds the character U+000A; a name is one line of printable characters".into())
        );
        for bad in [
            "a\tb",
            "a\rb",
            "\u{1b}[31m",
            "x\u{85}",
            "\u{202e}gninraw",
            "\u{7f}",
        ] {
            assert!(check("name", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn escape_leaves_printable_text_alone_and_shows_the_rest() {
        assert!(matches!(escape("Cornwallis"), Cow::Borrowed("Cornwallis")));
        assert_eq!(escape("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\\n");
        assert_eq!(escape("\u{202e}x"), "\\u{202e}x");
        assert_eq!(escape_lines("one\ntwo\u{7}\n"), "one\ntwo\\u{7}\n");
    }
}
