// A server generated with client profiles, listed and called by the
// official MCP TypeScript client, @modelcontextprotocol/client 2.4.0:
// e2e/profiles (profiles-mcp) is generated with the gemini and cursor
// profiles. Its tools/list must hold no $ref or $defs and only names of
// [A-Za-z0-9_-] that fit Cursor's 60 characters with the server name; the
// renamed tools answer under their listed names, with output the client
// validates against the rewritten output schema; and the server still
// refuses, by the full schema, what the listed schema no longer says
// (a tree deeper than the recursion cut, an unknown property). In both
// eras. PROFILES_MCP_BIN names the built profiles-mcp.
//
//   PROFILES_MCP_BIN=/path/to/profiles-mcp node --test e2e/ts/profiles.test.mjs

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const bin = process.env.PROFILES_MCP_BIN;
if (!bin) {
  throw new Error('PROFILES_MCP_BIN must name the built profiles-mcp binary (see scripts/test.sh)');
}

const serverName = 'profiles';
const walk = 'catalog_walk_category_tree_with_all_descen_f573ab7b';

// tree nests depth categories, each with a leaf sibling.
function tree(depth, leafName = 'leaf') {
  let node = { name: leafName };
  for (let i = 0; i < depth; i++) {
    node = { name: `level${i}`, children: [node, { name: `sibling${i}` }] };
  }
  return node;
}

// keys collects every object key of a JSON value.
function keys(v, out = new Set()) {
  if (Array.isArray(v)) {
    v.forEach((e) => keys(e, out));
  } else if (v && typeof v === 'object') {
    for (const [k, e] of Object.entries(v)) {
      out.add(k);
      keys(e, out);
    }
  }
  return out;
}

for (const mode of ['auto', 'legacy']) {
  describe(`profiles-mcp (${mode})`, () => {
    let client;
    let tools;

    before(async () => {
      client = new Client({ name: 'mcpgen-e2e-profiles', version: '0.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StdioClientTransport({ command: bin, stderr: 'ignore' }));
      ({ tools } = await client.listTools());
    });

    after(async () => {
      await client?.close();
    });

    test('tools/list has no $ref or $defs, and names fit the cap', () => {
      assert.equal(tools.length, 2);
      for (const t of tools) {
        assert.match(t.name, /^[A-Za-z0-9_-]+$/);
        assert.ok(serverName.length + t.name.length < 60, `${serverName} + ${t.name} is ${serverName.length + t.name.length} characters`);
        const k = keys([t.inputSchema, t.outputSchema]);
        assert.ok(!k.has('$ref') && !k.has('$defs'), `${t.name} lists $ref or $defs`);
        // gemini: the input schema is in the OpenAPI 3.0 subset.
        for (const gone of ['oneOf', 'additionalProperties', 'exclusiveMinimum', 'const']) {
          assert.ok(!keys(t.inputSchema).has(gone), `${t.name} input lists ${gone}`);
        }
      }
      assert.deepEqual(tools.map((t) => t.name).sort(), ['catalog_find_item', walk]);
      const find = tools.find((t) => t.name === 'catalog_find_item');
      assert.deepEqual(find.inputSchema.properties.status, { type: 'string', nullable: true, enum: ['ACTIVE', 'RETIRED'] });
      assert.equal(find.inputSchema.properties.by.anyOf[0].properties.id.minimum, 1);
    });

    test('a renamed tool answers under its listed name, deeper than the cut', async () => {
      const root = tree(6);
      const res = await client.callTool({ name: walk, arguments: { root } });
      assert.equal(res.isError, undefined, JSON.stringify(res));
      assert.deepEqual(res.structuredContent, root);
    });

    test('the union still works through anyOf', async () => {
      for (const [by, how] of [[{ id: 7 }, 'by id'], [{ name: 'lamp' }, 'by name']]) {
        const res = await client.callTool({ name: 'catalog_find_item', arguments: { by, status: null } });
        assert.deepEqual(res.structuredContent, { how });
      }
    });

    test('the server validates against the full schema', async () => {
      // An empty name below the recursion cut: the listed schema allows
      // any value there, the spec does not.
      const deep = await client.callTool({ name: walk, arguments: { root: tree(6, '') } });
      assert.equal(deep.isError, true);
      assert.match(deep.content[0].text, /children/);
      // id 0: the listed minimum 1 says so, and the server refuses it too.
      const zero = await client.callTool({ name: 'catalog_find_item', arguments: { by: { id: 0 } } });
      assert.equal(zero.isError, true);
      // An unknown property, which the listed schema no longer refuses.
      const extra = await client.callTool({ name: 'catalog_find_item', arguments: { by: { id: 1 }, colour: 'red' } });
      assert.equal(extra.isError, true);
    });

    test('the spec name is not a tool name', async () => {
      const res = await client.callTool({ name: 'catalog.find_item', arguments: { by: { id: 1 } } }).then(
        (r) => r,
        (e) => ({ error: e }),
      );
      assert.ok(res.error || res.isError, JSON.stringify(res));
    });
  });
}
