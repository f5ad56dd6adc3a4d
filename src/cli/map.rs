//! `foe map`: draw a scenario's battlefield in the terminal, or as SVG.

use super::Context;
use crate::error::{Error, Result};
use crate::render::map::{MIN_WIDTH, MapStyle, map};
use std::path::PathBuf;

/// Arguments of `foe map`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  foe map guilford                 the Guilford table in 80 columns
  foe map guilford --width 120     wider, with more detail
  foe map monongahela --svg m.svg  write a picture instead

Units are labelled by side and number with an arrow for their facing
(B3↑ is the British third unit facing north, B3↗ north-east); the legend lists them.")]
pub struct Args {
    /// A built-in scenario's name or a scenario file.
    #[arg(value_name = "FILE|NAME")]
    pub scenario: String,
    /// Width of the map in columns.
    #[arg(long, default_value_t = 80, value_name = "COLUMNS")]
    pub width: usize,
    /// Write an SVG picture of the table to this file instead of drawing it.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Run `foe map`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let scenario = super::check::load_scenario(&args.scenario, context.tables_dir.as_deref())?;
    if let Some(path) = &args.svg {
        return write_svg(
            path,
            &crate::render::svg::svg(&crate::render::scene::Scene::of_scenario(&scenario), None),
            context,
        );
    }
    if args.width < MIN_WIDTH || args.width > 1000 {
        return Err(Error::Invalid(format!(
            "--width must be between {MIN_WIDTH} and 1000 columns"
        )));
    }
    let style = MapStyle {
        width: args.width,
        colour: colour_wanted(),
    };
    context.print(&map(
        &crate::render::scene::Scene::of_scenario(&scenario),
        style,
        None,
    ))
}

/// Whether to colour: only on a terminal, and never when NO_COLOR is set.
pub fn colour_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// Write an SVG file and say so.
pub fn write_svg(path: &std::path::Path, svg: &str, context: &mut Context<'_>) -> Result<()> {
    std::fs::write(path, svg).map_err(|source| Error::Io {
        action: "write",
        path: path.into(),
        source,
    })?;
    context.print(&format!("wrote {}\n", path.display()))
}
