//! The Bot API's documented examples (`tests/fixtures/play`, copied from the play server's
//! `streaming.md` and `rest.md`) read into our types field for field, and the game tracker
//! driven by them: what a client must do after each event, across reconnects.
#![allow(clippy::unwrap_used)] // a test fails by panicking

use dicechess::play::{
    parse_account_line, parse_game_line, AccountEvent, Action, BotActiveGame, BotChallenges,
    GameEvent, GameMoves, GameTracker, Line, MoveBody, MoveOutcome, Principal,
};
use dicechess::serve::{GameResult, Seat, ServerTimeControl, Side, Termination};
use serde_json::Value;

const GAME: &str = include_str!("fixtures/play/game-stream.ndjson");
const ACCOUNT: &str = include_str!("fixtures/play/account-stream.ndjson");
const REST: &str = include_str!("fixtures/play/rest.json");

fn game_events() -> Vec<Line<GameEvent>> {
    GAME.lines().map(|l| parse_game_line(l).unwrap()).collect()
}

#[test]
fn every_documented_game_event_reads_with_its_fields() {
    let lines = game_events();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[2], Line::KeepAlive);
    let events: Vec<&GameEvent> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Event(e) => Some(e),
            _ => None,
        })
        .collect();
    let GameEvent::Snapshot { v, state, history } = events[0] else {
        panic!("{:?}", events[0]);
    };
    assert_eq!(*v, 0);
    assert_eq!(state.active_seat, Seat::White);
    assert!(state.dice_pending && state.legal_moves.is_none() && state.clocks.is_none());
    assert_eq!(state.time_control, Some(ServerTimeControl::Unlimited {}));
    assert_eq!(state.may_offer_draw, Some(true));
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].dice, [2, 3, 6]);
    assert_eq!(history[0].moves, ["b1c3", "g1f3", "e2e4"]);
    assert!(history[1].moves.is_empty(), "a forced pass");
    let GameEvent::DiceRolled {
        seat,
        dice,
        dfen,
        clocks,
        legal_moves,
        ..
    } = events[1]
    else {
        panic!()
    };
    assert_eq!((*seat, dice.as_slice()), (Seat::White, &[2u8, 3, 6][..]));
    assert!(dfen.ends_with(" NBK"));
    assert_eq!(clocks.unwrap().black, 175_000);
    let tree = legal_moves.as_ref().unwrap();
    assert!(tree.has_path(&["b1c3".into(), "g1f3".into(), "e2e4".into()]));
    assert!(!tree.has_path(&["b1c3".into()]));
    assert!(matches!(events[2], GameEvent::TurnPlayed { v: 2, moves, .. } if moves == &["e2e4"]));
    assert!(matches!(
        events[3],
        GameEvent::DrawOffered {
            by: Seat::White,
            ..
        }
    ));
    assert!(matches!(
        events[4],
        GameEvent::DrawDeclined {
            by: Seat::Black,
            ..
        }
    ));
    let GameEvent::GameEnded {
        over, client_seeds, ..
    } = events[5]
    else {
        panic!()
    };
    assert_eq!(over.result, GameResult::Win { side: Side::White });
    assert_eq!(over.termination, Termination::KingCaptured);
    assert_eq!(client_seeds.as_ref().unwrap().white, "f3a1...");
    assert!(
        matches!(events[6], GameEvent::Rejected { reason, .. } if reason == "Move e2e4 is illegal for dice pool")
    );
    // Versions as sent.
    let versions: Vec<u64> = events.iter().map(|e| e.version()).collect();
    assert_eq!(versions, [0, 1, 2, 2, 2, 3, 2]);
}

#[test]
fn every_documented_account_event_reads() {
    let lines: Vec<_> = ACCOUNT
        .lines()
        .map(|l| parse_account_line(l).unwrap())
        .collect();
    assert_eq!(
        lines,
        vec![
            Line::Event(AccountEvent::ChallengeReceived {
                id: "challenge-uuid".into(),
                challenger: Principal::Bot {
                    team: "anon".into(),
                    name: "other-bot".into()
                }
            }),
            Line::Event(AccountEvent::ChallengeDeclined {
                id: "challenge-uuid".into()
            }),
            Line::Event(AccountEvent::GameStart {
                game_id: "game-uuid".into()
            }),
            Line::KeepAlive,
        ]
    );
}

#[test]
fn events_written_back_are_the_documented_lines() {
    // Our types write exactly what the server writes (field names, order, nulls).
    for line in GAME
        .lines()
        .chain(ACCOUNT.lines())
        .filter(|l| !l.is_empty())
    {
        let written = match parse_game_line(line).unwrap() {
            Line::Event(e) => serde_json::to_value(e).unwrap(),
            _ => match parse_account_line(line).unwrap() {
                Line::Event(e) => serde_json::to_value(e).unwrap(),
                other => panic!("{other:?}"),
            },
        };
        let documented: Value = serde_json::from_str(line).unwrap();
        let strip = |mut v: Value| {
            // `mayOfferDrawBy` is not read (the tracker uses `mayOfferDraw`).
            if let Some(s) = v.pointer_mut("/Snapshot/state") {
                s.as_object_mut().unwrap().remove("mayOfferDrawBy");
            }
            v
        };
        assert_eq!(strip(written), strip(documented), "{line}");
    }
}

#[test]
fn the_documented_rest_bodies_read() {
    let rest: Value = serde_json::from_str(REST).unwrap();
    let ch: BotChallenges = serde_json::from_value(rest["challenges"].clone()).unwrap();
    assert_eq!(ch.incoming[0].id, "challenge-7");
    assert!(ch.incoming[0].rated);
    assert_eq!(ch.incoming[0].time_control, ServerTimeControl::Unlimited {});
    let games: Vec<BotActiveGame> = serde_json::from_value(rest["games"]["games"].clone()).unwrap();
    assert_eq!(games[0].version, 17);
    assert_eq!(games[0].seat, Seat::White);
    let applied: MoveOutcome = serde_json::from_value(rest["moveApplied"].clone()).unwrap();
    assert!(applied.applied && applied.version == Some(17));
    let refused: MoveOutcome = serde_json::from_value(rest["moveRefused"].clone()).unwrap();
    assert_eq!(refused.reason.as_deref(), Some("illegal turn"));
    let moves: GameMoves = serde_json::from_value(rest["moves"].clone()).unwrap();
    assert_eq!(moves.legal_moves.first_path(), ["b1c3", "g1f3", "e2e4"]);
    // Our move body is the documented one less the flags we leave at their defaults.
    let body: MoveBody = serde_json::from_value(rest["moveBody"].clone()).unwrap();
    assert_eq!(body.moves, ["e2e4", "g8f6"]);
    let mut doc = rest["moveBody"].clone();
    let written = serde_json::to_value(&body).unwrap();
    for (k, v) in written.as_object().unwrap() {
        assert_eq!(&doc[k], v, "{k}");
    }
    doc.as_object_mut()
        .unwrap()
        .retain(|_, v| v != &Value::Bool(false));
    assert!(doc
        .as_object()
        .unwrap()
        .keys()
        .all(|k| written.get(k).is_some()));
}

fn ev(line: &str) -> GameEvent {
    match parse_game_line(line).unwrap() {
        Line::Event(e) => e,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_tracker_acts_once_per_roll_across_reconnects() {
    let lines: Vec<&str> = GAME.lines().filter(|l| !l.is_empty()).collect();
    // As White: the snapshot shows our roll pending (its tree over the cap: null).
    let mut white = GameTracker::new(Seat::White, None);
    let acts = white.on_event(&ev(lines[0]));
    assert!(
        matches!(
            &acts[..],
            [Action::Play {
                version: 0,
                tree: None,
                ..
            }]
        ),
        "{acts:?}"
    );
    assert_eq!(white.time_control(), Some(ServerTimeControl::Unlimited {}));
    // History is not empty: too late for a seed. The same snapshot after a reconnect: nothing.
    assert!(white.on_event(&ev(lines[0])).is_empty());
    // A new roll is played, once.
    let acts = white.on_event(&ev(lines[1]));
    assert!(matches!(
        &acts[..],
        [Action::Play {
            version: 1,
            tree: Some(_),
            ..
        }]
    ));
    assert!(white.on_event(&ev(lines[1])).is_empty());
    // A turn that never reached the server is played again when the roll shows again.
    white.retry_play(1);
    assert_eq!(white.on_event(&ev(lines[1])).len(), 1);
    // Our own draw offer is not ours to answer; the opponent's decline needs nothing.
    assert!(white.on_event(&ev(lines[3])).is_empty());
    assert!(white.on_event(&ev(lines[4])).is_empty());
    assert_eq!(
        white.on_event(&ev(lines[6])),
        vec![Action::Refused("Move e2e4 is illegal for dice pool".into())]
    );
    let acts = white.on_event(&ev(lines[5]));
    assert!(matches!(&acts[..], [Action::Finished(_)]));
    assert!(white.is_finished());
    assert!(
        white.on_event(&ev(lines[1])).is_empty(),
        "nothing after the end"
    );

    // As Black: White's roll is not ours; White's draw offer is, once.
    let mut black = GameTracker::new(Seat::Black, None);
    assert!(black.on_event(&ev(lines[0])).is_empty());
    assert!(black.on_event(&ev(lines[1])).is_empty());
    black.on_event(&ev(lines[2]));
    let acts = black.on_event(&ev(lines[3]));
    assert!(
        matches!(&acts[..], [Action::AnswerDraw { version: 2, fen }] if fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/")),
        "{acts:?}"
    );
    assert!(black.on_event(&ev(lines[3])).is_empty());
    // White's rejection is not ours.
    assert!(black.on_event(&ev(lines[6])).is_empty());
}

#[test]
fn a_snapshot_before_the_opening_roll_asks_for_the_seed_once() {
    let fresh = r#"{"Snapshot":{"v":0,"state":{"version":0,"dfen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","activeSeat":"White","dicePending":false,"status":{"Active":{}},"timeControl":{"Fischer":{"initialSeconds":180,"incrementSeconds":2}},"clocks":{"white":180000,"black":180000},"commit":"ab","seed":null,"clientSeeds":null,"drawOffer":null,"mayOfferDraw":true,"legalMoves":null},"history":[]}}"#;
    let mut t = GameTracker::new(Seat::Black, None);
    assert_eq!(t.on_event(&ev(fresh)), vec![Action::Seed]);
    assert!(t.on_event(&ev(fresh)).is_empty());
    assert_eq!(
        t.time_control(),
        Some(ServerTimeControl::Fischer {
            initial_seconds: 180,
            increment_seconds: 2
        })
    );
    // An ended game's snapshot (a reconnect after the end) finishes the tracker.
    let ended = fresh.replace(
        r#""status":{"Active":{}}"#,
        r#""status":{"Ended":{"over":{"result":{"Draw":{}},"termination":"Draw"}}}"#,
    );
    let mut t = GameTracker::new(Seat::White, None);
    assert!(
        matches!(&t.on_event(&ev(&ended))[..], [Action::Finished(o)] if o.result == GameResult::Draw {})
    );
}
