/**
 * Why a change is planned, as data (`Change.reasonCode`; `reason` says the same in words):
 * what policies, the HTML report and bots read instead of parsing prose.
 */
export type ReasonCode =
  /** create: declared, not found live. */
  | 'not-found-live'
  /** create: live, but its parent is replaced, so it is created again under the new one. */
  | 'parent-replaced'
  /** update: a declared value differs from the live one (or, write-only, from the last-applied digest). */
  | 'field-differs'
  /** update: found live under a former name (`renamedFrom`, a pinned uuid); other fields may differ too. */
  | 'renamed'
  /** replace: a field the API cannot change differs (the fields are `replacedBy`). */
  | 'immutable-field'
  /** delete: live, not declared, in a collection the manifests prune (`prune: true`, `--prune`). */
  | 'not-declared-prune';

/** The reason codes each action may carry. */
const CODES_OF: Readonly<Record<string, readonly ReasonCode[]>> = {
  create: ['not-found-live', 'parent-replaced'],
  update: ['field-differs', 'renamed'],
  replace: ['immutable-field'],
  delete: ['not-declared-prune'],
};

/**
 * What is wrong with a saved change's reason data (`reasonCode`, `replacedBy`), both
 * optional (plan files written before them have neither): a code the action cannot have, a
 * `replacedBy` on anything but a replace, or one that names no field.
 */
export function reasonDataProblems(change: Readonly<Record<string, unknown>>, at: string): string[] {
  const problems: string[] = [];
  const action = String(change['action']);
  const code = change['reasonCode'];
  if (code !== undefined && !(CODES_OF[action] ?? []).includes(code as ReasonCode)) {
    const allowed = (CODES_OF[action] ?? []).join(', ');
    problems.push(
      `${at}.reasonCode must be one of ${allowed || 'none'} for ${anAction(action)} (got ${JSON.stringify(code)})`,
    );
  }
  const fields = change['replacedBy'];
  if (fields === undefined) return problems;
  if (action !== 'replace') problems.push(`${at}.replacedBy is only for a replace, not ${anAction(action)}`);
  if (!Array.isArray(fields) || fields.length === 0 || fields.some((f) => typeof f !== 'string' || f === ''))
    problems.push(`${at}.replacedBy must be a list of field names`);
  return problems;
}

/** `an update`, `a create`. */
function anAction(action: string): string {
  return `${/^[aeiou]/.test(action) ? 'an' : 'a'} ${action}`;
}
