/** Types of generate.mjs (plain JavaScript, shared with the benchmark). */
export function generateEstate(dir: string, tenants: number, perFile?: number): Promise<void>;
