//! A seed-001 or seed-002 game as a [`Scene`], so the renderer's SVG code
//! ([`crate::render::svg::svg`]) draws it as it draws seed 000's: the
//! table, each unit as its footprint (seed 001: its bases in line, column
//! or open order) under its map label (`B3`, as `status` and the text map
//! name it), seed 001's commanders as generals, a bar of what each unit has lost
//! (seed 001: bases; seed 002: hits), and the last phase's moves, shots
//! and retreats as arrows. Pure: it reads the game, never the runner.

use super::scene::{
    ArrowKind, Damage, Scene, SceneArrow, SceneGeneral, SceneSide, SceneUnit, general_label,
    placement,
};
use crate::battlefield::{Base, Point};
use crate::host::{Event, Game, UnitView};
use crate::scenario::Scenario;
use crate::{acw, rv};

/// The scene of `game` now, titled `title`, with `recent` (the events of
/// the game so far, oldest first) giving the last phase's arrows.
pub fn scene<'a>(game: &'a Game, scenario: &Scenario, title: &str, recent: &[Event]) -> Scene<'a> {
    let field = game.battlefield();
    let units = game.units();
    let labels = game.labels(scenario);
    let sides = game
        .sides()
        .into_iter()
        .enumerate()
        .map(|(side, name)| SceneSide {
            edge: scenario
                .sides
                .get(side)
                .map_or(crate::battlefield::Edge::South, |s| s.edge),
            units: units
                .iter()
                .zip(&labels)
                .filter(|(unit, _)| unit.side == side)
                .map(|(unit, label)| scene_unit(game, unit, label))
                .collect(),
            generals: generals(game, side, &name),
            reserves: Vec::new(),
            name,
        })
        .collect();
    let caption = match game.verdict() {
        Some(verdict) => format!(
            "after turn {} of {}: the game is over ({verdict})",
            game.turn().min(game.turns()),
            game.turns()
        ),
        None => format!("turn {} of {}: {}", game.turn(), game.turns(), game.phase()),
    };
    Scene {
        title: title.to_string(),
        battlefield: field,
        caption: Some(caption),
        sides,
        arrows: arrows(game, recent),
        damage: match game {
            Game::Rv(_) => Damage::BasesLost,
            Game::Acw(_) | Game::Awi(_) => Damage::Hits,
        },
    }
}

fn scene_unit(game: &Game, unit: &UnitView, label: &str) -> SceneUnit {
    let rules = &game.battlefield().ruleset;
    let (troop, base, lost, start, lost_word) = match game {
        Game::Rv(state) => {
            let u = &state.units()[unit.index];
            (
                u.troop,
                state.footprint(unit.index),
                u.start_bases.saturating_sub(u.bases),
                u.start_bases,
                "bases lost",
            )
        }
        Game::Acw(state) => {
            let id = acw::UnitId(unit.index);
            let u = state.unit(id);
            (u.troop, u.base, u.hits, state.table.removed_at, "hits")
        }
        Game::Awi(state) => {
            let u = &state.units[unit.index];
            (
                u.troop,
                u.base,
                u.hits,
                state.rules.rout_threshold(u.category).unwrap_or(0),
                "hits",
            )
        }
    };
    let troop = rules.troop(troop);
    let note = if unit.removed {
        "out of play".to_string()
    } else {
        format!("{}, {lost} {lost_word}", placement(&base))
    };
    let mut state: Vec<String> = unit.formation.iter().cloned().collect();
    if let Game::Rv(rv_state) = game {
        let u = &rv_state.units()[unit.index];
        state.push(format!("{} of {} bases", u.bases, u.start_bases));
        if let Some(commander) = rv_state.commander_of(unit.index) {
            state.push(format!("with {}", rv_state.commanders()[commander].name));
        }
    }
    if unit.in_cover {
        state.push("in cover".to_string());
    }
    SceneUnit {
        label: label.to_string(),
        name: unit.name.clone(),
        troop: troop.name.clone(),
        category: troop.category,
        hits: lost,
        rout_at: (start > 0).then_some(start),
        base: (!unit.removed).then_some(base),
        note,
        state: (!state.is_empty()).then(|| state.join(", ")),
    }
}

/// Seed 001's commanders still with the army, where they stand.
fn generals(game: &Game, side: usize, side_name: &str) -> Vec<SceneGeneral> {
    let Game::Rv(state) = game else {
        return Vec::new();
    };
    state
        .commanders()
        .iter()
        .filter(|c| c.side == side)
        .enumerate()
        .map(|(index, c)| SceneGeneral {
            label: general_label(side_name, index),
            name: c.name.clone(),
            base: (!c.lost).then(|| Base::new(c.at, 0.0, 1.0, 1.0)),
        })
        .collect()
}

/// The last phase's moves, shots and retreats: the events since the
/// phase before this one began (seed 001), or since this turn began (seed
/// 002, whose turn is one phase of activations).
fn arrows(game: &Game, recent: &[Event]) -> Vec<SceneArrow> {
    let units = game.units();
    let began: Vec<usize> = recent
        .iter()
        .enumerate()
        .filter(|(_, event)| {
            matches!(
                event,
                Event::Rv(rv::Event::PhaseBegan { .. }) | Event::Acw(acw::Event::TurnBegan { .. })
            )
        })
        .map(|(index, _)| index)
        .collect();
    let from = match (game, began.as_slice()) {
        (Game::Rv(_), [.., before, _]) => *before,
        (_, [.., last]) => *last,
        (_, []) => 0,
    };
    let side = |unit: usize| units.get(unit).map_or(0, |u| u.side);
    let centre = |unit: usize| units.get(unit).map_or(Point::new(0.0, 0.0), |u| u.position);
    let arrow = |kind, unit: usize, from: Point, to: Point| SceneArrow {
        kind,
        side: side(unit),
        from,
        to,
    };
    recent[from..]
        .iter()
        .filter_map(|event| match event {
            Event::Rv(rv::Event::Moved { unit, from, to, .. }) => {
                Some(arrow(ArrowKind::Move, unit.index, *from, *to))
            }
            Event::Rv(rv::Event::Retreated { unit, from, to }) => {
                Some(arrow(ArrowKind::Retreat, unit.index, *from, *to))
            }
            Event::Rv(rv::Event::Fired { unit, target, .. }) => Some(arrow(
                ArrowKind::Fire,
                unit.index,
                centre(unit.index),
                centre(target.index),
            )),
            Event::Rv(rv::Event::Contact { unit, target }) => Some(arrow(
                ArrowKind::Charge,
                unit.index,
                centre(unit.index),
                centre(target.index),
            )),
            Event::Acw(acw::Event::Moved { unit, from, to, .. }) => {
                Some(arrow(ArrowKind::Move, unit.0, *from, *to))
            }
            Event::Acw(acw::Event::Retreated { unit, from, to }) => {
                Some(arrow(ArrowKind::Retreat, unit.0, *from, *to))
            }
            Event::Acw(acw::Event::Fired { unit, target, .. }) => Some(arrow(
                ArrowKind::Fire,
                unit.0,
                centre(unit.0),
                centre(target.0),
            )),
            Event::Acw(acw::Event::Contact { unit, target, .. }) => Some(arrow(
                ArrowKind::Charge,
                unit.0,
                centre(unit.0),
                centre(target.0),
            )),
            _ => None,
        })
        .filter(|arrow| arrow.from.distance(arrow.to) > 1e-6)
        .collect()
}

/// The file a game's picture of this moment is written to in a folder of
/// pictures, one a phase: `turn-02-british-move.svg` (seed 002:
/// `turn-02-activation.svg`), `turn-12-end.svg` once the game is over;
/// they sort in the order of play.
pub fn turn_file_name(game: &Game) -> String {
    if game.is_over() {
        return format!("turn-{:02}-end.svg", game.turn().min(game.turns()));
    }
    let mut phase = String::new();
    for c in game.phase().chars() {
        if c.is_alphanumeric() {
            phase.push(c.to_ascii_lowercase());
        } else if !phase.ends_with('-') && !phase.is_empty() {
            phase.push('-');
        }
    }
    format!(
        "turn-{:02}-{}.svg",
        game.turn(),
        phase.trim_end_matches('-')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seeded;
    use crate::ruleset::Ruleset;
    use crate::tables::Tables;
    use crate::yaml::Source;

    fn start(name: &str) -> (Scenario, Game, Vec<Event>) {
        let (file, text) = crate::scenario::builtin(name).expect("built in");
        let scenario =
            crate::scenario::load(Source::new(file, text), Ruleset::builtin).expect("valid");
        let (game, events) =
            Game::start(&scenario, &Tables::embedded(), &mut Seeded::new(1)).expect("starts");
        (scenario, game, events)
    }

    /// A seed-001 picture has every unit (letter and name), the commanders,
    /// the bases bar, and the move just made as an arrow; seed 002's too.
    #[test]
    fn a_host_game_draws_as_svg_with_its_units_and_last_moves() {
        let (scenario, mut game, mut events) = start("guilford-ruinous");
        let action = crate::host::Action::Rv(rv::Action::Move {
            unit: 0,
            to: Point::new(8.0, 9.0),
        });
        events.extend(
            game.apply(&action, &mut Seeded::new(2))
                .expect("a legal move"),
        );
        let drawn = super::scene(&game, &scenario, "Guilford", &events);
        let scene = &drawn;
        assert_eq!(scene.caption.as_deref(), Some("turn 1 of 12: british move"));
        assert_eq!(scene.sides[0].units[0].label, "B1");
        assert_eq!(scene.sides[1].units[0].label, "A1");
        assert_eq!(scene.sides[0].units[0].rout_at, Some(6));
        assert_eq!(
            scene.sides[0].units[0].state.as_deref(),
            Some("line, 6 of 6 bases")
        );
        assert_eq!(scene.sides[0].generals[0].name, "Cornwallis");
        assert_eq!(scene.arrows.len(), 1);
        assert_eq!(scene.arrows[0].kind, ArrowKind::Move);
        assert_eq!(scene.arrows[0].to, Point::new(8.0, 9.0));
        let picture = crate::render::svg::svg(scene, None);
        assert!(picture.starts_with("<svg"), "{picture}");
        assert!(picture.contains("71st Foot"));
        assert!(picture.contains("Washington's Dragoons"));
        // Seed 001 counts bases lost, in the tooltips and the legend.
        assert!(
            picture.contains("71st Foot (british-line), 0 bases lost, line"),
            "{picture}"
        );
        assert!(picture.contains("bases lost: one cell each"));
        assert!(!picture.contains(" hits"), "{picture}");
        roxmltree::Document::parse(&picture).expect("well-formed XML");
        assert!(picture.contains("General Cornwallis"));
        assert!(picture.contains("class=\"arrow move\""));
        assert_eq!(turn_file_name(&game), "turn-01-british-move.svg");

        let (scenario, game, events) = start("henry-hill");
        let drawn = super::scene(&game, &scenario, "Henry Hill", &events);
        let picture = crate::render::svg::svg(&drawn, None);
        assert!(picture.contains("Jackson's Brigade"));
        assert!(picture.contains("hits: one cell each, full routs"));
        assert!(picture.contains(" 0 hits"));
        roxmltree::Document::parse(&picture).expect("well-formed XML");
        assert!(drawn.sides.iter().all(|side| side.generals.is_empty()));
        assert!(turn_file_name(&game).starts_with("turn-01-"));
    }
}
