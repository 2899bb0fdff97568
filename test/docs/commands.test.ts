/**
 * docs/commands.md cannot drift from the program: every command of the commander program
 * (built by `buildProgram`, not scraped from --help) has a section, and every option of
 * every command has a row in it with the same flags and the same default.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { parseMarkdown, tableCells } from './markdown.js';

const PAGE = resolve(import.meta.dirname, '../../docs/commands.md');
const GLOBAL_SECTION = 'Options of every command';

interface DocumentedOption {
  flags: string;
  defaultCell: string;
  environmentCell: string;
  line: number;
}

interface Section {
  heading: string;
  usage: string[];
  options: Map<string, DocumentedOption>;
}

/** `## switchboard <name>` and `## Options of every command` sections, with their option rows. */
function readPage(): Map<string, Section> {
  const sections = new Map<string, Section>();
  let current: Section | undefined;
  let columns: string[] = [];
  for (const item of parseMarkdown(readFileSync(PAGE, 'utf8'))) {
    if (item.type === 'heading' && item.level === 2) {
      current = { heading: item.text, usage: [], options: new Map() };
      sections.set(item.text, current);
    }
    if (!current) continue;
    if (item.type === 'fence') current.usage.push(...item.body.split('\n'));
    if (item.type !== 'prose') continue;
    const cells = tableCells(item.text);
    if (!cells) continue;
    if (cells[0] === 'option') columns = cells;
    const flags = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (!flags?.startsWith('-')) continue;
    const cell = (name: string): string => cells[columns.indexOf(name)] ?? '';
    current.options.set(flags, {
      flags,
      defaultCell: cell('default'),
      environmentCell: cell('environment'),
      line: item.line,
    });
  }
  return sections;
}

/**
 * The default column as the page writes it: `off` (or `on`) for a flag, the value in
 * backticks, `none` for an empty list, `—` for an option commander gives no default.
 */
function defaultCell(option: Option): string {
  const value: unknown = option.defaultValue;
  if (!option.required && !option.optional) return (option.negate ? value === false : Boolean(value)) ? 'on' : 'off';
  if (value === undefined) return '—';
  if (Array.isArray(value) && value.length === 0) return 'none';
  return `\`${Array.isArray(value) ? value.join(', ') : String(value)}\``;
}

/** Where commander has no default, the page may show a computed one in italics (`*0*`), unchecked. */
function defaultMatches(option: Option, cell: string): { ok: boolean; expected: string } {
  const expected = defaultCell(option);
  if (expected === '—')
    return { ok: cell === '—' || /^\*[^*]+\*$/.test(cell), expected: '— (or a computed default in italics)' };
  return { ok: cell === expected, expected };
}

/** The start of a section for an undocumented command: its synopsis and option rows. */
function sectionStart(command: Command): string {
  const rows = command.options.map(
    (o) => `| \`${o.flags}\` | ${defaultCell(o)} | ${o.envVar ? `\`${o.envVar}\`` : '—'} | ${o.description} |`,
  );
  return [
    `## switchboard ${command.name()}`,
    '',
    '```text',
    `switchboard ${command.name()} ${command.usage()}`,
    '```',
    '',
    command.description(),
    '',
    '| option | default | environment | what it does |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** Every command as the page names it: a subcommand as `parent child` (`baseline suggest`). */
function commandsOf(cli: Command): { name: string; command: Command }[] {
  return cli.commands.flatMap((c) =>
    c.commands.length > 0
      ? c.commands.map((s) => ({ name: `${c.name()} ${s.name()}`, command: s }))
      : [{ name: c.name(), command: c }],
  );
}

function program(): Command {
  return buildProgram(new Command(), () => {
    throw new Error('the documentation test builds the program; it never runs a command');
  });
}

function checkOptions(where: string, options: readonly Option[], section: Section | undefined): string[] {
  if (!section) return [`docs/commands.md has no section "## ${where}"`];
  const problems: string[] = [];
  for (const option of options) {
    const row = section.options.get(option.flags);
    if (!row) {
      problems.push(`${where}: option \`${option.flags}\` is not documented (add a row to its table)`);
      continue;
    }
    const { ok, expected } = defaultMatches(option, row.defaultCell);
    const at = `${where}: \`${option.flags}\` (line ${row.line})`;
    if (!ok) problems.push(`${at}: the page says default "${row.defaultCell}", the program says ${expected}`);
    if (option.envVar && !row.environmentCell.includes(`\`${option.envVar}\``)) {
      problems.push(`${at}: the program reads \`${option.envVar}\`; the environment column does not say so`);
    }
  }
  const known = new Set(options.map((o) => o.flags));
  for (const row of section.options.values()) {
    if (!known.has(row.flags)) {
      problems.push(
        `${where}: the page documents \`${row.flags}\` (line ${row.line}), which the program does not have`,
      );
    }
  }
  return problems;
}

describe('docs/commands.md', () => {
  const sections = readPage();
  const cli = program();

  it('has a section for every command and for no other', () => {
    const documented = [...sections.keys()]
      .filter((h) => h.startsWith('switchboard '))
      .map((h) => h.slice('switchboard '.length));
    const missing = commandsOf(cli).filter((c) => !documented.includes(c.name));
    const start = missing.map((c) => sectionStart(c.command)).join('\n');
    expect(
      missing.map((c) => c.name),
      `add to docs/commands.md (then say what each does):\n\n${start}`,
    ).toEqual([]);
    expect(documented.filter((name) => !commandsOf(cli).some((c) => c.name === name))).toEqual([]);
  });

  it('shows each command with its arguments as the program parses them', () => {
    const problems = commandsOf(cli)
      .map((c) => ({ section: `switchboard ${c.name}`, usage: `switchboard ${c.name} ${c.command.usage()}` }))
      .filter(({ section, usage }) => !sections.get(section)?.usage.includes(usage))
      .map(({ usage }) => usage);
    expect(problems, 'synopsis lines (in a fenced block of the section) missing or different').toEqual([]);
  });

  it('documents every option of every command with its flags and default, and nothing else', () => {
    const problems = [
      ...checkOptions(GLOBAL_SECTION, cli.options, sections.get(GLOBAL_SECTION)),
      ...commandsOf(cli).flatMap((c) =>
        checkOptions(`switchboard ${c.name}`, c.command.options, sections.get(`switchboard ${c.name}`)),
      ),
    ];
    expect(problems).toEqual([]);
  });

  it('reads defaults the way the page writes them', () => {
    const c = new Command()
      .option('--n <n>', '', '8')
      .option('--list <x>', '', [])
      .option('--maybe <x>')
      .option('--flag', '', false)
      .option('--no-color');
    const [n, list, maybe, flag, color] = c.options as [Option, Option, Option, Option, Option];
    expect(defaultMatches(n, '`8`').ok && !defaultMatches(n, '`16`').ok).toBe(true);
    expect(defaultMatches(list, 'none').ok && !defaultMatches(list, '`[]`').ok).toBe(true);
    expect(defaultMatches(maybe, '—').ok && defaultMatches(maybe, '*0*').ok && !defaultMatches(maybe, '`0`').ok).toBe(
      true,
    );
    expect(defaultMatches(flag, 'off').ok && !defaultMatches(flag, 'on').ok).toBe(true);
    expect(defaultMatches(color, 'off').ok).toBe(true);
  });
});
