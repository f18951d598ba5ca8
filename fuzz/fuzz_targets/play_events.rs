//! The streaming client's untrusted input: the play server's event streams
//! (`GET /bot/stream/event`, `GET /bot/game/stream/{id}`), as raw bytes cut into lines by
//! the client's own ndjson reader, read as account and game events and fed to the game
//! tracker of both seats (`dicechess play`, docs/play.md).
//!
//! Checks: no panic; a line that reads as an event writes back to JSON that reads as the
//! same event; the tracker plays each roll at most once and only its own seat's, in
//! increasing versions; answers each draw offer at most once; and does nothing after the
//! game has ended.
#![no_main]

use dicechess::play::{
    parse_account_line, parse_game_line, Action, GameEvent, GameTracker, Line, NdjsonLines,
};
use dicechess::serve::Seat;
use libfuzzer_sys::fuzz_target;
use std::io::Read;

/// A reader that hands out at most `step` bytes per read (streams arrive in pieces).
struct Pieces<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.data.len().min(self.step).min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

struct Seen {
    tracker: GameTracker,
    seat: Seat,
    last_play: Option<u64>,
    last_answer: Option<u64>,
    finished: bool,
}

impl Seen {
    fn new(seat: Seat) -> Seen {
        Seen {
            tracker: GameTracker::new(seat, None),
            seat,
            last_play: None,
            last_answer: None,
            finished: false,
        }
    }

    fn feed(&mut self, event: &GameEvent) {
        let actions = self.tracker.on_event(event);
        if self.finished {
            assert!(actions.is_empty(), "acted after the end: {actions:?}");
        }
        for a in actions {
            match a {
                Action::Play { version, .. } => {
                    assert!(
                        self.last_play.is_none_or(|p| version > p),
                        "roll {version} played twice"
                    );
                    self.last_play = Some(version);
                    match event {
                        GameEvent::DiceRolled { seat, .. } => assert_eq!(*seat, self.seat),
                        GameEvent::Snapshot { state, .. } => {
                            assert_eq!(state.active_seat, self.seat);
                            assert!(state.dice_pending);
                        }
                        other => panic!("played on {other:?}"),
                    }
                }
                Action::AnswerDraw { version, .. } => {
                    assert!(
                        self.last_answer.is_none_or(|p| version > p),
                        "offer {version} answered twice"
                    );
                    self.last_answer = Some(version);
                    if let GameEvent::DrawOffered { by, .. } = event {
                        assert_ne!(*by, self.seat, "answered our own offer");
                    }
                }
                Action::Finished(_) => self.finished = true,
                Action::Seed | Action::Refused(_) => {}
            }
        }
        assert_eq!(self.tracker.is_finished(), self.finished);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, rest)) = data.split_first() else {
        return;
    };
    let mut lines = NdjsonLines::new(
        "/fuzz".into(),
        Pieces {
            data: rest,
            step: usize::from(step % 64) + 1,
        },
    );
    let mut white = Seen::new(Seat::White);
    let mut black = Seen::new(Seat::Black);
    // The reader always ends: every call consumes input or reports the end.
    for _ in 0..=rest.len() + 1 {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) | Err(_) => return,
        };
        if let Ok(Line::Event(e)) = parse_account_line(&line) {
            let again = serde_json::to_string(&e).expect("an event writes");
            assert_eq!(parse_account_line(&again), Ok(Line::Event(e)));
        }
        if let Ok(Line::Event(e)) = parse_game_line(&line) {
            let again = serde_json::to_string(&e).expect("an event writes");
            assert_eq!(
                parse_game_line(&again),
                Ok(Line::Event(e.clone())),
                "{again}"
            );
            white.feed(&e);
            black.feed(&e);
        }
    }
    panic!("the reader did not end");
});
