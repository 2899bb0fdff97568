import { resolve } from 'node:path';
import { CONFIG_FILE_NAME, findConfigFile, interpolate, isLoopbackHost } from '../config/index.js';
import { NOTIFY_URL_VARIABLE } from '../core/credential-variables.js';
import { readRegularFile } from '../core/safe-write.js';
import { SwitchboardError } from '../core/errors.js';
import { registerSecret } from '../core/secrets.js';
import { isPlainObject } from '../core/values.js';
import { yamlPackage } from '../core/yaml-package.js';
import {
  DEFAULT_NOTIFY_TIMEOUT_MS,
  MAX_NOTIFY_TIMEOUT_MS,
  NOTIFY_EVENTS,
  NOTIFY_FORMATS,
  type NotifyEvent,
  type NotifyFormat,
  type NotifySettings,
} from './types.js';

const KEYS = new Set(['url', 'format', 'on', 'timeoutMs']);

/** What the command line gave. */
export interface NotifyOptions {
  notify?: string;
  notifyFormat?: NotifyFormat;
  notifyOn?: NotifyEvent[];
  /** `--config FILE`. */
  config?: string;
}

/**
 * The notification settings of a run, or undefined when none is asked for. Each setting
 * comes from the command line (`--notify`, `--notify-format`, `--notify-on`), else from the
 * `notify:` section of switchboard.config.yaml (its `${VAR}`s interpolated), else (the URL
 * only) from SWITCHBOARD_NOTIFY_URL; an empty value is no value. A wrong setting is an
 * error before anything is read (SB_CONFIG), naming it. The URL is registered as a secret
 * (an incoming webhook's URL is its credential): no output shows it.
 */
export async function notifySettings(
  options: NotifyOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): Promise<NotifySettings | undefined> {
  const file = await configSection(options.config, env, cwd);
  const problems: string[] = [...file.problems];
  const section = file.section;
  const fromFile = (key: string) => `${file.name} notify.${key}`;
  const given = (value: unknown) => (value === '' || value === null ? undefined : value);
  const candidates: [unknown, string][] = [
    [given(options.notify), '--notify'],
    [given(section['url']), fromFile('url')],
    [given(env[NOTIFY_URL_VARIABLE]), NOTIFY_URL_VARIABLE],
  ];
  const url = candidates.find(([value]) => value !== undefined);
  const format = options.notifyFormat ?? formatOf(given(section['format']), fromFile('format'), problems);
  const events = options.notifyOn ?? eventsOf(given(section['on']), fromFile('on'), problems);
  const timeoutMs = timeoutOf(given(section['timeoutMs']), fromFile('timeoutMs'), problems);
  const checked = url && checkUrl(url[0], url[1], problems);
  if (problems.length > 0) throw new SwitchboardError('SB_CONFIG', `notifications:\n  ${problems.join('\n  ')}`);
  if (!checked || !url) return undefined;
  registerSecret(checked);
  return { url: checked, format, events, timeoutMs, source: url[1] };
}

/** The `notify:` mapping of the configuration file, when there is a file and it has one. */
async function configSection(
  configPath: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<{ section: Record<string, unknown>; name: string; problems: string[] }> {
  // The same file the connection reads: --config, else the nearest up to the repository's top.
  const file = configPath !== undefined ? resolve(cwd, configPath) : findConfigFile(cwd);
  const none = { section: {}, name: CONFIG_FILE_NAME, problems: [] };
  if (file === undefined) return none;
  let text: string;
  try {
    // Never blocks on a FIFO, never reads a folder: the connection's loader says what is wrong with it.
    text = await readRegularFile(file);
  } catch {
    return none;
  }
  let document: unknown;
  try {
    document = yamlPackage().parse(text);
  } catch {
    return none; // and a file that is not YAML
  }
  const raw = isPlainObject(document) ? document['notify'] : undefined;
  if (raw === undefined || raw === null) return none;
  if (!isPlainObject(raw)) return { ...none, problems: [`${file}: notify: expected a mapping`] };
  const { value, missing } = interpolate(raw, env, 'notify');
  const problems = missing.map((m) => `${file}: ${m.at}: environment variable ${m.name} is not set`);
  for (const key of Object.keys(raw))
    if (!KEYS.has(key))
      problems.push(`${file}: notify.${key}: unknown setting (expected one of ${[...KEYS].join(', ')})`);
  return { section: value as Record<string, unknown>, name: file, problems };
}

function formatOf(value: unknown, at: string, problems: string[]): NotifyFormat {
  if (value === undefined) return 'auto';
  if ((NOTIFY_FORMATS as readonly unknown[]).includes(value)) return value as NotifyFormat;
  problems.push(`${at}: expected one of ${NOTIFY_FORMATS.join(', ')}, not ${JSON.stringify(value)}`);
  return 'auto';
}

function eventsOf(value: unknown, at: string, problems: string[]): NotifyEvent[] {
  if (value === undefined) return [...NOTIFY_EVENTS];
  const events = parseEvents(value);
  if (events) return events;
  problems.push(`${at}: expected a list of ${NOTIFY_EVENTS.join(', ')}, not ${JSON.stringify(value)}`);
  return [...NOTIFY_EVENTS];
}

/** `drift,refused` or `[drift, refused]` as events; undefined when anything else is named. */
export function parseEvents(value: unknown): NotifyEvent[] | undefined {
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  if (!list.every((e) => (NOTIFY_EVENTS as readonly unknown[]).includes(e))) return undefined;
  return [...new Set(list as NotifyEvent[])];
}

function timeoutOf(value: unknown, at: string, problems: string[]): number {
  if (value === undefined) return DEFAULT_NOTIFY_TIMEOUT_MS;
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_NOTIFY_TIMEOUT_MS) return n;
  problems.push(
    `${at}: expected a whole number of milliseconds from 1 to ${MAX_NOTIFY_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
  );
  return DEFAULT_NOTIFY_TIMEOUT_MS;
}

/**
 * An https URL, or http to this machine (a receiver in a test or beside the runner): the
 * URL of an incoming webhook is a credential, and a summary of the platform's changes is
 * not for the network to read. The message never quotes the URL.
 */
function checkUrl(value: unknown, source: string, problems: string[]): string | undefined {
  if (typeof value !== 'string') {
    problems.push(`${source}: expected a URL`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${source}: not a URL`);
    return undefined;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return value;
  problems.push(
    `${source}: ${url.protocol === 'http:' ? `plain http to ${url.hostname} would send the webhook's URL unencrypted` : `${url.protocol} is not http or https`}: use an https URL`,
  );
  return undefined;
}
