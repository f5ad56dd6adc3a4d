//! Random and adversarial input lines for the `foe play` and `foe
//! companion` prompts: real commands with random arguments, near-miss
//! typos, hostile numbers (huge, negative, NaN, `1e308`), unicode, control
//! characters, overlong lines, bytes that are not UTF-8, empty lines, and
//! `save`/`load`/`map --svg`/`export` of odd files.
//!
//! Pure: every line comes from the generator passed in, so a seed gives
//! the same lines on every machine. File names are kept inside the
//! session's own folder (the child's working directory): a generated line
//! never holds a `/` or a name made only of dots, except the few curated
//! paths of [`FILES`] and [`READ_ONLY_FILES`], which name files the harness
//! made there or devices that are only ever read.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

/// Files the harness makes in each session's folder before it starts
/// (see `session::prepare_folder`), named by the lines.
pub const FILES: &[&str] = &[
    "play.json",
    "companion.json",
    "garbage.json",
    "truncated.json",
    "empty.json",
    "latin1.json",
    "big.json",
    "fifo",
    "link-to-null",
    "link-to-nothing",
    "folder",
    "folder/",
    "new.json",
    "new-folder/deeper/new.json",
    "pictures/",
    ".",
    "missing.json",
    "not a file.json",
];

/// Devices that `load` may name (read, never written).
pub const READ_ONLY_FILES: &[&str] = &["/dev/zero", "/dev/null", "/proc/self/status"];

/// Numbers that have broken parsers before: limits, non-numbers, forms
/// `f64::from_str` accepts that a player would not type.
pub const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1",
    "6",
    "0.5",
    "1e308",
    "-1e308",
    "1e309",
    "1.7976931348623157e308",
    "5e-324",
    "1e-320",
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "Infinity",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "2147483647",
    "-2147483648",
    "-9223372036854775808",
    "99999999999999999999999999999",
    "0x10",
    "1_000",
    "+6",
    "6.",
    ".5",
    "6\"",
    "6°",
    "½",
    "٣",
    "max",
    "full",
    "",
];

/// Odd text: unicode of every width, control characters, escapes.
const ODD_TEXT: &[&str] = &[
    "é",
    "ß",
    "Ω",
    "中文",
    "🦀",
    "👨‍👩‍👧",
    "\u{200b}",
    "\u{202e}",
    "\u{0301}",
    "\u{feff}",
    "\t",
    "\r",
    "\u{1b}[31m",
    "\u{7f}",
    "\u{0}",
    "(",
    ")",
    "((",
    "))",
    "?",
    ",",
    ",,",
    "\"",
    "'",
    "\\",
    "%s",
    "{}",
    "$HOME",
    "~",
    "*",
    "-",
    "--",
    "--svg",
];

/// A generator of lines for one kind of prompt.
pub struct Lines<'a> {
    rng: &'a mut ChaCha8Rng,
}

impl<'a> Lines<'a> {
    /// Lines drawn from `rng`.
    pub fn new(rng: &'a mut ChaCha8Rng) -> Lines<'a> {
        Lines { rng }
    }

    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[self.rng.random_range(0..from.len())]
    }

    fn pick_string(&mut self, from: &[String]) -> String {
        if from.is_empty() {
            return "x".into();
        }
        from[self.rng.random_range(0..from.len())].clone()
    }

    fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.rng.random_range(0..denominator) < numerator
    }

    /// A number: mostly plausible, often hostile.
    pub fn number(&mut self) -> String {
        match self.rng.random_range(0..10) {
            0..=3 => self.pick(NUMBERS).to_string(),
            4..=6 => format!("{}", self.rng.random_range(0..60)),
            _ => format!("{:.2}", self.rng.random_range(-80.0..80.0)),
        }
    }

    /// A point `X,Y`, sometimes broken.
    pub fn point(&mut self) -> String {
        match self.rng.random_range(0..8) {
            0 => format!("{} {}", self.number(), self.number()),
            1 => format!("{},", self.number()),
            2 => format!("{},{},{}", self.number(), self.number(), self.number()),
            3 => self.number(),
            _ => format!("{},{}", self.number(), self.number()),
        }
    }

    /// A file name for a command that names one.
    pub fn file(&mut self, reading: bool) -> String {
        if reading && self.chance(1, 6) {
            return self.pick(READ_ONLY_FILES).to_string();
        }
        if self.chance(1, 8) {
            // A fresh name of odd characters, kept in the folder.
            return self.odd_word().replace('/', "_");
        }
        self.pick(FILES).to_string()
    }

    /// A word of odd text.
    pub fn odd_word(&mut self) -> String {
        let parts = self.rng.random_range(1..4);
        let mut word = String::new();
        for _ in 0..parts {
            word.push_str(self.pick(ODD_TEXT));
        }
        word
    }

    /// A unit name as a player might type it: a label, a name, a prefix of
    /// one, one word of one, or something else.
    pub fn unit(&mut self, vocab: &Vocab) -> String {
        match self.rng.random_range(0..10) {
            0..=3 => self.pick_string(&vocab.labels),
            4..=5 => self.pick_string(&vocab.names),
            6 => {
                let name = self.pick_string(&vocab.names);
                let cut = name
                    .char_indices()
                    .map(|(at, _)| at)
                    .nth(self.rng.random_range(1..4))
                    .unwrap_or(name.len());
                name[..cut].to_string()
            }
            7 => {
                let name = self.pick_string(&vocab.names);
                self.typo(&name)
            }
            8 => format!(
                "{} ({})",
                self.pick_string(&vocab.labels),
                self.pick_string(&vocab.names)
            ),
            _ => self.odd_word(),
        }
    }

    /// One near-miss edit of `text`: a letter dropped, doubled, swapped or
    /// changed, a case changed, a space added or lost.
    pub fn typo(&mut self, text: &str) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            return self.odd_word();
        }
        let at = self.rng.random_range(0..chars.len());
        match self.rng.random_range(0..7) {
            0 => {
                chars.remove(at);
            }
            1 => chars.insert(at, chars[at]),
            2 if at + 1 < chars.len() => chars.swap(at, at + 1),
            3 => chars[at] = char::from(b'a' + self.rng.random_range(0..26u8)),
            4 => chars = chars.iter().flat_map(|c| c.to_uppercase()).collect(),
            5 => chars.insert(at, ' '),
            _ => chars.retain(|c| *c != ' '),
        }
        chars.into_iter().collect()
    }

    /// A line of random text: odd words, numbers and names.
    fn junk(&mut self, vocab: &Vocab) -> String {
        let words = self.rng.random_range(1..8);
        (0..words)
            .map(|_| match self.rng.random_range(0..4) {
                0 => self.odd_word(),
                1 => self.number(),
                2 => self.unit(vocab),
                _ => self.pick_string(&vocab.words),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Bytes that are not UTF-8 text.
    fn not_text(&mut self) -> Vec<u8> {
        let mut bytes = b"move ".to_vec();
        let bad: &[&[u8]] = &[
            b"\xff",
            b"\xfe\xff",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\x80",
            b"\xf4\x90\x80\x80",
            b"\xe2\x82",
        ];
        for _ in 0..self.rng.random_range(1..4) {
            bytes.extend_from_slice(bad[self.rng.random_range(0..bad.len())]);
        }
        if self.chance(1, 2) {
            bytes.extend_from_slice(b" b1 forward 3");
        }
        bytes
    }

    /// An overlong line: just under, at, or over foe's 64 KiB limit, or far over.
    fn overlong(&mut self) -> Vec<u8> {
        let limit = 64 * 1024;
        let length = match self.rng.random_range(0..4) {
            0 => limit - 1,
            1 => limit,
            2 => limit + 1,
            _ => limit * 4,
        };
        let mut bytes = match self.rng.random_range(0..3) {
            0 => b"move b1 to ".to_vec(),
            1 => b"save ".to_vec(),
            _ => Vec::new(),
        };
        let fill = if self.chance(1, 2) { b'9' } else { b'a' };
        bytes.resize(length, fill);
        bytes
    }

    /// Lines that are not commands at all: empty, blank, unicode, too long,
    /// not text.
    fn hostile(&mut self, vocab: &Vocab) -> Vec<u8> {
        match self.rng.random_range(0..10) {
            0 => Vec::new(),
            1 => b"   \t  ".to_vec(),
            2 => self.not_text(),
            3 if self.chance(1, 4) => self.overlong(),
            4 => keep_in_folder(&self.odd_word()).into_bytes(),
            5 => "\u{feff}help".as_bytes().to_vec(),
            6 => "end\r".as_bytes().to_vec(),
            _ => keep_in_folder(&self.junk(vocab)).into_bytes(),
        }
    }

    /// One line for `foe play` at the player's prompt.
    pub fn play(&mut self, vocab: &Vocab) -> Vec<u8> {
        let roll = self.rng.random_range(0..100);
        let line = match roll {
            0..=9 => "end".to_string(),
            10..=15 => "end turn".to_string(),
            16..=29 => self.play_move(vocab),
            30..=35 => format!("pivot {} {}", self.unit(vocab), self.facing(vocab)),
            36..=43 => format!("fire {} {}", self.unit(vocab), self.unit(vocab)),
            44..=48 => format!("charge {} {}", self.unit(vocab), self.unit(vocab)),
            49..=51 => {
                let general = self.pick_string(&vocab.generals);
                format!("rally {general} {} {}", self.unit(vocab), self.unit(vocab))
            }
            52..=53 => {
                let general = self.pick_string(&vocab.generals);
                format!("general {general} to {}", self.point())
            }
            54..=63 => {
                let simple = [
                    "?",
                    "status",
                    "history",
                    "victory",
                    "undo",
                    "undo turn",
                    "help",
                    "log 5",
                    "map",
                    "help fire",
                    "help melee",
                ];
                self.pick(&simple).to_string()
            }
            64..=67 => {
                let verb = self.pick(&["what", "why", "status", "move", "fire", "charge"]);
                match verb {
                    "what" | "why" | "status" => format!("{verb} {}", self.unit(vocab)),
                    _ => format!("{verb} {} ?", self.unit(vocab)),
                }
            }
            68..=70 => format!("rewind {}", self.number()),
            71..=72 => format!("log {}", self.number()),
            // Files: written only inside the session's folder.
            73..=75 => return format!("save {}", self.file(false)).into_bytes(),
            76..=77 => return format!("load {}", self.file(true)).into_bytes(),
            78 => return format!("map --svg {}", self.file(false)).into_bytes(),
            79..=86 => {
                let line = self.play(vocab);
                let text = String::from_utf8_lossy(&line).into_owned();
                self.typo(&text)
            }
            _ => return self.hostile(vocab),
        };
        keep_in_folder(&line).into_bytes()
    }

    fn facing(&mut self, vocab: &Vocab) -> String {
        match self.rng.random_range(0..4) {
            0 => self
                .pick(&["n", "ne", "e", "se", "s", "sw", "w", "nw", "north-west"])
                .into(),
            1 => format!("towards {}", self.unit(vocab)),
            _ => self.number(),
        }
    }

    fn play_move(&mut self, vocab: &Vocab) -> String {
        let unit = self.unit(vocab);
        match self.rng.random_range(0..7) {
            0 => format!("move {unit} to {}", self.point()),
            1 => format!(
                "move {unit} to {} facing {}",
                self.point(),
                self.facing(vocab)
            ),
            2 => format!("move {unit} forward {}", self.number()),
            3 => format!("move {unit} forward max"),
            4 => format!("move {unit} back {}", self.number()),
            5 => format!(
                "move {unit} towards {} {}",
                self.unit(vocab),
                if self.chance(1, 2) {
                    "max".to_string()
                } else {
                    self.number()
                }
            ),
            _ => format!("move {unit} road to {}", self.point()),
        }
    }

    /// One line for a `foe play --side none` watch session: mostly Enter.
    pub fn watch(&mut self, vocab: &Vocab) -> Vec<u8> {
        match self.rng.random_range(0..10) {
            0..=5 => Vec::new(),
            6 => b"next".to_vec(),
            _ => self.hostile(vocab),
        }
    }

    /// One line for `foe companion`: commands, one-line answers, and
    /// answers to the questions of a bound.
    pub fn companion(&mut self, vocab: &Vocab) -> Vec<u8> {
        let classes = [
            "rangers",
            "british-regulars",
            "troupes-de-la-marine",
            "canadian-militia",
            "indians",
            "provincial-militia",
            "light-infantry",
            "local-militia",
            "light-cavalry",
            "artillery",
            "ranger",
            "cavalry",
        ];
        let characters = ["rash", "brave", "average", "cautious", "timid", "bold"];
        let formations = ["line", "column", "skirmish", "limbered", "square"];
        let line = match self.rng.random_range(0..100) {
            0..=4 => format!(
                "army {}",
                self.pick(&["french", "british", "frnch", "prussian"])
            ),
            5..=11 => {
                let name = if self.chance(3, 4) {
                    self.pick_string(&vocab.names)
                } else {
                    self.odd_word()
                };
                let mut line = format!("add {name} {} {}", self.pick(&classes), self.number());
                if self.chance(1, 2) {
                    line.push(' ');
                    line.push_str(self.pick(&formations));
                }
                if self.chance(1, 2) {
                    line.push(' ');
                    line.push_str(self.pick(&characters));
                }
                line
            }
            12..=13 => format!("remove {}", self.pick_string(&vocab.names)),
            14..=16 => format!("general {} {}", self.pick(&characters), self.odd_word()),
            17..=18 => format!(
                "reinforcements {}",
                self.pick(&["french", "british", "nobody"])
            ),
            19..=27 => self.pick(&["bound", "next", "bound"]).to_string(),
            28..=37 => {
                let mut line = format!("unit {}", self.pick_string(&vocab.names));
                for _ in 0..self.rng.random_range(0..5) {
                    let word = match self.rng.random_range(0..12) {
                        0 => "open".to_string(),
                        1 => "natural".to_string(),
                        2 => "hard".to_string(),
                        3 => format!("d={}", self.number()),
                        4 => "d=far".to_string(),
                        5 => format!("lost={}", self.number()),
                        6 => "general".to_string(),
                        7 => "support".to_string(),
                        8 => "retreat".to_string(),
                        9 => "melee".to_string(),
                        10 => "seen".to_string(),
                        _ => self.odd_word(),
                    };
                    line.push(' ');
                    line.push_str(&word);
                }
                line
            }
            38..=40 => format!(
                "report {}",
                self.pick(&[
                    "own-troops-withdrawing",
                    "enemy-attacking",
                    "enemy-withdrawing",
                    "rain"
                ])
            ),
            41..=42 => format!("melee {}", self.pick_string(&vocab.names)),
            43..=48 => self
                .pick(&["status", "history", "undo", "help", "help unit", "?"])
                .to_string(),
            // Answers to a bound's questions.
            49..=68 => {
                let answers = [
                    "", "open", "natural", "hard", "yes", "no", "y", "n", "far", "nat", "?",
                ];
                match self.rng.random_range(0..3) {
                    0 => self.number(),
                    _ => self.pick(&answers).to_string(),
                }
            }
            69..=71 => return format!("save {}", self.file(false)).into_bytes(),
            72..=73 => return format!("load {}", self.file(true)).into_bytes(),
            74 => return format!("export {}", self.file(false)).into_bytes(),
            75..=84 => {
                let line = self.companion(vocab);
                let text = String::from_utf8_lossy(&line).into_owned();
                self.typo(&text)
            }
            _ => return self.hostile(vocab),
        };
        keep_in_folder(&line).into_bytes()
    }
}

/// The words a generated line draws on for one game: unit labels and
/// names, generals, command words.
#[derive(Debug, Clone, Default)]
pub struct Vocab {
    /// Map labels (`B3`).
    pub labels: Vec<String>,
    /// Unit names.
    pub names: Vec<String>,
    /// Generals' labels and names.
    pub generals: Vec<String>,
    /// Command words and other words of the prompt.
    pub words: Vec<String>,
}

impl Vocab {
    /// The words of a game of `scenario`.
    pub fn of_scenario(scenario: &foe::scenario::Scenario) -> Vocab {
        let mut vocab = Vocab::default();
        for (side_index, side) in scenario.sides.iter().enumerate() {
            for (index, unit) in side.units.iter().enumerate() {
                vocab
                    .labels
                    .push(foe::render::map::unit_label(scenario, side_index, index));
                vocab.names.push(unit.name.clone());
            }
            for (index, general) in side.generals.iter().enumerate() {
                vocab
                    .generals
                    .push(foe::render::scene::general_label(&side.name, index));
                vocab.generals.push(general.name.clone());
            }
        }
        vocab.words = foe::host::repl::COMMANDS
            .iter()
            .map(|(word, _)| (*word).to_string())
            .chain(
                ["pivot", "charge", "fire", "rally", "general"]
                    .into_iter()
                    .map(str::to_string),
            )
            .chain(
                foe::host::repl::ALIASES
                    .iter()
                    .map(|(alias, _)| (*alias).to_string()),
            )
            .filter(|word| !ends_the_session(word))
            .collect();
        vocab
    }

    /// The words of a companion game of the built-in armies.
    pub fn companion() -> Vocab {
        let names = [
            "marine",
            "ottawas",
            "hurons",
            "canadiens",
            "coureurs",
            "44th-foot",
            "48th-foot",
            "rangers",
            "virginians",
            "2nd-provincials",
            "guns",
            "canadian-militia-1",
        ];
        let words = [
            "army",
            "add",
            "remove",
            "general",
            "reinforcements",
            "bound",
            "unit",
            "report",
            "melee",
            "status",
            "history",
            "undo",
            "help",
            "next",
            "open",
            "natural",
            "hard",
        ];
        Vocab {
            labels: names.iter().map(|name| name.to_string()).collect(),
            names: names.iter().map(|name| name.to_string()).collect(),
            generals: Vec::new(),
            words: words.iter().map(|word| word.to_string()).collect(),
        }
    }
}

/// Whether a first word would end a session (`quit`, `exit` or a prefix of
/// either): such lines are kept for the end, so sessions run their length.
pub fn ends_the_session(first_word: &str) -> bool {
    let word = first_word.to_lowercase();
    !word.is_empty() && ("quit".starts_with(&word) || "exit".starts_with(&word))
}

/// A generated line made safe to run in the session's folder: no `/`, no
/// word made only of dots (so no file outside the folder is named), and
/// no first word that ends the session.
pub fn keep_in_folder(line: &str) -> String {
    let line = line.replace('/', "_");
    let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
    for word in &mut words {
        if !word.is_empty() && word.chars().all(|c| c == '.') {
            *word = "dots".into();
        }
    }
    if let Some(first) = line.split_whitespace().next()
        && ends_the_session(first)
    {
        return format!("status {line}");
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_lines_never_leave_the_folder() {
        assert_eq!(
            keep_in_folder("save ../../etc/passwd"),
            "save .._.._etc_passwd"
        );
        assert_eq!(keep_in_folder("save /dev/null"), "save _dev_null");
        assert_eq!(keep_in_folder("load .."), "load dots");
        assert_eq!(keep_in_folder("qu 3"), "status qu 3");
    }
}
