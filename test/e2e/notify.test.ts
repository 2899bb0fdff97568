/**
 * Notifications from the real CLI (docs/notifications.md): drift found by `plan`, a
 * refused and a failed `apply`, to a local receiver over HTTP; a receiver failing first and
 * one that never answers leave the run's outcome and exit code as they were.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../notify/receiver.js';
import { EXAMPLES, manifestDir, runCli } from './cli-helpers.js';

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(...answers: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answers);
  receivers.push(r);
  return r;
}

const bodies = (r: { received: { body: string }[] }) =>
  r.received.map((x) => JSON.parse(x.body) as Record<string, any>);
const state = async () => join(await mkdtemp(join(tmpdir(), 'switchboard-notify-state-')), 'state');

describe('notifications (end to end, real CLI)', () => {
  it("plan --notify: drift is POSTed with its counts and the plan digest; a 500 is retried; the exit code is the plan's", async () => {
    const r = await receiver({ status: 500 }, { status: 200 });
    const result = await runCli([
      'plan',
      EXAMPLES,
      '--sim',
      '--detailed-exitcode',
      '--notify',
      r.url,
      '--notify-format',
      'json',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('not delivered');
    const sent = bodies(r);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    const digest = /Plan digest: (sha256:[0-9a-f]{64})/.exec(result.stdout)?.[1];
    const line = /Plan: (\d+) to create, (\d+) to update, (\d+) to replace, (\d+) to delete\./.exec(result.stdout);
    expect(sent[0]).toMatchObject({
      formatVersion: 1,
      event: 'drift',
      command: 'plan',
      planDigest: digest,
      counts: {
        create: Number(line?.[1]),
        update: Number(line?.[2]),
        replace: Number(line?.[3]),
        delete: Number(line?.[4]),
      },
      exitCode: 2,
    });
    expect(sent[0]?.['changes']).toHaveLength(10);
  });

  it('a receiver that never answers: the run ends with its own exit code, and says on stderr the notification failed', async () => {
    const r = await receiver('never');
    const cwd = await mkdtemp(join(tmpdir(), 'switchboard-notify-'));
    await writeFile(join(cwd, 'switchboard.config.yaml'), `notify:\n  url: ${r.url}\n  timeoutMs: 400\n`);
    const result = await runCli(['plan', EXAMPLES, '--sim', '--detailed-exitcode'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('Plan digest:');
    expect(result.stderr).toContain(
      'Note: the drift notification (' + join(cwd, 'switchboard.config.yaml') + ' notify.url, 127.0.0.1:',
    );
    expect(result.stderr).toContain(
      "was not delivered: no answer within 400 ms. The run's outcome and exit code are unchanged.",
    );
    // The URL is the webhook's credential: never printed.
    expect(result.stderr).not.toContain('T0KEN-in-the-path');
    expect(r.received).toHaveLength(1);
  });

  it('apply: a refused plan (a replace not allowed) and a failed apply are notified; --notify-on filters', async () => {
    const r = await receiver({ status: 200 });
    const replace = await manifestDir({
      'acme.yaml': [
        'apiVersion: switchboard/v1',
        'kind: Tenant',
        'metadata: { name: acme-corp, reseller: north }',
        'spec:',
        '  billingId: T-ACME',
        '  subscriptions:',
        '    - { name: main, billingId: T-ACME-MAIN, uc: uc_beta }',
        '',
      ].join('\n'),
    });
    const refused = await runCli(['apply', replace, '--sim', '--yes', '--state-dir', await state(), '--notify', r.url]);
    expect(refused.code).toBe(3);
    const failing = await manifestDir({
      'dup.yaml': [
        'apiVersion: switchboard/v1',
        'kind: Tenant',
        'metadata: { name: dup-billing, group: demo-group }',
        'spec: { billingId: T-ACME, markup: 1 }',
        '',
      ].join('\n'),
    });
    const failed = await runCli(['apply', failing, '--sim', '--yes', '--state-dir', await state(), '--notify', r.url]);
    expect(failed.code).toBe(1);
    const filtered = await runCli([
      'apply',
      failing,
      '--sim',
      '--yes',
      '--state-dir',
      await state(),
      '--notify',
      r.url,
      '--notify-on',
      'drift',
    ]);
    expect(filtered.code).toBe(1);
    const [first, second, third] = bodies(r);
    expect(third).toBeUndefined();
    expect(first).toMatchObject({
      event: 'refused',
      command: 'apply',
      exitCode: 3,
      counts: { replace: 1 },
      problems: [expect.objectContaining({ address: 'tenant/acme-corp/subscription/main' })],
    });
    expect(second).toMatchObject({
      event: 'apply-failed',
      exitCode: 1,
      applied: { applied: 0, failed: 1, skipped: 0 },
      changes: [{ action: 'create', address: 'tenant/dup-billing', kind: 'Tenant' }],
      problems: [expect.objectContaining({ address: 'tenant/dup-billing' })],
    });
    expect(second?.['title']).toMatch(
      /^Apply failed on http:\/\/127\.0\.0\.1:\d+ \(instance demo\): 0 applied, 1 failed, 0 skipped$/,
    );
  });

  it('a wrong setting is an error before anything is read', async () => {
    const result = await runCli(['plan', EXAMPLES, '--sim', '--notify', 'http://alerts.example.net/hook']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--notify: plain http to alerts.example.net would send the webhook');
  });

  it('apply --format json: a wrong setting still prints the JSON document (outcome error, its code)', async () => {
    for (const [args, env] of [
      [['--notify', 'http://alerts.example.net/hook'], {}],
      [[], { SWITCHBOARD_NOTIFY_URL: 'http://alerts.example.net/hook' }],
    ] as const) {
      const result = await runCli(['apply', EXAMPLES, '--sim', '--yes', '--format', 'json', ...args], { env });
      expect(result.code).toBe(1);
      const summary = JSON.parse(result.stdout) as { outcome: string; applied: number; errors: { code: string }[] };
      expect(summary).toMatchObject({ outcome: 'error', applied: 0 });
      expect(summary.errors).toEqual([expect.objectContaining({ code: 'SB_CONFIG' })]);
    }
  });
});
