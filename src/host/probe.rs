//! Where a game's time goes, told to whoever wants to know: the runner and
//! the opponent name the stage of the work they enter (reading the map,
//! the reaction test, pathing, the rules engine, deciding, the records)
//! and a [`Probe`] at the edge times the stages. Neither keeps a clock;
//! without a probe, naming a stage costs one branch.

use std::sync::Arc;

/// The stages of the opponent's work that a profile tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading situations off the map: distances, sight, ground.
    Reading,
    /// The Lone Warrior reaction tests.
    Reaction,
    /// Routes and distance fields (petgraph pathing).
    Pathing,
    /// The rules engine: checking and carrying out actions, and the phases
    /// it plays by itself (melee, rout, victory).
    Rules,
    /// Choosing targets and moves: the rest of the commanders' work.
    Deciding,
    /// The runner's record of what happened: the tally and the lines.
    Records,
}

impl Stage {
    /// Every stage, in the order a profile lists them.
    pub const ALL: [Stage; 6] = [
        Stage::Pathing,
        Stage::Reaction,
        Stage::Rules,
        Stage::Reading,
        Stage::Deciding,
        Stage::Records,
    ];

    /// The stage's place in [`Stage::ALL`].
    pub fn index(self) -> usize {
        match self {
            Stage::Pathing => 0,
            Stage::Reaction => 1,
            Stage::Rules => 2,
            Stage::Reading => 3,
            Stage::Deciding => 4,
            Stage::Records => 5,
        }
    }

    /// The stage as a profile names it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Pathing => "pathing",
            Stage::Reaction => "reaction tests",
            Stage::Rules => "rules engine",
            Stage::Reading => "reading the map",
            Stage::Deciding => "deciding",
            Stage::Records => "records",
        }
    }
}

/// Told each time the runner or the opponent enters a stage of its work,
/// so that a profiler can time the stages.
pub trait Probe: std::fmt::Debug + Send + Sync {
    /// The opponent enters `stage`; returns the stage it leaves, which the
    /// opponent enters again when `stage` is done.
    fn enter(&self, stage: Stage) -> Stage;
}

/// A probe, if there is one.
pub type Probing = Option<Arc<dyn Probe>>;

/// Run `work` as `stage` of the work.
pub fn staged<T>(probe: &Probing, stage: Stage, work: impl FnOnce() -> T) -> T {
    match probe {
        None => work(),
        Some(probe) => {
            let was = probe.enter(stage);
            let result = work();
            probe.enter(was);
            result
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A probe that writes down every stage entered.
    #[derive(Debug, Default)]
    struct Log(Mutex<(Vec<Stage>, Option<Stage>)>);

    impl Probe for Log {
        fn enter(&self, stage: Stage) -> Stage {
            let mut log = self.0.lock().unwrap();
            log.0.push(stage);
            log.1.replace(stage).unwrap_or(Stage::Deciding)
        }
    }

    #[test]
    fn a_stage_is_left_for_the_one_it_interrupted() {
        let log: Arc<Log> = Arc::default();
        let probe: Probing = Some(log.clone());
        let value = staged(&probe, Stage::Reading, || {
            staged(&probe, Stage::Rules, || 7)
        });
        assert_eq!(value, 7);
        assert_eq!(
            log.0.lock().unwrap().0,
            [
                Stage::Reading,
                Stage::Rules,
                Stage::Reading,
                Stage::Deciding
            ]
        );
        assert_eq!(staged(&None, Stage::Pathing, || 3), 3);
    }

    #[test]
    fn stages_are_listed_once_each() {
        for (index, stage) in Stage::ALL.iter().enumerate() {
            assert_eq!(stage.index(), index);
        }
    }
}
