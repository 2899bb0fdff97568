/**
 * `switchboard sim`: serves the embedded simulator (docs/simulator.md) until interrupted. With
 * `--state FILE` the data survives restarts (written on every change, debounced, and on exit).
 */
import type { Command } from 'commander';
import { SwitchboardError } from '../../core/errors.js';
import { decimal } from '../numbers.js';
import type { CommandRegistrar } from '../program.js';

interface SimOptions {
  port: string;
  host: string;
  seed?: string;
  state?: string;
  latency?: string;
  faultRate?: string;
  rateLimit?: string;
  variants?: string;
}

function number(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = decimal(value) ?? Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max)
    throw new SwitchboardError('SB_USAGE', `${name} must be a number between ${min} and ${max}, not ${value}`);
  return n;
}

/** `--rate-limit N`: a positive number of requests per second (a fraction: fewer than one). */
function rateLimitOf(value: string | undefined): { rateLimit?: number } {
  if (value === undefined) return {};
  const n = decimal(value) ?? Number.NaN;
  if (!Number.isFinite(n) || n <= 0)
    throw new SwitchboardError(
      'SB_USAGE',
      `--rate-limit must be a positive number of requests per second, not ${value}`,
    );
  return { rateLimit: n };
}

/** Why the simulator could not listen, as a diagnostic; undefined for anything else. */
function listenError(error: unknown, host: string, port: number): SwitchboardError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new SwitchboardError(
      'SB_SIM_PORT',
      `port ${port} on ${host} is in use (another simulator, or another program): stop it, or choose another port with --port (--port 0 picks a free one)`,
    );
  }
  if (code === 'EACCES')
    return new SwitchboardError(
      'SB_SIM_PORT',
      `port ${port} on ${host} needs privileges this user lacks: choose a port above 1023 with --port`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new SwitchboardError(
      'SB_SIM_HOST',
      `--host ${host} is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its own addresses`,
    );
  return undefined;
}

export const registerSim: CommandRegistrar = (program: Command, context) => {
  program
    .command('sim')
    .description('Run the embedded simulator of the platform API and routing engine')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <file>', 'seed data (YAML or JSON) instead of the default data set')
    .option('--state <file>', 'persist the data in this file across restarts')
    .option('--latency <ms>', 'latency added to every API request')
    .option('--fault-rate <p>', 'probability (0..1) that an API request fails with 500, 503 or 429')
    .option('--rate-limit <n>', 'requests per second each API serves; beyond it, 429 with Retry-After')
    .option(
      '--variants <seed>',
      'serve every loosely typed field in one of its documented forms, drawn per answer from this seed',
    )
    .action(async (opts: SimOptions) => {
      const ctx = context();
      // Imported here: the other commands start faster without the simulator's code.
      const { startSimulator } = await import('../../sim/index.js');
      const port = number(opts.port, '--port', 0, 65535) ?? 8080;
      const sim = await startSimulator({
        port,
        host: opts.host,
        ...(opts.seed ? { seed: opts.seed } : {}),
        ...(opts.state ? { stateFile: opts.state } : {}),
        latencyMs: number(opts.latency, '--latency', 0, 600_000) ?? 0,
        faultRate: number(opts.faultRate, '--fault-rate', 0, 1) ?? 0,
        ...rateLimitOf(opts.rateLimit),
        ...(opts.variants !== undefined ? { variants: opts.variants } : {}),
        logger: ctx.logger,
      }).catch((error: unknown) => {
        throw listenError(error, opts.host, port) ?? error;
      });
      ctx.stdout.write(
        `Simulator listening on ${sim.url}\n` +
          `  platform API:   ${sim.url}/api/v01/draas/${sim.core.store.instance}/…  (log in as admin / admin)\n` +
          `  routing engine: ${sim.url}/<service>/<version>/<table>\n` +
          `  control:        ${sim.url}/_sim/state | outbox | events | clock | faults | stats | reset\n` +
          (opts.state ? `  state file:     ${opts.state}\n` : '') +
          (sim.rateLimit !== undefined
            ? `  rate limit:     ${sim.rateLimit} requests per second per API, then 429 with Retry-After\n`
            : '') +
          (sim.core.variantSeed !== undefined
            ? `  variants:       seed ${String(sim.core.variantSeed)} (loosely typed fields vary per answer)\n`
            : '') +
          'Press Ctrl+C to stop.\n',
      );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await sim.close();
    });
};
