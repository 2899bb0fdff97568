/** Plain scalars that YAML readers disagree on (test/manifest/yaml-core-schema.test.ts, test/editor/). */
export const SCALAR_CASES = [
  '1_000', '+1_0', '0xff_ff', '1_0.5',
  '+.5', '-.5', '.5', '5.', '+5.', '-0.0', '0.0',
  '0b101', '0B101', '-0b1',
  '+0x1F', '-0x1F', '0x1F', '0X1F', '0xg',
  '-0', '+0', '0', '007', '-007', '+12', '-12', '9007199254740993',
  '0o17', '0O17', '+0o17', '-0o17', '0o8', '017',
  '.inf', '-.inf', '+.inf', '.Inf', '.INF', 'inf', '.nan', '.NaN', '.NAN', '+.nan', 'nan',
  '1e3', '1E3', '1.5e3', '1.5e-3', '+1e+3', '.5e1', '1e', 'e3', '1e400',
  '~', 'null', 'Null', 'NULL', 'nULL', '',
  'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE',
  'yes', 'no', 'Yes', 'NO', 'on', 'off', 'On', 'OFF', 'y', 'n', 'Y', 'N',
  '2026-11-23', '2026-11-23T10:00:00Z', '2026-11-23 10:00:00', '10:00', '1:20', '190:20:30',
  '+32470111222', '0032470111222', '1.2.3', '1,000', '$1', '12 monkeys',
];

