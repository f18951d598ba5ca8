//! Load and soak test of `dicechess serve` on loopback: N concurrent games against one bot
//! for a bounded time, every answer checked against the rules.
//!
//! ```text
//! cargo bench --bench serve_load                                   # 8 games, 30 s, best
//! cargo bench --bench serve_load -- --games 8 --seconds 600        # the 10-minute soak
//! cargo bench --bench serve_load -- --bot best --max-think-ms 1500 --json load.json
//! ```
//!
//! It starts the release binary (`dicechess serve --bot B --max-think-ms T` on a free port),
//! plays `--games` games at once, each on its own thread: the bot plays both seats, one
//! signed `yourTurn` per turn in the play server's shape (Fischer 120+1, both clocks starting
//! at 60 s by default, the tree inline up to 1,000 paths as the server does), the answer's turn played
//! on the client's own board after `parse_uci_path` and `play_turn` accept it, the latency
//! taken off that seat's clock. A game ends on a king capture, the half-move limit, a flag
//! fall (the clock reaching 0: a time forfeit) or an error answer, and the next game starts.
//! Every 5 s it samples the server's RSS and open descriptors from `/proc`. After
//! `--seconds` it starts no new delivery, waits for those in flight, stops the server with
//! SIGTERM and prints one table.
//!
//! Latency is measured against each delivery's own think budget, computed here from the
//! seat's clock as the server's time manager does (`empirical-v1`, less the 300 ms
//! overhead, at most `--max-think-ms`), and against the clock itself.
//!
//! It asserts before it reports: the run fails (exit 1) on an illegal answer, a connection
//! reset, a time forfeit or any answer other than 200 — the goals of docs/webhook.md "Load".
#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench fails by panicking

use dicechess::board::{Dice, Position};
use dicechess::rules::{legal_paths, parse_uci_path, play_turn, TurnTree};
use dicechess::search::{budget_ms, ClockState, TimePolicy};
use hmac::{Hmac, Mac};
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::{json, Value};
use sha2::Sha256;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const SECRET: &str = "load-test-secret";
const OVERHEAD_MS: u64 = 300;

/// The run's settings (flags after `--`).
#[derive(Clone, Debug)]
struct Settings {
    games: usize,
    seconds: u64,
    bot: String,
    max_think_ms: u64,
    clock_s: u64,
    increment_s: u64,
    seed: u64,
    json: Option<String>,
    extra: Vec<String>,
}

impl Settings {
    fn parse() -> Settings {
        let mut s = Settings {
            games: 8,
            seconds: 30,
            bot: "best".into(),
            max_think_ms: 1500,
            clock_s: 60,
            increment_s: 1,
            seed: 1,
            json: None,
            extra: Vec::new(),
        };
        let mut args = std::env::args().skip(1);
        while let Some(a) = args.next() {
            let mut value = |name: &str| {
                args.next()
                    .unwrap_or_else(|| panic!("{name} needs a value"))
            };
            match a.as_str() {
                "--games" => s.games = value("--games").parse().expect("--games: a count"),
                "--seconds" => s.seconds = value("--seconds").parse().expect("--seconds"),
                "--bot" => s.bot = value("--bot"),
                "--max-think-ms" => {
                    s.max_think_ms = value("--max-think-ms").parse().expect("--max-think-ms")
                }
                "--clock-s" => s.clock_s = value("--clock-s").parse().expect("--clock-s"),
                "--increment-s" => {
                    s.increment_s = value("--increment-s").parse().expect("--increment-s")
                }
                "--seed" => s.seed = value("--seed").parse().expect("--seed"),
                "--json" => s.json = Some(value("--json")),
                // Passed through to `serve` (e.g. --max-queue 4).
                "--serve-arg" => s.extra.push(value("--serve-arg")),
                // cargo bench passes --bench; criterion-style filters are not used here.
                _ => {}
            }
        }
        assert!(
            s.games > 0 && s.seconds > 0,
            "--games and --seconds must be > 0"
        );
        s
    }
}

/// What one delivery came to.
#[derive(Clone, Debug)]
struct Outcome {
    status: Option<u16>,
    latency_ms: f64,
    budget_ms: u64,
    clock_ms: u64,
    legal: bool,
}

/// Everything the games record, shared.
#[derive(Default)]
struct Tally {
    outcomes: Vec<Outcome>,
    games_started: usize,
    games_finished: usize,
    forfeits: usize,
    errors: Vec<String>,
}

/// A resource sample of the server process.
#[derive(Clone, Copy, Debug)]
struct Sample {
    t_s: f64,
    rss_kib: u64,
    fds: usize,
}

fn hmac_hex(key: &[u8], msg: &[&[u8]]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length");
    for m in msg {
        mac.update(m);
    }
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One signed POST on a fresh connection (as the play server makes each delivery):
/// `Err` for a connection error or reset, else the status and body.
fn post(addr: SocketAddr, body: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
        .to_string();
    let sig = hmac_hex(SECRET.as_bytes(), &[ts.as_bytes(), b".", body]);
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(130)))?;
    let head = format!(
        "POST /api/webhook HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\nX-DiceChess-Timestamp: {ts}\r\n\
         X-DiceChess-Signature: {sig}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no HTTP head in the answer"))?;
    let status = String::from_utf8_lossy(&raw[..split])
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status in the answer"))?;
    Ok((status, raw[split + 4..].to_vec()))
}

fn seat(pos: &Position) -> &'static str {
    match pos.side_to_move() {
        dicechess_kernels::Color::White => "White",
        dicechess_kernels::Color::Black => "Black",
    }
}

/// A `yourTurn` as the play server builds it.
fn your_turn(game: &str, version: u64, rolled: &Position, clocks: [u64; 2], s: &Settings) -> Value {
    let tree = if legal_paths(rolled).len() <= 1000 {
        TurnTree::new(rolled).to_json()
    } else {
        Value::Null
    };
    json!({
        "type": "yourTurn",
        "gameId": game,
        "seat": seat(rolled),
        "state": {
            "version": version,
            "dfen": rolled.to_dfen(),
            "activeSeat": seat(rolled),
            "dicePending": true,
            "status": {"Active": {}},
            "timeControl": {"Fischer": {"initialSeconds": 120, "incrementSeconds": s.increment_s}},
            "clocks": {"white": clocks[0], "black": clocks[1]},
            "commit": "00",
            "seed": null,
            "clientSeeds": null,
            "legalMoves": tree,
            "players": null,
            "rated": false,
            "drawOffer": null,
            "mayOfferDraw": false,
        },
    })
}

/// The server's think budget for this delivery, computed independently of its code.
fn expected_budget(remaining_ms: u64, pos: &Position, s: &Settings) -> u64 {
    let clock = ClockState {
        remaining_ms,
        increment_ms: s.increment_s * 1000,
        move_number: pos.fullmove(),
        moves_to_go: None,
    };
    budget_ms(&clock, TimePolicy::EmpiricalV1, OVERHEAD_MS).min(s.max_think_ms)
}

/// Whether `body` answers a legal turn of `rolled`; the position after it.
fn played(rolled: &Position, body: &[u8]) -> Option<(Position, bool)> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let moves: Vec<&str> = v["moves"]
        .as_array()?
        .iter()
        .map(|m| m.as_str())
        .collect::<Option<_>>()?;
    let turn = parse_uci_path(rolled, &moves.join(",")).ok()?;
    let next = play_turn(rolled, &turn).ok()?;
    let king = legal_paths(rolled)
        .iter()
        .any(|p| p.captures_king() && *p.moves() == *turn);
    Some((next, king))
}

/// Play games one after another until `stop`, recording every delivery.
fn games_loop(
    worker: usize,
    addr: SocketAddr,
    s: Settings,
    stop: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(s.seed * 1000 + worker as u64);
    let mut game_no = 0;
    while !stop.load(Ordering::Relaxed) {
        game_no += 1;
        let game = format!("load-{}-{worker}-{game_no}", s.seed);
        tally.lock().unwrap().games_started += 1;
        let mut pos = Position::startpos();
        let mut clocks = [s.clock_s * 1000; 2];
        let mut version = 0;
        let ended = loop {
            if stop.load(Ordering::Relaxed) {
                break false;
            }
            let faces: Vec<u8> = (0..3).map(|_| (rng.next_u64() % 6) as u8 + 1).collect();
            let rolled = pos.with_dice(Dice::from_faces(&faces).expect("three faces"));
            let side = usize::from(seat(&rolled) == "Black");
            let budget = expected_budget(clocks[side], &rolled, &s);
            let body =
                serde_json::to_vec(&your_turn(&game, version, &rolled, clocks, &s)).expect("JSON");
            version += 1;
            let t0 = Instant::now();
            let answer = post(addr, &body);
            let latency = t0.elapsed();
            let latency_ms = latency.as_secs_f64() * 1e3;
            let clock_ms = clocks[side];
            let mut record = Outcome {
                status: None,
                latency_ms,
                budget_ms: budget,
                clock_ms,
                legal: false,
            };
            let (status, raw) = match answer {
                Ok(x) => x,
                Err(e) => {
                    let mut t = tally.lock().unwrap();
                    t.errors.push(format!("{game} v{version}: {e}"));
                    t.outcomes.push(record);
                    break true;
                }
            };
            record.status = Some(status);
            let next = (status == 200).then(|| played(&rolled, &raw)).flatten();
            record.legal = next.is_some();
            let mut t = tally.lock().unwrap();
            t.outcomes.push(record);
            let Some((next, king)) = next else {
                if status == 200 {
                    t.errors.push(format!(
                        "{game}: illegal answer {} at {}",
                        String::from_utf8_lossy(&raw),
                        rolled.to_dfen()
                    ));
                }
                break true;
            };
            let spent = latency.as_millis() as u64;
            if spent >= clock_ms {
                t.forfeits += 1;
                break true;
            }
            clocks[side] = clock_ms - spent + s.increment_s * 1000;
            drop(t);
            pos = next;
            if king || pos.halfmove() >= 100 {
                break true;
            }
        };
        if ended {
            tally.lock().unwrap().games_finished += 1;
        }
    }
}

/// RSS (KiB) and open descriptors of `pid`, from /proc.
fn sample(pid: u32) -> (u64, usize) {
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0);
    (rss, fds)
}

/// Start `dicechess serve` on a free loopback port; its address once it listens.
fn start_server(s: &Settings) -> (Child, SocketAddr) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dicechess"));
    cmd.args([
        "serve",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--bot",
        &s.bot,
    ])
    .args(["--max-think-ms", &s.max_think_ms.to_string()])
    .args(&s.extra)
    .env("DICECHESS_WEBHOOK_SECRET", SECRET)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start dicechess serve");
    let stderr = child.stderr.take().expect("piped stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stderr).lines();
        let mut sent = false;
        for line in lines.by_ref().map_while(Result::ok) {
            if !sent {
                if let Ok(v) = serde_json::from_str::<Value>(&line) {
                    if v["event"] == "listening" {
                        let addr: SocketAddr = v["addr"].as_str().unwrap().parse().unwrap();
                        let _ = tx.send(addr);
                        sent = true;
                        continue;
                    }
                }
            }
            // One JSON line per request: count the degraded answers.
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                if let Some(f) = v["fallback"].as_str() {
                    FALLBACKS
                        .lock()
                        .unwrap()
                        .entry(f.to_owned())
                        .and_modify(|n| *n += 1)
                        .or_insert(1);
                }
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server never said it listens");
    (child, addr)
}

/// The server's degraded answers by reason (its log's `fallback` field).
static FALLBACKS: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

fn pct(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let s = Settings::parse();
    let (mut child, addr) = start_server(&s);
    let pid = child.id();
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let t0 = Instant::now();
    let workers: Vec<_> = (0..s.games)
        .map(|w| {
            let (s, stop, tally) = (s.clone(), stop.clone(), tally.clone());
            std::thread::spawn(move || games_loop(w, addr, s, stop, tally))
        })
        .collect();
    let mut samples = vec![{
        let (rss_kib, fds) = sample(pid);
        Sample {
            t_s: 0.0,
            rss_kib,
            fds,
        }
    }];
    while t0.elapsed() < Duration::from_secs(s.seconds) {
        std::thread::sleep(Duration::from_secs(5).min(Duration::from_secs(s.seconds)));
        let (rss_kib, fds) = sample(pid);
        samples.push(Sample {
            t_s: t0.elapsed().as_secs_f64(),
            rss_kib,
            fds,
        });
        eprint!(
            "\r{:>5.0} s  {} deliveries  RSS {} MiB  fds {}   ",
            t0.elapsed().as_secs_f64(),
            tally.lock().unwrap().outcomes.len(),
            rss_kib / 1024,
            fds
        );
    }
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().expect("a game thread panicked");
    }
    let wall = t0.elapsed().as_secs_f64();
    // SIGTERM (through `kill`, no libc binding needed), then wait for the drain.
    let _ = Command::new("kill").arg(pid.to_string()).status();
    let _ = child.wait();
    eprintln!();

    let t = tally.lock().unwrap();
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    for o in &t.outcomes {
        let k = o.status.map_or("reset".to_owned(), |c| c.to_string());
        *by_status.entry(k).or_default() += 1;
    }
    let ok: Vec<&Outcome> = t
        .outcomes
        .iter()
        .filter(|o| o.status == Some(200))
        .collect();
    let illegal = ok.iter().filter(|o| !o.legal).count();
    let mut lat: Vec<f64> = ok.iter().map(|o| o.latency_ms).collect();
    lat.sort_by(f64::total_cmp);
    let mut over: Vec<f64> = ok
        .iter()
        .map(|o| o.latency_ms - o.budget_ms as f64)
        .collect();
    over.sort_by(f64::total_cmp);
    let over_clock = t
        .outcomes
        .iter()
        .filter(|o| o.latency_ms >= o.clock_ms as f64)
        .count();
    let resets = by_status.get("reset").copied().unwrap_or(0);
    let not_200 = t
        .outcomes
        .iter()
        .filter(|o| o.status.is_some_and(|c| c != 200))
        .count();
    let rss_first = samples.first().map_or(0, |x| x.rss_kib);
    let rss_max = samples.iter().map(|x| x.rss_kib).max().unwrap_or(0);
    // Flatness over the soak: the last third's mean against the middle third's.
    let third = samples.len() / 3;
    let mean =
        |xs: &[Sample]| xs.iter().map(|x| x.rss_kib as f64).sum::<f64>() / xs.len().max(1) as f64;
    let (mid, last) = if third > 0 {
        (
            mean(&samples[third..2 * third]),
            mean(&samples[2 * third..]),
        )
    } else {
        (
            rss_first as f64,
            samples.last().map_or(0, |x| x.rss_kib) as f64,
        )
    };
    let fds_max = samples.iter().map(|x| x.fds).max().unwrap_or(0);
    let fallbacks = FALLBACKS.lock().unwrap().clone();

    println!(
        "serve_load: {} games at once against `{}` (--max-think-ms {}, Fischer 120+{} clocks at {} s), {:.0} s",
        s.games, s.bot, s.max_think_ms, s.increment_s, s.clock_s, wall
    );
    println!("| deliveries | by status | illegal | resets | forfeits | latency p50 / p99 / max | latency − budget p50 / p99 / max | RSS start → max (mid → last third) | fds max |");
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {} | {} | {:.0} / {:.0} / {:.0} ms | {:+.0} / {:+.0} / {:+.0} ms | {:.0} → {:.0} MiB ({:.1} → {:.1}) | {} |",
        t.outcomes.len(),
        by_status
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        illegal,
        resets,
        t.forfeits,
        pct(&lat, 0.5),
        pct(&lat, 0.99),
        lat.last().copied().unwrap_or(f64::NAN),
        pct(&over, 0.5),
        pct(&over, 0.99),
        over.last().copied().unwrap_or(f64::NAN),
        rss_first as f64 / 1024.0,
        rss_max as f64 / 1024.0,
        mid / 1024.0,
        last / 1024.0,
        fds_max,
    );
    println!(
        "games started {}, finished {}; answers past the seat's clock {}; degraded answers (server log): {:?}",
        t.games_started, t.games_finished, over_clock, fallbacks
    );
    for e in t.errors.iter().take(10) {
        println!("error: {e}");
    }
    if let Some(path) = &s.json {
        let report = json!({
            "games": s.games, "seconds": wall, "bot": s.bot, "max_think_ms": s.max_think_ms,
            "clock_s": s.clock_s, "increment_s": s.increment_s,
            "deliveries": t.outcomes.len(), "by_status": by_status, "illegal": illegal,
            "resets": resets, "forfeits": t.forfeits,
            "latency_ms": {"p50": pct(&lat, 0.5), "p99": pct(&lat, 0.99), "max": lat.last()},
            "over_budget_ms": {"p50": pct(&over, 0.5), "p99": pct(&over, 0.99), "max": over.last()},
            "fallbacks": fallbacks,
            "samples": samples.iter().map(|x| json!({"t_s": x.t_s, "rss_kib": x.rss_kib, "fds": x.fds})).collect::<Vec<_>>(),
        });
        let tmp = format!("{path}.tmp");
        std::fs::write(&tmp, serde_json::to_vec_pretty(&report).unwrap()).unwrap();
        std::fs::rename(&tmp, path).unwrap();
    }
    let failed = illegal + resets + t.forfeits + not_200 + t.errors.len();
    assert!(
        failed == 0,
        "the load goals were missed: {illegal} illegal, {resets} resets, {} forfeits, {not_200} answers other than 200, {} errors",
        t.forfeits,
        t.errors.len()
    );
}
