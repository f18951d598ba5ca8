// The bot's thinking, off the page's thread: { id, dfen, algorithm, timeBudgetMs, seed } in,
// { id, result } or { id, error } out.
import init, { getBestMove } from '../pkg/web/dicechess_web.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, dfen, algorithm, timeBudgetMs, seed } = event.data;
  try {
    await ready;
    const result = getBestMove(dfen, { algorithm, timeBudgetMs, seed });
    self.postMessage({ id, result });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
