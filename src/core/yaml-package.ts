import { requiredOnFirstUse } from './on-first-use.js';

/**
 * The yaml package, loaded when first used. Manifests are read with js-yaml and object
 * positions come from it too; the yaml package is what reports a YAML mistake exactly,
 * places a field, reads a configuration file or edits the demo's copy, which most runs
 * never do. Importing it costs 26 ms of CPU at every start.
 */
export const yamlPackage = requiredOnFirstUse<typeof import('yaml')>('yaml');
