import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../src/apply/journal.js';
import {
  MASK,
  clearSecrets,
  maskCredentials,
  maskSecrets,
  maskStream,
  registerSecret,
} from '../../src/core/secrets.js';
import { planDocument } from '../../src/plan/render-json.js';
import { samplePlan } from '../fixtures/plans/sample-plan.js';

afterEach(() => clearSecrets());

describe('the secrets registry', () => {
  it('masks a registered secret wherever it appears, and its JSON-escaped and URL-encoded forms', () => {
    registerSecret('pa"ss\\word/42');
    const escaped = JSON.stringify('pa"ss\\word/42').slice(1, -1);
    const twice = JSON.stringify(escaped).slice(1, -1);
    expect(maskSecrets('x pa"ss\\word/42 y')).toBe(`x ${MASK} y`);
    expect(maskSecrets(`{"m":"${escaped}"}`)).toBe(`{"m":"${MASK}"}`);
    expect(maskSecrets(`{"msg":"{\\"m\\":\\"${twice}\\"}"}`)).not.toContain('word');
    expect(maskSecrets(`q=${encodeURIComponent('pa"ss\\word/42')}`)).toBe(`q=${MASK}`);
  });

  it('leaves values shorter than 8 characters alone: masking "admin" would garble addresses and point at it', () => {
    registerSecret('admin');
    expect(maskSecrets('tenant/acme/admin/it@acme.example')).toBe('tenant/acme/admin/it@acme.example');
  });

  it('masks the longest of two overlapping secrets whole', () => {
    registerSecret('abcdefgh');
    registerSecret('abcdefgh-ijklmnop');
    expect(maskSecrets('token abcdefgh-ijklmnop end')).toBe(`token ${MASK} end`);
  });

  it('a masked stream masks strings and buffers written to it', () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write: (chunk: Buffer, _enc, done) => (chunks.push(chunk.toString()), done()),
    }) as unknown as NodeJS.WriteStream;
    maskStream(sink);
    sink.write('before registration: s3cr3t-value\n');
    registerSecret('s3cr3t-value');
    sink.write('as a string: s3cr3t-value\n');
    sink.write(Buffer.from('as a buffer: s3cr3t-value\n'));
    expect(chunks.join('')).toBe(`before registration: s3cr3t-value\nas a string: ${MASK}\nas a buffer: ${MASK}\n`);
  });

  it("masks a manifest's values everywhere but in switchboard's own records, where credentials alone are masked", () => {
    const commit = '4f2c9e1d0b7a6c5e4f3a2b1c0d9e8f7a6b5c4d3e';
    registerSecret(commit, 'manifest');
    registerSecret('platform-password-1');
    expect(maskSecrets(`commit ${commit}`)).toBe(`commit ${MASK}`);
    expect(maskCredentials(`commit ${commit} password platform-password-1`)).toBe(`commit ${commit} password ${MASK}`);
    // A value registered both ways is a credential: masked in the records too.
    registerSecret('shared-value-42', 'manifest');
    registerSecret('shared-value-42');
    expect(maskCredentials('x shared-value-42')).toBe(`x ${MASK}`);
  });

  it("the journal's run lines and the plan file's provenance keep what a manifest names, never a credential", async () => {
    const commit = '4f2c9e1d0b7a6c5e4f3a2b1c0d9e8f7a6b5c4d3e';
    registerSecret(commit, 'manifest');
    registerSecret('ghs_credential-0001');
    const file = join(await mkdtemp(join(tmpdir(), 'sb-secrets-')), 'j.jsonl');
    const journal = await Journal.open(file);
    journal.append({
      type: 'run',
      event: 'start',
      runId: 'r1',
      plan: { source: 'planned in this run', digest: null },
      manifests: { digest: 'sha256:m', files: 1 },
      tool: { name: 'switchboard', version: '0.1.0' },
      git: { commit, dirty: false },
      ci: { system: 'github-actions', vars: { GITHUB_SHA: commit, GITHUB_REF: 'ghs_credential-0001' } },
    });
    const message = `the platform said ${commit}`;
    journal.append({ type: 'outcome', seq: 1, address: 'tenant/a', ok: false, message, ms: 1 });
    await journal.close();
    const [start, outcome] = (await readFile(file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(start).toMatchObject({ git: { commit }, ci: { vars: { GITHUB_SHA: commit, GITHUB_REF: MASK } } });
    expect(outcome.message).toBe(`the platform said ${MASK}`);

    const plan = samplePlan();
    plan.provenance = {
      git: { commit, dirty: false, authenticated: false },
      ci: { system: 'github-actions', actor: 'ghs_credential-0001', authenticated: false },
    };
    plan.warnings = [{ code: 'SB_X', message: `quoted ${commit}` }];
    const document = planDocument(plan);
    expect(document.provenance).toMatchObject({ git: { commit }, ci: { actor: MASK } });
    expect(document.warnings[0]?.message).toBe(`quoted ${MASK}`);
  });
});
