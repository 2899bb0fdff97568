/**
 * Variant mode (`switchboard sim --variants SEED`, seed `variants: SEED`, the `variants`
 * option of `startSimulator`/`createPlatformCore`): every loosely typed field the documents
 * allow in more than one form is served in one of its documented forms, drawn per answer
 * from a seeded random source, so a client that only copes with one form fails against
 * the simulator before it fails against a platform. Without variants every field keeps its
 * first form below (the simulator's long-standing answers).
 *
 * One draw per field per answer: every markup of one tenant list is a string, or every one
 * a number. The same seed and the same sequence of requests give the same answers.
 */
import { seededRandom } from '../../core/random.js';

/** The loosely typed fields, their documented forms (the first is the default), and where the documents say so. */
export const LOOSE_FIELDS = {
  /** Reseller and tenant list rows (Document 1 §2.4, §2.5: float; §2.6: "sometimes a string"). */
  markup: { forms: ['string', 'number'], source: 'Document 1 §2.4–§2.6' },
  /** `markups[].markup` of a reseller or tenant detail (Document 1 §2.6). */
  markupEntry: { forms: ['number', 'string'], source: 'Document 1 §2.6' },
  /** Group detail count of distributors: the sample's spelling or the field table's (Document 1 §2.3). */
  nbOfDistributors: { forms: ['nbOfDistributors', 'nbOfDisributors'], source: 'Document 1 §2.3' },
  /** Profile names: both spellings (the sample), or one of them (Document 1 §2.2: "both spellings occur"). */
  firstname: { forms: ['both', 'firstname', 'first_name'], source: 'Document 1 §2.2' },
  lastname: { forms: ['both', 'lastname', 'last_name'], source: 'Document 1 §2.2' },
  mobilenumber: { forms: ['both', 'mobilenumber', 'mobile_number'], source: 'Document 1 §2.2' },
  /** The mobile number: a string with a leading plus (sample) or an integer (field table), Document 1 §2.2. */
  mobilenumberType: { forms: ['string', 'integer'], source: 'Document 1 §2.2' },
  /** `registered_on`: a timestamp (sample) or an integer (field table), Document 1 §2.2. */
  registeredOn: { forms: ['timestamp', 'integer'], source: 'Document 1 §2.2' },
  /** `profile.id`: string or integer (Document 1 §2.2). */
  profileId: { forms: ['integer', 'string'], source: 'Document 1 §2.2' },
  /** `page` of list answers: an integer (Document 1 §1.8). */
  page: { forms: ['integer', 'string'], source: 'Document 1 §1.8, Document 2 §4.4' },
  /** `page` of `GET T/numbers`: "typed string" there (Document 2 §4.4). */
  numbersPage: { forms: ['string', 'integer'], source: 'Document 2 §4.4' },
  /** Template `id`: string or integer (Document 2 §2.10). */
  templateId: { forms: ['integer', 'string'], source: 'Document 2 §2.10' },
  /** Inventory number `id`: E.164 string (field table) or integer (sample), Document 2 §2.6. */
  inventoryId: { forms: ['string', 'integer'], source: 'Document 2 §2.6' },
  /** Inventory number state time: `stateUpdatedOn` or the field table's `statusUpdatedOn` (Document 2 §2.6). */
  stateUpdatedOn: { forms: ['stateUpdatedOn', 'statusUpdatedOn'], source: 'Document 2 §2.6' },
  /** Prefix `isExact`: boolean, "typed string in the field table" (Document 2 §2.11). */
  isExact: { forms: ['boolean', 'string'], source: 'Document 2 §2.11' },
} as const satisfies Record<string, { forms: readonly [string, ...string[]]; source: string }>;

export type LooseField = keyof typeof LOOSE_FIELDS;
export type FormOf<F extends LooseField> = (typeof LOOSE_FIELDS)[F]['forms'][number];

/** The forms of one answer. */
export interface AnswerForms {
  form<F extends LooseField>(field: F): FormOf<F>;
}

/** Every field in its default (first) form. */
export const DEFAULT_FORMS: AnswerForms = {
  form: (field) => LOOSE_FIELDS[field].forms[0],
};

/** A seeded source of answer forms; `undefined` seed: variants off. */
export class VariantSource {
  private next: () => number;

  constructor(readonly seed: string | number | undefined) {
    this.next = seededRandom(hashSeed(String(seed ?? '')));
  }

  get enabled(): boolean {
    return this.seed !== undefined;
  }

  /** The forms of the next answer: each field drawn once, when the answer first writes it. */
  forAnswer(): AnswerForms {
    if (!this.enabled) return DEFAULT_FORMS;
    const drawn = new Map<LooseField, string>();
    return {
      form: <F extends LooseField>(field: F): FormOf<F> => {
        let form = drawn.get(field);
        if (form === undefined) {
          const forms = LOOSE_FIELDS[field].forms as readonly string[];
          form = forms[Math.floor(this.next() * forms.length)] as string;
          drawn.set(field, form);
        }
        return form as FormOf<F>;
      },
    };
  }
}

/** A number in the form drawn for `field` (`string` form: its decimal text). */
export function numberIn(forms: AnswerForms, field: 'markup' | 'markupEntry', value: number): number | string {
  return forms.form(field) === 'string' ? String(value) : value;
}

/** FNV-1a: a 32-bit seed from any text. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
