// The engine's long work, off the page's thread. In: { id, kind, ... } with kind
//   "bestmove": { dfen, algorithm, timeBudgetMs, seed } (the bot's turn; the default kind),
//   "hint":     { dfen, options } (hint: the best turns of a roll, both kings' danger),
//   "analyze":  { game, options } (analyzeGame: every turn of a finished game).
// Out: { id, result }, { id, error, field } or, while an analysis runs, { id, progress: [done, total] }.
import init, { getBestMove, hint, analyzeGame } from '../pkg/web/dicechess_web.js';

const ready = init();

function work(id, data) {
  switch (data.kind || 'bestmove') {
    case 'bestmove': {
      const { dfen, algorithm, timeBudgetMs, seed } = data;
      return getBestMove(dfen, { algorithm, timeBudgetMs, seed });
    }
    case 'hint':
      return hint(data.dfen, data.options);
    case 'analyze':
      return analyzeGame(data.game, {
        ...data.options,
        onProgress: (done, total) => self.postMessage({ id, progress: [done, total] }),
      });
    default:
      throw new Error(`kind: unknown request ${JSON.stringify(data.kind)}`);
  }
}

self.onmessage = async (event) => {
  const { id } = event.data;
  try {
    await ready;
    self.postMessage({ id, result: work(id, event.data) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err), field: err && err.field });
  }
};
