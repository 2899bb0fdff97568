import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSecrets, maskSecrets, registerSecret } from '../../src/core/secrets.js';
import {
  DEFAULT_NOTIFY_TIMEOUT_MS,
  MAX_NOTIFY_TIMEOUT_MS,
  formatFor,
  notify,
  payloadText,
  postWithin,
  type NotifySettings,
  type NotifySummary,
} from '../../src/notify/index.js';
import type { ApplyResult } from '../../src/apply/types.js';
import { applySummary, planSummary } from '../../src/notify/index.js';
import { countChanges } from '../../src/plan/summary.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../../src/plan/types.js';
import { startReceiver } from './receiver.js';

const receivers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  clearSecrets();
});

async function receiver(...answers: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answers);
  receivers.push(r);
  return r;
}

const summary: NotifySummary = {
  event: 'drift',
  command: 'plan',
  title: 'Drift on https://api.example.net (instance main): 1 to create, 1 to update, 0 to replace, 0 to delete',
  target: { baseUrl: 'https://api.example.net', instance: 'main' },
  counts: { create: 1, update: 1, replace: 0, delete: 0 },
  changes: [
    { action: 'update', address: 'tenant/acme-corp', kind: 'Tenant' },
    { action: 'create', address: 'tenant/<b>evil</b>&co', kind: 'Tenant' },
  ],
  moreChanges: 0,
  problems: [],
  moreProblems: 0,
  planDigest: `sha256:${'a'.repeat(64)}`,
  runUrl: 'https://github.example/org/repo/actions/runs/42',
  exitCode: 2,
};

const settings = (url: string, extra: Partial<NotifySettings> = {}): NotifySettings => ({
  url,
  format: 'json',
  events: ['drift', 'refused', 'apply-failed'],
  timeoutMs: 2_000,
  source: '--notify',
  ...extra,
});

describe('sending a notification', () => {
  it('POSTs the summary as JSON to a generic receiver', async () => {
    const r = await receiver({ status: 204 });
    expect(await notify(settings(r.url), summary)).toEqual({ delivered: true, attempts: 1, status: 204 });
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.method).toBe('POST');
    expect(r.received[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(r.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({ formatVersion: 1, tool: { name: 'switchboard' }, ...summary });
  });

  it('retries a receiver that answers 500, then delivers', async () => {
    const r = await receiver({ status: 500, body: 'busy' }, { status: 200 });
    expect(await notify(settings(r.url), summary)).toEqual({ delivered: true, attempts: 2, status: 200 });
    expect(r.received.map((x) => x.body)).toEqual([r.received[0]?.body, r.received[0]?.body]);
  });

  it('waits the Retry-After of a 429 when the bound allows it', async () => {
    const r = await receiver({ status: 429, headers: { 'retry-after': '0' } }, { status: 200 });
    expect(await notify(settings(r.url), summary)).toMatchObject({ delivered: true, attempts: 2 });
  });

  it('does not retry what a retry cannot mend (400), and says what the receiver answered', async () => {
    const r = await receiver({ status: 400, body: 'invalid_payload' });
    expect(await notify(settings(r.url), summary)).toEqual({
      delivered: false,
      attempts: 1,
      status: 400,
      reason: 'answered 400: invalid_payload',
    });
  });

  it('a receiver that never answers: the attempt is cut at the bound, and no retry starts after it', async () => {
    const r = await receiver('never');
    const outcome = await notify(settings(r.url, { timeoutMs: 300 }), summary);
    expect(outcome).toEqual({ delivered: false, attempts: 1, reason: 'no answer within 300 ms' });
    expect(r.received).toHaveLength(1);
  });

  it('names the bound it was given when the time went before the first attempt (a slow start)', async () => {
    const r = await receiver('never');
    // 25 ms pass between the bound's start and the first attempt: the attempt waits what is left.
    const now = performance.now.bind(performance);
    let first = true;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => {
      if (!first) return now() + 25;
      first = false;
      return now();
    });
    try {
      const outcome = await postWithin(r.url, '{}', { timeoutMs: 300 });
      expect(outcome).toEqual({ delivered: false, attempts: 1, reason: 'no answer within 300 ms' });
    } finally {
      clock.mockRestore();
    }
  });

  it('a Retry-After beyond the bound ends the notification at once', async () => {
    const r = await receiver({ status: 503, headers: { 'retry-after': '60' } });
    const outcome = await postWithin(r.url, '{}', { timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ delivered: false, attempts: 1, status: 503 });
    expect(outcome.reason).toContain('a retry would end after the 2000 ms bound');
  });

  it('the bound: 5 s unless configured, never more than 10 s', () => {
    expect(DEFAULT_NOTIFY_TIMEOUT_MS).toBe(5_000);
    expect(MAX_NOTIFY_TIMEOUT_MS).toBe(10_000);
  });

  it('sends only the events asked for', async () => {
    const r = await receiver({ status: 200 });
    expect(await notify(settings(r.url, { events: ['apply-failed'] }), summary)).toBeUndefined();
    expect(r.received).toHaveLength(0);
  });
});

describe('payloads', () => {
  it('masks every secret the process knows, in every format', () => {
    registerSecret('hunter2-hunter2');
    const leaky = {
      ...summary,
      problems: [{ code: 'SB_API', message: 'platform said: password hunter2-hunter2 is wrong' }],
    };
    for (const format of ['json', 'slack', 'teams'] as const) {
      const text = payloadText(leaky, format);
      expect(text, format).not.toContain('hunter2-hunter2');
      expect(text, format).toContain('redacted');
    }
  });

  it('Slack: a text fallback and blocks, live text escaped for mrkdwn', () => {
    const body = JSON.parse(payloadText(summary, 'slack')) as {
      text: string;
      blocks: { type: string; text?: { text: string } }[];
    };
    expect(body.text).toBe(`switchboard: ${summary.title}`);
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);
    expect(body.blocks[1]?.text?.text).toContain('• create `tenant/&lt;b&gt;evil&lt;/b&gt;&amp;co` (Tenant)');
    expect(JSON.stringify(body.blocks[2])).toContain('<https://github.example/org/repo/actions/runs/42|the run>');
  });

  it('Teams: an Adaptive Card in a message, with a link to the run', () => {
    const body = JSON.parse(payloadText(summary, 'teams')) as {
      type: string;
      attachments: {
        contentType: string;
        content: { type: string; body: { text: string }[]; actions: { url: string }[] };
      }[];
    };
    expect(body.type).toBe('message');
    const card = body.attachments[0];
    expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card?.content.type).toBe('AdaptiveCard');
    expect(card?.content.body[0]?.text).toBe(`switchboard: ${summary.title}`);
    expect(card?.content.body[2]?.text).toContain(`plan digest \`sha256:${'a'.repeat(64)}\``);
    expect(card?.content.actions[0]?.url).toBe(summary.runUrl);
  });

  it('auto: the format from the webhook host', () => {
    expect(formatFor('auto', 'https://hooks.slack.com/services/T/B/X')).toBe('slack');
    expect(formatFor('auto', 'https://acme.webhook.office.com/webhookb2/x')).toBe('teams');
    expect(formatFor('auto', 'https://prod-12.westeurope.logic.azure.com/workflows/x')).toBe('teams');
    expect(formatFor('auto', 'https://alerts.example.net/switchboard')).toBe('json');
    expect(formatFor('teams', 'https://hooks.slack.com/services/T/B/X')).toBe('teams');
  });

  it('the webhook URL is a secret once configured: masked wherever it would appear', () => {
    registerSecret('https://hooks.slack.com/services/T000/B000/XXXXXXXX');
    expect(maskSecrets('POST https://hooks.slack.com/services/T000/B000/XXXXXXXX failed')).toBe(
      'POST [redacted] failed',
    );
  });
});

describe('summaries', () => {
  const change = (action: Change['action'], address: string): Change => ({
    address,
    kind: 'Tenant',
    provider: 'platform',
    action,
    before: null,
    after: null,
    patch: [],
    reason: '',
    dependsOn: [],
    requests: [],
  });
  const plan = (changes: Change[], errors: Plan['errors'] = []): Plan => ({
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: '2026-11-26T00:00:00Z',
    digest: `sha256:${'b'.repeat(64)}`,
    tool: { name: 'switchboard', version: '0.1.0' },
    target: { baseUrl: 'https://api.example.net', instance: 'main' },
    manifests: { digest: `sha256:${'c'.repeat(64)}`, files: [] },
    summary: { ...countChanges(changes), noop: 0, unmanaged: 0 },
    changes,
    unmanaged: [],
    warnings: [],
    errors,
  });
  const many = Array.from({ length: 12 }, (_, i) => change('update', `tenant/t${i}`));

  it('a plan: drift with its counts and first ten changes; nothing when it has no change', () => {
    const s = planSummary(plan([change('create', 'tenant/new'), ...many]), { exitCode: 2, runUrl: 'https://ci/run/1' });
    expect(s).toMatchObject({
      event: 'drift',
      title: 'Drift on https://api.example.net (instance main): 1 to create, 12 to update, 0 to replace, 0 to delete',
      counts: { create: 1, update: 12, replace: 0, delete: 0 },
      moreChanges: 3,
      planDigest: `sha256:${'b'.repeat(64)}`,
      runUrl: 'https://ci/run/1',
      exitCode: 2,
    });
    expect(s?.changes).toHaveLength(10);
    expect(planSummary(plan([]), { exitCode: 0 })).toBeUndefined();
  });

  it('a refused plan, from plan or apply: its refusals', () => {
    const refused = plan(many, [{ code: 'SB_REPLACE', message: 'holds data', address: 'tenant/t1' }]);
    expect(planSummary(refused, { exitCode: 3 })).toMatchObject({
      event: 'refused',
      command: 'plan',
      title: 'Plan refused on https://api.example.net (instance main): 1 refusal, nothing sent',
      problems: [{ code: 'SB_REPLACE', message: 'holds data', address: 'tenant/t1' }],
    });
    expect(applySummary(refused, undefined, { exitCode: 3 })).toMatchObject({ event: 'refused', command: 'apply' });
  });

  it('an apply: failed or partly failed, the changes not applied and the failures', () => {
    const p = plan(many.slice(0, 3));
    const result = (outcomes: ApplyResult['results'][number]['outcome'][]): ApplyResult => ({
      results: outcomes.map((outcome, i) => ({ change: p.changes[i] as Change, outcome })),
      applied: outcomes.filter((o) => o.status === 'applied').length,
      failed: outcomes.filter((o) => o.status === 'failed').length,
      skipped: outcomes.filter((o) => o.status === 'skipped').length,
      requests: 3,
      elapsedMs: 10,
    });
    const partly = applySummary(
      p,
      result([
        { status: 'applied' },
        { status: 'failed', code: 'SB_API_400', message: 'billingId used' },
        { status: 'skipped', reason: 'after t1' },
      ]),
      { exitCode: 1 },
    );
    expect(partly).toMatchObject({
      event: 'apply-failed',
      title: 'Apply partly failed on https://api.example.net (instance main): 1 applied, 1 failed, 1 skipped',
      applied: { applied: 1, failed: 1, skipped: 1 },
      changes: [
        { action: 'update', address: 'tenant/t1' },
        { action: 'update', address: 'tenant/t2' },
      ],
      problems: [{ code: 'SB_API_400', message: 'billingId used', address: 'tenant/t1' }],
    });
    expect(applySummary(p, result([{ status: 'failed', message: 'x' }]), { exitCode: 1 })?.title).toMatch(
      /^Apply failed on/,
    );
    expect(applySummary(p, result([{ status: 'applied' }]), { exitCode: 0 })).toBeUndefined();
  });
});
