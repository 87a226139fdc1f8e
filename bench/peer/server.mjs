// boardgame.io 0.50 Server with a trivial 4-player game, for the peer benchmark (README.md).
//
//   node server.mjs [--port 18090] [--db postgres://postgres@127.0.0.1:5432/bgio_bench]
//                   [--fresh] [--pool 5]
//
// Storage: boardgame.io's in-memory store (default) or, with --db, bgio-postgres (its Postgres
// adapter; the database is created if missing, dropped and created again with --fresh).
// Listens on 127.0.0.1 only. Besides the lobby API and the socket.io transport it serves one
// extra route, GET /bench/stats: the moves the store has committed so far (counted when
// setState returns / resolves) and the process id, so the load generator can divide the
// server's CPU time by committed moves.
import { createRequire } from 'node:module';
import process from 'node:process';
import pg from 'pg';

// boardgame.io 0.50 ships CommonJS entry points in directories (boardgame.io/server), which
// ES-module imports do not resolve.
const require = createRequire(import.meta.url);
const { Server, Origins } = require('boardgame.io/server');

const args = parseArgs(process.argv.slice(2));
const port = Number(args.port ?? 18090);
const dbUrl = args.db;

// The game: each move increments a counter; one move per turn, turns round-robin (the default
// order); the match ends after `setupData.moves` moves (100 unless the lobby call says).
const Bench = {
  name: 'bench',
  minPlayers: 4,
  maxPlayers: 4,
  setup: (_ctx, setupData) => ({ count: 0, limit: Number(setupData?.moves ?? 100) }),
  moves: {
    inc: ({ G }) => {
      G.count += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => (G.count >= G.limit ? { draw: true } : undefined),
};

let db;
let storeName = 'in-memory';
if (dbUrl) {
  const url = new URL(dbUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error('--db must be a loopback Postgres');
  }
  await ensureDatabase(url, args.fresh !== undefined);
  const { PostgresStore } = require('bgio-postgres');
  // Sequelize logs every query to stdout unless told not to; a deployment turns that off.
  // The pool is Sequelize's default (5) unless --pool says otherwise.
  const options = { logging: false };
  if (args.pool) options.pool = { max: Number(args.pool) };
  db = new PostgresStore(dbUrl, options);
  storeName = `bgio-postgres (pool ${args.pool ?? 5})`;
}

// Count committed moves: a MAKE_MOVE in the deltalog of a state the store has written.
let committed = 0;
const server = Server({ games: [Bench], db, origins: [Origins.LOCALHOST] });
const store = server.db;
const setState = store.setState.bind(store);
store.setState = (id, state, deltalog) => {
  let moves = 0;
  if (deltalog) for (const e of deltalog) if (e.action?.type === 'MAKE_MOVE') moves += 1;
  const r = setState(id, state, deltalog);
  if (r && typeof r.then === 'function') {
    return r.then((v) => {
      committed += moves;
      return v;
    });
  }
  committed += moves;
  return r;
};
server.router.get('/bench/stats', (ctx) => {
  ctx.body = { committed, pid: process.pid, store: storeName };
});

// server.run calls app.listen(port, callback), i.e. every interface: listen on loopback only.
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => listen(p, '127.0.0.1', callback);
const servers = await server.run({ port });
console.log(`bgio bench server: pid ${process.pid}, http://127.0.0.1:${port}, store ${storeName}, node ${process.version}`);

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    servers.appServer.close();
    if (dbUrl) await store.sequelize.close().catch(() => {});
    process.exit(0);
  });
}

async function ensureDatabase(url, fresh) {
  const name = url.pathname.replace(/^\//, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  if (fresh) await client.query(`DROP DATABASE IF EXISTS ${name}`);
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  await client.end();
}

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
