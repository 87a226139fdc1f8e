// Load generator for the boardgame.io peer benchmark, in the shape of
// crates/djambi-server/examples/loadgen: G matches live at once, 4 player sockets each plus S
// spectator sockets; each player sends its move as soon as it is its turn and waits to see the
// state that move produced; when a match ends its slot creates the next one, until the
// deadline. Speaks boardgame.io's socket.io protocol with plain socket.io-client (what
// boardgame.io's SocketIO transport sends and receives, without the client's own reducer).
//
//   node load.mjs [--url http://127.0.0.1:18090] [--games 100] [--spectators 1]
//                 [--seconds 30] [--moves 100] [--seed 1] [--server-pid PID]
//                 [--count-db postgres://…]
//
// Matches last a random number of moves, uniform in [moves/2, 3·moves/2] (mean --moves), so
// that, as with Djambi's random games, they end at different times rather than in lockstep.
//
// Prints one summary line, then the same figures as one line of JSON. Loopback targets only.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import pg from 'pg';
import { io } from 'socket.io-client';

const args = parseArgs(process.argv.slice(2));
const url = (args.url ?? 'http://127.0.0.1:18090').replace(/\/$/, '');
const games = Number(args.games ?? 100);
const spectators = Number(args.spectators ?? 1);
const seconds = Number(args.seconds ?? 30);
const movesPerMatch = Number(args.moves ?? 100);
const seed = Number(args.seed ?? 1);
const serverPid = args['server-pid'] ? Number(args['server-pid']) : undefined;
const countDb = args['count-db'];
const GAME = 'bench';

const host = new URL(url).hostname;
if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
  throw new Error('load.mjs only targets loopback addresses');
}
if (countDb && !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(countDb).hostname)) {
  throw new Error('--count-db must be a loopback Postgres');
}

const socketOpts = { transports: ['websocket'], forceNew: true, reconnection: false };

const stats = {
  moves: 0, // moves whose resulting state the mover saw
  finished: 0, // matches that ended (gameover seen by a player)
  matches: 0, // matches created
  latencies: [], // ms, move sent -> the mover sees the state it produced
  spectatorBytes: 0, // WebSocket payload bytes of 'update' messages to spectators
  spectatorEvents: 0,
  playerBytes: 0, // the same, to players
  playerEvents: 0,
  lobbyErrors: 0,
};

async function api(path, body) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

// A match through the lobby API: create it, then join its four seats one after the other
// (the lobby reads and writes the match metadata per join, so concurrent joins would race).
async function createMatch(rng) {
  const lo = Math.ceil(movesPerMatch / 2);
  const moves = lo + Math.floor(rng() * (2 * movesPerMatch - 2 * lo + 1));
  const { matchID } = await api(`/games/${GAME}/create`, {
    numPlayers: 4,
    setupData: { moves },
  });
  const players = [];
  for (let i = 0; i < 4; i++) {
    const { playerID, playerCredentials } = await api(`/games/${GAME}/${matchID}/join`, {
      playerID: String(i),
      playerName: `Load ${i}`,
    });
    players.push({ playerID, credentials: playerCredentials });
  }
  stats.matches += 1;
  return { matchID, players };
}

// Counts the WebSocket payload bytes of the 'update' messages a socket receives (the
// engine.io packet type, one byte, plus the socket.io packet).
function countUpdates(socket, spectator) {
  const prefix = `2/${GAME},["update"`;
  socket.io.on('open', () => {
    socket.io.engine.on('data', (data) => {
      if (typeof data === 'string' && data.startsWith(prefix)) {
        const bytes = Buffer.byteLength(data) + 1;
        if (spectator) {
          stats.spectatorBytes += bytes;
          stats.spectatorEvents += 1;
        } else {
          stats.playerBytes += bytes;
          stats.playerEvents += 1;
        }
      }
    });
  });
}

function play(matchID, { playerID, credentials }, deadline) {
  return new Promise((resolve) => {
    const socket = io(`${url}/${GAME}`, socketOpts);
    countUpdates(socket, false);
    let state = null;
    let pending = null;
    let done = false;
    const latencies = [];
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      for (const l of latencies) stats.latencies.push(l);
      resolve();
    };
    const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
    const maybeMove = () => {
      if (done || pending || !state || state.ctx.currentPlayer !== playerID) return;
      if (Date.now() >= deadline) return finish();
      // What boardgame.io's client sends for moves.inc(): makeMove + the state it acted on.
      const action = { type: 'MAKE_MOVE', payload: { type: 'inc', args: [], playerID, credentials } };
      pending = { stateID: state._stateID, sent: performance.now() };
      socket.emit('update', action, state._stateID, matchID, playerID);
    };
    const onState = (s) => {
      if (!s || (state && s._stateID <= state._stateID)) return;
      state = s;
      // Only the player to move can move, so a newer state after ours is our move's.
      if (pending && s._stateID > pending.stateID) {
        latencies.push(performance.now() - pending.sent);
        stats.moves += 1;
        pending = null;
      }
      if (s.ctx.gameover !== undefined) {
        if (playerID === '0') stats.finished += 1;
        return finish();
      }
      maybeMove();
    };
    socket.on('connect', () => socket.emit('sync', matchID, playerID, credentials, 4));
    socket.on('sync', (_id, info) => onState(info?.state));
    socket.on('update', (_id, s) => onState(s));
    socket.on('connect_error', finish);
    socket.on('disconnect', finish);
  });
}

// A spectator: a socket without a player, counting the bytes of each update.
function watch(matchID) {
  const socket = io(`${url}/${GAME}`, socketOpts);
  countUpdates(socket, true);
  socket.on('connect', () => socket.emit('sync', matchID, null, null, 4));
  return () => socket.close();
}

// mulberry32: a small seeded generator, one per slot.
function rngFor(n) {
  let a = n >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function runSlot(slot, deadline) {
  const rng = rngFor(seed * 1_000_003 + slot);
  while (Date.now() < deadline) {
    let match;
    try {
      match = await createMatch(rng);
    } catch (e) {
      stats.lobbyErrors += 1;
      if (stats.lobbyErrors <= 3) console.error(`lobby: ${e.message}`);
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const closers = [];
    for (let s = 0; s < spectators; s++) closers.push(watch(match.matchID));
    await Promise.all(match.players.map((p) => play(match.matchID, p, deadline)));
    for (const close of closers) close();
  }
}

async function serverStats() {
  const res = await fetch(`${url}/bench/stats`);
  return res.json();
}

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

// Busy ticks of the whole machine (all cores): everything but idle and iowait.
function machineBusyTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return f.reduce((a, b) => a + b, 0) - f[3] - f[4] - (f[8] ?? 0) - (f[9] ?? 0); // minus guest (in user)
}

function statusKiB(pid, key) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}:`));
  return line ? Number(line.split(/\s+/)[1]) : 0;
}

async function dbMoves() {
  if (!countDb) return undefined;
  const client = new pg.Client({ connectionString: countDb });
  await client.connect();
  // _stateID goes up by one per processed action; this game has moves only.
  const { rows } = await client.query(
    `SELECT coalesce(sum((state->>'_stateID')::bigint), 0) AS n FROM "Games"`,
  );
  await client.end();
  return Number(rows[0].n);
}

const clkTck = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const before = await serverStats();
const dbBefore = await dbMoves();
const pid = serverPid ?? before.pid;
const cpuBefore = cpuTicks(pid);
const busyBefore = machineBusyTicks();
const selfBefore = process.cpuUsage();
const started = performance.now();
const deadline = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: games }, (_, slot) => runSlot(slot, deadline)));
const took = (performance.now() - started) / 1000;
const cpuAfter = cpuTicks(pid);
const busyAfter = machineBusyTicks();
const self = process.cpuUsage(selfBefore);
const after = await serverStats();
const dbAfter = await dbMoves();

const committed = after.committed - before.committed;
const serverCpuS = (cpuAfter - cpuBefore) / clkTck;
const lat = Float64Array.from(stats.latencies).sort();
const pct = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * p))] : 0);
const r2 = (x) => Math.round(x * 100) / 100;
const result = {
  peer: 'boardgame.io',
  version: JSON.parse(readFileSync(new URL('./node_modules/boardgame.io/package.json', import.meta.url))).version,
  store: after.store,
  games,
  spectators,
  moves_per_match_mean: movesPerMatch,
  seconds: r2(took),
  committed_moves: committed,
  committed_moves_per_s: Math.round(committed / took),
  seen_moves: stats.moves,
  committed_moves_db: dbAfter !== undefined ? dbAfter - dbBefore : undefined,
  matches_created: stats.matches,
  matches_finished: stats.finished,
  lobby_errors: stats.lobbyErrors,
  latency_ms: { p50: r2(pct(0.5)), p90: r2(pct(0.9)), p99: r2(pct(0.99)), max: r2(pct(1)) },
  server_cpu_s: r2(serverCpuS),
  server_cpu_share: r2(serverCpuS / took),
  server_cpu_us_per_move: Math.round((serverCpuS * 1e6) / Math.max(1, committed)),
  server_rss_kib: statusKiB(pid, 'VmRSS'),
  server_hwm_kib: statusKiB(pid, 'VmHWM'),
  bytes_per_update_to_spectator: Math.round(stats.spectatorBytes / Math.max(1, stats.spectatorEvents)),
  bytes_per_update_to_player: Math.round(stats.playerBytes / Math.max(1, stats.playerEvents)),
  loadgen_cpu_share: r2((self.user + self.system) / 1e6 / took),
  // CPU the rest of the machine used meanwhile, in cores (Postgres included, when used).
  others_cpu_share: r2(
    ((busyAfter - busyBefore) / clkTck - serverCpuS - (self.user + self.system) / 1e6) / took,
  ),
  node: process.version,
};
console.log(
  `boardgame.io ${result.version} (${result.store}): ${committed} committed moves in ${result.seconds} s = ` +
    `${result.committed_moves_per_s} moves/s; move -> update p50 ${result.latency_ms.p50} ms, ` +
    `p99 ${result.latency_ms.p99} ms; server CPU ${result.server_cpu_s} s = ` +
    `${result.server_cpu_us_per_move} µs per committed move (${Math.round(result.server_cpu_share * 100)} % of a core); ` +
    `${result.bytes_per_update_to_spectator} B per update to a spectator; ` +
    `${result.matches_finished} matches finished; load generator ${Math.round(result.loadgen_cpu_share * 100)} % ` +
    `of a core, everything else ${Math.round(result.others_cpu_share * 100)} %`,
);
console.log(JSON.stringify(result));
process.exit(0);

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const [k, v] = a.slice(2).split('=', 2);
    if (v !== undefined) out[k] = v;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out[k] = argv[++i];
    else out[k] = '';
  }
  return out;
}
