/**
 * refuseManifestCredentials: a field or a routing cell from `${VAR}` that holds a registered
 * credential (whatever variable it came from) is an error at its position; values a manifest
 * chose, and credentials written nowhere in the manifests, are not.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiagnosticsError } from '../../src/core/errors.js';
import { clearSecrets, registerSecret } from '../../src/core/secrets.js';
import { loadManifests } from '../../src/manifest/index.js';
import { refuseManifestCredentials } from '../../src/run/manifest-credentials.js';

const CREDENTIAL = 'corp-Pw-7c1e-2026';

const MANIFESTS = `apiVersion: switchboard/v1
kind: Reseller
metadata: { name: r, group: g }
spec:
  admins:
    - { email: a@r.example, firstName: "\${A}" }
---
apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: active }
spec:
  key: [number]
  records:
    - { number: "+3221", route: "\${B}" }
    - { number: "+3222", route: "via \${C}" }
`;

async function load(env: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-manifest-credentials-'));
  await writeFile(join(dir, 'm.yaml'), MANIFESTS);
  const loaded = await loadManifests([dir], { cwd: dir, env });
  expect(loaded.diagnostics).toEqual([]);
  return loaded.set;
}

afterEach(() => {
  clearSecrets();
});

describe('a manifest value holding a credential', () => {
  it('is refused at each field and cell that holds it, a part of a value included', async () => {
    const set = await load({ A: CREDENTIAL, B: 'not-a-secret-1', C: CREDENTIAL });
    registerSecret(CREDENTIAL);
    let thrown: unknown;
    try {
      refuseManifestCredentials(set);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DiagnosticsError);
    const found = (thrown as DiagnosticsError).diagnostics.map((d) => [
      d.code,
      `${d.source?.line}:${d.source?.column}`,
      d.message.split(' is read')[0],
    ]);
    expect(found).toEqual([
      ['SB_ENV_CREDENTIAL', '6:29', '"firstName" of reseller/r/admin/a@r.example'],
      ['SB_ENV_CREDENTIAL', '15:26', '"route" of routing/draas/active/routes/number=+3222'],
    ]);
    expect(JSON.stringify((thrown as DiagnosticsError).diagnostics)).not.toContain(CREDENTIAL);
  });

  it('is not refused when no credential is known, or when the values are the manifest own', async () => {
    const set = await load({ A: CREDENTIAL, B: 'x', C: 'y' });
    expect(() => refuseManifestCredentials(set)).not.toThrow();
    registerSecret('another-credential-9', 'credential');
    registerSecret(CREDENTIAL, 'manifest');
    expect(() => refuseManifestCredentials(set)).not.toThrow();
  });
});
