/**
 * The kind contract: every kind of the table, on one embedded simulator, in the table's
 * order, from its `contract.sample` (src/kinds/): create → plan "No changes." → update →
 * replace → rename (`renamedFrom`) → export round trip → delete by prune → "No changes.".
 * A kind that cannot take a step says why, through its columns (no create request,
 * `cannotDelete`, not renamable, unreadable, …) or its `contract.cannot`; the step's test
 * then checks that reason instead. A new kind gets the whole contract by being in the table.
 *
 * Manifests are data: the simulator's seed is exported once, each kind's sample is put under
 * an existing parent (or one made from the parent's own sample), and each export round trip
 * hands the next kind the platform as it now is.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticsError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/logger.js';
import { exportManifests } from '../../src/export/run.js';
import { kinds } from '../../src/kinds/index.js';
import type { ContractStep, KindDefinition } from '../../src/kinds/types.js';
import type { Change, ReasonCode } from '../../src/plan/types.js';
import {
  applyRun,
  openSession,
  planRun,
  type PlanRun,
  type PlanRunOptions,
  type Session,
} from '../../src/run/index.js';
import { cannot, redundantDeclarations, replaceFields, updatableFields } from './contract-limits.js';
import {
  addTo,
  declared,
  identityOf,
  readManifests,
  remove,
  sampleItem,
  writeManifests,
  type Declared,
  type Json,
  type ManifestFile,
} from './contract-manifests.js';

let root: string;
let session: Session;
let files: ManifestFile[];
let exports = 0;

const options = (extra: Partial<PlanRunOptions> = {}): PlanRunOptions => ({
  target: [],
  exclude: [],
  prune: false,
  allowReplace: false,
  maxDeletePercent: 100,
  concurrency: 8,
  stateDir: join(root, 'state'),
  ...extra,
});

async function exported(): Promise<ManifestFile[]> {
  const outDir = join(root, `export-${exports++}`);
  const client = session.client;
  if (!client) throw new Error('no platform client');
  await exportManifests(client, {
    scopes: [],
    outDir,
    force: false,
    ...(session.settings ? { settings: session.settings } : {}),
  });
  return readManifests(outDir);
}

async function plan(extra: Partial<PlanRunOptions> = {}): Promise<PlanRun> {
  const dir = join(root, 'manifests');
  await writeManifests(dir, files);
  const run = await planRun([dir], options(extra), silentLogger, session).catch((error: unknown) => {
    // A plan that cannot be made says why: its diagnostics, not only their count.
    if (!(error instanceof DiagnosticsError)) throw error;
    throw new Error(error.diagnostics.map((d) => `${d.code} ${d.address ?? ''}: ${d.message}`).join('\n'));
  });
  expect(run.plan.errors).toEqual([]);
  return run;
}

async function apply(run: PlanRun): Promise<void> {
  const progressOut = { write: () => true } as unknown as NodeJS.WritableStream;
  const applied = await applyRun(run, run.plan.changes, {
    concurrency: 4,
    failFast: false,
    stateDir: join(root, 'state'),
    progressOut,
  });
  expect(applied.result.failed).toBe(0);
}

/** The reason each step's change gives as data. */
const REASONS = {
  create: 'not-found-live',
  update: 'field-differs',
  replace: 'immutable-field',
  delete: 'not-declared-prune',
} as const;

/**
 * Plans, expects only `action` on the kind's own object (and creates of what it needs), for
 * the reason the step gives, applies, and plans again: "No changes.".
 */
async function converge(
  kind: KindDefinition,
  action: Change['action'],
  extra: Partial<PlanRunOptions> = {},
  reasonCode: ReasonCode = REASONS[action],
) {
  const run = await plan(extra);
  const own = run.plan.changes.filter((c) => c.kind === kind.kind);
  expect(own.map((c) => `${c.action} (${c.reasonCode ?? 'no reason code'})`)).toEqual([`${action} (${reasonCode})`]);
  const others = run.plan.changes.filter((c) => c.kind !== kind.kind);
  expect(others.filter((c) => c.action !== 'create')).toEqual([]);
  await apply(run);
  await noChanges(extra);
  return own[0] as Change;
}

async function noChanges(extra: Partial<PlanRunOptions> = {}): Promise<void> {
  const run = await plan(extra);
  expect(run.plan.changes.map((c) => `${c.action} ${c.address}`)).toEqual([]);
}

/** Where a kind's sample goes: under an existing parent (one that holds it, when it cannot be created), or a new one. */
function place(kind: KindDefinition, adopt: boolean): Declared {
  const { item, key } = sampleItem(kind);
  const document = kind.manifest.document;
  if (document) {
    const metadata: Json = {};
    const spec: Json = {};
    for (const [name, value] of Object.entries(item))
      (document.metadataFields.includes(name) ? metadata : spec)[name] = value;
    const parent = declared(files).find((d) => d.kind.manifest.document && kind.parentKinds.includes(d.kind.kind));
    if (parent) metadata[parent.kind.kind.toLowerCase()] = (parent.doc['metadata'] as Json)['name'];
    const doc = { apiVersion: 'switchboard/v1', kind: kind.kind, metadata, spec };
    files.push({ file: `contract/${kind.kind}.yaml`, docs: [doc] });
    return { kind, item: spec, doc };
  }
  const identity = identityOf({ kind, item, ...(key === undefined ? {} : { key }), doc: {} });
  const all = declared(files);
  const held = (parent: Declared) =>
    all.find(
      (d) => d.kind === kind && d.holder === parent.item[kind.collection as string] && identityOf(d) === identity,
    );
  const parents = kind.parentKinds.flatMap((p) => all.filter((d) => d.kind.kind === p));
  let parent = adopt ? (parents.find((p) => held(p)) ?? parents[0]) : parents.find((p) => !held(p));
  if (!parent) {
    const parentKind = kinds.find((k) => k.kind === kind.parentKinds[0]) as KindDefinition;
    parent = place(parentKind, cannot(parentKind, 'create', kinds) !== undefined);
  }
  const existing = adopt ? held(parent) : undefined;
  if (existing) return { ...existing, parent: parent.item };
  const holder = addTo(parent.item, kind, item, key);
  return { kind, item, doc: parent.doc, holder, parent: parent.item, ...(key === undefined ? {} : { key }) };
}

/** Declares the sample of `kind` beside `object` (under its parent): what `object` refers to. */
function addReferred(object: Declared, kind: string): void {
  const target = kinds.find((k) => k.kind === kind) as KindDefinition;
  addTo(object.parent as Json, target, sampleItem(target).item);
}

/** Sets values on a declared object (a map item's key is its identity, never set here). */
function set(object: Declared, values: Readonly<Record<string, unknown>>): void {
  for (const [name, value] of Object.entries(values)) object.item[name] = structuredClone(value);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'switchboard-contract-'));
  session = await openSession({ sim: true, concurrency: 8, logger: silentLogger }, { platform: true, routing: false });
  files = await exported();
  await noChanges();
}, 60_000);

afterAll(async () => {
  await session?.close();
  await rm(root, { recursive: true, force: true });
});

it('no kind declares a limit its columns already state', () => {
  expect(kinds.flatMap((kind) => redundantDeclarations(kind, kinds))).toEqual([]);
});

for (const kind of kinds) {
  describe(kind.kind, () => {
    let object: Declared;
    /** A step the kind cannot take is no skip: it must say why. */
    const limited = (step: ContractStep): boolean => {
      const why = cannot(kind, step, kinds);
      if (why !== undefined) expect(why.length, `${kind.kind} cannot ${step}`).toBeGreaterThan(10);
      return why !== undefined;
    };

    it('create, then plan: No changes', async () => {
      if (limited('create')) {
        object = place(kind, true);
        // A sample that names another kind's object (a number's address) needs it: adopting then links it.
        const refers = kind.manifest.refersTo;
        if (refers && object.item[refers.field] != null) {
          addReferred(object, refers.kind);
          await converge(kind, 'update');
        } else await noChanges();
        return;
      }
      object = place(kind, false);
      await converge(kind, 'create');
    });

    it('update an updatable field', async () => {
      if (limited('update')) return;
      const update = kind.contract.update;
      expect(
        update,
        `${kind.kind}: contract.update gives new values of ${updatableFields(kind).join(', ')}`,
      ).toBeDefined();
      expect(Object.keys(update ?? {}).filter((name) => !updatableFields(kind).includes(name))).toEqual([]);
      const refers = kind.manifest.refersTo;
      if (refers && update?.[refers.field] != null) addReferred(object, refers.kind);
      set(object, update ?? {});
      await converge(kind, 'update');
    });

    it('replace: change a field the API cannot change', async () => {
      if (limited('replace')) return;
      const replace = kind.contract.replace ?? {};
      expect(
        Object.keys(replace),
        `${kind.kind}: contract.replace gives new values of ${replaceFields(kind).join(', ')}`,
      ).not.toEqual([]);
      expect(Object.keys(replace).filter((name) => !replaceFields(kind).includes(name))).toEqual([]);
      set(object, replace);
      const change = await converge(kind, 'replace', { allowReplace: true });
      expect(change.replacedBy).toEqual(Object.keys(replace));
    });

    it('rename through renamedFrom', async () => {
      if (limited('rename')) return;
      const field = kind.manifest.renamable?.field as string;
      const holder = kind.manifest.document ? (object.doc['metadata'] as Json) : object.item;
      const former = String(holder[field]);
      holder[field] = `${former}-renamed`;
      holder['renamedFrom'] = [former];
      const change = await converge(kind, 'update', {}, 'renamed');
      expect(change.previousAddress).toMatch(new RegExp(`${former}$`));
      delete holder['renamedFrom'];
    });

    it('export round trip: the export declares it, and plans No changes', async () => {
      if (limited('export')) return;
      const identity = identityOf(object);
      files = await exported();
      const found = declared(files).find((d) => d.kind === kind && identityOf(d) === identity);
      expect(found, `the export declares the ${kind.manifest.noun} ${identity}`).toBeDefined();
      object = found as Declared;
      await noChanges();
    });

    it('delete: prune what is no longer declared', async () => {
      if (limited('delete')) return;
      remove(object);
      const metadata = object.doc['metadata'] as Json;
      metadata['prune'] = true;
      await converge(kind, 'delete');
      delete metadata['prune'];
    });
  });
}
