//! When the window draws. A window draws a frame when the player touches it, and otherwise only while something on it
//! moves or waits on the game's clock: a phone at a table waiting for the player's bet draws nothing, and its battery
//! pays for nothing (a page standing still was drawn sixty times a second, every one of them the same). Each room says
//! what keeps it moving with [`DrawWhile::draw_while`]; the window's platform turns the answer into frames
//! (`platform::window`). Headless apps step themselves and never read it.

use crate::game::model::screen::{Menu, Pause, RoundPhase, Screen};
use bevy::ecs::message::Message;
use bevy::prelude::*;
use bevy::state::state::FreelyMutableState;
use std::sync::Arc;

/// How often the window must be drawn: the most any room asked for in this frame.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Redraw {
    /// Only when the player does something (a touch, a key, the pointer over the window), or something arrives.
    #[default]
    WhenTouched,
    /// Once a second: a clock in whole seconds is on the screen.
    EverySecond,
    /// Every frame: something moves, or waits on the game's clock.
    EveryFrame,
}

/// The systems that ask for frames, in `Last`; the platform reads the answer after them. They run only where a window
/// reads the answer ([`DrawsAsAsked`]): a headless app steps itself and reads none of them, so its frames skip the
/// two dozen conditions.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskForFrames;

/// A window draws as the frames ask (the platform inserts it where it reads [`Redraw`]).
#[derive(Resource, Default)]
pub struct DrawsAsAsked;

/// Asking for frames while something holds.
pub trait DrawWhile {
    /// Asks for `redraw` in every frame that ends with `condition` true.
    fn draw_while<M>(&mut self, redraw: Redraw, condition: impl SystemCondition<M>) -> &mut Self;
}

impl DrawWhile for App {
    fn draw_while<M>(&mut self, redraw: Redraw, condition: impl SystemCondition<M>) -> &mut Self {
        self.init_resource::<Redraw>().add_systems(
            Last,
            (move |mut asked: ResMut<Redraw>| *asked = (*asked).max(redraw))
                .run_if(condition)
                .in_set(AskForFrames),
        )
    }
}

/// Wakes a window that waits for the player when something arrives off the frame (a casino's message, an HTTP
/// answer), so it is taken in at once. Without a window (headless apps, tests) it does nothing.
#[derive(Resource, Clone, Default)]
pub struct Waker(Option<Arc<dyn Fn() + Send + Sync>>);

impl Waker {
    /// A waker that calls `wake`.
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> Waker {
        Waker(Some(Arc::new(wake)))
    }

    /// Wakes the window, if there is one.
    pub fn wake(&self) {
        if let Some(wake) = &self.0 {
            wake();
        }
    }
}

/// A change of state `S` waits for the next frame.
pub fn pending<S: FreelyMutableState>(next: Option<Res<NextState<S>>>) -> bool {
    next.is_some_and(|next| !matches!(*next, NextState::Unchanged))
}

/// Messages `M` were written that the next frame reads (the HUD's buttons are read by the next frame's systems).
pub fn unread<M: Message>(messages: Option<Res<Messages<M>>>) -> bool {
    messages.is_some_and(|messages| !messages.is_empty())
}

/// The model's own: loading, a state about to change, the table showing what it decided, the player's intents on
/// their way, the coach's stop not yet answerable, and the engine's work under way (the advisor, the next round's
/// value, the chart and index plays, the house edges, the flash cards' deck), which is polled, or done in pieces, each
/// frame.
pub(crate) fn plugin(app: &mut App) {
    use crate::game::model::{
        advisor::{Advisor, Counsel},
        casino::CasinoRequest,
        coach::{Choice, Coach},
        edges::HouseEdges,
        next_round::NextRound,
        player::Intent,
        practice::Practice,
        strategy::StrategyBook,
        table::Beats,
    };
    app.init_resource::<Redraw>()
        .init_resource::<Waker>()
        .configure_sets(Last, AskForFrames.run_if(resource_exists::<DrawsAsAsked>))
        .draw_while(Redraw::EveryFrame, in_state(Screen::Loading))
        .draw_while(
            Redraw::EveryFrame,
            pending::<Screen>
                .or_else(pending::<RoundPhase>)
                .or_else(pending::<Menu>)
                .or_else(pending::<Pause>),
        )
        .draw_while(
            Redraw::EveryFrame,
            unread::<Intent>
                .or_else(unread::<Choice>)
                .or_else(unread::<CasinoRequest>),
        )
        // The table's own (its news, the coach's stop, the advisor) only at the table: a table left in the middle of
        // a beat keeps its beats until it opens again.
        .draw_while(
            Redraw::EveryFrame,
            in_state(Screen::Table).and_then(
                |beats: Res<Beats>,
                 coach: Res<Coach>,
                 advisor: Res<Advisor>,
                 next: Res<NextRound>,
                 clock: Res<Time<Virtual>>,
                 real: Res<Time<Real>>| {
                    beats.moving(clock.is_paused())
                        || coach
                            .stop
                            .as_ref()
                            .is_some_and(|stop| !stop.answerable(real.elapsed()))
                        || matches!(advisor.counsel(), Counsel::Thinking)
                        || next.thinking()
                },
            ),
        )
        .draw_while(
            Redraw::EveryFrame,
            |book: Res<StrategyBook>, edges: Res<HouseEdges>, practice: Res<Practice>| {
                book.working() || edges.working() || practice.working()
            },
        );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(bevy::state::app::StatesPlugin)
            .init_state::<Screen>()
            .init_resource::<Redraw>()
            .init_resource::<Flag>()
            .draw_while(Redraw::EverySecond, |flag: Res<Flag>| flag.0 >= 1)
            .draw_while(Redraw::EveryFrame, |flag: Res<Flag>| flag.0 >= 2)
            .draw_while(Redraw::EveryFrame, pending::<Screen>);
        app
    }

    #[derive(Resource, Default)]
    struct Flag(u8);

    /// The answer is the most any room asked for, and nothing asked is drawing only when touched.
    #[test]
    fn the_most_asked_for_wins() {
        let mut app = app();
        let answer = |app: &mut App, flag: u8| {
            app.world_mut().resource_mut::<Flag>().0 = flag;
            app.update();
            std::mem::take(&mut *app.world_mut().resource_mut::<Redraw>())
        };
        assert_eq!(answer(&mut app, 0), Redraw::WhenTouched);
        assert_eq!(answer(&mut app, 1), Redraw::EverySecond);
        assert_eq!(answer(&mut app, 2), Redraw::EveryFrame);
        assert_eq!(answer(&mut app, 0), Redraw::WhenTouched);
    }

    /// A state set to change asks for the frame that changes it.
    #[test]
    fn a_pending_state_asks_for_a_frame() {
        let mut app = app();
        app.update();
        std::mem::take(&mut *app.world_mut().resource_mut::<Redraw>());
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Title);
        // Set after this frame's transitions (as a page's button does, in egui's pass): pending at its end.
        app.add_systems(
            Update,
            |mut once: Local<bool>, mut next: ResMut<NextState<Screen>>| {
                if !*once {
                    *once = true;
                    next.set(Screen::Table);
                }
            },
        );
        app.update();
        assert_eq!(
            std::mem::take(&mut *app.world_mut().resource_mut::<Redraw>()),
            Redraw::EveryFrame
        );
        app.update();
        assert_eq!(
            *app.world().resource::<State<Screen>>().get(),
            Screen::Table
        );
        assert_eq!(
            std::mem::take(&mut *app.world_mut().resource_mut::<Redraw>()),
            Redraw::WhenTouched
        );
    }
}
