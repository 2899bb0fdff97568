import { Pool as UndiciPool } from 'undici';
import { describe, expect, it } from 'vitest';
import { Pool } from '../../src/core/undici-pool.js';

describe('undici Pool loaded on its own', () => {
  it("is undici's own Pool class (the same module, not a copy)", async () => {
    expect(Pool).toBe(UndiciPool);
    const pool = new Pool('http://127.0.0.1:9');
    expect(pool).toBeInstanceOf(UndiciPool);
    await pool.close();
  });
});
