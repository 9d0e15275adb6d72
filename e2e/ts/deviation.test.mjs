// A wrapped REST API that answers what its document does not say, seen
// through the official MCP TypeScript client, whose callTool validates
// structuredContent against the tool's outputSchema with Ajv (JSON Schema
// 2020-12). orders-rest-mcp (examples/orders/cmd/orders-rest-mcp, the
// server mcpgen generates from examples/orders/openapi.yaml) runs over
// stdio in front of a fake orders REST API served here, whose order
// responses break the document: a required property missing, an
// undocumented one, a status outside the enum, a null total, and once a
// string where the document says object. ORDERS_REST_MCP_BIN names the
// built binary.
//
//   ORDERS_REST_MCP_BIN=/path/to/orders-rest-mcp node --test e2e/ts/deviation.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const bin = process.env.ORDERS_REST_MCP_BIN;
if (!bin) {
  throw new Error('ORDERS_REST_MCP_BIN must name the built orders-rest-mcp binary (see scripts/test.sh)');
}

// What the fake API answers to GET /orders/{id}.
const answers = {
  A1: { order_id: 'A1', status: 'ON_HOLD', total_cents: null, gift: true }, // status outside the enum, total null, gift undocumented
  A2: { status: 'SHIPPED', total_cents: 10, carrier: { name: 'X' } }, // order_id missing
  A3: 'maintenance', // not an object at all
};

for (const mode of ['auto', 'legacy']) {
  describe(`a deviating upstream through orders-rest-mcp (versionNegotiation ${mode})`, () => {
    let api;
    let client;
    let stderr = '';

    before(async () => {
      api = createServer((req, res) => {
        const m = req.url.match(/^\/orders\/([A-Z0-9]+)$/);
        if (req.method !== 'GET' || !m || !(m[1] in answers)) {
          res.writeHead(404, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ code: 'not_found', message: 'no such order' }));
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answers[m[1]], null, 2));
      });
      await new Promise((resolve) => api.listen(0, '127.0.0.1', resolve));
      const transport = new StdioClientTransport({
        command: bin,
        args: ['--upstream', `http://127.0.0.1:${api.address().port}`],
        env: { ...process.env, MCPGEN_BEARERAUTH_TOKEN: 'tok-alice' },
        stderr: 'pipe',
      });
      transport.stderr.on('data', (chunk) => { stderr += chunk; });
      client = new Client({ name: 'mcpgen-e2e', version: '0.0.0' }, { versionNegotiation: { mode } });
      await client.connect(transport);
      // callTool validates structuredContent against the schemas listed here.
      const { tools } = await client.listTools();
      assert.ok(tools.find((t) => t.name === 'get_order')?.outputSchema, 'get_order lists an outputSchema');
    });

    after(async () => {
      await client?.close();
      await new Promise((resolve) => api?.close(resolve));
    });

    for (const id of ['A1', 'A2']) {
      test(`${id}: the response comes back as structuredContent the client accepts`, async () => {
        const result = await client.callTool({ name: 'get_order', arguments: { order_id: id } });
        assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
        assert.deepEqual(result.structuredContent, answers[id]);
      });
    }

    test('A3: a response outside even the tolerant shape is an isError result with its data', async () => {
      const result = await client.callTool({ name: 'get_order', arguments: { order_id: 'A3' } });
      assert.equal(result.isError, true);
      const text = result.content.map((c) => c.text).join('\n');
      assert.match(text, /outside its documented shape/);
      assert.match(text, /maintenance/);
      assert.doesNotMatch(text, /invalid arguments/);
    });

    test('the server logs each deviation with the tool and the JSON pointer', async () => {
      // The log lines are written before the result; give the pipe a moment.
      for (let i = 0; i < 50 && !/pointer=\/order_id/.test(stderr); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const pointer of ['/status', '/total_cents', '/gift', '/order_id', '/carrier']) {
        assert.match(stderr, new RegExp(`tool=get_order pointer=${pointer} `), `log of ${pointer}:\n${stderr}`);
      }
    });
  });
}
