/**
 * The run layer (src/run) as `demo` and tests use it, in-process against an embedded
 * simulator: providers plan in order, every change names its provider, and apply sends the
 * requests the planner built (the kind hooks that build requests are not called again).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { entitlementKind } from '../../src/kinds/entitlement.js';
import { subscriptionKind } from '../../src/kinds/subscription.js';
import { tenantKind } from '../../src/kinds/tenant.js';
import { applyRun, openSession, planRun, type PlanRunOptions, type Session } from '../../src/run/index.js';

const MANIFESTS = {
  'tenant.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: run-co, reseller: north }
spec:
  billingId: T-RUN
  subscriptions:
    - name: main
      billingId: T-RUN-MAIN
      uc: uc_alpha
      entitlements:
        - { type: BE geo, entitlement: 5 }
`,
  'routes.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { priority: integer }
  records:
    - { number: "+3229991001", route: trunk-1, priority: 10 }
    - { number: "+3229991002", route: trunk-2, priority: 20 }
`,
};

let dir: string;
let session: Session;
const options = (): PlanRunOptions => ({
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 10,
  concurrency: 4,
  stateDir: join(dir, 'state'),
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-run-'));
  for (const [name, text] of Object.entries(MANIFESTS)) await writeFile(join(dir, name), text);
  session = await openSession({ sim: true, concurrency: 4, logger: silentLogger }, { platform: true, routing: true });
});

afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the run layer', () => {
  it('plans provider by provider and applies with the requests the planner built', async () => {
    const hooks = [
      vi.spyOn(tenantKind, 'create'),
      vi.spyOn(subscriptionKind, 'create'),
      vi.spyOn(entitlementKind, 'create'),
    ];
    const run = await planRun([dir], options(), silentLogger, session);
    expect(run.providers.map((p) => p.name)).toEqual(['platform', 'routing']);
    expect(run.parts.map((p) => p.provider)).toEqual(['platform', 'routing']);
    expect(run.plan.changes.map((c) => `${c.provider} ${c.action} ${c.address}`)).toEqual([
      'platform create tenant/run-co',
      'platform create tenant/run-co/subscription/main',
      'platform create tenant/run-co/subscription/main/entitlement/BE geo',
      'routing create routing/draas/standby/routes/number=+3229991001',
      'routing create routing/draas/standby/routes/number=+3229991002',
    ]);
    const builtWhilePlanning = hooks.map((h) => h.mock.calls.length);
    expect(builtWhilePlanning).toEqual([1, 1, 1]);

    const progress = { write: () => true } as unknown as NodeJS.WritableStream;
    const applied = await applyRun(run, run.plan.changes, {
      concurrency: 4,
      failFast: false,
      stateDir: join(dir, 'state'),
      progressOut: progress,
    });
    expect(applied.result).toMatchObject({ applied: 5, failed: 0, skipped: 0 });
    // The platform's three POSTs and the routing engine's one `_bulk`.
    expect(applied.result.requests).toBe(4);
    expect(hooks.map((h) => h.mock.calls.length)).toEqual(builtWhilePlanning);

    const again = await planRun([dir], options(), silentLogger, session);
    expect(again.plan.changes).toEqual([]);
    expect(again.plan.summary.noop).toBe(5);
  });

  it('readsDone: a run that opened its session hands it over once the last request is answered; the plan needs it no more', async () => {
    const handed: Session[] = [];
    const run = await planRun(
      [dir],
      {
        ...options(),
        sim: true,
        // What `plan` does there: close it, so that the logout goes on while the plan is assembled.
        readsDone: (opened) => {
          handed.push(opened);
          void opened.close();
        },
      },
      silentLogger,
    );
    expect(handed).toEqual([run.session]);
    expect(run.plan.changes.map((c) => c.address)).toContain('tenant/run-co');
    expect(run.plan.provenance?.user?.username).toBe('admin');
    // A session the caller gave is the caller's: never handed over.
    const given: Session[] = [];
    await planRun([dir], { ...options(), readsDone: (s) => given.push(s) }, silentLogger, session);
    expect(given).toEqual([]);
  });

  it('a session closes once, however often it is asked (a plan that failed after handing it over closes it again)', async () => {
    const opened = await openSession(
      { sim: true, concurrency: 2, logger: silentLogger },
      { platform: true, routing: true },
    );
    const first = opened.close();
    const again = opened.close();
    expect(again).toBe(first);
    await first;
  });

  it('refuses changes of a provider the run did not plan with', async () => {
    const run = await planRun([dir], { ...options(), target: ['tenant/run-co'] }, silentLogger, session);
    expect(run.providers.map((p) => p.name)).toEqual(['platform']);
    const row = {
      address: 'routing/draas/standby/routes/number=+1',
      kind: 'RoutingRow',
      provider: 'routing' as const,
      action: 'create' as const,
      before: null,
      after: {},
      patch: [],
      reason: '',
      dependsOn: [],
      requests: [],
    };
    const progress = { write: () => true } as unknown as NodeJS.WritableStream;
    await expect(
      applyRun(run, [row], { concurrency: 1, failFast: false, stateDir: join(dir, 'state'), progressOut: progress }),
    ).rejects.toMatchObject({ code: 'SB_APPLY_NO_PROVIDER' });
  });
});
