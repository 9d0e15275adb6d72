// End-to-end checks of the generated orders server (examples/orders) driven
// by the official MCP TypeScript client, @modelcontextprotocol/client 2.4.0,
// in its three version-negotiation modes (auto, pinned 2026-07-28, legacy =
// plain 2025-11-25 initialize, the client's default) over stdio and over
// Streamable HTTP. ORDERS_MCP_BIN names the built orders-mcp binary; every
// run gets a fresh database so the runs do not see each other's returns.
//
//   ORDERS_MCP_BIN=/path/to/orders-mcp node --test e2e/ts

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

// [label, versionNegotiation.mode, era the connection must end up in]
const modes = [
  ['auto', 'auto', 'modern'],
  ['pin 2026-07-28', { pin: '2026-07-28' }, 'modern'],
  ['legacy', 'legacy', 'legacy'],
];
const transports = ['stdio', 'http'];

/** The text of every text block of a tool result, joined. */
function textOf(result) {
  return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** Asserts that promise rejects with a JSON-RPC error of the given code. */
async function rejectsWithCode(promise, code) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.code, code, `error code of ${err}`);
    return true;
  });
}


for (const transportKind of transports) for (const [modeLabel, mode, era] of modes) {
  const label = `${transportKind} ${modeLabel}`;
  describe(`orders-mcp over ${transportKind} with versionNegotiation ${modeLabel}`, () => {
    let dir;
    let client;
    let transport;
    let server;
    // The user's answer to the next elicitation/create.
    let nextAnswer = { action: 'accept', content: { confirm: true } };
    const asked = [];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'orders-e2e-'));
      client = new Client(
        { name: 'mcpgen-e2e', version: '0.0.0' },
        { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
      );
      // One handler serves both eras: a real server request on a 2025
      // connection, an input_required round on a 2026 one.
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params);
        return nextAnswer;
      });
      if (transportKind === 'stdio') {
        transport = new StdioClientTransport({
          command: bin,
          args: ['--db', join(dir, 'orders.db')],
          env: { ...process.env, ORDERS_USER: 'alice' },
          stderr: 'ignore',
        });
      } else {
        server = await startHTTPServer(bin, join(dir, 'orders.db'));
        transport = new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: 'Bearer tok-alice' } },
        });
      }
      await client.connect(transport);
    });

    after(async () => {
      await client?.close();
      server?.proc.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    test(`connects in the ${era} era and discovers the server`, () => {
      assert.equal(client.getProtocolEra(), era);
      assert.equal(client.getNegotiatedProtocolVersion(), era === 'modern' ? '2026-07-28' : '2025-11-25');
      const caps = client.getServerCapabilities();
      assert.ok(caps.tools, 'tools capability');
      assert.ok(caps.resources, 'resources capability');
      assert.ok(caps.prompts, 'prompts capability');
      assert.match(client.getInstructions() ?? '', /idempotency_key/);
    });

    if (transportKind === 'http') {
      test(`${era === 'legacy' ? 'holds' : 'needs no'} HTTP session`, () => {
        if (era === 'legacy') {
          assert.match(transport.sessionId ?? '', /^[0-9a-f]{32}$/);
        } else {
          assert.equal(transport.sessionId, undefined);
        }
      });
    }

    test('lists the five tools with their schemas', async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['confirm_return', 'create_return', 'export_order_history', 'get_order_status', 'search_orders']);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));

      const get = byName.get_order_status;
      assert.equal(get.inputSchema.type, 'object');
      assert.deepEqual(get.inputSchema.required, ['order_id']);
      assert.equal(get.inputSchema.additionalProperties, false);
      assert.equal(get.inputSchema.properties.order_id.pattern, '^A[0-9]+$');
      assert.equal(get.inputSchema.properties.order_id.maxLength, 8);
      assert.equal(get.inputSchema.properties.order_id['x-mcp-header'], 'Order-Id');
      assert.deepEqual(get.outputSchema.properties.status.enum, ['PENDING', 'SHIPPED', 'DELIVERED', 'CANCELLED']);
      assert.equal(get.annotations.readOnlyHint, true);
      assert.equal(get.annotations.idempotentHint, true);

      const search = byName.search_orders;
      assert.equal(search.inputSchema.properties.limit.minimum, 1);
      assert.equal(search.inputSchema.properties.limit.maximum, 50);
      assert.equal(search.inputSchema.properties.limit.default, 10);

      const create = byName.create_return;
      assert.deepEqual([...create.inputSchema.required].sort(), ['idempotency_key', 'order_id', 'reason']);
      assert.equal(create.annotations.readOnlyHint, false);
      assert.equal(create.annotations.destructiveHint, false);
    });

    test('get_order_status answers for own, foreign and missing orders alike', async () => {
      const own = await client.callTool({ name: 'get_order_status', arguments: { order_id: 'A1001' } });
      assert.ok(!own.isError, textOf(own));
      assert.deepEqual(own.structuredContent, { found: true, order_id: 'A1001', status: 'SHIPPED' });

      const bobs = await client.callTool({ name: 'get_order_status', arguments: { order_id: 'A1002' } });
      const missing = await client.callTool({ name: 'get_order_status', arguments: { order_id: 'A9999' } });
      assert.deepEqual(bobs.structuredContent, { found: false, order_id: 'A1002' });
      assert.deepEqual(missing.structuredContent, { found: false, order_id: 'A9999' });
    });

    test('search_orders pages with next_cursor and filters by status', async () => {
      const first = await client.callTool({ name: 'search_orders', arguments: { limit: 1 } });
      assert.ok(!first.isError, textOf(first));
      assert.deepEqual(first.structuredContent.orders, [{ order_id: 'A1001', status: 'SHIPPED' }]);
      assert.equal(typeof first.structuredContent.next_cursor, 'string');

      const second = await client.callTool({
        name: 'search_orders',
        arguments: { limit: 1, cursor: first.structuredContent.next_cursor },
      });
      assert.deepEqual(second.structuredContent, { orders: [{ order_id: 'A1003', status: 'DELIVERED' }] });

      const delivered = await client.callTool({ name: 'search_orders', arguments: { status: 'DELIVERED' } });
      assert.deepEqual(delivered.structuredContent, { orders: [{ order_id: 'A1003', status: 'DELIVERED' }] });
    });

    test('create_return is idempotent per key', async () => {
      const args = { order_id: 'A1003', reason: 'arrived damaged', idempotency_key: `ts-${label}` };
      const first = await client.callTool({ name: 'create_return', arguments: args });
      assert.ok(!first.isError, textOf(first));
      assert.equal(first.structuredContent.order_id, 'A1003');
      assert.equal(first.structuredContent.status, 'REQUESTED');
      assert.match(first.structuredContent.return_id, /^R/);

      const again = await client.callTool({ name: 'create_return', arguments: args });
      assert.deepEqual(again.structuredContent, first.structuredContent);

      const other = await client.callTool({
        name: 'create_return',
        arguments: { ...args, idempotency_key: `ts-${label}-2` },
      });
      assert.notEqual(other.structuredContent.return_id, first.structuredContent.return_id);
    });

    test('create_return on an order the caller cannot see is a tool error', async () => {
      const res = await client.callTool({
        name: 'create_return',
        arguments: { order_id: 'A1002', reason: 'not mine', idempotency_key: `ts-bob-${label}` },
      });
      assert.equal(res.isError, true);
      assert.match(textOf(res), /A1002/);
    });

    const invalid = [
      ['get_order_status', { order_id: 1001 }, 'order_id', 'wrong type'],
      ['get_order_status', { order_id: 'B1001' }, 'order_id', 'pattern'],
      ['get_order_status', { order_id: 'A12345678' }, 'order_id', 'maxLength'],
      ['get_order_status', { order_id: 'A1001', extra: true }, 'extra', 'unknown property'],
      ['get_order_status', {}, 'order_id', 'missing required'],
      ['search_orders', { limit: 0 }, 'limit', 'below minimum'],
      ['search_orders', { limit: 51 }, 'limit', 'above maximum'],
      ['search_orders', { status: 'LOST' }, 'status', 'unknown enum value'],
      ['create_return', { order_id: 'A1001', reason: '', idempotency_key: 'k' }, 'reason', 'empty reason'],
      ['create_return', { order_id: 'A1001', reason: 'x'.repeat(501), idempotency_key: 'k' }, 'reason', 'long reason'],
      ['create_return', { order_id: 'A1001', reason: 'r' }, 'idempotency_key', 'missing key'],
    ];
    for (const [name, args, field, why] of invalid) {
      test(`${name} rejects invalid input (${why}) naming ${field}`, async () => {
        // Over HTTP 2026-07-28, order_id is mirrored in the
        // Mcp-Param-Order-Id header; a number in the body is not compared
        // with it (wrong JSON type), so validation names the field too.
        const res = await client.callTool({ name, arguments: args });
        assert.equal(res.isError, true, `isError for ${JSON.stringify(args)}`);
        assert.ok(textOf(res).includes(field), `"${textOf(res)}" names ${field}`);
      });
    }

    test('confirm_return asks the user through elicitation, then files the return', async () => {
      asked.length = 0;
      nextAnswer = { action: 'accept', content: { confirm: true } };
      const args = { order_id: 'A1003', reason: 'wrong size', idempotency_key: `confirm-${label}` };
      const yes = await client.callTool({ name: 'confirm_return', arguments: args });
      assert.ok(!yes.isError, textOf(yes));
      assert.equal(asked.length, 1, 'asked once');
      assert.match(asked[0].message, /A1003/);
      assert.equal(asked[0].requestedSchema.properties.confirm.type, 'boolean');
      assert.equal(yes.structuredContent.confirmed, true);
      assert.equal(yes.structuredContent.status, 'REQUESTED');
      assert.match(yes.structuredContent.return_id, /^R/);

      nextAnswer = { action: 'decline' };
      const no = await client.callTool({
        name: 'confirm_return',
        arguments: { ...args, idempotency_key: `confirm-${label}-no` },
      });
      assert.ok(!no.isError, textOf(no));
      assert.deepEqual(no.structuredContent, { confirmed: false });
      assert.equal(asked.length, 2);
    });

    test('an unknown tool is a JSON-RPC -32602 error', async () => {
      await rejectsWithCode(client.callTool({ name: 'delete_everything', arguments: {} }), -32602);
    });

    test('reads the after-sales policy', async () => {
      const { resources } = await client.listResources();
      assert.deepEqual(resources.map((r) => r.uri), ['policy://after-sales/current']);
      const res = await client.readResource({ uri: 'policy://after-sales/current' });
      assert.equal(res.contents.length, 1);
      assert.equal(res.contents[0].mimeType, 'text/plain');
      assert.match(res.contents[0].text, /30 days/);
      assert.equal(Buffer.byteLength(res.contents[0].text), resources[0].size);
    });

    test('reads the order summary template for own orders only', async () => {
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['order://{order_id}/summary']);

      const res = await client.readResource({ uri: 'order://A1001/summary' });
      assert.equal(res.contents[0].mimeType, 'application/json');
      const summary = JSON.parse(res.contents[0].text);
      assert.equal(summary.order_id, 'A1001');
      assert.equal(summary.status, 'SHIPPED');

      await assert.rejects(client.readResource({ uri: 'order://A1002/summary' }), (err) => {
        // The legacy server sends -32002, the modern one -32602 (runtime
        // tests check the wire); the client reports both as -32602.
        assert.equal(err.code, -32602);
        assert.deepEqual(err.data, { uri: 'order://A1002/summary' });
        return true;
      });
    });

    test('gets the prompt naming the order', async () => {
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name), ['reply_order_question']);
      const res = await client.getPrompt({ name: 'reply_order_question', arguments: { order_id: 'A1001' } });
      const text = res.messages.map((m) => m.content.text).join('\n');
      assert.match(text, /A1001/);
      assert.match(text, /SHIPPED/);
    });

    test('completes the prompt argument with own order ids', async () => {
      const res = await client.complete({
        ref: { type: 'ref/prompt', name: 'reply_order_question' },
        argument: { name: 'order_id', value: 'A10' },
      });
      assert.deepEqual(res.completion.values, ['A1001', 'A1003']);
    });
  });
}
