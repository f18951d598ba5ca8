// Shared by the Node tests: the package (loaded with `require`, as CommonJS users do) and the
// conformance vectors of tests/data, the same files the native tests read.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const root = path.resolve(here, '..', '..');
/** The package, through `require('web/pkg')`. */
export const engine = createRequire(import.meta.url)(path.join(root, 'web', 'pkg'));

/** A file of tests/data, parsed. */
export function vectors(name) {
  return JSON.parse(readFileSync(path.join(root, 'tests', 'data', name), 'utf8'));
}
