#!/usr/bin/env node
/**
 * Compiles the manifest validators ahead, into dist/manifest/validators.generated.cjs (see
 * src/manifest/schemas-ahead.ts), which src/manifest/schemas.ts uses when it was compiled from
 * the schema files it reads. Run by `npm run build` after tsc.
 * Why: compiling the validators cost 70-100 ms at every start.
 */
import { writeFileSync } from 'node:fs';

const { PRECOMPILED_VALIDATORS } = await import('../../dist/manifest/schemas.js');
const { precompiledValidatorsModule } = await import('../../dist/manifest/schemas-ahead.js');
writeFileSync(PRECOMPILED_VALIDATORS, precompiledValidatorsModule());
