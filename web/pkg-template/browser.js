// The browser entry of this build (package.json's "browser" condition): the ES module build
// with its .wasm fetched and instantiated before this module finishes loading (top-level
// await), so that `import { DiceChess } from '…'` is ready to call, as the JVM build's
// package is. The default export is the build's `init` (already called; calling it again
// does nothing). web/build.sh copies this file next to each ES module build as index.js.
import init from './BUILD.js';

await init();

export * from './BUILD.js';
export { default } from './BUILD.js';
