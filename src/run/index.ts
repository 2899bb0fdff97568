/**
 * The run layer: the conductor of a run below the command line. It loads the manifests,
 * connects, makes the providers the manifests need and has them read and plan, and applies
 * a plan made in this process, with the journal, the last-applied record, the progress line
 * and the apply lock. The commands (src/cli), `demo` and tests call it; it never prints.
 */
export { applyRun, withApplyLock, type ApplyRunOptions, type ApplyRunResult } from './apply.js';
export { reduceToBaselines, suggestBaseline, type SuggestOptions, type SuggestResult } from './baselines.js';
export { exportRun, type ExportRunResult } from './export.js';
export {
  asInterrupted,
  interruptedError,
  watchInterrupts,
  type Interrupt,
  type RunPhase,
  type StopSignal,
} from './interrupt.js';
export { planRun, type PlanRun, type PlanRunOptions } from './plan.js';
export { verifyRun, verifySession, type VerifyRunOptions, type VerifyRunResult } from './verify-run.js';
export type { Verification, VectorFailure } from './verify.js';
export { emergencyJson, emergencyLine, renderVerification, verificationJson } from './verify-render.js';
export { type PoliciesAt } from './policies-from.js';
export { type PlanSource, type ProvenanceOptions } from './provenance.js';
export { changesToApply, readPlan, readSavedPlan, type SavedPlanRun } from './saved-plan.js';
export { connectOptionsOf, openSession, type ConnectOptions, type Session, type SessionNeeds } from './session.js';
export type { ConcurrencySetting } from '../api/index.js';
