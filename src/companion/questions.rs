//! The questions foe asks about a unit each bound, and the one-line answer.
//!
//! foe cannot see the table, so for every enemy unit it asks what only the
//! player knows: its ground, whether it sees the enemy, how far the nearest
//! enemy is, figures lost, a general within 3", supports within 6", whether
//! it sees the enemy retreat, whether it lost a melee. Everything else (its
//! class, strength, formation, what it did last bound) foe remembers.
//!
//! A [`Draft`] is a half-answered unit: [`Draft::next_question`] says what to
//! ask next (questions depend on earlier answers: a unit that cannot see the
//! enemy is not asked whether it sees the enemy retreat), [`Draft::answer`]
//! checks one reply. [`fast`] reads the one-line form
//! (`natural d=4 lost=2 general`). Both fill in [`Answers`], which is what an
//! `Answer` action carries and a save file stores. Pure: no I/O.

use crate::tables::Column;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The answers for one unit in one bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answers {
    /// Open ground, natural or hard cover.
    pub ground: Column,
    /// Whether the unit sees any enemy.
    pub in_sight: bool,
    /// Inches to the nearest enemy; `None` is "far" (over 15").
    pub distance: Option<f64>,
    /// Figures lost since its last test.
    pub lost: u32,
    /// A general within 3".
    pub general: bool,
    /// Supporting troops within 6".
    pub support: bool,
    /// Sees the enemy in retreat.
    pub sees_retreat: bool,
    /// Lost a melee in the last bound.
    pub lost_melee: bool,
    /// Sees enemy cavalry (one-line answer only: `cavalry`).
    #[serde(default)]
    pub sees_cavalry: bool,
    /// Approaching the rear of a friend deployed to fire (`friend-firing`).
    #[serde(default)]
    pub friend_firing_ahead: bool,
    /// That friend is in a melee (`friend-melee`).
    #[serde(default)]
    pub friend_in_melee: bool,
}

impl Default for Answers {
    fn default() -> Answers {
        Answers {
            ground: Column::Open,
            in_sight: false,
            distance: None,
            lost: 0,
            general: false,
            support: false,
            sees_retreat: false,
            lost_melee: false,
            sees_cavalry: false,
            friend_firing_ahead: false,
            friend_in_melee: false,
        }
    }
}

/// Which question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// The unit's ground.
    Ground,
    /// Sees the enemy.
    InSight,
    /// Distance to the nearest enemy.
    Distance,
    /// Figures lost.
    Lost,
    /// A general within 3".
    General,
    /// Friends within 6".
    Support,
    /// Sees the enemy retreat.
    SeesRetreat,
    /// Lost a melee.
    LostMelee,
}

/// A question for the player, with its choices and default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Which question.
    pub key: Key,
    /// The question in words.
    pub text: String,
    /// The accepted answers, for `?` and completion (numbers are described).
    pub choices: Vec<String>,
    /// What an empty answer means.
    pub default: String,
}

/// What the player has answered so far about one unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    ground: Option<Column>,
    in_sight: Option<bool>,
    distance: Option<Option<f64>>,
    lost: Option<u32>,
    general: Option<bool>,
    support: Option<bool>,
    sees_retreat: Option<bool>,
    lost_melee: Option<bool>,
}

/// What the questions need to know about the unit and the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// The defaults: last bound's answers, with this bound's remembered facts.
    pub defaults: Answers,
    /// Figures the unit has, the most it can lose.
    pub figures: u32,
    /// Whether the army's general is on the table (else no general question).
    pub general_on_table: bool,
}

fn yes_no(value: bool) -> String {
    if value { "yes" } else { "no" }.into()
}

/// A distance as the player types it.
pub fn distance_text(distance: Option<f64>) -> String {
    match distance {
        Some(inches) => crate::battlefield::geometry::inches_to_tenths(inches),
        None => "far".into(),
    }
}

impl Draft {
    /// The next question to ask, or `None` when the unit is fully answered.
    pub fn next_question(&self, context: &Context) -> Option<Question> {
        let defaults = &context.defaults;
        let yes_no_question = |key: Key, text: &str, default: bool| Question {
            key,
            text: text.into(),
            choices: vec!["yes".into(), "no".into()],
            default: yes_no(default),
        };
        if self.ground.is_none() {
            return Some(Question {
                key: Key::Ground,
                text: "ground".into(),
                choices: vec!["open".into(), "natural".into(), "hard".into()],
                default: defaults.ground.id().into(),
            });
        }
        if self.in_sight.is_none() {
            return Some(yes_no_question(
                Key::InSight,
                "sees the enemy?",
                defaults.in_sight,
            ));
        }
        if self.distance.is_none() {
            return Some(Question {
                key: Key::Distance,
                text: "inches to the nearest enemy".into(),
                choices: vec!["a number of inches".into(), "far (over 15\")".into()],
                default: distance_text(defaults.distance),
            });
        }
        if self.lost.is_none() {
            return Some(Question {
                key: Key::Lost,
                text: "figures lost since its last test".into(),
                choices: vec![format!("a number from 0 to {}", context.figures)],
                default: "0".into(),
            });
        }
        if self.general.is_none() && context.general_on_table {
            return Some(yes_no_question(
                Key::General,
                "general within 3\"?",
                defaults.general,
            ));
        }
        if self.support.is_none() {
            return Some(yes_no_question(
                Key::Support,
                "friends within 6\"?",
                defaults.support,
            ));
        }
        if self.sees_retreat.is_none() && self.in_sight == Some(true) {
            return Some(yes_no_question(
                Key::SeesRetreat,
                "sees the enemy retreat?",
                false,
            ));
        }
        if self.lost_melee.is_none() {
            return Some(yes_no_question(
                Key::LostMelee,
                "lost a melee last bound?",
                defaults.lost_melee,
            ));
        }
        None
    }

    /// Record the reply to `question`; an empty reply takes the default.
    /// A wrong reply is refused with a one-line reason and changes nothing.
    pub fn answer(
        &mut self,
        question: &Question,
        reply: &str,
        context: &Context,
    ) -> Result<(), String> {
        let reply = reply.trim();
        let reply = if reply.is_empty() {
            question.default.as_str()
        } else {
            reply
        };
        match question.key {
            Key::Ground => self.ground = Some(parse_ground(reply)?),
            Key::InSight => self.in_sight = Some(parse_yes_no(reply)?),
            Key::Distance => self.distance = Some(parse_distance(reply)?),
            Key::Lost => self.lost = Some(parse_lost(reply, context.figures)?),
            Key::General => self.general = Some(parse_yes_no(reply)?),
            Key::Support => self.support = Some(parse_yes_no(reply)?),
            Key::SeesRetreat => self.sees_retreat = Some(parse_yes_no(reply)?),
            Key::LostMelee => self.lost_melee = Some(parse_yes_no(reply)?),
        }
        Ok(())
    }

    /// The answers, with anything not asked taken from the context.
    pub fn finish(&self, context: &Context) -> Answers {
        let in_sight = self.in_sight.unwrap_or(context.defaults.in_sight);
        Answers {
            ground: self.ground.unwrap_or(context.defaults.ground),
            in_sight,
            distance: self.distance.unwrap_or(context.defaults.distance),
            lost: self.lost.unwrap_or(0),
            general: context.general_on_table && self.general.unwrap_or(false),
            support: self.support.unwrap_or(false),
            sees_retreat: in_sight && self.sees_retreat.unwrap_or(false),
            lost_melee: self.lost_melee.unwrap_or(context.defaults.lost_melee),
            sees_cavalry: false,
            friend_firing_ahead: false,
            friend_in_melee: false,
        }
    }
}

fn parse_ground(reply: &str) -> Result<Column, String> {
    let ids = ["open", "natural", "hard"];
    match crate::suggest::resolve(reply, ids) {
        Ok(id) => Ok(id.parse().unwrap_or(Column::Open)),
        Err(_) => Err(format!(
            "`{reply}` is not a ground; answer open, natural or hard"
        )),
    }
}

fn parse_yes_no(reply: &str) -> Result<bool, String> {
    match crate::suggest::resolve(reply, ["yes", "no"]) {
        Ok("yes") => Ok(true),
        Ok(_) => Ok(false),
        Err(_) => Err(format!("`{reply}` is not yes or no; answer yes or no")),
    }
}

fn parse_distance(reply: &str) -> Result<Option<f64>, String> {
    if crate::suggest::resolve(reply, ["far"]).is_ok() {
        return Ok(None);
    }
    let text = reply.trim_end_matches(['"', '\'']).trim_end_matches("in");
    match text.parse::<f64>() {
        Ok(inches) if inches.is_finite() && (0.0..=1000.0).contains(&inches) => Ok(Some(inches)),
        _ => Err(format!(
            "`{reply}` is not a distance; answer a number of inches (0 to 1000) or far"
        )),
    }
}

fn parse_lost(reply: &str, figures: u32) -> Result<u32, String> {
    match reply.parse::<u32>() {
        Ok(lost) if lost <= figures => Ok(lost),
        Ok(lost) => Err(format!(
            "the unit has only {figures} figures, it cannot lose {lost}"
        )),
        Err(_) => Err(format!(
            "`{reply}` is not a number of figures; answer 0 to {figures}"
        )),
    }
}

/// The words of the one-line answer, for `help` and completion.
pub const FAST_WORDS: [&str; 15] = [
    "open",
    "natural",
    "hard",
    "seen",
    "unseen",
    "d=",
    "lost=",
    "general",
    "no-general",
    "support",
    "retreat",
    "melee",
    "cavalry",
    "friend-firing",
    "friend-melee",
];

/// Read the one-line answer (`natural d=4 lost=2 general`). Anything not
/// said takes the context's default; a distance in inches implies the unit
/// sees the enemy unless `unseen` is given.
pub fn fast(words: &[&str], context: &Context) -> Result<Answers, String> {
    let mut answers = Answers {
        lost: 0,
        general: false,
        support: false,
        sees_retreat: false,
        ..context.defaults.clone()
    };
    let mut sight: Option<bool> = None;
    for word in words {
        if let Some(value) = word.strip_prefix("d=") {
            answers.distance = parse_distance(value)?;
            if answers.distance.is_some() && sight.is_none() {
                sight = Some(true);
            }
            continue;
        }
        if let Some(value) = word.strip_prefix("lost=") {
            answers.lost = parse_lost(value, context.figures)?;
            continue;
        }
        let flags = [
            "open",
            "natural",
            "hard",
            "seen",
            "unseen",
            "general",
            "no-general",
            "support",
            "retreat",
            "melee",
            "cavalry",
            "friend-firing",
            "friend-melee",
        ];
        match crate::suggest::resolve(word, flags) {
            Ok("open") => answers.ground = Column::Open,
            Ok("natural") => answers.ground = Column::Natural,
            Ok("hard") => answers.ground = Column::Hard,
            Ok("seen") => sight = Some(true),
            Ok("unseen") => sight = Some(false),
            Ok("general") => answers.general = true,
            Ok("no-general") => answers.general = false,
            Ok("support") => answers.support = true,
            Ok("retreat") => answers.sees_retreat = true,
            Ok("melee") => answers.lost_melee = true,
            Ok("cavalry") => answers.sees_cavalry = true,
            Ok("friend-firing") => answers.friend_firing_ahead = true,
            Ok("friend-melee") => {
                answers.friend_firing_ahead = true;
                answers.friend_in_melee = true;
            }
            _ => {
                let hint = crate::suggest::did_you_mean(word, FAST_WORDS);
                return Err(format!(
                    "unknown word `{word}` in the one-line answer{hint}; type `help unit` for the words"
                ));
            }
        }
    }
    if let Some(sight) = sight {
        answers.in_sight = sight;
    }
    if answers.general && !context.general_on_table {
        return Err("the general has left the table; drop `general`".into());
    }
    if answers.sees_retreat && !answers.in_sight {
        return Err(
            "a unit that cannot see the enemy cannot see it retreat; add `seen` or a distance"
                .into(),
        );
    }
    Ok(answers)
}

impl fmt::Display for Answers {
    /// The one-line form, so a log line can be typed back in.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} d={} lost={}",
            self.ground.id(),
            if self.in_sight { "seen" } else { "unseen" },
            distance_text(self.distance),
            self.lost
        )?;
        for (on, word) in [
            (self.general, "general"),
            (self.support, "support"),
            (self.sees_retreat, "retreat"),
            (self.lost_melee, "melee"),
            (self.sees_cavalry, "cavalry"),
            (
                self.friend_firing_ahead && !self.friend_in_melee,
                "friend-firing",
            ),
            (self.friend_in_melee, "friend-melee"),
        ] {
            if on {
                write!(f, " {word}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context {
            defaults: Answers::default(),
            figures: 12,
            general_on_table: true,
        }
    }

    fn walk(replies: &[&str]) -> Result<Answers, String> {
        let context = context();
        let mut draft = Draft::default();
        let mut replies = replies.iter();
        while let Some(question) = draft.next_question(&context) {
            let reply = replies.next().copied().unwrap_or("");
            draft.answer(&question, reply, &context)?;
        }
        Ok(draft.finish(&context))
    }

    #[test]
    fn questions_follow_the_answers() {
        let answers = walk(&["nat", "y", "4", "2", "y", "", "yes", ""]).unwrap();
        assert_eq!(
            answers.to_string(),
            "natural seen d=4 lost=2 general retreat"
        );
        // Out of sight: the retreat question is skipped.
        let answers = walk(&["", "", "", "", "", "", ""]).unwrap();
        assert_eq!(answers.to_string(), "open unseen d=far lost=0");
    }

    #[test]
    fn wrong_replies_are_refused_in_one_line() {
        let check = |reply: &str, key: Key, expected: &str| {
            let context = context();
            let mut draft = Draft::default();
            let question = Question {
                key,
                text: String::new(),
                choices: Vec::new(),
                default: String::new(),
            };
            assert_eq!(
                draft.answer(&question, reply, &context).unwrap_err(),
                expected
            );
        };
        check(
            "swamp",
            Key::Ground,
            "`swamp` is not a ground; answer open, natural or hard",
        );
        check(
            "maybe",
            Key::InSight,
            "`maybe` is not yes or no; answer yes or no",
        );
        check(
            "-3",
            Key::Distance,
            "`-3` is not a distance; answer a number of inches (0 to 1000) or far",
        );
        check(
            "13",
            Key::Lost,
            "the unit has only 12 figures, it cannot lose 13",
        );
        check(
            "two",
            Key::Lost,
            "`two` is not a number of figures; answer 0 to 12",
        );
    }

    #[test]
    fn the_one_line_answer_reads_every_word() {
        let context = context();
        let check = |line: &str, expected: &str| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match fast(&words, &context) {
                Ok(answers) => assert_eq!(answers.to_string(), expected, "{line}"),
                Err(error) => assert_eq!(error, expected, "{line}"),
            }
        };
        check(
            "natural d=4 lost=2 general",
            "natural seen d=4 lost=2 general",
        );
        check("", "open unseen d=far lost=0");
        check("h d=20 unseen", "hard unseen d=20 lost=0");
        check(
            "nat d=5 ret melee sup",
            "natural seen d=5 lost=0 support retreat melee",
        );
        check("d=3 friend-melee", "open seen d=3 lost=0 friend-melee");
        check(
            "retreat",
            "a unit that cannot see the enemy cannot see it retreat; add `seen` or a distance",
        );
        check("lost=99", "the unit has only 12 figures, it cannot lose 99");
        check(
            "generl",
            "unknown word `generl` in the one-line answer; did you mean `general`?; type `help unit` for the words",
        );
    }
}
