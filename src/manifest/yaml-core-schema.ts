import jsYaml from 'js-yaml';

/**
 * The YAML 1.2 core schema exactly as the `yaml` package resolves plain scalars (its
 * `schema/core` tags, same patterns, same order), for js-yaml's fast path.
 *
 * Why: editors validate manifests through yaml-language-server, which reads them with the
 * `yaml` package (YAML 1.2, core schema); the CLI's slow path and its positions use the
 * same package. js-yaml's own CORE_SCHEMA reads more as numbers (`1_000`, `0b101`,
 * `+0x1F`, `0xff_ff`), fewer (`+.5`) and `-0` as 0, so a file could pass the CLI and fail in
 * the editor, or the reverse. With these four types the fast path means what the editor
 * and the slow path mean (test/manifest/yaml-core-schema.test.ts compares the two paths,
 * test/editor/yaml-parity.test.ts the CLI and yaml-language-server).
 */
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
/** intOct, int and intHex of the yaml package, in one pattern. */
const INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_PLAIN = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** floatNaN, floatExp and float of the yaml package, in one pattern. */
const FLOAT = new RegExp(`${FLOAT_NAN.source}|${FLOAT_EXP.source}|${FLOAT_PLAIN.source}`);

/**
 * js-yaml tries every implicit type on every plain scalar, keys included: a look at the
 * first character spares the patterns for the names and words that make up most of a
 * manifest (20,000 tenants load no slower than with js-yaml's own core schema).
 */
function mayBeNumber(data: string): boolean {
  const c = data.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 /* + */ || c === 45 /* - */ || c === 46; /* . */
}

const nullType = new jsYaml.Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || (data.length <= 4 && NULL.test(data)),
  construct: () => null,
});

const boolType = new jsYaml.Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (data.length === 4 || data.length === 5) && BOOL.test(data),
  construct: (data: string) => data[0] === 't' || data[0] === 'T',
});

const intType = new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && mayBeNumber(data) && INT.test(data),
  // parseInt as the yaml package does: `-0` stays -0, beyond 2^53 precision is lost alike.
  construct: (data: string) => {
    if (INT_OCT.test(data)) return parseInt(data.slice(2), 8);
    if (INT_HEX.test(data)) return parseInt(data.slice(2), 16);
    return parseInt(data, 10);
  },
});

const floatType = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && mayBeNumber(data) && FLOAT.test(data),
  construct: (data: string) => {
    if (!FLOAT_NAN.test(data)) return parseFloat(data);
    if (data.slice(-3).toLowerCase() === 'nan') return NaN;
    return data.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  },
});

/** js-yaml's failsafe schema (strings, sequences, mappings) plus the core scalars above. */
export const YAML_CORE_SCHEMA = jsYaml.FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType] });
