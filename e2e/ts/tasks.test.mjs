// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) end to end:
// export_order_history of the generated orders server, declared
// `task: optional`, becomes a task that the client polls, cancels or is
// refused another customer's view of.
//
// @modelcontextprotocol/client 2.4.0 sends the extension in its
// capabilities but rejects a tools/call answered with resultType "task"
// ("Unsupported result type 'task'"), so the task itself is driven as raw
// JSON-RPC through the client's own StreamableHTTPClientTransport (which
// adds the Mcp-Method / Mcp-Name headers); a Client without the extension
// shows the call answered directly.
//
//   ORDERS_MCP_BIN=/path/to/orders-mcp node --test e2e/ts/tasks.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHTTPServer } from './server.mjs';

const bin = process.env.ORDERS_MCP_BIN;
if (!bin) {
  throw new Error('ORDERS_MCP_BIN must name the built orders-mcp binary (see scripts/test.sh)');
}

const TASKS = 'io.modelcontextprotocol/tasks';

/** A raw JSON-RPC connection over the official HTTP transport. */
async function rawConnection(url, token) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const pending = new Map();
  transport.onmessage = (m) => {
    if (m.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)(m);
      pending.delete(m.id);
    }
  };
  await transport.start();
  let next = 1;
  return {
    /** Sends a request declaring the tasks extension; resolves with the response. */
    request(method, params) {
      const id = next++;
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
      };
      const answered = new Promise((resolve) => pending.set(id, resolve));
      return transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }).then(() => answered);
    },
    close: () => transport.close(),
  };
}

/** Polls tasks/get at the server's pollIntervalMs until the task is terminal. */
async function waitTerminal(conn, taskId, pollMs) {
  for (let i = 0; i < 200; i++) {
    const { result, error } = await conn.request('tasks/get', { taskId });
    assert.equal(error, undefined, `tasks/get: ${JSON.stringify(error)}`);
    if (['completed', 'failed', 'cancelled'].includes(result.status)) return result;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`task ${taskId} did not finish`);
}

describe('export_order_history as a task over Streamable HTTP', () => {
  let dir;
  let server;
  let alice;
  let bob;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orders-tasks-'));
    // 300 ms per order: alice's export takes 0.6 s, long enough to be a
    // task, short enough for a test.
    server = await startHTTPServer(bin, join(dir, 'orders.db'), ['--export-cost', '300ms', '--token', 'tok-bob=bob']);
    alice = await rawConnection(server.url, 'tok-alice');
    bob = await rawConnection(server.url, 'tok-bob');
  });

  after(async () => {
    await alice?.close();
    await bob?.close();
    server?.proc.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('server/discover advertises the extension', async () => {
    const { result } = await alice.request('server/discover', {});
    assert.ok(result.capabilities.extensions?.[TASKS], JSON.stringify(result.capabilities));
  });

  test('the export becomes a task; tasks/get inlines the CSV once done', async () => {
    const { result: created } = await alice.request('tools/call', { name: 'export_order_history', arguments: {} });
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.ok(created.taskId.length >= 20, 'task ids are unguessable');
    assert.ok(Number.isInteger(created.ttlMs) && created.ttlMs > 0);
    assert.ok(Number.isInteger(created.pollIntervalMs) && created.pollIntervalMs > 0);

    // Another customer cannot see it: an unknown task.
    const { error } = await bob.request('tasks/get', { taskId: created.taskId });
    assert.equal(error?.code, -32602, JSON.stringify(error));

    const done = await waitTerminal(alice, created.taskId, 100);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.resultType, 'complete');
    const out = done.result.structuredContent;
    assert.equal(out.order_count, 2);
    assert.equal(out.csv, 'order_id,status,total\nA1001,SHIPPED,49.90\nA1003,DELIVERED,89.00\n');
  });

  test('tasks/cancel stops the export', async () => {
    const { result: created } = await alice.request('tools/call', { name: 'export_order_history', arguments: {} });
    assert.equal(created.resultType, 'task');
    const { result: ack } = await alice.request('tasks/cancel', { taskId: created.taskId });
    assert.deepEqual(Object.keys(ack).filter((k) => k !== '_meta'), ['resultType']);
    const done = await waitTerminal(alice, created.taskId, 100);
    assert.equal(done.status, 'cancelled');
    assert.equal(done.result, undefined);
  });

  test('a client without the extension gets the export as a direct answer', async () => {
    const client = new Client({ name: 'mcpgen-e2e', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: 'Bearer tok-alice' } },
    }));
    try {
      const res = await client.callTool({ name: 'export_order_history', arguments: { status: 'SHIPPED' } });
      assert.equal(res.isError, undefined);
      assert.deepEqual(res.structuredContent, { order_count: 1, csv: 'order_id,status,total\nA1001,SHIPPED,49.90\n' });
    } finally {
      await client.close();
    }
  });
});
