//! The tabletop companion's game: the enemy army, its general and its
//! reserves, and the bound walk, as a pure state machine.
//!
//! A [`Game`] changes only through [`Game::apply`]: an [`Action`] (what the
//! player said) and a [`Roller`] in, a new game and the [`Event`]s that
//! happened out. A refused action leaves the game as it was. Nothing here
//! prints, reads files or looks at a clock; the REPL in `cli::companion`
//! renders the events and keeps the files. [`Session`] keeps the list of
//! actions with the dice each one rolled, so a game is its actions and
//! rolls: `undo` and `load` replay them.
//!
//! What foe remembers between bounds is what the Lone Warrior test needs and
//! the player cannot be expected to recall: who withdrew last bound (tested
//! in the retreat column, and a second withdrawal routs), who lost a melee,
//! casualties and so strength (under half strength is −6), formation and
//! disorder. Routed and destroyed units leave the army.

pub mod army;
pub mod questions;
mod session;

pub use army::{ArmySetup, GeneralSetup, UnitSetup};
pub use questions::{Answers, Context, Draft, Question};
pub use session::{FORMAT, Played, SaveFile, Session, VERSION};

use crate::dice::{Die, Roller};
use crate::error::{Error, Result};
use crate::general::GeneralReaction;
use crate::reaction::{Options, Outcome, Situation};
use crate::tables::{Character, ClassKind, Formation, Move, Order, Reaction, Tables, Trigger};
use serde::{Deserialize, Serialize};

/// Something the player tells the companion. Actions are what a save file
/// keeps; applying the same actions with the same rolls gives the same game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "do", deny_unknown_fields)]
pub enum Action {
    /// Set up the enemy from an army file (only before the first bound).
    LoadArmy {
        /// The checked army file.
        army: ArmySetup,
    },
    /// Add one unit to the table.
    AddUnit {
        /// The unit.
        unit: UnitSetup,
    },
    /// Take a unit off the table (the player's decision, not a rule).
    RemoveUnit {
        /// Its name.
        name: String,
    },
    /// Appoint the enemy general; anything left out is rolled.
    SetGeneral {
        /// Name and character.
        general: GeneralSetup,
    },
    /// Choose the reinforcement table a reaction D rolls on.
    SetReinforcements {
        /// The army table's id (`french`, `british`, or one of a custom `--tables`).
        army: String,
    },
    /// Report an event that makes the general test.
    Report {
        /// What happened.
        trigger: Trigger,
    },
    /// Record that a unit lost a melee: it counts in its next test.
    LostMelee {
        /// The unit.
        name: String,
    },
    /// Begin the next bound: reserves take their test, then the units wait
    /// for their answers.
    StartBound,
    /// A unit's answers for this bound: it takes its reaction test.
    Answer {
        /// The unit.
        name: String,
        /// What the player said.
        answers: Answers,
    },
}

/// One enemy unit on the table, with what foe remembers about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Its one-word name.
    pub name: String,
    /// The troop class id.
    pub class: String,
    /// The class in words.
    pub class_name: String,
    /// Figures now.
    pub figures: u32,
    /// Figures at the start (or on arrival).
    pub start_figures: u32,
    /// Its formation.
    pub formation: Formation,
    /// Its character, for rated classes.
    pub character: Option<Character>,
    /// It withdrew (or fired and withdrew) last bound.
    pub withdrew_last_bound: bool,
    /// It lost a melee since its last test.
    pub lost_melee: bool,
    /// Disordered.
    pub disordered: bool,
    /// Its last order, if it has been tested.
    pub last_order: Option<Order>,
    /// Last bound's answers: this bound's defaults.
    pub last_answers: Option<Answers>,
    /// Whether it has taken this bound's test.
    pub tested_this_bound: bool,
}

impl Unit {
    /// Under half its starting strength: −6 on the test.
    pub fn under_half(&self) -> bool {
        self.figures * 2 < self.start_figures
    }

    /// Short state words for the status table.
    pub fn flags(&self) -> Vec<&'static str> {
        let mut flags = Vec::new();
        if self.withdrew_last_bound {
            flags.push("withdrew");
        }
        if self.lost_melee {
            flags.push("lost-melee");
        }
        if self.disordered {
            flags.push("disordered");
        }
        if self.under_half() {
            flags.push("under-half");
        }
        flags
    }
}

/// The enemy general.
#[derive(Debug, Clone, PartialEq)]
pub struct General {
    /// Rank and name.
    pub name: String,
    /// His character.
    pub character: Character,
    /// He is at the rear of the table: riding to the rear again takes him off.
    pub at_rear: bool,
    /// He is still on the table.
    pub on_table: bool,
}

/// A reinforcement called up and waiting off table.
#[derive(Debug, Clone, PartialEq)]
pub struct Reserve {
    /// The name it will have on the table.
    pub name: String,
    /// The troop type in words.
    pub troop_name: String,
    /// Its reaction class.
    pub class: String,
    /// Its character, for rated classes.
    pub character: Option<Character>,
    /// Figures.
    pub figures: u32,
}

/// The whole companion game.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Game {
    /// The army in words.
    pub army_name: String,
    /// The nation a rolled general is named from.
    pub nation: String,
    /// The reinforcement table, once chosen.
    pub reinforcements: Option<String>,
    /// Figures in a called-up unit.
    pub reinforcement_figures: u32,
    /// Units on the table, in walk order.
    pub units: Vec<Unit>,
    /// The general, once appointed.
    pub general: Option<General>,
    /// Reinforcements waiting off table.
    pub reserves: Vec<Reserve>,
    /// The current bound's number (0 before the first).
    pub bound: u32,
    /// A bound is open: units are waiting for their answers.
    pub in_bound: bool,
    /// Triggers the general has tested for since the last bound ended.
    pub triggers_tested: Vec<Trigger>,
    /// Every event so far, with the bound it happened in.
    pub log: Vec<(u32, Event)>,
}

/// A state change the player makes on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    /// Now disordered.
    Disordered,
    /// No longer disordered.
    Reformed,
    /// Routed: off the table, out of the army.
    Routed,
    /// The gunners abandoned their guns.
    GunsAbandoned,
    /// Fell under half strength this bound.
    UnderHalf,
    /// Changed formation.
    Formation(Formation),
}

/// What the general's reaction did to him.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Whereabouts {
    /// No change to where he is.
    Unchanged,
    /// He rode forward (A, B): no longer at the rear.
    Forward,
    /// He rode to the rear baseline.
    ToRear,
    /// He rode off the table and will not return.
    OffTable,
}

/// Something that happened, for the REPL to print and the log to keep.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// An army file was loaded.
    ArmyLoaded {
        /// Its name.
        name: String,
    },
    /// A unit joined the army on the table.
    UnitJoined {
        /// Its name.
        name: String,
        /// Its class in words.
        class_name: String,
        /// Figures.
        figures: u32,
        /// Formation.
        formation: Formation,
        /// Character, for rated classes.
        character: Option<Character>,
        /// The d100 roll, when the character was rolled.
        character_roll: Option<u8>,
    },
    /// The player took a unit off.
    UnitRemoved {
        /// Its name.
        name: String,
    },
    /// A general's rank was rolled (his name comes next).
    GeneralRank {
        /// The rank.
        rank: String,
        /// The d100 roll.
        roll: u8,
    },
    /// A general's name was rolled.
    GeneralNamed {
        /// Rank and name.
        name: String,
        /// The d100 roll.
        roll: u8,
    },
    /// The general was appointed: his name and character (his start
    /// position follows).
    GeneralAppointed {
        /// His name.
        name: String,
        /// His character.
        character: Character,
        /// The d100 roll, when the character was rolled.
        character_roll: Option<u8>,
    },
    /// Where the new general starts.
    GeneralStarts {
        /// His name.
        name: String,
        /// The d100 roll on the general's reaction chart.
        roll: u8,
        /// Where he starts, in words.
        position: String,
    },
    /// The reinforcement table was chosen.
    ReinforcementTable {
        /// The table's id.
        army: String,
    },
    /// A melee loss was recorded.
    MeleeLost {
        /// The unit.
        name: String,
    },
    /// A bound began.
    BoundStarted {
        /// Its number.
        bound: u32,
    },
    /// The general took a reaction test.
    GeneralReacted {
        /// His name.
        name: String,
        /// The test.
        reaction: GeneralReaction,
        /// Where it took him.
        whereabouts: Whereabouts,
    },
    /// A trigger that did not make the general test, and why.
    TriggerIgnored {
        /// The trigger.
        trigger: Trigger,
        /// Why.
        reason: String,
    },
    /// A reaction D called up a unit; it waits off table until its test brings it on.
    ReinforcementCalled {
        /// The name it will have.
        name: String,
        /// The table rolled on.
        army: String,
        /// The d100 roll.
        roll: u8,
        /// The troop type in words.
        troop_name: String,
    },
    /// The character of a called-up unit of a rated class was rolled.
    ReserveCharacter {
        /// Its name.
        name: String,
        /// Its character.
        character: Character,
        /// The d100 roll.
        roll: u8,
    },
    /// A reaction D with no way to call anyone up.
    NoReinforcements {
        /// Why.
        reason: String,
    },
    /// A reserve took its encamped-reserve test.
    ReserveTested {
        /// Its name.
        name: String,
        /// The test.
        outcome: Outcome,
        /// Whether it comes on this bound.
        enters: bool,
        /// Where it enters, or that it stays encamped.
        entry: String,
    },
    /// A unit took its reaction test.
    UnitTested {
        /// Its name.
        name: String,
        /// Its answers.
        answers: Answers,
        /// The test.
        outcome: Outcome,
        /// Figures left.
        figures: u32,
        /// Figures at the start.
        start_figures: u32,
        /// What changed on the table.
        changes: Vec<Change>,
    },
    /// A unit lost its last figures.
    UnitDestroyed {
        /// Its name.
        name: String,
    },
    /// Every unit has been tested: the bound is over.
    BoundEnded {
        /// Its number.
        bound: u32,
        /// Units left on the table.
        on_table: usize,
        /// Reserves still waiting.
        in_reserve: usize,
    },
}

/// Where an action's dice come from and its events go, counting the dice
/// drawn before each event.
struct Step<'r> {
    roller: &'r mut dyn Roller,
    drawn: usize,
    events: Vec<(usize, Event)>,
}

impl Step<'_> {
    fn roll(&mut self, die: Die, why: std::fmt::Arguments<'_>) -> u8 {
        self.drawn += 1;
        self.roller.roll_for(die, why)
    }

    fn push(&mut self, event: Event) {
        self.events.push((self.drawn, event));
    }
}

impl Game {
    /// An empty game: no army yet.
    pub fn new() -> Game {
        Game {
            reinforcement_figures: army::DEFAULT_REINFORCEMENT_FIGURES,
            ..Game::default()
        }
    }

    /// Find a unit by exact name or unique prefix.
    pub fn unit_index(&self, name: &str) -> Result<usize> {
        let names: Vec<&str> = self.units.iter().map(|unit| unit.name.as_str()).collect();
        match crate::suggest::resolve(name, names.iter().copied()) {
            Ok(found) => Ok(names.iter().position(|n| *n == found).unwrap_or(0)),
            Err(matches) if matches.len() > 1 => Err(Error::Invalid(format!(
                "`{name}` could be {}; type more of the name",
                matches.join(" or ")
            ))),
            Err(_) if names.is_empty() => Err(Error::Invalid(format!(
                "there is no unit `{name}`: the army has no units on the table"
            ))),
            Err(_) => Err(Error::unknown("unit", name, names)),
        }
    }

    /// The next unit waiting for its answers this bound, if a bound is open.
    pub fn next_untested(&self) -> Option<&Unit> {
        if !self.in_bound {
            return None;
        }
        self.units.iter().find(|unit| !unit.tested_this_bound)
    }

    /// What the questions for a unit need: its defaults, figures, and whether
    /// the general is there to be asked about.
    pub fn context(&self, unit: &Unit) -> Context {
        let mut defaults = unit.last_answers.clone().unwrap_or_default();
        defaults.lost = 0;
        defaults.sees_retreat = false;
        defaults.sees_cavalry = false;
        defaults.friend_firing_ahead = false;
        defaults.friend_in_melee = false;
        defaults.lost_melee = unit.lost_melee;
        let general_on_table = self
            .general
            .as_ref()
            .is_some_and(|general| general.on_table);
        defaults.general = general_on_table && defaults.general;
        Context {
            defaults,
            figures: unit.figures,
            general_on_table,
        }
    }

    /// Apply an action. On success, the new game and what happened; on
    /// failure the reason, and `self` is unchanged.
    pub fn apply(
        &self,
        tables: &Tables,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<(Game, Vec<Event>)> {
        let (game, paced) = self.apply_paced(tables, action, roller)?;
        Ok((game, paced.into_iter().map(|(_, event)| event).collect()))
    }

    /// [`Game::apply`], with each event paired with the number of dice
    /// drawn before it: an event is decided by those dice alone. Every roll
    /// is followed by the event it decides before the next roll is drawn,
    /// so a player rolling real dice can be shown each result before the
    /// next die is asked for.
    pub fn apply_paced(
        &self,
        tables: &Tables,
        action: &Action,
        roller: &mut dyn Roller,
    ) -> Result<(Game, Vec<(usize, Event)>)> {
        let mut game = self.clone();
        let mut out = Step {
            roller,
            drawn: 0,
            events: Vec::new(),
        };
        game.step(tables, action, &mut out)?;
        let bound = game.bound;
        game.log
            .extend(out.events.iter().map(|(_, event)| (bound, event.clone())));
        Ok((game, out.events))
    }

    fn step(&mut self, tables: &Tables, action: &Action, out: &mut Step<'_>) -> Result<()> {
        match action {
            Action::LoadArmy { army } => self.load_army(tables, army, out),
            Action::AddUnit { unit } => self.add_unit(tables, unit, out),
            Action::RemoveUnit { name } => {
                let index = self.unit_index(name)?;
                let unit = self.units.remove(index);
                out.push(Event::UnitRemoved { name: unit.name });
                self.end_bound_if_done(out);
                Ok(())
            }
            Action::SetGeneral { general } => self.set_general(tables, general, out),
            Action::SetReinforcements { army } => {
                let (id, _) = tables.reinforcements.army(army)?;
                self.reinforcements = Some(id.to_string());
                out.push(Event::ReinforcementTable { army: id.into() });
                Ok(())
            }
            Action::Report { trigger } => {
                self.general_test(tables, *trigger, true, out);
                Ok(())
            }
            Action::LostMelee { name } => {
                let index = self.unit_index(name)?;
                let unit = &mut self.units[index];
                unit.lost_melee = true;
                out.push(Event::MeleeLost {
                    name: unit.name.clone(),
                });
                Ok(())
            }
            Action::StartBound => self.start_bound(tables, out),
            Action::Answer { name, answers } => self.answer(tables, name, answers, out),
        }
    }

    fn load_army(&mut self, tables: &Tables, army: &ArmySetup, out: &mut Step<'_>) -> Result<()> {
        if self.bound > 0 {
            return Err(Error::Invalid(
                "the battle has begun; load an army before the first bound".into(),
            ));
        }
        if let Some((path, message)) = army::problems(tables, army).into_iter().next() {
            return Err(Error::Invalid(format!(
                "army `{}`: {path}: {message}",
                army.name
            )));
        }
        // Loading replaces whatever was set up by hand: an army file is a
        // whole enemy, and mixing two by accident would be hard to notice.
        *self = Game::new();
        self.army_name = army.name.clone();
        self.nation = army.nation.clone();
        self.reinforcement_figures = army
            .reinforcement_figures
            .unwrap_or(army::DEFAULT_REINFORCEMENT_FIGURES);
        out.push(Event::ArmyLoaded {
            name: army.name.clone(),
        });
        let general = army.general.clone().unwrap_or_default();
        self.set_general(tables, &general, out)?;
        let (id, _) = tables.reinforcements.army(&army.reinforcements)?;
        self.reinforcements = Some(id.to_string());
        out.push(Event::ReinforcementTable { army: id.into() });
        for unit in &army.units {
            self.add_unit(tables, unit, out)?;
        }
        Ok(())
    }

    fn add_unit(&mut self, tables: &Tables, setup: &UnitSetup, out: &mut Step<'_>) -> Result<()> {
        army::unit_problem(tables, setup).map_err(Error::Invalid)?;
        if self
            .units
            .iter()
            .any(|unit| unit.name.eq_ignore_ascii_case(&setup.name))
        {
            return Err(Error::Invalid(format!(
                "there is already a unit `{}`; choose another name",
                setup.name
            )));
        }
        // The words `foe react --class` takes: a troop type of a built-in
        // battle tests as its reaction class, and says so.
        let (class_id, word) = crate::reaction::builtin_class_word(tables, &setup.class)?;
        let (class_id, class) = tables.reaction.class(&class_id)?;
        let class_name = match &word {
            Some(word) => format!("{} (tests as {})", word.word.to_lowercase(), class.name),
            None => class.name.to_string(),
        };
        // Seed: militia and provincial troops "can be given a character
        // rating the same way as the generals" (d100); regulars have none.
        let (character, character_roll) = match (class.rated, setup.character) {
            (false, _) => (None, None),
            (true, Some(character)) => (Some(character), None),
            (true, None) => {
                let roll = out.roll(Die::D100, format_args!("the character of {}", setup.name));
                (Some(tables.characters.roll(roll)), Some(roll))
            }
        };
        let formation = setup
            .formation
            .unwrap_or(Formation::default_for(class.kind));
        let unit = Unit {
            name: setup.name.clone(),
            class: class_id.to_string(),
            class_name,
            figures: setup.figures,
            start_figures: setup.figures,
            formation,
            character,
            withdrew_last_bound: false,
            lost_melee: false,
            disordered: false,
            last_order: None,
            last_answers: None,
            // A unit added in the middle of a bound waits for the next one.
            tested_this_bound: self.in_bound,
        };
        out.push(Event::UnitJoined {
            name: unit.name.clone(),
            class_name: unit.class_name.clone(),
            figures: unit.figures,
            formation,
            character,
            character_roll,
        });
        self.units.push(unit);
        Ok(())
    }

    fn set_general(
        &mut self,
        tables: &Tables,
        setup: &GeneralSetup,
        out: &mut Step<'_>,
    ) -> Result<()> {
        if let Some(name) = &setup.name {
            crate::names::check("general's name", name).map_err(Error::Invalid)?;
        }
        let name = match &setup.name {
            Some(name) => name.clone(),
            None => {
                // The army's own nation: from its army file, else the
                // reinforcement table it chose (`reinforcements british`
                // is a British army), and only then the first nation listed.
                let nation = if !self.nation.is_empty() {
                    self.nation.clone()
                } else if let Some(army) = self
                    .reinforcements
                    .as_ref()
                    .filter(|army| tables.names.nations.contains_key(army.as_str()))
                {
                    army.clone()
                } else {
                    tables
                        .names
                        .nations
                        .keys()
                        .next()
                        .cloned()
                        .unwrap_or_default()
                };
                let names = tables
                    .names
                    .nations
                    .get(&nation)
                    .ok_or_else(|| Error::Invalid(format!("no names for nation `{nation}`")))?;
                // Names are flavour: a d100 reduced to the list's length, as
                // `general::roll_general` does.
                // Each roll's result is told before the next roll.
                let rank_roll = out.roll(Die::D100, format_args!("the general's rank"));
                let rank = &names.ranks[usize::from(rank_roll - 1) % names.ranks.len()];
                out.push(Event::GeneralRank {
                    rank: rank.clone(),
                    roll: rank_roll,
                });
                let name_roll = out.roll(Die::D100, format_args!("the general's name"));
                let surname = &names.names[usize::from(name_roll - 1) % names.names.len()];
                let name = format!("{rank} {surname}");
                out.push(Event::GeneralNamed {
                    name: name.clone(),
                    roll: name_roll,
                });
                name
            }
        };
        let (character, character_roll) = match setup.character {
            Some(character) => (character, None),
            None => {
                let roll = out.roll(Die::D100, format_args!("the general's character"));
                (tables.characters.roll(roll), Some(roll))
            }
        };
        out.push(Event::GeneralAppointed {
            name: name.clone(),
            character,
            character_roll,
        });
        // Seed: "To find the position of the General at the beginning of the
        // game use the General's Reaction Chart."
        let start_roll = out.roll(Die::D100, format_args!("the general's start position"));
        let start = tables.generals.reaction(character, start_roll);
        self.general = Some(General {
            name: name.clone(),
            character,
            at_rear: start == Reaction::E,
            on_table: true,
        });
        out.push(Event::GeneralStarts {
            name,
            roll: start_roll,
            position: tables.generals.start_position(start).to_string(),
        });
        Ok(())
    }

    /// The general's reaction test for a trigger: once per trigger between
    /// the end of one bound and the end of the next (ruling: a rout cascade
    /// does not make him roll again and again for the same cause).
    fn general_test(
        &mut self,
        tables: &Tables,
        trigger: Trigger,
        reported: bool,
        out: &mut Step<'_>,
    ) {
        // Triggers foe notices itself (a unit withdrawing, a unit seeing the
        // enemy retreat) are dropped quietly when they cannot count; only a
        // report the player typed deserves an explanation.
        let ignored = |out: &mut Step<'_>, reason: String| {
            if reported {
                out.push(Event::TriggerIgnored { trigger, reason });
            }
        };
        let Some(general) = self.general.clone() else {
            ignored(
                out,
                "the army has no general; appoint one with `general`".into(),
            );
            return;
        };
        if !general.on_table {
            ignored(out, format!("{} has left the table", general.name));
            return;
        }
        if self.triggers_tested.contains(&trigger) {
            ignored(
                out,
                "the general has already tested for this in this bound".into(),
            );
            return;
        }
        self.triggers_tested.push(trigger);
        let roll = out.roll(Die::D100, format_args!("the reaction of {}", general.name));
        let Ok(reaction) = crate::general::react(tables, general.character, Some(trigger), roll)
        else {
            return;
        };
        let whereabouts = match reaction.reaction {
            Reaction::A | Reaction::B => Whereabouts::Forward,
            Reaction::C | Reaction::D => Whereabouts::Unchanged,
            // Seed: "Rides to the rear. Should this bring the figure off the
            // table, then it will not return." Ruling: the first E takes him
            // to the rear baseline; an E while already there takes him off.
            Reaction::E if general.at_rear => Whereabouts::OffTable,
            Reaction::E => Whereabouts::ToRear,
        };
        if let Some(general) = &mut self.general {
            match whereabouts {
                Whereabouts::Forward => general.at_rear = false,
                Whereabouts::ToRear => general.at_rear = true,
                Whereabouts::OffTable => general.on_table = false,
                Whereabouts::Unchanged => {}
            }
        }
        let orders_reinforcements = reaction.orders_reinforcements;
        out.push(Event::GeneralReacted {
            name: general.name,
            reaction,
            whereabouts,
        });
        if orders_reinforcements {
            self.call_up(tables, out);
        }
    }

    /// Reaction D: one unit from the army's table, tested at once as an
    /// encamped reserve; it comes on if that test says advance or charge.
    fn call_up(&mut self, tables: &Tables, out: &mut Step<'_>) {
        let Some(army_id) = self.reinforcements.clone() else {
            out.push(Event::NoReinforcements {
                reason: "no reinforcement table chosen; use `reinforcements french` or `british`"
                    .into(),
            });
            return;
        };
        let Ok((army_id, army)) = tables.reinforcements.army(&army_id) else {
            return;
        };
        let roll = out.roll(Die::D100, format_args!("the {army_id} reinforcement table"));
        let Some((troop_id, troop)) = tables.reinforcements.select(army, roll) else {
            out.push(Event::NoReinforcements {
                reason: format!("the {army_id} table has no troop for {roll}"),
            });
            return;
        };
        let Ok((_, class)) = tables.reaction.class(&troop.class) else {
            return;
        };
        let name = self.fresh_name(troop_id);
        out.push(Event::ReinforcementCalled {
            name: name.clone(),
            army: army_id.to_string(),
            roll,
            troop_name: troop.name.clone(),
        });
        let character = if class.rated {
            let roll = out.roll(
                Die::D100,
                format_args!("the character of the {}", troop.name),
            );
            let character = tables.characters.roll(roll);
            out.push(Event::ReserveCharacter {
                name: name.clone(),
                character,
                roll,
            });
            Some(character)
        } else {
            None
        };
        let reserve = Reserve {
            name,
            troop_name: troop.name.clone(),
            class: troop.class.clone(),
            character,
            figures: self.reinforcement_figures,
        };
        self.reserves.push(reserve);
        let index = self.reserves.len() - 1;
        self.test_reserve(tables, index, out);
    }

    /// A name no unit or reserve has: the troop id and a number.
    fn fresh_name(&self, troop_id: &str) -> String {
        let taken = |name: &str| {
            self.units
                .iter()
                .any(|unit| unit.name.eq_ignore_ascii_case(name))
                || self
                    .reserves
                    .iter()
                    .any(|reserve| reserve.name.eq_ignore_ascii_case(name))
        };
        (1..)
            .map(|number| format!("{troop_id}-{number}"))
            .find(|name| !taken(name))
            .unwrap_or_else(|| troop_id.to_string())
    }

    /// The encamped-reserve test of reserve `index`; if it enters, it joins
    /// the units on the table, already moved for this bound.
    fn test_reserve(&mut self, tables: &Tables, index: usize, out: &mut Step<'_>) -> bool {
        let reserve = self.reserves[index].clone();
        let die = out.roll(
            Die::D6,
            format_args!("the encamped-reserve test of {}", reserve.name),
        );
        let Ok(outcome) =
            crate::reinforce::reserve_test(tables, &reserve.class, die, reserve.character)
        else {
            return false;
        };
        let enters = tables.reinforcements.enters(outcome.order);
        let entry = if enters {
            format!("enters at {}", tables.reinforcements.entry.place)
        } else {
            "stays off table, encamped".to_string()
        };
        out.push(Event::ReserveTested {
            name: reserve.name.clone(),
            outcome: outcome.clone(),
            enters,
            entry,
        });
        if enters {
            self.reserves.remove(index);
            let (class_id, class) = match tables.reaction.class(&reserve.class) {
                Ok(found) => found,
                Err(_) => return false,
            };
            // Guns marching on "in column" come on limbered, as a unit's own
            // march does (`formation_for`): a gun left in column could never
            // take its next test.
            let formation = outcome
                .instruction
                .formation
                .and_then(|formation| formation_for(class.kind, formation))
                .unwrap_or(Formation::default_for(class.kind));
            self.units.push(Unit {
                name: reserve.name.clone(),
                class: class_id.to_string(),
                class_name: class.name.to_string(),
                figures: reserve.figures,
                start_figures: reserve.figures,
                formation,
                character: reserve.character,
                withdrew_last_bound: false,
                lost_melee: false,
                disordered: false,
                last_order: Some(outcome.order),
                last_answers: None,
                // It has moved this bound by entering.
                tested_this_bound: true,
            });
        }
        enters
    }

    fn start_bound(&mut self, tables: &Tables, out: &mut Step<'_>) -> Result<()> {
        if self.in_bound {
            let waiting: Vec<&str> = self
                .units
                .iter()
                .filter(|unit| !unit.tested_this_bound)
                .map(|unit| unit.name.as_str())
                .collect();
            return Err(Error::Invalid(format!(
                "bound {} is still open; waiting for {}",
                self.bound,
                waiting.join(", ")
            )));
        }
        if self.units.is_empty() && self.reserves.is_empty() {
            return Err(Error::Invalid(
                "the army has no units; `army french`, `army FILE` or `add NAME CLASS FIGURES` first"
                    .into(),
            ));
        }
        self.bound += 1;
        self.in_bound = true;
        for unit in &mut self.units {
            unit.tested_this_bound = false;
        }
        out.push(Event::BoundStarted { bound: self.bound });
        // Seed: reserves "wait off table" and take their test every bound.
        let mut index = 0;
        while index < self.reserves.len() {
            if !self.test_reserve(tables, index, out) {
                index += 1;
            }
        }
        self.end_bound_if_done(out);
        Ok(())
    }

    fn answer(
        &mut self,
        tables: &Tables,
        name: &str,
        answers: &Answers,
        out: &mut Step<'_>,
    ) -> Result<()> {
        if !self.in_bound {
            return Err(Error::Invalid(
                "no bound is open; type `bound` to begin the next one".into(),
            ));
        }
        let index = self.unit_index(name)?;
        let general_on_table = self
            .general
            .as_ref()
            .is_some_and(|general| general.on_table);
        let unit = &self.units[index];
        if unit.tested_this_bound {
            return Err(Error::Invalid(format!(
                "{} has already been tested this bound; `undo` takes its answer back",
                unit.name
            )));
        }
        if answers.lost > unit.figures {
            return Err(Error::Invalid(format!(
                "{} has only {} figures, it cannot lose {}",
                unit.name, unit.figures, answers.lost
            )));
        }
        if answers.general && !general_on_table {
            return Err(Error::Invalid("the general is not on the table".into()));
        }
        let (_, class) = tables.reaction.class(&unit.class)?;
        let kind = class.kind;
        let was_under_half = unit.under_half();
        let figures = unit.figures - answers.lost;
        if figures == 0 {
            let name = unit.name.clone();
            self.units.remove(index);
            out.push(Event::UnitDestroyed { name });
            self.end_bound_if_done(out);
            return Ok(());
        }
        let situation = Situation {
            class: unit.class.clone(),
            column: Some(answers.ground),
            enemy_in_sight: answers.in_sight,
            // "far" is over 15": any distance past the chart's threshold.
            enemy_distance: Some(
                answers
                    .distance
                    .unwrap_or(tables.reaction.distances.enemy_over + 1.0),
            ),
            general_within_3: answers.general,
            support_within_6: answers.support,
            sees_enemy_retreat: answers.sees_retreat,
            lost_melee: answers.lost_melee,
            skirmish_order: kind == ClassKind::Line && unit.formation == Formation::Skirmish,
            sees_own_rout: false,
            casualties: answers.lost,
            under_half: figures * 2 < unit.start_figures,
            withdrew_last_bound: unit.withdrew_last_bound,
            character: unit.character,
            formation: Some(unit.formation),
            disordered: unit.disordered,
            sees_cavalry: answers.sees_cavalry,
            friend_firing_ahead: answers.friend_firing_ahead,
            friend_in_melee: answers.friend_in_melee,
        };
        // The chart is read once with a trial die before foe's die is drawn:
        // a situation it refuses (an impossible distance) is refused here,
        // having drawn nothing, so a refused answer leaves the dice where
        // they were and a game saved after it goes on with the same dice.
        crate::reaction::test(tables, &situation, Options::default(), 1)?;
        let die = out.roll(Die::D6, format_args!("the reaction test of {}", unit.name));
        let mut outcome = crate::reaction::test(tables, &situation, Options::default(), die)?;
        if kind == ClassKind::Artillery && unit.formation == Formation::Limbered {
            unlimber_without_firing(&mut outcome);
        }
        let mut changes = Vec::new();
        let unit = &mut self.units[index];
        unit.figures = figures;
        if !was_under_half && unit.under_half() {
            changes.push(Change::UnderHalf);
        }
        if let Some(formation) = outcome
            .instruction
            .formation
            .and_then(|formation| formation_for(kind, formation))
            && formation != unit.formation
        {
            unit.formation = formation;
            changes.push(Change::Formation(formation));
        }
        let mut routed = false;
        for state in &outcome.instruction.becomes {
            match state.as_str() {
                "disordered" => {
                    unit.disordered = true;
                    changes.push(Change::Disordered);
                }
                "reformed" => {
                    unit.disordered = false;
                    changes.push(Change::Reformed);
                }
                "routed" => {
                    routed = true;
                    changes.push(Change::Routed);
                }
                "guns-abandoned" => changes.push(Change::GunsAbandoned),
                _ => {}
            }
        }
        // Ruling: a unit counts as withdrawing when its order is a withdrawal
        // (fire and withdraw included) and it actually falls back; gunners
        // lying down and troops standing fast out of sight have not moved.
        let withdrew = outcome.order.is_withdrawal() && outcome.instruction.moves != Move::None;
        unit.withdrew_last_bound = withdrew;
        unit.lost_melee = false;
        unit.last_order = Some(outcome.order);
        unit.last_answers = Some(answers.clone());
        unit.tested_this_bound = true;
        let name = unit.name.clone();
        let start_figures = unit.start_figures;
        out.push(Event::UnitTested {
            name,
            answers: answers.clone(),
            outcome,
            figures,
            start_figures,
            changes,
        });
        if routed {
            self.units.remove(index);
        }
        // Seed: the general tests for "own troops routing or withdrawing" and
        // "enemy troops routing or withdrawing"; the answers tell foe both.
        if withdrew || routed {
            self.general_test(tables, Trigger::OwnTroopsWithdrawing, false, out);
        }
        if answers.sees_retreat {
            self.general_test(tables, Trigger::EnemyWithdrawing, false, out);
        }
        self.end_bound_if_done(out);
        Ok(())
    }

    fn end_bound_if_done(&mut self, out: &mut Step<'_>) {
        if self.in_bound && self.units.iter().all(|unit| unit.tested_this_bound) {
            self.in_bound = false;
            self.triggers_tested.clear();
            out.push(Event::BoundEnded {
                bound: self.bound,
                on_table: self.units.len(),
                in_reserve: self.reserves.len(),
            });
        }
    }
}

/// Ruling C12: limbered guns cannot fire. An order that has them fire
/// (the guns that cannot charge "unlimber and fire") unlimbers them, and
/// they fire from the next bound. The orders table keeps its text, which
/// the digital opponent reads as it always has; the companion says what
/// the guns do at the table.
fn unlimber_without_firing(outcome: &mut Outcome) {
    let instruction = &mut outcome.instruction;
    if instruction.fire == crate::tables::Fire::None {
        return;
    }
    instruction.fire = crate::tables::Fire::None;
    instruction.formation = Some(Formation::Unlimbered);
    instruction.does = format!(
        "{} Being limbered, the guns unlimber and do not fire this bound.",
        instruction.does.trim_end()
    )
    .into();
    outcome.notes.clear();
}

/// What a unit told to fire fires at, in words; `None` when its order does
/// not fire. Ruling C12: foe's focus-fire (ruling PL8), the enemy in reach
/// nearest to breaking, the nearest among equals. The companion cannot see
/// the player's units, and the choice changes nothing it keeps, so it says
/// the rule and asks nothing.
pub fn fire_target(outcome: &Outcome) -> Option<&'static str> {
    (outcome.instruction.fire != crate::tables::Fire::None).then_some(
        "the enemy unit in range and sight that has lost the most figures; the nearest of those if several have lost as many",
    )
}

/// The formation a unit of `kind` takes when its order says `formation`:
/// guns told to march "in column" (out of sight, at double time) limber
/// up, the way guns march; a formation the class cannot take at all
/// leaves the unit as it was (`None`). An order must never leave a unit
/// in a formation its class cannot be in: every later test of it would
/// be refused.
fn formation_for(kind: ClassKind, formation: Formation) -> Option<Formation> {
    if formation.fits(kind) {
        Some(formation)
    } else if kind == ClassKind::Artillery && formation == Formation::Column {
        Some(Formation::Limbered)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
