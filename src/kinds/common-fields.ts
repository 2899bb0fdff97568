import type { FieldManifest, FieldSpec } from './types.js';

/**
 * Field facts several kinds share, written once: the value of an identity name, of an ISO
 * country code, and the billing id, markup and suspension profile of the organisation kinds.
 */

/** A name that identifies an object in its parent: not empty, no leading or trailing spaces. */
export const NAME: FieldManifest = { minLength: 1, pattern: '^\\S(.*\\S)?$' };

/** A two-letter ISO 3166 country code in capitals. */
export const ISO_CODE: FieldManifest = { pattern: '^[A-Z]{2}$', examples: ['BE'] };

/** The unified-communications platforms of Document 1 §4.2. */
export const UC_PLATFORMS: readonly string[] = ['uc_alpha', 'uc_beta', 'uc_gamma'];

/** An organisation's (or subscription's) billing id (Doc 1 §2.4, §2.5; Doc 2 §2.1). */
export function billingIdField(extra: Partial<FieldManifest> = {}): FieldSpec {
  return {
    name: 'billingId',
    change: 'update',
    type: 'string',
    doc: 'External id used as billing reference in call records; unique per group; searchable.',
    manifest: { minLength: 1, ...extra },
  };
}

/** A suspension named by its profile (Doc 1 §4.5); `null` lifts it. */
export const SUSPENSION_PROFILE: Pick<FieldSpec, 'doc' | 'manifest'> = {
  doc: 'Suspension, by suspension-profile name; null = not suspended; omitted = unmanaged.',
  manifest: { nullable: true, minLength: 1, examples: ['full-barring'] },
};
