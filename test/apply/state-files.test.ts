import { readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Journal, JOURNAL_SYNC_INTERVAL_MS } from '../../src/apply/journal.js';
import { Progress } from '../../src/apply/progress.js';
import { RecordKeeper } from '../../src/apply/record.js';
import { checkSavedPlan, refuseRefusedPlan, savedPlanOptions } from '../../src/apply/saved-plan.js';
import { RefusedError } from '../../src/core/errors.js';
import { checkValueDigest } from '../../src/core/value-digest.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { readLastApplied } from '../../src/state/last-applied.js';

const target = { baseUrl: 'http://127.0.0.1:1', instance: 'demo' };

describe('journal', () => {
  const intent = (i: number) => ({
    type: 'intent' as const,
    seq: i,
    address: `tenant/t${i}`,
    method: 'POST',
    path: '/x',
    purpose: 'create',
  });

  it('writes each line before append returns, in order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-journal-'));
    const file = join(dir, 'sub', 'j.jsonl');
    const journal = await Journal.open(file);
    for (let i = 0; i < 50; i++) journal.append(intent(i));
    // No await since the appends: a process killed now would leave these lines behind.
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; at: string });
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(lines[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    await journal.close();
  });

  it('syncs the lines written meanwhile with one fsync, within the interval, and at sync()', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-journal-'));
    const probe = await open(join(dir, 'probe'), 'w');
    const syncs = vi.spyOn(Object.getPrototypeOf(probe) as FileHandle, 'sync');
    await probe.close();
    try {
      const journal = await Journal.open(join(dir, 'j.jsonl'));
      for (let i = 0; i < 200; i++) journal.append(intent(i));
      expect(syncs).toHaveBeenCalledTimes(0);
      await new Promise((resolve) => setTimeout(resolve, JOURNAL_SYNC_INTERVAL_MS * 3));
      expect(syncs).toHaveBeenCalledTimes(1);
      journal.append(intent(200));
      await journal.sync();
      expect(syncs).toHaveBeenCalledTimes(2);
      await journal.close();
      expect(syncs).toHaveBeenCalledTimes(2); // nothing new to sync
    } finally {
      syncs.mockRestore();
    }
  });

  it('throws SB_JOURNAL when a line cannot be written, and reports a failed sync', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-journal-'));
    const closed = await Journal.open(join(dir, 'closed.jsonl'));
    await closed.close();
    expect(() => closed.append(intent(1))).toThrow(expect.objectContaining({ code: 'SB_JOURNAL' }));

    const probe = await open(join(dir, 'probe'), 'w');
    const syncs = vi
      .spyOn(Object.getPrototypeOf(probe) as FileHandle, 'sync')
      .mockRejectedValue(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    await probe.close();
    try {
      const journal = await Journal.open(join(dir, 'j.jsonl'));
      journal.append(intent(1));
      await expect(journal.close()).rejects.toMatchObject({
        code: 'SB_JOURNAL',
        message: expect.stringContaining('EIO'),
      });
    } finally {
      syncs.mockRestore();
    }
  });
});

describe('a journal that fails', () => {
  it('fails once: writes nothing more, aborts `failed`, throws only for lines that must come first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-journal-'));
    const file = join(dir, 'j.jsonl');
    const journal = await Journal.open(file);
    journal.append({ type: 'run', event: 'start', runId: 'r' });
    journal.append(intentLine(1));
    const written = readFileSync(file, 'utf8');
    // Stands in for a full disk: the descriptor no longer takes writes.
    const probe = await open(join(dir, 'probe'), 'w');
    const writes = vi
      .spyOn(Object.getPrototypeOf(probe) as FileHandle, 'fd', 'get')
      .mockReturnValue(-1 as unknown as number);
    await probe.close();
    const change = { type: 'change' as const, address: 'tenant/t1', action: 'create', outcome: 'applied' as const };
    try {
      // A line that says what was done does not throw: it cannot undo it.
      expect(() => journal.append({ type: 'outcome', seq: 1, address: 'tenant/t1', ok: true, ms: 1 })).not.toThrow();
      expect(journal.failed.aborted).toBe(true);
      expect(journal.failed.reason).toMatchObject({ code: 'SB_JOURNAL', message: expect.stringContaining(file) });
      expect(journal.error).toBe(journal.failed.reason);
      writes.mockRestore();
      // Nothing more is written once it failed, even when the disk takes writes again: no line after a torn one.
      expect(() => journal.appendAll([change])).not.toThrow();
      expect(() => journal.append({ type: 'run', event: 'end', runId: 'r' })).not.toThrow();
      expect(() => journal.append(intentLine(2))).toThrow(expect.objectContaining({ code: 'SB_JOURNAL' }));
      expect(() => journal.appendAll([change, intentLine(3)])).toThrow(expect.objectContaining({ code: 'SB_JOURNAL' }));
      expect(readFileSync(file, 'utf8')).toBe(written);
      await expect(journal.close()).rejects.toBe(journal.error);
    } finally {
      writes.mockRestore();
    }
  });
});

function intentLine(seq: number) {
  return { type: 'intent' as const, seq, address: `tenant/t${seq}`, method: 'POST', path: '/x', purpose: 'create' };
}

describe('last-applied record keeper', () => {
  it('records write-only digests and the identity of unreadable kinds, drops deleted entries, writes atomically', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-record-'));
    const file = join(dir, 'last-applied.demo.json');
    const keeper = new RecordKeeper(
      file,
      target,
      new Map([
        ['tenant/gone/admin/x@y.z', { kind: 'Administrator', digests: {} }],
        ['tenant/gone-too', { kind: 'Tenant', digests: {} }],
      ]),
    );
    keeper.applied({
      kind: 'Administrator',
      address: 'tenant/a/admin/it@a.example',
      parentAddress: 'tenant/a',
      fields: { email: 'it@a.example', firstName: 'Ada' },
    });
    keeper.applied({ kind: 'Reseller', address: 'reseller/north', fields: { name: 'north', suspensionProfile: null } });
    keeper.applied({ kind: 'Tenant', address: 'tenant/a', fields: { name: 'a', markup: 3 } }); // nothing write-only: no entry
    keeper.deleted('tenant/gone'); // its administrators' entries go with it; tenant/gone-too stays
    await keeper.close();
    const record = await readLastApplied(file);
    expect([...record.keys()]).toEqual(['reseller/north', 'tenant/a/admin/it@a.example', 'tenant/gone-too']);
    const admin = record.get('tenant/a/admin/it@a.example');
    expect(admin).toEqual({
      kind: 'Administrator',
      digests: { firstName: expect.stringMatching(/^scrypt:/) },
      identity: { email: 'it@a.example' },
    });
    expect(checkValueDigest('Ada', admin?.digests['firstName'] ?? '')).toBe('same');
    expect(checkValueDigest(null, record.get('reseller/north')?.digests['suspensionProfile'] ?? '')).toBe('same');
    expect(await readFile(file, 'utf8')).not.toContain('Ada');
  });
});

describe('saved plan checks (docs/plans.md)', () => {
  const change = (address: string, action: Change['action'], liveDigest?: string): Change => ({
    address,
    kind: 'Tenant',
    provider: 'platform',
    action,
    before: null,
    after: {},
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [{ method: action === 'create' ? 'POST' : 'PUT', path: `/t/${address}` }],
    ...(liveDigest ? { liveDigest } : {}),
  });
  const plan = (changes: Change[], extra: Partial<Plan> = {}): Plan => ({
    formatVersion: 2,
    createdAt: '2026-11-22T00:00:00Z',
    tool: { name: 'switchboard', version: '0.1.0' },
    target,
    manifests: { digest: 'sha256:m', files: ['t.yaml'] },
    summary: { create: 0, update: 0, replace: 0, delete: 0, noop: 0, unmanaged: 0 },
    changes,
    unmanaged: [],
    warnings: [],
    errors: [],
    ...extra,
  });

  it('plans again with the options recorded in the saved plan; one given on the command line must agree (exit 3 otherwise)', () => {
    const recorded = {
      target: ['tenant/a'],
      exclude: [],
      prune: true,
      allowReplace: false,
      maxDeletePercent: 10,
      maxUpdatePercent: 30,
      allowPolicy: [],
    };
    const given = {
      target: [],
      exclude: [],
      prune: false,
      allowReplace: false,
      maxDeletePercent: 10,
      maxUpdatePercent: 30,
      allowPolicy: [],
    };
    const saved = plan([], { options: recorded });
    expect(savedPlanOptions(saved, given, () => false, 'plan.json')).toEqual(recorded);
    expect(savedPlanOptions(saved, { ...given, prune: true }, (key) => key === 'prune', 'plan.json')).toEqual(recorded);
    const refused = (() => {
      try {
        savedPlanOptions(
          saved,
          { ...given, maxDeletePercent: 50 },
          (key) => key === 'prune' || key === 'maxDeletePercent',
          'plan.json',
        );
      } catch (error) {
        return error as RefusedError;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({ code: 'SB_PLAN_OPTIONS', exitCode: 3 });
    expect(refused?.message).toContain('--prune: the plan was made with --prune, this command gives no --prune');
    expect(refused?.message).toContain(
      '--max-delete-percent: the plan was made with --max-delete-percent 10, this command gives --max-delete-percent 50',
    );
    // a plan file without options (a library's plan): the command line's own
    expect(savedPlanOptions(plan([]), given, () => true, 'plan.json')).toEqual(given);
  });

  it('never takes a loosened safety rail from the file: whoever applies gives it again; a stricter one is kept', () => {
    const defaults = {
      target: [],
      exclude: [],
      prune: false,
      allowReplace: false,
      maxDeletePercent: 10,
      maxUpdatePercent: 30,
      allowPolicy: [],
    };
    const loose = plan([], {
      options: { ...defaults, maxDeletePercent: 100, maxUpdatePercent: 90, allowReplace: true },
    });
    expect(() => savedPlanOptions(loose, defaults, () => false, 'plan.json')).toThrow(
      expect.objectContaining({
        code: 'SB_PLAN_OPTIONS',
        exitCode: 3,
        message: expect.stringContaining(
          'the plan was made with --max-delete-percent 100 --max-update-percent 90 --allow-replace, which this command does not give',
        ) as unknown,
      }),
    );
    const again = { ...defaults, maxDeletePercent: 100, maxUpdatePercent: 90, allowReplace: true };
    expect(savedPlanOptions(loose, again, () => true, 'plan.json')).toEqual(again);
    const strict = plan([], { options: { ...defaults, maxDeletePercent: 5, maxUpdatePercent: 20 } });
    expect(savedPlanOptions(strict, defaults, () => false, 'plan.json')).toMatchObject({
      maxDeletePercent: 5,
      maxUpdatePercent: 20,
    });
  });

  it('applies a plan with policy overrides only when the command line gives the same ones again (in any order)', () => {
    const options = { target: [], exclude: [], prune: false, allowReplace: false, maxDeletePercent: 10 };
    const saved = plan([], {
      options: { ...options, maxUpdatePercent: 30, allowPolicy: ['geo-cap', 'ids'] },
      policy: { overrides: ['geo-cap', 'ids'] },
    });
    const given = (allowPolicy: string[]) => ({ ...options, maxUpdatePercent: 30, allowPolicy });
    expect(savedPlanOptions(saved, given(['ids', 'geo-cap']), () => true, 'p').allowPolicy).toEqual(['geo-cap', 'ids']);
    for (const wrong of [[], ['geo-cap'], ['geo-cap', 'ids', 'other']]) {
      expect(() => savedPlanOptions(saved, given(wrong), () => false, 'plan.json')).toThrow(
        expect.objectContaining({ code: 'SB_PLAN_OPTIONS', exitCode: 3 }),
      );
    }
    // Without overrides, none may be given; a plan file without options is held to the same.
    expect(() => savedPlanOptions(plan([]), given(['ids']), () => true, 'plan.json')).toThrow(
      /--allow-policy: the plan was made with no --allow-policy, this command gives --allow-policy ids/,
    );
  });

  it('refuses a plan the rails refused when it was made, whatever a fresh plan says', () => {
    expect(() => refuseRefusedPlan(plan([]), 'plan.json')).not.toThrow();
    const refused = plan([change('tenant/a', 'delete', 'sha256:1')], {
      errors: [{ code: 'SB_DELETE_THRESHOLD', message: 'too many' }],
    });
    expect(() => refuseRefusedPlan(refused, 'plan.json')).toThrow(
      expect.objectContaining({ code: 'SB_PLAN_REFUSED', exitCode: 3 }),
    );
  });

  it('returns the fresh changes when they are exactly the saved ones', () => {
    const saved = plan([change('tenant/a', 'update', 'sha256:1')]);
    const fresh = plan([change('tenant/a', 'update', 'sha256:1')]);
    expect(checkSavedPlan(saved, fresh, 'plan.json').map((c) => c.address)).toEqual(['tenant/a']);
  });

  it('refuses (exit 3) listing every address whose live digest or action changed, or that needs nothing now', () => {
    const saved = plan([
      change('tenant/a', 'update', 'sha256:1'),
      change('tenant/b', 'create'),
      change('tenant/c', 'update', 'sha256:3'),
    ]);
    const fresh = plan([change('tenant/a', 'update', 'sha256:2'), change('tenant/b', 'update', 'sha256:9')]);
    let error: unknown;
    try {
      checkSavedPlan(saved, fresh, 'plan.json');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'SB_PLAN_STALE', exitCode: 3 });
    const message = (error as Error).message;
    expect(message).toContain('tenant/a: the live object changed since the plan was made');
    expect(message).toContain('tenant/b: the plan would now update (saved: create)');
    expect(message).toContain('tenant/c: the plan would now do nothing here (saved: update)');
  });

  it('refuses (exit 3) a saved plan that is a subset of the fresh one, holds a change in excess, or other values', () => {
    const refusal = (saved: Plan, fresh: Plan) => {
      try {
        checkSavedPlan(saved, fresh, 'plan.json');
      } catch (e) {
        return e as RefusedError;
      }
      throw new Error('not refused');
    };
    const a = change('tenant/a', 'update', 'sha256:1');
    const b = change('tenant/b', 'create');
    const subset = refusal(plan([a]), plan([a, b]));
    expect(subset).toMatchObject({ code: 'SB_PLAN_MISMATCH', exitCode: 3 });
    expect(subset.message).toContain(
      'tenant/b: the fresh plan would create it, and the plan file does not hold that change',
    );
    const edited = refusal(plan([{ ...a, after: { markup: 99 } }]), plan([{ ...a, after: { markup: 5 } }]));
    expect(edited.message).toContain('tenant/a: after (plan file: {"markup":99}, fresh plan: {"markup":5}) differ');
    const reordered = refusal(plan([b, a]), plan([a, b]));
    expect(reordered.message).toContain('the fresh plan holds the same changes in another order');
  });

  it('refuses another target or other manifests', () => {
    const saved = plan([]);
    expect(() => checkSavedPlan(saved, plan([], { target: { ...target, instance: 'prod' } }), 'p.json')).toThrow(
      /was made for/,
    );
    expect(() =>
      checkSavedPlan(saved, plan([], { manifests: { digest: 'sha256:other', files: [] } }), 'p.json'),
    ).toThrow(/other manifests/);
  });

  it('refuses another routing engine when the plan reads or changes routing rows, and only then', () => {
    const engineA = { ...target, routingEngine: 'http://engine-a:9000' };
    const engineB = { ...target, routingEngine: 'http://engine-b:9000' };
    const row = { ...change('routing/draas/standby/routes/number=+1', 'create'), provider: 'routing' as const };
    const refused = expect.objectContaining({ code: 'SB_PLAN_TARGET', exitCode: 3 });
    // Routing changes, or a fresh plan that read the engine: the engine is part of the target.
    expect(() => checkSavedPlan(plan([row], { target: engineA }), plan([row], { target: engineB }), 'p')).toThrow(
      refused,
    );
    expect(() =>
      checkSavedPlan(plan([], { target: engineA }), plan([], { target: engineB }), 'p', { routing: true }),
    ).toThrow(
      /was made against the routing engine http:\/\/engine-a:9000, and this run reads the routing engine http:\/\/engine-b:9000/,
    );
    // A file that names no engine cannot say which engine it read; a run without one reads none of the file's.
    expect(() => checkSavedPlan(plan([row]), plan([row], { target: engineB }), 'p')).toThrow(
      /records no routing engine/,
    );
    expect(() => checkSavedPlan(plan([row], { target: engineA }), plan([row]), 'p')).toThrow(/\(none configured\)/);
    // The same engine (a trailing slash aside) is the same target.
    const slash = { ...target, routingEngine: 'http://engine-a:9000/' };
    expect(checkSavedPlan(plan([row], { target: engineA }), plan([row], { target: slash }), 'p')).toHaveLength(1);
    // A platform-only plan: an engine configured but never read is not part of its target.
    const platform = change('tenant/a', 'update', 'sha256:1');
    expect(
      checkSavedPlan(plan([platform], { target: engineA }), plan([platform], { target: engineB }), 'p'),
    ).toHaveLength(1);
  });
});

describe('progress', () => {
  it('on a terminal, redraws one line with done/total, failures, rate and ETA', () => {
    let text = '';
    const out = Object.assign(
      new (class {
        write(chunk: string) {
          text += chunk;
          return true;
        }
      })(),
      { isTTY: true },
    ) as unknown as NodeJS.WritableStream & { isTTY: boolean };
    const progress = new Progress(2, out);
    progress.start();
    progress.settle({ status: 'applied' });
    progress.settle({ status: 'failed', message: 'x' });
    progress.stop();
    expect(text).toContain('\r\x1b[2K');
    expect(text).toMatch(/apply: 2\/2 changes, 1 failed, [\d.]+\/s/);
    expect(text.endsWith('\n')).toBe(true);
  });
});
