// Child process of routing.mjs and scenarios/routing.mjs (`routing-sim.mjs ROWS [LATENCY_MS]`):
// serves a routing engine simulator holding ROWS rows, each request delayed by LATENCY_MS,
// so the client's CPU and memory are measured apart from the server's.
import { startRoutingEngineSim } from '../../dist/sim/routing/index.js';
import { fields, number, priority, route } from './routing-data.mjs';

const rows = Number(process.argv[2] ?? 1_000_000);
const latencyMs = Number(process.argv[3] ?? 0);
const data = new Array(rows);
for (let i = 0; i < rows; i++) data[i] = { number: number(i), route: route(i), priority: priority(i) };
const server = await startRoutingEngineSim({
  latencyMs,
  seed: {
    credentials: { basic: [{ username: 'bench', password: 'bench' }] },
    maxResultsPerPage: 100,
    services: { bench: { active: { numbers: { fields, rows: data } } } },
  },
});
data.length = 0;
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('message', (m) => {
  if (m === 'stats')
    process.send?.({ stats: server.sim.stats(), maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) });
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
