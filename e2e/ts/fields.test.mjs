// End-to-end checks of field selection (--field-selection) with the
// official MCP TypeScript client, whose callTool validates
// structuredContent against the listed outputSchema with Ajv: a server
// generated from mcpgen.yaml (examples/orders' orders-mcp, over stdio and
// Streamable HTTP, in the modern and legacy eras, directly and through
// discovery mode's call_operation) and an OpenAPI wrapper
// (orders-rest-mcp, generated from examples/orders/openapi.yaml, in front
// of an orders REST API served here). Each selected result is also
// validated, with Ajv as the SDK configures it, against the projected
// schema the server puts in _meta["io.mcpgen/fields"].
//
//   ORDERS_MCP_BIN=... ORDERS_REST_MCP_BIN=... node --test e2e/ts/fields.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientAjv } from './client-ajv.mjs';
import { startHTTPServer } from './server.mjs';

const ordersBin = process.env.ORDERS_MCP_BIN;
const restBin = process.env.ORDERS_REST_MCP_BIN;
if (!ordersBin || !restBin) {
  throw new Error('ORDERS_MCP_BIN and ORDERS_REST_MCP_BIN must name the built binaries (see scripts/test.sh)');
}

/** Validates value against schema with Ajv as the TypeScript SDK sets it up. */
function assertValid(schema, value, what) {
  const validate = clientAjv().compile(schema);
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`);
}

/** Asserts that value does not validate against schema (Ajv as the SDK sets it up). */
function assertInvalid(schema, value, what) {
  assert.ok(!clientAjv().compile(schema)(value), `${what}: ${JSON.stringify(value)} validates against ${JSON.stringify(schema)}`);
}

/**
 * Checks a selected result: only the fields asked for, valid against the
 * call's projected schema. With exact, the operation's output schema
 * requires the list and every field of its items (an mcpgen.yaml
 * operation): the projected schema requires the selected ones, so a result
 * without them is invalid. Without, it is a wrapped operation's tolerant
 * schema, which requires nothing, nor does its projection.
 */
function checkSelected(result, fields, listKey, { exact }) {
  assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
  const sc = result.structuredContent;
  assert.deepEqual(Object.keys(sc), [listKey]);
  assert.ok(sc[listKey].length > 0, 'the list is not empty');
  const leaf = fields.map((f) => f.split('.').slice(1).join('.'));
  for (const item of sc[listKey]) {
    assert.deepEqual(Object.keys(item).sort(), [...leaf].sort());
  }
  // The text copy is the selected result.
  assert.deepEqual(JSON.parse(result.content.find((c) => c.type === 'text').text), sc);
  const meta = result._meta?.['io.mcpgen/fields'];
  assert.deepEqual(meta?.fields, fields);
  assertValid(meta.outputSchema, sc, 'against the projected schema');
  assert.deepEqual(Object.keys(meta.outputSchema.properties), [listKey]);
  if (!exact) {
    assert.ok(!JSON.stringify(meta.outputSchema).includes('"required"'), JSON.stringify(meta.outputSchema));
    return;
  }
  const items = meta.outputSchema.properties[listKey].items;
  assert.deepEqual(meta.outputSchema.required, [listKey], JSON.stringify(meta.outputSchema));
  assert.deepEqual([...items.required].sort(), [...leaf].sort(), JSON.stringify(items));
  assertInvalid(meta.outputSchema, {}, 'without the list');
  assertInvalid(meta.outputSchema, { [listKey]: [{}] }, 'an item without the selected fields');
}

function checkListing(tools, name, listKey) {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool, `${name} is listed`);
  const arg = tool.inputSchema.properties._fields;
  assert.equal(arg?.type, 'array');
  assert.ok(arg.items.enum.includes(listKey) && arg.items.enum.includes(`${listKey}.order_id`), JSON.stringify(arg.items.enum));
  assert.ok(!JSON.stringify(tool.outputSchema).includes('"required"'), 'the listed output schema requires nothing');
  return tool;
}

for (const transportKind of ['stdio', 'http']) for (const mode of ['auto', 'legacy']) {
  describe(`orders-mcp --field-selection over ${transportKind}, versionNegotiation ${mode}`, () => {
    let dir;
    let client;
    let server;
    let discovery;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'orders-fields-'));
      const connect = async (args) => {
        const c = new Client({ name: 'mcpgen-e2e', version: '0.0.0' }, { versionNegotiation: { mode } });
        let srv;
        let transport;
        if (transportKind === 'stdio') {
          transport = new StdioClientTransport({
            command: ordersBin,
            args: ['--db', join(dir, 'orders.db'), ...args],
            env: { ...process.env, ORDERS_USER: 'alice' },
            stderr: 'ignore',
          });
        } else {
          srv = await startHTTPServer(ordersBin, join(dir, 'orders.db'), args);
          transport = new StreamableHTTPClientTransport(new URL(srv.url), {
            requestInit: { headers: { Authorization: 'Bearer tok-alice' } },
          });
        }
        await c.connect(transport);
        return { client: c, server: srv };
      };
      ({ client, server } = await connect(['--field-selection']));
      discovery = await connect(['--field-selection', '--discovery']);
    });
    after(async () => {
      await client?.close();
      server?.proc.kill();
      await discovery?.client.close();
      discovery?.server?.proc.kill();
      rmSync(dir, { recursive: true, force: true });
    });

    test('lists _fields with the paths, and an output schema a selection validates against', async () => {
      const { tools } = await client.listTools();
      checkListing(tools, 'search_orders', 'orders');
    });

    test('a selection returns only those fields, and the client accepts it', async () => {
      const whole = await client.callTool({ name: 'search_orders', arguments: { limit: 3 } });
      assert.ok(whole.structuredContent.orders[0].status, 'the whole result has status');
      const fields = ['orders.order_id'];
      const res = await client.callTool({ name: 'search_orders', arguments: { limit: 3, _fields: fields } });
      checkSelected(res, fields, 'orders', { exact: true });
      assert.deepEqual(res.structuredContent.orders.map((o) => o.order_id), whole.structuredContent.orders.map((o) => o.order_id));
    });

    test('a path that is not a field is a tool error', async () => {
      const res = await client.callTool({ name: 'search_orders', arguments: { _fields: ['orders.nope'] } });
      assert.equal(res.isError, true);
      assert.match(res.content[0].text, /\/_fields\/0: "orders.nope" is not a field/);
    });

    test('call_operation takes the selection; describe_operation shows the paths', async () => {
      const desc = await discovery.client.callTool({ name: 'describe_operation', arguments: { name: 'search_orders' } });
      assert.ok(desc.structuredContent.tool.inputSchema.properties._fields.items.enum.includes('orders.status'));
      const fields = ['orders.status'];
      const res = await discovery.client.callTool({
        name: 'call_operation',
        arguments: { name: 'search_orders', arguments: { limit: 2, _fields: fields } },
      });
      checkSelected(res, fields, 'orders', { exact: true });
    });
  });
}

// What the fake orders REST API answers to GET /orders.
const page = {
  orders: [
    { order_id: 'A1001', status: 'SHIPPED' },
    { order_id: 'A1002', status: 'PROCESSING' },
  ],
  next_cursor: 'c2',
};

for (const mode of ['auto', 'legacy']) {
  describe(`orders-rest-mcp --field-selection (an OpenAPI wrapper), versionNegotiation ${mode}`, () => {
    let api;
    let client;
    before(async () => {
      api = createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(req.url.startsWith('/orders?') || req.url === '/orders' ? page : {}));
      });
      await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
      const transport = new StdioClientTransport({
        command: restBin,
        args: ['--upstream', `http://127.0.0.1:${api.address().port}`, '--field-selection'],
        env: { ...process.env, MCPGEN_BEARERAUTH_TOKEN: 'tok-alice' },
        stderr: 'ignore',
      });
      client = new Client({ name: 'mcpgen-e2e', version: '0.0.0' }, { versionNegotiation: { mode } });
      await client.connect(transport);
    });
    after(async () => {
      await client?.close();
      await new Promise((resolve) => api?.close(resolve));
    });

    test('lists _fields, and a selection returns only those fields', async () => {
      const { tools } = await client.listTools();
      checkListing(tools, 'search_orders', 'orders');
      const fields = ['orders.order_id'];
      const res = await client.callTool({ name: 'search_orders', arguments: { _fields: fields } });
      checkSelected(res, fields, 'orders', { exact: false });
      assert.deepEqual(res.structuredContent, { orders: [{ order_id: 'A1001' }, { order_id: 'A1002' }] });
    });
  });
}
