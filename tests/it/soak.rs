//! A short soak in `cargo test` (the long one is `scripts/soak.sh`): the
//! first sessions of the soak seeded 14 with a third of their lines — `foe
//! play` as the player and watching, `foe companion`, each then resumed —
//! and random legal and adversarial play on the library with the rules
//! invariants checked after every action. No panic, crash, hang, violation
//! or save that does not resume.

#[path = "../../examples/soak/library.rs"]
mod library;
#[path = "../../examples/soak/lines.rs"]
mod lines;
#[path = "../../examples/soak/plan.rs"]
mod plan;
#[path = "../../examples/soak/session.rs"]
mod session;

use std::sync::Arc;
use std::time::Duration;

#[test]
fn a_short_soak_finds_no_panic_hang_or_violation() {
    let foe = session::Foe {
        program: env!("CARGO_BIN_EXE_foe").into(),
        marker: None,
    };
    let tables = Arc::new(foe::tables::Tables::embedded());
    let ready = library::builtins();
    let fixtures = plan::Fixtures::new(&ready, &tables);
    let scratch = tempfile::tempdir().unwrap();
    let (mut lines, mut actions, mut kinds) = (0, 0, Vec::new());
    let mut failures = Vec::new();
    for index in 0..10 {
        let plan = plan::plan(14, index, &ready, 0.3);
        kinds.push(plan.kind);
        let report = plan::carry_out(
            &plan,
            &foe,
            &fixtures,
            &ready,
            &tables,
            scratch.path(),
            Duration::from_secs(120),
            false,
        );
        lines += report.lines;
        actions += report.actions + report.adversarial;
        failures.extend(report.failures.iter().map(|failure| {
            format!(
                "session {} step {:?} ({} bytes of input): {}: {}",
                failure.index,
                failure.step,
                failure.input.len(),
                failure.what,
                failure.detail
            )
        }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every kind of session ran, with hundreds of lines and actions.
    for kind in [
        plan::Kind::Play,
        plan::Kind::Watch,
        plan::Kind::Companion,
        plan::Kind::Library,
    ] {
        assert!(kinds.contains(&kind), "{kind:?} in {kinds:?}");
    }
    assert!(
        lines > 200 && actions > 100,
        "{lines} lines, {actions} actions"
    );
}
