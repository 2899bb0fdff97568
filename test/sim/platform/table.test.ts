import { describe, expect, it } from 'vitest';
import { IndexedTable } from '../../../src/sim/platform/store/table.js';

interface Row {
  id: string;
  name: string;
  parent: string;
  ancestors: string[];
}

function table() {
  return new IndexedTable<Row>({
    name: 'rows',
    key: (r) => r.id,
    parent: (r) => r.parent,
    ancestors: (r) => r.ancestors,
    nameOf: (r) => r.name,
  });
}

describe('IndexedTable', () => {
  it('indexes by parent, ancestor and name, and keeps them right on update and delete', () => {
    const t = table();
    t.insert({ id: '1', name: 'b', parent: 'p1', ancestors: ['p1', 'g'] });
    t.insert({ id: '2', name: 'a', parent: 'p2', ancestors: ['p2', 'g'] });
    expect(t.children('p1').map((r) => r.id)).toEqual(['1']);
    expect(t.countDescendants('g')).toBe(2);
    expect(t.findByName('a', 'p2').map((r) => r.id)).toEqual(['2']);
    t.update('2', { name: 'c' });
    expect(t.findByName('a', 'p2')).toEqual([]);
    expect(t.findByName('c', 'p2').map((r) => r.id)).toEqual(['2']);
    t.delete('1');
    expect(t.children('p1')).toEqual([]);
    expect(t.countDescendants('g')).toBe(1);
    expect(() => t.insert({ id: '2', name: 'x', parent: 'p', ancestors: [] })).toThrow(/duplicate/);
  });

  it('serves sorted views from a cache that a mutation in the scope invalidates', () => {
    const t = table();
    for (const [id, name] of [
      ['1', 'b'],
      ['2', 'C'],
      ['3', 'a'],
    ] as const)
      t.insert({ id, name, parent: 'p', ancestors: ['p', 'g'] });
    const first = t.sorted({ kind: 'ancestor', key: 'g' }, { field: 'name', dir: 'asc' });
    expect(first.map((r) => r.name)).toEqual(['a', 'b', 'C']);
    expect(t.sorted({ kind: 'ancestor', key: 'g' }, { field: 'name', dir: 'asc' })).toBe(first);
    t.insert({ id: '4', name: 'aa', parent: 'p', ancestors: ['p', 'g'] });
    expect(t.sorted({ kind: 'ancestor', key: 'g' }, { field: 'name', dir: 'desc' }).map((r) => r.name)).toEqual([
      'C',
      'b',
      'aa',
      'a',
    ]);
    expect(t.sorted({ kind: 'ancestor', key: 'g' }, { field: 'name', dir: 'asc' }).map((r) => r.name)).toEqual([
      'a',
      'aa',
      'b',
      'C',
    ]);
  });
});

describe('IndexedTable.update', () => {
  it('re-indexes a row whose parent changes (e.g. a number moving to another subscription)', () => {
    const t = table();
    t.insert({ id: '1', name: 'n', parent: 'p1', ancestors: ['p1', 'g1'] });
    expect(t.sorted({ kind: 'parent', key: 'p1' }, { field: 'name', dir: 'asc' })).toHaveLength(1);
    t.update('1', { parent: 'p2', ancestors: ['p2', 'g2'] });
    expect(t.children('p1')).toEqual([]);
    expect(t.children('p2').map((r) => r.id)).toEqual(['1']);
    expect(t.countDescendants('g1')).toBe(0);
    expect(t.sorted({ kind: 'parent', key: 'p1' }, { field: 'name', dir: 'asc' })).toEqual([]);
    expect(t.findByName('n', 'p2').map((r) => r.id)).toEqual(['1']);
  });
});
