// The browser entry (index.js): the ES module build, already initialised.
export * from './BUILD.js';
export { default } from './BUILD.js';
