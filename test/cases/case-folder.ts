/**
 * What a case folder is (docs/development.md "Case folders"), read and compared without a
 * process: the case's description, its seed laid over the simulator's default data set, and
 * the normalisation that keeps what changes from run to run out of the expected outputs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const CASES_DIR = import.meta.dirname;

export interface CaseSpec {
  /** The folder's name. */
  name: string;
  dir: string;
  /** What the case shows: the test's name. */
  title: string;
  /** The command's arguments, run in a copy of the folder (`manifests` is the manifests' folder). */
  args: string[];
  /** The simulator user the command logs in as (password = user name). */
  user: string;
  exitCode: number;
  /** When given: how many requests the simulator may see (0: the command sends nothing). */
  requests?: number;
  /** When given: how many writes (POST, PUT, PATCH, DELETE but logging in and out) the simulator may see. */
  writes?: number;
  /** The seed laid over the default data set, if the folder has a `seed.yaml`. */
  seed?: Record<string, unknown>;
}

/** Every folder of test/cases/ with a `case.yaml`, by name. */
export function readCases(dir = CASES_DIR): CaseSpec[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'case.yaml')))
    .map((e) => readCase(join(dir, e.name), e.name))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function readCase(dir: string, name: string): CaseSpec {
  const spec = parse(readFileSync(join(dir, 'case.yaml'), 'utf8')) as Record<string, unknown>;
  const where = `test/cases/${name}/case.yaml`;
  const { title, args, user = 'admin', exitCode, requests, writes } = spec;
  if (typeof title !== 'string' || title === '') throw new Error(`${where}: title (what the case shows) is required`);
  if (!Array.isArray(args) || args.length === 0 || !args.every((a) => typeof a === 'string'))
    throw new Error(`${where}: args must be the command's arguments, as strings`);
  if (typeof exitCode !== 'number') throw new Error(`${where}: exitCode is required`);
  if (typeof user !== 'string') throw new Error(`${where}: user must be a simulator user name`);
  for (const [key, value] of Object.entries({ requests, writes }))
    if (value !== undefined && typeof value !== 'number') throw new Error(`${where}: ${key} must be a number`);
  const known = ['title', 'args', 'user', 'exitCode', 'requests', 'writes'];
  const unknown = Object.keys(spec).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown keys ${unknown.join(', ')}`);
  const seedFile = join(dir, 'seed.yaml');
  return {
    name,
    dir,
    title,
    args: args as string[],
    user,
    exitCode,
    ...(requests === undefined ? {} : { requests: requests as number }),
    ...(writes === undefined ? {} : { writes: writes as number }),
    ...(existsSync(seedFile) ? { seed: parse(readFileSync(seedFile, 'utf8')) as Record<string, unknown> } : {}),
  };
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The keys that name a seed item: an item of the overlay with the same one as a default item is merged into it. */
const IDENTITY = ['name', 'username', 'code', 'isoCode', 'id', 'type'];
const identityOf = (item: Json): string | undefined => {
  if (!isObject(item)) return undefined;
  const key = IDENTITY.find((k) => item[k] !== undefined);
  return key === undefined ? undefined : `${key}=${String(item[key])}`;
};

/**
 * `overlay` laid over `base`: mappings merged key by key, lists of objects extended, except
 * that a list item naming the same object as a base item (by the first of `name`, `username`, `code`,
 * `isoCode`, `id`, `type` it has: an entitlement by its type) is merged into it; anything else
 * (a value, a list of values such as `enabledUcs`) replaces the base value.
 */
export function overlaySeed(base: Json, overlay: Json): Json {
  if (isObject(base) && isObject(overlay)) {
    const out: Record<string, Json> = { ...base };
    for (const [key, value] of Object.entries(overlay)) out[key] = key in base ? overlaySeed(base[key], value) : value;
    return out;
  }
  if (Array.isArray(base) && Array.isArray(overlay) && overlay.every(isObject)) {
    const out = [...base];
    for (const item of overlay) {
      const id = identityOf(item);
      const at = id === undefined ? -1 : out.findIndex((b) => identityOf(b) === id);
      if (at >= 0) out[at] = overlaySeed(out[at], item);
      else out.push(item);
    }
    return out;
  }
  return overlay;
}

/** Writes among the simulator's requests by route (`/_sim/stats` byRoute): every POST, PUT, PATCH, DELETE but logging in and out. */
export function writesOf(byRoute: Record<string, number>): number {
  return Object.entries(byRoute)
    .filter(([route]) => /^(POST|PUT|PATCH|DELETE) /.test(route) && !route.includes('/api/v01/auth/'))
    .reduce((n, [, count]) => n + count, 0);
}

/**
 * What differs between two runs of one case, replaced by a name: the folder, the simulator's
 * address (also as the markdown plan escapes it), digests, times, uuids.
 */
export function normalise(text: string, where: { dir: string; url: string }): string {
  // Each character the markdown plan may escape, in either spelling: no copy of its rule here.
  const url = new RegExp(
    [...where.url]
      .map((c) => {
        const plain = c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
        return /[:./]/.test(c) ? `(?:${plain}|&#${c.charCodeAt(0)};)` : plain;
      })
      .join(''),
    'g',
  );
  return text
    .split(where.dir)
    .join('<case>')
    .replace(url, '<simulator>')
    .replace(/sha256:[0-9a-f]{64}/g, 'sha256:<digest>')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, '<time>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>');
}

/** A plan file, as the expected output holds it: pretty JSON, the tool's version and the volatile values named. */
export function normalisePlan(json: string, where: { dir: string; url: string }): string {
  const plan = JSON.parse(json) as Record<string, Json>;
  if (isObject(plan['tool'])) plan['tool'] = { ...plan['tool'], version: '<version>' };
  return `${normalise(JSON.stringify(plan, null, 2), where)}\n`;
}
