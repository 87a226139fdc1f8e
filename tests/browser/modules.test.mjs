// The shape of the client's modules: dependencies go one way, pages → components → helpers.
// The import lines of web/js (static, re-exports and dynamic `import()`) are read as text, so a
// cycle fails here before a browser would load it half-initialised.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const jsDir = resolve(here, '..', '..', 'web', 'js');

/** Every .js file under web/js, as paths relative to it. @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return jsFiles(path);
    return e.name.endsWith('.js') || e.name.endsWith('.mjs') ? [relative(jsDir, path)] : [];
  });
}

/**
 * The modules a source imports (relative specifiers only), resolved against its folder.
 * Comments are dropped first: JSDoc's `import('./x.js').Type` is a type, not a dependency.
 * @param {string} file @param {string} source
 */
export function importsOf(file, source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const specs = [
    ...code.matchAll(/^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return [...new Set(specs.filter((s) => s.startsWith('.')).map((s) => relative(jsDir, resolve(jsDir, dirname(file), s))))];
}

/**
 * A dependency cycle of the graph, as a path that comes back to its start, or null.
 * @param {Map<string, string[]>} graph
 * @returns {string[] | null}
 */
export function findCycle(graph) {
  /** @type {Map<string, 'open' | 'done'>} */
  const state = new Map();
  /** @type {string[]} */
  const stack = [];
  /** @param {string} node @returns {string[] | null} */
  const visit = (node) => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) || []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const files = jsFiles(jsDir);
const sources = new Map(files.map((f) => [f, readFileSync(join(jsDir, f), 'utf8')]));
const graph = new Map(files.map((f) => [f, importsOf(f, /** @type {string} */ (sources.get(f)))]));

test('modules: the import reader sees static, re-exported and dynamic imports, not JSDoc types', () => {
  const src = [
    "import { a } from './a.js';",
    'import {',
    '  b,',
    "} from './b.js';",
    "export { c } from './sub/c.js';",
    "import './d.js';",
    "const e = await import('./e.js');",
    "/** @type {import('./types.js').T} */",
    "// import { f } from './f.js';",
    "import { g } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(importsOf('x.js', src).sort(), ['a.js', 'b.js', 'd.js', 'e.js', 'sub/c.js']);
  assert.deepEqual(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]])), ['a', 'b', 'c', 'a']);
  assert.equal(findCycle(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), null);
});

test('modules: every import of web/js names a file that exists', () => {
  for (const [file, deps] of graph) {
    for (const dep of deps) assert.ok(sources.has(dep), `${file} imports ${dep}, which is not in web/js`);
  }
});

test('modules: web/js has no import cycle', () => {
  const cycle = findCycle(graph);
  assert.equal(cycle, null, `import cycle: ${cycle && cycle.join(' → ')}`);
});

/**
 * The parts of web/js, lowest first: a module may import modules of its own folder and of the
 * parts below its own, never above or beside. Helpers are the files at the root
 * (but the entry), `shared/` and `vendor/`; `board/` draws and narrates a game; `learn/` and
 * `review/` build on the board; `puzzles/` on the lessons' trainer, `play/` on the review's
 * marks, `lobby/` on both helpers and the board, `circle/` (a circle of friends' page) likewise;
 * `pages/` are the routes; `app.js` routes.
 */
export const LAYERS = [
  ['helpers', ['', 'shared', 'vendor']],
  ['board', ['board']],
  ['learn, review', ['learn', 'review']],
  ['puzzles, play, lobby, circle', ['puzzles', 'play', 'lobby', 'circle']],
  ['pages', ['pages']],
  ['entry', ['app.js']],
];

/** The rank of a module in LAYERS. @param {string} file */
export function rankOf(file) {
  const folder = file === 'app.js' ? 'app.js' : file.includes('/') ? file.split('/')[0] : '';
  const rank = LAYERS.findIndex(([, folders]) => folders.includes(folder));
  assert.ok(rank >= 0, `${file}: its folder ${folder || '(root)'} has no place in LAYERS`);
  return rank;
}

/** The folder part of a module's path ('' at the root). @param {string} file */
const folderOf = (file) => (file.includes('/') ? file.split('/')[0] : '');

test('modules: web/js keeps at most 12 files at its root, the rest in folders by part', () => {
  const root = files.filter((f) => !f.includes('/'));
  assert.ok(root.length <= 12, `${root.length} files at the root of web/js: ${root.join(', ')}`);
  for (const f of files) rankOf(f);
});

test('modules: pages → parts → board → helpers; a part imports no part beside or above it', () => {
  const wrong = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      const sameFolder = folderOf(file) === folderOf(dep) && file !== 'app.js' && dep !== 'app.js';
      // Helpers may use one another (the cycle test above keeps them acyclic).
      if (sameFolder || (rankOf(file) === 0 && rankOf(dep) === 0)) continue;
      if (rankOf(dep) >= rankOf(file)) wrong.push(`${file} → ${dep}`);
    }
  }
  assert.deepEqual(wrong, [], `imports against the layers:\n${wrong.join('\n')}`);
});

test('modules: only the entry module imports pages; nothing imports the entry', () => {
  // A page is a module the router mounts: it exports `mount`; every page lives in pages/.
  const pages = files.filter((f) => /^export function mount\b/m.test(/** @type {string} */ (sources.get(f))));
  assert.ok(pages.includes('pages/lobby.js') && pages.includes('pages/game.js'), `pages found: ${pages}`);
  for (const page of pages) assert.ok(page.startsWith('pages/'), `${page} mounts a route: move it into pages/`);
  for (const [file, deps] of graph) {
    assert.ok(!deps.includes('app.js'), `${file} imports the entry module app.js`);
    if (file === 'app.js') continue;
    for (const dep of deps) assert.ok(!pages.includes(dep), `${file} imports the page ${dep}: move what they share into a helper module`);
  }
});
