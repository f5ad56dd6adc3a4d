//! A game through the boundary as a pure record: [`HostMatch`] is the
//! scenario, the seed, who commands which side, and the player's actions;
//! foe's opponent ([`super::opponent`]) plays every other side as soon as
//! it is that side's turn, rolling its reaction tests on the game's one
//! seeded roller. Replaying the player's actions from the seed gives the
//! same game, which is what saves and `undo` rely on. [`simulate`] plays
//! many watched games and sums them.

use super::opponent::Opponent;
use super::{Action, Event, Game, Refusal, StartError, Verdict};
use crate::dice::Seeded;
use crate::scenario::Scenario;
use crate::tables::Tables;
use crate::{acw, rv};
use std::sync::Arc;

/// The most actions a game may take: far above any real game (a seed-001
/// Guilford game takes about a thousand), so a rules bug that never ends a
/// game stops with a message instead of hanging.
pub const MAX_ACTIONS: usize = 200_000;

/// One line of a game's record.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The game turn.
    pub turn: u32,
    /// Whether the player (rather than foe) acted.
    pub player: bool,
    /// The line, as printed.
    pub text: String,
}

/// A game of `foe play` (or one game of a simulation) over any engine but
/// seed 000's.
#[derive(Debug)]
pub struct HostMatch {
    /// The scenario.
    pub scenario: Arc<Scenario>,
    /// The dice's seed.
    pub seed: u64,
    /// The sides the player commands (none: foe plays both).
    pub player_sides: Vec<usize>,
    /// The game now.
    pub game: Game,
    /// foe's opponent.
    pub opponent: Opponent,
    roller: Seeded,
    tables: Arc<Tables>,
    /// Every action so far, with whether the player took it.
    actions: Vec<(Action, bool)>,
    /// The record, line by line.
    pub log: Vec<Entry>,
}

impl HostMatch {
    /// A new game. Nothing is played yet: call [`HostMatch::play_foe`].
    pub fn new(
        scenario: Arc<Scenario>,
        tables: Arc<Tables>,
        seed: u64,
        player_sides: Vec<usize>,
    ) -> Result<HostMatch, StartError> {
        let mut roller = Seeded::new(seed);
        let (game, events) = Game::start(&scenario, &tables, &mut roller)?;
        let mut game_match = HostMatch {
            scenario,
            seed,
            player_sides,
            opponent: Opponent::new(tables.clone()),
            game,
            roller,
            tables,
            actions: Vec::new(),
            log: Vec::new(),
        };
        game_match.note(false, &events);
        Ok(game_match)
    }

    /// Rebuild a game from its seed and the player's actions; foe's turns
    /// are played again between them. An action the rules refuse (a save
    /// edited by hand, another version) is a message.
    pub fn replay(
        scenario: Arc<Scenario>,
        tables: Arc<Tables>,
        seed: u64,
        player_sides: Vec<usize>,
        player_actions: &[Action],
    ) -> Result<HostMatch, String> {
        let mut game_match =
            HostMatch::new(scenario, tables, seed, player_sides).map_err(|e| e.to_string())?;
        game_match.play_foe()?;
        for (n, action) in player_actions.iter().enumerate() {
            game_match
                .player(action)
                .map_err(|refusal| format!("action {} of the save is refused: {refusal}", n + 1))?;
            game_match.play_foe()?;
        }
        Ok(game_match)
    }

    /// The player's actions so far, in order.
    pub fn player_actions(&self) -> Vec<Action> {
        self.actions
            .iter()
            .filter(|(_, player)| *player)
            .map(|(action, _)| action.clone())
            .collect()
    }

    /// Every action so far (both sides), in order.
    pub fn all_actions(&self) -> impl Iterator<Item = &Action> {
        self.actions.iter().map(|(action, _)| action)
    }

    /// Whether the player is to act now.
    pub fn player_to_act(&self) -> bool {
        self.game
            .to_act()
            .is_some_and(|side| self.player_sides.contains(&side))
    }

    /// Whether the game is over.
    pub fn verdict(&self) -> Option<Verdict> {
        self.game.verdict()
    }

    /// The player's action: checked, applied with the game's dice, logged.
    pub fn player(&mut self, action: &Action) -> Result<Vec<Event>, Refusal> {
        if !self.player_to_act() {
            return Err(Refusal::NotYours);
        }
        let events = self.game.apply(action, &mut self.roller)?;
        self.actions.push((action.clone(), true));
        self.note(true, &events);
        Ok(events)
    }

    /// One action of foe's, if it is foe's turn: `Ok(false)` when it is not.
    pub fn step_foe(&mut self) -> Result<bool, String> {
        if self.game.is_over() || self.player_to_act() {
            return Ok(false);
        }
        if self.actions.len() >= MAX_ACTIONS {
            return Err(format!(
                "the game has not ended after {MAX_ACTIONS} actions; this is a bug in foe"
            ));
        }
        let action = self
            .opponent
            .next_action(&self.game, &mut self.roller)
            .ok_or_else(|| "foe's opponent does not play this game's rules".to_string())?;
        let events = self
            .game
            .apply(&action, &mut self.roller)
            .map_err(|refusal| format!("foe's own move was refused ({refusal}); this is a bug"))?;
        self.actions.push((action, false));
        self.note(false, &events);
        Ok(true)
    }

    /// foe plays until it is the player's turn or the game ends.
    pub fn play_foe(&mut self) -> Result<(), String> {
        while self.step_foe()? {}
        Ok(())
    }

    /// The Lone Warrior tables.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    fn note(&mut self, player: bool, events: &[Event]) {
        // An action can end one turn and begin the next (the melee phase
        // runs when the last charge is declared): each event is filed
        // under the turn it happened in, which the turns' first events say.
        let mut turn = match self.game {
            Game::Awi(_) => self.game.turn(),
            _ => self.log.last().map_or(self.game.turn(), |e| e.turn),
        };
        for event in events {
            match event {
                Event::Rv(rv::Event::PhaseBegan { turn: began, .. })
                | Event::Acw(acw::Event::TurnBegan { turn: began }) => turn = *began,
                _ => {}
            }
            self.log.push(Entry {
                turn,
                player,
                text: event_line(&self.game, event),
            });
        }
    }
}

/// An event as one line of text.
pub fn event_line(game: &Game, event: &Event) -> String {
    match (game, event) {
        (Game::Awi(state), Event::Awi(event)) => crate::render::rules::event_line(state, event),
        (_, Event::Rv(event)) => event.to_string(),
        (_, Event::Acw(event)) => with_names(&event.to_string(), game),
        (_, Event::Awi(event)) => format!("{event:?}"),
    }
}

/// Seed 002's events name units `unit N` and sides `side N` (they carry
/// ids only): the player reads names, so each `unit N` and `side N` whose
/// number is a unit's or side's index becomes its name.
fn with_names(text: &str, game: &Game) -> String {
    let units = game.units();
    let sides = game.sides();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['u', 's']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let (word, names): (&str, Vec<&str>) = if rest.starts_with("unit ") {
            ("unit ", units.iter().map(|u| u.name.as_str()).collect())
        } else if rest.starts_with("side ") {
            ("side ", sides.iter().map(String::as_str).collect())
        } else {
            out.push_str(&rest[..1]);
            rest = &rest[1..];
            continue;
        };
        let digits = rest[word.len()..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - word.len());
        let number = rest[word.len()..word.len() + digits].parse::<usize>().ok();
        let word_start = out.is_empty() || !out.ends_with(|c: char| c.is_alphanumeric());
        match number.and_then(|n| names.get(n)) {
            Some(name) if word_start => {
                out.push_str(name);
                rest = &rest[word.len() + digits..];
            }
            _ => {
                out.push_str(&rest[..1]);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// One watched game, summed up.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// The game's index in the study.
    pub index: u64,
    /// The winner (`None`: a draw).
    pub winner: Option<usize>,
    /// The verdict in words.
    pub reason: String,
    /// The turn the game ended in.
    pub turns: u32,
    /// Seed 001's victory margin.
    pub margin: Option<i32>,
    /// Units out of play at the end, per side.
    pub lost: Vec<u32>,
}

/// Play game `index` of a study seeded `seed`, foe on every side.
pub fn play_one(
    scenario: &Arc<Scenario>,
    tables: &Arc<Tables>,
    seed: u64,
    index: u64,
) -> Result<(GameResult, HostMatch), String> {
    play_one_with(scenario, tables, seed, index, Vec::new())
}

/// [`play_one`], with `random_dice` sides giving out their seed-002
/// activation dice at random instead of by foe's policy.
pub fn play_one_with(
    scenario: &Arc<Scenario>,
    tables: &Arc<Tables>,
    seed: u64,
    index: u64,
    random_dice: Vec<usize>,
) -> Result<(GameResult, HostMatch), String> {
    let game_seed = crate::stats::game_seed(seed, index);
    let mut game_match = HostMatch::new(scenario.clone(), tables.clone(), game_seed, Vec::new())
        .map_err(|e| e.to_string())?;
    game_match.opponent = game_match.opponent.clone().with_random_dice(random_dice);
    game_match.play_foe()?;
    let verdict = game_match
        .verdict()
        .ok_or_else(|| "the game stopped before its end".to_string())?;
    let n_sides = game_match.game.sides().len();
    let mut lost = vec![0; n_sides];
    for unit in game_match.game.units() {
        if unit.removed && unit.side < n_sides {
            lost[unit.side] += 1;
        }
    }
    Ok((
        GameResult {
            index,
            winner: verdict.winner,
            reason: verdict.reason,
            turns: game_match.game.turn(),
            margin: verdict.margin,
            lost,
        },
        game_match,
    ))
}
