//! How `foe simulate` prints a study: the odds table, the per-side and
//! per-unit figures, sweep tables, and a hand-written SVG of a sweep.

use crate::simulate::{Aggregate, Rate, Report};
use std::fmt::Write;

/// The widest a column grows for its names. Names are at most
/// [`crate::names::MAX_NAME_CHARS`] characters; a report built some other
/// way must still not ask for a width the formatter refuses (above 65,535).
const WIDEST: usize = 2 * crate::names::MAX_NAME_CHARS;

/// A rate as `31.2%`.
fn percent(rate: f64) -> String {
    format!("{:.1}%", 100.0 * rate)
}

/// A rate with its interval: `31.2% (28.4-34.1)`.
pub fn rate_with_interval(rate: Rate) -> String {
    format!(
        "{} ({:.1}-{:.1})",
        percent(rate.rate),
        100.0 * rate.low,
        100.0 * rate.high
    )
}

/// The whole report of a run (or of merged runs).
pub fn report(report: &Report, jobs: Option<usize>) -> String {
    let aggregate = &report.aggregate;
    let labels = &report.labels;
    let mut out = String::new();
    let plural = if aggregate.games == 1 { "" } else { "s" };
    let _ = writeln!(out, "{}: {} game{plural}", report.title, aggregate.games);
    let _ = write!(
        out,
        "  {}, seed {}, games {}",
        report.scenario, report.seed, aggregate.ranges
    );
    for set in &report.sets {
        let _ = write!(out, ", --set {set}");
    }
    out.push('\n');
    let speed = if report.seconds > 0.0 {
        format!(", {:.0} games/s", aggregate.games as f64 / report.seconds)
    } else {
        String::new()
    };
    let jobs = jobs.map_or(String::new(), |jobs| {
        format!(", {jobs} job{}", if jobs == 1 { "" } else { "s" })
    });
    let _ = writeln!(out, "  {:.2} s{speed}{jobs}", report.seconds);
    let commanders: Vec<String> = labels
        .sides
        .iter()
        .enumerate()
        .map(|(side, name)| {
            let named = labels.controller(side);
            let who = crate::host::command::ControllerKind::from_name(named)
                .map_or_else(|| named.to_string(), |kind| kind.describe().to_string());
            format!("{name} {who}")
        })
        .collect();
    if !commanders.is_empty() {
        let _ = writeln!(out, "  commanded by: {}", commanders.join(", "));
    }
    let plans: Vec<String> = labels
        .plans
        .iter()
        .zip(&labels.sides)
        .filter(|(plan, _)| !plan.is_empty())
        .map(|(plan, name)| format!("{} {plan}", crate::names::side_subject(name)))
        .collect();
    if !plans.is_empty() {
        let _ = writeln!(out, "  plans: {}", plans.join("; "));
    }
    // The rules as switched from the shipped ones (`--rule`, or the
    // tables' own file).
    let (off, on) = crate::tables::PlanRules::changed_from_shipped(&labels.rules_off);
    if !off.is_empty() {
        let _ = writeln!(
            out,
            "  opponent rules off: {} (docs/rulings.md, Plans)",
            off.join(", ")
        );
    }
    if !on.is_empty() {
        let _ = writeln!(
            out,
            "  opponent rules on: {} (docs/rulings.md, Plans)",
            on.join(", ")
        );
    }
    if report.stopped {
        out.push_str("  stopped early: these are the games played before Ctrl-C\n");
    }
    if aggregate.games == 0 {
        return out;
    }

    let width = labels
        .sides
        .iter()
        .map(|side| side.len() + 5)
        .max()
        .unwrap_or(0)
        .clamp(10, WIDEST);
    let _ = writeln!(out, "\n  {:width$}  games       %  95% interval", "result");
    let mut row = |name: String, count: u64| {
        let rate = aggregate.rate(count);
        let _ = writeln!(
            out,
            "  {name:width$}  {count:>5}  {:>6}  {:.1}-{:.1}%",
            percent(rate.rate),
            100.0 * rate.low,
            100.0 * rate.high
        );
    };
    for (side, name) in labels.sides.iter().enumerate() {
        row(
            format!("{name} wins"),
            aggregate.wins.get(side).copied().unwrap_or(0),
        );
    }
    row("draws".into(), aggregate.draws);

    let _ = writeln!(
        out,
        "\nTurns played: mean {:.1}, median {}",
        aggregate.mean_turns().unwrap_or(0.0),
        aggregate.median_turns().unwrap_or(0.0)
    );

    // The side column is as wide as the longest side's name (10 at least,
    // so "confederates" does not push its row out of line).
    let width = labels
        .sides
        .iter()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(10, WIDEST);
    let _ = writeln!(
        out,
        "\n{:<heading$}units lost  hits taken  charges in contact",
        "Per game",
        heading = width + 4
    );
    for (side, name) in labels.sides.iter().enumerate() {
        let get = |values: &[u64]| aggregate.mean(values.get(side).copied().unwrap_or(0));
        let _ = writeln!(
            out,
            "  {name:width$}  {:>10.2}  {:>10.2}  {:>18.2}",
            get(&aggregate.units_lost),
            get(&aggregate.hits),
            get(&aggregate.charges)
        );
    }
    if !labels.generals.is_empty() {
        let rallies: Vec<String> = labels
            .generals
            .iter()
            .enumerate()
            .map(|(index, (_, name))| {
                format!(
                    "{name} {:.2}",
                    aggregate.mean(aggregate.rallies_used.get(index).copied().unwrap_or(0))
                )
            })
            .collect();
        let _ = writeln!(out, "Rallies used per game: {}", rallies.join(", "));
    }

    let name_width = labels
        .units
        .iter()
        .map(|(_, name)| name.chars().count())
        .max()
        .unwrap_or(4)
        .min(WIDEST);
    let _ = writeln!(
        out,
        "\nUnits lost (% of games)\n  {:10}  {:name_width$}  {:>7}  {:>10}",
        "side", "unit", "routed", "driven off"
    );
    for (index, (side, name)) in labels.units.iter().enumerate() {
        let routed = aggregate.routed.get(index).copied().unwrap_or(0);
        let exited = aggregate.exited.get(index).copied().unwrap_or(0);
        let side = labels.sides.get(*side).map_or("?", String::as_str);
        let _ = writeln!(
            out,
            "  {side:10}  {name:name_width$}  {:>7}  {:>10}",
            percent(aggregate.rate(routed).rate),
            percent(aggregate.rate(exited).rate)
        );
    }

    out.push_str("\nWhat decided the game (% of games)\n");
    for (index, (side, words)) in labels.conditions.iter().enumerate() {
        let count = aggregate.conditions.get(index).copied().unwrap_or(0);
        let side = labels.sides.get(*side).map_or("?", String::as_str);
        let _ = writeln!(
            out,
            "  {:>6}  {side} win: {words}",
            percent(aggregate.rate(count).rate)
        );
    }
    let _ = writeln!(
        out,
        "  {:>6}  draw",
        percent(aggregate.rate(aggregate.draws).rate)
    );

    out.push_str("\nOrders given (per game)\n");
    if aggregate.orders.is_empty() {
        out.push_str("  none\n");
    }
    for order in crate::tables::Order::ALL {
        if let Some(count) = aggregate.orders.get(order.id()) {
            let _ = writeln!(
                out,
                "  {:18} {:>7.2}",
                order.title(),
                aggregate.mean(*count)
            );
        }
    }
    if !aggregate.conduct.is_empty() {
        out.push_str("\nHow foe carried out its orders (per game)\n");
        for (name, words) in crate::simulate::CONDUCT {
            let count = aggregate.conduct.get(name).copied().unwrap_or(0);
            let _ = writeln!(out, "  {words:62} {:>7.2}", aggregate.mean(count));
        }
    }
    if !aggregate.stuck.is_empty() {
        out.push_str(concat!(
            "\nMoves with no lawful way (% of bounds on the table), and units with none by\n",
            "the rules: hemmed in (within 6\" of the enemy, no move directly towards or\n",
            "away from one goes nearer) or held up (units across every way)\n",
            "  troop type                no way  (bounds)            hemmed in  held up\n",
        ));
        for (troop, [bounds, stuck]) in &aggregate.stuck {
            let share = |count: u64| {
                if *bounds == 0 {
                    0.0
                } else {
                    count as f64 / *bounds as f64
                }
            };
            let [enemy, friends] = aggregate.hemmed.get(troop).copied().unwrap_or([0, 0]);
            let counted = format!("({stuck} of {bounds})");
            let _ = writeln!(
                out,
                "  {:24} {:>6}  {counted:<20} {:>6}   {:>6}",
                troop,
                percent(share(*stuck)),
                percent(share(enemy)),
                percent(share(friends)),
            );
        }
    }
    out
}

/// One point of a sweep or balance search.
#[derive(Debug, Clone)]
pub struct Point {
    /// The value as typed.
    pub value: String,
    /// As a number, for plotting.
    pub x: f64,
    /// Its games.
    pub aggregate: Aggregate,
}

/// A sweep's table: each value's wins per side and draws.
pub fn sweep_table(sides: &[String], points: &[Point]) -> String {
    let mut out = String::new();
    let value_width = points
        .iter()
        .map(|point| point.value.len())
        .max()
        .unwrap_or(5)
        .clamp(5, WIDEST);
    let _ = write!(out, "{:>value_width$}  games", "value");
    for side in sides {
        let _ = write!(out, "  {:22}", format!("{side} wins (95%)"));
    }
    let _ = writeln!(out, "  draws (95%)");
    for point in points {
        let aggregate = &point.aggregate;
        let _ = write!(out, "{:>value_width$}  {:>5}", point.value, aggregate.games);
        for side in 0..sides.len() {
            let _ = write!(out, "  {:22}", rate_with_interval(aggregate.win_rate(side)));
        }
        let _ = writeln!(
            out,
            "  {}",
            rate_with_interval(aggregate.rate(aggregate.draws))
        );
    }
    out
}

/// A hand-written SVG plot of a sweep: each side's win rate against the
/// value, with its 95% interval as a bar.
pub fn sweep_svg(title: &str, key: &str, sides: &[String], points: &[Point]) -> String {
    const WIDTH: f64 = 640.0;
    const HEIGHT: f64 = 400.0;
    const LEFT: f64 = 60.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    const COLOURS: [&str; 4] = ["#c0392b", "#2c5aa0", "#27ae60", "#8e44ad"];
    let (min_x, max_x) = points
        .iter()
        .fold((f64::MAX, f64::MIN), |(low, high), point| {
            (low.min(point.x), high.max(point.x))
        });
    let span = if max_x > min_x { max_x - min_x } else { 1.0 };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_of = |x: f64| {
        if max_x > min_x {
            LEFT + (x - min_x) / span * plot_width
        } else {
            LEFT + plot_width / 2.0
        }
    };
    let y_of = |rate: f64| TOP + (1.0 - rate) * plot_height;
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    for tick in 0..=4 {
        let rate = f64::from(tick) / 4.0;
        let y = y_of(rate);
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}%</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            tick * 25
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="{LEFT}" y1="{}" x2="{}" y2="{}" stroke="#888" stroke-dasharray="4 4"/>"##,
        y_of(0.5),
        WIDTH - RIGHT,
        y_of(0.5)
    );
    for point in points {
        let x = x_of(point.x);
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            HEIGHT - BOTTOM + 16.0,
            escape(&point.value)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 12.0,
        escape(key)
    );
    for (side, name) in sides.iter().enumerate() {
        let colour = COLOURS[side % COLOURS.len()];
        let line: Vec<String> = points
            .iter()
            .map(|point| {
                format!(
                    "{:.1},{:.1}",
                    x_of(point.x),
                    y_of(point.aggregate.win_rate(side).rate)
                )
            })
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            line.join(" ")
        );
        for point in points {
            let rate = point.aggregate.win_rate(side);
            let x = x_of(point.x);
            let _ = writeln!(
                out,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{colour}"/><circle cx="{x:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#,
                y_of(rate.low),
                y_of(rate.high),
                y_of(rate.rate)
            );
        }
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" fill="{colour}">{} wins</text>"#,
            LEFT + 10.0,
            TOP + 16.0 + 16.0 * side as f64,
            escape(name)
        );
    }
    out.push_str("</svg>\n");
    out
}
