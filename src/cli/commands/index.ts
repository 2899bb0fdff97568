import type { CommandRegistrar } from '../program.js';

/** Every CLI verb, one module each, registered explicitly. */
export const commands: CommandRegistrar[] = [];
