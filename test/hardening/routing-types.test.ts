/**
 * Routing-table column types against what the engine holds (docs/routing.md "Row identity
 * and typed comparison"), on the engine Document 3 describes and on an unmodified
 * Flask-Restless 0.17 over SQLite (the simulator's `peer` option: text accepted for integer
 * columns, no `_bulk`, 200 on empty lists):
 *
 * - a declared type no live value has (`string` declared, integers live) is refused at plan
 *   time with a message whose advice works; before, every plan showed `5 → "5"` and every
 *   apply sent every row again (or got a 500 per row);
 * - values of another JSON type that the engine stored as its own compare as one value;
 * - text columns nothing types (no `spec.fields`, `spec.fields: {}`, or a partial list, on an
 *   empty table) are refused like the untyped case; before, booleans went out as text and
 *   every create got a 500 after a plan that said nothing;
 * - an integer beyond 2^53 is refused wherever it cannot be held exactly (a YAML number, a
 *   numeric column), with advice that is right for the column; before, an inline one was
 *   written inexactly and apply exited 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRoutingEngineSim, type RoutingSimServer } from '../../src/sim/routing/index.js';
import type { RoutingSeed, SimTableSeed } from '../../src/sim/routing/types.js';
import { manifestDir, runCli } from '../e2e/cli-helpers.js';

const engines: RoutingSimServer[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

async function engine(peer: RoutingSeed['peer'], tables: Record<string, SimTableSeed>): Promise<RoutingSimServer> {
  const seed: RoutingSeed = {
    credentials: { basic: [{ username: 'routing', password: 'routing' }] },
    services: { uc: { active: tables } },
    ...(peer ? { peer } : {}),
  };
  const server = await startRoutingEngineSim({ seed });
  engines.push(server);
  return server;
}

const env = (server: RoutingSimServer) => ({
  SWITCHBOARD_RE_URL: server.url,
  SWITCHBOARD_RE_USERNAME: 'routing',
  SWITCHBOARD_RE_PASSWORD: 'routing',
  NO_COLOR: '1',
});

const doc = (name: string, spec: string) => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: ${name}, service: uc, version: active }
spec:
  key: [number]
${spec}`;

const PRIORITIES = {
  fields: {
    number: { type: 'string' as const, unique: true, nullable: false },
    priority: { type: 'integer' as const },
  },
  rows: Array.from({ length: 4 }, (_, i) => ({ number: `+3210000${i}`, priority: i + 5 })),
};
const PRIORITY_CSV = `number,priority\n${PRIORITIES.rows.map((r) => `${r.number},${r.priority}`).join('\n')}\n`;

const FLAGS = {
  fields: {
    number: { type: 'string' as const, unique: true, nullable: false },
    enabled: { type: 'boolean' as const },
    weight: { type: 'integer' as const },
  },
};
const FLAGS_CSV = 'number,enabled,weight\n+3221000001,true,10\n+3221000002,false,20\n';

async function plan(server: RoutingSimServer, files: Record<string, string>, ...args: string[]) {
  const dir = await manifestDir(files);
  const planned = await runCli(['plan', dir, ...args], { env: env(server), cwd: dir });
  return { dir, ...planned };
}

for (const peer of [undefined, 'flask-restless-0.17'] as const) {
  const engineName = peer ?? 'the engine of Document 3';

  describe(`a declared type that contradicts the live values (${engineName})`, () => {
    it('string declared, integers live: refused at plan time, and the advice it gives converges', async () => {
      const server = await engine(peer, { prio: PRIORITIES });
      const refused = await plan(server, {
        'prio.yaml': doc('prio', '  fields: { number: string, priority: string }\n  recordsFrom: prio.csv\n'),
        'prio.csv': PRIORITY_CSV,
      });
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toContain('SB_ROUTING_TYPE_MISMATCH');
      expect(refused.stderr).toContain(
        'spec.fields declares "priority" string, but the engine holds integers in it (all 4 live value(s), e.g. row id 1: 5)',
      );
      expect(refused.stderr).toMatch(/Declare it integer \(what the engine holds\), or leave it out of spec\.fields/);
      expect(refused.stdout).not.toContain('5 → "5"');

      // The advice: declare it integer. Nothing differs; a changed value is applied once and converges.
      const files = {
        'prio.yaml': doc('prio', '  fields: { number: string, priority: integer }\n  recordsFrom: prio.csv\n'),
        'prio.csv': PRIORITY_CSV.replace('+32100000,5', '+32100000,9'),
      };
      const first = await plan(server, files);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete.');
      const applied = await runCli(['apply', first.dir, '--yes'], { env: env(server), cwd: first.dir });
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      const again = await runCli(['plan', first.dir], { env: env(server), cwd: first.dir });
      expect(again.stdout).toContain('No changes.');
    });

    it('every pair of contradicting types is refused: integer declared over text, boolean over integers', async () => {
      const server = await engine(peer, {
        codes: {
          fields: { number: { type: 'string', unique: true, nullable: false }, code: { type: 'string' } },
          rows: [{ number: '+3230000', code: '7' }],
        },
        prio: PRIORITIES,
      });
      const refused = await plan(server, {
        'codes.yaml': doc(
          'codes',
          '  fields: { number: string, code: integer }\n  records: [{ number: "+3230000", code: 7 }]\n',
        ),
        'prio.yaml': doc(
          'prio',
          '  fields: { number: string, priority: boolean }\n  records: [{ number: "+32100000", priority: true }]\n',
        ),
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('spec.fields declares "code" integer, but the engine holds text in it');
      expect(refused.stderr).toContain('spec.fields declares "priority" boolean, but the engine holds integers in it');
    });
  });

  describe(`text columns nothing types, on an empty table (${engineName})`, () => {
    for (const [what, fields] of [
      ['no spec.fields', ''],
      ['spec.fields: {}', '  fields: {}\n'],
      ['a partial spec.fields', '  fields: { number: string }\n'],
    ] as const) {
      it(`${what}: refused at plan time naming the untyped columns; nothing is sent`, async () => {
        const server = await engine(peer, { flags: FLAGS });
        const refused = await plan(server, {
          'flags.yaml': doc('flags', `${fields}  recordsFrom: flags.csv\n`),
          'flags.csv': FLAGS_CSV,
        });
        expect(refused.code, refused.stdout).toBe(1);
        expect(refused.stderr).toContain('SB_ROUTING_UNTYPED');
        const untyped = fields.includes('number') ? '"enabled", "weight"' : '"number", "enabled", "weight"';
        expect(refused.stderr).toContain(`columns ${untyped} have no declared type and no live row shows one`);
        expect(server.sim.stats()).not.toHaveProperty('POST collection');
      });
    }
  });

  describe(`integers beyond 2^53 (${engineName})`, () => {
    it('an inline YAML integer without spec.fields on an empty table: refused, never written inexactly', async () => {
      const server = await engine(peer, { flags: FLAGS });
      const refused = await plan(server, {
        'flags.yaml': doc('flags', '  records: [{ number: "+3221000001", enabled: true, weight: 9007199254740993 }]\n'),
      });
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toContain('SB_ROUTING_BAD_VALUE');
      expect(refused.stderr).toContain(
        'field "weight": 9007199254740992 (as YAML read it: a number) is beyond 2^53, which no number holds exactly',
      );
      expect(refused.stderr).toContain(
        "If the engine's column is text, write the value in quotes and declare the field string",
      );
    });

    it('a numeric column: the advice is what holds (values below 2^53), declared or typed by the live values', async () => {
      const server = await engine(peer, { prio: PRIORITIES });
      const declared = await plan(server, {
        'prio.yaml': doc('prio', '  fields: { number: string, priority: integer }\n  recordsFrom: prio.csv\n'),
        'prio.csv': 'number,priority\n+32100000,9007199254740993\n',
      });
      expect(declared.code).toBe(1);
      expect(declared.stderr).toContain(
        '"priority" 9007199254740993 is beyond 2^53 (9007199254740991), which no number holds exactly',
      );
      expect(declared.stderr).toContain(
        "a numeric column of the engine cannot hold it, so keep its values below 2^53; if the engine's column is text",
      );
      const typedByLive = await plan(server, {
        'prio.yaml': doc('prio', '  fields: { number: string }\n  recordsFrom: prio.csv\n'),
        'prio.csv': 'number,priority\n+32100000,9007199254740993\n',
      });
      expect(typedByLive.code).toBe(1);
      expect(typedByLive.stderr).toContain(
        'field "priority": 9007199254740993 is beyond 2^53, and the engine holds numbers in this column',
      );
      expect(typedByLive.stderr).toContain('Keep the values of a numeric column below 2^53');
      expect(typedByLive.stderr).not.toContain('declare the field string');
    });

    it('a text column, declared string: the value is kept exactly and converges', async () => {
      const server = await engine(peer, {
        ids: {
          fields: { number: { type: 'string', unique: true, nullable: false }, ref: { type: 'string' } },
          rows: [{ number: '+3240000', ref: '1' }],
        },
      });
      const files = {
        'ids.yaml': doc('ids', '  fields: { number: string, ref: string }\n  recordsFrom: ids.csv\n'),
        'ids.csv': 'number,ref\n+3240000,9007199254740993\n',
      };
      const first = await plan(server, files);
      expect(first.code, first.stderr).toBe(0);
      expect((await runCli(['apply', first.dir, '--yes'], { env: env(server), cwd: first.dir })).code).toBe(0);
      expect((await runCli(['plan', first.dir], { env: env(server), cwd: first.dir })).stdout).toContain('No changes.');
    });
  });
}

describe('values of another type that a converting engine stored as its own (flask-restless-0.17)', () => {
  it('compare as one value: a column holding integers and text, declared string, converges', async () => {
    const server = await engine('flask-restless-0.17', {
      prio: { ...PRIORITIES, rows: [...PRIORITIES.rows, { number: '+32100009', priority: 'high' }] },
    });
    // "05" and 6 were stored as 5 and 6 by SQLite's affinity: the same values, not changes.
    const files = {
      'prio.yaml': doc('prio', '  fields: { number: string, priority: string }\n  recordsFrom: prio.csv\n'),
      'prio.csv': 'number,priority\n+32100000,05\n+32100001,7\n+32100009,high\n',
    };
    const first = await plan(server, files, '--format', 'json');
    expect(first.code, first.stderr).toBe(0);
    const changes = (JSON.parse(first.stdout) as { changes: { address: string }[] }).changes.map((c) => c.address);
    expect(changes).toEqual(['routing/uc/active/prio/number=+32100001']);
    expect((await runCli(['apply', first.dir, '--yes'], { env: env(server), cwd: first.dir })).code).toBe(0);
    expect((await runCli(['plan', first.dir], { env: env(server), cwd: first.dir })).stdout).toContain('No changes.');
  });
});
