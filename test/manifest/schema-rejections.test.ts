/**
 * What the generated schemas refuse, and where: one manifest per document kind with a
 * mistake against each kind of constraint the kind table gives (a name's pattern, an enum,
 * a format, a minimum, a required field, alternative identities, a refused read-only key, a
 * key of a map of fixed keys, an E.164 key), each reported once at its file:line:col with
 * the message `validate` prints. The schemas come from src/kinds/ (npm run schemas:generate):
 * a field's constraint lost on the way fails here.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';

const MANIFESTS: Record<string, string> = {
  'group.yaml': `apiVersion: switchboard/v1
kind: Group
metadata: { name: "g ", uuid: "" }
spec:
  name: g
  nbOfTenants: 3
  draasDomain: ""
  admins:
    - { email: not-an-email, id: 4, force_reset: true }
  callingPlans:
    - name: premium
      countryCode: "+32"
      isoCode: be
      risk: high
      prefixes:
        - { prefix: "0900x", id: 1 }
  products:
    - sku: P1
      name: One
      status: active
      items:
        - { type: license, subType: ucBetaUsers, quantity: -1 }
        - { type: entitlement }
  branding:
    font: { favicon: /f.ico }
    colour: {}
  enabledUcs:
    - { uc: uc_delta }
`,
  'reseller.yaml': `apiVersion: switchboard/v1
kind: Reseller
metadata: { name: r, distributor: demo-distribution, renamedFrom: [] }
spec:
  status: suspended
  suspensionProfile: ""
`,
  'tenant.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: t, group: g, reseller: r }
spec:
  billingId: T-1
  markup: "5"
  owner: r
  suspensionProfile: full-barring
  subscriptions:
    - name: main
      uc: uc_alpha
      licenses: { ucAlphaUsers: 1 }
      entitlements:
        - { type: BE geo, typeId: 1 }
        - { entitlement: 2, assigned: 1 }
      addresses:
        - { street: Rue Haute, number: "10!", city: Brussels, postalCode: -1, country: Belgium, format: google }
      locations:
        - { street: Rue Haute, number: "", postalCode: "1000", postalCodeId: 0 }
      templates:
        - { sku: T1, name: Basic, description: d, location: Belgium, vrp: v, voiceEnabled: true }
      trunkGroups:
        - { id: -7, blockList: [{ name: b, classification: x }] }
      numbers:
        "3221234560": { address: x }
        "+3221234561": {}
        "+3221234562": { address: null }
`,
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-rejections-'));
  for (const [name, text] of Object.entries(MANIFESTS)) await writeFile(join(dir, name), text);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('the generated schemas refuse', () => {
  it('each mistake once, at its file:line:col, with the message validate prints', async () => {
    const { output, exitCode } = await runValidate(['.'], { format: 'text', cwd: dir, env: {} });
    expect(exitCode).toBe(1);
    expect(output.trimEnd().split('\n')).toEqual([
      'group.yaml:3:19: error SB_VALUE: "name" has an invalid value "g " (no leading or trailing spaces)',
      'group.yaml:3:31: error SB_VALUE: "uuid" must NOT have fewer than 1 characters',
      'group.yaml:3:31: error SB_VALUE: "uuid" has an invalid value "" (must match ^\\S+$)',
      'group.yaml:5:3: error SB_IGNORED_FIELD: "name" cannot be set here: the group\'s name is `metadata.name`',
      'group.yaml:6:3: error SB_IGNORED_FIELD: "nbOfTenants" cannot be set here: `nbOfTenants` is computed by the platform',
      'group.yaml:7:16: error SB_VALUE: "draasDomain" must NOT have fewer than 1 characters',
      'group.yaml:9:16: error SB_VALUE: "email" must match format "email"',
      'group.yaml:9:30: error SB_IGNORED_FIELD: "id" cannot be set here: `id` is assigned by the platform; an administrator is identified by its `email`',
      'group.yaml:9:37: error SB_IGNORED_FIELD: "force_reset" cannot be set here: `force_reset` is a one-off action of the update call, not a state a manifest can declare',
      'group.yaml:12:20: error SB_VALUE: "countryCode" has an invalid value "+32" (must match ^[0-9]{1,4}$)',
      'group.yaml:13:16: error SB_VALUE: "isoCode" has an invalid value "be" (a two-letter ISO 3166 code in capitals, e.g. BE)',
      'group.yaml:14:7: error SB_IGNORED_FIELD: "risk" cannot be set here: `risk` is not accepted by the calling-plan create or update calls (Doc 2 §4.9); it would be ignored',
      'group.yaml:16:21: error SB_VALUE: "prefix" has an invalid value "0900x" (must match ^\\+?[0-9]{1,15}$)',
      'group.yaml:16:30: error SB_IGNORED_FIELD: "id" cannot be set here: `id` is assigned by the platform; a prefix is identified by `prefix`',
      'group.yaml:20:15: error SB_VALUE: "status" must be one of enabled, disabled, not "active"',
      'group.yaml:22:37: error SB_VALUE: "subType" must be one of ucAlphaUsers, sipTrunkChannels, not "ucBetaUsers"',
      'group.yaml:22:60: error SB_VALUE: "quantity" must be >= 0',
      'group.yaml:23:11: error SB_REQUIRED: missing required field "quantity" in "items[1]"',
      'group.yaml:25:13: error SB_UNKNOWN_FIELD: unknown field "favicon"',
      'group.yaml:26:5: error SB_UNKNOWN_FIELD: unknown field "colour"',
      'group.yaml:28:13: error SB_VALUE: "uc" must be one of uc_alpha, uc_beta, uc_gamma, not "uc_delta" (did you mean "uc_beta"?)',
      'reseller.yaml:3:35: error SB_TYPE: "distributor" must be a mapping, not a string ("demo-distribution")',
      'reseller.yaml:3:67: error SB_VALUE: "renamedFrom" must NOT have fewer than 1 items',
      'reseller.yaml:5:3: error SB_IGNORED_FIELD: "status" cannot be set here: `status` is read-only; declare `suspensionProfile` to suspend',
      'reseller.yaml:6:22: error SB_VALUE: "suspensionProfile" must NOT have fewer than 1 characters',
      'tenant.yaml:3:11: error SB_ONE_OF: give only one of group, distributor, reseller',
      'tenant.yaml:6:11: error SB_TYPE: "markup" must be a number, not a string ("5")',
      'tenant.yaml:7:3: error SB_IGNORED_FIELD: "owner" cannot be set here: the owner is the parent given in metadata (`group:`, `distributor:` or `reseller:`)',
      'tenant.yaml:8:3: error SB_IGNORED_FIELD: "suspensionProfile" cannot be set here: a tenant cannot be suspended through the API; set `suspensionProfile` on its subscriptions or its reseller',
      'tenant.yaml:10:7: error SB_REQUIRED: missing required field "billingId" in "subscriptions[0]"',
      'tenant.yaml:12:7: error SB_IGNORED_FIELD: "licenses" cannot be set here: `licenses` cannot be set through the subscription API (Doc 2 §4.1); they are changed by orders',
      'tenant.yaml:14:11: error SB_ONE_OF: give only one of type, typeId',
      'tenant.yaml:15:11: error SB_ONE_OF: needs one of type, typeId',
      'tenant.yaml:15:29: error SB_IGNORED_FIELD: "assigned" cannot be set here: `assigned` is counted by the platform',
      'tenant.yaml:17:40: error SB_VALUE: "number" has an invalid value "10!" (must match ^[0-9A-Za-z /-]+$)',
      'tenant.yaml:17:75: error SB_VALUE: "postalCode" must be >= 0',
      'tenant.yaml:17:97: error SB_IGNORED_FIELD: "format" cannot be set here: `format` is not managed: the platform sets the address format (its single allowed value, Doc 2 §2.7)',
      'tenant.yaml:19:40: error SB_VALUE: "number" must NOT have fewer than 1 characters',
      'tenant.yaml:19:78: error SB_VALUE: "postalCodeId" must be >= 1',
      'tenant.yaml:21:61: error SB_VALUE: "location" has an invalid value "Belgium" (a two-letter ISO 3166 code in capitals, e.g. BE)',
      'tenant.yaml:21:78: error SB_IGNORED_FIELD: "voiceEnabled" cannot be set here: `voiceEnabled` is not accepted by the template create or update calls (Doc 2 §4.8); it would be ignored',
      'tenant.yaml:23:17: error SB_VALUE: "id" must be >= 0',
      'tenant.yaml:23:44: error SB_IGNORED_FIELD: "classification" cannot be set here: `classification` is not accepted by the calling-plan create or update calls (Doc 2 §4.9); it would be ignored',
      'tenant.yaml:25:9: error SB_VALUE: "3221234560" is not an E.164 number: YAML read it as a number; write it quoted with its +, "+3221234560"',
      'tenant.yaml:26:24: error SB_REQUIRED: missing required field "address" in "+3221234561"',
      'tenant.yaml:27:35: error SB_TYPE: "address" cannot be null: the platform cannot detach an address from a number (Document 2 §4.5). Give it another address of the subscription, or leave the number out: an undeclared number keeps its address',
      'FAILED: 3 files, 0 objects: 46 errors, 0 warnings.',
    ]);
  });
});
