import type { CommandRegistrar } from '../program.js';
import { registerApply } from './apply.js';
import { registerAudit } from './audit.js';
import { registerBaseline } from './baseline.js';
import { registerCompare } from './compare.js';
import { registerCoverage } from './coverage.js';
import { registerDemo } from './demo.js';
import { registerExplain } from './explain.js';
import { registerExport } from './export.js';
import { registerInit } from './init.js';
import { registerPlan } from './plan.js';
import { registerShow } from './show.js';
import { registerSim } from './sim.js';
import { registerValidate } from './validate.js';
import { registerVerify } from './verify.js';
import { registerVersion } from './version.js';

/** Every CLI verb, one module each, registered explicitly. */
export const commands: CommandRegistrar[] = [
  registerInit,
  registerValidate,
  registerExplain,
  registerBaseline,
  registerPlan,
  registerApply,
  registerCoverage,
  registerVerify,
  registerShow,
  registerAudit,
  registerExport,
  registerCompare,
  registerSim,
  registerDemo,
  registerVersion,
];
