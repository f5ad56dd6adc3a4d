//! Dice at the command line: seeded rolls (printing the seed so a roll can
//! be replayed), or the player's own rolls typed at a prompt.

use super::repl::{Line, read_line};
use crate::dice::{Die, Roller, Seeded};
use crate::error::{Error, Result};
use std::collections::VecDeque;
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

/// What the player typed at a dice prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Typed {
    /// A face of the die.
    Face(u8),
    /// `?`: what is asked, and the die's faces.
    Help,
    /// Not a face: what to say.
    Wrong(String),
}

/// Read a roll typed for `die`: a face, `00` for 100 on percentage dice
/// (two ten-sided dice read tens then units show 00 for a hundred), or
/// `?` for help.
pub(crate) fn typed_roll(die: Die, line: &str) -> Typed {
    let text = line.trim();
    if text == "?" {
        return Typed::Help;
    }
    let value = if die == Die::D100 && text == "00" {
        Some(100)
    } else {
        text.parse::<u8>().ok()
    };
    match value {
        Some(value) if die.is_face(value) => Typed::Face(value),
        _ => Typed::Wrong(format!("`{text}` is not {}", die.faces_hint())),
    }
}

/// The help at a dice prompt: what is asked and the faces of the die.
pub(crate) fn roll_help(die: Die, what: &str) -> String {
    let asked = if what.is_empty() {
        format!("foe needs a roll of the {die}")
    } else {
        format!("foe needs a roll of the {die} for {what}")
    };
    let faces = match die {
        Die::D6 => "an ordinary six-sided die: type the face, 1 to 6".to_string(),
        Die::Average => format!(
            "the average die, a six-sided die marked {}: type the face, 2 to 5",
            crate::dice::AVERAGE_FACES
                .map(|face| face.to_string())
                .join(", ")
        ),
        Die::D100 => {
            "percentage dice, two ten-sided dice read tens then units: type 1 to 100 (00 is 100)"
                .to_string()
        }
    };
    format!("{asked}; {faces}")
}

/// Ask for a roll until a legal face is typed. A line that is not text or
/// is too long is a wrong answer, asked again; only the end of input is an
/// error.
pub fn ask(die: Die, what: &str, input: &mut dyn BufRead, prompt: &mut dyn Write) -> Result<u8> {
    let mut carried = VecDeque::new();
    let value = ask_many(die, 1, what, &mut carried, input, prompt)?;
    if !carried.is_empty() {
        let dropped: Vec<String> = carried.into_iter().collect();
        let _ = writeln!(
            prompt,
            "(one roll was asked for; `{}` not used)",
            dropped.join(" ")
        );
    }
    Ok(value[0])
}

/// The answers on one dice line: faces separated by spaces or commas.
fn answers(line: &str) -> impl Iterator<Item = String> + '_ {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(str::to_string)
}

/// Ask for `count` rolls of `die`, all for `what`, until each is a legal
/// face. A line may carry several faces (`6 6 6 4`): they are used in
/// order, for this ask and then for the asks after it (`carried` holds
/// what is left of the line). Each roll taken from an earlier line is
/// echoed with what it was for, so every roll is named; a wrong face drops
/// the rest of its line, and the roll is asked again.
pub(crate) fn ask_many(
    die: Die,
    count: usize,
    what: &str,
    carried: &mut VecDeque<String>,
    input: &mut dyn BufRead,
    prompt: &mut dyn Write,
) -> Result<Vec<u8>> {
    let mut got: Vec<u8> = Vec::with_capacity(count);
    let mut from_before = 0;
    let mut typed_here = false;
    loop {
        while got.len() < count {
            let Some(token) = carried.pop_front() else {
                break;
            };
            match typed_roll(die, &token) {
                Typed::Face(value) => {
                    got.push(value);
                    if !typed_here {
                        from_before += 1;
                    }
                }
                Typed::Help => {
                    let _ = writeln!(prompt, "{}", roll_help(die, what));
                }
                Typed::Wrong(message) => {
                    let rest = if carried.is_empty() {
                        String::new()
                    } else {
                        let rest: Vec<String> = carried.drain(..).collect();
                        format!("; the rest of the line (`{}`) was dropped", rest.join(" "))
                    };
                    let _ = writeln!(prompt, "{message}{rest}");
                }
            }
        }
        if got.len() == count {
            if from_before > 0 {
                let faces: Vec<String> = got[..from_before].iter().map(u8::to_string).collect();
                let _ = writeln!(prompt, "{what}: {} (from the line before)", faces.join(" "));
            }
            return Ok(got);
        }
        let wanted = count - got.len();
        let hint = die.faces_hint_for(wanted);
        let _ = match (wanted, got.is_empty()) {
            (1, true) => write!(prompt, "{what}: type {hint}: "),
            (1, false) => write!(prompt, "{what}: type one more, {hint}: "),
            (_, true) => write!(prompt, "{what}: type {hint}, on one line: "),
            (_, false) => write!(
                prompt,
                "{what}: type {}, on one line: ",
                hint.replacen(' ', " more ", 1)
            ),
        };
        let _ = prompt.flush();
        let line = read_line(input).map_err(|source| Error::Io {
            action: "read",
            path: "<stdin>".into(),
            source,
        })?;
        match line {
            Line::Text(line) => {
                typed_here = true;
                carried.extend(answers(&line));
            }
            Line::End => {
                return Err(Error::Invalid(format!(
                    "no roll given for {what}: input ended"
                )));
            }
            bad => {
                let problem = bad.problem().unwrap_or_default();
                let _ = writeln!(prompt, "{problem}: type {}", die.faces_hint_for(wanted));
            }
        }
    }
}

/// The player's own dice for a whole session: each roll is asked for on
/// standard error, named by what it is for, and read from standard input.
/// One line may hold several rolls (`6 6 6 4`), used in order for this
/// roll and the ones after it. A roll is asked again until it is a legal
/// face. When input ends, foe rolls for the player with the seeded
/// generator and says so once.
pub struct AskRoller {
    fallback: Seeded,
    ended: bool,
    /// Faces typed on a line and not yet used.
    carried: VecDeque<String>,
}

impl AskRoller {
    /// Ask for rolls; `seed` rolls for the player once input has ended.
    pub fn new(seed: u64) -> AskRoller {
        AskRoller {
            fallback: Seeded::new(seed),
            ended: false,
            carried: VecDeque::new(),
        }
    }
}

impl Roller for AskRoller {
    fn roll(&mut self, die: Die) -> u8 {
        self.roll_for(die, format_args!("a roll"))
    }

    fn roll_for(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        self.roll_many(die, 1, why)[0]
    }

    fn roll_many(&mut self, die: Die, count: usize, why: std::fmt::Arguments<'_>) -> Vec<u8> {
        if count == 0 {
            return Vec::new();
        }
        if !self.ended {
            let stdin = std::io::stdin();
            let stderr = std::io::stderr();
            match ask_many(
                die,
                count,
                &why.to_string(),
                &mut self.carried,
                &mut stdin.lock(),
                &mut stderr.lock(),
            ) {
                Ok(values) => return values,
                Err(_) => {
                    self.ended = true;
                    let _ = writeln!(std::io::stderr(), "(no more input: foe rolls from here on)");
                }
            }
        }
        (0..count).map(|_| self.fallback.roll(die)).collect()
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
    fn percentage_dice_take_00_for_100_and_a_question_mark_explains_the_die() {
        let mut input: &[u8] = b"?\n00\n";
        let mut prompt = Vec::new();
        assert_eq!(
            ask(Die::D100, "the reaction of Greene", &mut input, &mut prompt).unwrap(),
            100
        );
        assert_eq!(
            String::from_utf8(prompt).unwrap(),
            "\
the reaction of Greene: type a percentage roll from 1 to 100: foe needs a roll of the d100 for the reaction of Greene; percentage dice, two ten-sided dice read tens then units: type 1 to 100 (00 is 100)
the reaction of Greene: type a percentage roll from 1 to 100: "
        );
        assert_eq!(
            typed_roll(Die::D6, "00"),
            Typed::Wrong("`00` is not a D6 roll from 1 to 6".into())
        );
        assert_eq!(typed_roll(Die::D100, " 7 "), Typed::Face(7));
        assert_eq!(
            roll_help(Die::Average, ""),
            "foe needs a roll of the average die; the average die, a six-sided die marked 2, 3, 3, 4, 4, 5: type the face, 2 to 5"
        );
    }

    #[test]
    fn one_line_carries_several_rolls_each_named_where_it_is_used() {
        let mut carried = VecDeque::new();
        let mut input: &[u8] = b"6 6,6 4\n";
        let mut prompt = Vec::new();
        let first = ask_many(
            Die::D6,
            3,
            "union's activation dice",
            &mut carried,
            &mut input,
            &mut prompt,
        );
        assert_eq!(first.unwrap(), vec![6, 6, 6]);
        let second = ask_many(
            Die::D6,
            1,
            "the 33rd's fire at Ricketts",
            &mut carried,
            &mut input,
            &mut prompt,
        );
        assert_eq!(second.unwrap(), vec![4]);
        assert_eq!(
            String::from_utf8(prompt).unwrap(),
            "\
union's activation dice: type 3 D6 rolls from 1 to 6, on one line: \
the 33rd's fire at Ricketts: 4 (from the line before)
"
        );
    }

    #[test]
    fn a_short_line_asks_for_the_rest_and_a_wrong_face_drops_its_line() {
        let mut carried = VecDeque::new();
        let mut input: &[u8] = b"5 2\n3 9 1\n4 1\n";
        let mut prompt = Vec::new();
        let rolls = ask_many(Die::D6, 4, "pile", &mut carried, &mut input, &mut prompt);
        assert_eq!(rolls.unwrap(), vec![5, 2, 3, 4]);
        assert_eq!(carried, ["1"], "what is left waits for the next roll");
        assert_eq!(
            String::from_utf8(prompt).unwrap(),
            "\
pile: type 4 D6 rolls from 1 to 6, on one line: \
pile: type 2 more D6 rolls from 1 to 6, on one line: \
`9` is not a D6 roll from 1 to 6; the rest of the line (`1`) was dropped
pile: type one more, a D6 roll from 1 to 6: "
        );
    }

    #[test]
    fn a_single_ask_says_what_it_did_not_use() {
        let mut input: &[u8] = b"4 5\n";
        let mut prompt = Vec::new();
        assert_eq!(ask(Die::D6, "melee", &mut input, &mut prompt).unwrap(), 4);
        assert!(
            String::from_utf8(prompt)
                .unwrap()
                .ends_with("(one roll was asked for; `5` not used)\n")
        );
    }

    #[test]
    fn asking_at_end_of_input_is_an_error() {
        let mut input: &[u8] = b"";
        assert!(ask(Die::Average, "x", &mut input, &mut Vec::new()).is_err());
    }
}
