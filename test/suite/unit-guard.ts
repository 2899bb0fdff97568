/**
 * The unit tier's promise, kept at run time (a setup file of the `unit` project): a unit test
 * that starts a process, listens on a port or opens a connection fails at that call, whatever
 * path led there (the test, a helper, or the code under test). The static check in
 * `tiers.test.ts` names the imports; this catches what imports cannot show.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);

function refuse(what: string): () => never {
  return () => {
    throw new Error(
      `a unit test (npm run test:unit) ${what}: unit tests run no simulator, no child process and no network. ` +
        'If the file needs one, list it under the e2e tier in test/suite/tiers.ts (or split its pure part out).',
    );
  };
}

const childProcess = require('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  childProcess[name] = refuse(`started a process (child_process.${name})`);

const net = require('node:net') as typeof import('node:net');
net.Server.prototype.listen = refuse('listened on a port (server.listen)');
net.Socket.prototype.connect = refuse('opened a network connection (socket.connect)');
(net as unknown as Record<string, unknown>)['connect'] = refuse('opened a network connection (net.connect)');
(net as unknown as Record<string, unknown>)['createConnection'] = refuse(
  'opened a network connection (net.createConnection)',
);

const dgram = require('node:dgram') as Record<string, unknown>;
dgram['createSocket'] = refuse('opened a UDP socket (dgram.createSocket)');

// ES module imports of these builtins (`import { spawn } from 'node:child_process'`) see the patched functions too.
syncBuiltinESMExports();
