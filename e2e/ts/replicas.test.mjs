// The orders server as three replicas behind HAProxy (round robin, no
// stickiness; e2e/haproxy/haproxy.cfg), joined by a real NATS server,
// driven by the official MCP TypeScript client in legacy mode (plain
// 2025-11-25 initialize and a session): every request of the session may
// reach another replica.
//
//   ORDERS_MCP_BIN=/path/to/orders-mcp NATS_SERVER_BIN=/path/to/nats-server \
//   [ORDERS_TEST_POSTGRES=postgres://…] node --test e2e/ts/replicas.test.mjs
//
// With ORDERS_TEST_POSTGRES the replicas share a new database on that
// PostgreSQL server; without, a SQLite file. Without haproxy (on the PATH
// or in HAPROXY_BIN) the tests skip, unless ORDERS_REQUIRE_HAPROXY is set.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const bin = process.env.ORDERS_MCP_BIN;
const natsBin = process.env.NATS_SERVER_BIN;
/** haproxy from $HAPROXY_BIN or the PATH, or undefined. */
function findHAProxy() {
  if (process.env.HAPROXY_BIN) return process.env.HAPROXY_BIN;
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(d, 'haproxy');
    if (existsSync(p)) return p;
  }
  return undefined;
}
const haproxyBin = findHAProxy();
if (!haproxyBin && process.env.ORDERS_REQUIRE_HAPROXY) {
  throw new Error('ORDERS_REQUIRE_HAPROXY is set but haproxy is not installed (apt-get install -y haproxy)');
}
const skip = !bin || !natsBin ? 'ORDERS_MCP_BIN and NATS_SERVER_BIN must name the built binaries (see scripts/test.sh)'
  : !haproxyBin ? 'NO HAPROXY: the replicas run behind HAProxy; install it (apt-get install -y haproxy) or set HAPROXY_BIN' : false;
const key = '6d637067656e2d7265706c696361732d7368617265642d6b6579212121212121';

/** A free loopback port. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resolves when the process logs a line matching re, with the match. */
function waitForLog(proc, re, what) {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${log}`)), 30000);
    const onData = (chunk) => {
      log += chunk;
      const m = re.exec(log);
      if (m) {
        clearTimeout(timer);
        proc.stderr.off('data', onData);
        proc.stderr.resume();
        resolve(m);
      }
    };
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${log}`)));
  });
}

/**
 * HAProxy in front of the replicas, configured by e2e/haproxy/haproxy.cfg
 * (round robin, no stickiness, health checks on /readyz, retries only on
 * failed connections). counts.rN is the number of requests replica N
 * answered, from HAProxy's request log.
 */
async function startHAProxy(backends) {
  const port = await freePort();
  const env = { ...process.env, MCP_LB_ADDR: `127.0.0.1:${port}` };
  backends.forEach((b, i) => { env[`MCP_REPLICA${i + 1}`] = new URL(b).host; });
  const cfg = fileURLToPath(new URL('../haproxy/haproxy.cfg', import.meta.url));
  const proc = spawn(haproxyBin, ['-db', '-f', cfg], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const counts = {};
  let rest = '';
  proc.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      const m = / replicas\/(r\d+) /.exec(line);
      if (m) counts[m[1]] = (counts[m[1]] ?? 0) + 1;
    }
  });
  proc.stderr.resume();
  for (const deadline = Date.now() + 30000; ;) {
    const up = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error('haproxy did not listen in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { proc, counts, url: `http://127.0.0.1:${port}/mcp` };
}

describe('orders-mcp as three replicas with the TypeScript client in legacy mode', { skip }, () => {
  let dir;
  let nats;
  const replicas = [];
  let lb;
  let lbURL;
  let dropDatabase = () => {};
  const asked = [];

  /** A legacy client of alice at url. */
  async function connect(url) {
    const client = new Client(
      { name: 'mcpgen-e2e-replicas', version: '0.0.0' },
      { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: 'Bearer tok-alice' } },
    });
    await client.connect(transport);
    return { client, transport };
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orders-replicas-'));
    let db = join(dir, 'orders.db');
    const admin = process.env.ORDERS_TEST_POSTGRES;
    if (admin) {
      const name = `orders_ts_${Date.now()}`;
      const r = spawnSync('psql', [admin, '-c', `CREATE DATABASE ${name}`], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      dropDatabase = () => spawnSync('psql', [admin, '-c', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
      const u = new URL(admin);
      u.pathname = `/${name}`;
      db = u.toString();
    } else {
      console.log('NO POSTGRESQL (ORDERS_TEST_POSTGRES unset): the replicas share a SQLite file');
    }
    const natsPort = await freePort();
    // -js: JetStream keeps the record of sessions ended with DELETE.
    nats = spawn(natsBin, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', join(dir, 'nats')],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    await waitForLog(nats, /Server is ready/, 'nats-server');
    for (let i = 0; i < 3; i++) {
      const proc = spawn(bin, ['--db', db, '--http', '0', '--token', 'tok-alice=alice',
        '--state-key', key, '--nats', `nats://127.0.0.1:${natsPort}`], { stdio: ['ignore', 'ignore', 'pipe'] });
      const m = await waitForLog(proc, /url=(http:\/\/\S+\/mcp)/, `replica ${i}`);
      replicas.push({ proc, url: m[1] });
    }
    lb = await startHAProxy(replicas.map((r) => r.url));
    lbURL = lb.url;
  });

  after(async () => {
    lb?.proc.kill('SIGKILL');
    for (const r of replicas) r.proc.kill('SIGKILL');
    nats?.kill('SIGKILL');
    dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });

  test('runs the orders scenario through the balancer with zero failed calls', async () => {
    const { client, transport } = await connect(lbURL);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
      assert.ok(transport.sessionId, 'a session id');
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['confirm_return', 'create_return', 'export_order_history', 'get_order_status', 'search_orders']);
      for (let i = 0; i < 6; i++) {
        const res = await client.callTool({ name: 'get_order_status', arguments: { order_id: 'A1001' } });
        assert.equal(res.structuredContent.status, 'SHIPPED');
      }
      const search = await client.callTool({ name: 'search_orders', arguments: { limit: 1 } });
      assert.equal(search.isError ?? false, false);
      const created = await client.callTool({ name: 'create_return',
        arguments: { order_id: 'A1001', reason: 'too big', idempotency_key: 'ts-replicas-1' } });
      assert.equal(created.structuredContent.status, 'REQUESTED');
      // Elicitation: asked on the call's stream, answered through the
      // balancer (another replica), the call completes.
      for (let i = 0; i < 3; i++) {
        const confirmed = await client.callTool({ name: 'confirm_return',
          arguments: { order_id: 'A1003', reason: 'wrong colour', idempotency_key: `ts-replicas-confirm-${i}` } });
        assert.equal(confirmed.structuredContent.confirmed, true, JSON.stringify(confirmed));
      }
      assert.equal(asked.length, 3);
      const policy = await client.readResource({ uri: 'policy://after-sales/current' });
      assert.match(policy.contents[0].text, /30 days/);
      const summary = await client.readResource({ uri: 'order://A1001/summary' });
      assert.equal(JSON.parse(summary.contents[0].text).order_id, 'A1001');
      const prompt = await client.getPrompt({ name: 'reply_order_question', arguments: { order_id: 'A1001' } });
      assert.match(prompt.messages.map((m) => m.content.text).join('\n'), /A1001/);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'reply_order_question' },
        argument: { name: 'order_id', value: 'A10' },
      });
      assert.deepEqual(completion.completion.values, ['A1001', 'A1003']);
      await client.setLoggingLevel('warning');
      await client.ping();
    } finally {
      await client.close();
    }
    for (const r of ['r1', 'r2', 'r3']) {
      assert.ok(lb.counts[r] > 0, `replica ${r} got no request: ${JSON.stringify(lb.counts)}`);
    }
  });

  test('a return created through one replica is seen through the others', async () => {
    const ids = [];
    for (const r of replicas) {
      const { client } = await connect(r.url);
      try {
        const res = await client.callTool({ name: 'create_return',
          arguments: { order_id: 'A1001', reason: 'too big', idempotency_key: 'ts-across-replicas' } });
        ids.push(res.structuredContent.return_id);
      } finally {
        await client.close();
      }
    }
    assert.ok(ids[0]);
    assert.deepEqual(ids, [ids[0], ids[0], ids[0]]);
  });
});
