import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, digestOf } from '../../src/core/canonical-json.js';
import { changeSetSeal } from '../../src/plan/change-set.js';
import { SwitchboardError } from '../../src/core/errors.js';
import { readPlanFile, writePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/plan/render-json.js';
import type { Plan } from '../../src/plan/types.js';
import { SECRETS, emptyPlan, samplePlan } from '../fixtures/plans/sample-plan.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-plan-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes `text` as a plan file and expects readPlanFile to reject it with `code` and `exitCode`, naming the file. */
async function refusedWith(text: string, code: string, exitCode: number): Promise<SwitchboardError> {
  const path = join(dir, 'plan.json');
  await writeFile(path, text);
  const error = await readPlanFile(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SwitchboardError);
  expect(error).toMatchObject({ code, exitCode });
  expect((error as Error).message).toContain(path);
  return error as SwitchboardError;
}

/** Expects readPlanFile to reject `text` with SB_PLAN_FILE (exit 1). */
function rejection(text: string): Promise<SwitchboardError> {
  return refusedWith(text, 'SB_PLAN_FILE', 1);
}

/**
 * The sample plan as parsed JSON, edited by `edit`, as text, sealed again as a forger would:
 * its change set's digest (when its changes can be read) and its digest recomputed.
 */
function edited(edit: (plan: Record<string, unknown> & Plan) => void): string {
  const plan = JSON.parse(renderJson(samplePlan())) as Record<string, unknown> & Plan;
  edit(plan);
  return JSON.stringify(resealed(plan));
}

function resealed(plan: Record<string, unknown>): Record<string, unknown> {
  const { digest: _digest, ...content } = plan;
  try {
    content['changeSet'] = changeSetSeal(content['changes'] as Plan['changes']);
  } catch {
    // malformed changes: the shape check reports them first
  }
  return { ...content, digest: digestOf(content) };
}

/** Expects readPlanFile to refuse `text` as changed after it was written (SB_PLAN_DIGEST, exit 3). */
async function changedRefusal(text: string): Promise<SwitchboardError> {
  const error = await refusedWith(text, 'SB_PLAN_DIGEST', 3);
  expect(error.message).toContain('was changed after switchboard wrote it');
  return error;
}

describe('plan file digest', () => {
  it('carries the sha256 of its RFC 8785 canonical JSON without the digest, right after createdAt', () => {
    const parsed = JSON.parse(renderJson(samplePlan())) as Record<string, unknown>;
    expect(Object.keys(parsed).slice(0, 3)).toEqual(['formatVersion', 'createdAt', 'digest']);
    const { digest, ...content } = parsed;
    expect(digest).toBe(`sha256:${createHash('sha256').update(canonicalJson(content)).digest('hex')}`);
    expect(samplePlan().digest).toBe(digest);
  });

  it('is that of the content, whatever digest the plan object carried', () => {
    const plan = { ...samplePlan(), digest: `sha256:${'0'.repeat(64)}` };
    expect(JSON.parse(renderJson(plan)).digest).toBe(samplePlan().digest);
  });

  it('one byte changed in a value is refused (exit 3), before the shape is checked', async () => {
    const text = renderJson(samplePlan());
    const changed = text.replace('"markup": 5', '"markup": 6');
    expect(changed).not.toBe(text);
    const error = await changedRefusal(changed);
    expect(error.message).toContain(`records the digest ${samplePlan().digest}`);
    await changedRefusal(text.replace('tenant/old-co', 'tenant/old-cp'));
    await changedRefusal(text.replace('"prune": true', '"prune": false'));
  });

  it('a file that no longer parses but carries a digest is refused as changed (exit 3)', async () => {
    const text = renderJson(samplePlan());
    await changedRefusal(text.replace('"create": 47,', '"create": 47'));
    await changedRefusal(text.slice(0, text.length / 2));
  });

  it('a digest that is not one, or the digest of other content, is refused (exit 3)', async () => {
    const plan = JSON.parse(renderJson(samplePlan())) as Record<string, unknown>;
    await changedRefusal(JSON.stringify({ ...plan, digest: 'sha256:nope' }));
    await changedRefusal(JSON.stringify({ ...plan, digest: emptyPlan().digest }));
    await changedRefusal(JSON.stringify({ ...plan, digest: null }));
  });

  it('whitespace and key order do not count: a re-indented file reads as the same plan', async () => {
    const plan = JSON.parse(renderJson(samplePlan())) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(plan).reverse());
    const path = join(dir, 'plan.json');
    await writeFile(path, JSON.stringify(reordered, null, '\t'));
    expect((await readPlanFile(path)).digest).toBe(samplePlan().digest);
  });

  it('a plan file without a digest is refused (exit 3): a plan file is sealed when it is written', async () => {
    const plan = JSON.parse(renderJson(samplePlan())) as Record<string, unknown>;
    delete plan['digest'];
    const error = await changedRefusal(JSON.stringify(plan));
    expect(error.message).toContain('it carries no digest');
  });

  it('a change set whose recorded digest does not match its changes is refused (exit 3), even sealed again', async () => {
    const plan = JSON.parse(renderJson(samplePlan())) as Record<string, unknown> & Plan;
    const change = plan.changes.find((c) => c.address === 'tenant/acme-corp');
    if (!change?.after) throw new Error('fixture lost tenant/acme-corp');
    change.after['markup'] = 99;
    const { digest: _digest, ...content } = plan;
    const error = await changedRefusal(JSON.stringify({ ...content, digest: digestOf(content) }));
    expect(error.message).toContain(
      `its changeSet records ${samplePlan().changeSet?.digest ?? ''}, its 56 change(s) have`,
    );
  });
});

describe('plan files this switchboard cannot fully understand are refused (exit 3), never half read', () => {
  it('a member it does not know, anywhere, naming its JSON path; from a newer switchboard, naming the upgrade', async () => {
    const unknown = await refusedWith(
      edited((p) => {
        (p.changes[0] as unknown as Record<string, unknown>)['supersededBy'] = 'tenant/other';
        (p.changes[1]?.requests[0] as unknown as Record<string, unknown>)['body'] = { markup: 1 };
        (p as Record<string, unknown>)['approvals'] = [];
      }),
      'SB_PLAN_UNKNOWN',
      3,
    );
    expect(unknown.message).toContain('approvals, changes[0].supersededBy, changes[1].requests[0].body');
    expect(unknown.message).toContain('the file was edited after it was made');
    const newer = await refusedWith(
      edited((p) => {
        p.tool.version = '99.0.0';
        (p.summary as unknown as Record<string, unknown>)['moved'] = 0;
      }),
      'SB_PLAN_UNKNOWN',
      3,
    );
    expect(newer.message).toContain('summary.moved');
    expect(newer.message).toMatch(/made by switchboard 99\.0\.0, newer than this one \([^)]+\): upgrade switchboard/);
  });

  it('values of the plan data may hold any key: before, after, patch values, sensitive digests, scope files', async () => {
    const path = join(dir, 'plan.json');
    await writeFile(
      path,
      edited((p) => {
        const change = p.changes.find((c) => c.address === 'tenant/acme-corp');
        if (!change?.after || !change.before) throw new Error('fixture lost tenant/acme-corp');
        change.before['anything'] = { nested: 1 };
        change.after['anything'] = { nested: 2 };
        change.patch.push({ op: 'replace', path: '/anything', value: { nested: 2 } });
      }),
    );
    expect((await readPlanFile(path)).changes.find((c) => c.address === 'tenant/acme-corp')?.after).toMatchObject({
      anything: { nested: 2 },
    });
  });

  it('a newer formatVersion, naming the upgrade; an older one, asking for a new plan', async () => {
    const newer = await refusedWith(
      edited((p) => {
        (p as Record<string, unknown>)['formatVersion'] = 3;
      }),
      'SB_PLAN_VERSION',
      3,
    );
    expect(newer.message).toContain('has formatVersion 3: it was made by a newer switchboard (0.1.0)');
    expect(newer.message).toContain('Upgrade switchboard');
    const older = await refusedWith(
      edited((p) => {
        (p as Record<string, unknown>)['formatVersion'] = 1;
      }),
      'SB_PLAN_VERSION',
      3,
    );
    expect(older.message).toContain('it was made by an older switchboard (0.1.0)');
    expect(older.message).toContain('Make a new plan with `switchboard plan --out FILE`');
  });
});

describe('plan file', () => {
  it('docs/plans.md: round-trips: what plan --out writes, apply --plan reads back unchanged', async () => {
    const path = join(dir, 'plan.json');
    await writePlanFile(path, samplePlan());
    const text = await readFile(path, 'utf8');
    expect(text).toBe(renderJson(samplePlan()));
    expect(await readPlanFile(path)).toEqual(JSON.parse(text));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('round-trips the scope of a --changed-since plan; a malformed scope is refused', async () => {
    const path = join(dir, 'plan.json');
    const scope = {
      changedSince: 'origin/main',
      commit: 'a'.repeat(40),
      documents: 1,
      ofDocuments: 20,
      addresses: ['tenant/acme-corp'],
      files: { 'manifests/z.yaml': `sha256:${'1'.repeat(64)}`, 'manifests/a.csv': `sha256:${'2'.repeat(64)}` },
      targets: ['tenant/acme-corp'],
    };
    await writePlanFile(path, { ...samplePlan(), scope });
    const read = await readPlanFile(path);
    expect(read.scope).toEqual(scope);
    // Files in name order, whatever order the plan held them in: two plans of one change diff cleanly.
    expect(Object.keys(read.scope?.files ?? {})).toEqual(['manifests/a.csv', 'manifests/z.yaml']);
    const e = await rejection(
      edited((p) => {
        (p as Record<string, unknown>)['scope'] = { ...scope, documents: -1, addresses: 'tenant/acme-corp' };
      }),
    );
    expect(e.message).toContain('scope.documents');
    expect(e.message).toContain('scope.addresses');
  });

  it('writes atomically: replaces an existing file and leaves no temporary file behind', async () => {
    const path = join(dir, 'plan.json');
    await writeFile(path, 'old content');
    await writePlanFile(path, samplePlan());
    expect(await readdir(dir)).toEqual(['plan.json']);
    expect((await readPlanFile(path)).changes).toHaveLength(56);
  });

  it('reports a write failure as SB_PLAN_FILE and cleans up', async () => {
    const path = join(dir, 'missing-folder', 'plan.json');
    await expect(writePlanFile(path, samplePlan())).rejects.toMatchObject({ code: 'SB_PLAN_FILE' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('docs/plans.md: refuses to write a plan that carries a sensitive value in clear', async () => {
    const plan = samplePlan();
    const admin = plan.changes.find((c) => c.sensitiveDigests);
    if (!admin?.after) throw new Error('fixture lost its sensitive change');
    admin.after['password'] = SECRETS[1];
    const path = join(dir, 'plan.json');
    await expect(writePlanFile(path, plan)).rejects.toMatchObject({ code: 'SB_PLAN_FILE' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('accepts the markers and null as the values of sensitive fields', async () => {
    const path = join(dir, 'plan.json');
    await writeFile(
      path,
      edited((p) => {
        const admin = p.changes.find((c) => c.sensitiveDigests && c.action === 'update');
        if (!admin) throw new Error('fixture lost its write-only change');
        admin.before = { password: null };
      }),
    );
    const plan = await readPlanFile(path);
    expect(plan.changes.find((c) => c.sensitiveDigests && c.action === 'update')?.before).toEqual({ password: null });
  });

  it("requires what every plan file of this version holds: unmanaged objects, their count, each change's provider", async () => {
    const e = await rejection(
      edited((p) => {
        delete (p as Partial<Plan>).unmanaged;
        delete (p.summary as Partial<Plan['summary']>).unmanaged;
        delete (p.changes[0] as Partial<(typeof p.changes)[0]>).provider;
      }),
    );
    expect(e.message).toContain('unmanaged is missing');
    expect(e.message).toContain('summary.unmanaged is missing');
    expect(e.message).toContain('changes[0].provider must be one of platform, routing (got nothing)');
  });

  describe('docs/plans.md: rejects, with SB_PLAN_FILE and a way out', () => {
    it('a missing file', async () => {
      await expect(readPlanFile(join(dir, 'nope.json'))).rejects.toMatchObject({
        code: 'SB_PLAN_FILE',
        message: expect.stringMatching(/cannot read plan file .*nope\.json: no such file\. Re-create it/) as unknown,
      });
    });

    it('a change with an unknown provider', async () => {
      const unknown = await rejection(
        edited((p) => {
          (p.changes[1] as unknown as Record<string, unknown>)['provider'] = 'dns';
        }),
      );
      expect(unknown.message).toContain('changes[1].provider must be one of platform, routing (got "dns")');
    });

    it('malformed JSON', async () => {
      const e = await rejection('{"formatVersion": 1, ');
      expect(e.message).toMatch(/is not valid JSON .*Re-create it with `switchboard plan --out FILE`/);
    });

    it('something that is not a plan', async () => {
      expect((await rejection('[1, 2]')).message).toContain('does not hold a JSON object');
      expect((await rejection('{"hello": "world"}')).message).toContain('formatVersion is missing');
    });

    it('a formatVersion that is not a version', async () => {
      expect(
        (
          await rejection(
            edited((p) => {
              (p as Record<string, unknown>)['formatVersion'] = '1';
            }),
          )
        ).message,
      ).toContain('formatVersion "1" is not a plan format version');
      expect(
        (
          await rejection(
            edited((p) => {
              (p as Record<string, unknown>)['formatVersion'] = 0;
            }),
          )
        ).message,
      ).toContain('formatVersion 0 is not a plan format version');
    });

    it('a missing top-level field', async () => {
      const e = await rejection(
        edited((p) => {
          delete (p as Partial<Plan>).target;
        }),
      );
      expect(e.message).toContain('target is missing');
    });

    it('a change with a missing or wrong field, naming its JSON path', async () => {
      const e = await rejection(
        edited((p) => {
          const c = p.changes[2] as unknown as Record<string, unknown>;
          delete c['liveDigest'];
          c['action'] = 'destroy';
          (p.changes[0] as unknown as Record<string, unknown>)['requests'] = [{ method: 'FETCH', path: '/x' }];
          const replace = p.changes.find((x) => x.action === 'replace');
          if (replace) replace.after = null;
        }),
      );
      expect(e.message).toContain('.before and .after must both be objects for a replace');
      expect(e.message).toContain('changes[2].action must be one of create, update, delete, replace (got "destroy")');
      expect(e.message).toContain('changes[2].liveDigest is missing');
      expect(e.message).toContain('changes[0].requests[0].method is not an HTTP method');
    });

    it('a malformed digest or patch', async () => {
      const e = await rejection(
        edited((p) => {
          const c = p.changes[2];
          if (!c) throw new Error('fixture too short');
          c.liveDigest = 'md5:abc';
          c.patch = [{ op: 'replace', path: 'markup' } as never];
        }),
      );
      expect(e.message).toContain('changes[2].liveDigest must be a sha256:<64 hex> digest');
      expect(e.message).toContain('changes[2].patch[0].path is not a JSON pointer');
      expect(e.message).toContain('changes[2].patch[0].value is missing');
    });

    it('recorded options of the wrong shape', async () => {
      const e = await rejection(
        edited((p) => {
          (p as Record<string, unknown>)['options'] = {
            target: 'tenant/a',
            exclude: [],
            prune: 'yes',
            allowReplace: false,
            maxDeletePercent: 150,
          };
        }),
      );
      expect(e.message).toContain('options.target');
      expect(e.message).toContain('options.prune must be true or false');
      expect(e.message).toContain('options.maxDeletePercent must be a number from 0 to 100');
    });

    it('policy overrides, capacity rows or message origins of the wrong shape, and overrides recorded twice that differ', async () => {
      const e = await rejection(
        edited((p) => {
          const raw = p as Record<string, unknown>;
          raw['options'] = { ...(p.options ?? {}), maxUpdatePercent: -1, allowPolicy: 'geo-cap' };
          raw['policy'] = { overrides: [1] };
          raw['capacity'] = {
            rows: [{ address: 'a', subject: 's', declared: 1.5, assigned: -1, reserved: 0, headroom: null }],
          };
          p.errors[0] = { ...p.errors[0], rule: 7 } as unknown as Plan['errors'][number];
        }),
      );
      expect(e.message).toContain('options.maxUpdatePercent must be a number from 0 to 100');
      expect(e.message).toContain('options.allowPolicy must be an array');
      expect(e.message).toContain('policy.overrides must hold strings only');
      expect(e.message).toContain('capacity.rows[0].declared must be an integer or null');
      expect(e.message).toContain('capacity.rows[0].assigned must be a non-negative integer');
      expect(e.message).toContain('errors[0].rule must be a string');
      const twice = await rejection(
        edited((p) => {
          p.policy = { overrides: ['geo-cap', 'ids'] };
        }),
      );
      expect(twice.message).toContain('policy.overrides (geo-cap, ids) differ from options.allowPolicy (geo-cap)');
    });

    it('a summary that disagrees with the changes', async () => {
      const e = await rejection(
        edited((p) => {
          p.summary.delete = 0;
        }),
      );
      expect(e.message).toContain('summary.delete is 0 but the plan has 3 delete change(s)');
    });

    it('the same address twice', async () => {
      const e = await rejection(
        edited((p) => {
          const first = p.changes[2];
          if (first) p.changes.push(first);
          p.summary.update += 1;
        }),
      );
      expect(e.message).toContain('changes: tenant/acme-corp appears more than once');
    });

    it('a sensitive value in clear, without repeating it', async () => {
      const e = await rejection(
        edited((p) => {
          const admin = p.changes.find((c) => c.sensitiveDigests && c.action === 'update');
          if (!admin?.before) throw new Error('fixture lost its write-only change');
          admin.before['password'] = SECRETS[0];
        }),
      );
      expect(e.message).toContain('.before.password holds a sensitive value in clear');
      expect(e.message).toContain('rotate the secret');
      expect(e.message).not.toContain(SECRETS[0]);
    });

    it('a sensitive value in clear in the patch', async () => {
      const e = await rejection(
        edited((p) => {
          const admin = p.changes.find((c) => c.sensitiveDigests && c.action === 'update');
          if (!admin) throw new Error('fixture lost its write-only change');
          admin.patch = [{ op: 'replace', path: '/password', value: SECRETS[0] }];
        }),
      );
      expect(e.message).toContain('.patch /password holds a sensitive value in clear');
    });
  });
});
