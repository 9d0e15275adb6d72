// End-to-end checks of the tool surface options of a generated server
// (examples/orders' orders-mcp: --toolsets, --read-only, --discovery)
// driven by the official MCP TypeScript client, @modelcontextprotocol/client,
// over stdio and Streamable HTTP, in the modern (2026-07-28) and legacy
// (2025-11-25) eras. ORDERS_MCP_BIN names the built orders-mcp binary.
//
//   ORDERS_MCP_BIN=/path/to/orders-mcp node --test e2e/ts/discovery.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startHTTPServer } from './server.mjs';

const bin = process.env.ORDERS_MCP_BIN;
if (!bin) {
  throw new Error('ORDERS_MCP_BIN must name the built orders-mcp binary (see scripts/test.sh)');
}

function textOf(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Connects a client to orders-mcp started with args, over transportKind in mode. */
async function connect(transportKind, mode, args, dir) {
  const client = new Client({ name: 'mcpgen-e2e', version: '0.0.0' }, { versionNegotiation: { mode } });
  let server;
  let transport;
  if (transportKind === 'stdio') {
    transport = new StdioClientTransport({
      command: bin,
      args: ['--db', join(dir, 'orders.db'), ...args],
      env: { ...process.env, ORDERS_USER: 'alice' },
      stderr: 'ignore',
    });
  } else {
    server = await startHTTPServer(bin, join(dir, 'orders.db'), args);
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: 'Bearer tok-alice' } },
    });
  }
  await client.connect(transport);
  return { client, server };
}

const modes = [
  ['auto', 'auto'],
  ['legacy', 'legacy'],
];

for (const transportKind of ['stdio', 'http']) for (const [modeLabel, mode] of modes) {
  describe(`orders-mcp --discovery --read-only over ${transportKind}, ${modeLabel}`, () => {
    let dir;
    let conn;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'orders-discovery-'));
      conn = await connect(transportKind, mode, ['--discovery', '--read-only'], dir);
    });
    after(async () => {
      await conn?.client.close();
      conn?.server?.proc.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    test('lists the three meta-tools, read-only as everything they reach', async () => {
      const { tools } = await conn.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['search_operations', 'describe_operation', 'call_operation']);
      const call = tools.find((t) => t.name === 'call_operation');
      assert.equal(call.annotations.readOnlyHint, true);
      assert.equal(call.annotations.destructiveHint, false);
      assert.match(conn.client.getInstructions() ?? '', /read-only/);
      assert.match(conn.client.getInstructions() ?? '', /search_operations/);
    });

    test('search finds an operation, with its input schema', async () => {
      const res = await conn.client.callTool({ name: 'search_operations', arguments: { query: 'where is my order A1001?' } });
      assert.ok(!res.isError, textOf(res));
      const first = res.structuredContent.results[0];
      assert.equal(first.name, 'get_order_status');
      assert.deepEqual(first.inputSchema.required, ['order_id']);
      // Writes are not reachable in read-only mode, so search does not offer them.
      const writes = await conn.client.callTool({ name: 'search_operations', arguments: { query: 'return an order' } });
      assert.ok(writes.structuredContent.results.every((r) => r.readOnly), JSON.stringify(writes.structuredContent));
    });

    test('search finds an operation by a synonym the generator added', async () => {
      // Neither word is in any tool's definition: "seek" and "hunt" are
      // WordNet synonyms of "search", added as the tool's search keywords.
      const res = await conn.client.callTool({ name: 'search_operations', arguments: { query: 'seek or hunt' } });
      assert.ok(!res.isError, textOf(res));
      assert.equal(res.structuredContent.results[0]?.name, 'search_orders', JSON.stringify(res.structuredContent));
    });

    test('call_operation answers as tools/call of the operation', async () => {
      const res = await conn.client.callTool({
        name: 'call_operation',
        arguments: { name: 'get_order_status', arguments: { order_id: 'A1001' } },
      });
      assert.ok(!res.isError, textOf(res));
      assert.equal(res.structuredContent.order_id, 'A1001');
      assert.ok(['PENDING', 'SHIPPED', 'DELIVERED', 'CANCELLED'].includes(res.structuredContent.status));
    });

    test('call_operation validates arguments with the generated validator', async () => {
      const res = await conn.client.callTool({
        name: 'call_operation',
        arguments: { name: 'get_order_status', arguments: { order_id: 'nope' } },
      });
      assert.equal(res.isError, true);
      assert.match(textOf(res), /\/order_id/);
    });

    test('a write is refused through call_operation', async () => {
      const res = await conn.client.callTool({
        name: 'call_operation',
        arguments: { name: 'create_return', arguments: { order_id: 'A1001', reason: 'broken', idempotency_key: 'k-1' } },
      });
      assert.equal(res.isError, true);
      assert.match(textOf(res), /read-only/);
    });
  });

  describe(`orders-mcp --toolsets returns over ${transportKind}`, () => {
    let dir;
    let conn;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'orders-toolsets-'));
      conn = await connect(transportKind, 'auto', ['--toolsets', 'returns'], dir);
    });
    after(async () => {
      await conn?.client.close();
      conn?.server?.proc.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    test('lists only the tools of the selected toolset', async () => {
      const { tools } = await conn.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['confirm_return', 'create_return']);
      assert.match(conn.client.getInstructions() ?? '', /Enabled toolsets: returns/);
    });
  });
}
