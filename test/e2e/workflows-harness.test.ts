/**
 * The workflow harness reads `if:` and `${{ }}` as GitHub does (workflows/expressions.ts):
 * the runs of workflows-apply.test.ts are only as true as this.
 */
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheAction } from './workflows/cache-action.js';
import { condition, evaluateExpression, interpolate } from './workflows/expressions.js';
import type { ActionCall } from './workflows/runner.js';

const contexts = {
  github: { ref: 'refs/heads/main', event_name: 'push', event: { repository: { default_branch: 'main' } } },
  steps: { plan: { outputs: { changes: 'true', exitcode: '2' } }, review: { outputs: { reviewed: '' } } },
  needs: { plan: { outputs: { changes: 'false' }, result: 'success' } },
  env: {},
};
const ok = { failed: false, cancelled: false };
const failed = { failed: true, cancelled: false };

describe('GitHub expressions in the workflow harness', () => {
  it('compares strings ignoring case, a missing property as null, and returns operands from && and ||', () => {
    expect(
      evaluateExpression("github.ref == format('refs/heads/{0}', github.event.repository.default_branch)", contexts),
    ).toBe(true);
    expect(evaluateExpression("github.event_name == 'PUSH'", contexts)).toBe(true);
    expect(evaluateExpression('github.nothing.deeper', contexts)).toBeNull();
    expect(evaluateExpression("steps.review.outputs.reviewed != ''", contexts)).toBe(false);
    expect(evaluateExpression("steps.review.outputs.reviewed || 'none'", contexts)).toBe('none');
    expect(evaluateExpression("steps.plan.outputs.exitcode == 2 && 'yes'", contexts)).toBe('yes');
    expect(evaluateExpression("!(steps.plan.outputs.changes == 'true')", contexts)).toBe(false);
    expect(evaluateExpression("contains('Hello', 'ELL') && startsWith('abc', 'A')", contexts)).toBe(true);
  });

  it('reads an if: without a status function as success() && (…), and one with it as written', () => {
    expect(condition(undefined, contexts, ok)).toBe(true);
    expect(condition(undefined, contexts, failed)).toBe(false);
    expect(condition("steps.plan.outputs.changes == 'true'", contexts, ok)).toBe(true);
    expect(condition("steps.plan.outputs.changes == 'true'", contexts, failed)).toBe(false);
    expect(condition('always()', contexts, failed)).toBe(true);
    expect(condition("${{ failure() && steps.plan.outputs.exitcode == '2' }}", contexts, failed)).toBe(true);
    expect(condition("needs.plan.outputs.changes == 'true'", contexts, ok)).toBe(false);
  });

  it('interpolates ${{ }} as text, and refuses what it does not understand', () => {
    expect(interpolate('switchboard-plan-${{ steps.plan.outputs.exitcode }}', contexts)).toBe('switchboard-plan-2');
    expect(interpolate('${{ github.missing }}', contexts)).toBe('');
    expect(() => evaluateExpression('secrets.X', contexts)).toThrow('unknown expression context');
    expect(() => evaluateExpression('toJSON(github)', contexts)).toThrow('function not supported');
    expect(() => evaluateExpression('github.ref =~ 1', contexts)).toThrow();
    expect(() => evaluateExpression('success()', contexts)).toThrow('a status function outside an if');
  });
});

describe('actions/cache and hashFiles in the workflow harness', () => {
  it('hashFiles digests the files below a folder: a changed file changes it, no file gives an empty string', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'switchboard-harness-'));
    await mkdir(join(workspace, 'manifests/tenants'), { recursive: true });
    await writeFile(join(workspace, 'manifests/tenants/a.yaml'), 'a: 1\n');
    const at = { ...contexts, github: { workspace } };
    const before = evaluateExpression("hashFiles(format('{0}/**', 'manifests'))", at);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    await writeFile(join(workspace, 'manifests/tenants/a.yaml'), 'a: 2\n');
    expect(evaluateExpression("hashFiles('manifests/**')", at)).not.toBe(before);
    expect(evaluateExpression("hashFiles('nothing/**')", at)).toBe('');
  });

  it('restores by key or by the newest restore-keys prefix, and saves in its post step only after a success', async () => {
    const root = await mkdtemp(join(tmpdir(), 'switchboard-harness-'));
    const job = async (key: string, fails: boolean, content?: string) => {
      const cwd = await mkdtemp(join(root, 'job-'));
      const posts: ((failed: boolean) => Promise<void>)[] = [];
      const call = {
        with: { path: '.switchboard/cache', key, 'restore-keys': 'switchboard-manifests-' },
        cwd,
        run: { artifactsRoot: root },
        post: (p: (failed: boolean) => Promise<void>) => posts.push(p),
      } as unknown as ActionCall;
      const outputs = await cacheAction(call);
      const restored = await readFile(join(cwd, '.switchboard/cache/entry'), 'utf8').catch(() => undefined);
      if (content !== undefined) {
        await mkdir(join(cwd, '.switchboard/cache'), { recursive: true });
        await writeFile(join(cwd, '.switchboard/cache/entry'), content);
      }
      for (const post of posts) await post(fails);
      return { outputs, restored };
    };
    expect(await job('switchboard-manifests-1', true, 'failed job')).toMatchObject({ restored: undefined });
    expect(await job('switchboard-manifests-1', false, 'one')).toMatchObject({ restored: undefined });
    expect(await job('switchboard-manifests-1', false)).toEqual({
      outputs: { 'cache-hit': 'true', 'cache-matched-key': 'switchboard-manifests-1' },
      restored: 'one',
    });
    expect(await job('switchboard-manifests-2', false)).toEqual({
      outputs: { 'cache-hit': 'false', 'cache-matched-key': 'switchboard-manifests-1' },
      restored: 'one',
    });
  });
});
