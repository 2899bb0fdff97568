import { ApiError } from '../api/errors.js';
import { SwitchboardError } from '../core/errors.js';
import type { KindDefinition } from '../kinds/types.js';
import { documentKinds, OrgWalker, type OrgEntry } from './org.js';
import type { ExportReader } from './reader.js';

/** What the caller may send: the client's api_rules check. */
export type MayGet = (path: string) => boolean;

const topKinds = (): KindDefinition[] => documentKinds.filter((k) => k.parentKinds.length === 0);

/** `group/<name>`, `reseller/<name>`, `tenant/<name>` as a document kind and a name. */
function parseScope(address: string): { kind: KindDefinition; name: string } {
  for (const kind of documentKinds) {
    const prefix = kind.address(undefined, '');
    if (address.startsWith(prefix) && address.length > prefix.length)
      return { kind, name: address.slice(prefix.length) };
  }
  const forms = documentKinds.map((k) => k.address(undefined, '<name>')).join(', ');
  throw new SwitchboardError('SB_EXPORT_SCOPE', `--scope ${address}: expected ${forms}`);
}

/**
 * The objects a run starts from without --scope: everything the caller can see. A caller
 * who may list the top level (system administrators: groups) starts there; others start
 * from the lists their own level answers without a parent (Doc 1 §4.3, §4.4). Whether it
 * may is what the api_rules say and, when they allow more than the level does, what the
 * platform answers: a list refused with 403 (groups below system level, Doc 1 §4.2;
 * resellers for a tenant administrator, §4.3) holds nothing.
 */
export async function visibleRoots(reader: ExportReader, mayGet: MayGet): Promise<OrgEntry[]> {
  const tops = await listedRoots(
    reader,
    topKinds().filter((k) => permitted(reader, k, mayGet)),
  );
  if (tops) return tops;
  return (
    (await listedRoots(
      reader,
      documentKinds.filter((k) => k.parentKinds.length > 0 && permitted(reader, k, mayGet)),
    )) ?? []
  );
}

/** The objects of `kinds` listed without a parent; undefined when there is none to list or every list was refused. */
async function listedRoots(reader: ExportReader, kinds: readonly KindDefinition[]): Promise<OrgEntry[] | undefined> {
  const lists = await Promise.all(
    kinds.map(async (kind) => {
      try {
        return (await reader.list(kind, undefined)).map((l): OrgEntry => ({ kind, ...l }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return undefined;
        throw error;
      }
    }),
  );
  const answered = lists.filter((l): l is OrgEntry[] => l !== undefined);
  return answered.length > 0 ? answered.flat() : undefined;
}

function permitted(reader: ExportReader, kind: KindDefinition, mayGet: MayGet): boolean {
  const path = reader.listPath(kind, undefined);
  return path !== undefined && mayGet(path);
}

/**
 * Finds the object a scope names. Below the top level it searches each top object's list
 * by name (`search`, one request each) and keeps exact matches; when that finds nothing
 * (the object hangs under a parent whose lists a top-level list does not cover), it walks
 * the whole visible tree. A name no visible object carries, or that several carry, is an
 * error: export cannot guess.
 */
export async function findScope(reader: ExportReader, mayGet: MayGet, address: string): Promise<OrgEntry> {
  const { kind, name } = parseScope(address);
  const roots = await visibleRoots(reader, mayGet);
  const matches = (entries: readonly OrgEntry[]) =>
    entries.filter((e) => e.kind === kind && kind.identity(e.live.fields) === name);
  let found = matches(roots);
  if (found.length === 0 && kind.parentKinds.length > 0) {
    const searched = await Promise.all(
      roots
        .filter((r) => kind.parentKinds.includes(r.kind.kind))
        .map(async (r) =>
          (await reader.list(kind, r.live, { search: name })).map((l): OrgEntry => ({
            kind,
            live: l.live,
            owner: l.owner ?? { kind: r.kind.kind, id: r.live.id },
          })),
        ),
    );
    found = matches(searched.flat());
  }
  if (found.length === 0) {
    const walker = new OrgWalker(reader);
    await walker.walk(roots);
    found = matches([...walker.entries.values()]);
  }
  const distinct = [...new Map(found.map((e) => [e.live.id, e])).values()];
  if (distinct.length === 0)
    throw new SwitchboardError(
      'SB_EXPORT_SCOPE',
      `--scope ${address}: no ${kind.kind.toLowerCase()} named "${name}" is visible to this user`,
    );
  if (distinct.length > 1) {
    throw new SwitchboardError(
      'SB_EXPORT_SCOPE',
      `--scope ${address}: ${distinct.length} ${kind.kind.toLowerCase()}s are named "${name}" (uuids ${distinct.map((e) => e.live.id).join(', ')}); rename one on the platform first`,
    );
  }
  return distinct[0] as OrgEntry;
}
