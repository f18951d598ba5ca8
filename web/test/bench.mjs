// The turn-enumeration budget: Kiwipete rolled PNB (6,282 paths), timed as
// `cargo bench --bench turns` times turns/kiwipete/PNB natively (a reused generator, no
// strings). Prints the median of many timed batches, and the same for getLegalTurns
// (paths as JS arrays of UCI strings). `node web/test/bench.mjs`.
import { engine } from './load.mjs';

const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 PNB';

function median(f, batch, rounds) {
  for (let i = 0; i < batch * 3; i++) f(); // warm up (tier-up of the wasm code)
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) f();
    times.push(Number(process.hrtime.bigint() - t0) / 1e3 / batch);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const n = engine.countLegalTurns(KIWIPETE);
if (n !== 6282) throw new Error(`Kiwipete PNB: ${n} paths, expected 6282`);
const count = median(() => engine.countLegalTurns(KIWIPETE), 20, 30);
const arrays = median(() => engine.getLegalTurns(KIWIPETE), 5, 15);
console.log(JSON.stringify({ position: 'kiwipete PNB', paths: n, countLegalTurnsUs: +count.toFixed(1), getLegalTurnsUs: +arrays.toFixed(1), node: process.version }));
