/**
 * docs/audit.md "Checking a digest without switchboard": the Node.js and Python commands of
 * the page, run as a reader would, compute switchboard's own digest of real plan files (and
 * of values chosen to catch a serialisation that is not RFC 8785), and catch a changed file.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { sealPlan } from '../../src/plan/plan-digest.js';
import { writePlanFile } from '../../src/plan/plan-file.js';
import type { Plan } from '../../src/plan/types.js';
import { parseMarkdown, type Fence } from '../docs/markdown.js';
import { identityPlan } from '../fixtures/plans/identity-plan.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';

const run = promisify(execFile);
const AUDIT = resolve(import.meta.dirname, '../../docs/audit.md');

/** Numbers and keys whose RFC 8785 form differs from what a JSON library writes by default. */
function awkwardPlan(): Plan {
  const plan = structuredClone(samplePlan());
  const change = plan.changes.find((c) => c.address === 'tenant/acme-corp');
  if (!change?.after) throw new Error('fixture lost tenant/acme-corp');
  change.after = {
    ...change.after,
    numbers: [1e-7, 0.000001, 1e21, 1e20, 123.456, -0.5, 5e-324, 1.7976931348623157e308, 100, 0.1 + 0.2, 2 ** 53 + 2],
    texts: ['é', '\u0001\u001f\u007f', 'tab\tline\nquote"back\\', '\u2028\u2029', '𝄞 music', '</script>'],
    keys: { b: 1, a: 2, B: 3, é: 4, '\uffff': 5, '𝄞': 6, '10': 7, '9': 8, '': 9 },
  };
  return sealPlan(plan);
}

let blocks: { name: string; script: string }[];
beforeAll(async () => {
  const fences = parseMarkdown(await readFile(AUDIT, 'utf8')).filter(
    (i): i is Fence => i.type === 'fence' && 'digest-check' in i.attrs,
  );
  blocks = fences.map((f) => ({ name: f.attrs['digest-check'] ?? '', script: f.body }));
});

async function check(script: string, plan: Plan | string): Promise<{ code: number; stdout: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-digest-'));
  if (typeof plan === 'string') await writeFile(join(dir, 'plan.json'), plan);
  else await writePlanFile(join(dir, 'plan.json'), plan);
  try {
    const { stdout } = await run('bash', ['-c', script], { cwd: dir });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '' };
  }
}

describe('docs/audit.md: checking a digest without switchboard', () => {
  it('the page has a Node.js and a Python command', () => {
    expect(blocks.map((b) => b.name)).toEqual(['node', 'python']);
  });

  const plans: [string, () => Plan][] = [
    ['the sample plan', samplePlan],
    ['the identity plan', identityPlan],
    ['a plan of awkward numbers, strings and keys', awkwardPlan],
  ];
  for (const [what, make] of plans) {
    it(`both compute switchboard's digest of ${what}`, async () => {
      const plan = make();
      const sealed = sealPlan(plan);
      for (const block of blocks) {
        const result = await check(block.script, plan);
        expect(result, block.name).toEqual({ code: 0, stdout: `OK ${sealed.digest}\n` });
      }
    });
  }

  it('both say MISMATCH (exit 3) for a file changed after it was written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-digest-'));
    await writePlanFile(join(dir, 'plan.json'), samplePlan());
    const changed = (await readFile(join(dir, 'plan.json'), 'utf8')).replace('"markup": 5', '"markup": 6');
    for (const block of blocks) {
      const result = await check(block.script, changed);
      expect(result.code, block.name).toBe(3);
      expect(result.stdout, block.name).toMatch(
        /^MISMATCH: recorded sha256:[0-9a-f]{64}, computed sha256:[0-9a-f]{64}\n$/,
      );
    }
  });
});
