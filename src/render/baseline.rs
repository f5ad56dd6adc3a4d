//! Text for the baseline's turns in `foe play` and `foe simulate --replay`:
//! a line per decision (who, and the policy's reason), what its actions
//! caused, then whatever no decision tells (melees, routs). Pure: strings
//! out.

use crate::host::baseline::awi::BaselineReport;
use crate::render::play::Detail;
use crate::rules::log::event_line;
use crate::rules::{Event, GameState};
use std::fmt::Write;

/// The baseline's whole turn for a side.
pub fn turn(state: &GameState, report: &BaselineReport, detail: Detail) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "== {} (baseline) ==", state.sides[report.side].name);
    let shown =
        |event: &Event| detail == Detail::Verbose || !matches!(event, Event::PhaseEnded { .. });
    if detail == Detail::Quiet {
        for event in report.events.iter().filter(|event| shown(event)) {
            let _ = writeln!(out, "{}", event_line(state, event));
        }
        return out;
    }
    let mut told: Vec<&Event> = Vec::new();
    for decision in &report.decisions {
        let _ = writeln!(out, "{}: {}", decision.name, decision.why);
        for event in &decision.events {
            told.push(event);
            let _ = writeln!(out, "  {}", event_line(state, event));
        }
        if detail == Detail::Verbose {
            for (action, refusal) in &decision.refused {
                let _ = writeln!(out, "  checked and refused: {action:?}: {refusal}");
            }
        }
    }
    for event in &report.events {
        if let Some(at) = told.iter().position(|seen| *seen == event) {
            told.swap_remove(at);
            continue;
        }
        if shown(event) {
            let _ = writeln!(out, "{}", event_line(state, event));
        }
    }
    out
}
