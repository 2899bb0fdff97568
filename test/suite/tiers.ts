/**
 * The test tiers (docs/development.md "Test tiers"): which test file runs in which vitest
 * project. A folder belongs to one tier, and every test file in it, present or future, with
 * it; a file that needs another tier than its folder's is listed by name in that tier.
 * `test/suite/tiers.test.ts` checks that every test file is in exactly one tier and that the
 * unit tier's files start no simulator, no process and no network connection;
 * `test/suite/unit-guard.ts` refuses the same at run time.
 */

export type TierName = 'unit' | 'e2e' | 'reliability';

export interface Tier {
  /** What belongs here, said in the guard's messages. */
  rule: string;
  /** Folders (`test/x/`) whose test files, at any depth, are in this tier. */
  folders: readonly string[];
  /** Single files (`test/x/y.test.ts`): a file of another tier's folder, or one at the top of test/. */
  files: readonly string[];
}

export const TIERS: Record<TierName, Tier> = {
  unit: {
    rule: 'pure logic in this process: no simulator, no child process, no network (npm run test:unit)',
    folders: [
      'test/api/',
      'test/apply/',
      'test/assurance/',
      'test/baselines/',
      'test/compare/',
      'test/config/',
      'test/core/',
      'test/docs/',
      'test/editor/',
      'test/export/',
      'test/init/',
      'test/kinds/',
      'test/manifest/',
      'test/notify/',
      'test/plan/',
      'test/routing/',
      'test/run/',
      'test/scripts/',
      'test/state/',
      'test/suite/',
    ],
    files: ['test/architecture.test.ts'],
  },
  e2e: {
    rule: 'the real CLI, a simulator, a server or another process (npm run test:e2e)',
    folders: ['test/cases/', 'test/contract/', 'test/e2e/', 'test/hardening/', 'test/sim/', 'test/trust/'],
    files: [
      // Files of unit folders that start a server, a simulator or a process.
      'test/api/answer-size.test.ts',
      'test/api/auth.test.ts',
      'test/api/pagination.test.ts',
      'test/api/request.test.ts',
      'test/api/retry-policy.test.ts',
      'test/api/sim-doc2.test.ts',
      'test/api/sim-integration.test.ts',
      'test/api/tls.test.ts',
      'test/assurance/change-windows.test.ts',
      'test/assurance/coverage.test.ts',
      'test/assurance/routing-tests.test.ts',
      'test/assurance/routing-tests-live.test.ts',
      'test/baselines/adopt.test.ts',
      'test/baselines/cli.test.ts',
      'test/baselines/examples.test.ts',
      'test/baselines/fleet.test.ts',
      'test/config/load-connection.test.ts',
      'test/core/undici-pool.test.ts',
      'test/docs/generated.test.ts',
      'test/docs/tutorial.test.ts',
      'test/editor/editor.test.ts',
      'test/editor/yaml-parity.test.ts',
      'test/export/requests.test.ts',
      'test/export/stability.test.ts',
      'test/init/init.test.ts',
      'test/manifest/cache.test.ts',
      'test/kinds/contract.test.ts',
      'test/notify/notify.test.ts',
      'test/routing/apply-rows.test.ts',
      'test/routing/client.test.ts',
      'test/routing/engine-counts.test.ts',
      'test/routing/execute.test.ts',
      'test/routing/tls.test.ts',
      'test/run/changed-since.test.ts',
      'test/run/provenance.test.ts',
      'test/run/run.test.ts',
      'test/state/refs.test.ts',
      'test/suite/checkout-guard.test.ts',
      'test/suite/clean-checkout.test.ts',
    ],
  },
  reliability: {
    rule: 'properties proved by many runs: chaos, crashes, fuzzing (npm run test:reliability; bigger in npm run soak)',
    folders: ['test/reliability/'],
    files: [],
  },
};

/** Not tests: the benchmarks are `npm run bench`. */
const NOT_TESTS = ['test/bench/**', 'node_modules/**'];

const names = Object.keys(TIERS) as TierName[];

/** What a tier's vitest project includes: its folders and files. */
export function includeOf(tier: TierName): string[] {
  return [...TIERS[tier].folders.map((f) => `${f}**/*.test.ts`), ...TIERS[tier].files];
}

/** What a tier's project leaves out: the files other tiers claim by name. */
export function excludeOf(tier: TierName): string[] {
  return [...NOT_TESTS, ...names.filter((n) => n !== tier).flatMap((n) => TIERS[n].files)];
}

/** The tiers a test file (`test/...`, forward slashes) runs in, as the projects above select it: exactly one. */
export function tiersOf(file: string): TierName[] {
  return names.filter((tier) => {
    const claimed = TIERS[tier].files.includes(file) || TIERS[tier].folders.some((f) => file.startsWith(f));
    const claimedElsewhere = names.some((other) => other !== tier && TIERS[other].files.includes(file));
    return claimed && !claimedElsewhere;
  });
}
