// Shared by the e2e tests: runs orders-mcp as a Streamable HTTP server.

import { spawn } from 'node:child_process';

/**
 * Starts orders-mcp --http on a free loopback port with a bearer token for
 * alice, and resolves with the process and its /mcp URL (read from the
 * server's startup log line). extraArgs are added to the command line.
 */
export function startHTTPServer(bin, dbPath, extraArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, ['--db', dbPath, '--http', '0', '--token', 'tok-alice=alice', ...extraArgs], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    const timer = setTimeout(() => reject(new Error(`orders-mcp --http did not start:\n${log}`)), 15000);
    proc.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /url=(http:\/\/\S+\/mcp)/.exec(log);
      if (m) {
        clearTimeout(timer);
        proc.stderr.removeAllListeners('data');
        proc.stderr.resume();
        resolve({ proc, url: m[1] });
      }
    });
    proc.on('exit', (code) => reject(new Error(`orders-mcp --http exited with ${code}:\n${log}`)));
  });
}
