/**
 * A manifest value that holds one of switchboard's own credentials is refused before anything
 * is planned (docs/manifests.md "Secrets: `${VAR}`"): apply would write it into the platform
 * as a field's value. The loader refuses the `SWITCHBOARD_*` credential variables by name; this
 * finds the rest by value once the connection's credentials are known (a variable the
 * configuration file names for a password, read by a manifest too). Only the fields from
 * `${VAR}` are looked at: a value written in the manifest itself is in the repository already.
 */
import { DiagnosticsError, type Diagnostic } from '../core/errors.js';
import { holdsCredential } from '../core/secrets.js';
import type { DesiredObject, DesiredSet } from '../manifest/index.js';

/** Throws the findings (one per field) when a sensitive field of the set holds a credential. */
export function refuseManifestCredentials(set: DesiredSet): void {
  const found: Diagnostic[] = [];
  const check = (object: DesiredObject, field: string, value: unknown) => {
    if (typeof value !== 'string' || !holdsCredential(value)) return;
    const source = set.sourceOf(object, field);
    found.push({
      severity: 'error',
      code: 'SB_ENV_CREDENTIAL',
      message:
        `"${field}" of ${object.address} is read from the environment and holds a credential ` +
        'switchboard connects with: a manifest may not send it to the platform; ' +
        'give the value the platform needs a variable of its own',
      ...(source ? { source } : { address: object.address }),
    });
  };
  for (const object of set.objects)
    for (const field of object.sensitiveFields) check(object, field, object.fields[field]);
  // Only inline records have cells from `${VAR}` (a CSV file is read as written): few rows.
  for (const table of set.routingTables) {
    for (const [index, fields] of table.sensitiveCells) {
      const row = set.row(table, index);
      for (const field of fields) check(row, field, row.fields[field]);
    }
  }
  if (found.length > 0) throw new DiagnosticsError(found);
}
