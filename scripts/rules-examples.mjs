// Fills in the rules page's diagrams (web/data/rules-examples.json) with the `djambi` command, so
// that the page (web/js/pages/rules.js) shows what the rules engine says and implements no rule itself.
//
//   cargo build --release -p djambi-cli && node scripts/rules-examples.mjs
//
// Each figure of the file gives, by hand: `position` (DPN), `selected` (a square, or none),
// `show` (which squares to mark, below) and `steps` (the example's turns, `{"turn": TEXT}`).
// This script writes the rest from `djambi legal` and `djambi play`:
// - `options` and `victims`, the marks, by `show`:
//   `moves`    the squares the selected piece may end its move on (an enemy's square: a kill);
//   `reporter` the same, and the victims the Reporter may kill once there;
//   `exits`    the squares the selected piece may leave the maze to, after killing on it, and the
//              maze as the victim;
//   `turn`     the first step's squares: its destination, and its victim if any;
//   `none`     no marks;
// - each step's `position`, the DPN after its turn (a turn that is not legal stops the script).
// The djambi command is target/release/djambi unless DJAMBI_BIN names another.
// crates/djambi-cli/tests/rules_examples.rs checks the file against the core.

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'web', 'data', 'rules-examples.json');
const bin = process.env.DJAMBI_BIN || join(root, 'target', 'release', 'djambi');
const TURN = /^([a-i][1-9])-([a-i][1-9])(?:x([a-i][1-9]))?(?:>([a-i][1-9]))?(?:@([a-i][1-9]))?$/;

/** @param {string[]} args */
const djambi = (args) => execFileSync(bin, args, { encoding: 'utf8' }).trim();

/** @param {Iterable<string | undefined>} squares */
const sorted = (squares) => [...new Set([...squares].filter((s) => typeof s === 'string'))].sort();

/**
 * The marks of a figure, from the legal turns of its position.
 * @param {any} fig
 * @returns {{options: string[], victims: string[]}}
 */
function marks(fig) {
  if (fig.show === 'none') return { options: [], victims: [] };
  const legal = djambi(['legal', '--position', fig.position]).split('\n').map((t) => TURN.exec(t)).filter((m) => m !== null);
  if (fig.show === 'turn') {
    const m = TURN.exec(fig.steps[0].turn);
    if (!m) throw new Error(`${fig.steps[0].turn}: not a move`);
    return { options: [m[2]], victims: sorted([m[3]]) };
  }
  const mine = legal.filter((m) => m[1] === fig.selected);
  if (!mine.length) throw new Error(`${fig.selected}: no legal turn from this square`);
  if (fig.show === 'moves') return { options: sorted(mine.map((m) => m[2])), victims: [] };
  if (fig.show === 'reporter') return { options: sorted(mine.map((m) => m[2])), victims: sorted(mine.map((m) => m[3])) };
  if (fig.show === 'exits') {
    const through = mine.filter((m) => m[4]);
    return { options: sorted(through.map((m) => m[4])), victims: sorted(through.map((m) => m[2])) };
  }
  throw new Error(`show: ${fig.show}?`);
}

/** JSON with each list of squares kept on one line. @param {any} data */
function format(data) {
  return `${JSON.stringify(data, null, 2).replace(/\[\s+("[a-i][1-9]"(?:,\s+"[a-i][1-9]")*)\s+\]/g, (_, list) => `[${list.replace(/,\s+/g, ', ')}]`)}\n`;
}

const data = JSON.parse(readFileSync(file, 'utf8'));
for (const [name, fig] of Object.entries(data.figures)) {
  Object.assign(fig, marks(fig));
  let position = fig.position;
  for (const step of fig.steps) {
    try {
      position = djambi(['play', '--position', position, step.turn]);
    } catch (e) {
      throw new Error(`${name}: ${step.turn} is not legal in ${position}`, { cause: e });
    }
    step.position = position;
  }
  console.log(`${name}: ${fig.options.length} marked squares, ${fig.steps.length} steps`);
}
writeFileSync(file, format(data));
