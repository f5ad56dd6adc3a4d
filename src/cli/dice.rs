//! Dice at the command line: seeded rolls (printing the seed so a roll can
//! be replayed), or the player's own rolls typed at a prompt.

use super::repl::{Line, read_line};
use crate::dice::{Die, Roller, Seeded};
use crate::error::{Error, Result};
use std::io::{BufRead, Write};

/// Where the command line's dice come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiceMode {
    /// foe rolls with its seeded generator.
    #[default]
    Roll,
    /// The player rolls real dice and types the results.
    Ask,
}

/// A seed for a run: the one given, or one drawn from the clock.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        // Fold nanoseconds into a short, typeable number.
        (now.as_nanos() % 1_000_000_000) as u64
    })
}

/// The dice of one command-line run.
pub struct CliDice {
    mode: DiceMode,
    seeded: Seeded,
    /// The seed used, to show the player.
    pub seed: u64,
}

impl CliDice {
    /// Dice in the given mode; seeded from `seed` or the clock.
    pub fn new(mode: DiceMode, seed: Option<u64>) -> CliDice {
        let seed = seed_or_clock(seed);
        CliDice {
            mode,
            seeded: Seeded::new(seed),
            seed,
        }
    }

    /// Roll one die, or ask the player for it on stderr/stdin.
    pub fn roll(&mut self, die: Die, what: &str) -> Result<u8> {
        match self.mode {
            DiceMode::Roll => Ok(self.seeded.roll(die)),
            DiceMode::Ask => {
                let stdin = std::io::stdin();
                let stderr = std::io::stderr();
                ask(die, what, &mut stdin.lock(), &mut stderr.lock())
            }
        }
    }

    /// The seeded generator, for rolls that are never asked (names).
    pub fn seeded(&mut self) -> &mut Seeded {
        &mut self.seeded
    }
}

/// Ask for a roll until a legal face is typed. A line that is not text or
/// is too long is a wrong answer, asked again; only the end of input is an
/// error.
pub fn ask(die: Die, what: &str, input: &mut dyn BufRead, prompt: &mut dyn Write) -> Result<u8> {
    loop {
        let _ = write!(prompt, "{what}: type {}: ", die.faces_hint());
        let _ = prompt.flush();
        let line = read_line(input).map_err(|source| Error::Io {
            action: "read",
            path: "<stdin>".into(),
            source,
        })?;
        let line = match line {
            Line::Text(line) => line,
            Line::End => {
                return Err(Error::Invalid(format!(
                    "no roll given for {what}: input ended"
                )));
            }
            bad => {
                let problem = bad.problem().unwrap_or_default();
                let _ = writeln!(prompt, "{problem}: type {}", die.faces_hint());
                continue;
            }
        };
        match line.trim().parse::<u8>() {
            Ok(value) if die.is_face(value) => return Ok(value),
            _ => {
                let _ = writeln!(prompt, "`{}` is not {}", line.trim(), die.faces_hint());
            }
        }
    }
}

/// The player's own dice for a whole session: each roll is asked for on
/// standard error and read from standard input (one line a roll), asked
/// again until it is a legal face. When input ends, foe rolls for the
/// player with the seeded generator and says so once.
pub struct AskRoller {
    fallback: Seeded,
    ended: bool,
}

impl AskRoller {
    /// Ask for rolls; `seed` rolls for the player once input has ended.
    pub fn new(seed: u64) -> AskRoller {
        AskRoller {
            fallback: Seeded::new(seed),
            ended: false,
        }
    }
}

impl Roller for AskRoller {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!("foe needs a roll"))
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        if !self.ended {
            let stdin = std::io::stdin();
            let stderr = std::io::stderr();
            match ask(die, &why.to_string(), &mut stdin.lock(), &mut stderr.lock()) {
                Ok(value) => return value,
                Err(_) => {
                    self.ended = true;
                    let _ = writeln!(std::io::stderr(), "(no more input: foe rolls from here on)");
                }
            }
        }
        self.fallback.roll(die)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asking_repeats_until_a_legal_face() {
        let mut input: &[u8] = b"7\nfour\n4\n";
        let mut prompt = Vec::new();
        assert_eq!(ask(Die::D6, "rangers", &mut input, &mut prompt).unwrap(), 4);
        let prompt = String::from_utf8(prompt).unwrap();
        assert!(prompt.contains("`7` is not a D6 roll from 1 to 6"));
        assert!(prompt.contains("`four` is not a D6 roll from 1 to 6"));
    }

    #[test]
    fn a_line_that_is_not_text_or_too_long_is_asked_again_not_the_end() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'4', super::super::repl::MAX_LINE + 10));
        input.extend(b"\n5\n");
        let mut prompt = Vec::new();
        assert_eq!(ask(Die::D6, "x", &mut &input[..], &mut prompt).unwrap(), 5);
        let prompt = String::from_utf8(prompt).unwrap();
        assert!(prompt.contains("that line is not UTF-8 text; it was ignored"));
        assert!(prompt.contains("that line is longer than 65536 bytes; it was ignored"));
    }

    #[test]
    fn asking_at_end_of_input_is_an_error() {
        let mut input: &[u8] = b"";
        assert!(ask(Die::Average, "x", &mut input, &mut Vec::new()).is_err());
    }
}
