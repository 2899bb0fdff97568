import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, maskSecrets } from '../../src/core/secrets.js';
import { notifySettings } from '../../src/notify/index.js';

afterEach(() => clearSecrets());

async function folder(config?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-notify-'));
  if (config !== undefined) await writeFile(join(dir, 'switchboard.config.yaml'), config);
  return dir;
}

const ENVIRONMENTS = 'environments:\n  prod: { url: "https://api.example.net", auth: { token: x } }\n';

describe('notification settings', () => {
  it('none asked for: no notification', async () => {
    expect(await notifySettings({}, {}, await folder())).toBeUndefined();
    expect(await notifySettings({}, { SWITCHBOARD_NOTIFY_URL: '' }, await folder(ENVIRONMENTS))).toBeUndefined();
  });

  it('--notify, else the configuration, else SWITCHBOARD_NOTIFY_URL; ${VAR} read from the environment', async () => {
    const env = {
      HOOK: 'https://hooks.slack.com/services/T/B/FROMFILE',
      SWITCHBOARD_NOTIFY_URL: 'https://alerts.example.net/env',
    };
    const withFile = await folder(`${ENVIRONMENTS}notify:\n  url: \${HOOK}\n  on: [drift]\n  timeoutMs: 3000\n`);
    expect(await notifySettings({}, env, withFile)).toEqual({
      url: env.HOOK,
      format: 'auto',
      events: ['drift'],
      timeoutMs: 3000,
      source: `${join(withFile, 'switchboard.config.yaml')} notify.url`,
    });
    expect(
      await notifySettings({ notify: 'https://cli.example.net/x', notifyOn: ['refused'] }, env, withFile),
    ).toMatchObject({
      url: 'https://cli.example.net/x',
      events: ['refused'],
      source: '--notify',
    });
    expect(await notifySettings({}, env, await folder(ENVIRONMENTS))).toMatchObject({
      url: env.SWITCHBOARD_NOTIFY_URL,
      events: ['drift', 'refused', 'apply-failed'],
      timeoutMs: 5000,
      source: 'SWITCHBOARD_NOTIFY_URL',
    });
    // The URL is a credential: once read, no output shows it.
    expect(maskSecrets(`to ${env.HOOK}`)).toBe('to [redacted]');
  });

  it('every wrong setting at once, before anything is read; the URL never quoted', async () => {
    const dir = await folder(
      `${ENVIRONMENTS}notify:\n  url: http://alerts.example.net/T0KEN\n  format: discord\n  on: [drift, always]\n  timeoutMs: 60000\n  retries: 3\n`,
    );
    const error = await notifySettings({}, {}, dir).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    for (const part of [
      'notify.retries: unknown setting',
      'notify.format: expected one of auto, json, slack, teams, not "discord"',
      'notify.on: expected a list of drift, refused, apply-failed',
      'notify.timeoutMs: expected a whole number of milliseconds from 1 to 10000, not 60000',
      "notify.url: plain http to alerts.example.net would send the webhook's URL unencrypted: use an https URL",
    ])
      expect(message).toContain(part);
    expect(message).not.toContain('T0KEN');
  });

  it('plain http only to this machine; an unset ${VAR} is named', async () => {
    expect(await notifySettings({ notify: 'http://127.0.0.1:9/hook' }, {}, await folder())).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
    });
    const dir = await folder(`${ENVIRONMENTS}notify: { url: "\${MISSING_HOOK}" }\n`);
    await expect(notifySettings({}, {}, dir)).rejects.toThrow(
      'notify.url: environment variable MISSING_HOOK is not set',
    );
  });
});
