/**
 * The run layer: the conductor of a run below the command line. It loads the manifests,
 * connects, makes the providers the manifests need and has them read and plan, and applies
 * a plan made in this process, with the journal, the last-applied record, the progress line
 * and the apply lock. The commands (src/cli), `demo` and tests call it; it never prints.
 * A command imports the modules it uses by name (what `plan` loads leaves apply and export
 * out); this index is for `apply`, which uses most of them, and for tests.
 */
export { applyRun, withApplyLock, type ApplyRunOptions, type ApplyRunResult } from './apply.js';
export { type SuggestOptions, type SuggestResult } from './baselines.js';
export { type ExportRunResult } from './export.js';
export { interruptedError, watchInterrupts, type Interrupt, type RunPhase, type StopSignal } from './interrupt.js';
export { planRun, type PlanRun, type PlanRunOptions } from './plan.js';
export { verifySession, type VerifyRunOptions, type VerifyRunResult } from './verify-run.js';
export type { Verification, VectorFailure } from './verify.js';
export { emergencyJson, emergencyLine, renderVerification, verificationJson } from './verify-render.js';
export { type PoliciesAt } from './policies-from.js';
export { type PlanSource, type ProvenanceOptions } from './provenance.js';
export { changesToApply, readSavedPlan, type SavedPlanRun } from './saved-plan.js';
export { openSession, type ConnectOptions, type Session, type SessionNeeds } from './session.js';
export type { ConcurrencySetting } from '../api/index.js';
