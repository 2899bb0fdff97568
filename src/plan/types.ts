/**
 * The plan: plain, serialisable data (docs/plans.md). Built by the planner (pure),
 * rendered by the renderers (pure), saved with `--out`, applied by the executor.
 * Nothing in here is read back for display only: `reason` is for humans and is never
 * consulted by apply.
 */

import { SENSITIVE } from '../core/secrets.js';
import type { CapacityFigure } from '../kinds/types.js';
import type { CoverageReport } from './coverage/types.js';
import type { ReasonCode } from './reasons.js';
import type { WindowNotice } from './windows.js';

export type { ReasonCode } from './reasons.js';

/**
 * The plan file's format. 2: sealed (the `digest` is required, the change set's digest is
 * recorded and checked, a member this switchboard does not know is refused); plan files of
 * version 1 are refused as made by an older switchboard (docs/design-decisions.md).
 */
export const PLAN_FORMAT_VERSION = 2;

export type Action = 'create' | 'update' | 'delete' | 'replace' | 'noop';

/** One RFC 6902 operation, as fast-json-patch produces it. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** One HTTP call the change will make (method + path, query-less). */
export interface PlannedRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The role the endpoint requires (spec), when known. */
  role?: string;
  /**
   * The path with each live id replaced by `{id:ADDRESS}` of the object it stands for (as
   * the id of an object created earlier in the run already is); absent when the path holds
   * none. The change set compares this, not `path`: ids differ between re-creations.
   */
  pathTemplate?: string;
}

/**
 * The system a change is made in, like Terraform's provider address on each change: the
 * platform API (objects of the kind table) or the routing engine (rows of its tables).
 */
export type ProviderName = 'platform' | 'routing';

/** Every provider name, in the order their changes appear in a plan and are applied. */
export const PROVIDER_NAMES: readonly ProviderName[] = ['platform', 'routing'];

/**
 * One change of the plan. `before` / `after` hold only the managed fields (manifest
 * spelling) with sensitive values replaced by the SENSITIVE marker; `patch` turns
 * `before` into `after`.
 */
export interface Change {
  address: string;
  kind: string;
  /** Which provider plans and applies it (plan files written before it existed have none: see plan-file.ts). */
  provider: ProviderName;
  action: Exclude<Action, 'noop'>;
  /**
   * A rename: the address the object had (its former name). The change is an update (or a
   * replace) of the live object found there, which then has `address`.
   */
  previousAddress?: string;
  /** Live id, when the object exists (uuid, integer id as string, …). */
  id?: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  patch: PatchOperation[];
  /** Why: for humans only. */
  reason: string;
  /** Why, as data (absent in plan files written before it existed). */
  reasonCode?: ReasonCode;
  /** A replace: the fields (manifest names) whose values differ and that the API cannot change. */
  replacedBy?: string[];
  /** `sha256:…` of the normalised live object as read; absent for creates. */
  liveDigest?: string;
  /** Addresses of changes that must succeed before this one. */
  dependsOn: string[];
  requests: PlannedRequest[];
  /**
   * Sensitive fields: their values appear in before/after as SENSITIVE, and here as a
   * `sha256:` digest so a reviewer can tell that a secret changed without seeing it.
   */
  sensitiveDigests?: Record<string, string>;
  /** Manifest position of the desired object (file:line:col), when there is one. */
  source?: string;
  /**
   * Where each changed field's value comes from, for an object of a document a baseline
   * selects (docs/baselines.md): a baseline, the document, or its override of a baseline.
   */
  fieldSources?: Record<string, FieldOrigin>;
}

/** Where a changed field's value comes from (docs/baselines.md). */
export interface FieldOrigin {
  from: 'document' | 'baseline' | 'override';
  /** The field's path, as overrides write it (`spec.subscriptions[main].templates[TPL-STD].vrp`). */
  path: string;
  /** `file:line:col` of the value. */
  source?: string;
  /** The baseline that gave the value, or that the override differs from. */
  baseline?: string;
  /** The override's reason. */
  reason?: string;
}

/** A baseline of the manifests, as a plan reports it (docs/baselines.md). */
export interface PlanBaseline {
  name: string;
  /** `file:line:col` of the baseline's document. */
  source: string;
  /** Its selector as one line (`resellers: north`). */
  selector: string;
  /** The kind of the documents it selects (`Tenant`). */
  documentKind: string;
  /** How many documents it selects. */
  documents: number;
  /** `--changed-since`: its document changed since that commit. */
  edited?: boolean;
  /** Where the documents it selects differ from it, and why. */
  overrides: PlanOverride[];
}

/** A document's override of a baseline's value or item. */
export interface PlanOverride {
  /** The document's address (`tenant/acme-corp`). */
  document: string;
  path: string;
  reason: string;
  /** The baseline's value or item is left out rather than replaced. */
  remove?: boolean;
  /** `file:line:col` of the override. */
  source: string;
  /** `file:line:col` of the baseline's value or item it overrides. */
  baselineSource: string;
}

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
  noop: number;
  /** Live objects in scope that the manifests do not declare and that are not pruned. */
  unmanaged: number;
}

/** A finding attached to the plan (warnings), or a refusal (errors: exit 3 on apply). */
export interface PlanMessage {
  code: string;
  message: string;
  address?: string;
  /** For permission refusals: the role the caller lacks. */
  role?: string;
  /** For policy violations (`SB_POLICY`): the id of the rule. */
  rule?: string;
  /** The manifest position (`file:line:col`) of what the message is about, when there is one. */
  source?: string;
}

/**
 * One line of the plan's Capacity section: an entitlement or a licence of a subscription
 * the plan touches, what the plan leaves declared against what the platform reports (the
 * figures are the kind table's, `CapacityFigure`, less the quantity the warning is a share of).
 */
export interface CapacityRow extends Omit<CapacityFigure, 'of'> {
  /** The object the figure belongs to (the entitlement; the subscription for its licences). */
  address: string;
  /** The touched object whose capacity the row is part of (the subscription), when it is not `address`. */
  scope?: string;
  /** Set when the headroom is under 10 % (or below zero). */
  warning?: string;
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  createdAt: string;
  /**
   * `sha256:` of the RFC 8785 canonical JSON of the plan file without this field (see
   * plan-digest.ts): what a reviewer saw is what `apply --plan` applies. Set once the plan
   * is made (sealPlan); every plan file carries it.
   */
  digest?: string;
  /** What the plan would do, as a digest (change-set.ts); set with `digest`. */
  changeSet?: ChangeSetSeal;
  tool: { name: 'switchboard'; version: string };
  target: { baseUrl: string; instance: string; routingEngine?: string };
  manifests: {
    digest: string;
    files: string[];
    /**
     * The manifest paths the plan was made from, relative to the folder it was made in
     * (absolute when outside it): `apply --plan FILE` without paths loads these.
     */
    paths?: string[];
  };
  /** Who made the plan, from which commit and CI run (src/run/provenance.ts); absent when made as a library call. */
  provenance?: PlanProvenance;
  /** The options that shaped the plan; `apply --plan` plans again with the same ones. */
  options?: PlanOptions;
  /** `--changed-since`: the plan read and compared only the documents changed since a commit. */
  scope?: PlanScope;
  /** The policy rules overridden for this plan (`--allow-policy`); absent when none. */
  policy?: { overrides: string[] };
  /** `plan --policies-from REF`: the plan was judged by the Policy documents at this commit. */
  policiesFrom?: { ref: string; commit: string };
  /** With `policiesFrom`: how the manifests' Policy rules differ from those at the ref (none: empty). */
  policyChanges?: PolicyChange[];
  summary: PlanSummary;
  changes: Change[];
  /** Live objects in scope left alone (not declared, not pruned). */
  unmanaged: { address: string; kind: string; id?: string }[];
  /** The capacity of the subscriptions the plan touches; absent when it touches none. */
  capacity?: { rows: CapacityRow[] };
  /** The baselines of the manifests and their overrides (docs/baselines.md); absent when there are none. */
  baselines?: PlanBaseline[];
  /** Emergency coverage (docs/assurance.md): made when asked (`--coverage`, a coverage rule). */
  coverage?: CoverageReport;
  /** The RoutingTest vectors the plan was checked with, and those whose answer it changes. */
  routingTests?: RoutingTestsSummary;
  /** The change windows that cover some of the plan's changes, at the plan's (or the apply's) instant. */
  changeWindows?: WindowNotice[];
  warnings: PlanMessage[];
  /** Refusals by the safety rails. A plan with errors is printed in full and not applied. */
  errors: PlanMessage[];
}

/** What the RoutingTest vectors say about a plan (docs/assurance.md "Routing tests"). */
export interface RoutingTestsSummary {
  /** Vectors checked against the declared rows: all passed (a failing one stops the plan). */
  vectors: number;
  /** Vectors whose answer the plan changes: live now, declared after (at most a few hundred listed). */
  changed: VectorChange[];
  /** How many change, listed or not. */
  changedCount: number;
  /**
   * Vectors the rows the apply leaves will answer otherwise than expected (live rows it keeps):
   * `apply --verify` would fail on them. Present only when some will (at most a few hundred listed).
   */
  failing?: VectorFailing[];
  /** How many will fail, listed or not (present with `failing`). */
  failingCount?: number;
}

/** A vector the plan's outcome will fail: `+3221234567: expects carrier trunk-7; the row prefix=+322123 answered carrier rogue`. */
export interface VectorFailing {
  /** The RoutingTest document's name. */
  test: string;
  /** The table's address. */
  table: string;
  /** The vector (its lookup value). */
  vector: string;
  /** What it expects and what will answer. */
  message: string;
  /** `file:line:col` of the vector. */
  source: string;
}

/** A vector whose answer the plan changes: `+3221234567: trunk-7 → trunk-9`. */
export interface VectorChange {
  /** The RoutingTest document's name. */
  test: string;
  /** The table's address. */
  table: string;
  /** The vector (its lookup value). */
  vector: string;
  /** The live answer now, and the declared one after the plan (the expected fields' values, or `no row`). */
  before: string;
  after: string;
  /** `file:line:col` of the vector. */
  source: string;
}

/** What a plan made with `--changed-since REF` covers (an addition to the plan file: docs/plans.md). */
export interface PlanScope {
  /** The ref as given, and the commit it named. */
  changedSince: string;
  commit: string;
  /** Documents changed since the commit (added, changed, removed), of the documents the manifests hold now. */
  documents: number;
  ofDocuments: number;
  /** Their addresses. */
  addresses: string[];
  /** `sha256:` of each file of the changed documents (manifests and data files), by the name diagnostics use. */
  files: Record<string, string>;
  /** The address patterns the plan read and compared (each with its subtree): `apply --plan` reads the same. */
  targets: string[];
}

/** The change-set digest and how many changes it covers (docs/plans.md "The change set"). */
export interface ChangeSetSeal {
  digest: string;
  changes: number;
}

/**
 * Where a plan was made (docs/plans.md "Provenance"). `authenticated` is true only for what
 * the platform vouched for (the user it let log in); the rest is what the machine said: the
 * git working tree, and CI variables that anyone who starts the process can set.
 */
export interface PlanProvenance {
  git?: GitProvenance;
  pullRequest?: { number: number; url?: string; from: string; authenticated: false };
  ci?: { system: string; url?: string; actor?: string; authenticated: false };
  user?: { username?: string; login: string; api: ProviderName; authenticated: true };
}

/** The commit the manifests were read at, and whether what was read differs from it. */
export interface GitProvenance {
  commit: string;
  /** The branch checked out; absent on a detached HEAD (a CI checkout of a commit). */
  branch?: string;
  /** A file read (manifest or data) is not as committed, or a committed manifest is gone. */
  dirty: boolean;
  /** Those files (at most 100), relative to the folder the plan was made in. */
  uncommitted?: { file: string; state: UncommittedState }[];
  /** How many there are, when more than those listed. */
  uncommittedCount?: number;
  authenticated: false;
}

export type UncommittedState = 'modified' | 'added' | 'deleted' | 'untracked' | 'ignored' | 'outside the repository';

/** How a Policy rule of the manifests differs from the rule of the same id at `policiesFrom`. */
export interface PolicyChange {
  rule: string;
  /** The Policy document holding it (at the ref, for a removed rule). */
  policy: string;
  change: 'added' | 'removed' | 'changed';
  /**
   * Whether a plan may now pass what the rule at the ref refused or warned about (looser),
   * the reverse (stricter), both (mixed), neither (neutral: a description), or something the
   * two rules cannot be compared on (unclear: another pattern, another field).
   */
  effect: PolicyEffect;
  /** What changed, one line each (`limit max 500 → 5000: looser`). */
  details: string[];
  /** Where the rule is declared: in the manifests (`file:line:col`), or at the ref (`COMMIT:file:line:col`). */
  source?: string;
}

export type PolicyEffect = 'looser' | 'stricter' | 'mixed' | 'unclear' | 'neutral';

/** The command-line options that change what a plan holds (an addition to docs/plans.md). */
export interface PlanOptions {
  target: string[];
  exclude: string[];
  prune: boolean;
  allowReplace: boolean;
  maxDeletePercent: number;
  /** Updates allowed per kind, as a share of its live objects in scope (absent in plans made before it). */
  maxUpdatePercent?: number;
  /** Policy rules overridden for this plan (absent in plans made before it). */
  allowPolicy?: string[];
  /** `--allow-address-in-use`: deleting an address numbers still use warns instead of refusing. */
  allowAddressInUse?: boolean;
}

export { SENSITIVE };

/** What the previous value of a write-only field looks like: the API never returns it. */
export const WRITE_ONLY = '(write-only)';

/**
 * The values a sensitive field may hold in before/after: the markers, or null (no value
 * yet). Anything else would be a secret in clear, which a plan file never holds.
 */
export function isPlaceholder(value: unknown): boolean {
  return value === null || value === SENSITIVE || value === WRITE_ONLY;
}
