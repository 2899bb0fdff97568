import { fieldsFromApi, pathId } from './fields.js';
import type { FieldManifest, FieldSpec, KindContext, KindDefinition, LiveObject } from './types.js';

const TYPES = ['font', 'image', 'theme'] as const;

/** The images of a portal page (Doc 1 §2.10). */
const PAGE_IMAGES: FieldManifest['shape'] = {
  def: 'pageImages',
  doc: 'Images of a page.',
  fields: { bg: { doc: 'Background image path.' }, logo: { doc: 'Logo image path.' } },
};

/** Doc 1 §2.10: the styling properties of each branding type (font, image, theme). */
const fields: readonly FieldSpec[] = [
  { name: 'type', change: 'replace', type: 'string', doc: 'The branding type.', manifest: { enum: TYPES } },
  {
    name: 'allowed',
    change: 'update',
    type: 'set',
    elements: 'string',
    doc: 'The fonts (font) or themes (theme) users may choose.',
    manifest: { onlyUnder: ['font', 'theme'] },
  },
  { name: 'name', change: 'update', type: 'string', doc: 'The font in use.', manifest: { onlyUnder: ['font'] } },
  { name: 'favicon', change: 'update', type: 'string', doc: 'Favicon path.', manifest: { onlyUnder: ['image'] } },
  {
    name: 'login',
    change: 'update',
    type: 'object',
    entries: { bg: 'string?', logo: 'string?' },
    doc: 'Login page images.',
    manifest: { onlyUnder: ['image'], shape: PAGE_IMAGES },
  },
  {
    name: 'main',
    change: 'update',
    type: 'object',
    entries: { bg: 'string?', logo: 'string?' },
    doc: 'Main page images.',
    manifest: { onlyUnder: ['image'], shape: PAGE_IMAGES },
  },
  { name: 'selected', change: 'update', type: 'string', doc: 'The theme in use.', manifest: { onlyUnder: ['theme'] } },
  {
    name: 'themes',
    change: 'update',
    type: 'object',
    entries: 'string',
    doc: 'Theme name to path.',
    manifest: { onlyUnder: ['theme'] },
  },
];
/** The read the documents do not show (Doc 1 §4.2), by default on the PUT's path. */
const DEFAULT_BRANDING_READ_PATH = 'configurations/pages';
const groupPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${ctx.P}/groups/${pathId(ids, 'Group')}`;
const pagesPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${groupPath(ctx, ids)}/configurations/pages`;
const readPath = (ctx: KindContext, ids: Readonly<Record<string, string>>): string =>
  `${groupPath(ctx, ids)}/${ctx.settings?.brandingReadPath ?? DEFAULT_BRANDING_READ_PATH}`;

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
 * switchboard reads `GET G/<brandingReadPath>?type=<type>` (default `configurations/pages`,
 * the PUT's path; the simulator serves it there). A platform that answers 404 has no such
 * read: branding is then planned from the last-applied record. A PUT writes one type; it
 * exists once written.
 */
export const brandingKind: KindDefinition = {
  kind: 'Branding',
  parentKinds: ['Group'],
  collection: 'branding',
  manifest: {
    noun: 'branding',
    doc: "Branding styling of the group's portal (Doc 1 §2.10), one object per type.",
    identity: ['type'],
    shape: 'map',
  },
  contract: {
    sample: { type: 'font', allowed: ['Inter'], name: 'Inter' },
    update: { allowed: ['Inter', 'Roboto'], name: 'Roboto' },
  },
  fields,
  identity: (f) => String(f['type']),
  address: (parent, identity) => `${parent}/branding/${identity}`,
  list: (parent, ctx) =>
    parent &&
    TYPES.map((type) => ({
      path: readPath(ctx, parent.ids),
      itemsKey: '',
      style: 'object' as const,
      role: 'groups.instance.configurations.branding.pages.read',
      query: { type },
      inject: { type },
    })),
  readMayBeMissing: {
    note:
      'The API documents do not show how branding is read (Document 1 §4.2), so switchboard plans it from its last-applied record: ' +
      'a declared value is sent again when it differs from the one last applied. If the platform serves the read at another path ' +
      'below the group, set brandingReadPath in switchboard.config.yaml (or SWITCHBOARD_BRANDING_READ_PATH).',
  },
  fromApi: (item) => ({ id: String(item['type']), fields: fieldsFromApi(fields, item) }),
  // A type is its own id: nothing to look up after the PUT (whose read may be missing).
  createdId: { from: 'identity' },
  create: (desired, parent, ctx) => put(desired.fields, { ids: parent?.ids ?? {} }, ctx),
  update: (desired, live: LiveObject, ctx) => put({ ...desired.fields, type: live.id }, live, ctx),
  cannotDelete: 'branding cannot be deleted through the API (Doc 1 §4.2 has no such endpoint)',
};
