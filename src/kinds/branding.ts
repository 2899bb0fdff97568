import { fieldsFromApi, pathId } from './fields.js';
import type { FieldSpec, KindContext, KindDefinition, LiveObject } from './types.js';

/** Doc 1 §2.10: the styling properties of each branding type (font, image, theme). */
const fields: readonly FieldSpec[] = [
  { name: 'type', change: 'replace', type: 'string' },
  { name: 'allowed', change: 'update', type: 'set', elements: 'string' },
  { name: 'name', change: 'update', type: 'string' },
  { name: 'favicon', change: 'update', type: 'string' },
  { name: 'login', change: 'update', type: 'object', entries: { bg: 'string?', logo: 'string?' } },
  { name: 'main', change: 'update', type: 'object', entries: { bg: 'string?', logo: 'string?' } },
  { name: 'selected', change: 'update', type: 'string' },
  { name: 'themes', change: 'update', type: 'object', entries: 'string' },
];

const TYPES = ['font', 'image', 'theme'] as const;
const pagesPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${ctx.P}/groups/${pathId(ids, 'Group')}/configurations/pages`;

function put(values: Record<string, unknown>, live: { ids: Readonly<Record<string, string>> }, ctx: KindContext) {
  return [
    {
      method: 'PUT' as const,
      path: pagesPath(ctx, live.ids),
      role: 'groups.instance.configurations.branding.pages.update',
      body: { ...values },
    },
  ];
}

/**
 * A group's branding, one object per type. The read path is not shown in Doc 1 §4.2:
 * switchboard reads `GET G/configurations/pages?type=<type>` (the simulator serves it),
 * a design decision recorded in the README. A PUT writes one type; it exists once written.
 */
export const brandingKind: KindDefinition = {
  kind: 'Branding',
  parentKinds: ['Group'],
  collection: 'branding',
  manifest: { noun: 'branding', identity: ['type'], shape: 'map' },
  fields,
  identity: (f) => String(f['type']),
  address: (parent, identity) => `${parent}/branding/${identity}`,
  list: (parent, ctx) =>
    parent &&
    TYPES.map((type) => ({
      path: pagesPath(ctx, parent.ids),
      itemsKey: '',
      style: 'object' as const,
      role: 'groups.instance.configurations.branding.pages.read',
      query: { type },
      notFoundIsEmpty: true,
      inject: { type },
    })),
  fromApi: (item) => ({ id: String(item['type']), fields: fieldsFromApi(fields, item) }),
  createdId: { from: 'lookup' },
  create: (desired, parent, ctx) => put(desired.fields, { ids: parent?.ids ?? {} }, ctx),
  update: (desired, live: LiveObject, ctx) => put({ ...desired.fields, type: live.id }, live, ctx),
  cannotDelete: 'branding cannot be deleted through the API (Doc 1 §4.2 has no such endpoint)',
};
