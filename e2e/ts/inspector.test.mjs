// The MCP Inspector CLI (@modelcontextprotocol/inspector-cli, built on the
// 1.x TypeScript SDK, a 2025-11-25 client) lists and calls the orders
// server's tools over stdio and over Streamable HTTP.
//
//   ORDERS_MCP_BIN=/path/to/orders-mcp node --test e2e/ts

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startHTTPServer } from './server.mjs';

const bin = process.env.ORDERS_MCP_BIN;
if (!bin) {
  throw new Error('ORDERS_MCP_BIN must name the built orders-mcp binary (see scripts/test.sh)');
}

const cliDir = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');

/**
 * Runs the inspector CLI and returns its parsed JSON output. It runs in its
 * own build directory: 1.0.3 looks for its package.json relative to the
 * working directory.
 */
async function inspector(...args) {
  const { stdout } = await promisify(execFile)(process.execPath, [join(cliDir, 'index.js'), ...args], {
    cwd: cliDir,
    timeout: 30000,
  });
  return JSON.parse(stdout);
}

describe('Inspector CLI', () => {
  let dir;
  let server;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orders-inspector-'));
    server = await startHTTPServer(bin, join(dir, 'http.db'));
  });

  after(() => {
    server?.proc.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  const targets = {
    stdio: () => [bin, '--db', join(dir, 'stdio.db')],
    http: () => [server.url, '--transport', 'http', '--header', 'Authorization: Bearer tok-alice'],
  };
  for (const [kind, target] of Object.entries(targets)) {
    test(`lists the tools over ${kind}`, async () => {
      const [first, ...rest] = target();
      const args = kind === 'stdio' ? [first, '--method', 'tools/list', '--', ...rest] : [first, ...rest, '--method', 'tools/list'];
      const { tools } = await inspector(...args);
      assert.deepEqual(tools.map((t) => t.name), ['get_order_status', 'search_orders', 'create_return', 'confirm_return', 'export_order_history']);
      assert.equal(tools[0].outputSchema.type, 'object');
    });

    test(`calls get_order_status over ${kind}`, async () => {
      const [first, ...rest] = target();
      const call = ['--method', 'tools/call', '--tool-name', 'get_order_status', '--tool-arg', 'order_id=A1001'];
      const args = kind === 'stdio' ? [first, ...call, '--', ...rest] : [first, ...rest, ...call];
      const res = await inspector(...args);
      assert.ok(!res.isError, JSON.stringify(res));
      assert.deepEqual(res.structuredContent, { found: true, order_id: 'A1001', status: 'SHIPPED' });
    });
  }
});
