/**
 * The "Resource kinds" table of docs/plans.md, rendered from the kind table (src/kinds/,
 * through dist/: `npm run schemas:generate` builds first): each kind's address, identity and
 * what its columns say the API allows or refuses.
 */

/** A placeholder for an identity: `<name>`, `<street number postalCode>`, `<type>` (of alternatives, the first). */
const placeholder = (kind) =>
  `<${kind.manifest.identityAlternatives ? kind.manifest.identity[0] : kind.manifest.identity.join(' ')}>`;

/** The address pattern: a parent whose address names no parent spelled out, others as `<parent>` or `…`. */
function address(kind, byName) {
  if (kind.manifest.document) return kind.address(undefined, placeholder(kind));
  const parents = kind.parentKinds.map((name) => byName.get(name)).filter(Boolean);
  const top = parents.every((p) => p.manifest.document);
  const parent =
    parents.length === 1 && top
      ? parents[0].address(undefined, `<${parents[0].manifest.noun}>`)
      : top
        ? '<parent>'
        : '…';
  return kind.address(parent, placeholder(kind));
}

/** What the columns say about the kind, in words. */
function notable(kind) {
  const notes = [];
  const identity = new Set(kind.manifest.identity);
  const replace = kind.fields
    .filter((f) => f.change === 'replace' && !identity.has(f.name))
    .map((f) => `\`${f.name}\``);
  const writeOnly = kind.fields.filter((f) => f.change === 'writeOnly').map((f) => `\`${f.name}\``);
  if (kind.manifest.renamable) notes.push('renamable (`renamedFrom`)');
  if (kind.fixedParent) notes.push('its owner cannot change');
  if (replace.length > 0)
    notes.push(`${replace.join(', ')} cannot change: a replace${kind.createBeforeDelete ? ', new one first' : ''}`);
  if (kind.holdsData) notes.push('holds data: a replace needs `--allow-replace`');
  if (kind.unreadable) notes.push('never readable: planned from the last-applied record');
  else if (writeOnly.length > 0) notes.push(`${writeOnly.join(', ')} write-only`);
  if (kind.assumedToExist) notes.push('cannot be listed or created: declared = assumed to exist');
  else if (!kind.create) notes.push('cannot be created: a declared one must exist');
  if (kind.cannotDelete) notes.push('never deleted');
  else if (!kind.delete && !kind.assumedToExist) notes.push('no delete');
  if (kind.createdId?.from === 'lookup') notes.push('create answers without an id: found by listing');
  if (kind.readMayBeMissing) notes.push('its read is not in the API documents: the last-applied record stands in');
  if (kind.bulk) notes.push(`bulk endpoint (${kind.bulk.when === 'always' ? 'always' : 'large sets'})`);
  if (kind.detail) notes.push('a GET per object for fields the list lacks');
  if (kind.checkUpdate || kind.checkDelete) notes.push('API constraints checked before anything is sent');
  if (kind.capacity || kind.capacityReport) notes.push('in the Capacity section');
  return notes.join('; ');
}

export function renderKinds(kinds) {
  const byName = new Map(kinds.map((k) => [k.kind, k]));
  const rows = kinds.map(
    (kind) =>
      `| ${kind.kind} | \`${address(kind, byName)}\` | ${kind.manifest.identity.join(kind.manifest.identityAlternatives ? ' or ' : ', ')} | ${notable(kind)} |`,
  );
  return ['| kind | address | identity | notable |', '|---|---|---|---|', ...rows].join('\n');
}
