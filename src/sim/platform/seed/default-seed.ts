/**
 * The default data set (no `--seed`), as fixed by the team's notes: instance `demo`,
 * group `demo-group`, resellers `north`/`south`, tenants `acme-corp`/`globex`/`initech`,
 * the users of docs/simulator.md "Default data set" (password = username) and the reference data.
 * Other parts (examples/, end-to-end tests) rely on these names and values.
 */
import type { Seed, SeedUser } from './types.js';

const DOMAIN = 'demo.example.net';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';
export const DEMO_M2M_TOKEN = 'm2m-static-token-0001';

function user(username: string, extra: Partial<SeedUser> & Pick<SeedUser, 'adminOf'>): SeedUser {
  return {
    username,
    password: username,
    email: `${username}@${DOMAIN}`,
    firstName: username,
    lastName: 'Demo',
    mobile: '+32470000000',
    ...extra,
  };
}

function suspensionProfiles(): NonNullable<Seed['suspensionProfiles']> {
  const named = [
    ['full-barring', 'BP-FULL', 'All calls barred'],
    ['outgoing-barring', 'BP-OUT', 'Outgoing calls barred'],
    ['international-barring', 'BP-INTL', 'International calls barred'],
    ['premium-barring', 'BP-PREMIUM', 'Premium-rate calls barred'],
  ] as const;
  return Array.from({ length: 30 }, (_, i) => {
    const id = i + 1;
    const known = named[i];
    return known
      ? { id, name: known[0], barringProfileId: known[1], description: known[2] }
      : { id, name: `profile-${id}`, barringProfileId: `BP-${id}` };
  });
}

export function defaultSeed(): Seed {
  const system = { level: 'system' as const };
  return {
    instance: 'demo',
    countries: [
      { isoCode: 'BE', name: 'Belgium' },
      { isoCode: 'NL', name: 'Netherlands' },
      { isoCode: 'FR', name: 'France' },
      { isoCode: 'DE', name: 'Germany' },
      { isoCode: 'LU', name: 'Luxembourg' },
    ],
    countryCodes: [
      { id: 1, code: '32', name: 'Belgium' },
      { id: 2, code: '31', name: 'Netherlands' },
      { id: 3, code: '33', name: 'France' },
      { id: 4, code: '49', name: 'Germany' },
      { id: 5, code: '352', name: 'Luxembourg' },
    ],
    suspensionProfiles: suspensionProfiles(),
    entitlementTypes: [
      { id: 1, name: 'BE geo', countryCode: '32', isoCode: 'BE', numberType: 'geo' },
      { id: 2, name: 'BE tollfree', countryCode: '32', isoCode: 'BE', numberType: 'tollfree' },
      { id: 3, name: 'NL geo', countryCode: '31', isoCode: 'NL', numberType: 'geo' },
      { id: 4, name: 'FR geo', countryCode: '33', isoCode: 'FR', numberType: 'geo' },
      { id: 5, name: 'DE geo', countryCode: '49', isoCode: 'DE', numberType: 'geo' },
      { id: 6, name: 'BE mobile', countryCode: '32', isoCode: 'BE', numberType: 'mobile' },
    ],
    postalCodes: [
      { code: '1000', city: 'Brussels', isoCode: 'BE', region: 'Brussels-Capital' },
      { code: '1050', city: 'Ixelles', isoCode: 'BE', region: 'Brussels-Capital' },
      { code: '2000', city: 'Antwerpen', isoCode: 'BE', region: 'Flanders' },
      { code: '9000', city: 'Gent', isoCode: 'BE', region: 'Flanders' },
      { code: '4000', city: 'Liège', isoCode: 'BE', region: 'Wallonia' },
      { code: '1011', city: 'Amsterdam', isoCode: 'NL', region: 'Noord-Holland' },
      { code: '75001', city: 'Paris', isoCode: 'FR', region: 'Île-de-France' },
    ],
    numberInventory: [
      { number: '+3221239000', count: 100, isoCode: 'BE', numberType: 'geo', region: 'Brussels-Capital' },
      { number: '+31201234500', count: 5, isoCode: 'NL', numberType: 'geo', region: 'Noord-Holland' },
    ],
    groups: [
      {
        name: 'demo-group',
        draasDomain: DOMAIN,
        enabledUcs: ['uc_alpha', 'uc_beta'],
        regions: [
          { isoCode: 'BE', name: 'Brussels-Capital' },
          { isoCode: 'BE', name: 'Flanders' },
          { isoCode: 'BE', name: 'Wallonia' },
        ],
        // Fixed uuid: manifests address a distributor by uuid only (examples/resellers.yaml).
        distributors: [
          {
            name: 'demo-distribution',
            uuid: '5d1a7b10-0000-4000-8000-000000000001',
            regions: [{ isoCode: 'BE', name: 'Flanders' }],
          },
        ],
        configuration: {
          draas_external_number_inventory_management_system: 'default',
          twofa_mail_template: 'mails.2fa',
          twofa_totp_issuer: 'switchboard-demo',
          smtp_password: 'demo-smtp-secret',
          api_token: 'demo-api-token',
          ui_language: 'en',
        },
        branding: {
          font: { allowed: ['Inter', 'Roboto'], name: 'Inter' },
          image: {
            favicon: '/img/favicon.ico',
            login: { bg: '/img/login-bg.png', logo: '/img/logo.png' },
            main: { bg: '/img/main-bg.png', logo: '/img/logo.png' },
          },
          theme: {
            allowed: ['light', 'dark'],
            selected: 'light',
            themes: { light: '/themes/light.css', dark: '/themes/dark.css' },
          },
        },
        catalogItems: [
          {
            name: 'ucAlphaUsers',
            description: 'uc_alpha user license',
            type: 'product_license',
            subType: 'ucAlphaUsers',
          },
          {
            name: 'sipTrunkChannels',
            description: 'SIP trunk channel license',
            type: 'product_license',
            subType: 'sipTrunkChannels',
          },
          ...['BE geo', 'BE tollfree', 'NL geo', 'FR geo', 'DE geo', 'BE mobile'].map((name) => ({
            name,
            description: `${name} numbers`,
            type: 'entitlement' as const,
          })),
        ],
        products: [
          {
            sku: 'PRD-BASIC',
            name: 'Basic voice',
            description: 'One uc_alpha user with a Belgian geographic number',
            items: [
              { type: 'license', subType: 'ucAlphaUsers', quantity: 1 },
              { type: 'entitlement', entitlementType: 1, quantity: 1 },
            ],
          },
        ],
      },
    ],
    resellers: [
      {
        name: 'north',
        billingId: 'R-NORTH',
        markup: 3,
        owner: { group: 'demo-group' },
        regions: [{ isoCode: 'BE', name: 'Flanders' }],
      },
      {
        name: 'south',
        billingId: 'R-SOUTH',
        owner: { distributor: 'demo-distribution' },
        regions: [{ isoCode: 'BE', name: 'Wallonia' }],
      },
    ],
    tenants: [
      {
        name: 'acme-corp',
        billingId: 'T-ACME',
        markup: 4,
        owner: { reseller: 'north' },
        regions: [{ isoCode: 'BE', name: 'Brussels-Capital' }],
        subscriptions: [
          {
            name: 'main',
            billingId: 'T-ACME-MAIN',
            uc: 'uc_alpha',
            licenses: { ucAlphaUsers: 50, sipTrunkChannels: 10 },
            trunkGroups: [7, 8],
            entitlements: [{ type: 'BE geo', entitlement: 10, assigned: 2 }],
            numbers: [
              {
                number: '+3221234560',
                entitlementType: 'BE geo',
                assignedTo: { type: 'uc_alpha', subType: 'user', to: 1, ref: 'alice@acme.example' },
              },
              {
                number: '+3221234561',
                entitlementType: 'BE geo',
                assignedTo: { type: 'uc_alpha', subType: 'user', to: 2, ref: 'bob@acme.example' },
              },
              { number: '+3221234562', count: 8, entitlementType: 'BE geo' },
            ],
          },
        ],
      },
      {
        name: 'globex',
        billingId: 'T-GLOBEX',
        owner: { reseller: 'south' },
        subscriptions: [{ name: 'voice', billingId: 'T-GLOBEX-VOICE', uc: 'uc_beta', trunkGroups: [1] }],
      },
      { name: 'initech', billingId: 'T-INITECH', owner: { group: 'demo-group' } },
    ],
    users: [
      user('admin', { adminOf: system, profileName: 'system-admin' }),
      user('groupadmin', { adminOf: { level: 'group', name: 'demo-group' }, profileName: 'group-admin' }),
      user('reselleradmin', { adminOf: { level: 'reseller', name: 'north' }, profileName: 'reseller-admin' }),
      user('tenantadmin', {
        adminOf: { level: 'tenant', name: 'acme-corp' },
        rules: 'tenant',
        profileName: 'tenant-admin',
      }),
      user('reader', { adminOf: system, rules: 'read', profileName: 'system-reader' }),
      user('totpuser', { adminOf: system, twoFactor: 'totp', alwaysTwoFactor: true, totpSecret: DEMO_TOTP_SECRET }),
      user('mailuser', { adminOf: system, twoFactor: 'email' }),
      { ...user('nomail', { adminOf: system, twoFactor: 'totp', totpSecret: DEMO_TOTP_SECRET }), email: undefined },
      user('m2m', { adminOf: system, m2mToken: DEMO_M2M_TOKEN, profileName: 'machine' }),
    ],
  };
}
