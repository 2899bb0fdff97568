import { ApiError, ApiErrorCode } from '../api/errors.js';
import { kindOf } from '../kinds/index.js';
import type { KindContext, KindDefinition, LiveObject, RequestSpec } from '../kinds/types.js';
import type { BuiltRequests } from '../plan/planner.js';
import type { Change } from '../plan/types.js';
import type { DesiredNode } from '../state/types.js';
import { IdRegistry, parentStandIn } from './ids.js';
import { findByIdentity } from './lookup.js';
import type { RecordKeeper } from './record.js';
import type { Sender } from './sender.js';
import { stillUnknown } from './unknown-outcome.js';
import { idChain } from '../kinds/id-chain.js';

/** A create whose outcome stays unknown is looked up and re-sent at most this many times. */
const CREATE_ATTEMPTS = 3;

/** What one change needs, besides the change itself. */
export interface ChangeEnv {
  /** Every request of a change goes through it, so that each one is journalled. */
  sender: Sender;
  ctx: KindContext;
  ids: IdRegistry;
  /** The requests the planner built, by address. */
  requests: ReadonlyMap<string, BuiltRequests>;
  desired: ReadonlyMap<string, DesiredNode>;
  record?: RecordKeeper;
}

/** The step of a change a graph node runs: all of it, or one half of a create-before-delete replace. */
export type Step = 'all' | 'create' | 'delete-old';

/** An expected failure of one change, with the words the summary shows. */
class ChangeError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * Runs one change (or one step of it): sends the requests the planner built for it in
 * order, with pending ids resolved, and learns the id of what it creates. Throws on failure.
 */
export async function runChange(change: Change, step: Step, env: ChangeEnv): Promise<void> {
  const kind = kindOf(change.kind);
  const desired = env.desired.get(change.address);
  const removeOld = async () => deleteObject(change, kind, env);
  switch (change.action) {
    case 'create':
      await createObject(change, kind, requireDesired(change, desired), env);
      break;
    case 'update':
      await updateObject(change, kind, requireDesired(change, desired), env);
      break;
    case 'delete':
      await removeOld();
      break;
    case 'replace':
      if (step !== 'create') await removeOld();
      if (step !== 'delete-old') await createObject(change, kind, requireDesired(change, desired), env);
      // A renamed object replaced: nothing lives under its former address any more.
      if (step !== 'create' && change.previousAddress !== undefined) env.record?.deleted(change.previousAddress);
      break;
  }
}

/** The requests the planner built for one step of a change. */
function plannedRequests(
  change: Change,
  step: keyof BuiltRequests,
  env: Pick<ChangeEnv, 'requests'>,
): readonly RequestSpec[] {
  const requests = env.requests.get(change.address)?.[step];
  if (!requests)
    throw new ChangeError(
      `no ${step} requests were planned for ${change.address}: apply only what this run planned`,
      'SB_APPLY_NOT_PLANNED',
    );
  return requests;
}

async function createObject(change: Change, kind: KindDefinition, desired: DesiredNode, env: ChangeEnv): Promise<void> {
  if (!kind.create) throw new ChangeError(`the API cannot create ${kind.kind} objects`, 'SB_APPLY_CANNOT_CREATE');
  const [first, ...rest] = plannedRequests(change, 'create', env);
  if (!first) return;
  const created = await sendCreate(env.ids.resolve(first), change, kind, desired, env);
  if (created === 'updated-existing') {
    env.record?.applied(desired);
    return;
  }
  env.ids.setCreated(change.address, created);
  for (const request of rest) await env.sender.send(env.ids.resolve(request), change.address, 'create');
  env.record?.applied(desired);
}

/**
 * Sends the creating request safely. A POST whose outcome is unknown is never re-sent
 * blindly: the object is looked up by its identity first. A kind the API cannot read
 * (administrators) answers 400 when the object already exists: it is updated instead.
 * Returns the created id, or `updated-existing`.
 */
async function sendCreate(
  request: RequestSpec,
  change: Change,
  kind: KindDefinition,
  desired: DesiredNode,
  env: ChangeEnv,
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await env.sender.send<unknown>(
        request,
        change.address,
        attempt === 1 ? 'create' : 'create (re-sent: not found after an unknown outcome)',
      );
      return await createdIdOf(response.body, change, kind, desired, env);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === ApiErrorCode.outcomeUnknown && attempt < CREATE_ATTEMPTS) {
        const found = await lookUp(kind, desired, env).catch((lookupError: unknown) => {
          throw stillUnknown(error, lookupError);
        });
        if (found !== undefined) return found;
        if (kind.list || kind.unreadable) continue; // absent (or unknowable and harmless to re-send): send again
        throw error;
      }
      if (error.status === 400 && kind.unreadable && kind.update) {
        await updateExisting(change, kind, desired, env, error);
        return 'updated-existing';
      }
      throw error;
    }
  }
}

/** The created object's id, from the answer or by looking it up (a 204 without an id). */
async function createdIdOf(
  body: unknown,
  change: Change,
  kind: KindDefinition,
  desired: DesiredNode,
  env: ChangeEnv,
): Promise<unknown> {
  const from = kind.createdId;
  if (from?.from === 'body' && body && typeof body === 'object') {
    const value = (body as Record<string, unknown>)[from.field];
    // An id of another type (an object, a list) is a misread answer: find the object instead.
    if (typeof value === 'string' ? value !== '' : typeof value === 'number') return value;
  }
  if (kind.unreadable || from?.from === 'identity') return kind.identity(desired.fields);
  const found = await lookUp(kind, desired, env);
  if (found === undefined) {
    throw new ChangeError(
      `${change.address} was created, but the platform gave no id and listing its collection does not show it`,
      'SB_APPLY_NO_ID',
    );
  }
  return found;
}

async function lookUp(kind: KindDefinition, desired: DesiredNode, env: ChangeEnv): Promise<string | undefined> {
  if (!kind.list) return undefined;
  const parent = env.ids.parentRefOf(desired);
  const client = env.sender.lookupClient(desired.address, 'look up by identity');
  return findByIdentity(
    client,
    kind,
    parent ? parentStandIn(parent) : undefined,
    kind.identity(desired.fields),
    env.ctx,
  );
}

/** Doc 1 §4.2: "400 when the e-mail already exists": the account is there, so it is updated. */
async function updateExisting(
  change: Change,
  kind: KindDefinition,
  desired: DesiredNode,
  env: ChangeEnv,
  createError: ApiError,
): Promise<void> {
  const parent = env.ids.parentRefOf(desired);
  const identity = kind.identity(desired.fields);
  const existing: LiveObject = {
    kind: kind.kind,
    address: change.address,
    id: identity,
    ids: idChain(parent?.ids, kind.kind, identity),
    fields: {},
  };
  if (parent) existing.parentAddress = parent.address;
  const requests = (await kind.update?.(desired, existing, env.ctx, Object.keys(desired.fields))) ?? [];
  try {
    for (const request of requests)
      await env.sender.send(env.ids.resolve(request), change.address, 'update (create answered 400: already exists)');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ChangeError(
      `${createError.message}; updating the existing object instead failed too: ${why}`,
      createError.code,
    );
  }
}

async function updateObject(change: Change, kind: KindDefinition, desired: DesiredNode, env: ChangeEnv): Promise<void> {
  if (!kind.update) throw new ChangeError(`the API cannot update ${kind.kind} objects`, 'SB_APPLY_CANNOT_UPDATE');
  for (const request of plannedRequests(change, 'update', env))
    await env.sender.send(env.ids.resolve(request), change.address, 'update');
  if (change.previousAddress !== undefined) env.record?.renamed(change.previousAddress, change.address);
  env.record?.applied(desired);
}

/** Deletes are idempotent where the spec says so: a 404 means it is already gone. */
async function deleteObject(change: Change, kind: KindDefinition, env: ChangeEnv): Promise<void> {
  if (!kind.delete)
    throw new ChangeError(kind.cannotDelete ?? `the API cannot delete ${kind.kind} objects`, 'SB_APPLY_CANNOT_DELETE');
  for (const request of plannedRequests(change, 'delete', env)) {
    await env.sender.send(
      env.ids.resolve(request),
      change.address,
      change.action === 'replace' ? 'delete (replace)' : 'delete',
      {
        okStatuses: request.method === 'DELETE' ? [404] : [],
      },
    );
  }
  if (change.action === 'delete') env.record?.deleted(change.address);
}

function requireDesired(change: Change, desired: DesiredNode | undefined): DesiredNode {
  if (!desired)
    throw new ChangeError(
      `${change.address} is not declared in the manifests given: plan and apply from the same manifests`,
      'SB_APPLY_NO_DESIRED',
    );
  return desired;
}
