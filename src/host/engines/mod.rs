//! The per-engine adapters: each engine's game state as a
//! [`super::position::Position`], its actions, events and refusals as
//! those of any engine, and its words at the prompt
//! ([`super::repl::Words`]). The only code above the engines that knows one
//! engine's types from another's, beside the registry in [`super`].

mod acw;
mod acw_words;
mod awi;
mod awi_save;
mod awi_words;
mod rv;
mod rv_words;

pub(crate) use awi_save::earlier_seed_000_save;

/// The engine's own types wrapped as those of any engine.
macro_rules! wrap {
    ($variant:ident, $engine:ident) => {
        impl From<crate::$engine::Action> for super::Action {
            fn from(action: crate::$engine::Action) -> Self {
                super::Action::$variant(action)
            }
        }
        impl From<crate::$engine::Event> for super::Event {
            fn from(event: crate::$engine::Event) -> Self {
                super::Event::$variant(event)
            }
        }
        impl From<crate::$engine::Refusal> for super::Refusal {
            fn from(refusal: crate::$engine::Refusal) -> Self {
                super::Refusal::$variant(refusal)
            }
        }
    };
}

wrap!(Awi, rules);
wrap!(Rv, rv);
wrap!(Acw, acw);
