//! `foe route`: the way a unit would go to a point, its cost in bounds, and
//! the route drawn on the map.

use super::Context;
use crate::battlefield::{Point, geometry::trim};
use crate::error::{Error, Result};
use crate::render::map::{MapStyle, map};
use std::path::PathBuf;

/// Arguments of `foe route`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  foe route guilford --unit \"Tarleton\" --to 24,28

    Tarleton's Legion (cavalry, 12\" a move) from 28,2 to 24,28
    cost 21.9\" of movement: 2 moves
      1. straight  28,2 -> 24.25,3.25  3.9\"
      2. road      24.25,3.25 -> 24,28  18\" along the road
    ...then the map, with the route drawn in *.")]
pub struct Args {
    /// A built-in scenario's name or a scenario file.
    #[arg(value_name = "FILE|NAME")]
    pub scenario: String,
    /// The unit to move: its name or a unique beginning of it.
    #[arg(long, value_name = "NAME")]
    pub unit: String,
    /// Where to go, in inches from the south-west corner: X,Y.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub to: String,
    /// Width of the map in columns.
    #[arg(long, default_value_t = 80, value_name = "COLUMNS")]
    pub width: usize,
    /// Write an SVG picture with the route to this file instead of drawing the map.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

fn parse_point(text: &str) -> Result<Point> {
    let invalid = || {
        Error::Invalid(format!(
            "--to `{text}` is not a point; write X,Y in inches, e.g. --to 24,30"
        ))
    };
    let (x, y) = text.split_once(',').ok_or_else(invalid)?;
    let x: f64 = x.trim().parse().map_err(|_| invalid())?;
    let y: f64 = y.trim().parse().map_err(|_| invalid())?;
    if x.is_finite() && y.is_finite() {
        Ok(Point::new(x, y))
    } else {
        Err(invalid())
    }
}

/// Run `foe route`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let scenario = super::check::load_scenario(&args.scenario, context.tables_dir.as_deref())?;
    let to = parse_point(&args.to)?;
    let (_, unit) = scenario.find_unit(&args.unit)?;
    let field = &scenario.battlefield;
    if !field.on_table(to) {
        return Err(Error::Invalid(format!(
            "{to} is off the {}\" x {}\" table",
            trim(field.width()),
            trim(field.height())
        )));
    }
    let base = unit.base.ok_or_else(|| {
        Error::Invalid(format!("`{}` has no position on the table yet", unit.name))
    })?;
    // Units cannot move through other units (seed 000 interpenetration).
    let others = scenario
        .units()
        .filter(|(_, u)| u.name != unit.name)
        .filter_map(|(_, u)| u.base.as_ref());
    let blocked = field.occupied(others);
    let troop = field.ruleset.troop(unit.troop);
    let allowance = field.ruleset.move_of(unit.troop);
    if let Some(cell) = field.grid.cell_at(to)
        && !field.passable(unit.troop, cell)
    {
        let kinds: Vec<&str> = field
            .grid
            .kinds_at(&field.ruleset, cell)
            .iter()
            .map(|k| field.ruleset.kind(*k).name.as_str())
            .collect();
        return Err(Error::Invalid(format!(
            "{to} is {}, which {} ({}) cannot enter",
            kinds.join(" and "),
            unit.name,
            troop.name
        )));
    }
    let route = field
        .route(unit.troop, base.centre, to, &blocked)
        .ok_or_else(|| {
            Error::Invalid(format!(
                "{} ({}) cannot reach {to}: it is occupied or cut off",
                unit.name, troop.name
            ))
        })?;
    if let Some(path) = &args.svg {
        return super::map::write_svg(
            path,
            &crate::render::svg::svg(
                &crate::render::scene::Scene::of_scenario(&scenario),
                Some(&route),
            ),
            context,
        );
    }
    let mut out = format!(
        "{} ({}, {}\" a move) from {} to {to}\ncost {}\" of movement: {} move{}\n",
        unit.name,
        troop.name,
        trim(allowance),
        base.centre,
        trim(route.cost()),
        route.bounds(allowance),
        if route.bounds(allowance) == 1 {
            ""
        } else {
            "s"
        },
    );
    for (index, leg) in route.legs().iter().enumerate() {
        let kind = if leg.along_road {
            "road    "
        } else {
            "straight"
        };
        let detail = if leg.along_road {
            format!("{}\" along the road", trim(leg.length()))
        } else {
            format!("{}\"", trim(leg.length()))
        };
        out.push_str(&format!(
            "  {}. {kind}  {} -> {}  {detail}, costs {}\"\n",
            index + 1,
            leg.start(),
            leg.end(),
            trim(leg.cost())
        ));
    }
    for bound in 1..route.bounds(allowance) {
        let clipped = route.clip(allowance * bound as f64);
        out.push_str(&format!("  after move {bound}: at {}\n", clipped.end()));
    }
    out.push('\n');
    let style = MapStyle {
        width: args.width.clamp(crate::render::map::MIN_WIDTH, 1000),
        colour: super::map::colour_wanted(),
    };
    out.push_str(&map(
        &crate::render::scene::Scene::of_scenario(&scenario),
        style,
        Some(&route),
    ));
    context.print(&out)
}
