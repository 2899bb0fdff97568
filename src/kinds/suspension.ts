import { SwitchboardError } from '../core/errors.js';
import type { KindContext, ReferenceList } from './types.js';

/** Doc 1 §4.5: the platform's suspension profiles, by name, integer id and barring-profile id. */
const SUSPENSION_PROFILES: ReferenceList<{ id: number; name: string; barringProfileId: string }> = {
  name: 'suspension profiles',
  source: (P) => ({
    path: `${P}/public/suspension_profiles`,
    itemsKey: 'suspensionProfiles',
    style: 'page',
    pageSizeParam: 'size',
  }),
  shape: { id: 'integer', name: 'string', barringProfileId: 'string' },
  value: (item) => ({
    id: Number(item['id']),
    name: String(item['name']),
    barringProfileId: String(item['barringProfileId']),
  }),
};

/**
 * Manifests name suspension profiles; the API writes them as an integer id and reads them
 * back as the profile's barring-profile id, a string (Doc 2 §2.1, spec README). Both
 * directions go through the suspension-profile list (Doc 1 §4.5).
 */
export async function suspensionProfileId(name: unknown, ctx: KindContext): Promise<number | null> {
  if (name === null || name === undefined) return null;
  const profiles = await ctx.refs.read(SUSPENSION_PROFILES);
  // By name only: a subscription reads back the profile's name, so an id given here would be
  // written, then differ from what is read at every plan.
  const found = profiles.find((p) => p.name === name);
  if (!found) {
    const names = profiles.map((p) => p.name).join(', ');
    throw new SwitchboardError(
      'SB_UNKNOWN_REFERENCE',
      `unknown suspension profile "${String(name)}": name one of the profiles (${names})`,
    );
  }
  return found.id;
}

/** The profile name for a barring-profile id as a subscription read reports it. */
export async function suspensionProfileName(barringProfileId: unknown, ctx: KindContext): Promise<string | null> {
  if (barringProfileId === null || barringProfileId === undefined || barringProfileId === '') return null;
  const profiles = await ctx.refs.read(SUSPENSION_PROFILES);
  const found = profiles.find((p) => p.barringProfileId === String(barringProfileId));
  return found ? found.name : `barring:${String(barringProfileId)}`;
}
